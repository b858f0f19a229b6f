/* mcphost completion bash|zsh|fish: a script for the shell named, and
 * `mcphost completion complete -- WORD...`, which the scripts call on
 * each Tab with the words of the line (the last the one completed), so
 * the three shells share one logic, here. Names come from the command
 * line's options and the configuration (servers, read, never started)
 * and from the names the last listing saw (names_cache.c): completing
 * never starts a server. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util.h"

static const char bash_script[] =
    "# mcphost completion for bash: source <(mcphost completion bash)\n"
    "_mcphost_complete() {\n"
    "  local IFS=$'\\n'\n"
    "  mapfile -t COMPREPLY < <(command \"${COMP_WORDS[0]}\" completion "
    "complete -- \\\n"
    "    \"${COMP_WORDS[@]:0:COMP_CWORD+1}\" 2>/dev/null)\n"
    "}\n"
    "complete -o default -F _mcphost_complete mcphost\n";

static const char zsh_script[] =
    "#compdef mcphost\n"
    "# mcphost completion for zsh: source <(mcphost completion zsh), after\n"
    "# compinit\n"
    "_mcphost() {\n"
    "  local out\n"
    "  out=$(command \"${words[1]}\" completion complete -- "
    "\"${(@)words[1,CURRENT]}\" \\\n"
    "    2>/dev/null)\n"
    "  if [[ -n $out ]]; then\n"
    "    compadd -- \"${(@f)out}\"\n"
    "  else\n"
    "    _files\n"
    "  fi\n"
    "}\n"
    "compdef _mcphost mcphost\n";

static const char fish_script[] =
    "# mcphost completion for fish: mcphost completion fish | source\n"
    "function __mcphost_complete\n"
    "    set -l words (commandline -opc) (commandline -ct)\n"
    "    command $words[1] completion complete -- $words 2>/dev/null\n"
    "end\n"
    "complete -c mcphost -f -a '(__mcphost_complete)'\n";

/* `mcp` subcommands of the CLI itself (mcp_cmd.c, import.c); plugins add
 * theirs as "mcp NAME" commands. */
static const char *const mcp_subcommands[] = {
    "list",     "get",    "add",
    "add-json", "remove", "approve",
    "reject",   "import", "reset-project-choices"};
/* mcp subcommands whose first argument is a server name. */
static const char *const mcp_server_subcommands[] = {
    "get", "remove", "approve", "reject", "login", "logout", "auth-status"};
static const char *const import_clients[] = {
    "claude-code", "claude-desktop", "cursor", "vscode", "windsurf", "codex"};

#define NAMES(a) (sizeof(a) / sizeof((a)[0]))

static bool in_list(const char *w, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(w, list[i]) == 0) {
      return true;
    }
  }
  return false;
}

cli_completes cli_completes_after(const char *name, int npos,
                                  const char *first) {
  bool is_call = strcmp(name, "call") == 0;
  if ((is_call || strcmp(name, "tool") == 0) && npos == 0) {
    return COMPLETES_TOOL;
  }
  if (is_call) {
    return COMPLETES_ARGUMENT;
  }
  if (strcmp(name, "prompt") == 0 || strcmp(name, "complete") == 0) {
    return npos == 0 ? COMPLETES_PROMPT : COMPLETES_NOTHING;
  }
  if (strcmp(name, "task") == 0 && npos == 0) {
    return COMPLETES_TASK_ACTION;
  }
  if (strcmp(name, "grep") == 0 || strcmp(name, "task") == 0) {
    return npos == 1 ? COMPLETES_SERVER : COMPLETES_NOTHING;
  }
  static const char *const on_server[] = {"servers",  "tools", "resources",
                                          "prompts",  "read",  "subscribe",
                                          "reconnect"};
  if (strcmp(name, "ping") == 0 ||
      (npos == 0 && in_list(name, on_server, NAMES(on_server)))) {
    return COMPLETES_SERVER;
  }
  if (strcmp(name, "completion") == 0 && npos == 0) {
    return COMPLETES_SHELL_NAME;
  }
  if (strcmp(name, "mcp") == 0 && npos == 0) {
    return COMPLETES_MCP_SUBCOMMAND;
  }
  if (strcmp(name, "plugin") == 0 && npos == 0) {
    return COMPLETES_PLUGIN_SUBCOMMAND;
  }
  if (strcmp(name, "mcp") == 0 && npos == 1 &&
      in_list(first, mcp_server_subcommands, NAMES(mcp_server_subcommands))) {
    return COMPLETES_SERVER;
  }
  if (strcmp(name, "mcp") == 0 && npos == 1 && strcmp(first, "import") == 0) {
    return COMPLETES_IMPORT_CLIENT;
  }
  return COMPLETES_NOTHING;
}

