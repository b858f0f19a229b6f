/* The configuration scopes, table-driven: each case writes a small tree
 * (system dir, user settings, a project with .mcp.json at two depths),
 * loads it, and compares the resulting servers — name/scope/state in
 * priority order — and the messages. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "config/config.h"
#include "config/config_approval.h"
#include "config/config_scopes.h"
#include "config/permissions.h"
#include "util.h"

typedef struct tree {
  const char *managed_mcp;      /* SYS/managed-mcp.json */
  const char *managed_settings; /* SYS/managed-settings.json */
  const char *user;             /* CFG/settings.json; "@P" = project key */
  const char *project_root;     /* HOME/proj/.mcp.json */
  const char *project_cwd;      /* HOME/proj/sub/.mcp.json (the cwd) */
  const char *dynamic;          /* --mcp-config JSON text */
  const char *plugin;           /* a plugin "src"'s {"mcpServers": ...} */
  bool strict, approve;
  bool repo; /* HOME/proj is a repository (holds .git) */
  /* Instead of `user`: the settings text made from the project key and
   * the path of HOME/proj/sub/.mcp.json (new string). */
  char *(*user_fn)(const char *key, const char *cwd_file);
} tree;

typedef struct result {
  char *servers;  /* "name/scope/state ..." */
  char *messages; /* every error, warning, note and reason, one a line */
  config cfg;
} result;

static char root[PATH_MAX];

static void put(const char *rel, const char *text, const char *key) {
  if (!text)
    return;
  char *path = xasprintf("%s/%s", root, rel);
  strbuf b;
  sb_init(&b);
  for (const char *p = text; *p; p++) {
    if (p[0] == '@' && p[1] == 'P') {
      sb_adds(&b, key);
      p++;
    } else {
      sb_addc(&b, *p);
    }
  }
  FILE *f = fopen(path, "w");
  fputs(sb_str(&b), f);
  fclose(f);
  sb_free(&b);
  free(path);
}

static void rm_tree(void) {
  char *cmd = xasprintf("rm -rf '%s'", root);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", root);
  free(cmd);
}

static void plugin_sources(void *ud, config_plugin_add_fn add, void *add_ud) {
  const char *json = ud;
  if (json)
    add(add_ud, "src", json, strlen(json));
}

static result load(const tree *t) {
  snprintf(root, sizeof root, "/tmp/mcphost-scopes.XXXXXX");
  if (!mkdtemp(root))
    abort();
  static const char *const dirs[] = {"sys", "cfg", "home", "home/proj",
                                     "home/proj/sub"};
  for (size_t i = 0; i < 5; i++) {
    char *d = xasprintf("%s/%s", root, dirs[i]);
    mkdir(d, 0700);
    free(d);
  }
  if (t->repo) {
    char *d = xasprintf("%s/home/proj/.git", root);
    mkdir(d, 0700);
    free(d);
  }
  char *cwd = xasprintf("%s/home/proj/sub", root);
  char *key = realpath(cwd, NULL);
  put("sys/managed-mcp.json", t->managed_mcp, key);
  put("sys/managed-settings.json", t->managed_settings, key);
  put("cfg/settings.json", t->user, key);
  if (t->user_fn) {
    char *file = xasprintf("%s/.mcp.json", key);
    char *text = t->user_fn(key, file);
    put("cfg/settings.json", text, key);
    free(text);
    free(file);
  }
  put("home/proj/.mcp.json", t->project_root, key);
  put("home/proj/sub/.mcp.json", t->project_cwd, key);

  char *home = xasprintf("%s/home", root);
  char *user = xasprintf("%s/cfg/settings.json", root);
  char *sys = xasprintf("%s/sys", root);
  const char *dyn[] = {t->dynamic};
  config_sources o = {.cwd = cwd,
                      .home = home,
                      .user_settings = user,
                      .system_dir = sys,
                      .mcp_configs = dyn,
                      .nmcp_configs = t->dynamic ? 1 : 0,
                      .strict = t->strict,
                      .approve_project = t->approve,
                      .plugin_sources = t->plugin ? plugin_sources : NULL,
                      .plugin_ud = (void *)t->plugin};
  result r;
  config_init(&r.cfg);
  config_load_scopes(&r.cfg, &o);
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  for (size_t i = 0; i < r.cfg.nservers; i++) {
    const server_config *s = &r.cfg.servers[i];
    sb_printf(&b, "%s%s/%s/%s", i ? " " : "", s->name,
              config_scope_name(s->scope), server_state_name(s));
  }
  r.servers = sb_take(&b);
  sb_init(&b);
  sb_add(&b, "", 0);
  for (size_t i = 0; i < r.cfg.nerrors; i++)
    sb_printf(&b, "error: %s\n", r.cfg.errors[i]);
  for (size_t i = 0; i < r.cfg.nwarnings; i++)
    sb_printf(&b, "warning: %s\n", r.cfg.warnings[i]);
  for (size_t i = 0; i < r.cfg.nnotes; i++)
    sb_printf(&b, "note: %s\n", r.cfg.notes[i]);
  for (size_t i = 0; i < r.cfg.nservers; i++)
    if (r.cfg.servers[i].reason)
      sb_printf(&b, "reason: %s: %s\n", r.cfg.servers[i].name,
                r.cfg.servers[i].reason);
  r.messages = sb_take(&b);
  free(cwd);
  free(key);
  free(home);
  free(user);
  free(sys);
  return r;
}

