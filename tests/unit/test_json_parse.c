/* json_parse(): strict RFC 8259, the trees cJSON builds, and what cJSON
 * loses (a number's token, U+0000) carried inside them. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "json_parse.h"
#include "json_write.h"
#include "util.h"

static cJSON *parse(const char *s) {
  return json_parse(s, strlen(s), NULL);
}

/* The text json_parse then json_write make of `s`. */
static char *again(const char *s) {
  cJSON *v = parse(s);
  char *t = v ? json_print(v) : NULL;
  cJSON_Delete(v);
  return t;
}

TEST(test_a_number_keeps_its_token_only_where_the_double_loses_it) {
  static const struct {
    const char *in;
    bool kept;
  } cases[] = {
      {"0", false},
      {"-0", false},
      {"42", false},
      {"-123456789012345", false},
      {"0.5", false},
      {"2.5e-3", true}, /* printed 0.0025 */
      {"1e400", true},
      {"9007199254740991", true}, /* printed 9.00719925474099e+15 */
      {"9007199254740993", true},
      {"1152921504606846977", true},
      {"12345678901234567890", true},
      {"0.30000000000000004", true}, /* printed 0.3 */
      {"1.0", true},
      {"-0.0", true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cJSON *v = parse(cases[i].in);
    CHECK(cJSON_IsNumber(v));
    CHECK((v && v->valuestring != NULL) == cases[i].kept);
    if (v && v->valuestring) {
      CHECK_STR(v->valuestring, cases[i].in);
    }
    char *t = again(cases[i].in);
    CHECK_STR(t, cases[i].in);
    free(t);
    cJSON_Delete(v);
  }
}

TEST(test_a_number_has_the_double_and_int_cjson_gives_it) {
  static const char *in[] = {"0",           "-0",         "1",
                             "-1",          "2147483647", "2147483648",
                             "-2147483649", "1e400",      "-1e400",
                             "1e-400",      "0.1",        "9007199254740993",
                             "123.456e7"};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    cJSON *a = parse(in[i]), *b = cJSON_Parse(in[i]);
    CHECK(a && b);
    if (a && b) {
      CHECK(memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) == 0);
      CHECK(a->valueint == b->valueint);
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
  }
}

TEST(test_u0000_is_held_as_c0_80_in_values_and_keys) {
  cJSON *v = parse("{\"k\\u0000ey\": \"a\\u0000b\\u0000\"}");
  CHECK(v != NULL);
  const cJSON *m = v ? v->child : NULL;
  CHECK(m && strcmp(m->string, "k\xC0\x80"
                               "ey") == 0);
  CHECK(m && strcmp(m->valuestring, "a\xC0\x80"
                                    "b\xC0\x80") == 0);
  /* cJSON's own functions stay whole on it. */
  cJSON *d = cJSON_Duplicate(v, 1);
  char *t = json_print(d);
  CHECK_STR(t, "{\"k\\u0000ey\":\"a\\u0000b\\u0000\"}");
  free(t);
  char bytes[8];
  size_t n = json_nul_restore(bytes, m ? m->valuestring : "", 6);
  CHECK(n == 4 && memcmp(bytes, "a\0b\0", 4) == 0);
  /* The same bytes written out without a copy. */
  FILE *f = tmpfile();
  CHECK(f && json_nul_fwrite(f,
                             "\xC0\x80"
                             "a\xC0\x80\xC0\x80"
                             "b\xC0",
                             9));
  if (f) {
    rewind(f);
    n = fread(bytes, 1, sizeof bytes, f);
    CHECK(n == 6 && memcmp(bytes, "\0a\0\0b\xC0", 6) == 0);
    fclose(f);
  }
  cJSON_Delete(d);
  cJSON_Delete(v);
}

TEST(test_escapes_and_surrogate_pairs_decode_to_utf8) {
  cJSON *v =
      parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC\\ud83d\\ude00\"");
  CHECK(cJSON_IsString(v));
  CHECK_STR(v ? v->valuestring : NULL,
            "\"\\/\b\f\n\r\t\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  cJSON_Delete(v);
}

