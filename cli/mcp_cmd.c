/* mcphost mcp ...: managing configured servers, like `claude mcp`. Reads
 * go through the scope loader (config_scopes.h), so `list` and `get` show
 * exactly what every other command would use; writes go through the
 * client API's configuration functions (mcphost_config_add, ...: locked,
 * atomic, keeping every key they do not touch). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "json_parse.h"
#include "json_write.h"
#include "suggest.h"
#include "util.h"

static const char mcp_usage[] =
    "usage: mcphost [OPTIONS] mcp COMMAND [ARGS...]\n"
    "\n"
    "  list                       every server: scope, type, command or URL,\n"
    "                             and its status after a health check\n"
    "  get NAME                   one server: scope, status, type, command or\n"
    "                             URL, the names of its env and headers\n"
    "  add NAME [-s SCOPE] [-t TYPE] [-e KEY=VALUE]...\n"
    "      [-H 'Name: value']... -- COMMAND [ARGS...] | URL\n"
    "                             add a server (SCOPE: local (default), user,\n"
    "                             project; TYPE: stdio (default), http, sse,\n"
    "                             ws, or any type a loaded plugin serves)\n"
    "  add-json NAME JSON [-s SCOPE]\n"
    "                             add a server from its JSON entry\n"
    "  remove NAME [-s SCOPE]     remove a server (SCOPE needed when several\n"
    "                             scopes define NAME)\n"
    "  approve NAME...            use these .mcp.json servers here, as they\n"
    "                             are now (a change needs approving again);\n"
    "                             shows what each runs\n"
    "  reject NAME...             never use them in this project\n"
    "  reset-project-choices      forget this project's approvals and\n"
    "                             rejections: its .mcp.json servers are\n"
    "                             pending again\n"
    "  import CLIENT [-s SCOPE] [--from FILE]\n"
    "                             copy servers from cursor, vscode, windsurf,\n"
    "                             codex, claude-desktop or claude-code\n"
    "\n"
    "Files: docs/config.md. Writes are atomic and locked; every key they do\n"
    "not change is kept.\n";

typedef struct mcp_opts {
  const char *scope; /* local, user or project; NULL when not given */
  const char *transport;
  cJSON *env, *headers; /* objects, NULL when none given */
  const char *from;
} mcp_opts;

static void opts_free(mcp_opts *o) {
  cJSON_Delete(o->env);
  cJSON_Delete(o->headers);
}

/* Parses the options a subcommand takes (`which`: letters of s, t, e, H,
 * f). Options may come before or after the positional arguments; "--"
 * ends them. Returns EXIT_OK with *first at the first positional. */
static int parse_opts(int argc, char **argv, const char *which, mcp_opts *o,
                      int *first) {
  static const struct option longopts[] = {
      {"scope", required_argument, NULL, 's'},
      {"transport", required_argument, NULL, 't'},
      {"env", required_argument, NULL, 'e'},
      {"header", required_argument, NULL, 'H'},
      {"from", required_argument, NULL, 'f'},
      {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  optind = 0; /* glibc: start over, a new argv */
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, "s:t:e:H:", longopts, NULL)) != -1) {
    if (opt == '?' || opt == ':' || !strchr(which, opt)) {
      fprintf(stderr,
              "mcphost: mcp %s: unknown or incomplete option %s "
              "(a server's own options go after --)\n",
              argv[0], argv[optind - 1]);
      return EXIT_USAGE;
    }
    switch (opt) {
    case 's':
      if (!cli_mcp_scope(optarg)) {
        fprintf(stderr,
                "mcphost: --scope must be local, user or project, "
                "not \"%s\"\n",
                optarg);
        return EXIT_USAGE;
      }
      o->scope = optarg;
      break;
    case 't': o->transport = optarg; break;
    case 'f': o->from = optarg; break;
    case 'e': {
      const char *eq = strchr(optarg, '=');
      if (!eq || eq == optarg) {
        fprintf(stderr, "mcphost: -e needs KEY=VALUE, not \"%s\"\n", optarg);
        return EXIT_USAGE;
      }
      if (!o->env)
        o->env = cJSON_CreateObject();
      char *key = xstrndup(optarg, (size_t)(eq - optarg));
      cJSON_DeleteItemFromObjectCaseSensitive(o->env, key);
      cJSON_AddStringToObject(o->env, key, eq + 1);
      free(key);
      break;
    }
    case 'H': {
      const char *colon = strchr(optarg, ':');
      if (!colon || colon == optarg) {
        fprintf(stderr, "mcphost: -H needs 'Name: value', not \"%s\"\n",
                optarg);
        return EXIT_USAGE;
      }
      if (!o->headers)
        o->headers = cJSON_CreateObject();
      char *key = xstrndup(optarg, (size_t)(colon - optarg));
      const char *v = colon + 1 + strspn(colon + 1, " \t");
      cJSON_DeleteItemFromObjectCaseSensitive(o->headers, key);
      cJSON_AddStringToObject(o->headers, key, v);
      free(key);
      break;
    }
    }
  }
  *first = optind;
  return EXIT_OK;
}

