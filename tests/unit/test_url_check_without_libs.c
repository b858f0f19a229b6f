/* The elicitation plugin's URL check (plugins/elicitation/url.c) when a
 * library it opens on first use cannot be loaded. Built twice, with a
 * name that does not exist for libcurl (WITHOUT_LIBCURL) or for ICU
 * (WITHOUT_ICU). Either way a URL that cannot be checked is refused, with
 * a reason that names the library. */
#include <stdlib.h>

#include "check.h"
#include "elicit.h"

static char why[300];

/* url_check: 0 and the host as shown, or -1 and the reason in `why`. */
static int check(const char *url, char **host) {
  char *full = NULL;
  why[0] = '\0';
  *host = NULL;
  int rc = url_check(url, host, &full, why, sizeof why);
  free(full);
  return rc;
}

#ifdef WITHOUT_LIBCURL
TEST(test_a_url_is_refused_when_libcurl_cannot_be_loaded) {
  char *host;
  CHECK(check("https://example.com/", &host) == -1);
  CHECK(host == NULL);
  CHECK_CONTAINS(why, "cannot load libcurl");
  CHECK_CONTAINS(why, "libcurl.so.0-missing");
}

TEST(test_a_url_is_still_refused_at_the_next_check) {
  char *host;
  CHECK(check("http://example.org/x", &host) == -1);
  CHECK_CONTAINS(why, "libcurl.so.0-missing");
}
#endif

#ifdef WITHOUT_ICU
TEST(test_an_ascii_host_needs_no_icu) {
  char *host;
  CHECK(check("https://example.com/", &host) == 0);
  CHECK_STR(host, "example.com");
  free(host);
}

TEST(test_a_non_ascii_host_is_refused_when_icu_cannot_be_loaded) {
  char *host;
  CHECK(check("https://b\xc3\xbc"
              "cher.example/",
              &host) == -1);
  CHECK(host == NULL);
  CHECK_CONTAINS(why, "its host cannot be checked");
  CHECK_CONTAINS(why, "libicuuc.so.0-missing");
}
#endif

int main(void) {
  static const test_case tests[] = {
#ifdef WITHOUT_LIBCURL
      T(test_a_url_is_refused_when_libcurl_cannot_be_loaded),
      T(test_a_url_is_still_refused_at_the_next_check),
#endif
#ifdef WITHOUT_ICU
      T(test_an_ascii_host_needs_no_icu),
      T(test_a_non_ascii_host_is_refused_when_icu_cannot_be_loaded),
#endif
  };
  return run_tests(tests, sizeof tests / sizeof *tests);
}