/* Where json_parse stops on `in` and what it says. */
static void check_refused(const char *in, size_t len, size_t offset,
                          const char *what) {
  json_error e = {0};
  cJSON *v = json_parse(in, len, &e);
  CHECK(v == NULL);
  if (e.offset != offset || !e.what || !strstr(e.what, what)) {
    fprintf(stderr, "  %s: at %zu \"%s\", wanted %zu \"%s\"\n", in, e.offset,
            e.what ? e.what : "(null)", offset, what);
    check_failures++;
  }
  cJSON_Delete(v);
}

#define REFUSED(in, offset, what) check_refused(in, sizeof in - 1, offset, what)

TEST(test_invalid_text_is_refused_where_it_goes_wrong) {
  REFUSED("", 0, "a value was expected");
  REFUSED("   ", 3, "a value was expected");
  REFUSED("[1,]", 3, "a value was expected");
  REFUSED("[1 2]", 3, "',' or ']'");
  REFUSED("{\"a\" 1}", 5, "':'");
  REFUSED("{\"a\":1,}", 7, "a key");
  REFUSED("{1:2}", 1, "a key");
  REFUSED("[1] x", 4, "text after the end of the document");
  REFUSED("01", 0, "not a JSON number");
  REFUSED("[-]", 1, "not a JSON number");
  REFUSED("1.", 0, "not a JSON number");
  REFUSED(".5", 0, "a value was expected");
  REFUSED("+1", 0, "a value was expected");
  REFUSED("1e", 0, "not a JSON number");
  REFUSED("tru", 0, "a value was expected");
  REFUSED("NaN", 0, "a value was expected");
  REFUSED("\"abc", 4, "not closed");
  REFUSED("\"a\tb\"", 2, "control character");
  REFUSED("\"\\x\"", 1, "unknown escape");
  REFUSED("\"\\u12G4\"", 1, "four hex digits");
  REFUSED("\"ab\\ud800\"", 3, "high surrogate without a low one");
  REFUSED("\"\\ud800\\u0041\"", 1, "high surrogate without a low one");
  REFUSED("\"\\udc00\"", 1, "low surrogate without a high one");
  REFUSED("\xEF\xBB\xBF{}", 0, "a value was expected"); /* a BOM */
  REFUSED("[1,\v2]", 3, "a value was expected");
  check_refused("[1]\0", 4, 3, "text after the end of the document");
  check_refused("\"a\0b\"", 5, 2, "control character");
}

/* A string's pieces: each escape as written and as decoded. */
static const char *const escapes[][2] = {{"\\n", "\n"},
                                         {"\\\"", "\""},
                                         {"\\\\", "\\"},
                                         {"\\/", "/"},
                                         {"\\u0000", "\xC0\x80"},
                                         {"\\u00e9", "\xC3\xA9"},
                                         {"\\ud83d\\ude00", "\xF0\x9F\x98\x80"},
                                         {"\\t", "\t"}};
#define NESC (sizeof escapes / sizeof escapes[0])

/* Whether the string value of `text` (a document of one string, or of
 * a key and that string) is `want`, parsed as json_parse does and, in a
 * buffer given up, as json_parse_owned does. */
static bool decodes_to(const char *text, const char *want) {
  size_t len = strlen(text);
  cJSON *v = json_parse(text, len, NULL);
  char *own = strdup(text);
  cJSON *w = json_parse_owned(own, len, NULL);
  const cJSON *a = cJSON_IsObject(v) ? v->child : v;
  const cJSON *b = cJSON_IsObject(w) ? w->child : w;
  bool ok = cJSON_IsString(a) && cJSON_IsString(b) &&
            strcmp(a->valuestring, want) == 0 &&
            strcmp(b->valuestring, want) == 0 &&
            (!a->string || strcmp(a->string, want) == 0);
  cJSON_Delete(v);
  cJSON_Delete(w);
  return ok;
}

