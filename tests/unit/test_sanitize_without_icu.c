/* host/safety/sanitize.c when ICU cannot be loaded: built with an ICU library
 * name that does not exist. Text that would need ICU fails closed. */
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

static outcome sanitize_non_ascii(void) {
  outcome o = {0};
  fflush(stderr);
  int saved = dup(2);
  FILE *f = tmpfile();
  if (saved < 0 || !f)
    abort();
  dup2(fileno(f), 2);
  o.text = sanitize_text("caf\xc3\xa9 ok", 8, &o.text_len);
  cJSON *j = cJSON_Parse("{\"k\xc3\xa9y\":\"\xe2\x80\x8bx\",\"a\":\"b\"}");
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

TEST(test_non_ascii_text_becomes_fffd_with_one_warning) {
  outcome o = sanitize_non_ascii();
  /* Each non-ASCII run becomes one U+FFFD; the ASCII stays. */
  CHECK_STR(o.text, "caf" FFFD " ok");
  CHECK(o.text_len == 9);
  CHECK(o.json_changed == 2);
  CHECK_STR(o.json, "{\"k" FFFD "y\":\"" FFFD "x\",\"a\":\"b\"}");
  /* Two runs close together (one segment for ICU) and the ASCII between. */
  char *two =
      sanitize_text("a\xc3\xa9 between \xe2\x80\x9c" "b\xe2\x80\x9d.", 20, NULL);
  CHECK_STR(two, "a" FFFD " between " FFFD "b" FFFD ".");
  free(two);
  CHECK_CONTAINS(o.err, "mcphost: warning: cannot load ICU");
  CHECK_CONTAINS(o.err, "libicuuc.so.0-missing");
  /* One line, though three strings failed. */
  const char *nl = strchr(o.err, '\n');
  CHECK(nl && nl[1] == '\0');
  if (!(nl && nl[1] == '\0'))
    fprintf(stderr, "  stderr was: %s\n", o.err);
  free(o.text);
  free(o.json);
  free(o.err);
}

int main(void) {
  static const test_case tests[] = {
      T(test_ascii_text_needs_no_icu),
      T(test_non_ascii_text_becomes_fffd_with_one_warning),
  };
  return run_tests(tests, sizeof tests / sizeof *tests);
}