static void result_free(result *r) {
  free(r->servers);
  free(r->messages);
  config_free(&r->cfg);
  rm_tree();
}

static const server_config *find(const result *r, const char *name) {
  return config_find(&r->cfg, name);
}

/* ---- the table ---- */

#define S(name, cmd) "\"" name "\": {\"command\": \"" cmd "\"}"
#define SERVERS(...) "{\"mcpServers\": {" __VA_ARGS__ "}}"

typedef struct scope_case {
  const char *name;
  tree t;
  const char *want;     /* the servers, as result.servers */
  const char *want_msg; /* a substring of the messages, or NULL */
  const char *unwanted; /* a substring the messages must not have */
} scope_case;

static const scope_case cases[] = {
    {"every scope contributes, in priority order",
     {.managed_settings = "{\"managedMcpServersExclusive\": false}",
      .managed_mcp = SERVERS(S("e", "/bin/e")),
      .user = "{\"mcpServers\": {" S(
          "u", "/bin/u") "}, \"projects\": {\"@P\": "
                         "{\"mcpServers\": {" S(
                             "l",
                             "/bin/l") "}, "
                                       "\"enabledMcpjsonServers\": [\"p\"]}}}",
      .project_cwd = SERVERS(S("p", "/bin/p")),
      .dynamic = SERVERS(S("d", "/bin/d")),
      .approve = true},
     "e/enterprise/active l/local/active p/project/approved u/user/active "
     "d/dynamic/active",
     NULL,
     NULL},
    {"a higher scope wins a name clash",
     {.user = "{\"mcpServers\": {" S(
          "x", "/bin/user") "}, \"projects\": "
                            "{\"@P\": {\"mcpServers\": {" S(
                                "x", "/bin/local") "}}}}",
      .dynamic = SERVERS(S("x", "/bin/dyn"))},
     "x/local/active",
     "the local-scope server of that name",
     NULL},
    {"the deeper .mcp.json wins a name clash",
     {.project_root = SERVERS(S("x", "/bin/root") "," S("r", "/bin/r")),
      .project_cwd = SERVERS(S("x", "/bin/cwd")),
      .approve = true,
      .repo = true},
     "x/project/approved r/project/approved",
     NULL,
     NULL},
    {"--approve-project outside a repository: the working directory's file "
     "only",
     {.project_root = SERVERS(S("r", "/bin/r")),
      .project_cwd = SERVERS(S("c", "/bin/c")),
      .approve = true},
     "c/project/approved r/project/pending",
     NULL,
     NULL},
    {"exclusive mode: managed-mcp.json alone",
     {.managed_mcp = SERVERS(S("e", "/bin/e")),
      .user = SERVERS(S("u", "/bin/u")),
      .project_cwd = SERVERS(S("p", "/bin/p")),
      .dynamic = SERVERS(S("d", "/bin/d"))},
     "e/enterprise/active",
     "enterprise exclusive mode",
     NULL},
    {"exclusive mode with an empty map: no servers at all",
     {.managed_mcp = "{\"mcpServers\": {}}", .user = SERVERS(S("u", "/bin/u"))},
     "",
     NULL,
     NULL},
    {"project servers are pending until approved",
     {.project_cwd = SERVERS(S("p", "/bin/p"))},
     "p/project/pending",
     NULL,
     NULL},
    {"rejections are remembered per project; a name alone approves nothing",
     {.user = "{\"projects\": {\"@P\": {\"enabledMcpjsonServers\": [\"a\"], "
              "\"disabledMcpjsonServers\": [\"r\"]}, \"/elsewhere\": "
              "{\"enabledMcpjsonServers\": [\"q\"]}}}",
      .project_cwd =
          SERVERS(S("a", "/bin/a") "," S("r", "/bin/r") "," S("q", "/bin/q"))},
     "a/project/pending r/project/rejected q/project/pending",
     NULL,
     NULL},
    {"rejected wins over approved",
     {.user = "{\"projects\": {\"@P\": {\"enabledMcpjsonServers\": [\"a\"], "
              "\"disabledMcpjsonServers\": [\"a\"]}}}",
      .project_cwd = SERVERS(S("a", "/bin/a"))},
     "a/project/rejected",
     NULL,
     NULL},
    {"--approve-project approves pending, never rejected",
     {.user = "{\"projects\": {\"@P\": {\"disabledMcpjsonServers\": [\"r\"]}}}",
      .project_cwd = SERVERS(S("p", "/bin/p") "," S("r", "/bin/r")),
      .approve = true},
     "p/project/approved r/project/rejected",
     NULL,
     NULL},
    {"enableAllProjectMcpServers alone, in a repository never approved in, "
     "approves nothing",
     {.user = "{\"enableAllProjectMcpServers\": true}",
      .project_cwd = SERVERS(S("p", "/bin/p"))},
     "p/project/pending",
     NULL,
     NULL},
    {"a pending project server does not hide a user server",
     {.user = SERVERS(S("x", "/bin/user")),
      .project_cwd = SERVERS(S("x", "/bin/project"))},
     "x/user/active",
     "the project server of that name",
     NULL},
    {"deny by name",
     {.managed_settings = "{\"deniedMcpServers\": [{\"serverName\": \"bad\"}]}",
      .user = SERVERS(S("bad", "/bin/b") "," S("good", "/bin/g"))},
     "bad/user/denied good/user/active",
     NULL,
     NULL},
    {"deny by name with a wildcard",
     {.managed_settings =
          "{\"deniedMcpServers\": [{\"serverName\": \"git*\"}]}",
      .user = SERVERS(S("github", "/bin/a") "," S("gitlab", "/bin/b") "," S(
          "other", "/bin/c"))},
     "github/user/denied gitlab/user/denied other/user/active",
     NULL,
     NULL},
    {"deny by exact command array",
     {.managed_settings = "{\"deniedMcpServers\": [{\"serverCommand\": "
                          "[\"npx\", \"-y\", \"evil\"]}]}",
      .user = "{\"mcpServers\": {\"a\": {\"command\": \"npx\", \"args\": "
              "[\"-y\", \"evil\"]}, \"b\": {\"command\": \"npx\", \"args\": "
              "[\"-y\", \"evil\", \"--x\"]}}}"},
     "a/user/denied b/user/active",
     NULL,
     NULL},
    {"deny by URL wildcard",
     {.managed_settings = "{\"deniedMcpServers\": [{\"serverUrl\": "
                          "\"https://*.evil.example/*\"}]}",
      .user = "{\"mcpServers\": {\"a\": {\"url\": "
              "\"https://mcp.evil.example/v1\"}, \"b\": {\"url\": "
              "\"https://good.example/mcp\"}}}"},
     "a/user/denied b/user/active",
     NULL,
     NULL},
    {"a denied URL hidden in a proxy URL is still denied",
     {.managed_settings = "{\"deniedMcpServers\": [{\"serverUrl\": "
                          "\"https://evil.example/*\"}]}",
      .user = "{\"mcpServers\": {\"a\": {\"url\": "
              "\"https://proxy.example/p?mcp_url=https%3A%2F%2Fevil.example%"
              "2Fmcp\"}}}"},
     "a/user/denied",
     NULL,
     NULL},
    {"deny wins over allow",
     {.managed_settings = "{\"allowedMcpServers\": [{\"serverName\": \"x\"}], "
                          "\"deniedMcpServers\": [{\"serverName\": \"x\"}]}",
      .user = SERVERS(S("x", "/bin/x"))},
     "x/user/denied",
     "denied by deniedMcpServers entry",
     NULL},
    {"no allow list: all allowed",
     {.managed_settings = "{}", .user = SERVERS(S("x", "/bin/x"))},
     "x/user/active",
     NULL,
     NULL},
    {"an empty allow list: none allowed",
     {.managed_settings = "{\"allowedMcpServers\": []}",
      .user = SERVERS(S("x", "/bin/x"))},
     "x/user/denied",
     NULL,
     NULL},
    {"an allow list admits only what it lists",
     {.managed_settings = "{\"allowedMcpServers\": [{\"serverName\": \"ok\"}, "
                          "{\"serverCommand\": [\"/bin/c\"]}, "
                          "{\"serverUrl\": \"https://ok.example/*\"}]}",
      .user =
          "{\"mcpServers\": {\"ok\": {\"command\": \"/bin/o\"}, \"c\": "
          "{\"command\": \"/bin/c\"}, \"u\": {\"url\": "
          "\"https://ok.example/mcp\"}, \"no\": {\"command\": \"/bin/n\"}}}"},
     "ok/user/active c/user/active u/user/active no/user/denied",
     NULL,
     NULL},
    {"allowManagedMcpServersOnly ignores the user's allow list",
     {.managed_settings = "{\"allowManagedMcpServersOnly\": true, "
                          "\"allowedMcpServers\": [\"a\"]}",
      .user = "{\"allowedMcpServers\": [\"b\"], \"mcpServers\": {" S(
          "a", "/bin/a") "," S("b", "/bin/b") "}}"},
     "a/user/active b/user/denied",
     NULL,
     NULL},
    {"disabledMcpServers skips a server",
     {.user = "{\"disabledMcpServers\": [\"off\"], \"mcpServers\": {" S(
          "off", "/bin/off") "," S("on", "/bin/on") "}}"},
     "off/user/disabled on/user/active",
     NULL,
     NULL},
    {"reserved names are refused",
     {.user = SERVERS(S("plugin:x:y", "/bin/p") "," S("fine", "/bin/f"))},
     "fine/user/active",
     "reserved for servers that plugins provide",
     NULL},
    {"servers configured by hand are never dropped for a duplicate",
     {.user = SERVERS(S("second", "/bin/same")),
      .dynamic = SERVERS(S("third", "/bin/same")),
      .managed_settings = "{\"managedMcpServersExclusive\": false}",
      .managed_mcp = SERVERS(S("first", "/bin/same"))},
     "first/enterprise/active second/user/active third/dynamic/active",
     NULL,
     "skipped"},
    {"a plugin's server with the command of one configured by hand is "
     "skipped, naming the winner",
     {.user = SERVERS(S("mine", "/bin/same")),
      .plugin = SERVERS(S("dup", "/bin/same") "," S("other", "/bin/o"))},
     "mine/user/active plugin:src:dup/plugin/skipped "
     "plugin:src:other/plugin/active",
     "MCP server \"plugin:src:dup\" skipped \xe2\x80\x94 same command/URL as "
     "already-configured \"mine\"",
     NULL},
    {"a plugin's server with the URL of one configured by hand is skipped",
     {.dynamic =
          "{\"mcpServers\": {\"a\": {\"url\": \"https://x.example/mcp\"}}}",
      .plugin = "{\"mcpServers\": {\"b\": {\"type\": \"sse\", \"url\": "
                "\"https://x.example/mcp\"}}}"},
     "a/dynamic/active plugin:src:b/plugin/skipped",
     "reason: plugin:src:b: same URL as already-configured \"a\"",
     NULL},
    {"the same command twice in one scope: both stay",
     {.user = SERVERS(S("a", "/bin/same") "," S("b", "/bin/same"))},
     "a/user/active b/user/active",
     NULL,
     "skipped"},
    {"a pending server is not a duplicate's winner",
     {.user = SERVERS(S("u", "/bin/same")),
      .project_cwd = SERVERS(S("p", "/bin/same"))},
     "p/project/pending u/user/active",
     NULL,
     "skipped"},
    {"--strict-mcp-config uses only the command line",
     {.user = SERVERS(S("u", "/bin/u")),
      .project_cwd = SERVERS(S("p", "/bin/p")),
      .dynamic = SERVERS(S("d", "/bin/d")),
      .strict = true},
     "d/dynamic/active",
     NULL,
     NULL},
    {"--strict-mcp-config still obeys the deny list",
     {.managed_settings = "{\"deniedMcpServers\": [\"d\"]}",
      .dynamic = SERVERS(S("d", "/bin/d")),
      .strict = true},
     "d/dynamic/denied",
     NULL,
     NULL},
    {"a broken enterprise policy fails closed",
     {.managed_settings = "{not json", .user = SERVERS(S("u", "/bin/u"))},
     "u/user/denied",
     "managed-settings.json: invalid JSON",
     NULL},
    {"a broken file costs only that file",
     {.user = "{\"mcpServers\": [1]}",
      .project_root = "{oops",
      .project_cwd = SERVERS(S("p", "/bin/p")),
      .dynamic = SERVERS(S("d", "/bin/d"))},
     "p/project/pending d/dynamic/active",
     "proj/.mcp.json: invalid JSON near line 1",
     NULL},
    {"a bad entry costs only that entry",
     {.user = "{\"mcpServers\": {\"bad\": {\"command\": 5}, \"notype\": "
              "{\"args\": []}, " S("ok", "/bin/ok") "}}"},
     "ok/user/active",
     "server \"bad\": \"command\" must be a non-empty string "
     "(at mcpServers.bad.command)",
     NULL},
};

