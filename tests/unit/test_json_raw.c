/* The scanner that lets large plain results skip the tree (json_raw.h). */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "check.h"
#include "json_parse.h"
#include "json_raw.h"
#include "json_scan.h"
#include "json_write.h"
#include "util.h"

/* Accepted, and ASCII: what any caller may take raw. */
static bool accepts(const char *s) {
  json_raw_info in;
  return json_raw_response(s, strlen(s), &in) && in.ascii;
}

/* Accepted, and not ASCII: for a caller that keeps text as sent. */
static bool accepts_utf8(const char *s) {
  json_raw_info in;
  return json_raw_response(s, strlen(s), &in) && !in.ascii;
}

/* The result's text as the scanner finds it, minified; freed by the next
 * call. */
static const char *result_of(const char *s, int64_t *id) {
  static char *last;
  free(last);
  last = NULL;
  json_raw_info in;
  if (!json_raw_response(s, strlen(s), &in))
    return NULL;
  *id = in.id;
  last = malloc(in.result_len + 1);
  last[json_raw_minify(s + in.result_off, in.result_len, last)] = '\0';
  return last;
}

TEST(test_a_plain_response_is_found) {
  int64_t id = 0;
  CHECK_STR(result_of("{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{\"a\":[1,2]}}", &id),
            "{\"a\":[1,2]}");
  CHECK(id == 42);
  CHECK_STR(result_of(" {\"result\" : [ true , false , null , -15, 0 ] ,\r\n"
                      " \"id\" : -7 }\n",
                      &id),
            "[true,false,null,-15,0]");
  CHECK(id == -7);
}

TEST(test_minify_keeps_strings_whole) {
  int64_t id;
  CHECK_STR(result_of("{\"id\":1,\"result\":{ \"t\" : \"a b\\\" c\\\\\" , "
                      "\"u\":\"\\\\\\\\\\\"x \\u001b\\n/\" }}",
                      &id),
            "{\"t\":\"a b\\\" c\\\\\",\"u\":\"\\\\\\\\\\\"x \\u001b\\n/\"}");
}

TEST(test_valid_utf8_is_accepted_and_said_not_ascii) {
  CHECK(accepts_utf8("{\"id\":1,\"result\":\"caf\xC3\xA9 \xF0\x9F\x98\x80\"}"));
  CHECK(accepts_utf8("{\"id\":1,\"result\":{\"k\xC3\xA9\":1}}"));
  CHECK(accepts_utf8("{\"id\":1,\"result\":\"zero\xE2\x80\x8Bwidth\"}"));
  /* Ill-formed UTF-8 is the tree's: it becomes U+FFFD there. */
  static const char *const bad[] = {
      "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
      "\xE2\x82", "\xFF",         "\x80"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char doc[128];
    snprintf(doc, sizeof doc, "{\"id\":1,\"result\":\"a%sb\"}", bad[i]);
    CHECK(!accepts_utf8(doc) && !accepts(doc));
  }
}

TEST(test_what_sanitizing_could_change_is_left_to_the_tree) {
  CHECK(!accepts("{\"id\":1,\"result\":\"caf\xC3\xA9\"}"));
  CHECK(!accepts("{\"id\":1,\"result\":\"zero\\u200bwidth\"}"));
  CHECK(!accepts("{\"id\":1,\"result\":\"\\u00e9\"}"));
  CHECK(!accepts("{\"id\":1,\"result\":\"\\uD83D\\uDE00\"}"));
  CHECK(!accepts("{\"id\":1,\"result\":{\"k\xC3\xA9\":1}}"));
}

TEST(test_what_json_write_writes_differently_is_left_to_the_tree) {
  /* The text passed on must be what the ordinary path prints. */
  static const char *const other[] = {
      "\"\\/\"",     "\"\\u0041\"", "\"\\u001B\"",
      "\"\\u000a\"", "\"\\u0009\"", "\"\\u007f\"",
  };
  for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
    char doc[128];
    snprintf(doc, sizeof doc, "{\"id\":1,\"result\":[%s]}", other[i]);
    if (accepts(doc)) {
      fprintf(stderr, "  accepted: %s\n", doc);
      CHECK(!"a form json_write prints differently was accepted");
    }
  }
}

