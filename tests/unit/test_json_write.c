/* json_write() against the cJSON it stands in for: every test builds a
 * tree and requires the very bytes cJSON_PrintUnformatted() gives. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <mcphost/abi.h>

#include "check.h"
#include "json_parse.h"
#include "json_write.h"

#define SHOW 160 /* characters of each text shown on a difference */

/* Whether json_write() appends exactly what cJSON_PrintUnformatted()
 * prints for `item`, after `prefix`; where cJSON prints nothing, it must
 * fail and leave the prefix alone. Shows both on a difference. */
static bool same_after(const char *prefix, const cJSON *item) {
  char *want = cJSON_PrintUnformatted(item);
  strbuf got;
  sb_init(&got);
  sb_adds(&got, prefix);
  size_t plen = strlen(prefix);
  int rc = json_write(&got, item);
  bool ok;
  if (want)
    ok = rc == 0 && got.len == plen + strlen(want) &&
         memcmp(got.data, prefix, plen) == 0 &&
         memcmp(got.data + plen, want, strlen(want)) == 0 &&
         got.data[got.len] == '\0';
  else
    ok = rc == MCPH_EINVAL && got.len == plen &&
         strcmp(sb_str(&got), prefix) == 0;
  if (!ok)
    fprintf(stderr, "  cJSON: %.*s\n  json_write (rc %d): %.*s\n", SHOW,
            want ? want : "(nothing)", rc, SHOW, sb_str(&got) + plen);
  cJSON_free(want);
  sb_free(&got);
  return ok;
}

/* json_write_pretty() against cJSON_Print(), the same way. */
static bool same_pretty(const cJSON *item) {
  char *want = cJSON_Print(item);
  strbuf got;
  sb_init(&got);
  int rc = json_write_pretty(&got, item);
  bool ok = want ? rc == 0 && strcmp(sb_str(&got), want) == 0
                 : rc == MCPH_EINVAL && got.len == 0;
  if (!ok)
    fprintf(stderr, "  cJSON_Print: %.*s\n  json_write_pretty: %.*s\n", SHOW,
            want ? want : "(nothing)", SHOW, sb_str(&got));
  cJSON_free(want);
  sb_free(&got);
  return ok;
}

static bool same(const cJSON *item) {
  return same_after("", item) && same_pretty(item);
}

/* Checks `item` and deletes it. */
#define CHECK_SAME(item)                                                       \
  do {                                                                         \
    cJSON *it_ = (item);                                                       \
    CHECK(it_ != NULL && same(it_));                                           \
    cJSON_Delete(it_);                                                         \
  } while (0)

static bool same_number(double d) {
  cJSON *n = cJSON_CreateNumber(d);
  bool ok = same(n);
  if (!ok) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    fprintf(stderr, "  for the double %.17g (bits %016llx)\n", d,
            (unsigned long long)bits);
  }
  cJSON_Delete(n);
  return ok;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void) { /* xorshift64: the same numbers every run */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

TEST(test_scalars_are_written_as_cjson_writes_them) {
  CHECK_SAME(cJSON_CreateNull());
  CHECK_SAME(cJSON_CreateTrue());
  CHECK_SAME(cJSON_CreateFalse());
  CHECK_SAME(cJSON_CreateString(""));
  CHECK_SAME(cJSON_CreateString("plain text"));
  CHECK_SAME(cJSON_CreateNumber(42));
}

TEST(test_nested_objects_and_arrays_are_written_as_cjson_writes_them) {
  CHECK_SAME(cJSON_CreateObject());
  CHECK_SAME(cJSON_CreateArray());
  CHECK_SAME(
      cJSON_Parse("{\"a\":{},\"b\":[],\"c\":[{}, [], [[]], {\"d\":{}}]}"));
  CHECK_SAME(cJSON_Parse(
      "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":"
      "\"text\",\"text\":\"hi\"}],\"isError\":false,\"structuredContent\":"
      "{\"n\":[1,2.5,-3,true,null,\"x\",{\"y\":[]}]}}}"));
  /* As deep as cJSON parses (its nesting limit is 1000). */
  strbuf deep;
  sb_init(&deep);
  for (int i = 0; i < 999; i++)
    sb_adds(&deep, i % 2 ? "{\"k\":" : "[");
  sb_adds(&deep, "1");
  for (int i = 998; i >= 0; i--)
    sb_adds(&deep, i % 2 ? "}" : "]");
  CHECK_SAME(cJSON_Parse(sb_str(&deep)));
  sb_free(&deep);
}

TEST(test_every_byte_of_a_string_is_escaped_as_cjson_escapes_it) {
  char all[256];
  for (int i = 1; i < 256; i++)
    all[i - 1] = (char)i;
  all[255] = '\0';
  CHECK_SAME(cJSON_CreateString(all));
  for (int c = 1; c < 0x80; c++) { /* each alone, and inside text */
    char one[2] = {(char)c, 0}, mid[8] = {'a', (char)c, 'b', (char)c, 0};
    CHECK_SAME(cJSON_CreateString(one));
    CHECK_SAME(cJSON_CreateString(mid));
  }
  CHECK_SAME(cJSON_CreateString("\"quoted\" back\\slash \\\" /slash/ \\\\"));
}

TEST(test_utf8_is_copied_as_cjson_copies_it) {
  CHECK_SAME(cJSON_CreateString("café ñ 漢字 😀 \xe2\x80\xae rtl \xef\xbb\xbf"));
  /* Bytes that are not UTF-8 go through unchanged, as in cJSON. */
  CHECK_SAME(cJSON_CreateString("\xff\xfe\xc0\xaf\xed\xa0\x80"));
  CHECK_SAME(cJSON_Parse("\"\\u00e9\\ud83d\\ude00\\u2028\\u001f\\u007f\""));
}

TEST(test_object_keys_are_escaped_like_strings) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "tab\there \"q\" \x01 é", 1);
  cJSON_AddNullToObject(o, "");
  cJSON_AddItemToObjectCS(o, "const key", cJSON_CreateTrue());
  /* A child with no key at all is written with "", as cJSON does. */
  cJSON_AddItemToArray(o, cJSON_CreateString("keyless"));
  CHECK_SAME(o);
}

