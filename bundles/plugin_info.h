/* What the bundle plugin says about itself, read by both of its halves:
 * the implementation (plugin.c, in lib/mcphost/impl/) and the stub in
 * lib/mcphost/plugins/ (stub.c), which names it, so that a run with no
 * bundle installed and no bundle command opens none of its code. */
#ifndef MCPB_PLUGIN_INFO_H
#define MCPB_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.feature.mcpb"
#define PLUGIN_NAME "mcpb"
#define PLUGIN_VERSION "0.1.0"
#define PLUGIN_DESCRIPTION                                                     \
  "MCPB bundles: `mcphost bundle install|list|info|verify|...`, and "          \
  "installed bundles as servers"
#define MCPB_COMMAND "bundle"
#define PLUGIN_COMMANDS MCPB_COMMAND
#define PLUGIN_SOURCE "installed MCPB bundles"

/* What the stub (transports/common/plugin_stub.c) declares. */
#define PLUGIN_EXTENSIONS MCPH_EXT_COMMAND, MCPH_EXT_SERVER_SOURCE

#endif
