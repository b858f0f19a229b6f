#include <stdlib.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "check.h"
#include "safety/sanitize.h"

#define FFFD "\uFFFD"

/* Sanitizes a C string; the result is freed by the next call. */
static const char *san(const char *s) {
  static char *last;
  free(last);
  last = sanitize_text(s, strlen(s), NULL);
  return last;
}

TEST(test_ascii_text_is_unchanged) {
  CHECK_STR(san("plain ASCII, tabs\tand\nnewlines {\"json\": 1}"),
            "plain ASCII, tabs\tand\nnewlines {\"json\": 1}");
}

TEST(test_zero_width_characters_are_removed) {
  /* ZWSP, ZWNJ, ZWJ, WORD JOINER, MONGOLIAN VOWEL SEPARATOR */
  CHECK_STR(san("a\u200Bb\u200Cc\u200Dd\u2060"
                "e\u180Ef"),
            "abcdef");
}

TEST(test_byte_order_mark_is_removed) {
  CHECK_STR(san("\uFEFFstart and mid\uFEFFdle"), "start and middle");
}

TEST(test_bidi_controls_are_removed) {
  /* LRE RLE PDF LRO RLO, LRI RLI FSI PDI, LRM RLM, ARABIC LETTER MARK */
  CHECK_STR(san("1\u202A2\u202B3\u202C4\u202D"
                "5\u202E6\u20667\u20678\u2068"
                "9\u2069a\u200Eb\u200Fc\u061Cd"),
            "123456789abcd");
}

TEST(test_private_use_code_points_are_removed) {
  /* U+E000, U+F8FF, U+F0000 (plane 15), U+10FFFD (plane 16) */
  CHECK_STR(san("p\uE000q\uF8FFr\U000F0000s\U0010FFFDt"), "pqrst");
}

TEST(test_unassigned_code_points_and_noncharacters_are_removed) {
  /* U+0378 (unassigned), U+FDD0 and U+FFFF (noncharacters), U+E0080 */
  CHECK_STR(san("u\u0378v\uFDD0w\uFFFFx\U000E0080y"), "uvwxy");
}

TEST(test_tag_characters_used_to_smuggle_text_are_removed) {
  /* U+E0001 LANGUAGE TAG, then "hi" as tag characters U+E0068 U+E0069 */
  CHECK_STR(san("ok\U000E0001\U000E0068\U000E0069"), "ok");
}

TEST(test_nfkc_folds_fullwidth_letters_and_digits) {
  CHECK_STR(san("\uFF21\uFF22\uFF43\uFF11\uFF12"), "ABc12");
}

TEST(test_nfkc_folds_ligatures_and_compatibility_forms) {
  /* U+FB01 fi, U+FB02 fl, U+2126 OHM SIGN, U+2460 circled 1 */
  CHECK_STR(san("\uFB01le \uFB02y \u2126 \u2460"), "file fly \u03A9 1");
}

TEST(test_nfkc_composes_a_letter_and_its_combining_mark) {
  CHECK_STR(san("cafe\u0301"), "caf\u00E9");
}

TEST(test_normalizing_repeats_until_stable) {
  /* The ZWSP keeps e and U+0301 apart during the first NFKC; once it is
   * removed they must compose in a second round. */
  CHECK_STR(san("e\u200B\u0301"), "\u00E9");
  CHECK_STR(san("e\u200B\u200B\uFEFF\u0301"), "\u00E9");
}

TEST(test_a_combining_mark_after_a_long_ascii_run_still_composes) {
  char text[1100];
  memset(text, 'x', 1000);
  strcpy(text + 1000, "e\u0301!");
  const char *r = san(text);
  CHECK(strlen(r) == 1000 + 3);
  CHECK_STR(r + 1000, "\u00E9!");
}

TEST(test_runs_far_apart_are_each_sanitized) {
  char text[3000];
  strcpy(text, "\uFF46"); /* fullwidth f */
  memset(text + 3, 'a', 1000);
  strcpy(text + 1003, "\u200B"); /* ZWSP */
  memset(text + 1006, 'b', 1000);
  strcpy(text + 2006, "\uFB01"); /* fi */
  const char *r = san(text);
  CHECK(strlen(r) == 1 + 1000 + 1000 + 2);
  CHECK(r[0] == 'f' && r[1] == 'a' && r[1000] == 'a' && r[1001] == 'b');
  CHECK_STR(r + 2001, "fi");
}