TEST(test_numbers_and_nul_pass_as_the_tree_writes_them) {
  /* json_write gives every number token back as it came, and U+0000
   * (C0 80 in the tree) as \u0000: a large result with them is passed
   * on as it is, the same text. */
  int64_t id;
  static const char *const same[] = {
      "1.5",
      "1e3",
      "1E3",
      "1e+3",
      "0.0",
      "-0",
      "1.0",
      "2.50",
      "1e400",
      "0.30000000000000004",
      "1234567890123456",
      "-1234567890123456",
      "9007199254740993",
      "12345678901234567890",
      "\"a\\u0000b\"",
  };
  for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
    char doc[128], want[128];
    snprintf(doc, sizeof doc, "{\"id\":1,\"result\":[ %s ]}", same[i]);
    snprintf(want, sizeof want, "[%s]", same[i]);
    CHECK_STR(result_of(doc, &id), want);
    cJSON *tree = json_parse(want, strlen(want), NULL);
    strbuf b;
    sb_init(&b);
    CHECK(tree && json_write(&b, tree) == 0);
    CHECK_STR(b.data, want);
    sb_free(&b);
    cJSON_Delete(tree);
  }
  CHECK(accepts("{\"id\":1,\"result\":[123456789012345,-123456789012345]}"));
  /* Not number tokens. */
  static const char *const bad[] = {"01", "1.",  ".5",  "+1",
                                    "1e", "--1", "1-2", "0x1"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char doc[128];
    snprintf(doc, sizeof doc, "{\"id\":1,\"result\":[%s]}", bad[i]);
    CHECK(!accepts(doc));
  }
  CHECK(!accepts("{\"id\":-0,\"result\":{}}"));
}

TEST(test_minify_in_place) {
  /* The result minified to the front of the buffer it is in. */
  char doc[] = "{ \"id\" : 3 , \"result\" : { \"t\" : \"a b \\\" c\" ,\n"
               " \"n\" : [ 1 , 2.50 ] } }";
  json_raw_info in;
  CHECK(json_raw_response(doc, strlen(doc), &in));
  size_t n = json_raw_minify(doc + in.result_off, in.result_len, doc);
  doc[n] = '\0';
  CHECK_STR(doc, "{\"t\":\"a b \\\" c\",\"n\":[1,2.50]}");
}

/* Whether the result has whitespace outside its strings: none, and
 * minifying it would copy it as it is (the caller copies it instead). */
static int compact_of(const char *s) {
  json_raw_info in;
  if (!json_raw_response(s, strlen(s), &in))
    return -1;
  return in.compact;
}

TEST(test_compact_results_are_told) {
  CHECK(compact_of(
            "{\"id\":1,\"result\":{\"t\":\"a b \\\" c\",\"n\":[1,2]}}") == 1);
  /* Whitespace around the result, or in the other members, is not in it. */
  CHECK(compact_of("{ \"jsonrpc\" : \"2.0\" , \"id\" : 1 , \"result\" : "
                   "{\"a\":[]} }\n") == 1);
  CHECK(compact_of("{\"result\": \"x y\"\r\n, \"id\":2}") == 1);
  CHECK(compact_of("{\"id\":1,\"result\":{\"a\": 1}}") == 0);
  CHECK(compact_of("{\"id\":1,\"result\":[1 ]}") == 0);
  CHECK(compact_of("{\"id\":1,\"result\":{\"a\":{}\n}}") == 0);
  CHECK(compact_of("{\"id\":1,\"result\":[\t]}") == 0);
}

TEST(test_escaped_top_level_keys_are_left_to_the_tree) {
  /* "\u0065rror" is "error", "\u0069d" is "id": only a decoder knows. */
  CHECK(!accepts("{\"id\":1,\"result\":{},\"\\u0065rror\":{\"code\":1}}"));
  CHECK(!accepts("{\"id\":1,\"result\":{},\"\\u006dethod\":\"x\"}"));
  CHECK(!accepts("{\"\\u0069d\":2,\"id\":1,\"result\":{}}"));
}

TEST(test_only_plain_responses) {
  CHECK(!accepts("{\"id\":1,\"error\":{\"code\":1,\"message\":\"x\"}}"));
  CHECK(!accepts("{\"id\":1,\"result\":{},\"method\":\"x\"}"));
  CHECK(!accepts("{\"id\":1,\"id\":2,\"result\":{}}"));
  CHECK(!accepts("{\"id\":1,\"result\":{},\"result\":{}}"));
  CHECK(!accepts("{\"id\":\"s\",\"result\":{}}"));
  CHECK(!accepts("{\"id\":1.5,\"result\":{}}"));
  CHECK(!accepts("{\"id\":1e3,\"result\":{}}"));
  CHECK(!accepts("{\"id\":12345678901234567890,\"result\":{}}"));
  CHECK(!accepts("{\"result\":{}}"));
  CHECK(!accepts("{\"id\":1}"));
  CHECK(!accepts("{}"));
  CHECK(!accepts("[{\"id\":1,\"result\":{}}]"));
}

