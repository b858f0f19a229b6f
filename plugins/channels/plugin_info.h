/* What the channels plugin says about itself, read by both of its
 * halves: the implementation (plugin.c, format.c, in lib/mcphost/impl/)
 * and the stub in lib/mcphost/plugins/ (stub.c), whose note lets every
 * command start without opening the implementation. It is opened when
 * --channels names servers (it must see every connection from the
 * first), when `mcphost channels` runs, when a server sends a channel
 * message or a permission answer, when a permission question is asked,
 * and when a server is described (`mcphost servers -v`); the servers
 * connected before it was opened are replayed to it then
 * (docs/plugin-abi.md, "Sleeping features"). */
#ifndef MCPH_CHANNELS_PLUGIN_INFO_H
#define MCPH_CHANNELS_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.feature.channels"
#define PLUGIN_NAME "channels"
#define PLUGIN_VERSION "0.1.0"
#define PLUGIN_DESCRIPTION                                                     \
  "channel messages from servers, `mcphost channels listen`, and "             \
  "permission answers relayed through them"
#define M_MESSAGE "notifications/claude/channel"
#define M_PERM_REQUEST "notifications/claude/channel/permission_request"
#define M_PERM_ANSWER "notifications/claude/channel/permission"
#define PLUGIN_NOTIFICATIONS M_MESSAGE, M_PERM_ANSWER
#define PLUGIN_COMMANDS "channels"
/* Its global option (an mcph_option initializer). */
#define PLUGIN_OPTIONS                                                         \
  {                                                                            \
    "channels", "NAME,...",                                                    \
        "admit these servers as channels (messages, permission answers)"       \
  }

/* What the stub (transports/common/plugin_stub.c, with stub.c)
 * declares: whether the implementation runs from the first handshake
 * comes from stub_capabilities(). */
#define PLUGIN_EXTENSIONS                                                      \
  MCPH_EXT_FEATURE, MCPH_EXT_PERMISSION, MCPH_EXT_COMMAND
#define PLUGIN_STUB_CAPABILITIES

#endif