TEST(test_scopes_table) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const scope_case *k = &cases[i];
    result r = load(&k->t);
    int before = check_failures;
    CHECK_STR(r.servers, k->want);
    if (k->want_msg)
      CHECK_CONTAINS(r.messages, k->want_msg);
    if (k->unwanted)
      CHECK(strstr(r.messages, k->unwanted) == NULL);
    if (check_failures != before)
      fprintf(stderr, "  in case \"%s\"; messages:\n%s", k->name, r.messages);
    printf("  %s %s\n", check_failures == before ? "ok  " : "FAIL", k->name);
    result_free(&r);
  }
}

/* ---- behaviours that need more than the table ---- */

TEST(test_denied_server_lists_the_reason_with_the_entry_and_file) {
  tree t = {.managed_settings =
                "{\"deniedMcpServers\": [{\"serverName\": \"x\"}]}",
            .user = SERVERS(S("x", "/bin/x"))};
  result r = load(&t);
  const server_config *s = find(&r, "x");
  CHECK(s && s->state == SERVER_DENIED);
  CHECK_CONTAINS(s ? s->reason : NULL,
                 "denied by deniedMcpServers entry {\"serverName\":\"x\"}");
  CHECK_CONTAINS(s ? s->reason : NULL,
                 "managed-settings.json: deniedMcpServers[0]");
  result_free(&r);
}

