#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "text_escape.h"

/* Escapes a C string; the result is freed by the next call. */
static const char *esc(const char *s, unsigned flags) {
  static char *last;
  free(last);
  last = text_escape(s, strlen(s), flags, NULL);
  return last;
}

TEST(test_terminal_controls_become_visible) {
  CHECK_STR(esc("a\x1b[2Jb", 0), "a<U+001B>[2Jb");
  CHECK_STR(esc("\x07\x08\r\x7f", 0), "<U+0007><U+0008><U+000D><U+007F>");
  /* OSC window title, and the one-byte C1 forms CSI and OSC. */
  CHECK_STR(esc("\x1b]0;pwned\x07", 0), "<U+001B>]0;pwned<U+0007>");
  CHECK_STR(esc("x\xc2\x9b"
                "31m\xc2\x9d",
                0),
            "x<U+009B>31m<U+009D>");
}

TEST(test_newline_and_tab_pass_in_text_and_not_in_lines) {
  CHECK_STR(esc("a\nb\tc", 0), "a\nb\tc");
  CHECK_STR(esc("a\nb\tc", TEXT_ESCAPE_NEWLINES), "a<U+000A>b<U+0009>c");
}

TEST(test_invisible_and_bidi_only_when_asked) {
  const char *s = "ab\xe2\x80\xae"
                  "cd\xe2\x80\x8b"
                  "e\xef\xbb\xbf";
  CHECK_STR(esc(s, 0), s);
  CHECK_STR(esc(s, TEXT_ESCAPE_INVISIBLE), "ab<U+202E>cd<U+200B>e<U+FEFF>");
  /* Tag characters smuggle ASCII invisibly. */
  CHECK_STR(esc("x\xf3\xa0\x81\x81", TEXT_ESCAPE_INVISIBLE), "x<U+E0041>");
}

TEST(test_text_is_kept_as_sent) {
  /* No normalization: superscript, ligature, full-width, ZWJ emoji. */
  const char *s = "x\xc2\xb2 \xef\xac\x81 \xef\xbc\xa1 "
                  "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9 é";
  CHECK_STR(esc(s, TEXT_ESCAPE_INVISIBLE | TEXT_ESCAPE_NEWLINES), s);
  CHECK(!text_needs_escape(s, strlen(s), TEXT_ESCAPE_INVISIBLE));
}

TEST(test_invalid_utf8_bytes_are_shown_as_bytes) {
  CHECK_STR(esc("a\xff"
                "b",
                0),
            "a<0xFF>b");
  CHECK_STR(esc("\xc0\xaf", 0), "<0xC0><0xAF>");           /* overlong */
  CHECK_STR(esc("\xed\xa0\x80", 0), "<0xED><0xA0><0x80>"); /* surrogate */
  CHECK_STR(esc("\xe2\x82", 0), "<0xE2><0x82>");           /* cut short */
}

TEST(test_embedded_nul_is_escaped) {
  size_t len = 0;
  char *out = text_escape("a\0b", 3, 0, &len);
  CHECK_STR(out, "a<U+0000>b");
  CHECK(len == 10);
  free(out);
}

TEST(test_u0000_held_as_c0_80_is_shown_as_u0000) {
  /* A JSON string holds U+0000 as C0 80 (common/json_parse.h). */
  CHECK_STR(esc("a\xC0\x80"
                "b",
                0),
            "a<U+0000>b");
  CHECK_STR(esc("a\xC0\x80"
                "b",
                TEXT_ESCAPE_JSON),
            "a\\u0000b");
  CHECK(text_needs_escape("\xC0\x80", 2, 0));
  CHECK_STR(esc("\xC0"
                "a",
                0),
            "<0xC0>a");
}

TEST(test_needs_escape_agrees_with_escape) {
  const char *cases[] = {"plain", "tab\there",    "e\x1b",      "\xc2\x85",
                         "\xff",  "\xe2\x81\xa6", "caf\xc3\xa9"};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    for (unsigned f = 0; f < 8; f++) {
      const char *out = esc(cases[i], f);
      CHECK(text_needs_escape(cases[i], strlen(cases[i]), f) ==
            (strcmp(out, cases[i]) != 0));
    }
  }
}

/* Printable ASCII is stepped over eight bytes at a time: a byte to
 * escape is found at every place of a longer text, in a step and after
 * the last, whatever its value (below 0x20, 0x7F, from 0x80), and the
 * escape stands where the byte stood. */
TEST(test_a_byte_to_escape_is_found_anywhere_in_long_text) {
  char text[41], want[64];
  for (size_t len = 1; len < sizeof text; len++) {
    memset(text, 'a' + (int)(len % 26), len);
    text[len] = '\0';
    CHECK(!text_needs_escape(text, len, TEXT_ESCAPE_NEWLINES));
    CHECK_STR(esc(text, 0), text);
    for (size_t at = 0; at < len; at++) {
      for (unsigned b = 1; b < 256; b++) {
        if (b >= 0x20 && b < 0x7F) {
          continue;
        }
        text[at] = (char)b;
        CHECK(text_needs_escape(text, len, TEXT_ESCAPE_NEWLINES));
        text[at] = '~';
      }
      text[at] = '\x1b';
      snprintf(want, sizeof want, "%.*s<U+001B>%s", (int)at, text,
               text + at + 1);
      CHECK_STR(esc(text, 0), want);
      text[at] = '~';
      CHECK(!text_needs_escape(text, len, TEXT_ESCAPE_NEWLINES));
    }
  }
}

TEST(test_json_notation_keeps_json_valid_and_values_equal) {
  unsigned j = TEXT_ESCAPE_JSON | TEXT_ESCAPE_INVISIBLE;
  /* DEL and C1 pass cJSON's printer raw; in JSON text they become \u
   * escapes, formatting whitespace stays. */
  CHECK_STR(esc("{\n\t\"a\": \"x\x7f\xc2\x9by\"\n}", j),
            "{\n\t\"a\": \"x\\u007f\\u009by\"\n}");
  CHECK_STR(esc("\"\xe2\x80\xae\"", j), "\"\\u202e\"");
  /* Above U+FFFF: a surrogate pair, as JSON requires. */
  CHECK_STR(esc("\"\xf3\xa0\x81\x81\"", j), "\"\\udb40\\udc41\"");
  CHECK_STR(esc("\"a\xff\"", TEXT_ESCAPE_JSON), "\"a\\ufffd\"");
  CHECK_STR(esc("\"\xe2\x80\xae\"", TEXT_ESCAPE_JSON), "\"\xe2\x80\xae\"");
}

RUN(T(test_terminal_controls_become_visible),
    T(test_u0000_held_as_c0_80_is_shown_as_u0000),
    T(test_newline_and_tab_pass_in_text_and_not_in_lines),
    T(test_invisible_and_bidi_only_when_asked), T(test_text_is_kept_as_sent),
    T(test_invalid_utf8_bytes_are_shown_as_bytes),
    T(test_embedded_nul_is_escaped), T(test_needs_escape_agrees_with_escape),
    T(test_json_notation_keeps_json_valid_and_values_equal),
    T(test_a_byte_to_escape_is_found_anywhere_in_long_text))
