/* The global options of the command line, in one table (options.c).
 * getopt's long options and short-option string, the Options: section
 * of `mcphost --help` (help.c), which options make a session's key
 * (daemon/daemon_key.c) and what completion offers
 * (interactive/completion.c) are derived
 * from it: an option is added, or changed, in one place.
 * Plugins' options (mcph.options/1) are not in it: main.c appends them
 * to getopt's table at run time. */
#ifndef MCPHOST_CLI_OPTIONS_H
#define MCPHOST_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

struct option;

/* What cli_main does with an option (main.c's switch). */
typedef enum cli_opt_id {
  CLI_OPT_MCP_CONFIG,
  CLI_OPT_STRICT_MCP_CONFIG,
  CLI_OPT_APPROVE_PROJECT,
  CLI_OPT_ALLOW,
  CLI_OPT_SERVER,
  CLI_OPT_URL,
  CLI_OPT_TRANSPORT,
  CLI_OPT_PLUGIN_DIR,
  CLI_OPT_ROOT,
  CLI_OPT_NO_ROOTS,
  CLI_OPT_JSON,
  CLI_OPT_TIMEOUT,
  CLI_OPT_OUTPUT_DIR,
  CLI_OPT_MAX_OUTPUT_CHARS,
  CLI_OPT_SANITIZE,
  CLI_OPT_LOG_LEVEL,
  CLI_OPT_PROTOCOL,
  CLI_OPT_QUIET,
  CLI_OPT_VERBOSE,
  CLI_OPT_NO_SESSION,
  CLI_OPT_VERSION,
  CLI_OPT_HELP
} cli_opt_id;

/* An option towards a running session (session.h). Zero is no class,
 * so an entry that forgets to say is caught (test_option_table.sh) and
 * meanwhile runs here. */
typedef enum cli_opt_session {
  CLI_SESSION_KEY = 1, /* selects servers or shapes their connections: its
                        * name and value are part of the session's key */
  CLI_SESSION_COMMAND, /* the command's own business: it runs through the
                        * session of the other options */
  CLI_SESSION_HERE     /* never through a session (--no-session, --help) */
} cli_opt_session;

/* What completion offers for an option's value. */
typedef enum cli_opt_completes {
  CLI_COMPLETES_TEXT,      /* nothing: the shell's own (files) */
  CLI_COMPLETES_VALUES,    /* the words of `values` */
  CLI_COMPLETES_LOG_LEVEL, /* the MCP logging levels (mcphost_log_level_name) */
  CLI_COMPLETES_TRANSPORT  /* the transport types the plugins serve */
} cli_opt_completes;

typedef struct cli_option {
  cli_opt_id id;
  const char *name;  /* the long name, without "--" */
  const char *alias; /* another long name for it, or NULL */
  char short_name;   /* -X, or 0 */
  /* The value's name in --help ("--root DIR"), or NULL when the option
   * takes none. */
  const char *arg;
  /* The values it takes, '|'-separated, or NULL: shown "--NAME=VALUES"
   * in --help and offered by completion. */
  const char *values;
  /* It may also follow the command (main.c's take_tail_options). */
  bool after_command;
  cli_opt_session session;
  cli_opt_completes completes;
  const char *help; /* its --help text, lines separated by '\n' */
} cli_option;

/* The table, in --help's order; *n its length. */
const cli_option *cli_options(size_t *n);
/* The option named `name` (`len` bytes, no "--"; an alias too), or
 * NULL. No abbreviation is taken. */
const cli_option *cli_option_named(const char *name, size_t len);
/* The option whose short name is `ch`, or NULL. */
const cli_option *cli_option_short(char ch);

/* getopt_long's view. The value getopt returns for an option: its short
 * name, or CLI_OPT_LONG_BASE + its id. Plugins' options come from
 * CLI_OPT_PLUGIN_BASE on (main.c). */
#define CLI_OPT_LONG_BASE 256
#define CLI_OPT_PLUGIN_BASE 1000
/* The option getopt_long returned `val` for, or NULL. */
const cli_option *cli_option_of_val(int val);
/* A new getopt_long table: every name and alias, then `extra` zeroed
 * entries and the terminating one; *n the names written. Free it. */
struct option *cli_options_getopt(size_t extra, size_t *n);
/* getopt's short-option string ("+:c:s:u:qvh") into `buf`: options end
 * at the first word that is none ('+'), a missing value is ':'. */
#define CLI_OPT_SHORTS_SIZE 64
void cli_options_shorts(char buf[CLI_OPT_SHORTS_SIZE]);

/* For completion and call: -1 when `word` is no global option, 1 when it
 * is one whose value is the next word, else 0. */
int cli_global_option_arity(const char *word);

#endif
