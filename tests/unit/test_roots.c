/* roots.h: which roots a server is offered, and their roots/list form. */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "config/config.h"
#include "config/roots.h"
#include "core/host.h"
#include "util.h"

static char tmp[PATH_MAX];

static void make_tree(void) {
  if (tmp[0])
    return;
  char templ[] = "/tmp/mcphost-roots-XXXXXX";
  char *d = mkdtemp(templ);
  char *real = d ? realpath(d, NULL) : NULL;
  snprintf(tmp, sizeof tmp, "%s", real ? real : "/nonexistent");
  free(real);
  char *sub = xasprintf("%s/sub", tmp);
  mkdir(sub, 0700);
  free(sub);
}

static const char *uri_at(const cJSON *roots, int i) {
  return cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(roots, i), "uri"));
}

/* A server entry as the loader leaves it: `json` and the file it came
 * from. */
static server_config entry(const char *json, const char *source) {
  server_config sc = {0};
  sc.name = "s";
  sc.source = (char *)source;
  sc.json = cJSON_Parse(json);
  return sc;
}

/* The roots a server entry `json` from file `source` is offered. */
static cJSON *offered(const char *json, const char *source,
                      const roots_options *o) {
  host h = {.verbosity = -1}; /* warnings are checked by the CLI's tests */
  server_config sc = entry(json, source);
  cJSON *r = roots_for_server(&h, &sc, o);
  cJSON_Delete(sc.json);
  return r;
}

TEST(test_a_root_is_a_percent_encoded_file_uri_named_by_its_last_part) {
  cJSON *r = roots_entry("/tmp/a b/\xc3\xa9%");
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "uri")),
            "file:///tmp/a%20b/%C3%A9%25");
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "name")),
            "\xc3\xa9%");
  cJSON_Delete(r);
}

TEST(test_no_roots_declares_no_capability) {
  roots_options o = {.none = true, .cwd = "/tmp"};
  CHECK(offered("{\"command\":\"x\",\"roots\":[\"/tmp\"]}", "f", &o) == NULL);
}

TEST(test_the_default_is_the_working_directory) {
  roots_options o = {.cwd = "/tmp"};
  cJSON *r = offered("{\"command\":\"x\"}", "command line", &o);
  CHECK(cJSON_GetArraySize(r) == 1);
  CHECK_STR(uri_at(r, 0), "file:///tmp");
  cJSON_Delete(r);
}

TEST(test_the_default_never_offers_the_whole_disk) {
  roots_options o = {.cwd = "/"};
  cJSON *r = offered("{\"command\":\"x\"}", "command line", &o);
  CHECK(cJSON_IsArray(r) && cJSON_GetArraySize(r) == 0);
  cJSON_Delete(r);
}

TEST(test_a_servers_cwd_is_not_a_root) {
  roots_options o = {.cwd = "/tmp"};
  cJSON *r = offered("{\"command\":\"x\",\"cwd\":\"/usr\"}", "f", &o);
  CHECK(cJSON_GetArraySize(r) == 1);
  CHECK_STR(uri_at(r, 0), "file:///tmp");
  cJSON_Delete(r);
}

TEST(test_an_entrys_roots_resolve_from_its_files_directory) {
  make_tree();
  char *file = xasprintf("%s/servers.json", tmp);
  roots_options o = {.cwd = "/"};
  cJSON *r =
      offered("{\"command\":\"x\",\"roots\":[\"sub\",\"/tmp\"]}", file, &o);
  char *want = xasprintf("file://%s/sub", tmp);
  CHECK(cJSON_GetArraySize(r) == 2);
  CHECK_STR(uri_at(r, 0), want);
  CHECK_STR(uri_at(r, 1), "file:///tmp");
  free(want);
  cJSON_Delete(r);
  free(file);
}

TEST(test_an_empty_list_offers_none_but_keeps_the_capability) {
  roots_options o = {.cwd = "/tmp"};
  cJSON *r = offered("{\"command\":\"x\",\"roots\":[]}", "f", &o);
  CHECK(cJSON_IsArray(r) && cJSON_GetArraySize(r) == 0);
  cJSON_Delete(r);
}