/* ---- showing servers ---- */

static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* The loaded servers with their scope and state (mcphost_config_servers),
 * in index order, as mcphost_server_status gives them. */
static cJSON *loaded_servers(cli *c) {
  char *res = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_config_servers(c->api, &res, &err);
  cJSON *v = cli_api_json(res);
  if (!cJSON_IsArray(v)) {
    cJSON_Delete(v);
    v = cJSON_CreateArray();
  }
  return v;
}

/* Whether the server may start (active, or an approved project one). */
static bool startable(const cJSON *s) {
  const char *st = str_of(s, "state");
  return strcmp(st, "active") == 0 || strcmp(st, "approved") == 0;
}

/* "connected", "failed: ...", "pending approval (...)"... from the
 * server's record `s` and its status `st` (cli_server_status). New
 * string. */
static char *status_text(const cJSON *s, const cJSON *st) {
  const char *state = str_of(s, "state");
  const char *name = str_of(s, "name");
  const char *reason = str_of(s, "reason");
  if (startable(s)) {
    const char *error = str_of(st, "error");
    if (cli_server_ready(st))
      return xstrdup("connected");
    if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "code")) ==
        MCPHOST_EAUTH)
      return xasprintf("needs-auth: %s", error ? error : "");
    return xasprintf("failed: %s", error ? error : "not connected");
  }
  if (strcmp(state, "pending") == 0)
    return xasprintf("pending approval%s (mcphost mcp approve %s)",
                     reason && strstr(reason, "changed since approval")
                         ? ": changed since approval"
                         : "",
                     name);
  if (strcmp(state, "rejected") == 0)
    return xasprintf("rejected for this project (mcphost mcp approve %s)",
                     name);
  return xasprintf("%s: %s", state, reason ? reason : "");
}

/* A server as --json shows it: the library's record with its status
 * after "state", without the lines for a person. New item. */
static cJSON *server_json(const cJSON *s, const cJSON *st) {
  cJSON *o = cJSON_CreateObject();
  const cJSON *it;
  cJSON_ArrayForEach(it, s) {
    if (strcmp(it->string, "shown") == 0)
      continue;
    cJSON_AddItemToObject(o, it->string, cJSON_Duplicate(it, 1));
    if (strcmp(it->string, "state") == 0) {
      char *text = status_text(s, st);
      cJSON_AddStringToObject(o, "status", text);
      free(text);
    }
  }
  return o;
}

/* The code of the first server that failed its health check, as
 * `servers` gives it: EXIT_OK when none did. */
static int health_rc(const cJSON *all) {
  const cJSON *st;
  cJSON_ArrayForEach(st, all) {
    /* Only a server the check connected ("idle": never used). */
    if (strcmp(str_of(st, "connection"), "idle") != 0 && !cli_server_ready(st))
      return cli_exit_for_server(st);
  }
  return EXIT_OK;
}

/* Connects the servers that may start, concurrently: the health check. */
static void health_check(cli *c, const cJSON *servers, const size_t *only,
                         size_t nonly) {
  size_t total = (size_t)cJSON_GetArraySize(servers);
  size_t *idx = xcalloc(total ? total : 1, sizeof *idx);
  size_t n = 0;
  for (size_t i = 0; i < total; i++) {
    bool wanted = !only;
    for (size_t k = 0; k < nonly && !wanted; k++)
      wanted = only[k] == i;
    if (wanted && startable(cJSON_GetArrayItem(servers, (int)i)))
      idx[n++] = i;
  }
  if (n)
    cli_connect(c, idx, n);
  free(idx);
}

