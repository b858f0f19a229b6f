/*
 * What the remote transports (http, sse) share about HTTP on libcurl:
 * easy handles with the options every request carries, and one
 * classification of failures -- curl's errors and HTTP statuses as
 * MCPH_E* codes, and which failures mean the server cannot be reached.
 * Loop thread (the handles); the rest are pure functions.
 */
#ifndef MCPH_HTTP_CLIENT_H
#define MCPH_HTTP_CLIENT_H

#include <stdbool.h>

#include <curl/curl.h>

#include "remote_config.h"

/* A new easy handle for `url` with the options every request shares:
 * User-Agent, http and https only, no redirects followed by curl (the
 * transports follow them by url_redirect_check()), TCP keep-alive, the
 * TLS options of `cfg`, proxies from the environment (curl's default)
 * with the proxy's own CONNECT answer kept from the header callback.
 * `errbuf` (CURL_ERROR_SIZE bytes) gets curl's detailed error text.
 * Returns NULL when out of memory. */
CURL *http_client_easy(const remote_config *cfg, const char *user_agent,
                       const char *url, char *errbuf);

/* curl's detailed error if it wrote one, else its generic text. */
const char *http_client_curl_error(CURLcode rc, const char *errbuf);

/* The MCPH_E* code for a transfer that failed without an HTTP status:
 * MCPH_ECONNREFUSED when the server cannot be reached (see
 * http_client_unreachable()), MCPH_ETIMEDOUT, MCPH_ENOMEM, else
 * MCPH_EIO. */
int http_client_code_for_curl(CURLcode rc);

/* True for the failures that say the server is not there (any more), the
 * terminal errors of Claude Code's connection manager: the connection
 * was refused or could not be made (ECONNREFUSED, EHOSTUNREACH, a name
 * that does not resolve, a connect timeout), or it was reset or closed
 * before an answer (ECONNRESET, EPIPE, an empty reply). Retrying with a
 * backoff only delays the inevitable: the transport ends, and the next
 * use connects again. */
bool http_client_unreachable(CURLcode rc);

/* The standard reason phrase of a status, for servers (HTTP/2) that send
 * none; "" when unknown. */
const char *http_client_reason(long status);

/* What a server sent in a response (a reason phrase, the start of an
 * error body), for one line of a message: CR, LF, tab and space runs as
 * one space, none at the ends, a UTF-8 sequence cut at the end dropped,
 * and the rest shown by the one rule (text_escape.h: controls and
 * invisible characters as "<U+XXXX>", UTF-8 as it is). Into `out`
 * (`size` > 0 bytes), cut there before a character or escape that does
 * not fit. */
void http_client_excerpt(const char *s, size_t n, char *out, size_t size);

#endif /* MCPH_HTTP_CLIENT_H */