TEST(test_a_string_decodes_the_same_at_every_offset_and_length) {
  /* Each escape at each offset around the 16-byte steps of the scan,
   * a run after it short and long, as a value and as a key. */
  strbuf in, want, doc;
  for (size_t e = 0; e < NESC; e++) {
    for (size_t before = 0; before < 40; before++) {
      for (size_t after = 0; after < 40; after += 3) {
        sb_init(&in);
        sb_init(&want);
        for (size_t i = 0; i < before; i++) {
          sb_addc(&in, (char)('a' + i % 26));
        }
        sb_adds(&in, escapes[e][0]);
        sb_adds(&in, escapes[e][0]);
        for (size_t i = 0; i < after; i++) {
          sb_addc(&in, (char)('A' + i % 26));
        }
        for (size_t i = 0; i < before; i++) {
          sb_addc(&want, (char)('a' + i % 26));
        }
        sb_adds(&want, escapes[e][1]);
        sb_adds(&want, escapes[e][1]);
        for (size_t i = 0; i < after; i++) {
          sb_addc(&want, (char)('A' + i % 26));
        }
        sb_init(&doc);
        sb_printf(&doc, "\"%s\"", in.data);
        CHECK(decodes_to(doc.data, want.data));
        sb_free(&doc);
        sb_init(&doc);
        sb_printf(&doc, "{\"%s\": \"%s\"}", in.data, in.data);
        CHECK(decodes_to(doc.data, want.data));
        sb_free(&doc);
        sb_free(&in);
        sb_free(&want);
      }
    }
  }
}

TEST(test_a_long_string_of_escapes_decodes_the_same_copied_or_in_place) {
  /* Escapes at irregular gaps, \" among them (each a '"' the search
   * for the end meets first), up to sizes either side of the one
   * json_parse_owned decodes in place. */
  size_t sizes[] = {100, 5000, JSON_PARSE_ADOPT_MIN - 7,
                    JSON_PARSE_ADOPT_MIN + 5, 3 * JSON_PARSE_ADOPT_MIN};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    strbuf in, want;
    sb_init(&in);
    sb_init(&want);
    unsigned seed = 7;
    while (in.len < sizes[k]) {
      seed = seed * 1103515245u + 12345u;
      size_t run = (seed >> 16) % 40;
      for (size_t i = 0; i < run; i++) {
        sb_addc(&in, (char)('a' + (i + in.len) % 26));
        sb_addc(&want, in.data[in.len - 1]);
      }
      size_t e = (seed >> 8) % NESC;
      sb_adds(&in, escapes[e][0]);
      sb_adds(&want, escapes[e][1]);
    }
    strbuf doc;
    sb_init(&doc);
    sb_printf(&doc, "[\"%s\", \"%s\"]", in.data, in.data);
    size_t len = doc.len;
    cJSON *v = json_parse(doc.data, len, NULL);
    cJSON *w = json_parse_owned(sb_take(&doc), len, NULL);
    for (int i = 0; i < 2; i++) {
      const cJSON *a = cJSON_GetArrayItem(v, i), *b = cJSON_GetArrayItem(w, i);
      CHECK(cJSON_IsString(a) && strcmp(a->valuestring, want.data) == 0);
      CHECK(cJSON_IsString(b) && strcmp(b->valuestring, want.data) == 0);
    }
    cJSON_Delete(v);
    cJSON_Delete(w);
    sb_free(&in);
    sb_free(&want);
  }
}

