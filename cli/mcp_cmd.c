/* mcphost mcp ...: managing configured servers, like `claude mcp`. Reads
 * go through the scope loader (config_scopes.h), so `list` and `get` show
 * exactly what every other command would use; writes go through
 * mcp_edit.h (locked, atomic, keeping every key they do not touch). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/mcp_edit.h"
#include "config/config_approval.h"
#include "config/config_expand.h"
#include "config/config_policy.h"
#include "core/plugins.h"
#include "util.h"
#include "suggest.h"
#include "url_redact.h"

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
  config_scope scope;
  bool scope_set;
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
      if (!edit_parse_scope(optarg, &o->scope)) {
        fprintf(stderr,
                "mcphost: --scope must be local, user or project, "
                "not \"%s\"\n",
                optarg);
        return EXIT_USAGE;
      }
      o->scope_set = true;
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

/* The command line or URL as written (never expanded: an expanded value
 * may hold a secret from the environment); a URL without its password and
 * query, as every message shows it (url_redact.h). New string. */
static char *target_text(const server_config *s) {
  const cJSON *e = s->raw ? s->raw : s->json;
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "url"));
  const char *cmd =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "command"));
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  if (cmd) {
    approval_add_word(&b, cmd);
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(e, "args"))
        approval_add_word(&b, cJSON_GetStringValue(a) ? a->valuestring : "");
  } else if (url) {
    char *shown = url_redacted(url);
    sb_adds(&b, shown ? shown : "");
    free(shown);
  } else {
    sb_adds(&b, "-");
  }
  return sb_take(&b);
}

/* "connected", "failed: ...", "pending approval (...)"... New string. */
static char *status_text(const cli *c, size_t i) {
  const server_config *s = &host_cfg(c->h)->servers[i];
  mcp_server_status st;
  mcp_client_status(c->mc, i, &st);
  switch (s->state) {
  case SERVER_ACTIVE:
    if (st.ready)
      return xstrdup("connected");
    if (st.failure == MCP_ERR_AUTH)
      return xasprintf("needs-auth: %s", st.error ? st.error : "");
    return xasprintf("failed: %s", st.error ? st.error : "not connected");
  case SERVER_PENDING:
    return xasprintf("pending approval%s (mcphost mcp approve %s)",
                     s->reason && strstr(s->reason, "changed since approval")
                         ? ": changed since approval"
                         : "",
                     s->name);
  case SERVER_REJECTED:
    return xasprintf("rejected for this project (mcphost mcp approve %s)",
                     s->name);
  default:
    return xasprintf("%s: %s", server_state_name(s),
                     s->reason ? s->reason : "");
  }
}

static cJSON *names_of(const cJSON *obj) {
  cJSON *a = cJSON_CreateArray();
  const cJSON *it;
  cJSON_ArrayForEach(it, obj)
      cJSON_AddItemToArray(a, cJSON_CreateString(it->string));
  return a;
}

static cJSON *server_json(const cli *c, size_t i) {
  const server_config *s = &host_cfg(c->h)->servers[i];
  const cJSON *raw = s->raw ? s->raw : s->json;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", s->name);
  cJSON_AddStringToObject(o, "scope", config_server_scope(s));
  cJSON_AddStringToObject(o, "source", s->source);
  cJSON_AddStringToObject(o, "type", s->type);
  static const char *const keys[] = {"command", "args", "url"};
  for (size_t k = 0; k < 3; k++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(raw, keys[k]);
    if (v)
      cJSON_AddItemToObject(o, keys[k], cJSON_Duplicate(v, 1));
  }
  cJSON_AddItemToObject(o, "env",
                        names_of(cJSON_GetObjectItemCaseSensitive(raw, "env")));
  cJSON_AddItemToObject(
      o, "headers", names_of(cJSON_GetObjectItemCaseSensitive(raw, "headers")));
  cJSON_AddItemToObject(o, "variables", approval_vars(raw));
  cJSON_AddItemToObject(o, "reads", approval_reads(raw));
  const cJSON *helper = cJSON_GetObjectItemCaseSensitive(raw, "headersHelper");
  if (cJSON_IsString(helper))
    cJSON_AddStringToObject(o, "headersHelper", helper->valuestring);
  cJSON_AddStringToObject(o, "state", server_state_name(s));
  char *st = status_text(c, i);
  cJSON_AddStringToObject(o, "status", st);
  free(st);
  if (s->reason)
    cJSON_AddStringToObject(o, "reason", s->reason);
  return o;
}