/* The SOURCE column: a project server's file (which of the walk's files
 * it came from matters); the scope says enough for the others. */
static const char *list_source(const cJSON *s) {
  return strcmp(str_of(s, "scope"), "project") == 0 ? str_of(s, "source") : "-";
}

static int mcp_list(cli *c, int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "mcphost: mcp list takes no arguments\n");
    return EXIT_USAGE;
  }
  cli_load_config(c);
  mcphost_config_report(c->api, NULL, 0, NULL); /* every server is listed */
  cJSON *servers = loaded_servers(c);
  size_t nservers = (size_t)cJSON_GetArraySize(servers);
  health_check(c, servers, NULL, 0);
  cJSON *health = cli_server_status(c, NULL, MCPHOST_STATUS_BRIEF);
  /* As `servers`: the code of the first server that failed its check. */
  int rc = health_rc(health);
  if (c->json) {
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < nservers; i++)
      cJSON_AddItemToArray(arr,
                           server_json(cJSON_GetArrayItem(servers, (int)i),
                                       cJSON_GetArrayItem(health, (int)i)));
    out_json(arr);
    c->result_printed = true;
    cJSON_Delete(arr);
    cJSON_Delete(servers);
    cJSON_Delete(health);
    return rc;
  }
  if (nservers == 0) {
    printf("No MCP servers configured. Add one with: mcphost mcp add NAME -- "
           "COMMAND [ARGS...]\n");
    cJSON_Delete(servers);
    cJSON_Delete(health);
    return EXIT_OK;
  }
  /* Widths in terminal columns (out_width) of what is shown. */
  size_t wname = 4, wscope = 5, wtype = 4, wtarget = 11, wsource = 6;
  /* Each column is as wide as its widest cell, COMMAND/URL too (shown
   * whole: it may be what a person checks before approving). */
  /* Every column but SCOPE comes from a file or a server: escaped, and
   * measured as shown. */
  char **targets = xcalloc(nservers, sizeof *targets);
  char **names = xcalloc(nservers, sizeof *names);
  char **sources = xcalloc(nservers, sizeof *sources);
  char **types = xcalloc(nservers, sizeof *types);
  for (size_t i = 0; i < nservers; i++) {
    const cJSON *s = cJSON_GetArrayItem(servers, (int)i);
    targets[i] = xstrdup(cli_esc(
        c, str_of(cJSON_GetObjectItemCaseSensitive(s, "shown"), "target")));
    names[i] = xstrdup(cli_esc(c, str_of(s, "name")));
    sources[i] = xstrdup(cli_esc(c, list_source(s)));
    types[i] = xstrdup(cli_esc(c, str_of(s, "type")));
    size_t ws[] = {out_width(names[i]), strlen(str_of(s, "scope")),
                   out_width(types[i]), out_width(targets[i]),
                   out_width(sources[i])};
    size_t *w[] = {&wname, &wscope, &wtype, &wtarget, &wsource};
    for (size_t k = 0; k < sizeof w / sizeof *w; k++) {
      *w[k] = ws[k] > *w[k] ? ws[k] : *w[k];
    }
  }
  const char *head[] = {"NAME", "SCOPE", "TYPE", "COMMAND/URL", "SOURCE"};
  size_t hw[] = {wname, wscope, wtype, wtarget, wsource};
  for (size_t k = 0; k < 5; k++) {
    out_pad(head[k], hw[k]);
    fputs("  ", stdout);
  }
  printf("STATUS\n");
  for (size_t i = 0; i < nservers; i++) {
    const cJSON *s = cJSON_GetArrayItem(servers, (int)i);
    char *st = status_text(s, cJSON_GetArrayItem(health, (int)i));
    st[strcspn(st, "\n")] = '\0'; /* one line each; mcp get has the rest */
    const char *cells[] = {names[i], str_of(s, "scope"), types[i], targets[i],
                           sources[i]};
    for (size_t k = 0; k < 5; k++) {
      out_pad(cells[k], hw[k]);
      fputs("  ", stdout);
    }
    printf("%s\n", cli_esc(c, st));
    free(st);
    free(targets[i]);
    free(names[i]);
    free(sources[i]);
    free(types[i]);
  }
  free(targets);
  free(names);
  free(sources);
  free(types);
  cJSON_Delete(servers);
  cJSON_Delete(health);
  return rc;
}

