/* The global options' table (options.h), and getopt's view of it. */
#include <getopt.h>
#include <string.h>

#include "cli/options.h"
#include "util.h"

static const cli_option table[] = {
    {.id = CLI_OPT_MCP_CONFIG,
     .name = "mcp-config",
     .alias = "config",
     .short_name = 'c',
     .arg = "FILE|JSON",
     .session = CLI_SESSION_KEY,
     .help = "read servers from FILE or JSON text\n"
             "({\"mcpServers\": {...}}); repeatable; also\n"
             "--config. The other scopes (enterprise, local,\n"
             ".mcp.json, user, plugins) are read too"},
    {.id = CLI_OPT_STRICT_MCP_CONFIG,
     .name = "strict-mcp-config",
     .session = CLI_SESSION_KEY,
     .help = "use only servers given on the command line"},
    {.id = CLI_OPT_APPROVE_PROJECT,
     .name = "approve-project",
     .session = CLI_SESSION_KEY,
     .help = "use this project's .mcp.json servers that are\n"
             "pending approval (not rejected ones)"},
    {.id = CLI_OPT_ALLOW,
     .name = "allow",
     .arg = "TOOL",
     .session = CLI_SESSION_COMMAND,
     .help = "answer yes when a permission rule asks about\n"
             "TOOL (mcp__SERVER__TOOL; * wildcards); repeatable"},
    {.id = CLI_OPT_SERVER,
     .name = "server",
     .short_name = 's',
     .arg = "SPEC",
     .session = CLI_SESSION_KEY,
     .help = "add a stdio server: [NAME=]COMMAND [ARG...]"},
    {.id = CLI_OPT_URL,
     .name = "url",
     .short_name = 'u',
     .arg = "[NAME=]URL",
     .session = CLI_SESSION_KEY,
     .help = "add a remote server (NAME defaults to the host)"},
    {.id = CLI_OPT_TRANSPORT,
     .name = "transport",
     .arg = "TYPE",
     .session = CLI_SESSION_KEY,
     .completes = CLI_COMPLETES_TRANSPORT,
     .help = "the type of --url servers: http, sse (default:\n"
             "http, then sse if the server answers 4xx)"},
    {.id = CLI_OPT_PLUGIN_DIR,
     .name = "plugin-dir",
     .arg = "DIR",
     .session = CLI_SESSION_KEY,
     .help = "look for plugins in DIR first; repeatable"},
    {.id = CLI_OPT_ROOT,
     .name = "root",
     .arg = "DIR",
     .session = CLI_SESSION_KEY,
     .help = "offer DIR as a root (roots/list) to every\n"
             "server instead of the working directory or\n"
             "a server's \"roots\"; repeatable"},
    {.id = CLI_OPT_NO_ROOTS,
     .name = "no-roots",
     .session = CLI_SESSION_KEY,
     .help = "offer no roots (the capability is not\n"
             "declared); see docs/config.md, Roots"},
    {.id = CLI_OPT_JSON,
     .name = "json",
     .after_command = true,
     .session = CLI_SESSION_COMMAND,
     .help = "machine-readable JSON on stdout"},
    {.id = CLI_OPT_TIMEOUT,
     .name = "timeout",
     .arg = "MS",
     .after_command = true,
     .session = CLI_SESSION_COMMAND,
     .help = "hard deadline for the whole connect and for\n"
             "each request (progress does not extend it)"},
    {.id = CLI_OPT_OUTPUT_DIR,
     .name = "output-dir",
     .arg = "DIR",
     .session = CLI_SESSION_COMMAND,
     .help = "where images and binary results are saved\n"
             "(made 0700 if missing; default: a private\n"
             "$TMPDIR/mcphost-UID)"},
    {.id = CLI_OPT_MAX_OUTPUT_CHARS,
     .name = "max-output-chars",
     .arg = "N",
     .session = CLI_SESSION_COMMAND,
     .help = "cut each text result after N characters,\n"
             "also in a pipe and with --json (note on\n"
             "stderr, exit 9); 0: never, not even on a\n"
             "terminal (default: 100000 on a terminal)"},
    {.id = CLI_OPT_SANITIZE,
     .name = "sanitize",
     .arg = "MODE",
     .values = "full|display|off",
     .session = CLI_SESSION_KEY,
     .completes = CLI_COMPLETES_VALUES,
     .help = "what is done to server text: full (NFKC,\n"
             "invisible characters removed) also for\n"
             "results; display: nothing changed, shown\n"
             "escaped; off: nor invisible characters\n"
             "escaped. Default: names and descriptions\n"
             "full, results as sent (docs/safety.md)"},
    {.id = CLI_OPT_LOG_LEVEL,
     .name = "log-level",
     .arg = "LEVEL",
     .session = CLI_SESSION_KEY,
     .completes = CLI_COMPLETES_LOG_LEVEL,
     .help = "ask servers for log messages from LEVEL up\n"
             "(logging/setLevel); they go to\n"
             "$XDG_STATE_HOME/mcphost/logs/NAME.log, and\n"
             "to stderr with -v"},
    /* The era decides how every server is connected: a session's are
     * connected with its own. */
    {.id = CLI_OPT_PROTOCOL,
     .name = "protocol",
     .arg = "ERA",
     .values = "auto|modern|legacy",
     .session = CLI_SESSION_KEY,
     .completes = CLI_COMPLETES_VALUES,
     .help = "the MCP era for every server, over their\n"
             "protocol keys: detect (auto), 2026-07-28\n"
             "only, or initialize only (docs/protocol.md)"},
    {.id = CLI_OPT_QUIET,
     .name = "quiet",
     .short_name = 'q',
     .after_command = true,
     .session = CLI_SESSION_COMMAND,
     .help = "no progress lines on stderr, and no warning\n"
             "for what a server writes outside the protocol\n"
             "(a banner line on stdout; -v shows it)"},
    {.id = CLI_OPT_VERBOSE,
     .name = "verbose",
     .short_name = 'v',
     .after_command = true,
     .session = CLI_SESSION_COMMAND,
     .help = "more logging on stderr (-vv debug, -vvv wire)\n"
             "(--json, -q, -v and --timeout may also follow\n"
             "the command, before a tool's arguments)"},
    {.id = CLI_OPT_NO_SESSION,
     .name = "no-session",
     .session = CLI_SESSION_HERE,
     .help = "run here, not through a running session"},
    {.id = CLI_OPT_VERSION,
     .name = "version",
     .session = CLI_SESSION_HERE,
     .help = "print the version (with -v also the plugin\n"
             "ABI and the plugin directories searched)"},
    {.id = CLI_OPT_HELP,
     .name = "help",
     .short_name = 'h',
     .after_command = true,
     .session = CLI_SESSION_HERE,
     .help = "this text"},
};

