/* The client API's configuration files (sdk/include/mcphost/client.h,
 * "configuration files") through libmcphost.so.1, as an embedding program
 * uses them: this file includes nothing but the public header (and libc).
 * Every file lives in a directory of its own: HOME, XDG_CONFIG_HOME and
 * the working directory (the project) point there.
 *
 * usage: test_client_config */
#include <mcphost/client.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static char root[256], proj[300], settings[300], cursor[300];

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  static char buf[65536];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void spit(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* The settings file starts empty in each test. */
static void fresh(void) {
  unlink(settings);
  char mcp[400];
  snprintf(mcp, sizeof mcp, "%s/.mcp.json", proj);
  unlink(mcp);
}

TEST(add_writes_the_entry_and_says_where) {
  fresh();
  char *res = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_config_add(NULL, "user", "demo",
                              "{\"command\": \"demo-server\", \"args\": "
                              "[\"--x\"], \"timeout\": 12345678901234567890}",
                              0, &res, &err);
  CHECK(rc == MCPHOST_OK);
  CHECK_STR(err.message, "");
  CHECK(res != NULL);
  CHECK_CONTAINS(res, "\"type\":\"stdio\"");
  CHECK_CONTAINS(res, "\"scope\":\"user\"");
  CHECK_CONTAINS(res, settings);
  CHECK_CONTAINS(res, "\"where\":\"user config (");
  mcphost_free(res);
  /* The number as written: byte-exact. */
  CHECK_CONTAINS(slurp(settings), "\"timeout\": 12345678901234567890");
  CHECK_CONTAINS(slurp(settings), "\"demo-server\"");
  /* The same entry again: nothing to do; another one: refused. */
  CHECK(mcphost_config_add(NULL, "user", "demo",
                           "{\"command\": \"demo-server\", \"args\": "
                           "[\"--x\"], \"timeout\": 12345678901234567890}",
                           0, NULL, &err) == MCPHOST_OK);
  rc = mcphost_config_add(NULL, "user", "demo", "{\"command\": \"other\"}", 0,
                          &res, &err);
  CHECK(rc == MCPHOST_EUSAGE);
  CHECK(res == NULL);
  CHECK_CONTAINS(err.message, "server \"demo\" already exists in");
  CHECK_CONTAINS(err.message, settings);
  CHECK_CONTAINS(slurp(settings), "demo-server");
}

TEST(check_only_writes_nothing) {
  fresh();
  mcphost_error err = MCPHOST_ERROR_INIT;
  char *res = NULL;
  CHECK(mcphost_config_add(NULL, "local", "u", "{\"url\": \"https://x.test/\"}",
                           MCPHOST_CONFIG_CHECK_ONLY, &res,
                           &err) == MCPHOST_OK);
  CHECK_CONTAINS(res, "\"type\":\"http\"");
  CHECK_CONTAINS(res, "private to");
  mcphost_free(res);
  CHECK(slurp(settings) == NULL);
  CHECK(mcphost_config_add(NULL, "local", "u", "{}", 0x80, NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "flags 0x80");
}

TEST(bad_input_is_refused_naming_what) {
  fresh();
  mcphost_error err = MCPHOST_ERROR_INIT;
  char *res = (char *)1;
  /* Not JSON: where. */
  CHECK(mcphost_config_add(NULL, "user", "a", "{\"command\": ", 0, &res,
                           &err) == MCPHOST_EUSAGE);
  CHECK(res == NULL);
  CHECK_CONTAINS(err.message, "the server entry: invalid JSON");
  CHECK_CONTAINS(err.message, "line 1");
  /* JSON, not an object. */
  CHECK(mcphost_config_add(NULL, "user", "a", "[1]", 0, NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "a JSON object is needed, not an array");
  /* A field of the wrong kind: the server and the field. */
  CHECK(mcphost_config_add(NULL, "user", "a", "{\"command\": 5}", 0, NULL,
                           &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "server \"a\"");
  CHECK_CONTAINS(err.message, "command");
  CHECK_CONTAINS(err.message, "nothing written");
  CHECK_STR(err.server, "a");
  /* A name mcphost would not accept. */
  CHECK(mcphost_config_add(NULL, "user", "a b", "{\"command\": \"x\"}", 0, NULL,
                           &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "invalid server name \"a b\"");
  /* An unknown scope, in every function that takes one. */
  CHECK(mcphost_config_add(NULL, "global", "a", "{\"command\": \"x\"}", 0, NULL,
                           &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "unknown configuration scope \"global\"");
  CHECK(mcphost_config_remove(NULL, "enterprise", "a", NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "\"enterprise\"");
  CHECK(mcphost_config_entries(NULL, "", NULL, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_config_import(NULL, NULL, "{}", NULL, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_project_choice(NULL, "allow", "[\"a\"]", 0, NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "unknown project choice \"allow\"");
  CHECK(mcphost_project_choice(NULL, "approve", "[1]", 0, NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "array of strings");
  CHECK(mcphost_import_read(NULL, "netscape", NULL, NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "\"netscape\"");
  /* Nothing was written by any of them. */
  CHECK(slurp(settings) == NULL);
}

TEST(a_file_that_cannot_be_changed_is_named) {
  fresh();
  mcphost_error err = MCPHOST_ERROR_INIT;
  /* Not JSON: never rewritten. */
  spit(settings, "{\"mcpServers\": ");
  CHECK(mcphost_config_add(NULL, "user", "a", "{\"command\": \"x\"}", 0, NULL,
                           &err) == MCPHOST_ESERVER);
  CHECK_CONTAINS(err.message, settings);
  CHECK_STR(slurp(settings), "{\"mcpServers\": ");
  /* "mcpServers" of another kind: kept, and said. */
  spit(settings, "{\"mcpServers\": [1]}");
  CHECK(mcphost_config_add(NULL, "user", "a", "{\"command\": \"x\"}", 0, NULL,
                           &err) == MCPHOST_ESERVER);
  CHECK_CONTAINS(err.message, "\"mcpServers\" is not an object");
  CHECK_CONTAINS(err.message, settings);
  /* A directory that cannot be made (a file in the way: root too). */
  char blocker[400], old[300];
  snprintf(blocker, sizeof blocker, "%s/blocker", root);
  spit(blocker, "");
  snprintf(old, sizeof old, "%s", getenv("XDG_CONFIG_HOME"));
  setenv("XDG_CONFIG_HOME", blocker, 1);
  CHECK(mcphost_config_add(NULL, "user", "a", "{\"command\": \"x\"}", 0, NULL,
                           &err) == MCPHOST_ESERVER);
  CHECK_CONTAINS(err.message, "blocker: not a directory");
  setenv("XDG_CONFIG_HOME", old, 1);
  unlink(settings);
}

TEST(entries_and_remove) {
  fresh();
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_config_add(NULL, "local", "one", "{\"command\": \"a\"}", 0,
                           NULL, &err) == MCPHOST_OK);
  CHECK(mcphost_config_add(NULL, "user", "two", "{\"command\": \"b\"}", 0, NULL,
                           &err) == MCPHOST_OK);
  CHECK(mcphost_config_add(NULL, "project", "three", "{\"command\": \"c\"}", 0,
                           NULL, &err) == MCPHOST_OK);
  char mcp[400];
  snprintf(mcp, sizeof mcp, "%s/.mcp.json", proj);
  struct stat st;
  CHECK(stat(mcp, &st) == 0 && (st.st_mode & 0777) == 0644);
  char *res = NULL;
  CHECK(mcphost_config_entries(NULL, NULL, &res, &err) == MCPHOST_OK);
  /* Local, project, user, each with its file and entry. */
  const char *one = strstr(res, "\"name\":\"one\"");
  const char *three = strstr(res, "\"name\":\"three\"");
  const char *two = strstr(res, "\"name\":\"two\"");
  CHECK(one && three && two && one < three && three < two);
  CHECK_CONTAINS(res, "\"entry\":{\"command\":\"c\"}");
  CHECK_CONTAINS(res, mcp);
  mcphost_free(res);
  CHECK(mcphost_config_entries(NULL, "user", &res, &err) == MCPHOST_OK);
  CHECK(strstr(res, "\"one\"") == NULL);
  CHECK_CONTAINS(res, "\"two\"");
  mcphost_free(res);
  CHECK(mcphost_config_remove(NULL, "local", "one", &res, &err) == MCPHOST_OK);
  CHECK_CONTAINS(res, "\"scope\":\"local\"");
  mcphost_free(res);
  CHECK(mcphost_config_remove(NULL, "local", "one", &res, &err) ==
        MCPHOST_ENOTFOUND);
  CHECK(res == NULL);
  CHECK_CONTAINS(err.message, "no MCP server named \"one\" in");
  CHECK_CONTAINS(err.message, settings);
  CHECK(strstr(slurp(settings), "\"one\"") == NULL);
  CHECK_CONTAINS(slurp(settings), "\"two\"");
}

TEST(project_choices) {
  fresh();
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_config_add(NULL, "project", "p", "{\"command\": \"run-p\"}", 0,
                           NULL, &err) == MCPHOST_OK);
  char *res = NULL;
  /* One name unknown: nothing written, the report says which. */
  CHECK(mcphost_project_choice(NULL, "approve", "[\"p\", \"nope\"]", 0, &res,
                               &err) == MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, "\"nope\"");
  CHECK_CONTAINS(res, "\"name\":\"nope\",\"found\":false");
  CHECK_CONTAINS(res, "\"searched\":[");
  mcphost_free(res);
  CHECK(slurp(settings) == NULL);
  CHECK(mcphost_project_choice(NULL, "approve", "[\"p\"]", 0, &res, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(res, "\"found\":true");
  CHECK_CONTAINS(res, "\"summary\":\"");
  CHECK_CONTAINS(res, "run-p");
  mcphost_free(res);
  CHECK_CONTAINS(slurp(settings), "\"enabledMcpjsonServers\"");
  CHECK_CONTAINS(slurp(settings), "\"approvedMcpjsonEntries\"");
  CHECK(mcphost_project_choice(NULL, "reject", "[\"p\"]", 0, NULL, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(slurp(settings), "\"enabledMcpjsonServers\": [],");
  CHECK_CONTAINS(slurp(settings), "\"disabledMcpjsonServers\": [\n");
  CHECK(strstr(slurp(settings), "approvedMcpjsonEntries") == NULL);
  /* By name: found or not, no record. */
  CHECK(mcphost_project_choice(NULL, "approve", "[\"elsewhere\"]",
                               MCPHOST_CHOICE_BY_NAME, NULL,
                               &err) == MCPHOST_OK);
  CHECK_CONTAINS(slurp(settings), "\"elsewhere\"");
  CHECK(mcphost_project_choice(NULL, "reset", NULL, 0, &res, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(res, "\"project\":\"");
  mcphost_free(res);
  CHECK(strstr(slurp(settings), "enabledMcpjsonServers") == NULL);
  CHECK(strstr(slurp(settings), "disabledMcpjsonServers") == NULL);
}

TEST(import_from_another_client) {
  fresh();
  spit(cursor,
       "{\"mcpServers\": {\"c1\": {\"command\": \"cur\"}, "
       "\"bad name\": {\"command\": \"x\"}, \"c2\": {\"command\": 7}}}");
  mcphost_error err = MCPHOST_ERROR_INIT;
  char *res = NULL;
  CHECK(mcphost_import_read(NULL, "cursor", cursor, &res, &err) == MCPHOST_OK);
  CHECK_CONTAINS(res, "\"servers\":{\"c1\":{\"command\":\"cur\"}}");
  CHECK_CONTAINS(res, "server \\\"bad name\\\" skipped");
  CHECK_CONTAINS(res, "c2");
  mcphost_free(res);
  const char *servers = "{\"c1\": {\"command\": \"cur\"}}";
  CHECK(mcphost_config_import(NULL, "user", servers, &res, &err) == MCPHOST_OK);
  CHECK_CONTAINS(res, "\"added\":[\"c1\"],\"skipped\":[]");
  mcphost_free(res);
  /* Again: already there; another entry of that name: renamed. */
  CHECK(mcphost_config_import(NULL, "user", servers, &res, &err) == MCPHOST_OK);
  CHECK_CONTAINS(res, "\"added\":[],\"skipped\":[\"c1\"]");
  mcphost_free(res);
  CHECK(mcphost_config_import(NULL, "user", "{\"c1\": {\"command\": \"new\"}}",
                              &res, &err) == MCPHOST_OK);
  CHECK_CONTAINS(res, "\"added\":[\"c1_1\"]");
  mcphost_free(res);
  /* A bad entry: nothing written. */
  CHECK(mcphost_config_import(NULL, "user", "{\"z\": {\"command\": []}}", NULL,
                              &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "server \"z\"");
  CHECK(strstr(slurp(settings), "\"z\"") == NULL);
  /* A file that is not there. */
  char gone[400];
  snprintf(gone, sizeof gone, "%s/gone.json", root);
  CHECK(mcphost_import_read(NULL, "cursor", gone, NULL, &err) ==
        MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, gone);
}

/* A client in the caller's loop mode with the servers of `config`
 * alone (NULL: none). */
static mcphost_client *strict_client(const char *config) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {config};
  o.configs = configs;
  o.nconfigs = config ? 1 : 0;
  o.strict = 1;
  o.loop_mode = MCPHOST_LOOP_CALLER;
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_client_new(&o, &c, &err) == MCPHOST_OK);
  return c;
}

TEST(a_client_checks_the_type_with_its_plugins) {
  fresh();
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_client *c = strict_client(NULL);
  if (!c)
    return;
  char *res = NULL;
  CHECK(mcphost_config_types(c, &res, &err) == MCPHOST_OK);
  CHECK_CONTAINS(res, "\"stdio\"");
  mcphost_free(res);
  CHECK(mcphost_config_types(NULL, &res, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_config_add(c, "user", "t", "{\"type\": \"nosuch\"}", 0, NULL,
                           &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "no loaded plugin serves transport type "
                              "\"nosuch\"");
  /* The transport's own check: a URL it refuses. */
  CHECK(mcphost_config_add(c, "user", "t",
                           "{\"type\": \"http\", \"url\": \"nope\"}", 0, NULL,
                           &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "server \"t\"");
  CHECK(slurp(settings) == NULL);
  CHECK(mcphost_config_add(c, "user", "t", "{\"command\": \"x\"}", 0, NULL,
                           &err) == MCPHOST_OK);
  CHECK_CONTAINS(slurp(settings), "\"t\"");
  mcphost_client_free(c);
}

TEST(the_loaded_servers_with_scope_and_state) {
  fresh();
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_client *c = strict_client(
      "{\"mcpServers\": {\"s\": {\"command\": \"run s\", \"args\": "
      "[\"a b\"], \"env\": {\"TOKEN\": \"secret-value\"}}, \"r\": "
      "{\"type\": \"http\", \"url\": "
      "\"https://u:pw@x.test/mcp?key=k\"}}}");
  if (!c)
    return;
  char *res = NULL;
  CHECK(mcphost_config_servers(c, &res, &err) == MCPHOST_OK);
  CHECK_CONTAINS(res, "{\"name\":\"s\",\"scope\":\"dynamic\"");
  CHECK_CONTAINS(res, "\"env\":[\"TOKEN\"]");
  CHECK(strstr(res, "secret-value") == NULL);
  CHECK_CONTAINS(res, "\"state\":\"active\"");
  CHECK_CONTAINS(res, "\"target\":\"'run s' 'a b'\"");
  /* The URL for a person: no password, no query. */
  CHECK_CONTAINS(res,
                 "\"shown\":{\"target\":\"https://x.test/mcp?\xe2\x80\xa6\"");
  mcphost_free(res);
  CHECK(mcphost_config_servers(NULL, &res, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "needs a client");
  mcphost_client_free(c);
}

static const test_case tests[] = {
    T(add_writes_the_entry_and_says_where),
    T(check_only_writes_nothing),
    T(bad_input_is_refused_naming_what),
    T(a_file_that_cannot_be_changed_is_named),
    T(entries_and_remove),
    T(project_choices),
    T(import_from_another_client),
    T(a_client_checks_the_type_with_its_plugins),
    T(the_loaded_servers_with_scope_and_state),
};

int main(void) {
  snprintf(root, sizeof root, "/tmp/mcphost-client-config-XXXXXX");
  if (!mkdtemp(root))
    return 1;
  snprintf(proj, sizeof proj, "%s/proj", root);
  snprintf(settings, sizeof settings, "%s/xdg/mcphost/settings.json", root);
  snprintf(cursor, sizeof cursor, "%s/cursor.json", root);
  mkdir(proj, 0700);
  char xdg[300];
  snprintf(xdg, sizeof xdg, "%s/xdg", root);
  setenv("HOME", root, 1);
  setenv("XDG_CONFIG_HOME", xdg, 1);
  setenv("MCPHOST_SYSTEM_CONFIG_DIR", root, 1);
  unsetenv("MCPHOST_APPROVE_PROJECT_SERVERS");
  unsetenv("CLAUDE_CONFIG_DIR");
  if (chdir(proj) != 0)
    return 1;
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0)
    fprintf(stderr, "  could not remove %s\n", root);
  return rc;
}