TEST(test_valid_non_ascii_text_is_kept) {
  const char *text = "Gr\u00F6\u00DFe \u65E5\u672C "
                     "\u0395\u03BB \U0001F600 \u2014 " FFFD;
  CHECK_STR(san(text), text);
}

/* Invalid UTF-8: each maximal ill-formed subpart becomes one U+FFFD
 * (Unicode's recommended practice, chapter 3, "U+FFFD Substitution"). */

TEST(test_overlong_encodings_are_replaced) {
  CHECK_STR(san("a\xC0\xAF"
                "b"),
            "a" FFFD FFFD "b");
  CHECK_STR(san("a\xC1\xBF"
                "b"),
            "a" FFFD FFFD "b");
  CHECK_STR(san("a\xE0\x80\xAF"
                "b"),
            "a" FFFD FFFD FFFD "b");
  CHECK_STR(san("a\xF0\x80\x80\xAF"
                "b"),
            "a" FFFD FFFD FFFD FFFD "b");
}

TEST(test_encoded_surrogates_are_replaced) {
  CHECK_STR(san("a\xED\xA0\x80"
                "b"),
            "a" FFFD FFFD FFFD "b");
  CHECK_STR(san("\xED\xBF\xBF"), FFFD FFFD FFFD);
}

TEST(test_code_points_beyond_u10ffff_are_replaced) {
  CHECK_STR(san("a\xF4\x90\x80\x80"
                "b"),
            "a" FFFD FFFD FFFD FFFD "b");
  CHECK_STR(san("a\xF5\x80"
                "b"),
            "a" FFFD FFFD "b");
  CHECK_STR(san("\xF8\x88\x80\x80\x80"), FFFD FFFD FFFD FFFD FFFD);
}

TEST(test_truncated_sequences_are_replaced) {
  CHECK_STR(san("a\xE2\x82"), "a" FFFD);
  CHECK_STR(san("a\xE2\x82"
                "b"),
            "a" FFFD "b");
  CHECK_STR(san("\xF0\x9F\x98"
                " \xC3"),
            FFFD " " FFFD);
}

TEST(test_stray_bytes_are_replaced) {
  CHECK_STR(san("\x80"
                "a\xBF"
                "b\xFE"
                "c\xFF"),
            FFFD "a" FFFD "b" FFFD "c" FFFD);
}

TEST(test_text_with_nul_bytes_keeps_its_length) {
  size_t n;
  char *r = sanitize_text("a\0\u200Bb", 6, &n);
  CHECK(n == 3);
  CHECK(memcmp(r, "a\0b", 3) == 0);
  free(r);
}

TEST(test_every_ascii_character_starts_a_normalization_boundary) {
  /* sanitize.c hands only the text around non-ASCII runs to ICU; that is
   * exact only because of this property of NFKC. */
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *n = unorm2_getNFKCInstance(&e);
  CHECK(U_SUCCESS(e));
  for (UChar32 c = 0; c < 0x80; c++)
    CHECK(unorm2_hasBoundaryBefore(n, c));
}

/* The reference: the whole string through ICU at once, no fast paths. */
static char *reference(const char *s, size_t len) {
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&e);
  int32_t cap = (int32_t)len * 18 + 16, n = 0;
  UChar *a = malloc((size_t)cap * sizeof *a),
        *b = malloc((size_t)cap * sizeof *b);
  u_strFromUTF8WithSub(a, cap, &n, s, (int32_t)len, 0xFFFD, NULL, &e);
  for (int round = 0; round < SANITIZE_MAX_ROUNDS; round++) {
    int32_t m = unorm2_normalize(nfkc, a, n, b, cap, &e), w = 0;
    for (int32_t r = 0; r < m;) {
      int32_t start = r;
      UChar32 c;
      U16_NEXT(b, r, m, c);
      int8_t t = u_charType(c);
      if (t != U_FORMAT_CHAR && t != U_PRIVATE_USE_CHAR && t != U_UNASSIGNED)
        while (start < r)
          a[w++] = b[start++];
    }
    bool stable = w == m;
    n = w;
    if (stable)
      break;
  }
  char *out = malloc((size_t)n * 3 + 1);
  int32_t n8 = 0;
  u_strToUTF8(out, n * 3 + 1, &n8, a, n, &e);
  out[n8] = '\0';
  free(a);
  free(b);
  CHECK(U_SUCCESS(e));
  return out;
}