TEST(test_a_string_error_is_the_first_a_check_of_every_byte_finds) {
  /* A surrogate half is told only when the string has no other error,
   * wherever that one is (the scan's errors come first). */
  REFUSED("\"\\ud800 abcdefghijklmnopq \\x\"", 26, "unknown escape");
  REFUSED("\"\\udc00 abcdefghijklmnopq \\u12\"", 26, "four hex digits");
  REFUSED("\"\\ud800\\uzzzz\"", 7, "four hex digits");
  REFUSED("\"\\udc00 abcdefghijklmnopq\tb\"", 25, "control character");
  REFUSED("\"\\ud800 abcdefghijklmnopqrstuvwxyz", 34, "not closed");
  REFUSED("\"\\ud800 abc\\udc00 \\ud800\"", 1, "high surrogate");
  REFUSED("\"abcdefghijklmnopqrstuvwxyz\\", 28, "not closed");
  REFUSED("\"abcdefghijklmnopqrstuvwxyz\\\"", 29, "not closed");
  REFUSED("[\"a\\\"bcdefghijklmnopqrstuvwxyz\\\"\\u00e9\\q\"]", 38,
          "unknown escape");
}

TEST(test_nesting_is_refused_beyond_the_limit) {
  strbuf b;
  sb_init(&b);
  for (int i = 0; i < JSON_PARSE_MAX_DEPTH; i++) {
    sb_addc(&b, '[');
  }
  for (int i = 0; i < JSON_PARSE_MAX_DEPTH; i++) {
    sb_addc(&b, ']');
  }
  cJSON *v = json_parse(b.data, b.len, NULL);
  CHECK(v != NULL); /* as deep as cJSON goes */
  cJSON_Delete(v);
  strbuf d;
  sb_init(&d);
  sb_addc(&d, '[');
  sb_add(&d, b.data, b.len);
  sb_addc(&d, ']');
  json_error e;
  CHECK(json_parse(d.data, d.len, &e) == NULL);
  CHECK(e.offset == JSON_PARSE_MAX_DEPTH);
  CHECK_STR(e.what, "nested too deeply");
  CHECK(cJSON_Parse(d.data) == NULL); /* nor does cJSON */
  sb_free(&b);
  sb_free(&d);
}

TEST(test_valid_text_makes_the_tree_cjson_makes) {
  static const char *in[] = {
      "{}",
      "[]",
      " \t\r\n[ 1 , -2.5 , true , false , null , \"x\" ] ",
      "{\"a\":{\"b\":[{},[],\"\\u00e9\"]},\"c\":1}",
      "\"caf\xC3\xA9 \xF0\x9F\x98\x80\"",
  };
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    cJSON *a = parse(in[i]), *b = cJSON_Parse(in[i]);
    CHECK(a && b && cJSON_Compare(a, b, 1));
    char *x = json_print(a), *y = cJSON_PrintUnformatted(b);
    CHECK_STR(x, y);
    free(x);
    cJSON_free(y);
    cJSON_Delete(a);
    cJSON_Delete(b);
  }
}

/* A member whose key MCP repeats ("name", "type", ...) holds it as a
 * constant: the tree is cJSON's all the same, and every cJSON call that
 * renames, replaces, copies or deletes such a member works (under ASan:
 * no free of the constant). A key with an escape, or a longer one, is
 * the tree's own as before. */
TEST(test_a_known_key_is_a_constant_every_cjson_call_takes) {
  const char *in = "{\"name\":\"a\",\"typ\\u0065\":\"object\",\"names\":2,"
                   "\"description\":{\"text\":[]}}";
  cJSON *a = parse(in), *b = cJSON_Parse(in);
  CHECK(a && b && cJSON_Compare(a, b, 1));
  cJSON *name = cJSON_GetObjectItemCaseSensitive(a, "name");
  CHECK(name && (name->type & cJSON_StringIsConst) != 0);
  CHECK(cJSON_IsString(name));
  CHECK_STR(name->next->string, "type");
  CHECK((name->next->type & cJSON_StringIsConst) == 0);
  cJSON *copy = cJSON_Duplicate(a, 1);
  CHECK(cJSON_Compare(copy, b, 1));
  cJSON_ReplaceItemInObjectCaseSensitive(copy, "name", cJSON_CreateString("b"));
  cJSON_DeleteItemFromObjectCaseSensitive(copy, "description");
  cJSON *moved = cJSON_DetachItemFromObjectCaseSensitive(a, "name");
  cJSON_AddItemToObject(a, "renamed", moved);
  char *x = json_print(a), *y = json_print(copy);
  CHECK_STR(x, "{\"type\":\"object\",\"names\":2,"
               "\"description\":{\"text\":[]},\"renamed\":\"a\"}");
  CHECK_STR(y, "{\"name\":\"b\",\"type\":\"object\",\"names\":2}");
  free(x);
  free(y);
  cJSON_Delete(copy);
  cJSON_Delete(a);
  cJSON_Delete(b);
}