TEST(test_pending_reason_says_how_to_approve) {
  tree t = {.project_cwd = SERVERS(S("p", "/bin/p"))};
  result r = load(&t);
  const server_config *s = find(&r, "p");
  CHECK_CONTAINS(s ? s->reason : NULL, "mcphost mcp approve p");
  CHECK_CONTAINS(s ? s->reason : NULL, "--approve-project");
  result_free(&r);
}

TEST(test_variables_are_expanded_and_the_raw_entry_kept) {
  setenv("MCPHOST_TEST_DIR", "/opt/tools", 1);
  tree t = {.user = "{\"mcpServers\": {\"x\": {\"command\": "
                    "\"${MCPHOST_TEST_DIR}/srv\"}}}"};
  result r = load(&t);
  const server_config *s = find(&r, "x");
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(s->json, "command")),
            "/opt/tools/srv");
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(s->raw, "command")),
            "${MCPHOST_TEST_DIR}/srv");
  result_free(&r);
  unsetenv("MCPHOST_TEST_DIR");
}

TEST(test_duplicates_compare_expanded_commands) {
  setenv("MCPHOST_TEST_BIN", "/bin/same", 1);
  tree t = {.user = "{\"mcpServers\": {\"a\": {\"command\": \"/bin/same\"}}}",
            .plugin = "{\"mcpServers\": {\"b\": {\"command\": "
                      "\"${MCPHOST_TEST_BIN}\"}}}"};
  result r = load(&t);
  CHECK_STR(r.servers, "a/user/active plugin:src:b/plugin/skipped");
  const server_config *b = find(&r, "plugin:src:b");
  CHECK_STR(b ? b->winner : NULL, "a");
  result_free(&r);
  unsetenv("MCPHOST_TEST_BIN");
}