/* Candidates are gathered, then those starting with the word printed. */
typedef struct cands {
  strbuf out;
  const char *prefix;
} cands;

static void add(cands *k, const char *name) {
  if (str_starts(name, k->prefix) && !strchr(name, '\n')) {
    sb_printf(&k->out, "%s\n", name);
  }
}

static void add_list(cands *k, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++) {
    add(k, list[i]);
  }
}

/* Each line of `text` a candidate; with `under` ("mcp "), only lines
 * starting with it, without it; else only lines of one word. */
static void add_lines(cands *k, const char *text, const char *under) {
  char *copy = xstrdup(text);
  for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l;
       l = strtok_r(NULL, "\n", &save)) {
    if (under && str_starts(l, under)) {
      add(k, l + strlen(under));
    } else if (!under && !strchr(l, ' ')) {
      add(k, l);
    }
  }
  free(copy);
}

/* What the CLI prints of its names, as text: the built-in commands, the
 * global options, the plugins' commands, or the kept names of `kind`. */
typedef enum { N_COMMANDS, N_OPTIONS, N_PLUGIN_COMMANDS, N_KEPT } names_kind;

static void add_printed(cli *c, const cJSON *servers, cands *k, names_kind what,
                        const char *kind, const char *under) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return;
  }
  switch (what) {
  case N_COMMANDS: cli_print_commands(f); break;
  case N_OPTIONS: { /* the table's (options.h) */
    size_t n;
    const cli_option *opts = cli_options(&n);
    for (size_t i = 0; i < n; i++) {
      if (opts[i].alias) {
        fprintf(f, "--%s\n", opts[i].alias);
      }
      fprintf(f, "--%s\n", opts[i].name);
    }
    break;
  }
  case N_PLUGIN_COMMANDS: {
    size_t n = 0;
    const char **names = cli_plugin_command_names(c, &n);
    for (size_t i = 0; i < n; i++) {
      fprintf(f, "%s\n", names[i]);
    }
    free(names);
    break;
  }
  case N_KEPT: /* SERVER/NAME once the word has a '/' */
    cli_names_print(c, servers, kind, strchr(k->prefix, '/') != NULL, f);
    break;
  }
  fclose(f);
  add_lines(k, buf ? buf : "", under);
  free(buf);
}

/* The global option `w` names ("-c", "--protocol"), or NULL. */
static const cli_option *option_of_word(const char *w) {
  if (w[0] != '-' || !w[1]) {
    return NULL;
  }
  if (w[1] != '-') {
    return w[2] ? NULL : cli_option_short(w[1]);
  }
  return cli_option_named(w + 2, strcspn(w + 2, "="));
}

/* The global option whose value the last word is: "--log-level WORD",
 * bash's "--log-level = WORD" (it splits at '='), or NULL. */
static const cli_option *value_of(int n, char **w) {
  int at = n - 2;
  if (at >= 2 && strcmp(w[at], "=") == 0 && strncmp(w[at - 1], "--", 2) == 0) {
    at--;
  }
  const cli_option *o = at >= 1 ? option_of_word(w[at]) : NULL;
  return o && o->arg && !strchr(w[at], '=') ? o : NULL;
}

/* The transport types the client's plugins serve, a line each after
 * `before`. */
static void add_types(cli *c, strbuf *v, const char *before) {
  char *text = NULL;
  mcphost_config_types(c->api, &text, NULL);
  cJSON *types = cli_api_json(text);
  const cJSON *t;
  cJSON_ArrayForEach(t, types) {
    if (cJSON_IsString(t)) {
      sb_printf(v, "%s%s\n", before, t->valuestring);
    }
  }
  cJSON_Delete(types);
}

