/* What transport-sse.so says about itself, read by both of its halves:
 * the implementation (sse_transport.c, in lib/mcphost/impl/) and the thin
 * plugin that loads it on first use (../common/plugin_stub.c, in
 * lib/mcphost/plugins/). */
#ifndef MCPH_SSE_PLUGIN_INFO_H
#define MCPH_SSE_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.transport.sse"
#define PLUGIN_NAME "sse transport"
#define PLUGIN_VERSION "0.1.0"
#define PLUGIN_DESCRIPTION                                                     \
  "MCP's legacy HTTP+SSE transport (2024-11-05): server messages on a GET "    \
  "event stream, client messages POSTed to the endpoint it names."
/* The configuration types served, for a NULL-terminated array. */
#define PLUGIN_TYPES "sse"
/* And what each is (mcph_transport_type_info elements). */
#define PLUGIN_TYPE_INFO                                                       \
  {sizeof(mcph_transport_type_info), "sse", MCPH_TRANSPORT_REMOTE}

#endif
