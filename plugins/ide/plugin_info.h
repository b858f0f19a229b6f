/* What the IDE plugin says about itself, read by both of its halves: the
 * implementation (plugin.c and the rest, in lib/mcphost/impl/) and its
 * stub in lib/mcphost/plugins/ (transports/common/plugin_stub.c, with
 * stub.c), so that a run that does not ask for the IDE opens none of its
 * code. */
#ifndef MCPH_IDE_PLUGIN_INFO_H
#define MCPH_IDE_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.ide"
#define PLUGIN_NAME "ide"
#define PLUGIN_VERSION "0.1.0"
#define PLUGIN_DESCRIPTION                                                     \
  "the IDE integration: lockfile discovery, --ide, transports ws-ide and "     \
  "sse-ide, `mcphost ide`"
#define IDE_COMMAND "ide"
#define PLUGIN_COMMANDS IDE_COMMAND
#define PLUGIN_SOURCE "the IDE mcphost runs in, from its lockfile"
/* Its transport types, and what they are (both halves list them). */
#define PLUGIN_TYPES "ws-ide", "sse-ide"
#define PLUGIN_TYPE_INFO                                                       \
  {sizeof(mcph_transport_type_info), "ws-ide", MCPH_TRANSPORT_LOCAL}, {        \
    sizeof(mcph_transport_type_info), "sse-ide", MCPH_TRANSPORT_LOCAL          \
  }
#define IDE_OPTION "ide"
#define IDE_OPTION_HELP                                                        \
  "connect to the IDE whose workspace holds the working directory, as "        \
  "server \"ide\""
/* What the stub declares. Its feature (the ide_connected notification,
 * the IDE's own notifications) serves only the plugin's own servers, so
 * it is not listed: it joins once the plugin runs. */
#define PLUGIN_EXTENSIONS                                                      \
  MCPH_EXT_TRANSPORT, MCPH_EXT_SERVER_SOURCE, MCPH_EXT_COMMAND
#define PLUGIN_OPTIONS                                                         \
  { IDE_OPTION, NULL, IDE_OPTION_HELP }

#endif
