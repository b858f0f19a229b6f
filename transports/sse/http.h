/*
 * What the sse transport keeps of a response for messages (status line,
 * content type, WWW-Authenticate, an excerpt of an error body). Easy
 * handles and the classification of failures are shared with the http
 * transport (../common/http_client.h).
 */
#ifndef MCPH_SSE_HTTP_H
#define MCPH_SSE_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <curl/curl.h>

#define HTTP_REASON_MAX 64
#define HTTP_EXCERPT_MAX 300

/* What is kept of one response. Loop thread; filled from curl callbacks. */
typedef struct http_resp {
  long status; /* of the last status line; 0 if none */
  /* Its reason phrase (HTTP_REASON_MAX bytes of it), shown by the one
   * rule (http_client_excerpt); may be "". */
  char reason[HTTP_REASON_MAX * 8 + 1];
  bool event_stream;               /* Content-Type: text/event-stream */
  char content_type[64];           /* as sent, for messages */
  char *www_authenticate;          /* the header's value, or NULL */
  char body[HTTP_EXCERPT_MAX + 1]; /* the start of the body */
  size_t body_len;
} http_resp;

void http_resp_init(http_resp *r);
void http_resp_free(http_resp *r);

/* Takes one header line as CURLOPT_HEADERFUNCTION gets it (with its line
 * end). A status line starts a new response (after a 100 Continue or a
 * proxy's CONNECT answer). Returns true when the line is the blank line
 * that ends the headers of a final (not 1xx) response. */
bool http_resp_header(http_resp *r, const char *line, size_t len);

/* Keeps the start of the body for an error message. Returns true once
 * the excerpt is full. */
bool http_resp_keep_body(http_resp *r, const char *data, size_t len);

/* "HTTP 404 Not Found", then ": <excerpt of the body>" when
 * `with_body` and there is one, with control characters made spaces. */
void http_resp_describe(const http_resp *r, bool with_body, char *out,
                        size_t size);

#endif /* MCPH_SSE_HTTP_H */
