/* WWW-Authenticate parsing for the auth-required event. */
#include "www_auth.h"

#include "check.h"

TEST(test_www_auth_reads_bearer_parameters) {
  www_auth w;
  www_auth_parse("Bearer realm=\"mcp\", error=\"invalid_token\", "
                 "error_description=\"The token \\\"x\\\" expired\", "
                 "resource_metadata=\"https://h.example/.well-known/"
                 "oauth-protected-resource\", scope=\"a b\"",
                 &w);
  CHECK_STR(w.scheme, "Bearer");
  CHECK_STR(w.realm, "mcp");
  CHECK_STR(w.error, "invalid_token");
  CHECK_STR(w.error_description, "The token \"x\" expired");
  CHECK_STR(w.resource_metadata,
            "https://h.example/.well-known/oauth-protected-resource");
  CHECK_STR(w.scope, "a b");
}

TEST(test_www_auth_takes_tokens_and_stops_at_the_next_challenge) {
  www_auth w;
  www_auth_parse("Bearer error=insufficient_scope, Basic realm=\"other\"", &w);
  CHECK_STR(w.scheme, "Bearer");
  CHECK_STR(w.error, "insufficient_scope");
  CHECK_STR(w.realm, "");
}

TEST(test_www_auth_survives_bad_input) {
  www_auth w;
  www_auth_parse(NULL, &w);
  CHECK_STR(w.scheme, "");
  www_auth_parse("Bearer realm=\"unterminated", &w);
  CHECK_STR(w.realm, "unterminated");
  www_auth_parse("Bearer ,,, =x, realm", &w);
  CHECK_STR(w.scheme, "Bearer");
  char long_value[3000];
  memset(long_value, 'a', sizeof long_value);
  memcpy(long_value, "Bearer scope=", 13);
  long_value[sizeof long_value - 1] = '\0';
  www_auth_parse(long_value, &w);
  CHECK(strlen(w.scope) == WWW_AUTH_PART_MAX - 1);
}

TEST(test_www_auth_challenge_leaves_absent_parts_null) {
  www_auth w;
  mcph_auth_challenge ch;
  www_auth_parse("Bearer resource_metadata=\"https://x/m\"", &w);
  www_auth_challenge(&w, 401, "https://x/mcp", "Bearer ...", &ch);
  CHECK(ch.status == 401);
  CHECK_STR(ch.resource_metadata, "https://x/m");
  CHECK(ch.realm == NULL && ch.error == NULL);
  CHECK(ch.struct_size == sizeof ch);
}

RUN(T(test_www_auth_reads_bearer_parameters),
    T(test_www_auth_takes_tokens_and_stops_at_the_next_challenge),
    T(test_www_auth_survives_bad_input),
    T(test_www_auth_challenge_leaves_absent_parts_null))
