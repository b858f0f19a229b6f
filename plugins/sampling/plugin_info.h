/* What the sampling plugin says about itself, read by both of its
 * halves: the implementation (plugin.c, in lib/mcphost/impl/) and the
 * stub in lib/mcphost/plugins/ (stub.c), which gives the capability
 * without it, so that its code is opened only when a server asks for a
 * sample. */
#ifndef MCPH_SAMPLING_PLUGIN_INFO_H
#define MCPH_SAMPLING_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.feature.sampling"
#define PLUGIN_NAME "sampling"
#define PLUGIN_VERSION "1.0.0"
#define PLUGIN_DESCRIPTION                                                     \
  "Answers servers' sampling/createMessage through a hook command "            \
  "(--sampling=hook:COMMAND; off by default)."
#define PLUGIN_REQUESTS "sampling/createMessage"
/* The client capability, declared only when a hook will answer. */
#define SAMPLING_CAPS "{\"sampling\":{}}"
/* Its global options (mcph_option initializers). */
#define PLUGIN_OPTIONS                                                         \
  {"sampling", "POLICY", "decline|hook:CMD (default decline)"},                \
      {"sampling-hook-timeout", "SECONDS", "how long the hook may run (120)"}, \
  {                                                                            \
    "sampling-outside-calls", "SERVERS",                                       \
        "servers (comma-separated, * for all) whose sampling requests "        \
        "outside a call are answered (default none)"                           \
  }

/* policy_word.c: the --sampling value `v` read: the hook's command, or
 * NULL for decline (not given, empty or "decline"); *unknown is set for a
 * value that is neither (which declines, with a warning). */
const char *sampling_policy_word(const char *v, int *unknown);

/* What the stub (transports/common/plugin_stub.c, with stub.c)
 * declares: the capability comes from stub_capabilities(). */
#define PLUGIN_EXTENSIONS MCPH_EXT_FEATURE
#define PLUGIN_STUB_CAPABILITIES

#endif