static void print_names(cli *c, const char *label, const cJSON *names) {
  if (cJSON_GetArraySize(names) == 0)
    return;
  printf("  %s: ", label);
  const cJSON *it;
  bool first = true;
  cJSON_ArrayForEach(it, names) {
    printf("%s%s", first ? "" : ", ", cli_esc(c, it->valuestring));
    first = false;
  }
  printf("\n");
}

/* What the entry reads and talks to besides its own text: the ${VAR}
 * references, the variables and files its keys name, the authorization
 * server and identity provider, the headersHelper. */
static void print_reads(cli *c, const cJSON *s) {
  const cJSON *it;
  cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(s, "variables")) {
    printf("  Uses: reads variable %s (${%s})\n", cli_esc(c, it->valuestring),
           cli_esc(c, it->valuestring));
  }
  const cJSON *shown = cJSON_GetObjectItemCaseSensitive(s, "shown");
  cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(shown, "reads")) {
    printf("  Uses: %s\n", cli_esc(c, it->valuestring));
  }
  const char *helper = str_of(s, "headersHelper");
  if (helper)
    printf("  Uses: runs %s (headersHelper)\n", cli_esc(c, helper));
}

static int mcp_get(cli *c, int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "mcphost: usage: mcphost mcp get NAME\n");
    return EXIT_USAGE;
  }
  cli_load_config(c);
  long i = cli_find_server(c, argv[1]);
  if (i >= 0) {
    mcphost_config_report(c->api, argv[1], 0, NULL);
  }
  if (i < 0) {
    size_t n = mcphost_server_count(c->api);
    const char **known = xcalloc(n ? n : 1, sizeof *known);
    for (size_t k = 0; k < n; k++)
      known[k] = mcphost_server_name(c->api, k);
    strbuf hint;
    sb_init(&hint);
    mcp_suggest(&hint, argv[1], known, n);
    free(known);
    fprintf(stderr, "mcphost: no MCP server named \"%s\" is configured%s\n",
            cli_esc(c, argv[1]), cli_esc(c, sb_str(&hint)));
    sb_free(&hint);
    return EXIT_NOT_FOUND;
  }
  size_t idx = (size_t)i;
  cJSON *servers = loaded_servers(c);
  const cJSON *s = cJSON_GetArrayItem(servers, (int)idx);
  if (!s) {
    cJSON_Delete(servers);
    return EXIT_NOT_FOUND;
  }
  health_check(c, servers, &idx, 1);
  cJSON *health = cJSON_CreateArray();
  cJSON *h1 = cli_server_status(c, mcphost_server_name(c->api, idx),
                                MCPHOST_STATUS_BRIEF);
  if (h1)
    cJSON_AddItemToArray(health, h1);
  /* As mcp list: the code of a failed health check. */
  int rc = health_rc(health);
  if (c->json) {
    cJSON *o = server_json(s, h1);
    out_json(o);
    c->result_printed = true;
    cJSON_Delete(o);
    cJSON_Delete(servers);
    cJSON_Delete(health);
    return rc;
  }
  const char *scope = str_of(s, "scope");
  char *st = status_text(s, h1);
  cJSON_Delete(health);
  printf("%s:\n", cli_esc(c, str_of(s, "name")));
  printf("  Scope: %s\n", scope);
  printf("  Source: %s\n", cli_esc(c, str_of(s, "source")));
  printf("  Status: ");
  /* A server's stderr tail: one escaped line each, indented. */
  for (char *line = st, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = '\0';
    printf("%s%s", line == st ? "" : "\n    ", cli_esc(c, line));
  }
  printf("\n");
  if (strcmp(str_of(s, "state"), "pending") == 0 && str_of(s, "reason"))
    printf("  Approval: %s\n", cli_esc(c, str_of(s, "reason")));
  printf("  Type: %s\n", cli_esc(c, str_of(s, "type")));
  const char *cmd = str_of(s, "command");
  const char *url = str_of(s, "url");
  const cJSON *shown = cJSON_GetObjectItemCaseSensitive(s, "shown");
  if (cmd) {
    printf("  Command: %s\n", cli_esc(c, cmd));
    const char *args = str_of(shown, "args");
    if (args && *args)
      printf("  Args: %s\n", cli_esc(c, args));
  }
  if (url)
    printf("  URL: %s\n", cli_esc(c, str_of(shown, "url")));
  /* Names only: the values are often tokens. */
  print_names(c, "Environment", cJSON_GetObjectItemCaseSensitive(s, "env"));
  print_names(c, "Headers", cJSON_GetObjectItemCaseSensitive(s, "headers"));
  print_reads(c, s);
  if (cli_mcp_scope(scope))
    printf("\nTo remove it: mcphost mcp remove %s -s %s\n",
           cli_esc(c, str_of(s, "name")), scope);
  free(st);
  cJSON_Delete(servers);
  return rc;
}

