/* mcphost: the command line. Parses options, sets up the host (plugins,
 * configuration), runs one command, and closes every server cleanly. */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/session.h"
#include "cli/version.h"
#include "config/roots.h"
#include "util.h"
#include "env_ms.h"
#include "mcp/log_level.h"
#include "mcp/protocol.h"
#include "suggest.h"

static const char usage_text[] =
    "usage: mcphost [OPTIONS] COMMAND [ARGS...]\n"
    "\n"
    "Commands:\n"
    "  servers [SERVER]           connect and show each server's state and "
    "counts\n"
    "  tools [--all] [SERVER]     list tools as mcp__SERVER__TOOL\n"
    "  resources [SERVER]         list resources and resource templates\n"
    "  prompts [SERVER]           list prompts and their arguments\n"
    "  tool TOOL                  what a tool takes: its signature, "
    "description,\n"
    "                             parameters, output schema and annotations\n"
    "  call TOOL [--no-validate] [--follow-links[=N]] [--task] [--detach]\n"
    "       [--args JSON|@FILE] [JSON | KEY=VALUE ...]\n"
    "                             call a tool (TOOL: mcp__SERVER__TOOL or "
    "SERVER/TOOL);\n"
    "                             KEY=VALUE by the tool's schema (a string "
    "keeps\n"
    "                             the text), KEY:=JSON, KEY=@FILE (@- stdin),\n"
    "                             a.b=1 nested; checked locally (exit 2); the\n"
    "                             options also after the arguments, up to --\n"
    "  ping SERVER...             each server's round trip for an MCP ping\n"
    "  grep [-i] PATTERN [SERVER] tools, prompts and resources whose name or\n"
    "                             description matches a regular expression\n"
    "  complete PROMPT|SERVER/URI-TEMPLATE ARG PREFIX [NAME=VALUE ...]\n"
    "                             the values a server proposes for ARG\n"
    "  subscribe SERVER URI [--read]\n"
    "                             print each update of a resource until\n"
    "                             Ctrl-C\n"
    "  task status|result|cancel SERVER ID, task list SERVER\n"
    "                             a task that call --task/--detach started\n"
    "  read SERVER URI            read a resource\n"
    "  prompt PROMPT [ARG | NAME=VALUE ...]\n"
    "                             get a prompt; positional ARGs fill the "
    "declared\n"
    "                             arguments in order\n"
    "  batch                      read JSON requests from stdin, one per "
    "line:\n"
    "                             "
    "{\"id\":1,\"call\":TOOL,\"arguments\":{...}},\n"
    "                             {\"read\":SERVER,\"uri\":URI}, "
    "{\"prompt\":PROMPT,\n"
    "                             \"arguments\":{...}}, "
    "{\"list\":\"tools\"[,\"server\":S]},\n"
    "                             {\"subscribe\":SERVER,\"uri\":URI}, "
    "\"unsubscribe\",\n"
    "                             {\"roots\":[DIR...]}; answers one JSON line\n"
    "                             each, as they complete (batch --help)\n"
    "  serve --stdio | --http HOST:PORT [--server NAME]... [--passthrough]\n"
    "                             one MCP server (stdin/stdout, or streamable\n"
    "                             HTTP) in front of the configured ones\n"
    "                             (serve --help; docs/gateway.md)\n"
    "  session start [--idle MINUTES] | stop | status [--json]\n"
    "                             a background process keeping the servers\n"
    "                             connected; the commands above then run\n"
    "                             through it (docs/sessions.md)\n"
    "  shell                      an interactive session: the commands above "
    "on\n"
    "                             servers kept connected, with editing, "
    "history\n"
    "                             and completion (shell --help)\n"
    "  completion bash|zsh|fish   a completion script for the shell named\n"
    "  plugins                    list plugins found, loaded or refused, and "
    "why\n"
    "  plugin check FILE.so       whether a plugin loads, and what it offers\n"
    "  mcp list|get|add|add-json|remove|approve|reject|reset-project-choices|\n"
    "      import ...             manage configured servers like `claude mcp`\n"
    "                             (mcphost mcp --help; docs/config.md)\n"
    "  COMMAND --help             what COMMAND does and takes\n"
    "\n"
    "Options:\n"
    "  -c, --mcp-config FILE|JSON read servers from FILE or JSON text\n"
    "                             ({\"mcpServers\": {...}}); repeatable; also\n"
    "                             --config. The other scopes (enterprise, "
    "local,\n"
    "                             .mcp.json, user, plugins) are read too\n"
    "      --strict-mcp-config    use only servers given on the command line\n"
    "      --approve-project      use this project's .mcp.json servers that "
    "are\n"
    "                             pending approval (not rejected ones)\n"
    "      --allow TOOL           answer yes when a permission rule asks "
    "about\n"
    "                             TOOL (mcp__SERVER__TOOL; * wildcards); "
    "repeatable\n"
    "  -s, --server SPEC          add a stdio server: [NAME=]COMMAND [ARG...]\n"
    "  -u, --url [NAME=]URL       add a remote server (NAME defaults to the "
    "host)\n"
    "      --transport TYPE       the type of --url servers: http, sse "
    "(default:\n"
    "                             http, then sse if the server answers 4xx)\n"
    "      --plugin-dir DIR       look for plugins in DIR first; repeatable\n"
    "      --root DIR             offer DIR as a root (roots/list) to every\n"
    "                             server instead of the working directory or\n"
    "                             a server's \"roots\"; repeatable\n"
    "      --no-roots             offer no roots (the capability is not\n"
    "                             declared); see docs/config.md, Roots\n"
    "      --json                 machine-readable JSON on stdout\n"
    "      --timeout MS           hard deadline for the whole connect and for\n"
    "                             each request (progress does not extend it)\n"
    "      --output-dir DIR       where images and binary results are saved\n"
    "                             (made 0700 if missing; default: a private\n"
    "                             $TMPDIR/mcphost-UID)\n"
    "      --max-output-chars N   cut each text result after N characters,\n"
    "                             also in a pipe and with --json (note on\n"
    "                             stderr, exit 9); 0: never, not even on a\n"
    "                             terminal (default: 100000 on a terminal)\n"
    "      --sanitize=full|display|off\n"
    "                             what is done to server text: full (NFKC,\n"
    "                             invisible characters removed) also for\n"
    "                             results; display: nothing changed, shown\n"
    "                             escaped; off: nor invisible characters\n"
    "                             escaped. Default: names and descriptions\n"
    "                             full, results as sent (docs/safety.md)\n"
    "      --log-level LEVEL      ask servers for log messages from LEVEL up\n"
    "                             (logging/setLevel); they go to\n"
    "                             $XDG_STATE_HOME/mcphost/logs/NAME.log, and\n"
    "                             to stderr with -v\n"
    "      --protocol=auto|modern|legacy\n"
    "                             the MCP era for every server, over their\n"
    "                             protocol keys: detect (auto), 2026-07-28\n"
    "                             only, or initialize only (docs/protocol.md)\n"
    "  -q, --quiet                no progress lines on stderr, and no warning\n"
    "                             for what a server writes outside the "
    "protocol\n"
    "                             (a banner line on stdout; -v shows it)\n"
    "  -v, --verbose              more logging on stderr (-vv debug, -vvv "
    "wire)\n"
    "                             (--json, -q, -v and --timeout may also "
    "follow\n"
    "                             the command, before a tool's arguments)\n"
    "      --no-session           run here, not through a running session\n"
    "      --version              print the version (with -v also the plugin\n"
    "                             ABI and the plugin directories searched)\n"
    "  -h, --help                 this text\n"
    "\n"
    "Environment:\n"
    "  MCPHOST_PLUGIN_PATH        more plugin directories, ':'-separated, "
    "searched\n"
    "                             after --plugin-dir and before the built-in "
    "one\n"
    "  MCPHOST_SYSTEM_CONFIG_DIR  enterprise directory (default /etc/mcphost)\n"
    "  XDG_CONFIG_HOME            user settings in $XDG_CONFIG_HOME/mcphost/\n"
    "  MCPHOST_APPROVE_PROJECT_SERVERS=1   as --approve-project (for CI)\n"
    "  MCPHOST_NO_SESSION=1       as --no-session\n"
    "  MCP_TIMEOUT                deadline of the whole connect in ms "
    "(default\n"
    "                             30000)\n"
    "  MCP_TOOL_TIMEOUT           tool call deadline in ms (default 600000)\n"
    "  MCPHOST_REQUEST_TIMEOUT    other requests' deadline in ms (default "
    "60000)\n"
    "  MCP_SERVER_CONNECTION_BATCH_SIZE  local (stdio) servers connected at\n"
    "                             once (default 3)\n"
    "  MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE  remote servers connected at\n"
    "                             once (default 20)\n"
    "  MCPHOST_STDIO_EXIT_MS      how long a stdio server may take to exit "
    "once\n"
    "                             its stdin is closed, before SIGTERM "
    "(default\n"
    "                             2000; SIGKILL 1000 ms after; Ctrl-C "
    "hurries)\n"
    "  MCPHOST_STILL_RUNNING_MS   on a terminal, a line this often while a "
    "tool\n"
    "                             call runs (default 30000)\n"
    "  MCPHOST_LIST_CACHE_TTL     batch: how long a tool list is kept, ms "
    "(20000)\n"
    "  MCPHOST_SERVE_REQUEST_MS   serve --http: time for a connection's next\n"
    "                             request, ms (default 30000)\n"
    "  MCPHOST_MAX_NAME_CHARS     longest mcp__SERVER__TOOL name (default 64, "
    "at\n"
    "                             least 32); longer ones are cut and hashed\n"
    "  MCPHOST_MAX_DESCRIPTION_CHARS\n"
    "                             tool and prompt descriptions are cut after "
    "this\n"
    "                             many characters (default 2048)\n"
    "  MCPHOST_MAX_OUTPUT_CHARS   as --max-output-chars: its limit replaces "
    "the\n"
    "                             terminal's 100000; the full text is saved "
    "to\n"
    "                             a file named in the note\n"
    "\n"
    "Exit codes:\n"
    "  0    success\n"
    "  1    the tool ran and returned isError\n"
    "  2    usage error (bad option, argument or JSON; a --url, --server,\n"
    "       --transport or --mcp-config that cannot be read)\n"
    "  3    a server failed: not startable, unreachable, misconfigured, no "
    "plugin\n"
    "       for its type, or it went away\n"
    "  4    protocol error: the server answered with an error or broke MCP\n"
    "  5    a deadline passed\n"
    "  6    no such server, tool, prompt or resource\n"
    "  7    the server needs authorization (needs-auth)\n"
    "  8    refused: the server is pending approval, rejected, denied or\n"
    "       disabled, or a permission rule denied the tool call\n"
    "  9    done, but a text result was cut as --max-output-chars or\n"
    "       MCPHOST_MAX_OUTPUT_CHARS asked\n"
    "  10   the output could not be written (stdout full or failing; a pipe\n"
    "       closed by its reader ends quietly with 141)\n"
    "  20-29  plugin check: the plugin is not loadable, one code per reason\n"
    "       (mcphost plugin --help)\n"
    "  130  interrupted (Ctrl-C); pending requests were cancelled\n"
    "  143  terminated (SIGTERM); any signal N gives 128 + N\n";

