/* The bundle plugin's manifest validator (bundles/manifest.h): the
 * official validator's messages for the cases of
 * bundles/testdata/invalid-manifests/VALIDATE-OUTPUT.txt that have no
 * manifest file of their own (the others: test_bundles.sh). */
#include <stdlib.h>

#include "check.h"
#include "manifest.h"

#define BASE(ver, extra)                                                       \
  "{\"manifest_version\":\"" ver "\",\"name\":\"t\",\"version\":\"1.0.0\","    \
  "\"description\":\"d\",\"author\":{\"name\":\"a\"},\"server\":{\"type\":"    \
  "\"node\",\"entry_point\":\"s.js\",\"mcp_config\":{\"command\":\"node\"}"    \
  "}" extra "}"

/* All issues joined with "; " ("" when none). Freed by the next call. */
static const char *issues(const char *json) {
  static char *text;
  free(text);
  text = NULL;
  cJSON *doc = cJSON_Parse(json);
  manifest_report r;
  manifest_validate(doc, &r);
  size_t n = 1;
  for (size_t i = 0; i < r.count; i++) {
    n += strlen(r.issues[i].text) + 2;
  }
  text = calloc(n, 1);
  for (size_t i = 0; i < r.count; i++) {
    if (i) {
      strcat(text, "; ");
    }
    strcat(text, r.issues[i].text);
  }
  manifest_report_free(&r);
  cJSON_Delete(doc);
  return text;
}

TEST(test_valid_manifest_has_no_issue) {
  CHECK_STR(issues(BASE("0.2", "")), "");
}

TEST(test_bad_platform_and_unknown_runtime) {
  CHECK_STR(issues(BASE("0.2", ",\"compatibility\":{\"platforms\":["
                               "\"freebsd\"],\"runtimes\":{\"java\":\"1\"}}")),
            "compatibility.platforms.0: Invalid enum value. Expected "
            "'darwin' | 'win32' | 'linux', received 'freebsd'; "
            "compatibility.runtimes: Unrecognized key(s) in object: 'java'");
}

TEST(test_icons_unknown_in_0_2) {
  CHECK_STR(issues(BASE("0.2", ",\"icons\":[]")),
            "Unrecognized key(s) in object: 'icons'");
}

TEST(test_unknown_top_level_key) {
  CHECK_STR(issues(BASE("0.2", ",\"foo\":1")),
            "Unrecognized key(s) in object: 'foo'");
}

TEST(test_version_0_5_is_unsupported) {
  CHECK_STR(issues(BASE("0.5", "")),
            "Unrecognized or unsupported manifest version");
}

TEST(test_uv_only_from_0_4) {
  CHECK_STR(issues("{\"manifest_version\":\"0.4\",\"name\":\"t\",\"version\":"
                   "\"1\",\"description\":\"d\",\"author\":{\"name\":\"a\"},"
                   "\"server\":{\"type\":\"uv\",\"entry_point\":\"s.py\","
                   "\"mcp_config\":{\"command\":\"uv\"}}}"),
            "");
}

TEST(test_type_errors_in_zod_words) {
  CHECK_STR(issues(BASE("0.2", ",\"tools\":[{\"name\":3}],\"keywords\":\"x\"")),
            "tools.0.name: Expected string, received number; keywords: "
            "Expected array, received string");
}

TEST(test_unknown_keys_are_their_own_kind) {
  cJSON *doc = cJSON_Parse(BASE("0.2", ",\"foo\":1,\"bar\":2"));
  manifest_report r;
  manifest_validate(doc, &r);
  CHECK(r.count == 1 && r.errors == 0);
  CHECK(r.count == 1 && r.issues[0].kind == MANIFEST_UNKNOWN);
  CHECK_STR(r.count ? r.issues[0].text : NULL,
            "Unrecognized key(s) in object: 'foo', 'bar'");
  manifest_report_free(&r);
  cJSON_Delete(doc);
}

int main(void) {
  static const test_case tests[] = {
      T(test_valid_manifest_has_no_issue),
      T(test_bad_platform_and_unknown_runtime),
      T(test_icons_unknown_in_0_2),
      T(test_unknown_top_level_key),
      T(test_version_0_5_is_unsupported),
      T(test_uv_only_from_0_4),
      T(test_type_errors_in_zod_words),
      T(test_unknown_keys_are_their_own_kind),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0]);
}