/* ---- changing servers ---- */

bool cli_mcp_scope(const char *s) {
  return strcmp(s, "local") == 0 || strcmp(s, "user") == 0 ||
         strcmp(s, "project") == 0;
}

cJSON *cli_api_json(char *text) {
  cJSON *v = text ? json_parse(text, strlen(text), NULL) : NULL;
  mcphost_free(text);
  return v ? v : cJSON_CreateObject();
}

/* A failed change: its message, and the exit code of its kind (a
 * refused entry or name is the caller's; a file that cannot be written
 * is the server configuration's). */
static int change_failed(cli *c, const mcphost_error *err) {
  fprintf(stderr, "mcphost: %s\n", cli_esc(c, err->message));
  return err->code == MCPHOST_EUSAGE ? EXIT_USAGE : EXIT_SERVER;
}

/* Approves (or rejects) the project servers `names` as the walk finds
 * them now, and shows what each runs. Returns an exit code; nothing is
 * written unless every name is found. */
static int approve_servers(cli *c, const char *const *names, size_t n,
                           const char *choice) {
  cJSON *list = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++)
    cJSON_AddItemToArray(list, cJSON_CreateString(names[i]));
  char *text = json_print(list);
  cJSON_Delete(list);
  char *res = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int st = mcphost_project_choice(c->api, choice, text, 0, &res, &err);
  free(text);
  cJSON *r = cli_api_json(res);
  const char *project = str_of(r, "project");
  int rc = EXIT_OK;
  const cJSON *s;
  cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "servers")) {
    if (!cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(s, "found")))
      continue;
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(s, "errors")) {
      fprintf(stderr, "mcphost: config error: %s\n",
              cli_esc(c, it->valuestring));
    }
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(s, "warnings")) {
      fprintf(stderr, "mcphost: config warning: %s\n",
              cli_esc(c, it->valuestring));
    }
    fprintf(stderr,
            "mcphost: no server named \"%s\" in this project's trusted "
            ".mcp.json files (",
            cli_esc(c, str_of(s, "name")));
    bool first = true;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(r, "searched")) {
      fprintf(stderr, "%s%s", first ? "" : ", ", cli_esc(c, it->valuestring));
      first = false;
    }
    fprintf(stderr, ")\n");
    rc = EXIT_NOT_FOUND;
  }
  if (rc == EXIT_OK && st != MCPHOST_OK)
    rc = change_failed(c, &err);
  cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "servers")) {
    if (rc != EXIT_OK)
      break;
    if (strcmp(choice, "reject") == 0) {
      printf("Rejected project server %s for %s\n",
             cli_esc(c, str_of(s, "name")), cli_esc(c, project));
      continue;
    }
    printf("Approved project server %s for %s, from %s:\n",
           cli_esc(c, str_of(s, "name")), cli_esc(c, project),
           cli_esc(c, str_of(s, "file")));
    /* One part a line, indented; escaped by the library. */
    const char *what = str_of(s, "summary");
    for (const char *p = what; p && *p;) {
      size_t len = strcspn(p, "\n");
      printf("  %.*s\n", (int)len, p);
      p += len + (p[len] == '\n');
    }
    if (str_of(s, "changes"))
      printf("  changed since its last approval: %s\n",
             cli_esc(c, str_of(s, "changes")));
  }
  cJSON_Delete(r);
  return rc;
}

