#include <stdlib.h>

#include "check.h"
#include "names.h"

TEST(test_normalize_keeps_allowed_characters) {
  char *s = name_normalize("get-sum_2");
  CHECK_STR(s, "get-sum_2");
  free(s);
}

TEST(test_normalize_replaces_each_other_character) {
  char *s = name_normalize("my server.v1/x");
  CHECK_STR(s, "my_server_v1_x");
  free(s);
}

TEST(test_normalize_one_underscore_per_utf8_character) {
  char *s = name_normalize("caf\xc3\xa9-\xe2\x82\xac"); /* café-€ */
  CHECK_STR(s, "caf_-_");
  free(s);
}

TEST(test_qualify_joins_normalized_parts) {
  char *q = name_qualify("every thing", "get.sum");
  CHECK_STR(q, "mcp__every_thing__get_sum");
  free(q);
}

TEST(test_parse_qualified_name) {
  char *srv, *tool;
  bool q;
  CHECK(name_parse("mcp__every__echo", &srv, &tool, &q));
  CHECK_STR(srv, "every");
  CHECK_STR(tool, "echo");
  CHECK(q);
  free(srv);
  free(tool);
}

TEST(test_parse_keeps_double_underscores_in_tool_part) {
  char *srv, *tool;
  bool q;
  CHECK(name_parse("mcp__a__b__c", &srv, &tool, &q));
  CHECK_STR(srv, "a");
  CHECK_STR(tool, "b__c");
  free(srv);
  free(tool);
}

TEST(test_parse_slash_form) {
  char *srv, *tool;
  bool q;
  CHECK(name_parse("every/get-sum", &srv, &tool, &q));
  CHECK_STR(srv, "every");
  CHECK_STR(tool, "get-sum");
  CHECK(!q);
  free(srv);
  free(tool);
}

TEST(test_parse_rejects_malformed_references) {
  char *srv = NULL, *tool = NULL;
  bool q;
  CHECK(!name_parse("echo", &srv, &tool, &q));
  CHECK(!name_parse("mcp__every", &srv, &tool, &q));
  CHECK(!name_parse("mcp____echo", &srv, &tool, &q));
  CHECK(!name_parse("mcp__every__", &srv, &tool, &q));
  CHECK(!name_parse("/echo", &srv, &tool, &q));
  CHECK(!name_parse("every/", &srv, &tool, &q));
  CHECK(srv == NULL && tool == NULL);
}

TEST(test_parse_round_trips_qualify) {
  char *q = name_qualify("demo", "echo");
  char *srv, *tool;
  bool qq;
  CHECK(name_parse(q, &srv, &tool, &qq));
  CHECK_STR(srv, "demo");
  CHECK_STR(tool, "echo");
  free(q);
  free(srv);
  free(tool);
}

RUN(T(test_normalize_keeps_allowed_characters),
    T(test_normalize_replaces_each_other_character),
    T(test_normalize_one_underscore_per_utf8_character),
    T(test_qualify_joins_normalized_parts), T(test_parse_qualified_name),
    T(test_parse_keeps_double_underscores_in_tool_part),
    T(test_parse_slash_form), T(test_parse_rejects_malformed_references),
    T(test_parse_round_trips_qualify))
