/* mcphost mcp import CLIENT: copies servers from another client's files
 * into mcphost's scopes. Cursor, Windsurf, VS Code and Codex are read by
 * import_clients.c into the mcpServers shape; from there every client
 * goes the one way below (checks, "already there", the locked edit).
 *
 *   claude-desktop  claude_desktop_config.json: $XDG_CONFIG_HOME/Claude/ (or
 *                   ~/.config/Claude/), else ~/Library/Application
 *                   Support/Claude/; its mcpServers go to --scope (local)
 *   claude-code     ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json): the
 *                   user servers (mcpServers) go to the user scope, this
 *                   project's (projects["DIR"].mcpServers) to the local scope,
 *                   and this project's approvals of .mcp.json servers come
 *                   along; --scope puts every server in that one scope
 *
 * --from FILE reads another file of the same shape. An entry already
 * there with the same content, under its name or as an earlier renamed
 * copy (NAME_1, NAME_2, ...), is skipped as "already there"; a different
 * one with the same name is imported as NAME_1 (as Claude Code does). .mcp.json
 * files need no import: mcphost reads them where they are. Claude Code
 * expands ${VAR} as mcphost does; Claude Desktop expands none, so its
 * "${" are quoted (import_keep_text). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/import_clients.h"
#include "cli/mcp_edit.h"
#include "util.h"

static char *desktop_config_path(void) {
  const char *xdg = getenv("XDG_CONFIG_HOME");
  char *home = user_home();
  char *linux_path =
      xdg && xdg[0] == '/'
          ? xasprintf("%s/Claude/claude_desktop_config.json", xdg)
          : xasprintf("%s/.config/Claude/claude_desktop_config.json",
                      home ? home : "");
  if (access(linux_path, F_OK) == 0) {
    free(home);
    return linux_path;
  }
  char *mac = xasprintf("%s/Library/Application Support/Claude/"
                        "claude_desktop_config.json",
                        home ? home : "");
  free(home);
  if (access(mac, F_OK) == 0) {
    free(linux_path);
    return mac;
  }
  free(mac);
  return linux_path; /* for the "not found" message */
}

static char *claude_code_path(void) {
  const char *dir = getenv("CLAUDE_CONFIG_DIR");
  if (dir && *dir)
    return xasprintf("%s/.claude.json", dir);
  char *home = user_home();
  char *path = xasprintf("%s/.claude.json", home ? home : "");
  free(home);
  return path;
}

/* Keeps the entries that pass the shared checks; reports the others. */
static cJSON *valid_servers(cli *c, const cJSON *servers, const char *src,
                            const char *where) {
  cJSON *out = cJSON_CreateObject();
  if (!cJSON_IsObject(servers))
    return out;
  config tmp;
  config_init(&tmp);
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    char *path = config_path_join(where, e->string);
    if (!edit_valid_name(e->string))
      fprintf(stderr,
              "mcphost: %s: server \"%s\" skipped: the name has "
              "characters other than letters, digits, '-' and '_' "
              "(at %s)\n",
              cli_esc(c, src), cli_esc(c, e->string), cli_esc(c, path));
    else if (config_check_entry(&tmp, src, path, e->string, e))
      cJSON_AddItemToObject(out, e->string, cJSON_Duplicate(e, 1));
    free(path);
  }
  for (size_t i = 0; i < tmp.nerrors; i++)
    fprintf(stderr, "mcphost: skipped: %s\n", cli_esc(c, tmp.errors[i]));
  config_free(&tmp);
  return out;
}

static void print_list(const char *label, const cJSON *names) {
  if (cJSON_GetArraySize(names) == 0)
    return;
  printf("  %s:", label);
  const cJSON *n;
  cJSON_ArrayForEach(n, names) printf(" %s", n->valuestring);
  printf("\n");
}

/* An entry without what only restates a default: "type": "stdio" beside
 * a command, empty "args" and "env". New item. */
static cJSON *entry_content(const cJSON *e) {
  cJSON *d = cJSON_Duplicate(e, 1);
  const char *type =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "type"));
  if (type && strcmp(type, "stdio") == 0 &&
      cJSON_GetObjectItemCaseSensitive(d, "command"))
    cJSON_DeleteItemFromObjectCaseSensitive(d, "type");
  static const char *const empty[] = {"args", "env"};
  for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(d, empty[i]);
    if (v && (cJSON_IsArray(v) || cJSON_IsObject(v)) &&
        cJSON_GetArraySize(v) == 0)
      cJSON_DeleteItemFromObjectCaseSensitive(d, empty[i]);
  }
  return d;
}

/* The servers object of the target's file as it is now (a new document
 * in *doc), or NULL when there is none yet. */
static const cJSON *target_servers(const edit_target *t, cJSON **doc) {
  config tmp;
  config_init(&tmp);
  *doc = config_read_json(&tmp, t->file, false);
  config_free(&tmp);
  const cJSON *base = *doc;
  if (t->record)
    base = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(base, "projects"), t->record);
  return cJSON_GetObjectItemCaseSensitive(base, "mcpServers");
}