/* Connects the servers that may start, concurrently: the health check. */
static void health_check(cli *c, const size_t *only, size_t nonly) {
  const config *cfg = host_cfg(c->h);
  size_t *idx = xcalloc(cfg->nservers ? cfg->nservers : 1, sizeof *idx);
  size_t n = 0;
  for (size_t i = 0; i < cfg->nservers; i++) {
    bool wanted = !only;
    for (size_t k = 0; k < nonly && !wanted; k++)
      wanted = only[k] == i;
    if (wanted && cfg->servers[i].state == SERVER_ACTIVE)
      idx[n++] = i;
  }
  if (n)
    cli_connect(c, idx, n);
  free(idx);
}

/* The SOURCE column: a project server's file (which of the walk's files
 * it came from matters); the scope says enough for the others. */
static const char *list_source(const server_config *s) {
  return s->scope == SCOPE_PROJECT ? s->source : "-";
}

static int mcp_list(cli *c, int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "mcphost: mcp list takes no arguments\n");
    return EXIT_USAGE;
  }
  cli_load_config(c);
  host_config_report_servers(c->h); /* every server is listed */
  const config *cfg = host_cfg(c->h);
  health_check(c, NULL, 0);
  /* As `servers`: the code of the first server that failed its check. */
  int rc = EXIT_OK;
  for (size_t i = 0; i < mcp_client_nservers(c->mc) && rc == EXIT_OK; i++) {
    mcp_server_status st;
    if (mcp_client_status(c->mc, i, &st) && !st.ready)
      rc = cli_exit_for_status(&st);
  }
  if (c->json) {
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < cfg->nservers; i++)
      cJSON_AddItemToArray(arr, server_json(c, i));
    out_json(arr);
    c->result_printed = true;
    cJSON_Delete(arr);
    return rc;
  }
  if (cfg->nservers == 0) {
    printf("No MCP servers configured. Add one with: mcphost mcp add NAME -- "
           "COMMAND [ARGS...]\n");
    return EXIT_OK;
  }
  /* Widths in terminal columns (out_width) of what is shown. */
  size_t wname = 4, wscope = 5, wtype = 4, wtarget = 11, wsource = 6;
  /* Each column is as wide as its widest cell, COMMAND/URL too (shown
   * whole: it may be what a person checks before approving). */
  /* Every column but SCOPE comes from a file or a server: escaped, and
   * measured as shown. */
  char **targets = xcalloc(cfg->nservers, sizeof *targets);
  char **names = xcalloc(cfg->nservers, sizeof *names);
  char **sources = xcalloc(cfg->nservers, sizeof *sources);
  char **types = xcalloc(cfg->nservers, sizeof *types);
  for (size_t i = 0; i < cfg->nservers; i++) {
    const server_config *s = &cfg->servers[i];
    char *t = target_text(s);
    targets[i] = xstrdup(cli_esc(c, t));
    free(t);
    names[i] = xstrdup(cli_esc(c, s->name));
    sources[i] = xstrdup(cli_esc(c, list_source(s)));
    types[i] = xstrdup(cli_esc(c, s->type));
    size_t ws[] = {out_width(names[i]), strlen(config_server_scope(s)),
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
  for (size_t i = 0; i < cfg->nservers; i++) {
    const server_config *s = &cfg->servers[i];
    char *st = status_text(c, i);
    st[strcspn(st, "\n")] = '\0'; /* one line each; mcp get has the rest */
    const char *cells[] = {names[i], config_server_scope(s), types[i],
                           targets[i], sources[i]};
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
  return rc;
}

static void print_names(cli *c, const char *label, const cJSON *obj) {
  if (cJSON_GetArraySize(obj) == 0)
    return;
  printf("  %s: ", label);
  const cJSON *it;
  bool first = true;
  cJSON_ArrayForEach(it, obj) {
    printf("%s%s", first ? "" : ", ", cli_esc(c, it->string));
    first = false;
  }
  printf("\n");
}

/* What the entry reads and talks to besides its own text: the ${VAR}
 * references, the variables and files its keys name, the authorization
 * server and identity provider (approval_reads()), the headersHelper. */
static void print_reads(cli *c, const cJSON *raw) {
  cJSON *vars = approval_vars(raw);
  const cJSON *it;
  cJSON_ArrayForEach(it, vars) {
    printf("  Uses: reads variable %s (${%s})\n", cli_esc(c, it->valuestring),
           cli_esc(c, it->valuestring));
  }
  cJSON_Delete(vars);
  cJSON *reads = approval_reads(raw);
  cJSON_ArrayForEach(it, reads) {
    char *t = approval_read_text(it);
    printf("  Uses: %s\n", cli_esc(c, t));
    free(t);
  }
  cJSON_Delete(reads);
  const char *helper = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(raw, "headersHelper"));
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
    host_config_report_server(c->h, argv[1]);
  }
  if (i < 0) {
    strbuf hint;
    sb_init(&hint);
    mcp_client_suggest_servers(c->mc, argv[1], &hint);
    fprintf(stderr, "mcphost: no MCP server named \"%s\" is configured%s\n",
            cli_esc(c, argv[1]), cli_esc(c, sb_str(&hint)));
    sb_free(&hint);
    return EXIT_NOT_FOUND;
  }
  size_t idx = (size_t)i;
  health_check(c, &idx, 1);
  /* As mcp list: the code of a failed health check. */
  int rc = EXIT_OK;
  mcp_server_status health;
  if (mcp_client_status(c->mc, idx, &health) && !health.ready)
    rc = cli_exit_for_status(&health);
  if (c->json) {
    cJSON *o = server_json(c, idx);
    out_json(o);
    c->result_printed = true;
    cJSON_Delete(o);
    return rc;
  }
  const server_config *s = &host_cfg(c->h)->servers[idx];
  const cJSON *raw = s->raw ? s->raw : s->json;
  char *st = status_text(c, idx);
  printf("%s:\n", cli_esc(c, s->name));
  printf("  Scope: %s\n", config_server_scope(s));
  printf("  Source: %s\n", cli_esc(c, s->source));
  printf("  Status: ");
  /* A server's stderr tail: one escaped line each, indented. */
  for (char *line = st, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = '\0';
    printf("%s%s", line == st ? "" : "\n    ", cli_esc(c, line));
  }
  printf("\n");
  if (s->state == SERVER_PENDING && s->reason)
    printf("  Approval: %s\n", cli_esc(c, s->reason));
  printf("  Type: %s\n", cli_esc(c, s->type));
  const char *cmd =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(raw, "command"));
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(raw, "url"));
  if (cmd) {
    printf("  Command: %s\n", cli_esc(c, cmd));
    strbuf b;
    sb_init(&b);
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(raw, "args"))
        approval_add_word(&b, cJSON_GetStringValue(a) ? a->valuestring : "");
    if (b.len)
      printf("  Args: %s\n", cli_esc(c, sb_str(&b)));
    sb_free(&b);
  }
  if (url) {
    char *shown = url_redacted(url);
    printf("  URL: %s\n", cli_esc(c, shown ? shown : ""));
    free(shown);
  }
  /* Names only: the values are often tokens. */
  print_names(c, "Environment", cJSON_GetObjectItemCaseSensitive(raw, "env"));
  print_names(c, "Headers", cJSON_GetObjectItemCaseSensitive(raw, "headers"));
  print_reads(c, raw);
  if (s->scope == SCOPE_LOCAL || s->scope == SCOPE_USER ||
      s->scope == SCOPE_PROJECT)
    printf("\nTo remove it: mcphost mcp remove %s -s %s\n", cli_esc(c, s->name),
           config_scope_name(s->scope));
  free(st);
  return rc;
}