/* Checks and writes {NAME: entry} to the scope; a project server added
 * here is approved for this project at once: its author chose it. A
 * server entry that is not a JSON object is said as `mcp add-json`
 * says it (`json`: the text given). */
static int add_entry(cli *c, const char *name, const char *entry,
                     const char *scope, const char *what, const char *json) {
  char *res = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (mcphost_config_add(c->api, scope, name, entry, 0, &res, &err) !=
      MCPHOST_OK) {
    /* mcphost_config_add's message for an entry that is no object. */
    if (json && strncmp(err.message, "the server entry: ", 18) == 0) {
      fprintf(stderr, "mcphost: mcp add-json %s: %s: %s\n", cli_esc(c, name),
              err.message, cli_esc(c, json));
      return EXIT_USAGE;
    }
    return change_failed(c, &err);
  }
  cJSON *r = cli_api_json(res);
  /* Without `what`: the command line, as the library quotes it. */
  char *line =
      what ? NULL
           : xasprintf(" with command: %s",
                       str_of(cJSON_GetObjectItemCaseSensitive(r, "shown"),
                              "target"));
  printf("Added %s MCP server %s%s to %s\n", cli_esc(c, str_of(r, "type")),
         cli_esc(c, name), cli_esc(c, what ? what : line),
         cli_esc(c, str_of(r, "where")));
  free(line);
  cJSON_Delete(r);
  const char *names[] = {name};
  if (strcmp(scope, "project") == 0 &&
      approve_servers(c, names, 1, "approve") != EXIT_OK)
    fprintf(stderr, "mcphost: warning: could not record the approval\n");
  cli_warn_skipped(c, names, 1);
  return EXIT_OK;
}

/* add_entry of a tree. */
static int add_tree(cli *c, const char *name, const cJSON *e, const char *scope,
                    const char *what) {
  char *text = json_print(e);
  int rc = add_entry(c, name, text, scope, what, NULL);
  free(text);
  return rc;
}

/* mcp add -t sdk NAME: {"type": "sdk"}, served by the program that
 * embeds mcphost under that name (docs/config.md); nothing else. */
static int add_inproc(cli *c, const char *name, int nmore, const mcp_opts *o) {
  if (nmore > 0 || o->env || o->headers) {
    fprintf(stderr, "mcphost: an sdk server takes no command, URL, -e or "
                    "-H: the program that embeds mcphost serves it under "
                    "its name\n");
    return EXIT_USAGE;
  }
  return add_entry(c, name, "{\"type\":\"sdk\"}", o->scope ? o->scope : "local",
                   " (in-process, served by the program that embeds "
                   "mcphost)",
                   NULL);
}

/* Whether a loaded plugin serves `type`; when not, says so with the
 * types they serve. */
static bool type_served(cli *c, const char *type) {
  char *res = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_config_types(c->api, &res, &err);
  cJSON *types = cli_api_json(res);
  bool found = false;
  strbuf known;
  sb_init(&known);
  const cJSON *it;
  cJSON_ArrayForEach(it, types) {
    found = found || strcmp(it->valuestring, type) == 0;
    sb_printf(&known, "%s%s", known.len ? ", " : "", it->valuestring);
  }
  if (!found)
    fprintf(stderr,
            "mcphost: no loaded plugin serves transport type \"%s\" "
            "(--transport takes %s; a plugin outside the built-in "
            "directory needs --plugin-dir)\n",
            cli_esc(c, type), sb_str(&known));
  sb_free(&known);
  cJSON_Delete(types);
  return found;
}

