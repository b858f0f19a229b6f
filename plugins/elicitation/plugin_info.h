/* What the elicitation plugin says about itself, read by both of its
 * halves: the implementation (plugin.c and the rest, in
 * lib/mcphost/impl/) and the stub in lib/mcphost/plugins/ (stub.c), which
 * gives the capability without it, so that its code is opened only when
 * a server asks something. */
#ifndef MCPH_ELICIT_PLUGIN_INFO_H
#define MCPH_ELICIT_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.feature.elicitation"
#define PLUGIN_NAME "elicitation"
#define PLUGIN_VERSION "1.0.0"
#define PLUGIN_DESCRIPTION                                                     \
  "Answers servers' elicitation/create (form and URL mode) on the "            \
  "terminal, by policy or through hooks."
#define PLUGIN_REQUESTS "elicitation/create"
#define PLUGIN_NOTIFICATIONS "notifications/elicitation/complete"
/* The client capability, declared unless the policy is off. */
#define ELICIT_CAPS "{\"elicitation\":{\"form\":{},\"url\":{}}}"
/* Its global options (mcph_option initializers), one line each in
 * --help after "--name=ARG": kept short. */
#define PLUGIN_OPTIONS                                                         \
  {"elicitation", "POLICY",                                                    \
   "ask|decline|cancel|accept-defaults|hook:CMD|off"},                         \
      {"elicitation-hook-before", "CMD", "may answer before anyone is asked"}, \
      {"elicitation-hook-after", "CMD", "sees, and may change, every answer"}, \
  {                                                                            \
    "elicitation-hook-timeout", "SECONDS", "how long a hook may run (60)"      \
  }

/* How a request is answered when nobody (or nothing) else answers. */
enum policy_kind {
  POLICY_ASK = 0,         /* the terminal; "decline" when there is none */
  POLICY_DECLINE,         /* {action: decline} */
  POLICY_CANCEL,          /* {action: cancel} */
  POLICY_ACCEPT_DEFAULTS, /* accept with every default filled in */
  POLICY_HOOK,            /* a command answers */
  POLICY_OFF              /* no capability; requests get -32601 */
};

/* policy_word.c: the --elicitation value `v` (given, not empty) read:
 * its policy_kind, with *hook pointing into `v` for POLICY_HOOK, or -1
 * for a value that is none of them. */
int elicit_policy_word(const char *v, const char **hook);

/* What the stub (transports/common/plugin_stub.c, with stub.c)
 * declares: the capability comes from stub_capabilities(). */
#define PLUGIN_EXTENSIONS MCPH_EXT_FEATURE
#define PLUGIN_STUB_CAPABILITIES

#endif