/* Where a command's own words begin: no word from there on is taken for
 * a global option. */
typedef enum {
  TAIL_ANY,       /* every word before "--" may be a global option */
  TAIL_ARGUMENTS, /* up to the first KEY=VALUE or JSON argument, or "--" */
  TAIL_MCP,       /* up to "--" (a server's command line) or a JSON entry */
  TAIL_OWN        /* the command parses its other options itself */
} tail_rule;

typedef struct command {
  const char *name;
  int (*run)(cli *c, int argc, char **argv);
  bool needs_servers;
  tail_rule tail;
} command;

static const command commands[] = {
    {"servers", cmd_servers, true, TAIL_ANY},
    {"tools", cmd_tools, true, TAIL_ANY},
    {"resources", cmd_resources, true, TAIL_ANY},
    {"prompts", cmd_prompts, true, TAIL_ANY},
    {"tool", cmd_tool, true, TAIL_ANY},
    {"ping", cmd_ping, true, TAIL_ANY},
    {"task", cmd_task, true, TAIL_ANY},
    {"call", cmd_call, true, TAIL_OWN},
    {"read", cmd_read, true, TAIL_ANY},
    {"prompt", cmd_prompt, true, TAIL_ARGUMENTS},
    {"plugins", cmd_plugins, false, TAIL_ANY},
    {"plugin", cmd_plugin, false, TAIL_ANY},
    {"batch", cmd_batch, true, TAIL_ANY},
    {"serve", cmd_serve, true, TAIL_OWN},
    {"mcp", cmd_mcp, false, TAIL_MCP},
    {"grep", cmd_grep, true, TAIL_OWN},
    {"complete", cmd_complete, true, TAIL_ARGUMENTS},
    {"subscribe", cmd_subscribe, true, TAIL_OWN},
    {"session", cmd_session, false, TAIL_OWN},
    {"shell", cmd_shell, true, TAIL_ANY},
    {"completion", cmd_completion, false, TAIL_ANY},
};
/* `prompt PROMPT --help`: that prompt's arguments. */
static const command prompt_help = {"prompt", cmd_prompt_help, true,
                                    TAIL_ARGUMENTS};

