/* What the bundle plugin says about itself, read by both of its halves:
 * the implementation (plugin.c, in lib/mcphost/impl/) and the stub in
 * lib/mcphost/plugins/ (stub.c), which names it, so that a run with no
 * bundle installed and no bundle command opens none of its code. */
#ifndef MCPB_PLUGIN_INFO_H
#define MCPB_PLUGIN_INFO_H

#define MCPB_ID "mcphost.feature.mcpb"
#define MCPB_NAME "mcpb"
#define MCPB_VERSION "0.1.0"
#define MCPB_DESCRIPTION                                                       \
  "MCPB bundles: `mcphost bundle install|list|info|verify|...`, and "          \
  "installed bundles as servers"
#define MCPB_COMMAND "bundle"
#define MCPB_SOURCE "installed MCPB bundles"

#endif
