/* The bundle plugin's substitution (bundles/subst.h), as
 * reference/mcpb.md §3 says, without the official library's quirks. */
#include <stdlib.h>

#include "check.h"
#include "subst.h"

static const subst_dirs dirs = {"/home/u", "/home/u/Desktop",
                                "/home/u/Documents", "/home/u/Downloads"};

/* The server entry of `manifest` with `values`, as compact JSON; NULL
 * and the reason in `why` when there is none. Freed by the next call. */
static const char *entry(const char *manifest, const char *values) {
  static char *text;
  static char why[300];
  free(text);
  text = NULL;
  cJSON *m = cJSON_Parse(manifest);
  cJSON *v = values ? cJSON_Parse(values) : NULL;
  cJSON *e = subst_server(m, "/b/x", v, &dirs, why, sizeof why);
  if (e) {
    text = cJSON_PrintUnformatted(e);
  }
  cJSON_Delete(e);
  cJSON_Delete(v);
  cJSON_Delete(m);
  return text ? text : why;
}

#define M(cfg, uc)                                                             \
  "{\"server\":{\"mcp_config\":" cfg "},\"user_config\":" uc "}"

TEST(test_system_variables_and_dirname) {
  CHECK_STR(entry(M("{\"command\":\"${__dirname}/bin\",\"args\":[\"${HOME}"
                    "${/}a\",\"${DESKTOP}\",\"${DOCUMENTS}\",\"${DOWNLOADS}\","
                    "\"${pathSeparator}\"]}",
                    "{}"),
                  NULL),
            "{\"command\":\"/b/x/bin\",\"args\":[\"/home/u/a\",\"/home/u/"
            "Desktop\",\"/home/u/Documents\",\"/home/u/Downloads\",\"/\"],"
            "\"env\":{}}");
}

TEST(test_value_inserted_literally_without_patterns) {
  CHECK_STR(entry(M("{\"command\":\"c\",\"env\":{\"K\":\"${user_config.k}\"}}",
                    "{\"k\":{\"type\":\"string\"}}"),
                  "{\"k\":\"pa$$w$&rd${HOME}\"}"),
            "{\"command\":\"c\",\"args\":[],\"env\":{\"K\":\"pa$$w$&rd${HOME}"
            "\"}}");
}

TEST(test_default_home_is_expanded) {
  CHECK_STR(entry(M("{\"command\":\"c\",\"args\":[\"x=${user_config.d}\"]}",
                    "{\"d\":{\"type\":\"directory\",\"default\":"
                    "\"${HOME}/Desktop\"}}"),
                  NULL),
            "{\"command\":\"c\",\"args\":[\"x=/home/u/Desktop\"],\"env\":{}}");
}

TEST(test_list_spliced_only_as_a_whole_argument) {
  CHECK_STR(entry(M("{\"command\":\"c\",\"args\":[\"${user_config.d}\","
                    "\"--d=${user_config.d}\"]}",
                    "{\"d\":{\"type\":\"directory\",\"multiple\":true}}"),
                  "{\"d\":[\"/a\",\"/b\"]}"),
            "{\"command\":\"c\",\"args\":[\"/a\",\"/b\",\"--d=${user_config.d}"
            "\"],\"env\":{}}");
}

TEST(test_numbers_booleans_and_unknown_placeholders) {
  CHECK_STR(entry(M("{\"command\":\"c\",\"args\":[\"${user_config.n}\","
                    "\"${user_config.b}\",\"${nope}\",\"${user_config.x}\"]}",
                    "{\"n\":{\"type\":\"number\"},\"b\":{\"type\":"
                    "\"boolean\",\"default\":false}}"),
                  "{\"n\":42}"),
            "{\"command\":\"c\",\"args\":[\"42\",\"false\",\"${nope}\","
            "\"${user_config.x}\"],\"env\":{}}");
}

TEST(test_empty_value_keeps_the_whole_placeholder) {
  CHECK_STR(entry(M("{\"command\":\"c\",\"args\":[\"${user_config.s}\"]}",
                    "{\"s\":{\"type\":\"string\"}}"),
                  "{\"s\":\"\"}"),
            "{\"command\":\"c\",\"args\":[\"${user_config.s}\"],\"env\":{}}");
}

TEST(test_required_needs_a_given_value_not_a_default) {
  CHECK_CONTAINS(entry(M("{\"command\":\"c\"}",
                         "{\"r\":{\"type\":\"string\",\"required\":true,"
                         "\"default\":\"d\"}}"),
                       NULL),
                 "the required setting \"r\" has no value");
  CHECK_CONTAINS(entry(M("{\"command\":\"c\"}",
                         "{\"r\":{\"type\":\"directory\",\"required\":true,"
                         "\"multiple\":true}}"),
                       "{\"r\":[]}"),
                 "the required setting \"r\" has no value");
}

TEST(test_linux_override_replaces_env_whole) {
  CHECK_STR(entry(M("{\"command\":\"a\",\"args\":[\"1\"],\"env\":{\"A\":"
                    "\"1\",\"B\":\"2\"},\"platform_overrides\":{\"linux\":{"
                    "\"command\":\"b\",\"env\":{\"C\":\"3\"}},\"win32\":{"
                    "\"command\":\"w\"}}}",
                    "{}"),
                  NULL),
            "{\"command\":\"b\",\"args\":[\"1\"],\"env\":{\"C\":\"3\"}}");
}

int main(void) {
  static const test_case tests[] = {
      T(test_system_variables_and_dirname),
      T(test_value_inserted_literally_without_patterns),
      T(test_default_home_is_expanded),
      T(test_list_spliced_only_as_a_whole_argument),
      T(test_numbers_booleans_and_unknown_placeholders),
      T(test_empty_value_keeps_the_whole_placeholder),
      T(test_required_needs_a_given_value_not_a_default),
      T(test_linux_override_replaces_env_whole),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0]);
}
