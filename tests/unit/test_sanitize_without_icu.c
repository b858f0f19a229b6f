/* host/safety/sanitize.c in a program with no ICU at all: neither linked
 * nor opened (tests/CMakeLists.txt builds it from the sanitizer's sources
 * and the generated tables alone). Text already in NFKC is kept, text
 * that needs normalizing is normalized as ICU would, and nothing is
 * said on stderr: sanitizing needs no ICU at run time. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "safety/sanitize.h"

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
   * remove; the tables say so and the text is only read. */
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

TEST(test_text_that_needs_nfkc_is_normalized_without_icu) {
  /* A ligature, a combining mark that composes, a zero-width space,
   * fullwidth letters, Hangul jamo, marks out of canonical order. */
  outcome o = sanitize_non_ascii(
      "\xef\xac\x81le ok \xef\xbd\x86\xef\xbd\x95\xef\xbd\x8c\xef\xbd\x8c "
      "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab a\xcc\x81\xcc\xa3",
      "{\"ke\xcc\x81y\":\"\xe2\x80\x8bx\",\"a\":\"b\"}");
  /* fi, "full", U+D55C (HAN), U+1EA1 U+0301 (a with dot below, acute) */
  CHECK_STR(o.text, "file ok full \xed\x95\x9c \xe1\xba\xa1\xcc\x81");
  CHECK(o.text_len == 22);
  CHECK(o.json_changed == 2);
  CHECK_STR(o.json, "{\"k\xc3\xa9y\":\"x\",\"a\":\"b\"}");
  CHECK_STR(o.err, "");
  outcome_free(&o);
}

int main(void) {
  static const test_case tests[] = {
      T(test_ascii_text_needs_no_icu),
      T(test_text_the_tables_clear_is_kept_without_icu),
      T(test_text_that_needs_nfkc_is_normalized_without_icu),
  };
  return run_tests(tests, sizeof tests / sizeof *tests);
}
