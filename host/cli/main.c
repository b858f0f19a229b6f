/* mcphost: the command line. Parses options, sets up the host (plugins,
 * configuration), runs one command, and closes every server cleanly. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util.h"
#include "cli.h"

static const char usage_text[] =
    "usage: mcphost [OPTIONS] COMMAND [ARGS...]\n"
    "\n"
    "Commands:\n"
    "  servers [SERVER]           connect and show each server's state and counts\n"
    "  tools [SERVER]             list tools as mcp__SERVER__TOOL\n"
    "  resources [SERVER]         list resources and resource templates\n"
    "  prompts [SERVER]           list prompts and their arguments\n"
    "  call TOOL [JSON | KEY=VALUE ...]\n"
    "                             call a tool (TOOL: mcp__SERVER__TOOL or SERVER/TOOL);\n"
    "                             a VALUE that parses as JSON is JSON, else a string\n"
    "  read SERVER URI            read a resource\n"
    "  prompt PROMPT [ARG | NAME=VALUE ...]\n"
    "                             get a prompt; positional ARGs fill the declared\n"
    "                             arguments in order\n"
    "  batch                      read JSON requests from stdin, one per line:\n"
    "                             {\"id\":1,\"call\":TOOL,\"arguments\":{...}},\n"
    "                             {\"read\":SERVER,\"uri\":URI}, {\"prompt\":PROMPT,\n"
    "                             \"arguments\":{...}}, {\"list\":\"tools\",\"server\":S};\n"
    "                             answers one JSON line each, as they complete\n"
    "  plugins                    list plugins found, loaded or refused, and why\n"
    "\n"
    "Options:\n"
    "  -c, --config FILE          read servers from FILE ({\"mcpServers\": {...}});\n"
    "                             repeatable; ./.mcp.json is read too\n"
    "  -s, --server SPEC          add a stdio server: [NAME=]COMMAND [ARG...]\n"
    "  -u, --url [NAME=]URL       add a remote server (NAME defaults to the host)\n"
    "      --transport TYPE       the type of --url servers: http (default), sse\n"
    "      --plugin-dir DIR       look for plugins in DIR first; repeatable\n"
    "      --json                 machine-readable JSON on stdout\n"
    "      --timeout MS           deadline for connecting and for each request\n"
    "      --output-dir DIR       where images and binary results are saved\n"
    "                             (default: a private $TMPDIR/mcphost-UID)\n"
    "      --log-level LEVEL      ask servers for log messages from LEVEL up\n"
    "                             (logging/setLevel); they go to\n"
    "                             $XDG_STATE_HOME/mcphost/logs/NAME.log, and\n"
    "                             to stderr with -v\n"
    "  -q, --quiet                no progress lines on stderr\n"
    "  -v, --verbose              more logging on stderr (-vv debug, -vvv wire)\n"
    "      --version              print the version\n"
    "  -h, --help                 this text\n"
    "\n"
    "Environment:\n"
    "  MCPHOST_PLUGIN_PATH        more plugin directories, ':'-separated, searched\n"
    "                             after --plugin-dir and before the built-in one\n"
    "  MCP_TIMEOUT                connect deadline in ms (default 30000)\n"
    "  MCP_TOOL_TIMEOUT           tool call deadline in ms (default 600000)\n"
    "  MCPHOST_REQUEST_TIMEOUT    other requests' deadline in ms (default 60000)\n"
    "\n"
    "Exit codes:\n"
    "  0    success\n"
    "  1    the tool ran and returned isError\n"
    "  2    usage error (bad option, argument or JSON)\n"
    "  3    a server failed: not startable, unreachable, misconfigured, no plugin\n"
    "       for its type, or it went away\n"
    "  4    protocol error: the server answered with an error or broke MCP\n"
    "  5    a deadline passed\n"
    "  6    no such server, tool or prompt\n"
    "  7    the server needs authorization (needs-auth)\n"
    "  130  interrupted (Ctrl-C); pending requests were cancelled\n";

static uint64_t env_ms(const char *name, uint64_t fallback) {
  const char *v = getenv(name);
  if (!v || !*v)
    return fallback;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || *end || n == 0) {
    fprintf(stderr, "mcphost: warning: ignoring %s=\"%s\": not a positive "
                    "number of milliseconds\n",
            name, v);
    return fallback;
  }
  return n;
}

typedef struct command {
  const char *name;
  int (*run)(cli *c, int argc, char **argv);
  bool needs_servers;
} command;

static const command commands[] = {
    {"servers", cmd_servers, true},     {"tools", cmd_tools, true},
    {"resources", cmd_resources, true}, {"prompts", cmd_prompts, true},
    {"call", cmd_call, true},           {"read", cmd_read, true},
    {"prompt", cmd_prompt, true},       {"plugins", cmd_plugins, false},
    {"batch", cmd_batch, true},
};

int main(int argc, char **argv) {
  enum {
    OPT_PLUGIN_DIR = 256,
    OPT_JSON,
    OPT_TIMEOUT,
    OPT_VERSION,
    OPT_OUTDIR,
    OPT_TRANSPORT,
    OPT_LOG_LEVEL
  };
  static const struct option longopts[] = {
      {"config", required_argument, NULL, 'c'},
      {"server", required_argument, NULL, 's'},
      {"url", required_argument, NULL, 'u'},
      {"transport", required_argument, NULL, OPT_TRANSPORT},
      {"log-level", required_argument, NULL, OPT_LOG_LEVEL},
      {"plugin-dir", required_argument, NULL, OPT_PLUGIN_DIR},
      {"json", no_argument, NULL, OPT_JSON},
      {"timeout", required_argument, NULL, OPT_TIMEOUT},
      {"output-dir", required_argument, NULL, OPT_OUTDIR},
      {"quiet", no_argument, NULL, 'q'},
      {"verbose", no_argument, NULL, 'v'},
      {"version", no_argument, NULL, OPT_VERSION},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};

  const char **plugin_dirs = xcalloc((size_t)argc, sizeof *plugin_dirs);
  const char **configs = xcalloc((size_t)argc, sizeof *configs);
  const char **specs = xcalloc((size_t)argc, sizeof *specs);
  const char **urls = xcalloc((size_t)argc, sizeof *urls);
  const char *url_type = "http";
  size_t nplugin_dirs = 0, nconfigs = 0, nspecs = 0, nurls = 0;
  cli c = {0};
  c.connect_timeout_ms = env_ms("MCP_TIMEOUT", 30000);
  c.tool_timeout_ms = env_ms("MCP_TOOL_TIMEOUT", 600000);
  c.request_timeout_ms = env_ms("MCPHOST_REQUEST_TIMEOUT", 60000);
  int verbosity = 0, rc = EXIT_OK, opt;

  /* '+': options end at the command, so a tool's KEY=VALUE arguments and
   * a prompt's words are never taken for options. */
  while ((opt = getopt_long(argc, argv, "+c:s:u:qvh", longopts, NULL)) != -1) {
    switch (opt) {
    case 'c': configs[nconfigs++] = optarg; break;
    case 's': specs[nspecs++] = optarg; break;
    case 'u': urls[nurls++] = optarg; break;
    case OPT_TRANSPORT: url_type = optarg; break;
    case OPT_LOG_LEVEL: {
      static const char *const levels[] = {"debug", "info", "notice",
                                           "warning", "error", "critical",
                                           "alert", "emergency"};
      bool known = false;
      for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        known |= strcmp(optarg, levels[i]) == 0;
      if (!known) {
        fprintf(stderr, "mcphost: --log-level must be one of debug, info, "
                        "notice, warning, error, critical, alert, "
                        "emergency; not \"%s\"\n",
                optarg);
        rc = EXIT_USAGE;
        goto out;
      }
      c.log_level = optarg;
      break;
    }
    case OPT_PLUGIN_DIR: plugin_dirs[nplugin_dirs++] = optarg; break;
    case OPT_JSON: c.json = true; break;
    case OPT_OUTDIR: c.output_dir = optarg; break;
    case 'q': c.quiet_progress = true; break;
    case 'v': verbosity++; break;
    case OPT_TIMEOUT: {
      char *end;
      errno = 0;
      unsigned long long ms = strtoull(optarg, &end, 10);
      if (errno || *end || ms == 0) {
        fprintf(stderr, "mcphost: --timeout needs a positive number of "
                        "milliseconds, not \"%s\"\n",
                optarg);
        rc = EXIT_USAGE;
        goto out;
      }
      c.connect_timeout_ms = c.request_timeout_ms = c.tool_timeout_ms = ms;
      break;
    }
    case OPT_VERSION:
      printf("mcphost %s (plugin ABI %d.%d)\n", MCPHOST_VERSION,
             MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
      goto out;
    case 'h': fputs(usage_text, stdout); goto out;
    default:
      fputs("Try 'mcphost --help'.\n", stderr);
      rc = EXIT_USAGE;
      goto out;
    }
  }
  if (optind >= argc) {
    fputs(usage_text, stderr);
    rc = EXIT_USAGE;
    goto out;
  }
  const command *cmd = NULL;
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(argv[optind], commands[i].name) == 0)
      cmd = &commands[i];
  if (!cmd) {
    fprintf(stderr, "mcphost: unknown command \"%s\"; try 'mcphost --help'\n",
            argv[optind]);
    rc = EXIT_USAGE;
    goto out;
  }

  host_options ho = {.plugin_dirs = plugin_dirs,
                     .nplugin_dirs = nplugin_dirs,
                     .verbosity = verbosity};
  c.h = host_new(&ho);
  if (!c.h) {
    fprintf(stderr, "mcphost: cannot create the event loop\n");
    rc = EXIT_SERVER;
    goto out;
  }
  host_load_plugins(c.h);
  for (size_t i = 0; i < c.h->reg.nplugins; i++) {
    const plugin *p = c.h->reg.plugins[i];
    if (!p->loaded)
      host_log(c.h, MCPH_LOG_INFO, NULL, "plugin %s refused: %s", p->path,
               p->error);
  }

  if (cmd->needs_servers) {
    /* Servers given on the command line come first: they win a name
     * clash with any file. */
    for (size_t i = 0; i < nspecs; i++)
      config_add_command(&c.h->cfg, specs[i]);
    for (size_t i = 0; i < nurls; i++)
      config_add_url(&c.h->cfg, urls[i], url_type);
    for (size_t i = 0; i < nconfigs; i++)
      config_load_file(&c.h->cfg, configs[i], true);
    config_load_file(&c.h->cfg, ".mcp.json", false);
    for (size_t i = 0; i < c.h->cfg.nerrors; i++)
      fprintf(stderr, "mcphost: config error: %s\n", c.h->cfg.errors[i]);
    for (size_t i = 0; i < c.h->cfg.nwarnings; i++)
      fprintf(stderr, "mcphost: config warning: %s\n", c.h->cfg.warnings[i]);
    if (c.h->cfg.nservers == 0) {
      fprintf(stderr, "mcphost: no servers configured (use --config FILE, "
                      "--server COMMAND, --url URL, or a .mcp.json here)\n");
      rc = c.h->cfg.nerrors ? EXIT_SERVER : EXIT_NOT_FOUND;
      goto out;
    }
  }
  rc = cmd->run(&c, argc - optind, argv + optind);
  if (c.h->interrupted && rc == EXIT_OK)
    rc = EXIT_INTERRUPTED;
  fflush(stdout);
out:
  if (c.h) {
    cli_shutdown(&c);
    host_free(c.h);
  }
  free(plugin_dirs);
  free(configs);
  free(specs);
  free(urls);
  return rc;
}