TEST(test_the_error_text_says_line_and_column) {
  const char *in = "{\n  \"\xC3\xA9\": 01\n}";
  json_error e;
  CHECK(json_parse(in, strlen(in), &e) == NULL);
  char *t = json_error_text(in, strlen(in), &e);
  CHECK_STR(t, "invalid JSON near line 2, column 8: not a JSON number (no '+', "
               "leading zero, \"1.\" or \".5\")");
  free(t);
}

TEST(test_a_number_a_person_typed_is_kept_as_typed) {
  cJSON *v = json_number_from_token("12345678901234567890");
  char *t = json_print(v);
  CHECK_STR(t, "12345678901234567890");
  free(t);
  cJSON_Delete(v);
  CHECK(json_number_from_token("02134") == NULL);
  CHECK(json_number_from_token("1 ") == NULL);
  CHECK(json_number_from_token("") == NULL);
  CHECK(json_number_from_token("0x10") == NULL);
  CHECK(json_is_number_token("-0.5e+3", 7));
  CHECK(!json_is_number_token("-", 1));
}

/* Any number token, written back as it came: random integers,
 * fractions and exponents of every length around the 15 and 17 digit
 * edges, signs, leading fraction zeros and trailing zeros. */
TEST(test_every_number_token_is_written_back_as_it_came) {
  unsigned seed = 2026;
  char tok[80];
  for (int iter = 0; iter < 200000; iter++) {
    size_t n = 0;
    seed = seed * 1103515245u + 12345u;
    unsigned r = seed >> 8;
    if (r & 1) {
      tok[n++] = '-';
    }
    size_t whole = 1 + (r >> 1) % 20;
    for (size_t i = 0; i < whole; i++) {
      seed = seed * 1103515245u + 12345u;
      tok[n++] = (char)('0' + (i == 0 && whole > 1 ? 1 + (seed >> 8) % 9
                                                   : (seed >> 8) % 10));
    }
    if ((r >> 6) % 3) {
      tok[n++] = '.';
      size_t frac = 1 + (r >> 8) % 20;
      for (size_t i = 0; i < frac; i++) {
        seed = seed * 1103515245u + 12345u;
        tok[n++] = (char)('0' + ((r >> 13) % 4 == 0 ? 0 : (seed >> 8) % 10));
      }
    }
    if ((r >> 16) % 4 == 0) {
      n += (size_t)snprintf(tok + n, sizeof tok - n, "%s%u",
                            (r >> 18) % 3 == 0   ? "e"
                            : (r >> 18) % 3 == 1 ? "E+"
                                                 : "e-",
                            (r >> 20) % 400);
    }
    tok[n] = '\0';
    char *t = again(tok);
    if (!t || strcmp(t, tok) != 0) {
      CHECK_STR(t, tok);
      free(t);
      break;
    }
    free(t);
  }
}

/* A message of `fill` bytes of text in one string, with escapes, U+0000,
 * a surrogate pair and big numbers around it; in a new buffer. */
static char *big_message(size_t fill, const char *after) {
  strbuf b;
  sb_init(&b);
  sb_adds(&b,
          "{\"id\": 7, \"result\": {\"n\": 12345678901234567890, "
          "\"content\": [{\"type\": \"text\", \"text\": \"a\\u0000b\\n\\\"");
  for (size_t i = 0; i < fill; i++) {
    sb_addc(&b, (char)('a' + i % 26));
  }
  sb_adds(&b, "\\ud83d\\ude00\\t\"}], \"f\": [1.0, -0, 1e400]}");
  sb_adds(&b, after);
  return b.data;
}