/* ---- changing servers ---- */

static int write_failed(cli *c, const char *why) {
  fprintf(stderr, "mcphost: %s\n", cli_esc(c, why));
  return strstr(why, "already exists") ? EXIT_USAGE : EXIT_SERVER;
}

/* A transport created only to validate its configuration is destroyed
 * before it could call back; these are never run. */
static void ignore_message(void *ud, const char *json, size_t len) {
  (void)ud;
  (void)json;
  (void)len;
}
static void ignore_event(void *ud, int code, const char *message) {
  (void)ud;
  (void)code;
  (void)message;
}

/* Whether the entry would load and its transport accept it: the
 * loader's checks, the expansion, then the transport's own create(),
 * which validates every field without any I/O. Fills `why`. */
static bool entry_valid(cli *c, const char *name, const cJSON *entry,
                        char **type_out, char *why, size_t why_len) {
  config tmp;
  config_init(&tmp);
  bool ok = false;
  cJSON *json = NULL;
  const char *type =
      config_check_entry(&tmp, "the new entry", name, name, entry);
  if (!type) {
    snprintf(why, why_len, "%s", tmp.errors[0]);
    goto out;
  }
  *type_out = xstrdup(type);
  json = cJSON_Duplicate(entry, 1);
  if (config_expand_entry(&tmp, "the new entry", name, name, json, NULL) < 0) {
    snprintf(why, why_len, "%s", tmp.errors[0]);
    goto out;
  }
  const type_binding *tb = registry_find_type(host_registry(c->h), type);
  if (!tb) {
    snprintf(why, why_len,
             "the new entry: server \"%s\": no loaded plugin serves "
             "transport type \"%s\" (see mcphost plugins; a plugin "
             "outside the built-in directory needs --plugin-dir here too)",
             name, type);
    goto out;
  }
  mcph_error err;
  mcph_error_init(&err);
  /* A deferred plugin (ABI 1.6 provides) is initialized here. */
  const mcph_transport_factory *tf = plugin_transport(tb->winner, &err);
  if (!tf) {
    snprintf(why, why_len, "the new entry: server \"%s\": %s", name,
             err.message);
    goto out;
  }
  char *text = cJSON_PrintUnformatted(json);
  mcph_transport_events ev = {.struct_size = sizeof ev,
                              .on_message = ignore_message,
                              .on_error = ignore_event,
                              .on_close = ignore_event};
  mcph_transport_params params = {.struct_size = sizeof params,
                                  .type = type,
                                  .server_name = name,
                                  .config_json = text,
                                  .events = &ev};
  mcph_transport *t = NULL;
  int rc = tf->create(tb->winner->ctx, &params, &t, &err);
  cJSON_free(text);
  if (rc != 0) {
    snprintf(why, why_len, "the new entry: server \"%s\": %s", name,
             err.message[0] ? err.message : "invalid configuration");
    goto out;
  }
  tf->destroy(t);
  ok = true;
out:
  cJSON_Delete(json);
  config_free(&tmp);
  return ok;
}

