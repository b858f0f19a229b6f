/* A minimal test harness: each test is a function; CHECK records a
 * failure with file and line and goes on; the runner prints one line per
 * test and exits non-zero when anything failed. */
#ifndef MCPHOST_TEST_CHECK_H
#define MCPHOST_TEST_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

/* NO_MALLINFO: glibc's mallinfo2() counts no bytes in use here (not
 * glibc, or a sanitizer's allocator); tests that count them skip. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_MALLINFO 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
#define NO_MALLINFO 1
#endif

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__,       \
              #cond);                                                          \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_STR(a, b)                                                        \
  do {                                                                         \
    const char *a_ = (a), *b_ = (b);                                           \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                   \
      fprintf(stderr, "  %s:%d: expected \"%s\", got \"%s\"\n", __FILE__,      \
              __LINE__, b_ ? b_ : "(null)", a_ ? a_ : "(null)");               \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_CONTAINS(hay, needle)                                            \
  do {                                                                         \
    const char *h_ = (hay), *n_ = (needle);                                    \
    if (!h_ || !strstr(h_, n_)) {                                              \
      fprintf(stderr, "  %s:%d: \"%s\" does not contain \"%s\"\n", __FILE__,   \
              __LINE__, h_ ? h_ : "(null)", n_);                               \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

typedef struct test_case {
  const char *name;
  void (*fn)(void);
} test_case;

#define TEST(name) static void name(void)
#define T(name) {#name, name}

static inline int run_tests(const test_case *tests, size_t n) {
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    int before = check_failures;
    tests[i].fn();
    bool ok = check_failures == before;
    printf("%s %s\n", ok ? "ok  " : "FAIL", tests[i].name);
    failed += !ok;
  }
  printf("%zu passed, %d failed\n", n - (size_t)failed, failed);
  return failed ? 1 : 0;
}

#define RUN(...)                                                               \
  int main(void) {                                                             \
    static const test_case tests_[] = {__VA_ARGS__};                           \
    return run_tests(tests_, sizeof tests_ / sizeof tests_[0]);                \
  }

#endif