static int mcp_add(cli *c, int argc, char **argv) {
  mcp_opts o;
  int first, rc = parse_opts(argc, argv, "steH", &o, &first);
  if (rc != EXIT_OK)
    goto out;
  const char *type = o.transport ? o.transport : "stdio";
  /* An in-process server is the embedding program's: a name alone. */
  bool sdk = strcmp(type, "sdk") == 0;
  if (argc - first < 2 - sdk) {
    fprintf(stderr, "mcphost: usage: mcphost mcp add NAME [-s SCOPE] [-t "
                    "TYPE] [-e KEY=VALUE]... [-H 'Name: value']... -- "
                    "COMMAND [ARGS...] | URL\n");
    rc = EXIT_USAGE;
    goto out;
  }
  const char *name = argv[first];
  if (sdk) {
    rc = add_inproc(c, name, argc - first - 1, &o);
    goto out;
  }
  /* stdio takes a command; every other type one URL. */
  bool remote = strcmp(type, "stdio") != 0;
  /* The types the loaded plugins serve (ws-ide, a --plugin-dir's own). */
  if (!type_served(c, type)) {
    rc = EXIT_USAGE;
    goto out;
  }
  if ((remote && o.env) || (!remote && o.headers)) {
    fprintf(stderr, "mcphost: %s\n",
            remote ? "-e sets a stdio server's environment; a remote server "
                     "takes -H headers"
                   : "-H sets a remote server's headers; use --transport "
                     "http, sse or ws");
    rc = EXIT_USAGE;
    goto out;
  }
  cJSON *e = cJSON_CreateObject();
  cJSON_AddStringToObject(e, "type", type);
  strbuf what;
  sb_init(&what);
  if (remote) {
    if (argc - first != 2 || !strstr(argv[first + 1], "://")) {
      fprintf(stderr, "mcphost: a %s server takes one URL after its name\n",
              type);
      cJSON_Delete(e);
      sb_free(&what);
      rc = EXIT_USAGE;
      goto out;
    }
    cJSON_AddStringToObject(e, "url", argv[first + 1]);
    sb_printf(&what, " with URL %s", argv[first + 1]);
    if (o.headers) {
      cJSON_AddItemToObject(e, "headers", o.headers);
      o.headers = NULL;
    }
  } else {
    if (strstr(argv[first + 1], "://"))
      fprintf(stderr,
              "mcphost: warning: \"%s\" looks like a URL but is "
              "added as a command; use --transport http (or sse, ws) "
              "for a remote server\n",
              argv[first + 1]);
    cJSON_AddStringToObject(e, "command", argv[first + 1]);
    cJSON *args = cJSON_AddArrayToObject(e, "args");
    for (int i = first + 2; i < argc; i++)
      cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
    if (o.env) {
      cJSON_AddItemToObject(e, "env", o.env);
      o.env = NULL;
    }
  }
  rc = add_tree(c, name, e, o.scope ? o.scope : "local",
                remote ? sb_str(&what) : NULL);
  sb_free(&what);
  cJSON_Delete(e);
out:
  opts_free(&o);
  return rc;
}

static int mcp_add_json(cli *c, int argc, char **argv) {
  mcp_opts o;
  int first, rc = parse_opts(argc, argv, "s", &o, &first);
  if (rc == EXIT_OK && argc - first != 2) {
    fprintf(stderr, "mcphost: usage: mcphost mcp add-json NAME JSON [-s "
                    "SCOPE]\n");
    rc = EXIT_USAGE;
  }
  if (rc == EXIT_OK)
    rc = add_entry(c, argv[first], argv[first + 1], o.scope ? o.scope : "local",
                   "", argv[first + 1]);
  opts_free(&o);
  return rc;
}