/* Approves the project servers `names` as the walk finds them now, after
 * showing what each runs. Returns an exit code; nothing is written
 * unless every name is found. */
static int approve_servers(cli *c, const char *const *names, size_t n,
                           choice_kind kind) {
  config *found = xcalloc(n ? n : 1, sizeof *found);
  edit_choice *items = xcalloc(n ? n : 1, sizeof *items);
  int rc = EXIT_OK;
  config_paths P;
  config_paths_init(&P, &c->sources);
  for (size_t i = 0; i < n; i++) {
    config_init(&found[i]);
    const server_config *s =
        config_load_project_server(&found[i], &c->sources, names[i]);
    if (!s) {
      for (size_t k = 0; k < found[i].nerrors; k++)
        fprintf(stderr, "mcphost: config error: %s\n",
                cli_esc(c, found[i].errors[k]));
      for (size_t k = 0; k < found[i].nwarnings; k++)
        fprintf(stderr, "mcphost: config warning: %s\n",
                cli_esc(c, found[i].warnings[k]));
      fprintf(stderr,
              "mcphost: no server named \"%s\" in this project's trusted "
              ".mcp.json files (%s",
              cli_esc(c, names[i]), cli_esc(c, P.project_files[0]));
      for (size_t k = 1; k < P.nproject_files; k++)
        fprintf(stderr, ", %s", cli_esc(c, P.project_files[k]));
      fprintf(stderr, ")\n");
      rc = EXIT_NOT_FOUND;
      continue;
    }
    items[i] = (edit_choice){.name = s->name,
                             .file = kind == CHOICE_APPROVE ? s->source : NULL,
                             .raw = kind == CHOICE_APPROVE ? s->raw : NULL,
                             .perms = s->file_perms};
  }
  char why[1024];
  if (rc == EXIT_OK && edit_project_choice(P.user_settings, P.project_key, kind,
                                           items, n, why, sizeof why) < 0)
    rc = write_failed(c, why);
  for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
    const server_config *s = config_find(&found[i], names[i]);
    if (kind == CHOICE_REJECT) {
      printf("Rejected project server %s for %s\n", cli_esc(c, names[i]),
             cli_esc(c, P.project_key));
      continue;
    }
    char *what = approval_summary(s->raw, s->file_perms, "\n  ");
    printf("Approved project server %s for %s, from %s:\n  %s\n",
           cli_esc(c, s->name), cli_esc(c, P.project_key),
           cli_esc(c, s->source), what);
    if (s->changes)
      printf("  changed since its last approval: %s\n", cli_esc(c, s->changes));
    free(what);
  }
  for (size_t i = 0; i < n; i++)
    config_free(&found[i]);
  free(found);
  free(items);
  config_paths_free(&P);
  return rc;
}