TEST(test_segments_give_what_the_whole_string_gives) {
  /* Random text from pieces that interact across segment edges: letters
   * and combining marks, removable characters between them, invalid
   * bytes, and ASCII gaps shorter and longer than a segment gap. */
  static const char *pieces[] = {
      "e",          "\u0301", "\u0327", "\u200B", "\uFEFF",     "\uFF41",
      "\uFB01",     "\u00E9", "\u1100", "\u1161", "\u11A8",     "\xC1",
      "\xE2\x82",   "\x80",   "\u2460", "\u0378", "\U000E0041", " ",
      "\U0001F600", "\u3099", "\u304B",
  };
  unsigned seed = 12345;
  char buf[4096];
  for (int iter = 0; iter < 2000; iter++) {
    size_t len = 0;
    int npieces = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 40;
    for (int k = 0; k < npieces && len < sizeof buf - 600; k++) {
      seed = seed * 1103515245u + 12345u;
      unsigned r = seed >> 16;
      if (r % 7 == 0) { /* an ASCII gap, sometimes longer than SEG_GAP */
        size_t gap = r % 3 == 0 ? 300 + r % 200 : 1 + r % 5;
        memset(buf + len, 'a' + (int)(r % 26), gap);
        len += gap;
      } else {
        const char *p = pieces[r % (sizeof pieces / sizeof pieces[0])];
        memcpy(buf + len, p, strlen(p));
        len += strlen(p);
      }
    }
    buf[len] = '\0';
    char *want = reference(buf, len);
    const char *got = san(buf);
    if (strcmp(got, want) != 0) {
      CHECK_STR(got, want);
      free(want);
      break;
    }
    free(want);
  }
}

TEST(test_json_keys_and_values_are_sanitized_at_every_level) {
  cJSON *j = cJSON_Parse("{\"na\u200Bme\": \"to\u202Eol\","
                         " \"list\": [\"\uFEFFx\", {\"\uFF4B\": \"\uFF56\"}],"
                         " \"n\": 1, \"plain\": \"ascii\"}");
  CHECK(sanitize_json(j) == 5);
  char *out = cJSON_PrintUnformatted(j);
  CHECK_STR(out, "{\"name\":\"tool\",\"list\":[\"x\",{\"k\":\"v\"}],\"n\":1,"
                 "\"plain\":\"ascii\"}");
  free(out);
  cJSON_Delete(j);
}

TEST(test_json_escapes_are_sanitized_after_decoding) {
  cJSON *j = cJSON_Parse("{\"a\": \"x\\u200by\\ufeff\\ue000\"}");
  sanitize_json(j);
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(j, "a")), "xy");
  cJSON_Delete(j);
}

TEST(test_json_invalid_utf8_is_replaced) {
  cJSON *j = cJSON_Parse("[\"ok\xC0\xAF\"]");
  sanitize_json(j);
  CHECK_STR(cJSON_GetArrayItem(j, 0)->valuestring, "ok" FFFD FFFD);
  cJSON_Delete(j);
}

TEST(test_json_a_value_that_empties_stays_a_string) {
  cJSON *j = cJSON_Parse("{\"k\": \"\u200B\uFEFF\"}");
  sanitize_json(j);
  CHECK_STR(cJSON_GetObjectItem(j, "k")->valuestring, "");
  cJSON_Delete(j);
}