TEST(test_integers_at_their_limits_are_written_as_cjson_writes_them) {
  static const double v[] = {0,
                             -0.0,
                             1,
                             -1,
                             9,
                             10,
                             -10,
                             100,
                             INT32_MAX,
                             (double)INT32_MAX + 1,
                             INT32_MIN,
                             (double)INT32_MIN - 1,
                             UINT32_MAX,
                             999999999999999.0,
                             -999999999999999.0,
                             1e15,
                             -1e15,
                             1e15 + 1,
                             1e16,
                             9007199254740991.0,
                             9007199254740992.0, /* 2^53 */
                             -9007199254740992.0,
                             9007199254740993.0,
                             (double)INT64_MAX,
                             (double)INT64_MIN,
                             1e19,
                             1e21,
                             1e300,
                             -1e300};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    CHECK(same_number(v[i]));
}

TEST(test_fractions_and_extremes_are_written_as_cjson_writes_them) {
  static const double v[] = {1.5,
                             -1.5,
                             0.1,
                             0.2,
                             0.30000000000000004,
                             1.0 / 3,
                             2.0 / 3,
                             123.456,
                             1e-7,
                             1e-300,
                             5e-324, /* the smallest subnormal */
                             DBL_MIN,
                             DBL_MAX,
                             -DBL_MAX,
                             DBL_EPSILON,
                             1 + DBL_EPSILON,
                             3.141592653589793,
                             0.1 + 0.7,
                             4.35,
                             1e15 + 0.5,
                             NAN,
                             -NAN,
                             INFINITY,
                             -INFINITY};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    CHECK(same_number(v[i]));
}

TEST(test_many_random_numbers_are_written_as_cjson_writes_them) {
  int bad = 0;
  for (int i = 0; i < 20000 && bad < 5; i++) {
    uint64_t bits = rng();
    double any;
    memcpy(&any, &bits, sizeof any); /* any bit pattern, NaNs included */
    /* Integers of every size, and decimals of a few digits. */
    double integer = (double)(int64_t)rng() / pow(10, (double)(rng() % 19));
    integer = trunc(integer);
    double decimal = (double)((int64_t)(rng() % 2000001) - 1000000) /
                     pow(10, (double)(rng() % 8));
    bad += !same_number(any) + !same_number(integer) + !same_number(decimal);
  }
  CHECK(bad == 0);
}

TEST(test_numbers_cjson_parsed_are_written_as_cjson_writes_them) {
  CHECK_SAME(cJSON_Parse("[0,-0,1E2,1e400,-1e400,0.1,1.000000000000001,"
                         "123456789012345678901234567890,2147483648,"
                         "-2147483649,4.9e-324,1e-400]"));
}

