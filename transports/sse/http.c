/* What the sse transport keeps of a response; see http.h. */
#include "http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mcphost/abi.h>

#include "../common/http_client.h"

void http_resp_init(http_resp *r) {
  memset(r, 0, sizeof *r);
}

void http_resp_free(http_resp *r) {
  free(r->www_authenticate);
  http_resp_init(r);
}

/* Copies `s[0..n)` into `out` without leading and trailing blanks. */
static void copy_trimmed(char *out, size_t size, const char *s, size_t n) {
  while (n > 0 && (*s == ' ' || *s == '\t')) {
    s++;
    n--;
  }
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
                   s[n - 1] == '\n')) {
    n--;
  }
  if (n >= size) {
    n = size - 1;
  }
  memcpy(out, s, n);
  out[n] = '\0';
}

static void status_line(http_resp *r, const char *line, size_t len) {
  /* "HTTP/1.1 404 Not Found" or "HTTP/2 200" */
  free(r->www_authenticate);
  http_resp_init(r);
  const char *sp = memchr(line, ' ', len);
  if (!sp) {
    return;
  }
  size_t rest = len - (size_t)(sp + 1 - line);
  const char *p = sp + 1;
  long status = 0;
  size_t i = 0;
  while (i < rest && i < 3 && p[i] >= '0' && p[i] <= '9') {
    status = status * 10 + (p[i] - '0');
    i++;
  }
  r->status = i == 3 ? status : 0;
  if (i < rest) {
    size_t n = rest - i < HTTP_REASON_MAX ? rest - i : HTTP_REASON_MAX;
    http_client_excerpt(p + i, n, r->reason, sizeof r->reason);
  }
}

bool http_resp_header(http_resp *r, const char *line, size_t len) {
  if (len >= 5 && memcmp(line, "HTTP/", 5) == 0) {
    status_line(r, line, len);
    return false;
  }
  if (len == 0 || line[0] == '\r' || line[0] == '\n') {
    return r->status >= 200;
  }
  const char *colon = memchr(line, ':', len);
  if (!colon) {
    return false;
  }
  size_t nlen = (size_t)(colon - line);
  const char *value = colon + 1;
  size_t vlen = len - nlen - 1;
  if (nlen == 12 && strncasecmp(line, "content-type", 12) == 0) {
    copy_trimmed(r->content_type, sizeof r->content_type, value, vlen);
    r->event_stream =
        strncasecmp(r->content_type, "text/event-stream", 17) == 0 &&
        (r->content_type[17] == '\0' || r->content_type[17] == ';' ||
         r->content_type[17] == ' ');
  } else if (nlen == 16 && strncasecmp(line, "www-authenticate", 16) == 0 &&
             !r->www_authenticate) {
    char buf[400];
    copy_trimmed(buf, sizeof buf, value, vlen);
    r->www_authenticate = strdup(buf);
  }
  return false;
}

bool http_resp_keep_body(http_resp *r, const char *data, size_t len) {
  size_t room = HTTP_EXCERPT_MAX - r->body_len;
  size_t n = len < room ? len : room;
  memcpy(r->body + r->body_len, data, n);
  r->body_len += n;
  r->body[r->body_len] = '\0';
  return r->body_len == HTTP_EXCERPT_MAX;
}

void http_resp_describe(const http_resp *r, bool with_body, char *out,
                        size_t size) {
  char body[HTTP_EXCERPT_MAX * 2 + 1];
  body[0] = '\0';
  if (with_body) {
    http_client_excerpt(r->body, r->body_len, body, sizeof body);
  }
  snprintf(out, size, "HTTP %ld%s%s%s%s%s", r->status, r->reason[0] ? " " : "",
           r->reason, body[0] ? ": " : "", body,
           r->body_len == HTTP_EXCERPT_MAX && body[0] ? "..." : "");
}
