/* host/safety/sanitize.c when ICU cannot be loaded: built with an ICU library
 * name that does not exist. Text the Unicode tables clear is kept (they
 * need no ICU); text that would need ICU fails closed. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "safety/sanitize.h"

#define FFFD "\xEF\xBF\xBD"

TEST(test_ascii_text_needs_no_icu) {
  char *r = sanitize_text("plain text", 10, NULL);
  CHECK_STR(r, "plain text");
  free(r);
  cJSON *j = cJSON_Parse("{\"name\":\"echo\",\"list\":[\"a\",\"b\"]}");
  CHECK(sanitize_json(j) == 0);
  cJSON_Delete(j);
}

/* What the sanitizer gave for non-ASCII text, and wrote to stderr. */
typedef struct outcome {
  char *text, *json, *err; /* new strings */
  size_t text_len, json_changed;
} outcome;

/* Sanitizes `text` and `json` with stderr caught. */
static outcome sanitize_non_ascii(const char *text, const char *json) {
  outcome o = {0};
  fflush(stderr);
  int saved = dup(2);
  FILE *f = tmpfile();
  if (saved < 0 || !f)
    abort();
  dup2(fileno(f), 2);
  o.text = sanitize_text(text, strlen(text), &o.text_len);
  cJSON *j = cJSON_Parse(json);
  o.json_changed = sanitize_json(j);
  o.json = cJSON_PrintUnformatted(j);
  cJSON_Delete(j);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  o.err = calloc(1, 4096);
  rewind(f);
  size_t got = fread(o.err, 1, 4095, f);
  o.err[got] = '\0';
  fclose(f);
  return o;
}

static void outcome_free(outcome *o) {
  free(o->text);
  free(o->json);
  free(o->err);
}

TEST(test_text_the_tables_clear_is_kept_without_icu) {
  /* Accented letters, CJK, typographic quotes: already NFKC, nothing to
   * remove; the tables say so and ICU is not asked. */
  outcome o = sanitize_non_ascii(
      "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xe2\x80\x9cok\xe2\x80\x9d",
      "{\"k\xc3\xa9y\":\"\xe6\x97\xa5x\",\"a\":\"b\"}");
  CHECK_STR(o.text,
            "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xe2\x80\x9cok\xe2\x80\x9d");
  CHECK(o.text_len == 21);
  CHECK(o.json_changed == 0);
  CHECK_STR(o.json, "{\"k\xc3\xa9y\":\"\xe6\x97\xa5x\",\"a\":\"b\"}");
  CHECK_STR(o.err, "");
  outcome_free(&o);
}

TEST(test_non_ascii_text_becomes_fffd_with_one_warning) {
  /* A ligature, a combining mark that composes, a zero-width space: each
   * needs ICU. Each non-ASCII run becomes one U+FFFD; the ASCII stays. */
  outcome o = sanitize_non_ascii(
      "\xef\xac\x81le ok", "{\"ke\xcc\x81y\":\"\xe2\x80\x8bx\",\"a\":\"b\"}");
  CHECK_STR(o.text, FFFD "le ok");
  CHECK(o.text_len == 8);
  CHECK(o.json_changed == 2);
  CHECK_STR(o.json, "{\"ke" FFFD "y\":\"" FFFD "x\",\"a\":\"b\"}");
  /* Two runs close together are one segment for ICU: the clean quotes
   * share the fate of the fullwidth letter before them. */
  const char *in = "a\xef\xbd\x86 between \xe2\x80\x9c"
                   "b\xe2\x80\x9d.";
  char *two = sanitize_text(in, strlen(in), NULL);
  CHECK_STR(two, "a" FFFD " between " FFFD "b" FFFD ".");
  free(two);
  CHECK_CONTAINS(o.err, "mcphost: warning: cannot load ICU");
  CHECK_CONTAINS(o.err, "libicuuc.so.0-missing");
  /* One line, though three strings failed. */
  const char *nl = strchr(o.err, '\n');
  CHECK(nl && nl[1] == '\0');
  if (!(nl && nl[1] == '\0'))
    fprintf(stderr, "  stderr was: %s\n", o.err);
  outcome_free(&o);
}

int main(void) {
  static const test_case tests[] = {
      T(test_ascii_text_needs_no_icu),
      T(test_text_the_tables_clear_is_kept_without_icu),
      T(test_non_ascii_text_becomes_fffd_with_one_warning),
  };
  return run_tests(tests, sizeof tests / sizeof *tests);
}
