/* The ws transport's URLs (transports/ws/ws_url.c), its proxy from the
 * environment (ws_proxy.c) and the shell-like splitting of a
 * headersHelper command (common/split_words.c). */
#include <stdlib.h>

#include "split_words.h"
#include "ws_proxy.h"
#include "ws_url.h"

#include "check.h"

TEST(test_ws_url_takes_apart_host_port_and_path) {
  ws_url u;
  char why[128];
  CHECK(
      ws_url_parse("wss://Example.COM:8443/a/b?x=1#frag", &u, why, sizeof why));
  CHECK(u.tls);
  CHECK_STR(u.host, "example.com");
  CHECK(u.port == 8443);
  CHECK_STR(u.path, "/a/b?x=1");
  CHECK_STR(u.host_header, "Example.COM:8443");
  CHECK(!u.literal);
  ws_url_free(&u);
  CHECK(ws_url_parse("ws://127.0.0.1", &u, why, sizeof why));
  CHECK(!u.tls && u.port == 80 && u.literal);
  CHECK_STR(u.path, "/");
  CHECK_STR(u.host_header, "127.0.0.1");
  ws_url_free(&u);
  CHECK(ws_url_parse("ws://[::1]:9/?q", &u, why, sizeof why));
  CHECK_STR(u.host, "::1");
  CHECK(u.literal && u.port == 9);
  CHECK_STR(u.path, "/?q");
  CHECK_STR(u.host_header, "[::1]:9");
  ws_url_free(&u);
}

TEST(test_ws_url_refuses_what_is_not_a_websocket_url) {
  char why[128];
  CHECK(!ws_url_check("http://h/", why, sizeof why));
  CHECK_STR(why, "the scheme is \"http\", not ws or wss");
  CHECK(!ws_url_check("ws://", why, sizeof why));
  CHECK_STR(why, "no host");
  CHECK(!ws_url_check("ws://h:0/", why, sizeof why));
  CHECK_STR(why, "a bad port");
  CHECK(!ws_url_check("ws://h:65536/", why, sizeof why));
  CHECK(!ws_url_check("ws://h:8x/", why, sizeof why));
  CHECK(!ws_url_check("ws://user:pw@h/", why, sizeof why));
  CHECK_CONTAINS(why, "user information");
  CHECK(!ws_url_check("ws://h/a b", why, sizeof why));
  CHECK(!ws_url_check("ws://h/\r\nX: y", why, sizeof why));
  CHECK(!ws_url_check("ws://[nothex]/", why, sizeof why));
  CHECK(!ws_url_check("localhost:80", why, sizeof why));
}

static char *proxy_for(const char *url) {
  ws_url u;
  char why[128], *p = NULL;
  CHECK(ws_url_parse(url, &u, why, sizeof why));
  if (!ws_proxy_for(&u, &p, why, sizeof why)) {
    p = strdup(why);
  }
  ws_url_free(&u);
  return p;
}

TEST(test_ws_proxy_follows_the_environment_as_curl_does) {
  unsetenv("no_proxy");
  unsetenv("NO_PROXY");
  unsetenv("all_proxy");
  unsetenv("ALL_PROXY");
  unsetenv("HTTPS_PROXY");
  setenv("https_proxy", "http://user:pw@proxy.example:3128/", 1);
  setenv("http_proxy", "proxy2.example", 1);
  char *p = proxy_for("wss://h.example/");
  CHECK_STR(p, "user:pw@proxy.example:3128");
  free(p);
  p = proxy_for("ws://h.example/");
  CHECK_STR(p, "proxy2.example:1080");
  free(p);
  setenv("NO_PROXY", "other.example, .example", 1);
  p = proxy_for("wss://h.example/");
  CHECK(p == NULL);
  p = proxy_for("wss://example/");
  CHECK(p == NULL);
  p = proxy_for("wss://notexample/");
  CHECK_STR(p, "user:pw@proxy.example:3128");
  free(p);
  setenv("NO_PROXY", "*", 1);
  p = proxy_for("ws://anything/");
  CHECK(p == NULL);
  unsetenv("NO_PROXY");
  setenv("https_proxy", "socks5://s:1", 1);
  p = proxy_for("wss://h/");
  CHECK_STR(p, "https_proxy: only http:// proxies are supported for "
               "WebSocket servers");
  free(p);
  unsetenv("https_proxy");
  unsetenv("http_proxy");
  p = proxy_for("wss://h/");
  CHECK(p == NULL);
}

TEST(test_split_words_quotes_as_a_shell_without_expanding) {
  char **w;
  size_t n;
  CHECK(split_words("  get-token 'a b' \"c \\\" d\" e\\ f $HOME ", &w, &n) ==
        0);
  CHECK(n == 5);
  CHECK_STR(w[0], "get-token");
  CHECK_STR(w[1], "a b");
  CHECK_STR(w[2], "c \" d");
  CHECK_STR(w[3], "e f");
  CHECK_STR(w[4], "$HOME");
  CHECK(w[5] == NULL);
  split_words_free(w);
  CHECK(split_words("x 'open", &w, &n) == -1);
  CHECK(w == NULL);
  CHECK(split_words("   ", &w, &n) == 0 && n == 0);
  split_words_free(w);
  CHECK(split_words("a b c d e f g h", &w, &n) == 0 && n == 8);
  split_words_free(w);
}

RUN(T(test_ws_url_takes_apart_host_port_and_path),
    T(test_ws_url_refuses_what_is_not_a_websocket_url),
    T(test_ws_proxy_follows_the_environment_as_curl_does),
    T(test_split_words_quotes_as_a_shell_without_expanding))
