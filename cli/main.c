/* mcphost: the command line. Parses options, sets up the host (plugins,
 * configuration), runs one command, and closes every server cleanly. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/daemon/daemon.h"
#include "cli/json_alloc.h"
#include "cli/version.h"
#include "util.h"
#include "env_ms.h"
#include "gateway/gateway.h"
#include "suggest.h"

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

/* `--help` given to a plugin's command: its usage line and help. */
static bool help_of_plugin_command(const plugin_command *pc, int argc,
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
  struct option *longopts;   /* built-ins, then the plugins' */
  mcphost_option_info *decl; /* decl[k] for longopts[nbuiltin + k] */
  size_t nbuiltin, nplugin;
} plugin_opts;

static void collect_plugin_options(cli *c, plugin_opts *po) {
  po->longopts = cli_options_getopt(0, &po->nbuiltin);
  mcphost_option_info d = MCPHOST_OPTION_INFO_INIT;
  for (size_t i = 0; mcphost_plugin_option(c->api, i, &d) == MCPHOST_OK; i++) {
    bool taken = !d.name || !*d.name;
    for (size_t j = 0; j < po->nbuiltin + po->nplugin && !taken; j++)
      taken = strcmp(po->longopts[j].name, d.name) == 0;
    if (taken) {
      cli_log(c, MCPHOST_LOG_WARN, d.plugin,
              "option --%s is already taken; ignored", d.name ? d.name : "");
      continue;
    }
    size_t at = po->nbuiltin + po->nplugin;
    po->longopts = xrealloc(po->longopts, (at + 2) * sizeof *po->longopts);
    po->decl = xrealloc(po->decl, (po->nplugin + 1) * sizeof *po->decl);
    po->longopts[at] =
        (struct option){d.name, d.arg ? required_argument : no_argument, NULL,
                        CLI_OPT_PLUGIN_BASE + (int)po->nplugin};
    memset(&po->longopts[at + 1], 0, sizeof po->longopts[at + 1]);
    po->decl[po->nplugin++] = d;
  }
}

static void print_plugin_options(const plugin_opts *po, FILE *f) {
  if (po->nplugin == 0)
    return;
  fputs("\nPlugin options:\n", f);
  for (size_t k = 0; k < po->nplugin; k++) {
    const mcphost_option_info *d = &po->decl[k];
    char left[64];
    snprintf(left, sizeof left, "--%s%s%s", d->name, d->arg ? "=" : "",
             d->arg ? d->arg : "");
    if (strlen(left) > 24) /* a long name: its help on the next line */
      fprintf(f, "      %s\n      %-24s %s\n", left, "", d->help ? d->help : "");
    else
      fprintf(f, "      %-24s %s\n", left, d->help ? d->help : "");
  }
}

/* What one command line says, gathered by parse_options and
 * parse_command, used by load and dispatch. The arrays hold argv's words
 * (argc of them at most). */
typedef struct cmdline {
  const char **plugin_dirs, **configs, **specs, **urls, **allows;
  size_t nplugin_dirs, nconfigs, nspecs, nurls, nallows;
  const char *url_type; /* NULL: http, inferred (sse fallback) */
  plugin_opts popts;
  int verbosity;
  bool show_version;
  bool done;           /* nothing more to do (help or version said) */
  const command *cmd;  /* a built-in command, or */
  plugin_command pcmd; /* a plugin's */
  int cargc;           /* the command's words, cargv[0] its name */
  char **cargv;
} cmdline;

/* apply_option's answer for --help: what it prints depends on where. */
#define HELP_ASKED (-1)

/* Does what option `o` says, with `value` (NULL when it takes none), as
 * given before the command or after it. Returns EXIT_OK, HELP_ASKED, or
 * EXIT_USAGE with the reason said. */
