/* What the claude.ai plugin says about itself, read by both of its
 * halves: the implementation (plugin.c, in lib/mcphost/impl/) and the
 * stub in lib/mcphost/plugins/ (stub.c), which names it, so that a run
 * that has not opted in to the connectors opens none of its code. */
#ifndef MCPHOST_CLAUDEAI_PLUGIN_INFO_H
#define MCPHOST_CLAUDEAI_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.claudeai"
#define PLUGIN_NAME "claude.ai connectors"
#define PLUGIN_VERSION "0.1.0"
#define PLUGIN_DESCRIPTION                                                     \
  "The MCP connectors configured on claude.ai, through Anthropic's MCP "       \
  "proxy with Claude Code's claude.ai login (opt-in: "                         \
  "ENABLE_CLAUDEAI_MCP_SERVERS=1 or \"claudeAiConnectors\": true)."
#define PLUGIN_SOURCE "claude.ai connectors (opt-in)"
#define PLUGIN_TYPE_INFO                                                       \
  { sizeof(mcph_transport_type_info), "claudeai-proxy", MCPH_TRANSPORT_REMOTE }

/* What the stub (transports/common/plugin_stub.c) declares. */
#define PLUGIN_TYPES "claudeai-proxy"
#define PLUGIN_EXTENSIONS                                                      \
  MCPH_EXT_SERVER_SOURCE, MCPH_EXT_TRANSPORT, MCPH_EXT_AUTH

#endif