TEST(test_invalid_json_is_refused) {
  static const char *const bad[] = {
      "{\"id\":1,\"result\":[1,]}",        "{\"id\":1,\"result\":{\"a\":1,}}",
      "{\"id\":1,\"result\":\"open}",      "{\"id\":1,\"result\":01}",
      "{\"id\":1,\"result\":-}",           "{\"id\":1,\"result\":1.}",
      "{\"id\":1,\"result\":1e}",          "{\"id\":1,\"result\":tru}",
      "{\"id\":1,\"result\":\"a\tb\"}",    "{\"id\":1,\"result\":\"\\x\"}",
      "{\"id\":1,\"result\":\"\\u12\"}",   "{\"id\":1,\"result\":{1:2}}",
      "{\"id\":1,\"result\":{}} trailing", "{\"id\":1,\"result\":[}",
      "{\"id\":1,\"result\":{\"a\" 1}}",   "{\"id\":1 \"result\":{}}",
      "{\"id\":1,\"result\":[1 2]}",       "{\"id\":1,\"result\":",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (accepts(bad[i])) {
      fprintf(stderr, "  accepted: %s\n", bad[i]);
      CHECK(!"invalid JSON accepted");
    }
}

TEST(test_every_position_of_a_long_string_is_checked) {
  /* The scanner reads eight bytes at a time: put each kind of byte that
   * ends a run at every offset. */
  static const char *const bad[] = {"\x01", "\x1f", "\x80", "\xff", "\t"};
  for (int at = 0; at < 24; at++) {
    char text[64];
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
      memset(text, 'a', 24);
      text[at] = bad[k][0];
      text[24] = '\0';
      char doc[128];
      snprintf(doc, sizeof doc, "{\"id\":1,\"result\":\"%s\"}", text);
      CHECK(!accepts(doc) && !accepts_utf8(doc));
    }
    memset(text, 'a', 25);
    memcpy(text + at, "\xC3\xA9", 2); /* valid UTF-8 at every offset */
    text[25] = '\0';
    char good[128];
    snprintf(good, sizeof good, "{\"id\":1,\"result\":\"%s\"}", text);
    CHECK(accepts_utf8(good));
    memset(text, 'a', 26);
    memcpy(text + at, "\\\"", 2); /* an escaped quote */
    text[26] = '\0';
    char doc[128];
    snprintf(doc, sizeof doc, "{\"id\":1,\"result\":\"%s\"}", text);
    int64_t id;
    CHECK(result_of(doc, &id) != NULL);
  }
}

static char *nested(int depth) {
  char *s = malloc((size_t)depth * 2 + 64);
  int n = sprintf(s, "{\"id\":1,\"result\":");
  for (int i = 0; i < depth; i++)
    s[n++] = '[';
  for (int i = 0; i < depth; i++)
    s[n++] = ']';
  strcpy(s + n, "}");
  return s;
}

TEST(test_nesting_is_counted) {
  char *ok = nested(100), *deep = nested(JSON_RAW_MAX_DEPTH + 10);
  CHECK(accepts(ok));
  CHECK(!accepts(deep)); /* left to the ordinary path and its limit */
  free(ok);
  free(deep);
}

TEST(test_passed_on_text_is_what_cjson_prints) {
  static const char *const docs[] = {
      "{\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"x\\\"y\"}],"
      " \"isError\" : false , \"n\" : [ 0 , -5 , 1000000000 , { } , [ ] ] }}",
      "{\"id\":2,\"result\":\"\\\\\\\\\"}",
      "{\"id\":3,\"result\":{\"a\":{\"b\":{\"c\":[[[\"\\t\\u001f\"]]]}}}}",
  };
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    int64_t id;
    const char *min = result_of(docs[i], &id);
    cJSON *whole = cJSON_Parse(docs[i]);
    char *printed =
        cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(whole, "result"));
    CHECK_STR(min, printed); /* the very bytes the ordinary path prints */
    cJSON_free(printed);
    cJSON_Delete(whole);
  }
}

/* The scan for the end of a plain run (json_scan.h), in its 16-byte,
 * 8-byte and 1-byte steps, against a byte-by-byte one: every byte that
 * may end a run, at every offset of runs of every length up to 40, for
 * each caller's set of stops. */
