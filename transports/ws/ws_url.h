/* A ws:// or wss:// URL taken apart for libwebsockets, which wants the
 * host, port and path separately. Written here rather than with libcurl's
 * URL API (which the http transports use) because Debian's libcurl has no
 * ws scheme and the ws transport does not otherwise load libcurl. Pure
 * functions, any thread. */
#ifndef MCPH_WS_URL_H
#define MCPH_WS_URL_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ws_url {
  bool tls;          /* wss */
  char *host;        /* without brackets for an IPv6 literal; lower case */
  int port;          /* given, or 80 / 443 */
  char *path;        /* path and query, "/" when none; no fragment */
  char *host_header; /* "host" or "host:port" (brackets kept), for Host */
  bool literal;      /* host is an IPv4 or IPv6 address */
} ws_url;

/* Parses `url`. Returns true, or false with the reason in `why` (never
 * quoting the URL): a wrong scheme, no host, a bad port, user
 * information (never sent), white space or control characters. */
bool ws_url_parse(const char *url, ws_url *out, char *why, size_t why_len);
void ws_url_free(ws_url *u);

/* ws_url_parse() as a check only, for remote_config's "url" rule. */
bool ws_url_check(const char *url, char *why, size_t why_len);

#endif
