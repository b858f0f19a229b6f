/* mcphost shell: one interactive session on the one client. Every server
 * is connected once, at the start, and kept; each line runs one of the
 * CLI's own commands (call, tool, tools, ...) on that client, so a call
 * in the shell is the call of `mcphost call`, with the same argument
 * rule (mcphost_args_parse), asker and elicitation. Lines are read by
 * line_edit (libedit: editing, history, completion); the history is kept
 * in the state directory. Ctrl-C during a command cancels that command
 * (cli_run withdraws the request); at the prompt it drops the line.
 * A server that went away is connected again as batch, the session and
 * the gateway do (mcp/session.h's policy: backoff and limits), noticed
 * when the next line runs; `reconnect` does it at once. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/interactive/line_edit.h"
#include "cli/interactive/state_files.h"
#include "split_words.h"
#include "suggest.h"
#include "util.h"

static const char history_name[] = "shell_history";
enum { HISTORY_KEEP = 1000 };

typedef struct shell_command {
  const char *name;
  int (*run)(cli *c, int argc, char **argv);
  const char *args; /* for help */
  const char *what;
} shell_command;

static const shell_command commands[] = {
    {"call", cmd_call, "TOOL [JSON | KEY=VALUE | KEY:=JSON ...]",
     "call a tool (a line may also begin with the tool's name)"},
    {"tool", cmd_tool, "TOOL", "what a tool takes"},
    {"tools", cmd_tools, "[SERVER]", "list tools"},
    {"servers", cmd_servers, "[SERVER]", "each server's state and counts"},
    {"reconnect", cmd_reconnect, "[SERVER]",
     "connect each server (or SERVER) again now"},
    {"resources", cmd_resources, "[SERVER]", "list resources and templates"},
    {"prompts", cmd_prompts, "[SERVER]", "list prompts"},
    {"prompt", cmd_prompt, "PROMPT [ARG | NAME=VALUE ...]", "get a prompt"},
    {"read", cmd_read, "SERVER URI", "read a resource"},
    {"ping", cmd_ping, "SERVER...", "round trip of an MCP ping"},
    {"grep", cmd_grep, "[-i] PATTERN [SERVER]",
     "search names and descriptions"},
    {"complete", cmd_complete, "PROMPT|TEMPLATE ARG PREFIX",
     "completion/complete of an argument"},
    {"subscribe", cmd_subscribe, "SERVER URI [--read]",
     "print resources/updated until Ctrl-C"},
    {"task", cmd_task, "status|result|cancel SERVER ID",
     "a task started with call --detach"},
    {"help", NULL, "", "this text"},
    {"exit", NULL, "[CODE]", "leave the shell (also quit, Ctrl-D)"},
    {"quit", NULL, "[CODE]", NULL},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

typedef struct shell {
  cli *c;
  line_edit *le;
  char *last; /* the last line kept in the history */
} shell;

static const shell_command *find_command(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++) {
    if (strcmp(commands[i].name, name) == 0) {
      return &commands[i];
    }
  }
  return NULL;
}

static void print_help(void) {
  puts("Commands (each as `mcphost COMMAND` takes it, on the servers "
       "connected):");
  for (size_t i = 0; i < NCOMMANDS; i++) {
    if (commands[i].what) {
      char left[64];
      snprintf(left, sizeof left, "%s %s", commands[i].name, commands[i].args);
      printf("  %-40s %s\n", left, commands[i].what);
    }
  }
  puts("--json after a command prints JSON. Tab completes commands, server,\n"
       "tool and prompt names and a tool's argument names. Ctrl-C cancels\n"
       "the running command; a line that begins with a space is not kept\n"
       "in the history.");
}

/* ---- history: one line each in $XDG_STATE_HOME/mcphost/shell_history */

static void history_load(shell *sh) {
  size_t len = 0;
  char *text = state_file_read(sh->c->api, history_name, &len);
  if (!text) {
    return;
  }
  size_t nlines = 0;
  for (size_t i = 0; i < len; i++) {
    nlines += text[i] == '\n';
  }
  /* Only the newest lines are read; a file grown past twice as many is
   * cut back to them. */
  char *from = text;
  for (size_t skip = nlines > HISTORY_KEEP ? nlines - HISTORY_KEEP : 0;
       skip > 0; skip--) {
    from = strchr(from, '\n') + 1;
  }
  if (nlines > 2 * HISTORY_KEEP) {
    char why[PATH_MAX + 64];
    if (state_file_write(sh->c->api, history_name, from, strlen(from), why,
                         sizeof why) != 0) {
      fprintf(stderr, "mcphost: warning: history: %s\n", why);
    }
  }
  for (char *line = from; *line;) {
    char *nl = strchr(line, '\n');
    if (nl) {
      *nl = '\0';
    }
    if (*line) {
      line_edit_history_add(sh->le, line);
      free(sh->last);
      sh->last = xstrdup(line);
    }
    if (!nl) {
      break;
    }
    line = nl + 1;
  }
  free(text);
}

