/* The proxy from the environment; see ws_proxy.h. */
#include "ws_proxy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *env(const char *name, const char **which) {
  const char *v = getenv(name);
  if (v && *v) {
    *which = name;
    return v;
  }
  return NULL;
}

/* Whether no_proxy's entry `e` (`n` bytes) covers `host`. */
static bool covers(const char *e, size_t n, const char *host) {
  while (n && (*e == ' ' || *e == '\t')) {
    e++;
    n--;
  }
  while (n && (e[n - 1] == ' ' || e[n - 1] == '\t')) {
    n--;
  }
  if (n && *e == '.') {
    e++;
    n--;
  }
  if (n == 0) {
    return false;
  }
  if (n == 1 && *e == '*') {
    return true;
  }
  size_t h = strlen(host);
  if (h == n) {
    return strncasecmp(host, e, n) == 0;
  }
  return h > n && host[h - n - 1] == '.' &&
         strncasecmp(host + h - n, e, n) == 0;
}

static bool no_proxy(const char *host) {
  const char *which;
  const char *list = env("no_proxy", &which);
  if (!list) {
    list = env("NO_PROXY", &which);
  }
  for (const char *p = list; p && *p;) {
    size_t n = strcspn(p, ",");
    if (covers(p, n, host)) {
      return true;
    }
    p += n;
    if (*p == ',') {
      p++;
    }
  }
  return false;
}

bool ws_proxy_for(const ws_url *u, char **out, char *why, size_t why_len) {
  const char *which = NULL, *v;
  *out = NULL;
  if (u->tls) {
    v = env("https_proxy", &which);
    if (!v) {
      v = env("HTTPS_PROXY", &which);
    }
  } else {
    v = env("http_proxy", &which);
  }
  if (!v) {
    v = env("all_proxy", &which);
  }
  if (!v) {
    v = env("ALL_PROXY", &which);
  }
  if (!v || no_proxy(u->host)) {
    return true;
  }
  const char *rest = v;
  if (strncasecmp(v, "http://", 7) == 0) {
    rest = v + 7;
  } else if (strstr(v, "://")) {
    snprintf(why, why_len,
             "%s: only http:// proxies are supported for WebSocket servers",
             which);
    return false;
  }
  size_t n = strcspn(rest, "/");
  const char *colon = NULL;
  for (const char *p = rest; p < rest + n; p++) {
    if (*p == ':') {
      colon = p;
    } else if (*p == ']' || *p == '@') {
      colon = NULL;
    }
  }
  if (n == 0) {
    snprintf(why, why_len, "%s has no proxy host", which);
    return false;
  }
  /* lws wants a port: curl's default for a proxy is 1080. */
  size_t len = n + (colon ? 1 : 6);
  if (!(*out = malloc(len))) {
    snprintf(why, why_len, "out of memory");
    return false;
  }
  snprintf(*out, len, "%.*s%s", (int)n, rest, colon ? "" : ":1080");
  return true;
}