static bool parse_timeout(cli *c, const char *arg) {
  uint64_t ms;
  if (!ms_parse(arg, false, &ms)) {
    cli_error(c, NULL,
              "--timeout needs a positive number of milliseconds, not \"%s\"",
              arg);
    return false;
  }
  c->connect_timeout_ms = c->request_timeout_ms = c->tool_timeout_ms = ms;
  c->timeout_given = c->tool_timeout_given = c->request_timeout_given = true;
  return true;
}

/* A word that is a tool's or prompt's argument: KEY=VALUE or JSON. */
static bool is_argument_word(const char *a) {
  return a[0] == '{' || a[0] == '[' || (a[0] != '-' && strchr(a, '=') != NULL);
}

/* Takes the global options that may follow the command (--json, -v...,
 * --verbose, -q, --quiet, --timeout MS, -h, --help) out of argv (argv[0]
 * is the command), as if they had come before it, up to where the
 * command's own words begin (`rule`). Returns EXIT_OK or EXIT_USAGE with
 * the reason printed. */
static int take_tail_options(cli *c, tail_rule rule, int *argc, char **argv,
                             int *verbosity, bool *help) {
  int kept = 1, i = 1;
  for (; i < *argc; i++) {
    char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      if (rule == TAIL_ARGUMENTS)
        i++; /* it only ends the options */
      break;
    }
    if ((rule == TAIL_ARGUMENTS && is_argument_word(a)) ||
        (rule == TAIL_MCP && a[0] == '{'))
      break;
    if (strcmp(a, "--json") == 0) {
      c->json = true;
    } else if (strcmp(a, "--all") == 0 && strcmp(argv[0], "tools") == 0) {
      c->all_tools = true;
    } else if (strcmp(a, "--verbose") == 0) {
      (*verbosity)++;
    } else if (a[0] == '-' && a[1] == 'v' &&
               strspn(a + 1, "v") == strlen(a + 1)) {
      *verbosity += (int)strlen(a + 1);
    } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
      c->quiet_progress = true;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      *help = true;
    } else if (strcmp(a, "--timeout") == 0 ||
               strncmp(a, "--timeout=", 10) == 0) {
      const char *v = a[9] == '=' ? a + 10 : i + 1 < *argc ? argv[++i] : NULL;
      if (!v) {
        cli_error(c, NULL, "--timeout needs a number of milliseconds");
        return EXIT_USAGE;
      }
      if (!parse_timeout(c, v))
        return EXIT_USAGE;
    } else if (rule == TAIL_ANY && a[0] == '-' && a[1]) {
      /* These commands take no options of their own. */
      cli_error(c, NULL, "%s: unknown option \"%s\"; try 'mcphost %s --help'",
                argv[0], a, argv[0]);
      return EXIT_USAGE;
    } else {
      argv[kept++] = a;
    }
  }
  for (; i < *argc; i++)
    argv[kept++] = argv[i];
  argv[kept] = NULL;
  *argc = kept;
  return EXIT_OK;
}