static void history_keep(shell *sh, const char *line) {
  if (line[0] == ' ' || (sh->last && strcmp(sh->last, line) == 0)) {
    return;
  }
  line_edit_history_add(sh->le, line);
  free(sh->last);
  sh->last = xstrdup(line);
  char why[PATH_MAX + 64];
  int fd = state_file_open(sh->c->api, history_name,
                           O_WRONLY | O_CREAT | O_APPEND, why, sizeof why);
  if (fd < 0) {
    cli_log(sh->c, MCPHOST_LOG_INFO, NULL, "history not kept: %s", why);
    return;
  }
  char *rec = xasprintf("%s\n", line);
  size_t n = strlen(rec);
  if (write(fd, rec, n) != (ssize_t)n) {
    cli_log(sh->c, MCPHOST_LOG_INFO, NULL, "history not kept: short write");
  }
  free(rec);
  close(fd);
}

/* ---- completion ---- */

static bool ready(cli *c, size_t idx) {
  mcphost_server_state ss = MCPHOST_SERVER_STATE_INIT;
  return mcphost_server_get(c->api, idx, &ss, NULL) == MCPHOST_OK &&
         ss.connected;
}

/* The assigned names of server `idx`'s tools or prompts (`kind`), or
 * with `own` SERVER/NAME of the server's own names, through the client's
 * list (cached by it); each also kept for the completion scripts
 * (names_cache.c). */
static void add_names(shell *sh, size_t idx, const char *kind, bool own) {
  cli *c = sh->c;
  cJSON *result = NULL;
  const char *server = mcphost_server_name(c->api, idx);
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_request rq = cli_request(MCPHOST_OP_LIST, server, kind, NULL,
                                   MCPHOST_REQUEST_IF_DECLARED);
  if (cli_run(c, &rq, &result, &err, NULL) != EXIT_OK) {
    return;
  }
  size_t n = 0;
  char **names =
      cli_names_assign(server, cJSON_GetObjectItemCaseSensitive(result, kind),
                       c->lim.name_chars, &n, NULL);
  const cJSON *items = cJSON_GetObjectItemCaseSensitive(result, kind);
  for (size_t i = 0; i < n; i++) {
    const char *own_name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(items, (int)i), "name"));
    if (own && cli_plain_name(own_name, true) &&
        cli_plain_name(server, false)) {
      char *ref = xasprintf("%s/%s", server, own_name);
      line_edit_candidate(sh->le, ref, ' ');
      free(ref);
    } else if (!own && names[i]) {
      line_edit_candidate(sh->le, names[i], ' ');
    }
  }
  cli_names_record(c, server, kind, names, items, n);
  mcphost_free(names);
  cJSON_Delete(result);
}

/* `word`: the word completed; SERVER/NAME once it has a '/'. */
static void add_all_names(shell *sh, const char *kind, const char *word) {
  for (size_t i = 0; i < mcphost_server_count(sh->c->api); i++) {
    if (ready(sh->c, i)) {
      add_names(sh, i, kind, strchr(word, '/') != NULL);
    }
  }
}

static bool given(char **words, size_t n, const char *key) {
  size_t kl = strlen(key);
  for (size_t i = 0; i < n; i++) {
    if (strncmp(words[i], key, kl) == 0 &&
        (words[i][kl] == '=' ||
         (words[i][kl] == ':' && words[i][kl + 1] == '='))) {
      return true;
    }
  }
  return false;
}

/* A tool's argument names from its inputSchema, as KEY= (those not given
 * yet), and KEY=VALUE for the values of an enum or a boolean. */
static void add_arguments(shell *sh, const char *ref, char **words,
                          size_t nwords) {
  cli *c = sh->c;
  const char *server = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_FIND_TOOL;
  rq.name = ref;
  cJSON *item = NULL;
  if (mcphost_resolve_ref(c->api, ref, "tool", &server, NULL, &err) !=
          MCPHOST_OK ||
      !ready(c, (size_t)cli_find_server(c, server)) ||
      cli_run(c, &rq, &item, &err, NULL) != EXIT_OK) {
    goto out;
  }
  const cJSON *props = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(item, "inputSchema"), "properties");
  const cJSON *p;
  cJSON_ArrayForEach(p, props) {
    if (given(words, nwords, p->string)) {
      continue;
    }
    char *key = xasprintf("%s=", p->string);
    line_edit_candidate(sh->le, key, 0);
    const cJSON *v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(p, "enum")) {
      if (cJSON_IsString(v)) {
        char *kv = xasprintf("%s%s", key, v->valuestring);
        line_edit_candidate(sh->le, kv, ' ');
        free(kv);
      }
    }
    const char *type =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "type"));
    if (type && strcmp(type, "boolean") == 0) {
      char *t = xasprintf("%strue", key), *f = xasprintf("%sfalse", key);
      line_edit_candidate(sh->le, t, ' ');
      line_edit_candidate(sh->le, f, ' ');
      free(t);
      free(f);
    }
    free(key);
  }
