#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mcp/names.h"

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

/* ---- assigning one server's names (name_assign) ---- */

#define LONG_PREFIX "search_repository_issues_by_label_and_milestone_with_full_text_and_"

static bool all_name_chars(const char *s) {
  for (; *s; s++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789_-", *s))
      return false;
  return true;
}

TEST(test_names_that_fit_are_the_normalized_names) {
  const char *t[] = {"echo", "get.sum"};
  char **n = name_assign("demo", t, 2, 64);
  CHECK_STR(n[0], "mcp__demo__echo");
  CHECK_STR(n[1], "mcp__demo__get_sum");
  name_list_free(n, 2);
}

TEST(test_a_name_too_long_is_cut_and_hashed_to_the_limit) {
  const char *t[] = {LONG_PREFIX "more"};
  char **n = name_assign("s", t, 1, 64);
  CHECK_STR(n[0], "mcp__s__search_repository_issues_by_label_and_milestone_83878e88");
  CHECK(strlen(n[0]) == 64);
  name_list_free(n, 1);
}

TEST(test_two_long_names_with_one_prefix_stay_apart) {
  const char *t[] = {LONG_PREFIX "more", LONG_PREFIX "less"};
  char **n = name_assign("naming", t, 2, 64);
  CHECK_STR(n[0], "mcp__naming__search_repository_issues_by_label_and_mile_83878e88");
  CHECK_STR(n[1], "mcp__naming__search_repository_issues_by_label_and_mile_008d2ad0");
  name_list_free(n, 2);
}

TEST(test_names_are_the_same_whatever_the_list_order) {
  const char *a[] = {"get data", LONG_PREFIX "more", "get.data", "get_data"};
  const char *b[] = {"get_data", "get.data", LONG_PREFIX "more", "get data"};
  char **x = name_assign("s", a, 4, 64), **y = name_assign("s", b, 4, 64);
  CHECK_STR(x[0], y[3]);
  CHECK_STR(x[1], y[2]);
  CHECK_STR(x[2], y[1]);
  CHECK_STR(x[3], y[0]);
  name_list_free(x, 4);
  name_list_free(y, 4);
}

TEST(test_a_collision_leaves_the_already_normalized_name_alone) {
  const char *t[] = {"get.data", "get_data"};
  char **n = name_assign("s", t, 2, 64);
  CHECK_STR(n[0], "mcp__s__get_data_5b3061e3");
  CHECK_STR(n[1], "mcp__s__get_data");
  name_list_free(n, 2);
}

TEST(test_a_collision_among_others_goes_by_original_name) {
  /* "get data" sorts before "get.data" (' ' < '.'): it keeps the name. */
  const char *t[] = {"get.data", "get data"};
  char **n = name_assign("s", t, 2, 64);
  CHECK_STR(n[1], "mcp__s__get_data");
  CHECK_STR(n[0], "mcp__s__get_data_5b3061e3");
  name_list_free(n, 2);
}

TEST(test_the_same_name_listed_twice_gets_two_names) {
  const char *t[] = {"x", "x"};
  char **n = name_assign("s", t, 2, 64);
  CHECK_STR(n[0], "mcp__s__x");
  CHECK(strncmp(n[1], "mcp__s__x_", 10) == 0 && strlen(n[1]) == 18);
  name_list_free(n, 2);
}

TEST(test_a_hashed_name_already_taken_is_hashed_again) {
  /* A tool literally named like the hashed form of another keeps its
   * name; the other moves on to a different hash. */
  const char *t[] = {"get.data", "get_data", "get_data_5b3061e3"};
  char **n = name_assign("s", t, 3, 64);
  CHECK_STR(n[1], "mcp__s__get_data");
  CHECK_STR(n[2], "mcp__s__get_data_5b3061e3");
  CHECK(strncmp(n[0], "mcp__s__get_data_", 17) == 0);
  CHECK(strcmp(n[0], n[2]) != 0 && strlen(n[0]) == strlen(n[2]));
  name_list_free(n, 3);
}

TEST(test_items_without_a_name_get_none) {
  const char *t[] = {NULL, "a"};
  char **n = name_assign("s", t, 2, 64);
  CHECK(n[0] == NULL);
  CHECK_STR(n[1], "mcp__s__a");
  name_list_free(n, 2);
}

TEST(test_an_empty_name_is_hashed) {
  const char *t[] = {""};
  char **n = name_assign("s", t, 1, 64);
  CHECK(strlen(n[0]) == strlen("mcp__s___12345678"));
  char *srv, *tool;
  bool q;
  CHECK(name_parse(n[0], &srv, &tool, &q));
  CHECK_STR(srv, "s");
  free(srv);
  free(tool);
  name_list_free(n, 1);
}

TEST(test_a_long_server_name_is_cut_and_hashed) {
  char *p = name_server_part("a-very-long-server-name-for-testing-limits", 64);
  CHECK_STR(p, "a-very-long-server-_efaaca7e");
  free(p);
  p = name_server_part("my.server", 64);
  CHECK_STR(p, "my_server");
  free(p);
}

TEST(test_names_fit_any_limit_and_use_only_allowed_characters) {
  const char *t[] = {LONG_PREFIX "more", LONG_PREFIX "less", "ok",
                     "caf\xC3\xA9 \xE2\x82\xAC"};
  size_t limits[] = {32, 40, 64, 100};
  for (size_t k = 0; k < 4; k++) {
    char **n = name_assign("a-very-long-server-name-for-testing-limits", t, 4,
                           limits[k]);
    for (size_t i = 0; i < 4; i++) {
      CHECK(strlen(n[i]) <= limits[k]);
      CHECK(all_name_chars(n[i]));
      for (size_t j = 0; j < i; j++)
        CHECK(strcmp(n[i], n[j]) != 0);
    }
    name_list_free(n, 4);
  }
}

TEST(test_a_limit_below_the_minimum_counts_as_the_minimum) {
  const char *t[] = {LONG_PREFIX "more"};
  char **a = name_assign("s", t, 1, 10), **b = name_assign("s", t, 1, 32);
  CHECK_STR(a[0], b[0]);
  CHECK(strlen(a[0]) == 32);
  name_list_free(a, 1);
  name_list_free(b, 1);
}

TEST(test_find_item_by_assigned_name_or_by_original_name) {
  cJSON *items = cJSON_Parse(
      "[{\"name\":\"get.data\"},{\"name\":\"get_data\"},"
      "{\"name\":\"" LONG_PREFIX "more\"}]");
  const cJSON *it = name_find_item("s", items, 64, "get_data_5b3061e3");
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(it, "name")), "get.data");
  it = name_find_item("s", items, 64, "get_data");
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(it, "name")), "get_data");
  it = name_find_item("s", items, 64,
                      "search_repository_issues_by_label_and_milestone_83878e88");
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(it, "name")),
            LONG_PREFIX "more");
  it = name_find_item("s", items, 64, "get.data"); /* the original, typed */
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(it, "name")), "get.data");
  CHECK(name_find_item("s", items, 64, "nope") == NULL);
  cJSON_Delete(items);
}