TEST(test_json_deep_trees_do_not_overflow_the_stack) {
  enum { DEPTH = 1000000 };
  cJSON *top = cJSON_CreateArray(), *cur = top;
  for (int i = 0; i < DEPTH; i++) {
    cJSON *next = cJSON_CreateArray();
    cJSON_AddItemToArray(cur, cJSON_CreateString("\uFF41")); /* fullwidth a */
    cJSON_AddItemToArray(cur, next);
    cur = next;
  }
  cJSON_AddItemToArray(cur, cJSON_CreateString("bottom\u200B"));
  CHECK(sanitize_json(top) == DEPTH + 1);
  CHECK_STR(cur->child->valuestring, "bottom");
  CHECK_STR(top->child->valuestring, "a");
  /* cJSON_Delete recurses: a tree this deep is freed level by level. Each
   * level holds its string, then the next level. */
  cJSON *level = top;
  while (level) {
    cJSON *next = level->child ? level->child->next : NULL;
    if (next)
      cJSON_DetachItemViaPointer(level, next);
    cJSON_Delete(level);
    level = next;
  }
}

TEST(test_json_wide_trees_are_walked_whole) {
  cJSON *arr = cJSON_CreateArray();
  for (int i = 0; i < 100000; i++)
    cJSON_AddItemToArray(arr, cJSON_CreateString(i % 2 ? "\u200Bx" : "y"));
  CHECK(sanitize_json(arr) == 50000);
  CHECK_STR(cJSON_GetArrayItem(arr, 1)->valuestring, "x");
  cJSON_Delete(arr);
}

TEST(test_json_null_is_ignored) {
  CHECK(sanitize_json(NULL) == 0);
}

/* The text of "v" in {"v": <text>} after sanitize_json_utf8. */
static char *utf8_only(const char *text) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "v", text);
  sanitize_json_utf8(j);
  char *r = strdup(cJSON_GetObjectItem(j, "v")->valuestring);
  cJSON_Delete(j);
  return r;
}

TEST(test_utf8_only_keeps_valid_text_as_sent) {
  /* Superscript, ligature, full-width, ZWJ emoji, bidi, zero-width. */
  const char *s = "x\xc2\xb2 \xef\xac\x81 \xef\xbc\xa1 "
                  "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9 "
                  "\xe2\x80\xae \xe2\x80\x8b e\xcc\x81";
  char *r = utf8_only(s);
  CHECK_STR(r, s);
  free(r);
}

TEST(test_u0000_held_as_c0_80_is_kept_by_either_rule) {
  /* json_parse.h holds U+0000 as C0 80: a control, kept; the text on
   * either side is sanitized as it would be alone. */
  CHECK_STR(san("a\xC0\x80\u200Bb\xC0\x80\uFF41"), "a\xC0\x80"
                                                   "b\xC0\x80"
                                                   "a");
  char *r = utf8_only("\xC0\x80\xC3\xA9\xC0\x80\xFF");
  CHECK_STR(r, "\xC0\x80\xC3\xA9\xC0\x80\xEF\xBF\xBD");
  free(r);
}

