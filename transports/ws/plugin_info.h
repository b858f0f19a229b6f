/* What transport-ws.so says about itself, read by both of its halves: the
 * implementation (ws.c, in lib/mcphost/impl/) and the thin plugin that
 * loads it on first use (../common/plugin_stub.c, in lib/mcphost/plugins/).
 */
#ifndef MCPH_WS_PLUGIN_INFO_H
#define MCPH_WS_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.transport.ws"
#define PLUGIN_NAME "WebSocket transport"
#define PLUGIN_VERSION "0.1.0"
#define PLUGIN_DESCRIPTION                                                     \
  "Talks to an MCP server over a WebSocket (subprotocol mcp): one JSON-RPC "   \
  "message per text frame, ws or wss, on libwebsockets in the host loop."
/* The configuration types served, for a NULL-terminated array. */
#define PLUGIN_TYPES "ws"
/* And what each is (mcph_transport_type_info elements). */
#define PLUGIN_TYPE_INFO                                                       \
  {sizeof(mcph_transport_type_info), "ws", MCPH_TRANSPORT_REMOTE}

#endif
