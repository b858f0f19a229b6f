/* What the claude.ai plugin says about itself, read by both of its
 * halves: the implementation (plugin.c, in lib/mcphost/impl/) and the
 * stub in lib/mcphost/plugins/ (stub.c), which names it, so that a run
 * that has not opted in to the connectors opens none of its code. */
#ifndef MCPHOST_CLAUDEAI_PLUGIN_INFO_H
#define MCPHOST_CLAUDEAI_PLUGIN_INFO_H

#define CLAUDEAI_ID "mcphost.claudeai"
#define CLAUDEAI_NAME "claude.ai connectors"
#define CLAUDEAI_VERSION "0.1.0"
#define CLAUDEAI_DESCRIPTION                                                   \
  "The MCP connectors configured on claude.ai, through Anthropic's MCP "       \
  "proxy with Claude Code's claude.ai login (opt-in: "                         \
  "ENABLE_CLAUDEAI_MCP_SERVERS=1 or \"claudeAiConnectors\": true)."
#define CLAUDEAI_SOURCE "claude.ai connectors (opt-in)"
#define CLAUDEAI_TYPE_INFO                                                     \
  { sizeof(mcph_transport_type_info), "claudeai-proxy", MCPH_TRANSPORT_REMOTE }

#endif