/* `--help` given to a plugin's command: its usage line and help. */
static bool plugin_command_help(const plugin_command *pc, int argc,
                                char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("usage: mcphost [OPTIONS] %s\n\n%s\n",
             pc->cmd->usage ? pc->cmd->usage : pc->cmd->name,
             pc->cmd->help ? pc->cmd->help : "");
      return true;
    }
  }
  return false;
}

/* --plugin-dir must be known before the options are parsed, because
 * plugins declare options of their own: find every occurrence first. */
static size_t prescan_plugin_dirs(int argc, char **argv, const char **dirs) {
  size_t n = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0)
      break;
    if (strcmp(argv[i], "--plugin-dir") == 0 && i + 1 < argc)
      dirs[n++] = argv[++i];
    else if (strncmp(argv[i], "--plugin-dir=", 13) == 0)
      dirs[n++] = argv[i] + 13;
  }
  return n;
}

/* The options every loaded plugin declares (mcph.options/1), in search
 * order; a name already taken is skipped with a warning. */
typedef struct plugin_opts {
  struct option *longopts; /* built-ins, then the plugins' */
  const mcph_option **decl; /* decl[k] for longopts[nbuiltin + k] */
  size_t nbuiltin, nplugin;
} plugin_opts;

#define OPT_PLUGIN_BASE 1000

static void collect_plugin_options(host *h, const struct option *builtin,
                                   plugin_opts *po) {
  size_t nb = 0;
  while (builtin[nb].name)
    nb++;
  po->nbuiltin = nb;
  po->longopts = xcalloc(nb + 1, sizeof *po->longopts);
  memcpy(po->longopts, builtin, nb * sizeof *builtin);
  for (size_t i = 0; i < host_registry(h)->nplugins; i++) {
    plugin *p = host_registry(h)->plugins[i];
    const mcph_options *o = plugin_options(p);
    if (!o)
      continue;
    for (size_t k = 0; k < o->count; k++) {
      const mcph_option *d = &o->options[k];
      bool taken = !d->name || !*d->name;
      for (size_t j = 0; j < po->nbuiltin + po->nplugin && !taken; j++)
        taken = strcmp(po->longopts[j].name, d->name) == 0;
      if (taken) {
        host_log(h, MCPH_LOG_WARN, p->id,
                 "option --%s is already taken; ignored", d->name ? d->name : "");
        continue;
      }
      size_t at = po->nbuiltin + po->nplugin;
      po->longopts = xrealloc(po->longopts, (at + 2) * sizeof *po->longopts);
      po->decl = xrealloc(po->decl, (po->nplugin + 1) * sizeof *po->decl);
      po->longopts[at] = (struct option){
          d->name, d->arg ? required_argument : no_argument, NULL,
          OPT_PLUGIN_BASE + (int)po->nplugin};
      memset(&po->longopts[at + 1], 0, sizeof po->longopts[at + 1]);
      po->decl[po->nplugin++] = d;
    }
  }
}

static void print_plugin_options(const plugin_opts *po, FILE *f) {
  if (po->nplugin == 0)
    return;
  fputs("\nPlugin options:\n", f);
  for (size_t k = 0; k < po->nplugin; k++) {
    const mcph_option *d = po->decl[k];
    char left[64];
    snprintf(left, sizeof left, "--%s%s%s", d->name, d->arg ? "=" : "",
             d->arg ? d->arg : "");
    if (strlen(left) > 24) /* a long name: its help on the next line */
      fprintf(f, "      %s\n      %-24s %s\n", left, "", d->help ? d->help : "");
    else
      fprintf(f, "      %-24s %s\n", left, d->help ? d->help : "");
  }
}