TEST(test_an_owned_buffer_becomes_its_large_string) {
  for (size_t fill = JSON_PARSE_ADOPT_MIN - 20;
       fill < JSON_PARSE_ADOPT_MIN + 20; fill += 3) {
    char *text = big_message(fill, "}");
    size_t len = strlen(text);
    cJSON *want = json_parse(text, len, NULL);
    cJSON *got = json_parse_owned(text, len, NULL); /* takes text */
    CHECK(want && got);
    char *w = json_print(want), *g = json_print(got);
    CHECK(w && g && strcmp(w, g) == 0);
    free(w);
    free(g);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(
            cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(got, "result"), "content"),
            0),
        "text");
    CHECK(cJSON_IsString(t) && strlen(t->valuestring) == fill + 11);
    CHECK(memcmp(t->valuestring,
                 "a\xC0\x80"
                 "b\n\"",
                 6) == 0);
    cJSON_Delete(want);
    cJSON_Delete(got);
  }
}

TEST(test_an_owned_buffer_that_fails_keeps_its_tokens) {
  /* The large string decoded in place, then an error after it: the
   * buffer is the caller's again, every byte outside that string as it
   * was, the string's own replaced by '.'. */
  char *text = big_message(JSON_PARSE_ADOPT_MIN + 100, "} x");
  char *copy = strdup(text);
  size_t len = strlen(text);
  json_error err;
  CHECK(json_parse_owned(text, len, &err) == NULL);
  CHECK(err.offset == len - 1);
  const char *open = strstr(copy, "\"a\\u0000") + 1;
  size_t from = (size_t)(open - copy), to = from;
  while (text[to] == '.') {
    to++;
  }
  CHECK(copy[to] == '"' && strncmp(copy + to, "\", \"f\"", 2) != 0);
  CHECK(memcmp(text, copy, from) == 0);
  CHECK(memcmp(text + to, copy + to, len - to) == 0);
  CHECK(strncmp(copy + to, "\"}]", 3) == 0);
  free(text);
  free(copy);
}

/* The text of a top member's value as it came (batch passes a request's
 * "arguments" on so): the first of that name, never a nested one. */
TEST(test_a_members_text_is_found_where_it_came) {
  const char *t = "{\"x\": {\"arguments\": 1}, \"arguments\" : { \"a\": [1, "
                  "2] } , \"arguments\": 3}";
  size_t off = 99, n = 99;
  cJSON *v = json_parse_span(t, strlen(t), NULL, "arguments", &off, &n);
  CHECK(cJSON_IsObject(v));
  CHECK(n == strlen("{ \"a\": [1, 2] }"));
  CHECK(strncmp(t + off, "{ \"a\": [1, 2] }", n) == 0);
  cJSON_Delete(v);
  v = json_parse_span("{\"id\": 1}", 9, NULL, "arguments", &off, &n);
  CHECK(v != NULL && n == 0);
  cJSON_Delete(v);
  v = json_parse_span("[{\"arguments\": 1}]", 18, NULL, "arguments", &off, &n);
  CHECK(v != NULL && n == 0);
  cJSON_Delete(v);
  CHECK(json_parse_span("{\"arguments\": 1", 15, NULL, "arguments", &off, &n) ==
        NULL);
  CHECK(n == 0);
}

/* The span's value is checked, not built: the tree has no such member
 * (batch passes it on as text), a later member of the same name is
 * built, and a bad value in it is the same error json_parse gives, at
 * the same byte. */
