/* What transport-http.so says about itself, read by both of its halves:
 * the implementation (http.c, in lib/mcphost/impl/) and the thin plugin
 * that loads it on first use (../common/plugin_stub.c, in
 * lib/mcphost/plugins/). */
#ifndef MCPH_HTTP_PLUGIN_INFO_H
#define MCPH_HTTP_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.transport.http"
#define PLUGIN_NAME "streamable HTTP transport"
#define PLUGIN_VERSION "0.1.0"
#define PLUGIN_DESCRIPTION                                                     \
  "Talks to an MCP server over streamable HTTP: a POST per message, JSON or "  \
  "event-stream replies, a standalone GET stream, resumption with "            \
  "Last-Event-ID."
/* The configuration types served, for a NULL-terminated array. */
#define PLUGIN_TYPES "http"
/* And what each is (mcph_transport_type_info elements). */
#define PLUGIN_TYPE_INFO                                                       \
  {sizeof(mcph_transport_type_info), "http", MCPH_TRANSPORT_REMOTE}

#endif
