/* Who may reach the gateway over HTTP (serve_http.h): the listening
 * address, the bearer token, and the Origin and Host checks that keep a
 * web page from reaching a loopback gateway (DNS rebinding). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway/serve_http.h"

/* `text`, an address of `family` without brackets, into `ss` with
 * `port` (`*len` its size when `len` is not NULL); `*loopback` whether
 * it is this machine's loopback. -1 when it is not one. */
static int parse_address(const char *text, int family, uint16_t port,
                         struct sockaddr_storage *ss, socklen_t *len,
                         bool *loopback) {
  memset(ss, 0, sizeof *ss);
  struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
  if (family == AF_INET && inet_pton(AF_INET, text, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    *loopback = (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
  } else if (family == AF_INET6 &&
             inet_pton(AF_INET6, text, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    *loopback = IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr);
  } else {
    return -1;
  }
  if (len) {
    *len = family == AF_INET ? sizeof *v4 : sizeof *v6;
  }
  return 0;
}

int gw_http_parse_listen(const char *spec, struct sockaddr_storage *ss,
                         socklen_t *len, bool *loopback, char *why,
                         size_t why_len) {
  char name[64];
  const char *colon = strrchr(spec, ':');
  const char *h = spec;
  size_t hlen = colon ? (size_t)(colon - spec) : 0;
  if (hlen >= 2 && h[0] == '[' && h[hlen - 1] == ']') {
    h++;
    hlen -= 2;
  }
  char *end = NULL;
  long port = colon ? strtol(colon + 1, &end, 10) : -1;
  if (!colon || hlen == 0 || hlen >= sizeof name || !colon[1] || *end ||
      port < 0 || port > 65535) {
    snprintf(why, why_len,
             "serve --http \"%s\": give HOST:PORT (127.0.0.1:8808, "
             "[::1]:0, 0.0.0.0:8808)",
             spec);
    return -1;
  }
  memcpy(name, h, hlen);
  name[hlen] = '\0';
  if (strcmp(name, "localhost") == 0) {
    snprintf(name, sizeof name, "127.0.0.1");
  }
  if (parse_address(name, AF_INET, (uint16_t)port, ss, len, loopback) != 0 &&
      parse_address(name, AF_INET6, (uint16_t)port, ss, len, loopback) != 0) {
    snprintf(why, why_len,
             "serve --http \"%s\": \"%s\" is not an IP address (or "
             "localhost)",
             spec, name);
    return -1;
  }
  return 0;
}

int gw_http_random_hex(char *out, size_t n) {
  unsigned char raw[64];
  if (n > sizeof raw || getrandom(raw, n, 0) != (ssize_t)n) {
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    snprintf(out + 2 * i, 3, "%02x", raw[i]);
  }
  out[2 * n] = '\0';
  return 0;
}

/* A new token written to `path` (mode 0600, never over a file). */
static char *make_token_file(const char *path, char *why, size_t why_len) {
  char tok[65];
  if (gw_http_random_hex(tok, 32) != 0) {
    snprintf(why, why_len, "serve: no random bytes for a token");
    return NULL;
  }
  int fd =
      open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    snprintf(why, why_len, "serve --token-file %s: %s", path, strerror(errno));
    return NULL;
  }
  size_t n = strlen(tok);
  bool ok = write(fd, tok, n) == (ssize_t)n && write(fd, "\n", 1) == 1;
  if (close(fd) != 0 || !ok) {
    snprintf(why, why_len, "serve --token-file %s: could not write it", path);
    unlink(path);
    return NULL;
  }
  return xstrdup(tok);
}

char *gw_http_token(const gw_http_opts *o, bool *made, char *why,
                    size_t why_len) {
  why[0] = '\0';
  *made = false;
  if (o->new_token) {
    char tok[65];
    if (gw_http_random_hex(tok, 32) != 0) {
      snprintf(why, why_len, "serve: no random bytes for a token");
      return NULL;
    }
    *made = true;
    return xstrdup(tok);
  }
  if (!o->token_file) {
    return NULL;
  }
  const char *path = o->token_file;
  /* O_NONBLOCK: a FIFO (or a device) would block the open until a writer
   * came, with the signals not yet watched; fstat below refuses it. */
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && errno == ENOENT) {
    char *tok = make_token_file(path, why, why_len);
    *made = tok != NULL;
    return tok;
  }
  struct stat st;
  char buf[512];
  ssize_t n = -1;
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(why, why_len, "serve --token-file %s: %s", path, strerror(errno));
  } else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
             (st.st_mode & 077)) {
    snprintf(why, why_len,
             "serve --token-file %s: must be a regular file of yours that "
             "only you can read (chmod 600)",
             path);
  } else {
    n = read(fd, buf, sizeof buf - 1);
  }
  if (fd >= 0) {
    close(fd);
  }
  if (n < 0) {
    if (!why[0]) {
      snprintf(why, why_len, "serve --token-file %s: cannot read it", path);
    }
    return NULL;
  }
  buf[n] = '\0';
  buf[strcspn(buf, "\r\n")] = '\0';
  size_t len = strlen(buf);
  for (size_t i = 0; i < len; i++) {
    /* A token goes in a header: visible ASCII only. */
    if (buf[i] <= ' ' || buf[i] > '~') {
      len = 0;
    }
  }
  if (len < 16) {
    snprintf(why, why_len,
             "serve --token-file %s: the first line must be a token of at "
             "least 16 visible ASCII characters",
             path);
    return NULL;
  }
  return xstrdup(buf);
}

