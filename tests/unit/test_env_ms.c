/* The one parser of milliseconds (common/env_ms.h): --timeout and every
 * millisecond environment variable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "env_ms.h"

TEST(test_digits_only) {
  uint64_t ms = 7;
  CHECK(ms_parse("30000", false, &ms) && ms == 30000);
  CHECK(ms_parse("0", true, &ms) && ms == 0);
  const char *bad[] = {"30s",  "1e3", " 5", "5 ", "+5", "-1",
                       "0x10", "1.5", "",   "s",  NULL};
  for (size_t i = 0; bad[i]; i++) {
    ms = 7;
    CHECK(!ms_parse(bad[i], true, &ms));
    CHECK(ms == 7);
  }
  CHECK(!ms_parse("0", false, &ms));
  CHECK(!ms_parse(NULL, true, &ms));
}

TEST(test_too_large_is_refused) {
  uint64_t ms = 0;
  CHECK(ms_parse("9007199254740992", false, &ms)); /* 2^53 */
  CHECK(!ms_parse("9007199254740993", false, &ms));
  CHECK(!ms_parse("18446744073709551616", false, &ms)); /* 2^64 */
  CHECK(!ms_parse("99999999999999999999999999", false, &ms));
}

/* What env_ms() says on stderr while `fn` runs, into `buf`. */
static void stderr_of(void (*fn)(void), char *buf, size_t size) {
  fflush(stderr);
  int saved = dup(2);
  FILE *f = tmpfile();
  CHECK(saved >= 0 && f);
  dup2(fileno(f), 2);
  fn();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(f);
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = '\0';
  fclose(f);
}

static uint64_t got;
static bool given;

static void read_request_ms(void) {
  got = env_ms("MCPHOST_SERVE_REQUEST_MS", 30000, false, &given);
}

TEST(test_a_bad_value_warns_and_falls_back) {
  char err[512];
  setenv("MCPHOST_SERVE_REQUEST_MS", "30s", 1);
  stderr_of(read_request_ms, err, sizeof err);
  CHECK(got == 30000 && !given);
  CHECK(strstr(err, "MCPHOST_SERVE_REQUEST_MS=\"30s\"") != NULL);
  CHECK(strstr(err, "using 30000") != NULL);
  /* Once per variable: a value read again is not warned about again. */
  stderr_of(read_request_ms, err, sizeof err);
  CHECK(got == 30000 && err[0] == '\0');
  setenv("MCPHOST_SERVE_REQUEST_MS", "1500", 1);
  stderr_of(read_request_ms, err, sizeof err);
  CHECK(got == 1500 && given && err[0] == '\0');
  unsetenv("MCPHOST_SERVE_REQUEST_MS");
  stderr_of(read_request_ms, err, sizeof err);
  CHECK(got == 30000 && !given && err[0] == '\0');
}

TEST(test_zero_only_where_it_means_something) {
  setenv("MCPHOST_ROOTS_SETTLE_MS", "0", 1);
  CHECK(env_ms("MCPHOST_ROOTS_SETTLE_MS", 100, true, NULL) == 0);
  CHECK(env_ms("MCPHOST_ROOTS_SETTLE_MS", 100, false, NULL) == 100);
  unsetenv("MCPHOST_ROOTS_SETTLE_MS");
}

RUN(T(test_digits_only), T(test_too_large_is_refused),
    T(test_a_bad_value_warns_and_falls_back),
    T(test_zero_only_where_it_means_something))