TEST(test_raw_items_are_written_as_they_are) {
  CHECK_SAME(cJSON_CreateRaw("{\"pre\": [1, 2]}"));
  CHECK_SAME(cJSON_CreateRaw(""));
  cJSON *o = cJSON_CreateObject();
  cJSON_AddRawToObject(o, "id", "12345678901234567890");
  cJSON_AddRawToObject(o, "junk", " not json ");
  CHECK_SAME(o);
}

TEST(test_references_are_written_as_what_they_refer_to) {
  cJSON *target = cJSON_Parse("{\"a\":[1,\"two\"]}");
  cJSON *a = cJSON_CreateArray();
  cJSON_AddItemReferenceToArray(a, target);
  cJSON_AddItemToArray(a, cJSON_CreateStringReference("ref \"text\""));
  CHECK_SAME(a);
  cJSON_Delete(target);
}

TEST(test_json_write_appends_after_what_is_there) {
  cJSON *o = cJSON_Parse("{\"k\":[1,\"v\"]}");
  CHECK(same_after("{\"id\":1,\"result\":", o));
  cJSON_Delete(o);
}

/* Where cJSON_PrintUnformatted() returns NULL, json_write() fails and
 * leaves the buffer as it was, even when part of the tree was written. */
TEST(test_what_cjson_cannot_print_fails_and_leaves_the_buffer_alone) {
  CHECK(same_after("before", NULL));
  cJSON *raw = cJSON_CreateRaw("x");
  cJSON_free(raw->valuestring);
  raw->valuestring = NULL;
  cJSON *a = cJSON_Parse("[1,\"long enough to be written first\",{}]");
  cJSON_AddItemToArray(a, raw);
  CHECK(same_after("before", a));
  cJSON_Delete(a);
  cJSON *invalid = cJSON_CreateObject();
  cJSON_AddNumberToObject(invalid, "n", 1)->type = cJSON_Invalid;
  CHECK(same_after("before", invalid));
  cJSON_Delete(invalid);
}

TEST(test_a_string_with_no_text_is_written_as_empty) {
  cJSON *s = cJSON_CreateString("x");
  cJSON_free(s->valuestring);
  s->valuestring = NULL;
  CHECK_SAME(s);
}

TEST(test_a_result_of_megabytes_is_written_as_cjson_writes_it) {
  static const char line[] =
      "The quick brown fox; \"quoted\", tab\there, \\ é 漢 \x01\x1f\x7f.\n";
  size_t n = (size_t)4 << 20, ll = sizeof line - 1;
  char *text = malloc(n + 1);
  for (size_t i = 0; i < n; i += ll)
    memcpy(text + i, line, n - i < ll ? n - i : ll);
  text[n] = '\0';
  cJSON *r = cJSON_CreateObject();
  cJSON *block = cJSON_CreateObject();
  cJSON_AddStringToObject(block, "type", "text");
  cJSON_AddStringToObject(block, "text", text);
  cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "content"), block);
  free(text);
  CHECK_SAME(r);
}

/* Where json_parse made the tree, the text it came from is written back;
 * cJSON knows neither a number's token nor a string's U+0000. */
static void check_round_trip(const char *text) {
  cJSON *v = json_parse(text, strlen(text), NULL);
  CHECK(v != NULL);
  char *got = json_print(v);
  CHECK_STR(got, text);
  free(got);
  cJSON_Delete(v);
}

TEST(test_number_tokens_and_u0000_are_written_back_as_parsed) {
  check_round_trip("[9007199254740991,9007199254740993,1152921504606846977,"
                   "12345678901234567890,1e400,-1e400,1E5,1e-400,-0,-0.0,"
                   "0.30000000000000004,1.0,2.50,0.1,-7,123456789012345]");
  check_round_trip("{\"a\\u0000b\":\"x\\u0000\\u0000y\\u0000\"}");
  strbuf b;
  sb_init(&b);
  const char *t = "[1e400, \"\\u0000\"]";
  cJSON *v = json_parse(t, strlen(t), NULL);
  CHECK(json_write_pretty(&b, v) == 0);
  CHECK_STR(sb_str(&b), "[1e400, \"\\u0000\"]");
  cJSON_Delete(v);
  sb_free(&b);
}