bool gw_http_token_ok(const char *value, const char *token) {
  if (!value || strncasecmp(value, "Bearer ", 7) != 0) {
    return false;
  }
  value += 7;
  while (*value == ' ') {
    value++;
  }
  size_t a = strlen(value), b = strlen(token);
  unsigned char diff = a != b;
  for (size_t i = 0; i < b; i++) {
    diff |= (unsigned char)(token[i] ^ (i < a ? value[i] : 0));
  }
  return diff == 0;
}

/* Whether `name` (a host without its port) is this machine's:
 * localhost, or a loopback address written out (127.0.0.0/8, [::1]),
 * so a gateway listening on 127.0.0.2 takes its own URL. An address
 * literal is never a name a rebinding DNS answers for. */
static bool loopback_name(const char *name, size_t n) {
  if (n == 9 && strncasecmp(name, "localhost", 9) == 0) {
    return true;
  }
  bool v6 = n >= 2 && name[0] == '[' && name[n - 1] == ']';
  char lit[64];
  if (n >= sizeof lit + (v6 ? 2 : 0)) {
    return false;
  }
  snprintf(lit, sizeof lit, "%.*s", (int)(v6 ? n - 2 : n),
           v6 ? name + 1 : name);
  struct sockaddr_storage ss;
  bool loopback = false;
  int rc = parse_address(lit, v6 ? AF_INET6 : AF_INET, 0, &ss, NULL, &loopback);
  return rc == 0 && loopback;
}

/* Splits "name[:port]" ("[v6][:port]"); `*port` is NULL without one. */
static size_t split_host(const char *h, const char **port) {
  const char *end = h[0] == '[' ? strchr(h, ']') : NULL;
  const char *colon = strchr(end ? end : h, ':');
  *port = colon ? colon + 1 : NULL;
  return colon ? (size_t)(colon - h) : strlen(h);
}

bool gw_http_origin_ok(const char *origin, const gw_http_opts *o) {
  if (!origin) {
    return true; /* not a browser's request */
  }
  for (size_t i = 0; i < o->norigins; i++) {
    if (strcasecmp(origin, o->origins[i]) == 0) {
      return true;
    }
  }
  const char *rest = strncasecmp(origin, "http://", 7) == 0    ? origin + 7
                     : strncasecmp(origin, "https://", 8) == 0 ? origin + 8
                                                               : NULL;
  if (!rest || strchr(rest, '/')) {
    return false;
  }
  const char *port;
  size_t n = split_host(rest, &port);
  return loopback_name(rest, n) &&
         (!port || (*port && strspn(port, "0123456789") == strlen(port)));
}

bool gw_http_host_ok(const char *value, bool loopback, unsigned port) {
  if (!value || !*value) {
    return false; /* HTTP/1.1 needs one */
  }
  if (!loopback) {
    return true;
  }
  const char *p;
  size_t n = split_host(value, &p);
  if (!loopback_name(value, n)) {
    return false;
  }
  char want[8];
  snprintf(want, sizeof want, "%u", port);
  return !p || strcmp(p, want) == 0;
}