TEST(test_permission_rules_are_collected_from_every_scope) {
  tree t = {
      .managed_settings = "{\"permissions\": {\"deny\": [\"mcp__a__x\"]}}",
      .user = "{\"permissions\": {\"ask\": [\"mcp__b__*\"]}, \"projects\": "
              "{\"@P\": {\"permissions\": {\"allow\": [\"mcp__c\"]}}}}",
      .project_cwd =
          "{\"permissions\": {\"deny\": [\"mcp__d__y\", 7, \"Bash(ls)\"]}}"};
  result r = load(&t);
  CHECK(r.cfg.perms && r.cfg.perms->n == 4);
  CHECK_CONTAINS(r.messages, "a permission rule must be a non-empty string "
                             "(at permissions.deny[1])");
  CHECK_CONTAINS(r.messages, "\"Bash(ls)\" ignored: not an MCP tool");
  result_free(&r);
}

TEST(test_project_walk_stops_at_home) {
  config_sources o = {.cwd = "/tmp", .home = "/tmp"};
  config_paths p;
  config_paths_init(&p, &o);
  CHECK(p.nproject_files == 1);
  config_paths_free(&p);
  o = (config_sources){.cwd = "/usr/share", .home = "/nonexistent"};
  config_paths_init(&p, &o);
  CHECK(p.nproject_files == 3); /* /usr/share, /usr, / */
  CHECK_STR(p.project_files[2], "/.mcp.json");
  config_paths_free(&p);
}