static int apply_option(cli *c, cmdline *l, const cli_option *o,
                        const char *value) {
  switch (o->id) {
  case CLI_OPT_MCP_CONFIG: l->configs[l->nconfigs++] = value; break;
  case CLI_OPT_SERVER: l->specs[l->nspecs++] = value; break;
  case CLI_OPT_URL: l->urls[l->nurls++] = value; break;
  case CLI_OPT_TRANSPORT: l->url_type = value; break;
  case CLI_OPT_STRICT_MCP_CONFIG: c->sources.strict = true; break;
  case CLI_OPT_APPROVE_PROJECT: c->sources.approve_project = true; break;
  case CLI_OPT_ALLOW: l->allows[l->nallows++] = value; break;
  case CLI_OPT_PROTOCOL: {
    /* The client checks it (and takes it: cli_client_options gives it
     * again with the rest). */
    mcphost_error err = MCPHOST_ERROR_INIT;
    if (mcphost_set_option(c->api, "protocol", value, &err) != MCPHOST_OK) {
      cli_error(c, NULL, "%s", err.message);
      return EXIT_USAGE;
    }
    c->protocol = value;
    break;
  }
  case CLI_OPT_LOG_LEVEL: {
    if (mcphost_log_level_rank(value) < 0) {
      strbuf names;
      sb_init(&names);
      for (int i = 0; i < MCPHOST_LOG_LEVELS; i++) {
        sb_printf(&names, "%s%s", i ? ", " : "", mcphost_log_level_name(i));
      }
      cli_error(c, NULL, "--log-level must be one of %s; not \"%s\"",
                sb_str(&names), value);
      sb_free(&names);
      return EXIT_USAGE;
    }
    c->log_level = value;
    break;
  }
  case CLI_OPT_SANITIZE: { /* what sessions do to server text (sanitize.h) */
    int mode = mcphost_sanitize_mode(value);
    if (mode < 0) {
      cli_error(c, NULL, "--sanitize must be full, display or off; not \"%s\"",
                value);
      return EXIT_USAGE;
    }
    if (mcphost_set_option(c->api, "sanitize", value, NULL) != MCPHOST_OK)
      return EXIT_USAGE; /* not reached: the mode was checked */
    break;
  }
  case CLI_OPT_MAX_OUTPUT_CHARS:
    if (!limits_set_output(&c->lim, value)) {
      cli_error(c, NULL,
                "--max-output-chars needs a whole number of characters (0: "
                "no limit), not \"%s\"",
                value);
      return EXIT_USAGE;
    }
    break;
  case CLI_OPT_PLUGIN_DIR: break; /* taken by prescan_plugin_dirs */
  case CLI_OPT_ROOT: {
    char *dir = NULL;
    mcphost_error err = MCPHOST_ERROR_INIT;
    if (mcphost_root_resolve(c->api, value, &dir, &err) != MCPHOST_OK) {
      cli_error(c, NULL, "%s", err.message);
      return EXIT_USAGE;
    }
    c->root_dirs =
        xrealloc(c->root_dirs, (c->nroot_dirs + 1) * sizeof *c->root_dirs);
    c->root_dirs[c->nroot_dirs++] = dir;
    break;
  }
  case CLI_OPT_NO_ROOTS: c->no_roots = true; break;
  case CLI_OPT_NO_SESSION: break; /* taken by daemon_forward */
  case CLI_OPT_JSON: c->json = true; break;
  case CLI_OPT_OUTPUT_DIR:
    if (!*value) {
      cli_error(c, NULL, "--output-dir needs a directory, not \"\"");
      return EXIT_USAGE;
    }
    c->output_dir = value;
    break;
  case CLI_OPT_QUIET: c->quiet_progress = true; break;
  case CLI_OPT_VERBOSE: l->verbosity++; break;
  case CLI_OPT_TIMEOUT:
    if (!parse_timeout(c, value)) {
      return EXIT_USAGE;
    }
    break;
  case CLI_OPT_VERSION: l->show_version = true; break; /* -v may follow */
  case CLI_OPT_HELP: return HELP_ASKED;
  }
  return EXIT_OK;
}

/* One global option that may follow the command (after_command in the
 * table: --json, -v..., --verbose, -q, --quiet, --timeout MS, -h,
 * --help) at argv[*i], moving *i past its value. Returns 1 when taken,
 * 0 when the word is none, -1 with the reason said. */