/* The built-in global options (plugins add theirs to a copy). */
enum {
  OPT_PLUGIN_DIR = 256,
  OPT_JSON,
  OPT_TIMEOUT,
  OPT_VERSION,
  OPT_OUTDIR,
  OPT_TRANSPORT,
  OPT_LOG_LEVEL,
  OPT_PROTOCOL,
  OPT_STRICT_MCP_CONFIG,
  OPT_APPROVE_PROJECT,
  OPT_ALLOW,
  OPT_ROOT,
  OPT_NO_ROOTS,
  OPT_SANITIZE,
  OPT_MAX_OUTPUT,
  OPT_NO_SESSION
};
static const struct option longopts[] = {
    {"config", required_argument, NULL, 'c'},
    {"mcp-config", required_argument, NULL, 'c'},
    {"strict-mcp-config", no_argument, NULL, OPT_STRICT_MCP_CONFIG},
    {"approve-project", no_argument, NULL, OPT_APPROVE_PROJECT},
    {"allow", required_argument, NULL, OPT_ALLOW},
    {"server", required_argument, NULL, 's'},
    {"url", required_argument, NULL, 'u'},
    {"transport", required_argument, NULL, OPT_TRANSPORT},
    {"log-level", required_argument, NULL, OPT_LOG_LEVEL},
    {"protocol", required_argument, NULL, OPT_PROTOCOL},
    {"plugin-dir", required_argument, NULL, OPT_PLUGIN_DIR},
    {"root", required_argument, NULL, OPT_ROOT},
    {"no-roots", no_argument, NULL, OPT_NO_ROOTS},
    {"json", no_argument, NULL, OPT_JSON},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"output-dir", required_argument, NULL, OPT_OUTDIR},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"help", no_argument, NULL, 'h'},
    {"sanitize", required_argument, NULL, OPT_SANITIZE},
    {"max-output-chars", required_argument, NULL, OPT_MAX_OUTPUT},
    {"no-session", no_argument, NULL, OPT_NO_SESSION},
    {NULL, 0, NULL, 0}};

const struct option *cli_options(void) { return longopts; }

int cli_global_option_arity(const char *word) {
  if (word[0] != '-' || !word[1]) {
    return -1;
  }
  if (word[1] != '-') { /* -c FILE, -s SPEC, -u URL; -q, -v..., -h */
    return word[2] ? 0 : strchr("csu", word[1]) ? 1 : 0;
  }
  size_t n = strcspn(word + 2, "=");
  for (const struct option *o = longopts; o->name; o++) {
    if (strlen(o->name) == n && strncmp(o->name, word + 2, n) == 0) {
      return o->has_arg == required_argument && !word[2 + n] ? 1 : 0;
    }
  }
  return -1;
}

void cli_print_names(FILE *f, bool options) {
  if (options) {
    for (const struct option *o = longopts; o->name; o++) {
      fprintf(f, "--%s\n", o->name);
    }
    return;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    fprintf(f, "%s\n", commands[i].name);
  }
}

/* An option getopt refused (opterr is 0): "mcphost: ..." with the word
 * as given. */
static void bad_option(cli *c, int opt, char **argv,
                       const struct option *opts) {
  const char *word = argv[optind - 1];
  size_t n = strcspn(word, "="), matches = 0;
  for (const struct option *o = opts; o->name && n > 2; o++)
    matches += strncmp(o->name, word + 2, n - 2) == 0;
  if (opt == ':')
    cli_error(c, NULL, "option \"%s\" needs a value; try 'mcphost --help'",
              word);
  else if (optopt > 0 && optopt < 256 && strncmp(word, "--", 2) != 0)
    cli_error(c, NULL, "unknown option \"-%c\"; try 'mcphost --help'", optopt);
  else
    cli_error(c, NULL, "%s option \"%.*s\"; try 'mcphost --help'",
              matches > 1 ? "ambiguous" : "unknown", (int)n, word);
}

/* The servers given with --url, --server, --transport and --mcp-config
 * are read once alone, by the loader's own parsers: what is wrong with
 * them is a usage error, said before anything else is loaded. */
static int check_command_line_servers(cli *c) {
  const config_sources *o = &c->sources;
  if (o->url_type && o->nurls &&
      !registry_find_type(host_registry(c->h), o->url_type)) {
    strbuf known;
    sb_init(&known);
    for (size_t i = 0; i < host_registry(c->h)->ntypes; i++)
      sb_printf(&known, "%s%s", i ? ", " : "",
                host_registry(c->h)->types[i].type);
    cli_error(c, NULL,
              "--transport \"%s\": no plugin serves this transport type "
              "(known: %s)",
              o->url_type, known.len ? sb_str(&known) : "none");
    sb_free(&known);
    return EXIT_USAGE;
  }
  config tmp;
  config_init(&tmp);
  config_add_command_line(&tmp, o);
  for (size_t i = 0; i < o->nmcp_configs; i++)
    cJSON_Delete(config_read_mcp_config(&tmp, o->mcp_configs[i], i, NULL));
  for (size_t i = 0; i < tmp.nerrors; i++)
    cli_error(c, NULL, "config error: %s", cli_esc(c, tmp.errors[i]));
  int rc = tmp.nerrors ? EXIT_USAGE : EXIT_OK;
  config_free(&tmp);
  return rc;
}