/* Checks and writes {NAME: entry} to the scope; a project server added
 * here is approved for this project at once: its author chose it. */
static int add_entry(cli *c, const char *name, cJSON *entry, config_scope scope,
                     const char *what) {
  if (!edit_valid_name(name)) {
    fprintf(stderr,
            "mcphost: invalid server name \"%s\": use letters, "
            "digits, '-' and '_'\n",
            name);
    return EXIT_USAGE;
  }
  char why[1024];
  char *type = NULL;
  if (!entry_valid(c, name, entry, &type, why, sizeof why)) {
    fprintf(stderr, "mcphost: %s; nothing written\n", cli_esc(c, why));
    free(type);
    return EXIT_USAGE;
  }
  config_paths P;
  config_paths_init(&P, &c->sources);
  edit_target t;
  edit_target_init(&t, scope, &P);
  cJSON *servers = cJSON_CreateObject();
  cJSON_AddItemToObject(servers, name, cJSON_Duplicate(entry, 1));
  int rc = EXIT_OK;
  int w = edit_add_servers(&t, servers, false, NULL, NULL, why, sizeof why);
  if (w < 0) {
    rc = write_failed(c, why);
  } else {
    char *where = edit_target_text(&t);
    printf("Added %s MCP server %s%s to %s\n", cli_esc(c, type),
           cli_esc(c, name), cli_esc(c, what), cli_esc(c, where));
    free(where);
    const char *names[] = {name};
    if (scope == SCOPE_PROJECT &&
        approve_servers(c, names, 1, CHOICE_APPROVE) != EXIT_OK)
      fprintf(stderr, "mcphost: warning: could not record the approval\n");
    cli_warn_skipped(c, names, 1);
  }
  cJSON_Delete(servers);
  edit_target_free(&t);
  config_paths_free(&P);
  free(type);
  return rc;
}

/* mcp add -t sdk NAME: {"type": "sdk"}, served by the program that
 * embeds mcphost under that name (docs/config.md); nothing else. */