TEST(test_command_line_roots_win_over_the_entrys) {
  const char *dirs[] = {"/usr", "/var"};
  roots_options o = {.dirs = dirs, .ndirs = 2, .cwd = "/tmp"};
  cJSON *r = offered("{\"command\":\"x\",\"roots\":[\"/tmp\"]}", "f", &o);
  CHECK(cJSON_GetArraySize(r) == 2);
  CHECK_STR(uri_at(r, 0), "file:///usr");
  CHECK_STR(uri_at(r, 1), "file:///var");
  cJSON_Delete(r);
}

TEST(test_a_missing_directory_is_left_out) {
  roots_options o = {.cwd = "/tmp"};
  cJSON *r =
      offered("{\"command\":\"x\",\"roots\":[\"/nonexistent-root\",\"/tmp\"]}",
              "f", &o);
  CHECK(cJSON_GetArraySize(r) == 1);
  CHECK_STR(uri_at(r, 0), "file:///tmp");
  cJSON_Delete(r);
}

TEST(test_resolve_dir_takes_home_relative_and_refuses_files) {
  make_tree();
  char why[PATH_MAX + 64];
  char *old_home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
  setenv("HOME", tmp, 1);
  char *want = xasprintf("%s/sub", tmp);
  char *d = roots_resolve_dir("/", "~/sub", why, sizeof why);
  CHECK_STR(d, want);
  free(d);
  d = roots_resolve_dir(tmp, "sub/../sub", why, sizeof why);
  CHECK_STR(d, want);
  free(d);
  CHECK(roots_resolve_dir("/", "/etc/passwd", why, sizeof why) == NULL);
  CHECK_CONTAINS(why, "not a directory");
  CHECK(roots_resolve_dir("/", "/nonexistent-root", why, sizeof why) == NULL);
  CHECK_CONTAINS(why, "/nonexistent-root");
  if (old_home)
    setenv("HOME", old_home, 1);
  free(old_home);
  free(want);
}

TEST(test_roots_that_are_not_a_list_of_paths_are_a_config_error) {
  static const char *const bad[] = {
      "{\"mcpServers\":{\"x\":{\"command\":\"c\",\"roots\":\"/tmp\"}}}",
      "{\"mcpServers\":{\"x\":{\"command\":\"c\",\"roots\":[\"/tmp\",3]}}}",
      "{\"mcpServers\":{\"x\":{\"command\":\"c\",\"roots\":[\"\"]}}}"};
  static const char *const where[] = {"(at mcpServers.x.roots)",
                                      "(at mcpServers.x.roots[1])",
                                      "(at mcpServers.x.roots[0])"};
  for (size_t i = 0; i < 3; i++) {
    config c;
    config_init(&c);
    config_load_text(&c, bad[i], strlen(bad[i]), "t.json");
    CHECK(c.nservers == 0 && c.nerrors == 1);
    CHECK_CONTAINS(c.nerrors ? c.errors[0] : NULL, where[i]);
    config_free(&c);
  }
}

static void cleanup(void) {
  if (!tmp[0])
    return;
  char *sub = xasprintf("%s/sub", tmp);
  rmdir(sub);
  rmdir(tmp);
  free(sub);
}

int main(void) {
  static const test_case tests[] = {
      T(test_a_root_is_a_percent_encoded_file_uri_named_by_its_last_part),
      T(test_no_roots_declares_no_capability),
      T(test_the_default_is_the_working_directory),
      T(test_the_default_never_offers_the_whole_disk),
      T(test_a_servers_cwd_is_not_a_root),
      T(test_an_entrys_roots_resolve_from_its_files_directory),
      T(test_an_empty_list_offers_none_but_keeps_the_capability),
      T(test_command_line_roots_win_over_the_entrys),
      T(test_a_missing_directory_is_left_out),
      T(test_resolve_dir_takes_home_relative_and_refuses_files),
      T(test_roots_that_are_not_a_list_of_paths_are_a_config_error),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  cleanup();
  return rc;
}
