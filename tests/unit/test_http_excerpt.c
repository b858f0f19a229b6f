/* What the remote transports quote of a server's response in a message
 * (transports/common/http_client.h, http_client_excerpt): one line, the
 * one rule for untrusted text, cut at a whole character or escape. */
#include <stdlib.h>

#include "check.h"
#include "http_client.h"

static const char *ex(const char *s, size_t size) {
  static char out[256];
  http_client_excerpt(s, strlen(s), out, size);
  return out;
}

TEST(test_excerpt_blanks_become_one_space) {
  CHECK_STR(ex("  not\r\n\tfound \n", 256), "not found");
}

TEST(test_excerpt_controls_are_escaped_and_utf8_kept) {
  CHECK_STR(ex("a\x1b[2Jb caf\xc3\xa9", 256), "a<U+001B>[2Jb caf\xc3\xa9");
  CHECK_STR(ex("x\xe2\x80\xaey", 256), "x<U+202E>y");
}

TEST(test_excerpt_drops_a_sequence_cut_at_the_end) {
  CHECK_STR(ex("caf\xc3", 256), "caf");
  CHECK_STR(ex("ok\xff", 256), "ok<0xFF>");
}

TEST(test_excerpt_is_cut_before_what_does_not_fit) {
  CHECK_STR(ex("abc\x1b", 8), "abc");           /* not "abc<U+0" */
  CHECK_STR(ex("abcdef\xc3\xa9", 8), "abcdef"); /* not half of é */
  CHECK_STR(ex("<html>", 4), "<ht");            /* a '<' of the text */
}

RUN(T(test_excerpt_blanks_become_one_space),
    T(test_excerpt_controls_are_escaped_and_utf8_kept),
    T(test_excerpt_drops_a_sequence_cut_at_the_end),
    T(test_excerpt_is_cut_before_what_does_not_fit))
