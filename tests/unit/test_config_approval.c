/* What an approval binds (config_approval.h): the digest covers the entry
 * and its file, the summary shows what a server runs, the difference says
 * what changed without showing values. */
#include <stdlib.h>

#include "check.h"
#include "config/config_approval.h"

static cJSON *parse(const char *text) {
  cJSON *j = cJSON_Parse(text);
  if (!j)
    abort();
  return j;
}

TEST(test_the_digest_binds_the_entry_and_its_file) {
  cJSON *a = parse("{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"]}");
  cJSON *b = parse("{\"command\": \"npx\", \"args\": [\"-y\", \"evil\"]}");
  char *da = approval_digest("/r/.mcp.json", a, NULL);
  CHECK(strlen(da) == 64);
  char *db = approval_digest("/r/.mcp.json", b, NULL);
  char *dfile = approval_digest("/r/sub/.mcp.json", a, NULL);
  CHECK(strcmp(da, db) != 0);
  CHECK(strcmp(da, dfile) != 0);
  cJSON *rec = approval_record("/r/.mcp.json", a, NULL);
  CHECK(approval_matches(rec, "/r/.mcp.json", a, NULL));
  CHECK(!approval_matches(rec, "/r/.mcp.json", b, NULL));
  CHECK(!approval_matches(rec, "/r/sub/.mcp.json", a, NULL));
  CHECK(!approval_matches(NULL, "/r/.mcp.json", a, NULL));
  free(da);
  free(db);
  free(dfile);
  cJSON_Delete(rec);
  cJSON_Delete(a);
  cJSON_Delete(b);
}

TEST(test_the_summary_shows_command_env_names_variables_and_cwd) {
  cJSON *e = parse("{\"command\": \"sh\", \"args\": [\"-c\", \"curl x | sh\", "
                   "\"${TOKEN}\"], \"env\": {\"A\": \"secret-value\", \"B\": "
                   "\"${AWS_KEY:-${HOME}}\"}, \"cwd\": \"/srv\"}");
  char *s = approval_summary(e, NULL, "; ");
  CHECK_STR(s, "command: sh -c 'curl x | sh' '${TOKEN}'; env: A, B; "
               "variables: ${TOKEN}, ${AWS_KEY}, ${HOME}; cwd: /srv");
  free(s);
  cJSON_Delete(e);
  e = parse("{\"type\": \"http\", \"url\": \"https://x.example/mcp\", "
            "\"headers\": {\"Authorization\": \"Bearer ${GH}\"}}");
  s = approval_summary(e, NULL, "\n  ");
  CHECK_STR(s, "url: https://x.example/mcp (http)\n  headers: Authorization\n"
               "  variables: ${GH}");
  free(s);
  cJSON_Delete(e);
}

TEST(test_the_summary_escapes_control_characters) {
  cJSON *e = parse("{\"command\": \"x\\u001b[2J\", \"env\": {\"N\\u0007\": "
                   "\"v\"}}");
  char *s = approval_summary(e, NULL, "; ");
  CHECK_STR(s, "command: 'x<U+001B>[2J'; env: N<U+0007>");
  free(s);
  cJSON_Delete(e);
}

TEST(test_the_difference_names_each_change_and_hides_values) {
  cJSON *old = parse("{\"command\": \"a\", \"env\": {\"K\": \"1\", \"GONE\": "
                     "\"x\"}, \"headers\": {\"H\": \"tok-1\"}}");
  cJSON *now = parse("{\"command\": \"b\", \"args\": [\"--x\"], \"env\": "
                     "{\"K\": \"2\", \"NEW\": \"${SECRET}\"}, \"headers\": "
                     "{\"H\": \"tok-2\"}, \"timeout\": 5}");
  cJSON *rec = approval_record("/r/.mcp.json", old, NULL);
  char *d = approval_diff(rec, "/r/.mcp.json", now, NULL);
  CHECK_STR(d, "command: a -> b; args: (none) -> --x; env: K changed, +NEW, "
               "-GONE; headers: H changed; variables: (none) -> ${SECRET}; "
               "other keys: timeout");
  CHECK(strstr(d, "tok-") == NULL);
  free(d);
  d = approval_diff(rec, "/r/sub/.mcp.json", old, NULL);
  CHECK_STR(d, "file: /r/.mcp.json -> /r/sub/.mcp.json");
  free(d);
  cJSON_Delete(rec);
  cJSON_Delete(old);
  cJSON_Delete(now);
}

TEST(test_the_record_keeps_no_env_or_header_value) {
  cJSON *e = parse("{\"command\": \"a\", \"env\": {\"T\": \"s3cret-e\"}, "
                   "\"headers\": {\"H\": \"s3cret-h\"}}");
  cJSON *rec = approval_record("/r/.mcp.json", e, NULL);
  char *text = cJSON_PrintUnformatted(rec);
  CHECK(text && strstr(text, "s3cret") == NULL);
  CHECK(text && strstr(text, "\"T\":\"sha256:") != NULL);
  free(text);
  /* The difference still tells a changed value from a kept one. */
  char *d = approval_diff(rec, "/r/.mcp.json", e, NULL);
  CHECK_STR(d, "the entry was rewritten (the same fields, another text)");
  free(d);
  cJSON_Delete(rec);
  cJSON_Delete(e);
}

TEST(test_the_difference_names_removed_keys_and_changed_rules) {
  cJSON *old = parse("{\"command\": \"a\", \"roots\": [], \"timeout\": 5}");
  cJSON *now = parse("{\"command\": \"a\"}");
  cJSON *perms = parse("{\"allow\": [\"mcp__t__*\"]}");
  cJSON *rec = approval_record("/r/.mcp.json", old, NULL);
  CHECK(!approval_matches(rec, "/r/.mcp.json", old, perms));
  char *d = approval_diff(rec, "/r/.mcp.json", now, perms);
  CHECK_STR(d, "roots: [] -> (none); keys removed: timeout; permissions of "
               "its file: (none) -> {\"allow\":[\"mcp__t__*\"]}");
  free(d);
  char *s = approval_summary(old, perms, "; ");
  CHECK_STR(s, "command: a; roots: []; other keys: timeout; permissions of "
               "its file: {\"allow\":[\"mcp__t__*\"]}");
  free(s);
  cJSON_Delete(rec);
  cJSON_Delete(old);
  cJSON_Delete(now);
  cJSON_Delete(perms);
}

RUN(T(test_the_digest_binds_the_entry_and_its_file),
    T(test_the_record_keeps_no_env_or_header_value),
    T(test_the_difference_names_removed_keys_and_changed_rules),
    T(test_the_summary_shows_command_env_names_variables_and_cwd),
    T(test_the_summary_escapes_control_characters),
    T(test_the_difference_names_each_change_and_hides_values))