static int take_tail_option(cli *c, cmdline *l, int argc, char **argv, int *i,
                            bool *help) {
  const char *a = argv[*i], *value = NULL;
  const cli_option *o = NULL;
  size_t times = 1;
  if (a[0] == '-' && a[1] == '-') {
    size_t n = strcspn(a + 2, "=");
    o = cli_option_named(a + 2, n);
    if (!o || !o->after_command || (a[2 + n] == '=' && !o->arg)) {
      return 0;
    }
    if (o->arg) {
      value = a[2 + n] == '=' ? a + 3 + n : *i + 1 < argc ? argv[++*i] : NULL;
      if (!value) {
        cli_error(c, NULL, "option \"%s\" needs a value; try 'mcphost --help'",
                  a);
        return -1;
      }
    }
  } else if (a[0] == '-' && a[1]) { /* -q, -h, -v, -vv... */
    o = cli_option_short(a[1]);
    times = strlen(a + 1);
    /* Only -v is counted (-vv, -vvv); getopt takes other clusters. */
    if (!o || !o->after_command || o->arg ||
        (times > 1 && o->id != CLI_OPT_VERBOSE) ||
        strspn(a + 1, (char[]){a[1], '\0'}) != times) {
      return 0;
    }
  } else {
    return 0;
  }
  for (size_t k = 0; k < times; k++) {
    int rc = apply_option(c, l, o, value);
    if (rc == HELP_ASKED) {
      *help = true;
    } else if (rc != EXIT_OK) {
      return -1;
    }
  }
  return 1;
}

/* Takes the global options that may follow the command out of the
 * command's words, as if they had come before it, up to where the
 * command's own words begin (`rule`). Returns EXIT_OK or EXIT_USAGE with
 * the reason printed. */
static int take_tail_options(cli *c, cmdline *l, tail_rule rule, bool *help) {
  int argc = l->cargc, kept = 1, i = 1;
  char **argv = l->cargv;
  for (; i < argc; i++) {
    char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      if (rule == TAIL_ARGUMENTS)
        i++; /* it only ends the options */
      break;
    }
    if ((rule == TAIL_ARGUMENTS && is_argument_word(a)) ||
        (rule == TAIL_MCP && a[0] == '{'))
      break;
    if (strcmp(a, "--all") == 0 && strcmp(argv[0], "tools") == 0) {
      c->all_tools = true;
      continue;
    }
    int taken = take_tail_option(c, l, argc, argv, &i, help);
    if (taken < 0) {
      return EXIT_USAGE;
    }
    if (taken) {
      continue;
    }
    if (rule == TAIL_ANY && a[0] == '-' && a[1]) {
      /* These commands take no options of their own. */
      cli_error(c, NULL, "%s: unknown option \"%s\"; try 'mcphost %s --help'",
                argv[0], a, argv[0]);
      return EXIT_USAGE;
    }
    argv[kept++] = a;
  }
  for (; i < argc; i++)
    argv[kept++] = argv[i];
  argv[kept] = NULL;
  l->cargc = kept;
  return EXIT_OK;
}