TEST(test_the_spans_value_is_checked_not_built) {
  const char *t = "{\"id\": 7, \"arguments\": {\"a\": [1, \"x\\u00e9\", "
                  "true, null, {\"b\": -2.5e3}]}, \"call\": \"s/t\"}";
  size_t off = 0, n = 0;
  cJSON *v = json_parse_span(t, strlen(t), NULL, "arguments", &off, &n);
  CHECK(cJSON_IsObject(v));
  CHECK(!cJSON_GetObjectItemCaseSensitive(v, "arguments"));
  CHECK(cJSON_GetObjectItemCaseSensitive(v, "id")->valueint == 7);
  CHECK(
      strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "call")),
             "s/t") == 0);
  CHECK(cJSON_GetArraySize(v) == 2);
  CHECK(t[off] == '{' && t[off + n - 1] == '}');
  cJSON_Delete(v);
  const char *dup = "{\"arguments\": {}, \"arguments\": 3}";
  v = json_parse_span(dup, strlen(dup), NULL, "arguments", &off, &n);
  CHECK(n == 2 && cJSON_GetArraySize(v) == 1);
  CHECK(cJSON_GetObjectItemCaseSensitive(v, "arguments")->valueint == 3);
  cJSON_Delete(v);
  const char *bad[] = {
      "{\"arguments\": {\"a\": \"\\ud800\"}}",
      "{\"arguments\": {\"a\": \"x\\q\"}}",
      "{\"arguments\": {\"a\": \"x\ty\"}}",
      "{\"arguments\": {\"a\": \"open}}",
      "{\"arguments\": {\"a\": 01}}",
      "{\"arguments\": {\"a\" 1}}",
      "{\"arguments\": [1 2]}",
      "{\"arguments\": tru}",
      "{\"arguments\": {\"a\": 1},}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    json_error want, got;
    CHECK(json_parse(bad[i], strlen(bad[i]), &want) == NULL);
    CHECK(json_parse_span(bad[i], strlen(bad[i]), &got, "arguments", &off,
                          &n) == NULL);
    CHECK(got.offset == want.offset && strcmp(got.what, want.what) == 0);
  }
}

TEST(test_an_owned_string_that_fails_itself_gives_the_same_error) {
  /* Decoded in place as it is checked: the error is the one json_parse
   * finds, and only the string's characters differ ('.'). */
  char *text = big_message(JSON_PARSE_ADOPT_MIN + 100, "}");
  char *bad = strstr(text, "\\ud83d");
  bad[1] = 'q';
  char *copy = strdup(text);
  size_t len = strlen(text);
  json_error want, got;
  CHECK(json_parse(copy, len, &want) == NULL);
  CHECK(json_parse_owned(text, len, &got) == NULL);
  CHECK(got.offset == want.offset && strcmp(got.what, want.what) == 0);
  size_t from = (size_t)(strstr(copy, "\"a\\u0000") + 1 - copy);
  CHECK(memcmp(text, copy, from) == 0);
  CHECK(memcmp(text + got.offset, copy + got.offset, len - got.offset) == 0);
  for (size_t i = from; i < got.offset; i++) {
    CHECK(text[i] == '.');
  }
  free(text);
  free(copy);
}

RUN(T(test_a_number_keeps_its_token_only_where_the_double_loses_it),
    T(test_an_owned_buffer_becomes_its_large_string),
    T(test_an_owned_buffer_that_fails_keeps_its_tokens),
    T(test_an_owned_string_that_fails_itself_gives_the_same_error),
    T(test_every_number_token_is_written_back_as_it_came),
    T(test_a_number_has_the_double_and_int_cjson_gives_it),
    T(test_u0000_is_held_as_c0_80_in_values_and_keys),
    T(test_escapes_and_surrogate_pairs_decode_to_utf8),
    T(test_invalid_text_is_refused_where_it_goes_wrong),
    T(test_a_string_decodes_the_same_at_every_offset_and_length),
    T(test_a_long_string_of_escapes_decodes_the_same_copied_or_in_place),
    T(test_a_string_error_is_the_first_a_check_of_every_byte_finds),
    T(test_nesting_is_refused_beyond_the_limit),
    T(test_valid_text_makes_the_tree_cjson_makes),
    T(test_a_known_key_is_a_constant_every_cjson_call_takes),
    T(test_the_error_text_says_line_and_column),
    T(test_a_number_a_person_typed_is_kept_as_typed),
    T(test_a_members_text_is_found_where_it_came),
    T(test_the_spans_value_is_checked_not_built))
