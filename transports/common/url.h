/*
 * URLs for the remote transports (http, sse), all through libcurl's URL
 * API: checking a configured URL, the forms messages show, origins, the
 * redirect policy, resolving an endpoint, query parameters. Pure
 * functions; any thread.
 */
#ifndef MCPH_TRANSPORT_URL_H
#define MCPH_TRANSPORT_URL_H

#include <stdbool.h>
#include <stddef.h>

#include "url_redact.h"
#include "url_rule.h"

/* At most this many redirects are followed for one request. */
#define URL_MAX_REDIRECTS 5u

/* Checks that `url` is an absolute http or https URL with a host. Returns
 * true, or false with the reason in `why` (which never quotes the URL). */
bool url_check_http(const char *url, char *why, size_t why_len);

/* What the http and sse transports take as "url" (remote_config.h). */
extern const remote_url_rule url_http_rule;

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

/* The redirect policy of both remote transports: a redirect from `from`
 * to `to` is followed only within the origin, or from http to https on
 * the same host with default ports (what the MCP TypeScript SDK allows),
 * never when it adds credentials, and at most URL_MAX_REDIRECTS times
 * (`count`: redirects followed so far for the request). Configured
 * headers, the session id and the message body are sent again only to a
 * target this allows. Returns true, or false with the reason in `why`:
 * "redirected to another origin (ORIGIN)", "... adds credentials",
 * "more than 5 redirects". */
bool url_redirect_check(const char *from, const char *to, unsigned count,
                        char *why, size_t why_len);

/* Whether an HTTP status is a redirect the transports follow (301, 302,
 * 303, 307, 308; the method and body are kept). */
bool url_is_redirect(long status);

/* The redacted form of a configured URL for messages: url_redacted() of
 * ../../common/url_redact.h, shared with the host. */
/* `url` without its user name and password, its query kept: for URLs the
 * server gave (an endpoint whose query is its session). A new string
 * (free()), or NULL when out of memory. */
char *url_display(const char *url);

/* The first query parameter `name` of `url`, percent-decoded, as a new
 * string (free()); NULL when there is none. */
char *url_query_param(const char *url, const char *name);

#endif /* MCPH_TRANSPORT_URL_H */