/* The values option `o` takes, as candidates each after `before`
 * ("--protocol=" when the word is one, zsh's and fish's way). */
static void add_values(cli *c, cands *k, const cli_option *o,
                       const char *before) {
  strbuf v;
  sb_init(&v);
  switch (o->completes) {
  case CLI_COMPLETES_VALUES:
    for (const char *s = o->values; *s;) {
      size_t len = strcspn(s, "|");
      sb_printf(&v, "%s%.*s\n", before, (int)len, s);
      s += len + (s[len] == '|');
    }
    break;
  case CLI_COMPLETES_LOG_LEVEL:
    for (int i = 0; i < MCPHOST_LOG_LEVELS; i++) {
      sb_printf(&v, "%s%s\n", before, mcphost_log_level_name(i));
    }
    break;
  case CLI_COMPLETES_TRANSPORT: add_types(c, &v, before); break;
  case CLI_COMPLETES_TEXT: break; /* the shell's own */
  }
  add_lines(k, sb_str(&v), NULL);
  sb_free(&v);
}

static void add_servers(const cJSON *servers, cands *k) {
  const cJSON *s;
  cJSON_ArrayForEach(s, servers) {
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "name"));
    if (name) {
      add(k, name);
    }
  }
}

/* The words after "completion complete --": the line as typed. */
static int complete_words(cli *c, int n, char **w) {
  const char **configs = xcalloc((size_t)n + 1, sizeof *configs);
  const char **specs = xcalloc((size_t)n + 1, sizeof *specs);
  const char **urls = xcalloc((size_t)n + 1, sizeof *urls);
  size_t nconfigs = 0, nspecs = 0, nurls = 0;
  cands k = {.prefix = n > 0 ? w[n - 1] : ""};
  sb_init(&k.out);
  int i = 1, cmd = -1;
  /* The global options before the command: those naming servers are
   * read as the command would. */
  for (; i < n - 1; i++) {
    int arity = cli_global_option_arity(w[i]);
    if (arity < 0 && w[i][0] != '-') {
      cmd = i;
      break;
    }
    if (arity == 1 && i + 1 < n - 1) {
      const char *v = w[++i];
      if (strcmp(v, "=") == 0 && i + 1 < n - 1) {
        v = w[++i]; /* bash splits --config=FILE at '=' */
      }
      const char *o = w[i - (strcmp(w[i - 1], "=") == 0 ? 2 : 1)];
      if (strcmp(o, "-c") == 0 || strcmp(o, "--config") == 0 ||
          strcmp(o, "--mcp-config") == 0) {
        configs[nconfigs++] = v;
      } else if (strcmp(o, "-s") == 0 || strcmp(o, "--server") == 0) {
        specs[nspecs++] = v;
      } else if (strcmp(o, "-u") == 0 || strcmp(o, "--url") == 0) {
        urls[nurls++] = v;
      }
    } else if (strncmp(w[i], "--mcp-config=", 13) == 0) {
      configs[nconfigs++] = w[i] + 13;
    } else if (strncmp(w[i], "--config=", 9) == 0) {
      configs[nconfigs++] = w[i] + 9;
    } else if (strcmp(w[i], "--strict-mcp-config") == 0) {
      c->sources.strict = true;
    }
  }
  c->sources.configs = configs;
  c->sources.nconfigs = nconfigs;
  c->sources.server_specs = specs;
  c->sources.nserver_specs = nspecs;
  c->sources.urls = urls;
  c->sources.nurls = nurls;
  cJSON *servers = cli_load_preview(c);
  const char *cur = k.prefix;
  if (cmd < 0) {
    const cli_option *o = value_of(n, w);
    const char *eq = strncmp(cur, "--", 2) == 0 ? strchr(cur, '=') : NULL;
    if (o) {
      add_values(c, &k, o, "");
    } else if (eq && (o = option_of_word(cur)) && o->arg) {
      char *before = xasprintf("%.*s", (int)(eq + 1 - cur), cur);
      add_values(c, &k, o, before);
      free(before);
    } else if (cur[0] == '-') {
      add_printed(c, servers, &k, N_OPTIONS, NULL, NULL);
    } else {
      add_printed(c, servers, &k, N_COMMANDS, NULL, NULL);
      add_printed(c, servers, &k, N_PLUGIN_COMMANDS, NULL, NULL);
    }
    goto out;
  }
  const char *name = w[cmd];
  /* The command's own words before the one completed (options apart). */
  const char *args[3] = {NULL, NULL, NULL};
  int pos = 0;
  for (int j = cmd + 1; j < n - 1; j++) {
    if (w[j][0] != '-' && pos < 3) {
      args[pos] = w[j];
    }
    pos += w[j][0] != '-';
  }
  if (cur[0] == '-') {
    size_t nopts;
    const cli_option *opts = cli_options(&nopts);
    for (size_t j = 0; j < nopts; j++) {
      if (opts[j].after_command) { /* the global options it may take */
        char *o = xasprintf("--%s", opts[j].name);
        add(&k, o);
        free(o);
      }
    }
    if (strcmp(name, "call") == 0) {
      static const char *const call_opts[] = {
          "--no-validate", "--args", "--follow-links", "--task", "--detach"};
      add_list(&k, call_opts, NAMES(call_opts));
    } else if (strcmp(name, "tools") == 0) {
      add(&k, "--all");
    } else if (strcmp(name, "mcp") == 0 && args[0] &&
               strcmp(args[0], "import") == 0) {
      add(&k, "--from");
      add(&k, "--scope");
    }
  } else {
    switch (cli_completes_after(name, pos, args[0])) {
    case COMPLETES_TOOL:
      add_printed(c, servers, &k, N_KEPT, "tools", NULL);
      break;
    case COMPLETES_PROMPT:
      add_printed(c, servers, &k, N_KEPT, "prompts", NULL);
      break;
    case COMPLETES_SERVER: add_servers(servers, &k); break;
    case COMPLETES_SHELL_NAME: {
      static const char *const shells[] = {"bash", "zsh", "fish"};
      add_list(&k, shells, NAMES(shells));
      break;
    }
    case COMPLETES_MCP_SUBCOMMAND:
      add_list(&k, mcp_subcommands, NAMES(mcp_subcommands));
      add_printed(c, servers, &k, N_PLUGIN_COMMANDS, NULL, "mcp ");
      break;
    case COMPLETES_TASK_ACTION: {
      static const char *const actions[] = {"status", "result", "cancel"};
      add_list(&k, actions, NAMES(actions));
      break;
    }
    case COMPLETES_IMPORT_CLIENT:
      add_list(&k, import_clients, NAMES(import_clients));
      break;
    case COMPLETES_PLUGIN_SUBCOMMAND: add(&k, "check"); break;
    case COMPLETES_ARGUMENT: /* a tool's schema is not kept: nothing */
    case COMPLETES_NOTHING: break;
    }
  }
out:
  fputs(sb_str(&k.out), stdout);
  sb_free(&k.out);
  cJSON_Delete(servers);
  free(configs);
  free(specs);
  free(urls);
  return EXIT_OK;
}

int cmd_completion(cli *c, int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "complete") == 0) {
    /* The words follow "--", so none is taken for an option. */
    int skip = argc >= 3 && strcmp(argv[2], "--") == 0 ? 3 : 2;
    return complete_words(c, argc - skip, argv + skip);
  }
  if (argc != 2) {
    fprintf(stderr, "mcphost: usage: mcphost completion bash|zsh|fish\n");
    return EXIT_USAGE;
  }
  const char *script = strcmp(argv[1], "bash") == 0   ? bash_script
                       : strcmp(argv[1], "zsh") == 0  ? zsh_script
                       : strcmp(argv[1], "fish") == 0 ? fish_script
                                                      : NULL;
  if (!script) {
    cli_error(c, NULL, "completion: no script for \"%s\" (bash, zsh or fish)",
              argv[1]);
    return EXIT_USAGE;
  }
  fputs(script, stdout);
  return EXIT_OK;
}