TEST(test_scan_run_stops_at_the_first_stop_everywhere) {
  static const unsigned char stops[] = {'"',  '\\', 0x00, 0x1f, 0x7f, 0x80,
                                        0xbf, 0xc0, 0xc1, 0xff, ' ',  'a'};
  static const unsigned flags[] = {0, JSON_SCAN_HIGH, JSON_SCAN_C0};
  unsigned char buf[48];
  for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
    for (size_t k = 0; k < sizeof stops; k++) {
      for (size_t len = 0; len <= 40; len++) {
        for (size_t at = 0; at <= len; at++) {
          memset(buf, 'x', sizeof buf);
          if (at < len)
            buf[at] = stops[k];
          const unsigned char *want = buf;
          while (want < buf + len && !(json_scan_stop[*want] & (1u | flags[f])))
            want++;
          const unsigned char *got = json_scan_run(buf, buf + len, flags[f]);
          if (got != want) {
            fprintf(stderr, "  flags %u, byte 0x%02x at %zu of %zu: %td\n",
                    flags[f], stops[k], at, len, got - buf);
          }
          CHECK(got == want);
        }
      }
    }
  }
  /* What each stop set is. */
  CHECK(json_scan_stop['"'] & 1 && json_scan_stop['\\'] & 1 &&
        json_scan_stop[0x1f] & 1 && !json_scan_stop[0x7f]);
  CHECK(json_scan_stop[0x80] == JSON_SCAN_HIGH &&
        json_scan_stop[0xc0] == (JSON_SCAN_HIGH | JSON_SCAN_C0));
}

/* One value's length (json_raw_value), for a caller that reads the
 * members around it itself: what follows is not its; a value it takes
 * json_parse takes too; depth counts. */
TEST(test_one_value_is_measured) {
  static const struct {
    const char *text;
    size_t len;
  } cases[] = {
      {"{\"message\": \"m1\"}, \"id\": 1}", 17},
      {"  [1, -0, 2.5e3, true, null]}", 28},
      {"\"a\\u0000b\\n\" ,", 12},
      {"12}", 2},
      {"{}", 2},
      {"\"\\u00e9\"", 0}, /* an escape json_write writes otherwise */
      {"\"\\/\"", 0},     /* ditto */
      {"{\"a\":01}", 0},  /* not JSON */
      {"{\"a\":1,}", 0},  /* ditto */
      {"\"\xff\"", 0},    /* not UTF-8 */
      {"[1", 0},          /* cut */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *t = cases[i].text;
    size_t n = json_raw_value(t, strlen(t), JSON_PARSE_MAX_DEPTH - 1);
    if (n != cases[i].len) {
      fprintf(stderr, "  %s: %zu, wanted %zu\n", t, n, cases[i].len);
    }
    CHECK(n == cases[i].len);
    if (n) {
      cJSON *v = json_parse(t, n, NULL);
      CHECK(v != NULL);
      cJSON_Delete(v);
    }
  }
  CHECK(json_raw_value("[[[1]]]", 7, 3) == 7);
  CHECK(json_raw_value("[[[[1]]]]", 9, 3) == 0);
}

/* The sixteen-byte walk over a string's escapes: each escape, good and
 * bad, at every offset of strings long enough to take it, so that an
 * escape's letter falls on either side of a step's end; the ordinary
 * parser is the judge of what is valid, and a string accepted ends where
 * its closing quote is. */
TEST(test_escapes_at_every_offset_are_walked) {
  static const char *const escapes[] = {
      "\\\"",     "\\\\",   "\\n", "\\t", "\\b",     "\\f", "\\r",    "\\u001f",
      "\\\\\\\"", "\\\\\"", "\\x", "\\/", "\\u0041", "\\",  "\\\x01",
  };
  for (size_t e = 0; e < sizeof escapes / sizeof *escapes; e++) {
    for (int at = 0; at < 40; at++) {
      for (int after = 0; after < 20; after += 3) {
        char text[128];
        memset(text, 'a', (size_t)at);
        size_t n = (size_t)at + strlen(escapes[e]);
        memcpy(text + at, escapes[e], strlen(escapes[e]));
        memset(text + n, 'b', (size_t)after);
        text[n + (size_t)after] = '\0';
        char doc[256];
        snprintf(doc, sizeof doc, "{\"id\":1,\"result\":[\"%s\",7]}", text);
        cJSON *tree = json_parse(doc, strlen(doc), NULL);
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(tree, "result");
        int64_t id;
        const char *min = result_of(doc, &id);
        if (min) {
          /* Accepted: the parser agrees, and the string ends where it
           * says (the 7 after it is found as the next element). */
          CHECK(tree && cJSON_GetArraySize(r) == 2);
          char want[256];
          snprintf(want, sizeof want, "[\"%s\",7]", text);
          CHECK_STR(min, want);
        } else {
          /* Refused: invalid, or a form json_write writes otherwise. */
          strbuf again;
          sb_init(&again);
          char want[256];
          snprintf(want, sizeof want, "[\"%s\",7]", text);
          CHECK(!tree ||
                (json_write(&again, r) == 0 && strcmp(again.data, want) != 0));
          sb_free(&again);
        }
        cJSON_Delete(tree);
      }
    }
  }
}

