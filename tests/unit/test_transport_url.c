/* The remote transports' URL rules (transports/common/url.c and
 * common/url_redact.c): the redacted form messages quote, and the one
 * redirect policy both transports follow. */
#include <stdlib.h>

#include "check.h"
#include "url.h"

static char why[300];

static const char *redacted(const char *url) {
  static char out[600];
  char *r = url_redacted(url);
  snprintf(out, sizeof out, "%s", r ? r : "(null)");
  free(r);
  return out;
}

static bool follows(const char *from, const char *to, unsigned count) {
  why[0] = '\0';
  return url_redirect_check(from, to, count, why, sizeof why);
}

TEST(test_a_redacted_url_has_no_credentials_query_or_fragment) {
  CHECK_STR(redacted("https://example.com/mcp"), "https://example.com/mcp");
  CHECK_STR(redacted("https://u:hunter2@example.com:8443/mcp?key=S#f"),
            "https://example.com:8443/mcp?…");
  CHECK_STR(redacted("https://example.com/mcp#frag"),
            "https://example.com/mcp?…");
  /* The last '@' of the authority ends the userinfo. */
  CHECK_STR(redacted("http://a@b:p@ss@host/x"), "http://host/x");
  /* Text that is no URL is redacted all the same. */
  CHECK_STR(redacted("http://u:pw@exa mple.com/?api_key=S"),
            "http://exa mple.com/?…");
  CHECK_STR(redacted("u:pw@host/x?token=S"), "host/x?…");
  /* An '@' in the path is no userinfo. */
  CHECK_STR(redacted("https://example.com/a@b"), "https://example.com/a@b");
}

TEST(test_redirects_are_followed_within_the_origin_only) {
  CHECK(follows("http://127.0.0.1:8/mcp", "http://127.0.0.1:8/mcp/", 0));
  CHECK(follows("https://example.com/mcp", "https://EXAMPLE.com:443/v2", 0));
  /* The https upgrade of the same host, default ports. */
  CHECK(follows("http://example.com/mcp", "https://example.com/mcp", 0));
  CHECK(!follows("http://127.0.0.1:8/mcp", "http://127.0.0.1:9/mcp", 0));
  CHECK_STR(why, "redirected to another origin (http://127.0.0.1:9); not "
                 "followed");
  CHECK(!follows("https://example.com/mcp", "https://evil.example/mcp", 0));
  CHECK_CONTAINS(why, "redirected to another origin (https://evil.example)");
  CHECK(!follows("https://example.com/mcp", "http://example.com/mcp", 0));
  CHECK(!follows("http://example.com:8080/", "https://example.com:8080/", 0));
  CHECK(!follows("https://example.com/", "https://u:p@example.com/", 0));
  CHECK_CONTAINS(why, "adds credentials");
  CHECK(!follows("https://example.com/", NULL, 0));
  CHECK_CONTAINS(why, "without a usable Location");
}

TEST(test_at_most_five_redirects_are_followed) {
  CHECK(follows("https://example.com/a", "https://example.com/b", 4));
  CHECK(!follows("https://example.com/a", "https://example.com/b", 5));
  CHECK_STR(why, "more than 5 redirects");
}

TEST(test_only_the_five_redirect_statuses_are_redirects) {
  long yes[] = {301, 302, 303, 307, 308}, no[] = {300, 304, 305, 200, 404};
  for (size_t i = 0; i < 5; i++) {
    CHECK(url_is_redirect(yes[i]));
    CHECK(!url_is_redirect(no[i]));
  }
}

RUN(T(test_a_redacted_url_has_no_credentials_query_or_fragment),
    T(test_redirects_are_followed_within_the_origin_only),
    T(test_at_most_five_redirects_are_followed),
    T(test_only_the_five_redirect_statuses_are_redirects))
