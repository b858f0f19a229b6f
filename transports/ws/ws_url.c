/* WebSocket URLs; see ws_url.h. */
#include "ws_url.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool fail(char *why, size_t why_len, const char *what) {
  snprintf(why, why_len, "%s", what);
  return false;
}

bool ws_url_parse(const char *url, ws_url *u, char *why, size_t why_len) {
  memset(u, 0, sizeof *u);
  for (const char *p = url; *p; p++) {
    if ((unsigned char)*p <= 0x20 || *p == 0x7f) {
      return fail(why, why_len, "white space or a control character");
    }
  }
  const char *rest;
  if (strncasecmp(url, "ws://", 5) == 0) {
    rest = url + 5;
  } else if (strncasecmp(url, "wss://", 6) == 0) {
    u->tls = true;
    rest = url + 6;
  } else {
    const char *colon = strstr(url, "://");
    if (!colon) {
      return fail(why, why_len, "not an absolute URL");
    }
    snprintf(why, why_len, "the scheme is \"%.*s\", not ws or wss",
             (int)(colon - url) > 20 ? 20 : (int)(colon - url), url);
    return false;
  }
  size_t auth_len = strcspn(rest, "/?#");
  const char *at = memchr(rest, '@', auth_len);
  if (at) {
    return fail(why, why_len,
                "user information in the URL is not supported (use "
                "\"headers\")");
  }
  const char *host = rest, *host_end, *port = NULL;
  if (*host == '[') {
    const char *close = memchr(host, ']', auth_len);
    if (!close) {
      return fail(why, why_len, "an unterminated IPv6 address");
    }
    host_end = close + 1;
    if (host_end < rest + auth_len) {
      if (*host_end != ':') {
        return fail(why, why_len, "junk after the IPv6 address");
      }
      port = host_end + 1;
    }
  } else {
    const char *colon = memchr(host, ':', auth_len);
    host_end = colon ? colon : rest + auth_len;
    port = colon ? colon + 1 : NULL;
  }
  if (host_end == host || (host[0] == '[' && host_end - host <= 2)) {
    return fail(why, why_len, "no host");
  }
  u->port = u->tls ? 443 : 80;
  if (port) {
    const char *end = rest + auth_len;
    long v = 0;
    if (port == end || end - port > 5) {
      return fail(why, why_len, "a bad port");
    }
    for (const char *p = port; p < end; p++) {
      if (*p < '0' || *p > '9') {
        return fail(why, why_len, "a bad port");
      }
      v = v * 10 + (*p - '0');
    }
    if (v < 1 || v > 65535) {
      return fail(why, why_len, "a bad port");
    }
    u->port = (int)v;
  }
  const char *path = rest + auth_len;
  size_t path_len = strcspn(path, "#");
  bool bracket = host[0] == '[';
  u->host = bracket ? strndup(host + 1, (size_t)(host_end - host - 2))
                    : strndup(host, (size_t)(host_end - host));
  u->path = path_len && path[0] == '/' ? strndup(path, path_len) : NULL;
  if (!u->path && u->host) {
    /* "ws://h?q" has the path "/" and the query "q". */
    size_t n = path_len + 2;
    if ((u->path = malloc(n))) {
      snprintf(u->path, n, "/%.*s", (int)path_len, path);
    }
  }
  u->host_header =
      strndup(host, (size_t)(port ? rest + auth_len - host : host_end - host));
  if (!u->host || !u->path || !u->host_header) {
    ws_url_free(u);
    return fail(why, why_len, "out of memory");
  }
  for (char *p = u->host; *p; p++) {
    if (*p >= 'A' && *p <= 'Z') {
      *p = (char)(*p - 'A' + 'a');
    }
  }
  unsigned char addr[16];
  u->literal = inet_pton(AF_INET, u->host, addr) == 1 ||
               inet_pton(AF_INET6, u->host, addr) == 1;
  if (bracket && !u->literal) {
    ws_url_free(u);
    return fail(why, why_len, "a bad IPv6 address");
  }
  return true;
}

void ws_url_free(ws_url *u) {
  free(u->host);
  free(u->path);
  free(u->host_header);
  memset(u, 0, sizeof *u);
}

bool ws_url_check(const char *url, char *why, size_t why_len) {
  ws_url u;
  if (!ws_url_parse(url, &u, why, why_len)) {
    return false;
  }
  ws_url_free(&u);
  return true;
}