static int add_inproc(cli *c, const char *name, int nmore,
                      const mcp_opts *o) {
  if (nmore > 0 || o->env || o->headers) {
    fprintf(stderr, "mcphost: an sdk server takes no command, URL, -e or "
                    "-H: the program that embeds mcphost serves it under "
                    "its name\n");
    return EXIT_USAGE;
  }
  cJSON *e = cJSON_CreateObject();
  cJSON_AddStringToObject(e, "type", "sdk");
  int rc = add_entry(c, name, e, o->scope_set ? o->scope : SCOPE_LOCAL,
                     " (in-process, served by the program that embeds "
                     "mcphost)");
  cJSON_Delete(e);
  return rc;
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
  const registry *reg = host_registry(c->h);
  if (!registry_find_type(reg, type)) {
    strbuf known;
    sb_init(&known);
    for (size_t i = 0; i < reg->ntypes; i++)
      sb_printf(&known, "%s%s", i ? ", " : "", reg->types[i].type);
    fprintf(stderr,
            "mcphost: no loaded plugin serves transport type \"%s\" "
            "(--transport takes %s; a plugin outside the built-in "
            "directory needs --plugin-dir)\n",
            cli_esc(c, type), sb_str(&known));
    sb_free(&known);
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
    strbuf line;
    sb_init(&line);
    for (int i = first + 1; i < argc; i++) {
      if (i > first + 1)
        cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
      approval_add_word(&line, argv[i]);
    }
    sb_printf(&what, " with command: %s", sb_str(&line));
    sb_free(&line);
    if (o.env) {
      cJSON_AddItemToObject(e, "env", o.env);
      o.env = NULL;
    }
  }
  rc =
      add_entry(c, name, e, o.scope_set ? o.scope : SCOPE_LOCAL, sb_str(&what));
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
  if (rc != EXIT_OK)
    goto out;
  char *why = NULL;
  cJSON *e = config_json_parse(argv[first + 1], strlen(argv[first + 1]), &why);
  if (!cJSON_IsObject(e)) {
    if (!why) {
      why = xasprintf("a JSON object is needed, not %s", config_json_kind(e));
    }
    fprintf(stderr, "mcphost: mcp add-json %s: the server entry: %s: %s\n",
            cli_esc(c, argv[first]), why, cli_esc(c, argv[first + 1]));
    free(why);
    cJSON_Delete(e);
    rc = EXIT_USAGE;
    goto out;
  }
  rc = add_entry(c, argv[first], e, o.scope_set ? o.scope : SCOPE_LOCAL, "");
  cJSON_Delete(e);
out:
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
  config_paths P;
  config_paths_init(&P, &c->sources);
  static const config_scope order[] = {SCOPE_LOCAL, SCOPE_PROJECT, SCOPE_USER};
  edit_target t[3];
  size_t found = 0, which = 0;
  for (size_t i = 0; i < 3; i++) {
    edit_target_init(&t[i], order[i], &P);
    bool considered = !o.scope_set || o.scope == order[i];
    if (considered && edit_has_server(&t[i], name)) {
      found++;
      which = i;
    }
  }
  char why[1024];
  if (found == 0) {
    cJSON *known = cJSON_CreateArray();
    for (size_t i = 0; i < 3; i++) {
      if (!o.scope_set || o.scope == order[i]) {
        edit_server_names(&t[i], known);
      }
    }
    strbuf hint;
    sb_init(&hint);
    mcp_suggest_array(&hint, name, known);
    fprintf(stderr, "mcphost: no MCP server named \"%s\" in the %s config%s\n",
            cli_esc(c, name),
            o.scope_set ? config_scope_name(o.scope) : "local, project or user",
            cli_esc(c, sb_str(&hint)));
    sb_free(&hint);
    cJSON_Delete(known);
    rc = EXIT_NOT_FOUND;
  } else if (found > 1) {
    fprintf(stderr,
            "mcphost: \"%s\" is defined in several scopes:", cli_esc(c, name));
    for (size_t i = 0; i < 3; i++)
      if (edit_has_server(&t[i], name))
        fprintf(stderr, " %s (%s)", config_scope_name(order[i]),
                cli_esc(c, t[i].file));
    fprintf(stderr, "; say which with -s SCOPE\n");
    rc = EXIT_USAGE;
  } else {
    int w = edit_remove_server(&t[which], name, why, sizeof why);
    if (w < 0) {
      rc = write_failed(c, why);
    } else if (w == 0) { /* gone between the look and the lock */
      fprintf(stderr, "mcphost: no MCP server named \"%s\" in %s\n",
              cli_esc(c, name), cli_esc(c, t[which].file));
      rc = EXIT_NOT_FOUND;
    } else {
      char *where = edit_target_text(&t[which]);
      printf("Removed MCP server %s from %s\n", cli_esc(c, name),
             cli_esc(c, where));
      free(where);
    }
  }
  for (size_t i = 0; i < 3; i++)
    edit_target_free(&t[i]);
  config_paths_free(&P);
  opts_free(&o);
  return rc;
}

static int mcp_choice(cli *c, int argc, char **argv, choice_kind kind) {
  if (kind == CHOICE_RESET ? argc != 1 : argc < 2) {
    fprintf(stderr, "mcphost: usage: mcphost mcp %s\n",
            kind == CHOICE_RESET ? "reset-project-choices"
                                 : "approve|reject NAME...");
    return EXIT_USAGE;
  }
  if (kind != CHOICE_RESET)
    return approve_servers(c, (const char *const *)argv + 1, (size_t)argc - 1,
                           kind);
  config_paths P;
  config_paths_init(&P, &c->sources);
  int rc = EXIT_OK;
  char why[1024];
  if (edit_project_choice(P.user_settings, P.project_key, kind, NULL, 0, why,
                          sizeof why) < 0)
    rc = write_failed(c, why);
  else
    printf("Project choices reset for %s: its .mcp.json servers are pending "
           "approval again\n",
           cli_esc(c, P.project_key));
  config_paths_free(&P);
  return rc;
}

static int mcp_approve(cli *c, int argc, char **argv) {
  return mcp_choice(c, argc, argv, CHOICE_APPROVE);
}

static int mcp_reject(cli *c, int argc, char **argv) {
  return mcp_choice(c, argc, argv, CHOICE_REJECT);
}

static int mcp_reset(cli *c, int argc, char **argv) {
  return mcp_choice(c, argc, argv, CHOICE_RESET);
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