TEST(test_utf8_only_replaces_each_ill_formed_subpart) {
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"a\xc0\xaf"
       "b",
       "a\xef\xbf\xbd\xef\xbf\xbd"
       "b"},
      {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
      {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
      {"\xe2\x82"
       "x",
       "\xef\xbf\xbd"
       "x"},
      {"\xf0\x9f\x98", "\xef\xbf\xbd"},
      {"\xff\xfe", "\xef\xbf\xbd\xef\xbf\xbd"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *r = utf8_only(cases[i].in);
    /* The same as the full sanitizer's first step. */
    char *full = sanitize_text(cases[i].in, strlen(cases[i].in), NULL);
    CHECK_STR(r, cases[i].out);
    CHECK_STR(full, cases[i].out);
    free(r);
    free(full);
  }
}

TEST(test_modes_choose_the_rule_per_kind) {
  CHECK(sanitize_is_full(SANITIZE_MODE_DEFAULT, SANITIZE_NAMES));
  CHECK(!sanitize_is_full(SANITIZE_MODE_DEFAULT, SANITIZE_RESULT));
  CHECK(sanitize_is_full(SANITIZE_MODE_DEFAULT, SANITIZE_MODEL));
  CHECK(sanitize_is_full(SANITIZE_MODE_FULL, SANITIZE_RESULT));
  CHECK(!sanitize_is_full(SANITIZE_MODE_DISPLAY, SANITIZE_NAMES));
  CHECK(!sanitize_is_full(SANITIZE_MODE_OFF, SANITIZE_NAMES));
  /* What reaches a model is sanitized whatever the display option. */
  CHECK(sanitize_is_full(SANITIZE_MODE_DISPLAY, SANITIZE_MODEL));
  CHECK(sanitize_is_full(SANITIZE_MODE_OFF, SANITIZE_MODEL));
  sanitize_mode m;
  CHECK(sanitize_mode_parse("full", &m) && m == SANITIZE_MODE_FULL);
  CHECK(sanitize_mode_parse("display", &m) && m == SANITIZE_MODE_DISPLAY);
  CHECK(sanitize_mode_parse("off", &m) && m == SANITIZE_MODE_OFF);
  CHECK(!sanitize_mode_parse("none", &m));
}

TEST(test_message_id_is_never_touched) {
  cJSON *j =
      cJSON_Parse("{\"id\":\"a\u200bb\",\"result\":{\"t\":\"a\u200bb\"}}");
  sanitize_message(j, SANITIZE_MODE_DEFAULT, SANITIZE_NAMES);
  CHECK_STR(cJSON_GetObjectItem(j, "id")->valuestring, "a\xe2\x80\x8b"
                                                       "b");
  CHECK_STR(
      cJSON_GetObjectItem(cJSON_GetObjectItem(j, "result"), "t")->valuestring,
      "ab");
  cJSON_Delete(j);
  j = cJSON_Parse("{\"id\":1,\"result\":{\"t\":\"a\u200bb\"}}");
  sanitize_message(j, SANITIZE_MODE_DEFAULT, SANITIZE_RESULT);
  CHECK_STR(
      cJSON_GetObjectItem(cJSON_GetObjectItem(j, "result"), "t")->valuestring,
      "a\xe2\x80\x8b"
      "b");
  cJSON_Delete(j);
}

RUN(T(test_ascii_text_is_unchanged), T(test_zero_width_characters_are_removed),
    T(test_byte_order_mark_is_removed), T(test_bidi_controls_are_removed),
    T(test_private_use_code_points_are_removed),
    T(test_unassigned_code_points_and_noncharacters_are_removed),
    T(test_tag_characters_used_to_smuggle_text_are_removed),
    T(test_nfkc_folds_fullwidth_letters_and_digits),
    T(test_nfkc_folds_ligatures_and_compatibility_forms),
    T(test_nfkc_composes_a_letter_and_its_combining_mark),
    T(test_normalizing_repeats_until_stable),
    T(test_a_combining_mark_after_a_long_ascii_run_still_composes),
    T(test_runs_far_apart_are_each_sanitized),
    T(test_valid_non_ascii_text_is_kept),
    T(test_overlong_encodings_are_replaced),
    T(test_encoded_surrogates_are_replaced),
    T(test_code_points_beyond_u10ffff_are_replaced),
    T(test_truncated_sequences_are_replaced), T(test_stray_bytes_are_replaced),
    T(test_text_with_nul_bytes_keeps_its_length),
    T(test_every_ascii_character_starts_a_normalization_boundary),
    T(test_segments_give_what_the_whole_string_gives),
    T(test_json_keys_and_values_are_sanitized_at_every_level),
    T(test_json_escapes_are_sanitized_after_decoding),
    T(test_json_invalid_utf8_is_replaced),
    T(test_json_a_value_that_empties_stays_a_string),
    T(test_json_deep_trees_do_not_overflow_the_stack),
    T(test_json_wide_trees_are_walked_whole), T(test_json_null_is_ignored),
    T(test_utf8_only_keeps_valid_text_as_sent),
    T(test_u0000_held_as_c0_80_is_kept_by_either_rule),
    T(test_utf8_only_replaces_each_ill_formed_subpart),
    T(test_modes_choose_the_rule_per_kind), T(test_message_id_is_never_touched))