static int mcp_remove(cli *c, int argc, char **argv) {
  mcp_opts o;
  int first, rc = parse_opts(argc, argv, "s", &o, &first);
  if (rc == EXIT_OK && argc - first != 1) {
    fprintf(stderr, "mcphost: usage: mcphost mcp remove NAME [-s SCOPE]\n");
    rc = EXIT_USAGE;
  }
  if (rc != EXIT_OK) {
    opts_free(&o);
    return rc;
  }
  const char *name = argv[first];
  /* Local, project, user: the scopes considered, in that order. */
  char *res = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_config_entries(c->api, o.scope, &res, &err);
  cJSON *entries = cli_api_json(res);
  cJSON *known = cJSON_CreateArray();
  const cJSON *defined[3];
  size_t found = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, entries) {
    cJSON_AddItemToArray(known, cJSON_CreateString(str_of(e, "name")));
    if (strcmp(str_of(e, "name"), name) == 0 && found < 3)
      defined[found++] = e;
  }
  if (found == 0) {
    strbuf hint;
    sb_init(&hint);
    mcp_suggest_array(&hint, name, known);
    fprintf(stderr, "mcphost: no MCP server named \"%s\" in the %s config%s\n",
            cli_esc(c, name), o.scope ? o.scope : "local, project or user",
            cli_esc(c, sb_str(&hint)));
    sb_free(&hint);
    rc = EXIT_NOT_FOUND;
  } else if (found > 1) {
    fprintf(stderr,
            "mcphost: \"%s\" is defined in several scopes:", cli_esc(c, name));
    for (size_t i = 0; i < found; i++)
      fprintf(stderr, " %s (%s)", str_of(defined[i], "scope"),
              cli_esc(c, str_of(defined[i], "file")));
    fprintf(stderr, "; say which with -s SCOPE\n");
    rc = EXIT_USAGE;
  } else if (mcphost_config_remove(c->api, str_of(defined[0], "scope"), name,
                                   &res, &err) != MCPHOST_OK) {
    /* ENOTFOUND: gone between the look and the lock. */
    fprintf(stderr, "mcphost: %s\n", cli_esc(c, err.message));
    rc = err.code == MCPHOST_ENOTFOUND ? EXIT_NOT_FOUND : EXIT_SERVER;
  } else {
    cJSON *r = cli_api_json(res);
    printf("Removed MCP server %s from %s\n", cli_esc(c, name),
           cli_esc(c, str_of(r, "where")));
    cJSON_Delete(r);
  }
  cJSON_Delete(known);
  cJSON_Delete(entries);
  opts_free(&o);
  return rc;
}

static int mcp_choice(cli *c, int argc, char **argv, const char *choice) {
  bool reset = strcmp(choice, "reset") == 0;
  if (reset ? argc != 1 : argc < 2) {
    fprintf(stderr, "mcphost: usage: mcphost mcp %s\n",
            reset ? "reset-project-choices" : "approve|reject NAME...");
    return EXIT_USAGE;
  }
  if (!reset)
    return approve_servers(c, (const char *const *)argv + 1, (size_t)argc - 1,
                           choice);
  char *res = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (mcphost_project_choice(c->api, "reset", NULL, 0, &res, &err) !=
      MCPHOST_OK)
    return change_failed(c, &err);
  cJSON *r = cli_api_json(res);
  printf("Project choices reset for %s: its .mcp.json servers are pending "
         "approval again\n",
         cli_esc(c, str_of(r, "project")));
  cJSON_Delete(r);
  return EXIT_OK;
}

static int mcp_approve(cli *c, int argc, char **argv) {
  return mcp_choice(c, argc, argv, "approve");
}

static int mcp_reject(cli *c, int argc, char **argv) {
  return mcp_choice(c, argc, argv, "reject");
}

static int mcp_reset(cli *c, int argc, char **argv) {
  return mcp_choice(c, argc, argv, "reset");
}

static const struct {
  const char *name;
  int (*run)(cli *c, int argc, char **argv);
} mcp_commands[] = {
    {"list", mcp_list},         {"get", mcp_get},
    {"add", mcp_add},           {"add-json", mcp_add_json},
    {"remove", mcp_remove},     {"approve", mcp_approve},
    {"reject", mcp_reject},     {"reset-project-choices", mcp_reset},
    {"import", cmd_mcp_import},
};
#define NMCP_COMMANDS (sizeof mcp_commands / sizeof *mcp_commands)

bool cli_mcp_command(const char *name) {
  for (size_t i = 0; i < NMCP_COMMANDS; i++) {
    if (strcmp(name, mcp_commands[i].name) == 0) {
      return true;
    }
  }
  return false;
}

int cmd_mcp(cli *c, int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
      strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    fputs(mcp_usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? EXIT_USAGE : EXIT_OK;
  }
  const char *sub = argv[1];
  const char *names[NMCP_COMMANDS];
  for (size_t i = 0; i < NMCP_COMMANDS; i++) {
    if (strcmp(sub, mcp_commands[i].name) == 0) {
      return mcp_commands[i].run(c, argc - 1, argv + 1);
    }
    names[i] = mcp_commands[i].name;
  }
  return cli_unknown(c, "unknown mcp command", sub, names, NMCP_COMMANDS,
                     "; try 'mcphost mcp --help'");
}