TEST(test_project_walk_stops_at_the_repository_root) {
  char dir[] = "/tmp/mcphost-walk.XXXXXX";
  if (!mkdtemp(dir))
    abort();
  char *cwd = xasprintf("%s/repo/a/b", dir);
  char *cmd = xasprintf("mkdir -p '%s/repo/.git' '%s'", dir, cwd);
  CHECK(system(cmd) == 0);
  config_sources o = {.cwd = cwd, .home = "/nonexistent"};
  config_paths p;
  config_paths_init(&p, &o);
  CHECK(p.nproject_files == 3); /* repo/a/b, repo/a, repo */
  char *want = xasprintf("%s/repo", dir);
  char *real = realpath(want, NULL);
  CHECK_STR(p.repo_root, real);
  config_paths_free(&p);
  free(real);
  free(want);
  free(cmd);
  cmd = xasprintf("rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
  free(cmd);
  free(cwd);
}

TEST(test_project_walk_stops_at_the_file_system_boundary) {
  struct stat proc, top;
  if (stat("/proc", &proc) != 0 || stat("/", &top) != 0 ||
      proc.st_dev == top.st_dev) {
    printf("  skip: /proc is not a file system of its own here\n");
    return;
  }
  config_sources o = {.cwd = "/proc/sys", .home = "/nonexistent"};
  config_paths p;
  config_paths_init(&p, &o);
  CHECK(p.nproject_files == 2); /* /proc/sys, /proc: never / */
  CHECK_STR(p.project_files[p.nproject_files - 1], "/proc/.mcp.json");
  config_paths_free(&p);
}

/* Settings approving "p" of the working directory's .mcp.json as
 * `entry`. */
static char *approving(const char *key, const char *file, const char *entry) {
  cJSON *raw = cJSON_Parse(entry);
  cJSON *doc = cJSON_CreateObject();
  cJSON *project =
      cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "projects"), key);
  cJSON_AddItemToArray(cJSON_AddArrayToObject(project, "enabledMcpjsonServers"),
                       cJSON_CreateString("p"));
  cJSON_AddItemToObject(cJSON_AddObjectToObject(project, APPROVAL_KEY), "p",
                        approval_record(file, raw, NULL));
  char *text = cJSON_PrintUnformatted(doc);
  cJSON_Delete(doc);
  cJSON_Delete(raw);
  return text;
}
static char *approving_p(const char *key, const char *file) {
  return approving(key, file, "{\"command\": \"/bin/p\"}");
}
static char *approving_old(const char *key, const char *file) {
  return approving(key, file, "{\"command\": \"/bin/old\"}");
}

