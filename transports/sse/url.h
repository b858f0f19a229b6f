/*
 * URL handling for the sse transport, all through libcurl's URL API:
 * resolving the endpoint event against the SSE URL, comparing origins,
 * the URL text used in messages, query parameters.
 */
#ifndef MCPH_SSE_URL_H
#define MCPH_SSE_URL_H

#include <stdbool.h>
#include <stddef.h>

/* Checks that `url` is an absolute http or https URL with a host. Returns
 * true, or false with the reason in `why`. */
bool url_check_http(const char *url, char *why, size_t why_len);

/* Resolves `ref` (absolute, or relative as in an endpoint event) against
 * `base`. Returns a new string (free()), or NULL with the reason in
 * `why`; the result is always an http or https URL. */
char *url_resolve(const char *base, const char *ref, char *why, size_t why_len);

/* Writes the origin of `url` as people read it, "scheme://host[:port]",
 * the port left out when it is the scheme's default. "?" when `url` does
 * not parse. */
void url_origin(const char *url, char *out, size_t size);

/* True when both URLs have the same scheme, host and port (a port left
 * out counts as the scheme's default). */
bool url_same_origin(const char *a, const char *b);

/* Whether a redirect from `from` to `to` may be followed: within the
 * origin, or from http to https on the same host with default ports (what
 * the MCP TypeScript SDK allows), and without adding credentials. */
bool url_redirect_allowed(const char *from, const char *to);

/* `url` without its user name and password, for messages and logs. A
 * new string (free()), or NULL when out of memory. */
char *url_display(const char *url);

/* The first query parameter `name` of `url`, percent-decoded, as a new
 * string (free()); NULL when there is none. */
char *url_query_param(const char *url, const char *name);

#endif /* MCPH_SSE_URL_H */