/* An item's own name found without naming the list is the item the
 * naming gives that name: the first of equal names, the already
 * normalized one over one that normalizes to it; a hashed form and a
 * name too long to keep are still found through the naming. */
TEST(test_find_item_own_name_is_the_named_one) {
  cJSON *items =
      cJSON_Parse("[{\"name\":\"x y\"},{\"name\":\"x_y\"},{\"name\":\"x_y\"},"
                  "{\"name\":\"" LONG_PREFIX "more\"}]");
  size_t n = 0;
  char **names = name_assign_items("s", items, 64, &n);
  CHECK_STR(names[1], "mcp__s__x_y");
  CHECK(name_find_item("s", items, 64, "x_y") == cJSON_GetArrayItem(items, 1));
  CHECK(strncmp(names[0], "mcp__s__x_y_", 12) == 0);
  CHECK(name_find_item("s", items, 64, names[0] + 8) ==
        cJSON_GetArrayItem(items, 0));
  CHECK(name_find_item("s", items, 64, LONG_PREFIX "more") ==
        cJSON_GetArrayItem(items, 3));
  CHECK(name_find_item("s", items, 64, names[3] + 8) ==
        cJSON_GetArrayItem(items, 3));
  name_list_free(names, n);
  cJSON_Delete(items);
}

RUN(T(test_normalize_keeps_allowed_characters),
    T(test_normalize_replaces_each_other_character),
    T(test_normalize_one_underscore_per_utf8_character),
    T(test_qualify_joins_normalized_parts), T(test_parse_qualified_name),
    T(test_parse_keeps_double_underscores_in_tool_part),
    T(test_parse_slash_form), T(test_parse_rejects_malformed_references),
    T(test_parse_round_trips_qualify),
    T(test_names_that_fit_are_the_normalized_names),
    T(test_a_name_too_long_is_cut_and_hashed_to_the_limit),
    T(test_two_long_names_with_one_prefix_stay_apart),
    T(test_names_are_the_same_whatever_the_list_order),
    T(test_a_collision_leaves_the_already_normalized_name_alone),
    T(test_a_collision_among_others_goes_by_original_name),
    T(test_the_same_name_listed_twice_gets_two_names),
    T(test_a_hashed_name_already_taken_is_hashed_again),
    T(test_items_without_a_name_get_none), T(test_an_empty_name_is_hashed),
    T(test_a_long_server_name_is_cut_and_hashed),
    T(test_names_fit_any_limit_and_use_only_allowed_characters),
    T(test_a_limit_below_the_minimum_counts_as_the_minimum),
    T(test_find_item_by_assigned_name_or_by_original_name),
    T(test_find_item_own_name_is_the_named_one))