#define NOPTIONS (sizeof table / sizeof table[0])

const cli_option *cli_options(size_t *n) {
  *n = NOPTIONS;
  return table;
}

static bool is_named(const char *name, const char *word, size_t len) {
  return name && strlen(name) == len && strncmp(name, word, len) == 0;
}

const cli_option *cli_option_named(const char *name, size_t len) {
  for (size_t i = 0; i < NOPTIONS; i++) {
    if (is_named(table[i].name, name, len) ||
        is_named(table[i].alias, name, len)) {
      return &table[i];
    }
  }
  return NULL;
}

const cli_option *cli_option_short(char ch) {
  for (size_t i = 0; ch && i < NOPTIONS; i++) {
    if (table[i].short_name == ch) {
      return &table[i];
    }
  }
  return NULL;
}

static int val_of(const cli_option *o) {
  return o->short_name ? o->short_name : CLI_OPT_LONG_BASE + (int)o->id;
}

const cli_option *cli_option_of_val(int val) {
  for (size_t i = 0; i < NOPTIONS; i++) {
    if (val_of(&table[i]) == val) {
      return &table[i];
    }
  }
  return NULL;
}

struct option *cli_options_getopt(size_t extra, size_t *n) {
  size_t k = 0;
  for (size_t i = 0; i < NOPTIONS; i++) {
    k += table[i].alias ? 2 : 1;
  }
  struct option *o = xcalloc(k + extra + 1, sizeof *o);
  k = 0;
  for (size_t i = 0; i < NOPTIONS; i++) {
    int has_arg = table[i].arg ? required_argument : no_argument;
    if (table[i].alias) {
      o[k++] =
          (struct option){table[i].alias, has_arg, NULL, val_of(&table[i])};
    }
    o[k++] = (struct option){table[i].name, has_arg, NULL, val_of(&table[i])};
  }
  *n = k;
  return o;
}

void cli_options_shorts(char buf[CLI_OPT_SHORTS_SIZE]) {
  size_t k = 0;
  buf[k++] = '+';
  buf[k++] = ':';
  for (size_t i = 0; i < NOPTIONS && k + 3 < CLI_OPT_SHORTS_SIZE; i++) {
    if (table[i].short_name) {
      buf[k++] = table[i].short_name;
      if (table[i].arg) {
        buf[k++] = ':';
      }
    }
  }
  buf[k] = '\0';
}

int cli_global_option_arity(const char *word) {
  if (word[0] != '-' || !word[1]) {
    return -1;
  }
  if (word[1] != '-') { /* -c FILE, -s SPEC, -u URL; -q, -v..., -h */
    const cli_option *o = cli_option_short(word[1]);
    return !word[2] && o && o->arg ? 1 : 0;
  }
  size_t n = strcspn(word + 2, "=");
  const cli_option *o = cli_option_named(word + 2, n);
  if (!o) {
    return -1;
  }
  return o->arg && !word[2 + n] ? 1 : 0;
}
