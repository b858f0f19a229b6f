/* era_classify: the probe's decision table (era.h, docs/protocol.md). */
#include <cjson/cJSON.h>
#include <string.h>

#include "check.h"
#include "mcp/era.h"

static probe_verdict result_of(const char *json, const char **v) {
  cJSON *r = cJSON_Parse(json);
  probe_verdict pv = era_classify(r, NULL, v);
  cJSON_Delete(r);
  return pv;
}

static probe_verdict error_of(int code, const char *data, const char **v) {
  cJSON *d = data ? cJSON_Parse(data) : NULL;
  rpc_error e = {
      .status = RPC_ERR_REMOTE, .code = code, .message = "x", .data = d};
  probe_verdict pv = era_classify(NULL, &e, v);
  cJSON_Delete(d);
  return pv;
}

TEST(test_a_discover_result_naming_our_version_is_modern) {
  const char *v = NULL;
  CHECK(result_of("{\"supportedVersions\":[\"2099-01-01\",\"2026-07-28\"],"
                  "\"capabilities\":{},\"resultType\":\"complete\"}",
                  &v) == PROBE_MODERN);
  CHECK_STR(v, "2026-07-28");
}

TEST(test_an_empty_result_or_no_common_version_is_legacy) {
  const char *v = NULL;
  CHECK(result_of("{}", &v) == PROBE_LEGACY);
  CHECK(v == NULL);
  CHECK(result_of("{\"supportedVersions\":[\"2099-01-01\"]}", &v) ==
        PROBE_LEGACY);
  CHECK(result_of("{\"supportedVersions\":\"2026-07-28\"}", &v) ==
        PROBE_LEGACY);
  CHECK(result_of("{\"supportedVersions\":[\"2026-07-28\"],"
                  "\"capabilities\":[]}",
                  &v) == PROBE_LEGACY);
}

TEST(test_unsupported_version_naming_ours_is_retried) {
  const char *v = NULL;
  CHECK(error_of(-32022, "{\"supported\":[\"2026-07-28\"],\"requested\":\"x\"}",
                 &v) == PROBE_RETRY);
  CHECK_STR(v, "2026-07-28");
}

TEST(test_unsupported_version_with_legacy_versions_only_is_legacy) {
  const char *v = NULL;
  CHECK(error_of(-32022, "{\"supported\":[\"2025-11-25\"]}", &v) ==
        PROBE_LEGACY);
  CHECK(error_of(-32022, NULL, &v) == PROBE_LEGACY);
}

TEST(test_any_other_error_is_legacy_not_keyed_to_one_code) {
  const char *v = NULL;
  int codes[] = {-32601, -32602, -32600, -32000, -32001, -32020, -32021, 1};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    CHECK(error_of(codes[i], NULL, &v) == PROBE_LEGACY);
  }
}

TEST(test_the_policy_names) {
  era_policy p = ERA_POLICY_LEGACY;
  CHECK(era_policy_parse("auto", &p) && p == ERA_POLICY_AUTO);
  CHECK(era_policy_parse("modern", &p) && p == ERA_POLICY_MODERN);
  CHECK(era_policy_parse("legacy", &p) && p == ERA_POLICY_LEGACY);
  CHECK(!era_policy_parse("Modern", &p));
  CHECK(!era_policy_parse("", &p));
  CHECK(!era_policy_parse(NULL, &p));
}

RUN(T(test_a_discover_result_naming_our_version_is_modern),
    T(test_an_empty_result_or_no_common_version_is_legacy),
    T(test_unsupported_version_naming_ours_is_retried),
    T(test_unsupported_version_with_legacy_versions_only_is_legacy),
    T(test_any_other_error_is_legacy_not_keyed_to_one_code),
    T(test_the_policy_names))