TEST(test_a_token_that_is_not_a_number_is_not_written) {
  /* Only a JSON number token is taken from valuestring: anything else
   * there (a bug elsewhere) gives the double, never foreign text. */
  cJSON *n = cJSON_CreateNumber(2);
  n->valuestring = strdup("2,\"injected\":1");
  char *got = json_print(n);
  CHECK_STR(got, "2");
  free(got);
  cJSON_Delete(n);
}

static bool collect(void *ud, const char *data, size_t len) {
  strbuf *b = ud;
  CHECK(len >= (size_t)64 << 10); /* handed on only in large pieces */
  sb_add(b, data, len);
  return true;
}

static bool refuse(void *ud, const char *data, size_t len) {
  (void)ud;
  (void)data;
  (void)len;
  return false;
}

TEST(test_a_sink_gets_the_same_text_in_pieces) {
  /* Strings of 200 KiB with escapes, and U+0000 (C0 80) across each
   * place a 64 KiB piece could end. */
  size_t n = 200 << 10;
  char *s = malloc(n + 1);
  for (size_t i = 0; i < n; i++)
    s[i] = "ab\"c\n\\d\x01"[i % 8];
  for (size_t at = (64 << 10) - 3; at < (64 << 10) + 3; at += 2) {
    s[at] = (char)0xC0;
    s[at + 1] = (char)0x80;
  }
  s[n] = '\0';
  cJSON *v = cJSON_CreateObject();
  cJSON_AddStringToObject(v, "a", s);
  cJSON *arr = cJSON_AddArrayToObject(v, "many");
  for (int i = 0; i < 20000; i++)
    cJSON_AddItemToArray(arr, cJSON_CreateString("x\ty"));
  for (int pretty = 0; pretty < 2; pretty++) {
    strbuf want, got, out;
    sb_init(&want);
    sb_init(&got);
    sb_init(&out);
    CHECK((pretty ? json_write_pretty(&want, v) : json_write(&want, v)) == 0);
    json_sink sink = {.write = collect, .ud = &got};
    sb_adds(&out, "head:");
    CHECK(json_write_to(&out, v, pretty, &sink) == 0);
    sb_add(&got, out.data, out.len); /* what is left is the caller's */
    CHECK(got.len == want.len + 5);
    CHECK(got.len > 5 && memcmp(got.data, "head:", 5) == 0 &&
          memcmp(got.data + 5, want.data, want.len) == 0);
    sb_free(&want);
    sb_free(&got);
    sb_free(&out);
  }
  /* A refused piece is said; an item that cannot be written is found
   * before anything goes out. */
  strbuf out;
  sb_init(&out);
  json_sink no = {.write = refuse};
  CHECK(json_write_to(&out, v, false, &no) == MCPH_EIO);
  cJSON *bad = cJSON_CreateRaw("x");
  cJSON_free(bad->valuestring);
  bad->valuestring = NULL;
  cJSON_AddItemToObject(v, "bad", bad);
  sb_free(&out);
  sb_init(&out);
  strbuf never;
  sb_init(&never);
  json_sink none = {.write = collect, .ud = &never};
  CHECK(json_write_to(&out, v, false, &none) == MCPH_EINVAL);
  CHECK(never.len == 0 && out.len == 0);
  sb_free(&out);
  sb_free(&never);
  cJSON_Delete(v);
  free(s);
}

RUN(T(test_scalars_are_written_as_cjson_writes_them),
    T(test_a_sink_gets_the_same_text_in_pieces),
    T(test_nested_objects_and_arrays_are_written_as_cjson_writes_them),
    T(test_every_byte_of_a_string_is_escaped_as_cjson_escapes_it),
    T(test_utf8_is_copied_as_cjson_copies_it),
    T(test_object_keys_are_escaped_like_strings),
    T(test_integers_at_their_limits_are_written_as_cjson_writes_them),
    T(test_fractions_and_extremes_are_written_as_cjson_writes_them),
    T(test_many_random_numbers_are_written_as_cjson_writes_them),
    T(test_numbers_cjson_parsed_are_written_as_cjson_writes_them),
    T(test_raw_items_are_written_as_they_are),
    T(test_references_are_written_as_what_they_refer_to),
    T(test_json_write_appends_after_what_is_there),
    T(test_what_cjson_cannot_print_fails_and_leaves_the_buffer_alone),
    T(test_a_string_with_no_text_is_written_as_empty),
    T(test_a_result_of_megabytes_is_written_as_cjson_writes_it),
    T(test_number_tokens_and_u0000_are_written_back_as_parsed),
    T(test_a_token_that_is_not_a_number_is_not_written))