/* The name under which `have` already holds an entry with the content of
 * `e`: e->string, or a renamed copy of it (NAME_1, NAME_2, ...); NULL. */
static const char *already_there(const cJSON *have, const cJSON *e) {
  cJSON *want = entry_content(e);
  const char *found = NULL;
  char *name = xstrdup(e->string);
  for (int n = 1; !found; n++) {
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(have, name);
    if (!h)
      break;
    cJSON *hc = entry_content(h);
    if (cJSON_Compare(hc, want, 1))
      found = h->string;
    cJSON_Delete(hc);
    free(name);
    name = xasprintf("%s_%d", e->string, n);
  }
  free(name);
  cJSON_Delete(want);
  return found;
}

/* Writes `servers` to `scope`; returns an exit code. */
static int import_into(cli *c, const config_paths *P, config_scope scope,
                       const cJSON *servers, const char *from) {
  if (cJSON_GetArraySize(servers) == 0)
    return EXIT_OK;
  edit_target t;
  edit_target_init(&t, scope, P);
  cJSON *added = cJSON_CreateArray(), *skipped = cJSON_CreateArray();
  /* What is there already is left out before the locked edit, which only
   * knows entries equal as written under the same name. */
  cJSON *doc = NULL, *fresh = cJSON_CreateObject();
  const cJSON *have = target_servers(&t, &doc);
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    const char *as = already_there(have, e);
    if (as)
      cJSON_AddItemToArray(skipped, cJSON_CreateString(as));
    else
      cJSON_AddItemToObject(fresh, e->string, cJSON_Duplicate(e, 1));
  }
  cJSON_Delete(doc);
  char why[1024];
  int rc = EXIT_OK;
  if (edit_add_servers(&t, fresh, true, added, skipped, why, sizeof why) < 0) {
    fprintf(stderr, "mcphost: %s\n", cli_esc(c, why));
    rc = EXIT_SERVER;
  } else {
    char *where = edit_target_text(&t);
    printf("From %s into %s:\n", cli_esc(c, from), cli_esc(c, where));
    print_list("imported", added);
    print_list("already there", skipped);
    free(where);
    size_t n = 0;
    const char **names =
        xcalloc((size_t)cJSON_GetArraySize(added) + 1, sizeof *names);
    const cJSON *it;
    cJSON_ArrayForEach(it, added) names[n++] = it->valuestring;
    cli_warn_skipped(c, names, n);
    free(names);
  }
  cJSON_Delete(fresh);
  cJSON_Delete(added);
  cJSON_Delete(skipped);
  edit_target_free(&t);
  return rc;
}

/* Carries a Claude Code project's .mcp.json choices over. */
static int import_choices(cli *c, const config_paths *P, const cJSON *record,
                          const char *key, choice_kind kind) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(record, key);
  size_t n = 0;
  /* Names alone: Claude Code keeps no record of what it approved. A
   * name mcphost approved before keeps its record; any other is pending
   * until "mcphost mcp approve NAME" shows what it runs. */
  edit_choice *names =
      xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof *names);
  const cJSON *it;
  cJSON_ArrayForEach(it, list) if (cJSON_IsString(it)) names[n++] =
      (edit_choice){.name = it->valuestring};
  int rc = EXIT_OK;
  char why[1024];
  if (n && edit_project_choice(P->user_settings, P->project_key, kind, names, n,
                               why, sizeof why) < 0) {
    fprintf(stderr, "mcphost: %s\n", cli_esc(c, why));
    rc = EXIT_SERVER;
  } else if (n) {
    printf("Project choices for %s: %zu %s\n", cli_esc(c, P->project_key), n,
           kind == CHOICE_APPROVE ? "approved" : "rejected");
  }
  free(names);
  return rc;
}

static void print_notes(cli *c, const cJSON *notes) {
  const cJSON *it;
  cJSON_ArrayForEach(it, notes) {
    printf("  note: %s\n", cli_esc(c, it->valuestring));
  }
}

static const char import_usage[] =
    "mcphost: usage: mcphost mcp import cursor|vscode|windsurf|codex|"
    "claude-desktop|claude-code [-s local|user|project] [--from FILE]\n";

