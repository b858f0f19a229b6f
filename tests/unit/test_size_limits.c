#include <stdlib.h>

#include "check.h"
#include "display_width.h"
#include "size_limits.h"

TEST(test_defaults_are_claude_codes) {
  limits l;
  limits_default(&l);
  CHECK(l.name_chars == 64);
  CHECK(l.description_chars == 2048);
  CHECK(l.output_chars == 100000);
}

TEST(test_environment_overrides_the_defaults) {
  setenv("MCPHOST_MAX_NAME_CHARS", "40", 1);
  setenv("MCPHOST_MAX_DESCRIPTION_CHARS", "100", 1);
  setenv("MCPHOST_MAX_OUTPUT_CHARS", "5000", 1);
  limits l;
  char *warn = limits_from_env(&l);
  CHECK(warn == NULL);
  CHECK(l.name_chars == 40 && l.description_chars == 100 &&
        l.output_chars == 5000);
  unsetenv("MCPHOST_MAX_NAME_CHARS");
  unsetenv("MCPHOST_MAX_DESCRIPTION_CHARS");
  unsetenv("MCPHOST_MAX_OUTPUT_CHARS");
}

TEST(test_bad_environment_values_keep_the_default_and_say_so) {
  setenv("MCPHOST_MAX_NAME_CHARS", "10", 1); /* below the minimum, 32 */
  setenv("MCPHOST_MAX_OUTPUT_CHARS", "lots", 1);
  setenv("MCPHOST_MAX_DESCRIPTION_CHARS", "-5", 1);
  limits l;
  char *warn = limits_from_env(&l);
  CHECK(l.name_chars == 64 && l.output_chars == 100000 &&
        l.description_chars == 2048);
  CHECK_CONTAINS(warn, "MCPHOST_MAX_NAME_CHARS=\"10\"");
  CHECK_CONTAINS(warn, "MCPHOST_MAX_OUTPUT_CHARS=\"lots\"");
  CHECK_CONTAINS(warn, "MCPHOST_MAX_DESCRIPTION_CHARS=\"-5\"");
  free(warn);
  unsetenv("MCPHOST_MAX_NAME_CHARS");
  unsetenv("MCPHOST_MAX_OUTPUT_CHARS");
  unsetenv("MCPHOST_MAX_DESCRIPTION_CHARS");
}

TEST(test_characters_are_code_points) {
  CHECK(utf8_count("a\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80", 10) == 4);
  CHECK(utf8_offset("a\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80", 10, 2) == 3);
  CHECK(utf8_offset("ab", 2, 5) == 2);
}

TEST(test_a_description_within_the_limit_is_kept) {
  CHECK(limits_cut_description("short", 5) == NULL);
  CHECK(limits_cut_description("\xC3\xA9\xC3\xA9", 2) == NULL);
}

TEST(test_a_long_description_is_cut_with_a_note) {
  char *cut = limits_cut_description("abcdefgh", 3);
  CHECK_STR(cut, "abc... [truncated]");
  free(cut);
}

TEST(test_a_description_is_cut_between_characters) {
  char *cut = limits_cut_description("\xC3\xA9\xC3\xA9\xC3\xA9", 2);
  CHECK_STR(cut, "\xC3\xA9\xC3\xA9... [truncated]");
  free(cut);
}

TEST(test_a_line_is_cut_to_the_width_at_a_word) {
  char *cut = limits_cut_to_width("one two three four five six", 16);
  CHECK_STR(cut, "one two three\xe2\x80\xa6");
  free(cut);
  CHECK(limits_cut_to_width("fits exactly", 12) == NULL);
  /* No space in the last third: cut mid-word, never in an escape. */
  cut = limits_cut_to_width("abcdefghijklmnopqrstuvwxyz", 10);
  CHECK_STR(cut, "abcdefghi\xe2\x80\xa6");
  free(cut);
  cut = limits_cut_to_width("abcdef<U+200B>ghijklmnop", 10);
  CHECK_STR(cut, "abcdef\xe2\x80\xa6");
  free(cut);
  cut = limits_cut_to_width("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 3);
  CHECK_STR(cut, "\xC3\xA9\xC3\xA9\xe2\x80\xa6");
  free(cut);
}

TEST(test_widths_are_screen_columns) {
  /* CJK two columns, a combining mark none, ASCII and Latin one. */
  CHECK(display_width("\xe6\x95\xb0\xe6\x8d\xae", 6) == 4);
  CHECK(display_width("e\xcc\x81", 3) == 1);
  CHECK(display_width("a\xC3\xA9<U+200B>", 11) == 10);
  CHECK(display_width("\xef\xbc\xa1", 3) == 2); /* fullwidth A */
  CHECK(display_width("\xff", 1) == 1);
  /* The start that fits: never half a wide character, never a mark
   * without its base. */
  CHECK(display_offset("\xe6\x95\xb0\xe6\x8d\xae", 6, 3) == 3);
  CHECK(display_offset("ae\xcc\x81"
                       "b",
                       5, 2) == 4);
  char *cut = limits_cut_to_width(
      "\xe6\x95\xb0\xe6\x8d\xae\xe6\x95\xb0\xe6\x8d\xae", 5);
  CHECK_STR(cut, "\xe6\x95\xb0\xe6\x8d\xae\xe2\x80\xa6");
  free(cut);
}

TEST(test_an_output_limit_asked_for_is_forced) {
  limits l;
  limits_default(&l);
  CHECK(!l.output_forced);
  CHECK(limits_set_output(&l, "250") && l.output_chars == 250 &&
        l.output_forced);
  CHECK(limits_set_output(&l, "0") && l.output_chars == 0);
  CHECK(!limits_set_output(&l, "-1") && !limits_set_output(&l, "") &&
        !limits_set_output(&l, "12x"));
  setenv("MCPHOST_MAX_OUTPUT_CHARS", "77", 1);
  char *warn = limits_from_env(&l);
  CHECK(!warn && l.output_chars == 77 && l.output_forced);
  unsetenv("MCPHOST_MAX_OUTPUT_CHARS");
  warn = limits_from_env(&l);
  CHECK(!warn && !l.output_forced);
}

RUN(T(test_defaults_are_claude_codes),
    T(test_a_line_is_cut_to_the_width_at_a_word),
    T(test_widths_are_screen_columns),
    T(test_an_output_limit_asked_for_is_forced),
    T(test_environment_overrides_the_defaults),
    T(test_bad_environment_values_keep_the_default_and_say_so),
    T(test_characters_are_code_points),
    T(test_a_description_within_the_limit_is_kept),
    T(test_a_long_description_is_cut_with_a_note),
    T(test_a_description_is_cut_between_characters))