void cli_print_commands(FILE *f) {
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

/* The defaults the environment sets, before any option. */
static void set_defaults(cli *c) {
  c->connect_timeout_ms = env_ms("MCP_TIMEOUT", 30000, false, NULL);
  c->tool_timeout_ms =
      env_ms("MCP_TOOL_TIMEOUT", 600000, false, &c->tool_timeout_given);
  c->request_timeout_ms = env_ms("MCPHOST_REQUEST_TIMEOUT", 60000, false,
                                 &c->request_timeout_given);
  /* The stdio transport reads it too, by the same rule; warned of here. */
  c->server_exit_ms = env_ms("MCPHOST_STDIO_EXIT_MS", 2000, false, NULL);
  char *bad_limits = limits_from_env(&c->lim);
  if (bad_limits) {
    fprintf(stderr, "mcphost: warning: %s\n", bad_limits);
    free(bad_limits);
  }
}

/* SIGINT, SIGTERM and SIGHUP, blocked, become reads of a descriptor on
 * the client's loop, so a Ctrl-C cancels requests cleanly instead of
 * killing us mid-write: the host's run ends at the next turn of the loop
 * (host_interrupted). Blocked before the plugins load, so that a thread
 * one starts inherits the mask; a server's process gets its own
 * (proc_spawn.c). */
static void block_signals(sigset_t *set) {
  sigemptyset(set);
  sigaddset(set, SIGINT);
  sigaddset(set, SIGTERM);
  sigaddset(set, SIGHUP);
  if (sigprocmask(SIG_BLOCK, set, NULL) != 0)
    sigemptyset(set);
}

static void on_signal(void *ud, int fd, unsigned events) {
  (void)events;
  cli *c = ud;
  struct signalfd_siginfo si;
  while (read(fd, &si, sizeof si) == (ssize_t)sizeof si)
    mcphost_interrupt(c->api, (int)si.ssi_signo);
}

static void watch_signals(cli *c, const sigset_t *set) {
  if (sigismember(set, SIGINT) != 1)
    return;
  c->sigfd = signalfd(-1, set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (c->sigfd >= 0 &&
      mcphost_watch_fd(c->api, c->sigfd, MCPHOST_FD_READ, on_signal, c,
                       &c->sigwatch, NULL) != MCPHOST_OK) {
    close(c->sigfd);
    c->sigfd = -1;
  }
}

static void unwatch_signals(cli *c) {
  mcphost_unwatch(c->api, c->sigwatch);
  c->sigwatch = NULL;
  if (c->sigfd >= 0)
    close(c->sigfd);
  c->sigfd = -1;
}

/* The command listening to the servers' notifications (cli_on_notify):
 * the client's on_notify is set once, where the client is made, and a
 * session's client outlives the command that made it. */
static mcphost_notify_fn notify_fn;
static void *notify_ud;

void cli_on_notify(mcphost_notify_fn fn, void *ud) {
  notify_fn = fn;
  notify_ud = ud;
}

static void on_notify(void *ud, const char *server, const char *method,
                      const char *params_json) {
  (void)ud;
  if (notify_fn)
    notify_fn(notify_ud, server, method, params_json);
}

/* The command taking the servers' own requests (cli_on_request), as
 * cli_on_notify. */
static mcphost_request_fn request_fn;
static void *request_ud;

void cli_on_request(mcphost_request_fn fn, void *ud) {
  request_fn = fn;
  request_ud = ud;
}

/* The command watching the servers' connections (cli_on_state), as
 * cli_on_notify. */
static mcphost_state_fn state_fn;
static void *state_ud;

void cli_on_state(mcphost_state_fn fn, void *ud) {
  state_fn = fn;
  state_ud = ud;
}

static void on_state(void *ud, const char *server) {
  (void)ud;
  if (state_fn)
    state_fn(state_ud, server);
}

static int on_request(void *ud, const char *server, const char *method,
                      const char *params_json, mcphost_server_request *req) {
  (void)ud;
  return request_fn ? request_fn(request_ud, server, method, params_json, req)
                    : 0;
}

/* The client and its plugins, first: they may declare options; the
 * configuration waits for the command line (load). A session's client is
 * loaded and configured once, and kept. */
static int open_host(cli *c, cmdline *l, int argc, char **argv) {
  l->nplugin_dirs = prescan_plugin_dirs(argc, argv, l->plugin_dirs);
  if (c->shared) {
    c->api = c->shared->api;
    if (c->shared->owner)
      c->shared->owner->command = c; /* its terminal takes the questions */
    l->nplugin_dirs = 0; /* said when the session started */
  } else {
    sigset_t set;
    block_signals(&set);
    mcphost_options o = MCPHOST_OPTIONS_INIT;
    o.loop_mode = MCPHOST_LOOP_CALLER;
    o.defer_config = 1;
    o.plugin_dirs = l->plugin_dirs;
    o.nplugin_dirs = l->nplugin_dirs;
    o.on_ask = cli_on_ask;
    o.on_ask_end = cli_on_ask_end;
    o.ud = c;
    o.on_notify = on_notify;
    o.on_request = on_request;
    o.on_state = on_state;
    mcphost_error err = MCPHOST_ERROR_INIT;
    if (mcphost_client_new(&o, &c->api, &err) != MCPHOST_OK) {
      fprintf(stderr, "mcphost: %s\n", err.message);
      return EXIT_SERVER;
    }
    watch_signals(c, &set);
  }
  if (l->nplugin_dirs)
    cli_warn_plugin_dirs(c);
  collect_plugin_options(c, &l->popts);
  return EXIT_OK;
}

/* The global options before the command, the built-in ones as the table
 * says (options.h), the plugins' handed to their plugin. */
static int parse_options(cli *c, cmdline *l, int argc, char **argv) {
  char shorts[CLI_OPT_SHORTS_SIZE];
  cli_options_shorts(shorts);
  opterr = 0; /* bad_option says it, as "mcphost: ..." */
  optind = 0; /* glibc: start over (a session runs many command lines) */
  int opt;
  while ((opt = getopt_long(argc, argv, shorts, l->popts.longopts, NULL)) !=
         -1) {
    const cli_option *o = cli_option_of_val(opt);
    if (o) {
      int rc = apply_option(c, l, o, o->arg ? optarg : NULL);
      if (rc == HELP_ASKED) {
        cli_print_usage(stdout);
        cli_print_plugin_commands(c, stdout);
        print_plugin_options(&l->popts, stdout);
        l->done = true;
        return EXIT_OK;
      }
      if (rc != EXIT_OK) {
        return rc;
      }
    } else if (opt >= CLI_OPT_PLUGIN_BASE &&
               (size_t)(opt - CLI_OPT_PLUGIN_BASE) < l->popts.nplugin) {
      mcphost_set_option(c->api, l->popts.decl[opt - CLI_OPT_PLUGIN_BASE].name,
                         optarg, NULL);
    } else {
      bad_option(c, opt, argv, l->popts.longopts);
      return EXIT_USAGE;
    }
  }
  if (l->show_version) {
    cli_print_version(stdout, c->api, l->verbosity);
    l->done = true;
    return EXIT_OK;
  }
  if (optind >= argc) {
    cli_print_usage(stderr);
    return EXIT_USAGE;
  }
  if (c->no_roots && c->nroot_dirs) {
    cli_error(c, NULL, "--root and --no-roots exclude each other");
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* "unknown command", with the closest name of the built-in commands and
 * the plugins'. */
static int unknown_command(cli *c, const char *word) {
  size_t nb = sizeof commands / sizeof commands[0], np = 0;
  const char **pn = cli_plugin_command_names(c, &np);
  const char **names = xcalloc(nb + np, sizeof *names);
  for (size_t i = 0; i < nb; i++) {
    names[i] = commands[i].name;
  }
  for (size_t i = 0; i < np; i++) {
    names[nb + i] = pn[i];
  }
  strbuf hint;
  sb_init(&hint);
  if (cli_mcp_command(word)) {
    /* `mcphost add` for `mcphost mcp add`, as `claude mcp add`. */
    sb_printf(&hint, " (did you mean \"mcp %s\"?)", word);
  } else {
    mcp_suggest(&hint, word, names, nb + np);
  }
  free(names);
  free(pn);
  cli_error(c, NULL, "unknown command \"%s\"%s; try 'mcphost --help'", word,
            sb_str(&hint));
  sb_free(&hint);
  return EXIT_USAGE;
}

/* The command at optind and its words, with the global options that
 * follow it taken; its --help said. */
static int parse_command(cli *c, cmdline *l, int argc, char **argv) {
  /* `mcp SUB` that a plugin adds (the OAuth plugin's "mcp login"): the
   * plugin's command, named with both words. */
  if (strcmp(argv[optind], "mcp") == 0 && optind + 1 < argc) {
    char *two = xasprintf("mcp %s", argv[optind + 1]);
    if (cli_find_plugin_command(c, two, &l->pcmd))
      optind++;
    free(two);
  }
  for (size_t i = 0; !l->pcmd.cmd && i < sizeof commands / sizeof commands[0];
       i++)
    if (strcmp(argv[optind], commands[i].name) == 0)
      l->cmd = &commands[i];
  if (!l->cmd && !l->pcmd.cmd &&
      !cli_find_plugin_command(c, argv[optind], &l->pcmd)) {
    return unknown_command(c, argv[optind]);
  }
  l->cargc = argc - optind;
  l->cargv = argv + optind;
  bool help = false;
  if (l->cmd) {
    int rc = take_tail_options(c, l, l->cmd->tail, &help);
    if (rc != EXIT_OK)
      return rc;
  } else {
    help = help_of_plugin_command(&l->pcmd, l->cargc, l->cargv);
  }
  if (help && l->cmd && l->cmd->run == cmd_prompt && l->cargc >= 2) {
    l->cmd = &prompt_help;
    help = false;
  }
  if (!help) {
    return EXIT_OK;
  }
  l->done = true;
  const command *cmd = l->cmd;
  if (cmd && strcmp(cmd->name, "mcp") == 0)
    return cmd_mcp(c, 2, (char *[]){l->cargv[0], "--help", NULL});
  if (cmd && cli_command_help(cmd->name))
    fputs(cli_command_help(cmd->name), stdout);
  else if (cmd)
    cli_print_usage(stdout);
  return EXIT_OK;
}

/* What the options set, applied; the configuration read when the
 * command needs it. */
static int load(cli *c, cmdline *l) {
  /* Both each time: a session's client keeps the last command's. -vvvv
   * says no more than -vvv. */
  char verbose[2] = {(char)('0' + (l->verbosity < 3 ? l->verbosity : 3)), 0};
  mcphost_set_option(c->api, "verbose", verbose, NULL);
  mcphost_set_option(c->api, "quiet", c->quiet_progress ? "1" : "0", NULL);
  cli_client_options(c);
  char out_why[1024];
  if (c->output_dir && out_check_dir(c, out_why, sizeof out_why) != 0) {
    cli_error(c, NULL, "--output-dir: %s", out_why);
    return EXIT_USAGE; /* before anything connects: no result is lost */
  }
  /* Said at info: only -v shows it, so only -v looks. */
  mcphost_plugin_info pi = MCPHOST_PLUGIN_INFO_INIT;
  for (size_t i = 0; l->verbosity > 0 &&
                     mcphost_plugin_get(c->api, i, &pi, NULL) == MCPHOST_OK;
       i++) {
    if (!pi.loaded && !pi.builtin)
      cli_log(c, MCPHOST_LOG_INFO, NULL, "plugin %s refused: %s", pi.file,
              pi.error);
  }

  /* Every command sees the same scopes; `mcp` loads them itself. */
  c->sources.server_specs = l->specs;
  c->sources.nserver_specs = l->nspecs;
  c->sources.urls = l->urls;
  c->sources.nurls = l->nurls;
  c->sources.url_type = l->url_type;
  c->sources.configs = l->configs;
  c->sources.nconfigs = l->nconfigs;
  /* "type": "sdk" entries are the embedding program's: never ours. */
  c->sources.no_inproc = true;
  /* --allow: the client's "allow" patterns, this command's alone (a
   * session's client keeps none of the last one's). A pattern that names
   * no tool answers nothing, as it always has. Off a terminal, a question
   * waits for the plugins as long as a request may: the client took
   * MCPHOST_REQUEST_TIMEOUT as we did, so only --timeout and a session
   * (another command's environment) set it. */
  if (c->shared)
    mcphost_set_option(c->api, "allow", NULL, NULL);
  for (size_t i = 0; i < l->nallows; i++)
    mcphost_set_option(c->api, "allow", l->allows[i], NULL);
  if (c->timeout_given || c->shared) {
    char ms[24];
    snprintf(ms, sizeof ms, "%" PRIu64, c->request_timeout_ms);
    mcphost_set_option(c->api, "ask-timeout", ms, NULL);
  }
  const char *approve = getenv("MCPHOST_APPROVE_PROJECT_SERVERS");
  if (approve && strcmp(approve, "1") == 0)
    c->sources.approve_project = true;
  if (!c->shared)
    cli_set_sources(c); /* the files `mcp` edits, as a load would find */
  if (!l->cmd) {
    /* A plugin's command: the configuration is loaded, and it decides
     * what having no servers means. */
    cli_load_config(c);
    return EXIT_OK;
  }
  if (!l->cmd->needs_servers) {
    return EXIT_OK;
  }
  int rc = cli_load_checked(c);
  if (rc != EXIT_OK)
    return rc;
  if (mcphost_server_count(c->api) == 0) {
    cli_error(c, NULL,
              "no servers configured (use --mcp-config FILE, --server "
              "COMMAND, --url URL, a .mcp.json here, or mcphost mcp add)");
    return mcphost_config_errors(c->api) ? EXIT_SERVER : EXIT_NOT_FOUND;
  }
  return EXIT_OK;
}

/* Runs the command; its exit code, with what went wrong around it. */
static int dispatch(cli *c, cmdline *l) {
  int rc = l->cmd ? l->cmd->run(c, l->cargc, l->cargv)
                  : cli_run_plugin_command(c, &l->pcmd, l->cargc, l->cargv);
  if (mcphost_interrupted(c->api) && rc == EXIT_OK)
    rc = EXIT_INTERRUPTED;
  if (c->save_failed && rc == EXIT_OK) {
    rc = EXIT_USAGE; /* a result was not saved: the output dir is unusable */
  }
  if (c->bad_content && (rc == EXIT_OK || rc == EXIT_TRUNCATED)) {
    rc = EXIT_PROTOCOL; /* said when it was found (output.c) */
  }
  if (fflush(stdout) != 0)
    cli_output_failed(c, errno); /* said at the end (cli_check_output) */
  return rc;
}

/* Closes every server and frees what the run held; the exit code. */
static int close_run(cli *c, cmdline *l, int rc) {
  if (c->api) {
    if (!c->shared) {
      mcphost_client_shutdown(c->api); /* before the asker goes */
    }
    cli_esc_free(c);
    cli_asker_free(c);
    rc = cli_exit_for_signal(rc, mcphost_exit_signal(c->api));
    if (!c->shared) {
      unwatch_signals(c);
      mcphost_client_free(c->api);
    } else if (c->shared->owner) {
      c->shared->owner->command = NULL;
    }
  }
  c->api = NULL;
  cli_finish(c, rc);
  rc = cli_check_output(c, rc);
  for (size_t i = 0; i < c->nroot_dirs; i++)
    mcphost_free(c->root_dirs[i]);
  free(c->root_dirs);
  cli_plugin_cmds_free(c);
  free(l->popts.longopts);
  free(l->popts.decl);
  free(l->plugin_dirs);
  free(l->configs);
  free(l->specs);
  free(l->urls);
  free(l->allows);
  return rc;
}

int cli_main(int argc, char **argv, const cli_shared *shared) {
  cli c = {.ask_tty = -2,
           .out_cols = -1,
           .sigfd = -1,
           .argc = argc,
           .argv = argv,
           .shared = shared};
  cmdline l = {.plugin_dirs = xcalloc((size_t)argc, sizeof *l.plugin_dirs),
               .configs = xcalloc((size_t)argc, sizeof *l.configs),
               .specs = xcalloc((size_t)argc, sizeof *l.specs),
               .urls = xcalloc((size_t)argc, sizeof *l.urls),
               .allows = xcalloc((size_t)argc, sizeof *l.allows)};
  set_defaults(&c);
  /* `mcphost --version` alone needs no plugin (with -v it lists their
   * directories): it is said before any is loaded, a fifth of the cost. */
  if (!shared && argc == 2 && strcmp(argv[1], "--version") == 0) {
    cli_print_version(stdout, NULL, 0);
    return close_run(&c, &l, EXIT_OK);
  }
  int rc = open_host(&c, &l, argc, argv);
  if (rc == EXIT_OK && !l.done)
    rc = parse_options(&c, &l, argc, argv);
  if (rc == EXIT_OK && !l.done)
    rc = parse_command(&c, &l, argc, argv);
  if (rc == EXIT_OK && !l.done)
    rc = load(&c, &l);
  if (rc == EXIT_OK && !l.done)
    rc = dispatch(&c, &l);
  return close_run(&c, &l, rc);
}

int main(int argc, char **argv) {
  /* Not dumpable: other processes of the user (a stdio server among
   * them) cannot read our /proc/PID/environ or memory, which hold what
   * the env allowlist withholds from servers (docs/security.md). Before
   * the env is sent to a session; a session's commands (cli_main) run in
   * a process that came here first. */
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#ifdef M_MMAP_THRESHOLD
  /* A large message's buffer always in a mapping of its own: it grows
   * with mremap, not by copying, and goes back to the system when freed.
   * glibc would raise the threshold after the first one was freed, and
   * the next, in the heap, would be copied as it grows (twice the
   * message) and stay resident after. */
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  json_alloc_install(); /* before any tree is made */
  int rc = daemon_forward(argc, argv);
  return rc >= 0 ? rc : cli_main(argc, argv, NULL);
}