/* What the result's own members say, found by the same scan. */
static int facts_of(const char *result, bool *is_error, bool *type_other) {
  char doc[512];
  snprintf(doc, sizeof doc, "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":%s}",
           result);
  json_raw_info in;
  if (!json_raw_response(doc, strlen(doc), &in))
    return -1;
  *is_error = in.is_error;
  *type_other = in.type_other;
  return 0;
}

TEST(test_own_is_error_and_result_type_are_told) {
  static const struct {
    const char *result;
    bool is_error, type_other;
  } cases[] = {
      {"{\"content\":[],\"isError\":true}", true, false},
      {"{ \"isError\" : true }", true, false},
      {"{\"content\":[],\"isError\":false}", false, false},
      {"{\"content\":[]}", false, false},
      {"{\"isError\":\"true\"}", false, false},
      {"{\"isError\":1}", false, false},
      {"{\"isError\":false,\"isError\":true}", false, false}, /* the first */
      {"{\"isError\":true,\"isError\":false}", true, false},
      {"{\"s\":{\"isError\":true}}", false, false}, /* not its own */
      {"{\"t\":\"\\\"isError\\\":true\"}", false, false},
      {"[{\"isError\":true}]", false, false},
      {"{\"isError\":{}}", false, false},
      {"{\"resultType\":\"complete\"}", false, false},
      {"{\"resultType\":\"input_required\"}", false, true},
      {"{\"resultType\":\"completed\"}", false, true},
      {"{\"resultType\":5}", false, true},
      {"{\"resultType\":null}", false, true},
      {"{\"resultType\":[\"complete\"]}", false, true},
      {"{\"resultType\":\"complete\",\"resultType\":\"x\"}", false, false},
      {"{\"a\":{\"resultType\":\"x\"}}", false, false},
      {"{\"a\":[1,{\"b\":2}],\"isError\":true,\"resultType\":\"x\"}", true,
       true},
      {"{\"a\":{\"x\\ty\":true}}", false, false}, /* deeper: fine */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    bool is_error = !cases[i].is_error, type_other = !cases[i].type_other;
    if (facts_of(cases[i].result, &is_error, &type_other) != 0 ||
        is_error != cases[i].is_error || type_other != cases[i].type_other) {
      fprintf(stderr, "  result %s\n", cases[i].result);
      CHECK(!"wrong facts");
    }
  }
  /* An own key with an escape is taken, and is not one of them (the
   * escapes the scan takes never spell a letter). */
  bool a = true, b = true;
  CHECK(facts_of("{\"x\\ty\":true,\"isError\":true}", &a, &b) == 0 && a && !b);
  CHECK(facts_of("{\"isError\\n\":true,\"resultType\\\"\":1}", &a, &b) == 0 &&
        !a && !b);
}

int main(void) {
  static const test_case tests[] = {
      T(test_a_plain_response_is_found),
      T(test_minify_keeps_strings_whole),
      T(test_what_sanitizing_could_change_is_left_to_the_tree),
      T(test_only_plain_responses),
      T(test_valid_utf8_is_accepted_and_said_not_ascii),
      T(test_invalid_json_is_refused),
      T(test_nesting_is_counted),
      T(test_every_position_of_a_long_string_is_checked),
      T(test_passed_on_text_is_what_cjson_prints),
      T(test_what_json_write_writes_differently_is_left_to_the_tree),
      T(test_numbers_and_nul_pass_as_the_tree_writes_them),
      T(test_minify_in_place),
      T(test_compact_results_are_told),
      T(test_escaped_top_level_keys_are_left_to_the_tree),
      T(test_scan_run_stops_at_the_first_stop_everywhere),
      T(test_one_value_is_measured),
      T(test_escapes_at_every_offset_are_walked),
      T(test_own_is_error_and_result_type_are_told),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  result_of("", &(int64_t){0});
  return rc;
}