out:
  cJSON_Delete(item);
}

/* A word that names a tool (a line may begin with one). */
static bool tool_word(const char *w) {
  return str_starts(w, "mcp__") || (strchr(w, '/') && w[0] != '/');
}

static void complete(void *ud, line_edit *le, const char *line, size_t start) {
  shell *sh = ud;
  (void)le;
  /* The words before the one completed; a quote left open is taken as
   * blanks split it. */
  char *head = xstrndup(line, start);
  char **words = NULL;
  size_t n = 0;
  if (split_words(head, &words, &n) != 0) {
    n = 0;
    words = NULL;
  }
  free(head);
  const char *word = line + start;
  if (n == 0) {
    for (size_t i = 0; i < NCOMMANDS; i++) {
      line_edit_candidate(sh->le, commands[i].name, ' ');
    }
    if (str_starts(word, "mcp__") || tool_word(word)) {
      add_all_names(sh, "tools", word);
    }
  } else {
    /* A line may begin with a tool's name: then it is "call TOOL ...". */
    bool implicit = tool_word(words[0]) && !find_command(words[0]);
    const char *cmd = implicit ? "call" : words[0];
    /* Its positional words (options such as --json apart). */
    char **args = xcalloc(n + 1, sizeof *args);
    int npos = 0;
    for (size_t i = implicit ? 0 : 1; i < n; i++) {
      if (words[i][0] != '-') {
        args[npos++] = words[i];
      }
    }
    switch (find_command(cmd) || implicit
                ? cli_completes_after(cmd, npos, npos ? args[0] : NULL)
                : COMPLETES_NOTHING) {
    case COMPLETES_TOOL: add_all_names(sh, "tools", word); break;
    case COMPLETES_PROMPT: add_all_names(sh, "prompts", word); break;
    case COMPLETES_ARGUMENT:
      add_arguments(sh, args[0], args + 1, (size_t)npos - 1);
      break;
    case COMPLETES_SERVER: {
      for (size_t i = 0; i < mcphost_server_count(sh->c->api); i++) {
        line_edit_candidate(sh->le, mcphost_server_name(sh->c->api, i), ' ');
      }
      break;
    }
    default: break; /* the CLI's other commands are not the shell's */
    }
    free(args);
  }
  split_words_free(words);
}

/* ---- running a line ---- */

/* A word that is a tool's argument (options end there). */
static bool argument_word(const char *a) {
  return a[0] == '{' || a[0] == '[' || (a[0] != '-' && strchr(a, '='));
}

/* Runs one command line's words; returns its exit code. */
static int run_words(shell *sh, char **words, size_t n) {
  cli *c = sh->c;
  const shell_command *sc = find_command(words[0]);
  if (!sc && tool_word(words[0])) {
    sc = find_command("call");
    words--; /* words[-1] is the slot run_line keeps for "call" */
    words[0] = (char *)"call";
    n++;
  }
  if (!sc) {
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++) {
      names[i] = commands[i].name;
    }
    strbuf hint;
    sb_init(&hint);
    mcp_suggest(&hint, words[0], names, NCOMMANDS);
    fprintf(stderr, "mcphost: unknown command \"%s\"%s; try 'help'\n",
            cli_esc(c, words[0]), sb_str(&hint));
    sb_free(&hint);
    return EXIT_USAGE;
  }
  if (strcmp(sc->name, "help") == 0) {
    print_help();
    return EXIT_OK;
  }
  /* --json anywhere before the arguments (for call, which takes its
   * options after them too, before "--"), and tools --all, for this
   * command only. */
  bool json = c->json, all_tools = c->all_tools;
  bool is_call = sc->run == cmd_call;
  size_t kept = 1;
  for (size_t i = 1; i < n; i++) {
    bool before_args = true;
    for (size_t k = 1; k < i; k++) {
      before_args = before_args && (is_call ? strcmp(words[k], "--") != 0
                                            : !argument_word(words[k]));
    }
    if (before_args && strcmp(words[i], "--json") == 0) {
      c->json = true;
    } else if (strcmp(sc->name, "tools") == 0 &&
               strcmp(words[i], "--all") == 0) {
      c->all_tools = true;
    } else {
      words[kept++] = words[i];
    }
  }
  words[kept] = NULL;
  int rc = sc->run(c, (int)kept, words);
  c->json = json;
  c->all_tools = all_tools;
  return rc;
}

