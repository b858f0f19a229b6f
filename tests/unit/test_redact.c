#include <stdlib.h>

#include "check.h"
#include "redact.h"

/* Redacts a C string; the result is freed by the next call. */
static const char *red(const char *s) {
  static char *last;
  free(last);
  last = redact(s);
  return last;
}

TEST(test_json_token_fields_are_redacted) {
  CHECK_STR(red("{\"access_token\":\"at1\",\"refresh_token\":\"rt1\","
                "\"id_token\":\"it1\",\"expires_in\":3600}"),
            "{\"access_token\":\"[REDACTED]\",\"refresh_token\":\"[REDACTED]\","
            "\"id_token\":\"[REDACTED]\",\"expires_in\":3600}");
  CHECK_STR(red("{\"assertion\":\"a\",\"subject_token\":\"s\","
                "\"client_secret\":\"c\"}"),
            "{\"assertion\":\"[REDACTED]\",\"subject_token\":\"[REDACTED]\","
            "\"client_secret\":\"[REDACTED]\"}");
}

TEST(test_json_fields_with_spaces_and_any_case_are_redacted) {
  CHECK_STR(red("{ \"Access_Token\" :  \"abc\" }"),
            "{ \"Access_Token\" :  \"[REDACTED]\" }");
  CHECK_STR(red("{'client_secret': 'x y'}"), "{'client_secret': '[REDACTED]'}");
}

TEST(test_json_value_with_escaped_quotes_is_redacted_whole) {
  CHECK_STR(red("{\"client_secret\":\"a\\\"b\\\\\",\"n\":1}"),
            "{\"client_secret\":\"[REDACTED]\",\"n\":1}");
}

TEST(test_json_inside_a_json_string_is_redacted) {
  /* A wire log of a result whose text is itself JSON. */
  CHECK_STR(red("{\"text\":\"{\\\"access_token\\\":\\\"secret123\\\"}\"}"),
            "{\"text\":\"{\\\"access_token\\\":\\\"[REDACTED]\\\"}\"}");
}

TEST(test_a_value_cut_off_by_the_end_is_redacted_to_the_end) {
  CHECK_STR(red("<- {\"access_token\":\"secret12"),
            "<- {\"access_token\":\"[REDACTED]");
}

TEST(test_every_occurrence_is_redacted) {
  CHECK_STR(red("\"id_token\":\"a\" and \"id_token\":\"b\""),
            "\"id_token\":\"[REDACTED]\" and \"id_token\":\"[REDACTED]\"");
}

TEST(test_form_and_query_values_are_redacted) {
  CHECK_STR(red("grant_type=refresh_token&refresh_token=rt1&client_secret=cs"),
            "grant_type=refresh_token&refresh_token=[REDACTED]&client_secret="
            "[REDACTED]");
  CHECK_STR(red("GET /cb?access_token=tok&state=1 HTTP/1.1"),
            "GET /cb?access_token=[REDACTED]&state=1 HTTP/1.1");
}

TEST(test_authorization_headers_are_redacted) {
  CHECK_STR(red("Authorization: Bearer abc.def.ghi"),
            "Authorization: [REDACTED]");
  CHECK_STR(red("authorization:Basic dXNlcjpwYXNz\r\nHost: example"),
            "authorization:[REDACTED]\r\nHost: example");
  CHECK_STR(red("Proxy-Authorization: Basic eHk="),
            "Proxy-Authorization: [REDACTED]");
}

TEST(test_authorization_in_json_headers_is_redacted) {
  CHECK_STR(red("{\"headers\": {\"Authorization\": \"Bearer t0k\"}}"),
            "{\"headers\": {\"Authorization\": \"[REDACTED]\"}}");
}

TEST(test_similar_names_and_prose_are_left_alone) {
  const char *keep[] = {
      "{\"access_token_expires_in\":3600,\"token_type\":\"Bearer\"}",
      "{\"tokens\":\"x\",\"my_access_tokens\":\"y\"}",
      "assertion failed: x > 0",
      "the refresh_token was rejected",
      "{\"access_token\": null}",
      "grant_type=refresh_token",
      "no authorization header",
      "",
  };
  for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
    CHECK_STR(red(keep[i]), keep[i]);
}

TEST(test_a_prefixed_field_name_is_still_a_secret) {
  CHECK_STR(red("{\"oauth_access_token\":\"x\"}"),
            "{\"oauth_access_token\":\"[REDACTED]\"}");
  CHECK_STR(red("x-access_token=abc"), "x-access_token=[REDACTED]");
}

RUN(T(test_json_token_fields_are_redacted),
    T(test_json_fields_with_spaces_and_any_case_are_redacted),
    T(test_json_value_with_escaped_quotes_is_redacted_whole),
    T(test_json_inside_a_json_string_is_redacted),
    T(test_a_value_cut_off_by_the_end_is_redacted_to_the_end),
    T(test_every_occurrence_is_redacted),
    T(test_form_and_query_values_are_redacted),
    T(test_authorization_headers_are_redacted),
    T(test_authorization_in_json_headers_is_redacted),
    T(test_similar_names_and_prose_are_left_alone),
    T(test_a_prefixed_field_name_is_still_a_secret))