/* Cursor, Windsurf, VS Code, Codex (import_clients.h): into `scope`. */
static int import_other(cli *c, const char *client, const char *from,
                        config_scope scope) {
  char *path = from ? xstrdup(from) : import_client_path(client);
  import_source src;
  char *why = NULL;
  if (import_client_read(client, path, &src, &why) != 0) {
    fprintf(stderr, "mcphost: cannot import: %s\n", cli_esc(c, why));
    free(why);
    free(path);
    return EXIT_NOT_FOUND;
  }
  const char *key = strcmp(client, "vscode") == 0  ? "servers"
                    : strcmp(client, "codex") == 0 ? "mcp_servers"
                                                   : "mcpServers";
  cJSON *ok = valid_servers(c, src.servers, path, key);
  config_paths P;
  config_paths_init(&P, &c->sources);
  int rc = import_into(c, &P, scope, ok, path);
  if (cJSON_GetArraySize(ok) == 0) {
    printf("No servers to import from %s\n", cli_esc(c, path));
  }
  const cJSON *it;
  cJSON_ArrayForEach(it, src.skipped) {
    printf("  skipped %s: %s\n",
           cli_esc(c, cJSON_GetStringValue(
                          cJSON_GetObjectItemCaseSensitive(it, "name"))),
           cli_esc(c, cJSON_GetStringValue(
                          cJSON_GetObjectItemCaseSensitive(it, "why"))));
  }
  print_notes(c, src.notes);
  config_paths_free(&P);
  cJSON_Delete(ok);
  import_source_free(&src);
  free(path);
  return rc;
}

int cmd_mcp_import(cli *c, int argc, char **argv) {
  static const struct option longopts[] = {
      {"scope", required_argument, NULL, 's'},
      {"from", required_argument, NULL, 'f'},
      {NULL, 0, NULL, 0}};
  config_scope scope = SCOPE_LOCAL;
  bool scope_set = false;
  const char *from = NULL;
  optind = 0;
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, "s:f:", longopts, NULL)) != -1) {
    if (opt == 's' && edit_parse_scope(optarg, &scope)) {
      scope_set = true;
    } else if (opt == 'f') {
      from = optarg;
    } else {
      fputs(import_usage, stderr);
      return EXIT_USAGE;
    }
  }
  if (argc - optind != 1 ||
      (strcmp(argv[optind], "claude-desktop") != 0 &&
       strcmp(argv[optind], "claude-code") != 0 &&
       !import_client_known(argv[optind]))) {
    fputs(import_usage, stderr);
    return EXIT_USAGE;
  }
  if (import_client_known(argv[optind])) {
    return import_other(c, argv[optind], from, scope);
  }
  bool desktop = strcmp(argv[optind], "claude-desktop") == 0;
  char *path = from      ? xstrdup(from)
               : desktop ? desktop_config_path()
                         : claude_code_path();
  config tmp;
  config_init(&tmp);
  cJSON *doc = config_read_json(&tmp, path, true);
  if (!doc) {
    fprintf(stderr, "mcphost: cannot import: %s\n",
            cli_esc(c, tmp.nerrors ? tmp.errors[0] : path));
    config_free(&tmp);
    free(path);
    return EXIT_NOT_FOUND;
  }
  config_free(&tmp);
  config_paths P;
  config_paths_init(&P, &c->sources);
  int rc = EXIT_OK;
  cJSON *notes = cJSON_CreateArray();
  cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
  if (desktop && cJSON_IsObject(servers)) {
    /* Claude Desktop expands no ${VAR}: mcp-remote's documented
     * "--header Authorization:${AUTH_HEADER}" reaches mcp-remote as
     * written, which reads AUTH_HEADER from the entry's env. */
    cJSON *e;
    cJSON_ArrayForEach(e, servers) {
      if (cJSON_IsObject(e)) {
        import_keep_text(notes, "Claude Desktop", e->string, e);
      }
    }
  }
  cJSON *user = valid_servers(c, servers, path, "mcpServers");
  if (desktop) {
    rc = import_into(c, &P, scope, user, path);
    print_notes(c, notes);
  } else {
    /* Claude Code keeps per-project records under the project's path,
     * like mcphost's own settings file. */
    const cJSON *record = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "projects"), P.project_key);
    char *where = config_path_join("projects", P.project_key);
    char *rwhere = config_path_join(where, "mcpServers");
    cJSON *local =
        valid_servers(c, cJSON_GetObjectItemCaseSensitive(record, "mcpServers"),
                      path, rwhere);
    rc = import_into(c, &P, scope_set ? scope : SCOPE_USER, user, path);
    int rc2 = import_into(c, &P, scope_set ? scope : SCOPE_LOCAL, local, path);
    rc = rc != EXIT_OK ? rc : rc2;
    if (rc == EXIT_OK)
      rc = import_choices(c, &P, record, "enabledMcpjsonServers",
                          CHOICE_APPROVE);
    if (rc == EXIT_OK)
      rc = import_choices(c, &P, record, "disabledMcpjsonServers",
                          CHOICE_REJECT);
    if (cJSON_GetArraySize(user) + cJSON_GetArraySize(local) == 0)
      printf("No servers to import from %s\n", cli_esc(c, path));
    cJSON_Delete(local);
    free(where);
    free(rwhere);
  }
  if (desktop && cJSON_GetArraySize(user) == 0)
    printf("No servers to import from %s\n", cli_esc(c, path));
  cJSON_Delete(user);
  cJSON_Delete(notes);
  cJSON_Delete(doc);
  config_paths_free(&P);
  free(path);
  return rc;
}