/* Runs a line; sets *leave (and returns the exit code) for exit. */
static int run_line(shell *sh, const char *line, bool *leave) {
  char **split = NULL;
  size_t n = 0;
  int rc = split_words(line, &split, &n);
  if (rc != 0) {
    fprintf(stderr, "mcphost: %s\n",
            rc == -1 ? "a quote is not closed" : "out of memory");
    return EXIT_USAGE;
  }
  if (n == 0) {
    split_words_free(split);
    return EXIT_OK;
  }
  if (strcmp(split[0], "exit") == 0 || strcmp(split[0], "quit") == 0) {
    *leave = true;
    rc = n > 1 ? atoi(split[1]) & 0xff : EXIT_OK;
    split_words_free(split);
    return rc;
  }
  /* One slot before the words, for "call" in front of a tool's name. */
  char **words = xcalloc(n + 2, sizeof *words);
  memcpy(words + 1, split, n * sizeof *words);
  rc = run_words(sh, words + 1, n);
  free(words);
  split_words_free(split);
  return rc;
}

/* Flushes stdout, keeping the first errno a failed write gave. */
static void flush_output(cli *c) {
  errno = 0;
  if (fflush(stdout) != 0) {
    cli_output_failed(c, errno);
  }
}

/* After each command: what it left for the exit of one command only.
 * Returns true when the reader of stdout is gone (EPIPE): the shell ends
 * there, quietly, with 141 (cli_check_output), as call and batch do. */
static bool after_command(shell *sh) {
  cli *c = sh->c;
  flush_output(c);
  if (c->open_line) {
    fputc('\n', stdout); /* the prompt starts on a line of its own */
    c->open_line = false;
  }
  c->save_failed = c->bad_content = c->output_cut = false;
  c->result_printed = false;
  c->out_cols = -1; /* the terminal may be resized before the next */
  flush_output(c);
  return c->output_errno == EPIPE;
}

int cmd_shell(cli *c, int argc, char **argv) {
  (void)argv;
  if (argc != 1) {
    fprintf(stderr, "mcphost: usage: mcphost shell\n");
    return EXIT_USAGE;
  }
  cli_utf8_ctype();
  shell sh = {.c = c};
  sh.le = line_edit_open(complete, &sh);
  /* A long-lived process: a server that crashed is connected again. */
  mcphost_set_option(c->api, "keep", NULL, NULL);
  size_t connected = cli_connect_all(c), active = 0;
  cJSON *all = cli_server_status(c, NULL, MCPHOST_STATUS_BRIEF);
  const cJSON *st;
  cJSON_ArrayForEach(st, all) {
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "startable"))) {
      continue;
    }
    active++;
    const char *error =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "error"));
    if (!cli_server_ready(st)) {
      out_error(
          "server \"%s\" failed: %s",
          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "name")),
          error ? error : "not connected");
    }
  }
  cJSON_Delete(all);
  bool interactive = line_edit_interactive(sh.le);
  if (interactive) {
    printf("mcphost shell: %zu of %zu servers connected; 'help' lists the "
           "commands, 'exit' or Ctrl-D leaves.\n",
           connected, active);
    history_load(&sh);
  }
  int rc = EXIT_OK, last = EXIT_OK;
  for (;;) {
    char *line = NULL;
    int signo = 0;
    line_status ls = line_edit_read(sh.le, "mcphost> ", &line, &signo);
    if (ls == LINE_EOF) {
      if (interactive) {
        fputc('\n', stdout);
      }
      rc = interactive ? EXIT_OK : last;
      break;
    }
    if (ls == LINE_INTERRUPTED) {
      continue;
    }
    if (ls == LINE_SIGNALLED) {
      rc = 128 + signo;
      break;
    }
    if (interactive && line[strspn(line, " \t")]) {
      history_keep(&sh, line);
    }
    /* The loop stood still at the prompt: what happened meanwhile (a
     * server's exit, a reconnect due) is taken in before the line runs,
     * so it meets the servers as they are. */
    mcphost_run_ready(c->api);
    bool leave = false;
    last = run_line(&sh, line, &leave);
    free(line);
    int sig = mcphost_exit_signal(c->api);
    if (after_command(&sh)) {
      rc = last;
      break;
    }
    if (leave) {
      rc = last;
      break;
    }
    if (mcphost_interrupted(c->api) && sig != SIGINT) {
      rc = 128 + sig; /* SIGTERM or SIGHUP: the shell ends too */
      break;
    }
    /* Ctrl-C ended that command only. */
    mcphost_interrupt_forget(c->api);
  }
  line_edit_close(sh.le);
  free(sh.last);
  return rc;
}
