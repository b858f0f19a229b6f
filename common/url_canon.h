/* A URL as libcurl reads it, for the enterprise URL policy
 * (host/config/config_policy.c).
 *
 * The remote transports connect through libcurl's URL API (curl_url); a
 * policy that read URLs with a parser of its own could be told one host
 * while the transport connects to another (a backslash, an '@', userinfo,
 * percent-encoded or upper-case host names, a trailing dot). So the
 * policy reads them with the same API: libcurl is opened with dlopen on
 * first use, only when a URL meets a URL rule, so a stdio run maps none
 * of it. Any thread (the library is opened once). */
#ifndef MCPHOST_COMMON_URL_CANON_H
#define MCPHOST_COMMON_URL_CANON_H

#include <stddef.h>

/* "scheme://host[:port]/path[?query]" as libcurl reads `url`: scheme and
 * host in lower case, the host percent-decoded and without a trailing
 * dot, no userinfo, no fragment, no default port, the path's dot
 * segments resolved. A new string (free with free()), or NULL with `why`
 * filled when libcurl cannot be opened or does not take the URL. */
char *url_canon(const char *url, char *why, size_t why_len);

#endif