TEST(test_an_approval_holds_only_for_the_entry_it_was_given_to) {
  tree t = {.project_cwd = SERVERS(S("p", "/bin/p")), .user_fn = approving_p};
  result r = load(&t);
  const server_config *s = find(&r, "p");
  CHECK(s && s->state == SERVER_ACTIVE && !s->bind_approval);
  result_free(&r);
  t.user_fn = approving_old;
  r = load(&t);
  s = find(&r, "p");
  CHECK(s && s->state == SERVER_PENDING);
  CHECK_CONTAINS(s ? s->reason : NULL,
                 "changed since approval (command: /bin/old -> /bin/p)");
  result_free(&r);
  /* --approve-project still approves it for one command. */
  t.approve = true;
  r = load(&t);
  s = find(&r, "p");
  CHECK(s && s->state == SERVER_ACTIVE);
  result_free(&r);
}

TEST(test_approvals_without_a_record_are_pending_showing_what_they_run) {
  tree t = {.user = "{\"projects\": {\"@P\": {\"enabledMcpjsonServers\": "
                    "[\"p\"]}}}",
            .project_cwd = SERVERS(S("p", "/bin/p"))};
  result r = load(&t);
  const server_config *s = find(&r, "p");
  CHECK(s && s->state == SERVER_PENDING && !s->bind_approval);
  CHECK_CONTAINS(s ? s->reason : NULL, "was approved by name only");
  CHECK_CONTAINS(s ? s->reason : NULL, "it runs command: /bin/p");
  result_free(&r);
  t.user = "{\"enabledMcpjsonServers\": [\"p\"]}";
  r = load(&t);
  s = find(&r, "p");
  CHECK(s && s->state == SERVER_PENDING && !s->bind_approval);
  CHECK_CONTAINS(s ? s->reason : NULL,
                 "honoured only in a repository where \"mcphost mcp "
                 "approve\" was used");
  result_free(&r);
}

TEST(test_blanket_approvals_bind_where_the_repository_was_approved_in) {
  tree t = {.user = "{\"enabledMcpjsonServers\": [\"p\"], \"projects\": "
                    "{\"@P\": {\"" APPROVAL_KEY "\": {\"q\": {\"file\": "
                    "\"/x\", \"sha256\": \"00\"}}}}}",
            .project_cwd = SERVERS(S("p", "/bin/p"))};
  result r = load(&t);
  const server_config *s = find(&r, "p");
  CHECK(s && s->state == SERVER_ACTIVE && s->bind_approval);
  CHECK_CONTAINS(r.messages, "a name approved in every repository");
  CHECK_CONTAINS(r.messages, "approving it now as: command: /bin/p");
  result_free(&r);
}

RUN(T(test_scopes_table),
    T(test_denied_server_lists_the_reason_with_the_entry_and_file),
    T(test_pending_reason_says_how_to_approve),
    T(test_variables_are_expanded_and_the_raw_entry_kept),
    T(test_duplicates_compare_expanded_commands),
    T(test_permission_rules_are_collected_from_every_scope),
    T(test_project_walk_stops_at_home),
    T(test_project_walk_stops_at_the_repository_root),
    T(test_project_walk_stops_at_the_file_system_boundary),
    T(test_an_approval_holds_only_for_the_entry_it_was_given_to),
    T(test_approvals_without_a_record_are_pending_showing_what_they_run),
    T(test_blanket_approvals_bind_where_the_repository_was_approved_in))