int cli_main(int argc, char **argv, const cli_shared *shared) {

  /* Not dumpable: other processes of the user (a stdio server among
   * them) cannot read our /proc/PID/environ or memory, which hold what
   * the env allowlist withholds from servers (docs/security.md). */
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  const char **plugin_dirs = xcalloc((size_t)argc, sizeof *plugin_dirs);
  const char **configs = xcalloc((size_t)argc, sizeof *configs);
  const char **specs = xcalloc((size_t)argc, sizeof *specs);
  const char **urls = xcalloc((size_t)argc, sizeof *urls);
  const char **allows = xcalloc((size_t)argc, sizeof *allows);
  const char *url_type = NULL; /* NULL: http, inferred (sse fallback) */
  size_t nplugin_dirs = 0, nconfigs = 0, nspecs = 0, nurls = 0;
  cli c = {.ask_tty = -2, .argc = argc, .argv = argv, .shared = shared};
  plugin_opts popts = {0};
  c.connect_timeout_ms = env_ms("MCP_TIMEOUT", 30000, false, NULL);
  c.tool_timeout_ms =
      env_ms("MCP_TOOL_TIMEOUT", 600000, false, &c.tool_timeout_given);
  c.request_timeout_ms =
      env_ms("MCPHOST_REQUEST_TIMEOUT", 60000, false, &c.request_timeout_given);
  /* The stdio transport reads it too, by the same rule; warned of here. */
  c.server_exit_ms = env_ms("MCPHOST_STDIO_EXIT_MS", 2000, false, NULL);
  char *bad_limits = limits_from_env(&c.lim);
  if (bad_limits) {
    fprintf(stderr, "mcphost: warning: %s\n", bad_limits);
    free(bad_limits);
  }
  int verbosity = 0, rc = EXIT_OK, opt;
  bool show_version = false;

  /* `mcphost --version` alone needs no plugin (with -v it lists their
   * directories): it is said before any is loaded, a fifth of the cost. */
  if (!shared && argc == 2 && strcmp(argv[1], "--version") == 0) {
    cli_print_version(stdout, NULL, 0, NULL, 0);
    goto out;
  }

  /* Plugins first: they may declare options. */
  nplugin_dirs = prescan_plugin_dirs(argc, argv, plugin_dirs);
  size_t ngiven_dirs = nplugin_dirs; /* for --version -v */
  host_options ho = {.plugin_dirs = plugin_dirs, .nplugin_dirs = nplugin_dirs};
  if (shared) { /* a session's: loaded and configured once, kept */
    c.h = shared->h;
    c.mc = shared->mc;
    nplugin_dirs = 0; /* said when the session started */
  } else {
    c.h = host_new(&ho);
    if (!c.h) {
      fprintf(stderr, "mcphost: cannot create the event loop\n");
      rc = EXIT_SERVER;
      goto out;
    }
    /* Before plugins: their init may look the servers service up. */
    c.mc = mcp_client_new(c.h);
    host_load_plugins(c.h);
  }
  for (size_t i = 0; i < nplugin_dirs; i++) {
    char why[300];
    if (!cli_plugin_dir_usable(plugin_dirs[i], why, sizeof why))
      fprintf(stderr, "mcphost: warning: --plugin-dir %s: %s\n", plugin_dirs[i],
              why);
  }
  collect_plugin_options(c.h, longopts, &popts);

  /* '+': options end at the command, so a tool's KEY=VALUE arguments and
   * a prompt's words are never taken for options. */
  opterr = 0; /* bad_option says it, as "mcphost: ..." */
  optind = 0; /* glibc: start over (a session runs many command lines) */
  while ((opt = getopt_long(argc, argv, "+:c:s:u:qvh", popts.longopts, NULL)) !=
         -1) {
    switch (opt) {
    case 'c': configs[nconfigs++] = optarg; break;
    case 's': specs[nspecs++] = optarg; break;
    case 'u': urls[nurls++] = optarg; break;
    case OPT_TRANSPORT: url_type = optarg; break;
    case OPT_STRICT_MCP_CONFIG: c.sources.strict = true; break;
    case OPT_APPROVE_PROJECT: c.sources.approve_project = true; break;
    case OPT_ALLOW: allows[c.nallow_tools++] = optarg; break;
    case OPT_PROTOCOL: {
      era_policy pol;
      if (!era_policy_parse(optarg, &pol)) {
        cli_error(&c, NULL,
                  "--protocol must be auto, modern or legacy; not \"%s\"",
                  optarg);
        rc = EXIT_USAGE;
        goto out;
      }
      c.protocol = optarg;
      break;
    }
    case OPT_LOG_LEVEL: {
      if (mcp_log_level_rank(optarg) < 0) {
        strbuf names;
        sb_init(&names);
        for (int i = 0; i < MCP_LOG_LEVELS; i++) {
          sb_printf(&names, "%s%s", i ? ", " : "", mcp_log_level_name(i));
        }
        cli_error(&c, NULL, "--log-level must be one of %s; not \"%s\"",
                  sb_str(&names), optarg);
        sb_free(&names);
        rc = EXIT_USAGE;
        goto out;
      }
      c.log_level = optarg;
      break;
    }
    case OPT_SANITIZE: { /* what sessions do to server text (sanitize.h) */
      sanitize_mode mode;
      if (!sanitize_mode_parse(optarg, &mode)) {
        cli_error(&c, NULL,
                  "--sanitize must be full, display or off; not \"%s\"",
                  optarg);
        rc = EXIT_USAGE;
        goto out;
      }
      host_set_sanitize(c.h, mode);
      break;
    }
    case OPT_MAX_OUTPUT:
      if (!limits_set_output(&c.lim, optarg)) {
        cli_error(&c, NULL,
                  "--max-output-chars needs a whole number of characters (0: "
                  "no limit), not \"%s\"",
                  optarg);
        rc = EXIT_USAGE;
        goto out;
      }
      break;
    case OPT_PLUGIN_DIR: break; /* taken by prescan_plugin_dirs */
    case OPT_ROOT: {
      char why[600];
      char *dir = roots_resolve_dir(host_path(c.h, MCPH_PATH_CWD), optarg, why,
                                    sizeof why);
      if (!dir) {
        cli_error(&c, NULL, "--root %s: %s", optarg, why);
        rc = EXIT_USAGE;
        goto out;
      }
      c.root_dirs =
          xrealloc(c.root_dirs, (c.nroot_dirs + 1) * sizeof *c.root_dirs);
      c.root_dirs[c.nroot_dirs++] = dir;
      break;
    }
    case OPT_NO_ROOTS: c.no_roots = true; break;
    case OPT_NO_SESSION: break; /* taken by session_forward */
    case OPT_JSON: c.json = true; break;
    case OPT_OUTDIR:
      if (!*optarg) {
        cli_error(&c, NULL, "--output-dir needs a directory, not \"\"");
        rc = EXIT_USAGE;
        goto out;
      }
      c.output_dir = optarg;
      break;
    case 'q': c.quiet_progress = true; break;
    case 'v': verbosity++; break;
    case OPT_TIMEOUT:
      if (!parse_timeout(&c, optarg)) {
        rc = EXIT_USAGE;
        goto out;
      }
      break;
    case OPT_VERSION: show_version = true; break; /* -v may follow */
    case 'h':
      fputs(usage_text, stdout);
      cli_print_plugin_commands(&c, stdout);
      print_plugin_options(&popts, stdout);
      goto out;
    default:
      if (opt >= OPT_PLUGIN_BASE &&
          (size_t)(opt - OPT_PLUGIN_BASE) < popts.nplugin) {
        host_set_plugin_option(c.h, popts.decl[opt - OPT_PLUGIN_BASE]->name,
                            optarg);
        break;
      }
      bad_option(&c, opt, argv, popts.longopts);
      rc = EXIT_USAGE;
      goto out;
    }
  }
  if (show_version) {
    cli_print_version(stdout, c.h, verbosity, plugin_dirs, ngiven_dirs);
    goto out;
  }
  if (optind >= argc) {
    fputs(usage_text, stderr);
    rc = EXIT_USAGE;
    goto out;
  }
  if (c.no_roots && c.nroot_dirs) {
    cli_error(&c, NULL, "--root and --no-roots exclude each other");
    rc = EXIT_USAGE;
    goto out;
  }
  const command *cmd = NULL;
  plugin_command pcmd = {0};
  /* `mcp SUB` that a plugin adds (the OAuth plugin's "mcp login"): the
   * plugin's command, named with both words. */
  if (strcmp(argv[optind], "mcp") == 0 && optind + 1 < argc) {
    char *two = xasprintf("mcp %s", argv[optind + 1]);
    if (cli_find_plugin_command(&c, two, &pcmd))
      optind++;
    free(two);
  }
  for (size_t i = 0; !pcmd.cmd && i < sizeof commands / sizeof commands[0];
       i++)
    if (strcmp(argv[optind], commands[i].name) == 0)
      cmd = &commands[i];
  if (!cmd && !pcmd.cmd &&
      !cli_find_plugin_command(&c, argv[optind], &pcmd)) {
    /* The built-in commands, then the plugins'. */
    size_t nb = sizeof commands / sizeof commands[0], np = 0;
    const char **pn = cli_plugin_command_names(&c, &np);
    const char **names = xcalloc(nb + np, sizeof *names);
    for (size_t i = 0; i < nb; i++) {
      names[i] = commands[i].name;
    }
    for (size_t i = 0; i < np; i++) {
      names[nb + i] = pn[i];
    }
    strbuf hint;
    sb_init(&hint);
    if (cli_mcp_command(argv[optind])) {
      /* `mcphost add` for `mcphost mcp add`, as `claude mcp add`. */
      sb_printf(&hint, " (did you mean \"mcp %s\"?)", argv[optind]);
    } else {
      mcp_suggest(&hint, argv[optind], names, nb + np);
    }
    free(names);
    free(pn);
    cli_error(&c, NULL, "unknown command \"%s\"%s; try 'mcphost --help'",
              argv[optind], sb_str(&hint));
    sb_free(&hint);
    rc = EXIT_USAGE;
    goto out;
  }
  int cargc = argc - optind;
  char **cargv = argv + optind;
  bool help = false;
  if (cmd) {
    rc = take_tail_options(&c, cmd->tail, &cargc, cargv, &verbosity, &help);
    if (rc != EXIT_OK)
      goto out;
  } else {
    help = plugin_command_help(&pcmd, cargc, cargv);
  }
  if (help && cmd && cmd->run == cmd_prompt && cargc >= 2) {
    cmd = &prompt_help;
    help = false;
  }
  if (help) {
    if (cmd && strcmp(cmd->name, "mcp") == 0)
      rc = cmd_mcp(&c, 2, (char *[]){cargv[0], "--help", NULL});
    else if (cmd && cli_command_help(cmd->name))
      fputs(cli_command_help(cmd->name), stdout);
    else if (cmd)
      fputs(usage_text, stdout);
    goto out;
  }

  host_set_verbosity(c.h, verbosity);
  host_set_quiet(c.h, c.quiet_progress);
  cli_client_options(&c);
  char out_why[1024];
  if (c.output_dir && out_check_dir(&c, out_why, sizeof out_why) != 0) {
    cli_error(&c, NULL, "--output-dir: %s", out_why);
    rc = EXIT_USAGE; /* before anything connects: no result is lost */
    goto out;
  }
  for (size_t i = 0; i < host_registry(c.h)->nplugins; i++) {
    const plugin *p = host_registry(c.h)->plugins[i];
    if (!p->loaded)
      host_log(c.h, MCPH_LOG_INFO, NULL, "plugin %s refused: %s", p->path,
               p->error);
  }

  /* Every command sees the same scopes; `mcp` loads them itself. */
  c.sources.server_specs = specs;
  c.sources.nserver_specs = nspecs;
  c.sources.urls = urls;
  c.sources.nurls = nurls;
  c.sources.url_type = url_type;
  c.sources.mcp_configs = configs;
  c.sources.nmcp_configs = nconfigs;
  c.allow_tools = allows;
  const char *approve = getenv("MCPHOST_APPROVE_PROJECT_SERVERS");
  if (approve && strcmp(approve, "1") == 0)
    c.sources.approve_project = true;
  if (!cmd) {
    /* A plugin's command: the configuration is loaded, and it decides
     * what having no servers means. */
    cli_load_config(&c);
    rc = cli_run_plugin_command(&c, &pcmd, cargc, cargv);
  } else if (cmd->needs_servers) {
    rc = check_command_line_servers(&c);
    if (rc != EXIT_OK)
      goto out;
    if (shared) {
      host_config_report(c.h); /* loaded when the session started */
    } else {
      cli_load_config(&c);
    }
    if (host_cfg(c.h)->nservers == 0) {
      cli_error(&c, NULL,
                "no servers configured (use --mcp-config FILE, --server "
                "COMMAND, --url URL, a .mcp.json here, or mcphost mcp add)");
      rc = host_cfg(c.h)->nerrors ? EXIT_SERVER : EXIT_NOT_FOUND;
      goto out;
    }
  }
  if (cmd)
    rc = cmd->run(&c, cargc, cargv);
  if (host_interrupted(c.h) && rc == EXIT_OK)
    rc = EXIT_INTERRUPTED;
  if (c.save_failed && rc == EXIT_OK) {
    rc = EXIT_USAGE; /* a result was not saved: the output dir is unusable */
  }
  if (c.bad_content && (rc == EXIT_OK || rc == EXIT_TRUNCATED)) {
    rc = EXIT_PROTOCOL; /* said when it was found (output.c) */
  }
  if (fflush(stdout) != 0)
    cli_output_failed(&c, errno); /* said at the end (cli_check_output) */
out:
  if (c.h) {
    if (!shared) {
      mcp_client_shutdown(c.mc);
    }
    cli_esc_free(&c);
    cli_asker_free(&c);
    rc = cli_exit_for_signal(rc, host_signal_number(c.h));
    if (!shared) {
      host_free(c.h);
    }
  }
  if (!shared) {
    mcp_client_free(c.mc);
  }
  cli_finish(&c, rc);
  rc = cli_check_output(&c, rc);
  for (size_t i = 0; i < c.nroot_dirs; i++)
    free(c.root_dirs[i]);
  free(c.root_dirs);
  cli_plugin_cmds_free(&c);
  free(popts.longopts);
  free(popts.decl);
  free(plugin_dirs);
  free(configs);
  free(specs);
  free(urls);
  free(allows);
  return rc;
}

int main(int argc, char **argv) {
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); /* as cli_main: before the env is sent */
#ifdef M_MMAP_THRESHOLD
  /* A large message's buffer always in a mapping of its own: it grows
   * with mremap, not by copying, and goes back to the system when freed.
   * glibc would raise the threshold after the first one was freed, and
   * the next, in the heap, would be copied as it grows (twice the
   * message) and stay resident after. */
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  if (argc > 1 && strcmp(argv[1], PLUGIN_PROBE_WORD) == 0) {
    return plugin_probe_main(argc, argv); /* plugin check's child */
  }
  int rc = session_forward(argc, argv);
  return rc >= 0 ? rc : cli_main(argc, argv, NULL);
}
