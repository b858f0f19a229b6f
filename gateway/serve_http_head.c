/* The gateway's HTTP/1.1 request heads (serve_http_head.h). */
#include "gateway/serve_http_head.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

#define HEAD_MAX GW_HTTP_HEAD_MAX
#define BODY_MAX GW_HTTP_BODY_MAX

/* Finds the end of the headers: the length of the head, or 0. */
static size_t head_length(const char *in, size_t len) {
  for (size_t i = 3; i < len; i++) {
    if (in[i] == '\n' && in[i - 1] == '\r' && in[i - 2] == '\n' &&
        in[i - 3] == '\r') {
      return i + 1;
    }
  }
  return 0;
}

/* Whether every line of the head ends with CRLF and it holds no NUL: a
 * NUL would end the head here, a bare CR or LF end a line, where a
 * proxy in front may see neither and frame the request differently
 * (RFC 9112 2.2: a bare CR is refused, or read as a space). */
static bool lines_plain(const char *data, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (data[i] == '\0' ||
        (data[i] == '\r' && (i + 1 == len || data[i + 1] != '\n')) ||
        (data[i] == '\n' && (i == 0 || data[i - 1] != '\r'))) {
      return false;
    }
  }
  return true;
}

/* Whether `name` is a header name, an RFC 9110 token: a space before
 * the colon, a folded line or a control byte is refused (RFC 9112 5.1),
 * not read as another, unknown header that a proxy may read as a known
 * one ("Transfer-Encoding :"). */
static bool name_ok(const char *name) {
  static const char extra[] = "!#$%&'*+-.^_`|~";
  if (!*name) {
    return false;
  }
  for (const char *c = name; *c; c++) {
    if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
          (*c >= 'A' && *c <= 'Z') || strchr(extra, *c))) {
      return false;
    }
  }
  return true;
}

/* Parses the head; false when it is not HTTP/1.x. */
static bool parse_head(const char *data, size_t len, http_req *r) {
  r->head = xcalloc(1, len + 1);
  memcpy(r->head, data, len);
  if (!lines_plain(data, len)) {
    return false;
  }
  char *save = NULL;
  char *line = strtok_r(r->head, "\r\n", &save);
  char *sp1 = line ? strchr(line, ' ') : NULL;
  char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
  if (!sp2 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
    return false;
  }
  *sp1 = *sp2 = '\0';
  r->method = line;
  r->target = sp1 + 1;
  r->close = strcmp(sp2 + 1, "HTTP/1.0") == 0;
  while ((line = strtok_r(NULL, "\r\n", &save))) {
    char *colon = strchr(line, ':');
    if (!colon) {
      return false;
    }
    *colon = '\0';
    if (!name_ok(line)) {
      return false;
    }
    char *v = colon + 1;
    v += strspn(v, " \t");
    for (char *e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t');) {
      *--e = '\0';
    }
    static const struct {
      const char *name;
      size_t off;
    } known[] = {
        {"host", offsetof(http_req, host)},
        {"origin", offsetof(http_req, origin)},
        {"authorization", offsetof(http_req, auth)},
        {"content-type", offsetof(http_req, ctype)},
        {"accept", offsetof(http_req, accept)},
        {"mcp-session-id", offsetof(http_req, session)},
        {"mcp-protocol-version", offsetof(http_req, version)},
        {"last-event-id", offsetof(http_req, last_event_id)},
        {"mcp-method", offsetof(http_req, mcp_method)},
        {"mcp-name", offsetof(http_req, mcp_name)},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
      const char **field = (const char **)((char *)r + known[i].off);
      if (strcasecmp(line, known[i].name) == 0) {
        if (field == &r->host && r->host) {
          return false; /* two Hosts: 400 (RFC 9112 3.2) */
        }
        *field = v;
      }
    }
    if (strcasecmp(line, "content-length") == 0) {
      /* Digits only (strtoull would take "+5" or "-1"), and one value: a
       * proxy in front that read another length would frame the
       * connection's next request differently (request smuggling). */
      unsigned long long n = strtoull(v, NULL, 10);
      if (!*v || strspn(v, "0123456789") != strlen(v) || n > SIZE_MAX ||
          (r->has_length && r->content_length != n)) {
        return false;
      }
      r->content_length = (size_t)n;
      r->has_length = true;
    } else if (strcasecmp(line, "transfer-encoding") == 0) {
      r->chunked = true;
    } else if (strcasecmp(line, "connection") == 0) {
      r->close = strcasecmp(v, "close") == 0;
    }
  }
  return true;
}

enum gw_http_frame gw_http_frame(const char *in, size_t len, http_req *r,
                                 size_t *head_len) {
  size_t hl = head_length(in, len);
  *head_len = hl;
  /* The head, its empty line included, is HEAD_MAX bytes at most,
   * however the reads cut it: a whole one that arrived in one read is
   * measured as one still arriving. */
  if (hl > HEAD_MAX || (hl == 0 && len > HEAD_MAX)) {
    return GW_FRAME_HEAD_BIG;
  }
  if (hl == 0) {
    return GW_FRAME_HEAD_WAIT;
  }
  if (!parse_head(in, hl, r)) {
    return GW_FRAME_BAD;
  }
  if (r->chunked || (!r->has_length && strcmp(r->method, "POST") == 0)) {
    return GW_FRAME_NO_LENGTH;
  }
  if (r->content_length > BODY_MAX) {
    return GW_FRAME_BODY_BIG;
  }
  return len - hl < r->content_length ? GW_FRAME_BODY_WAIT : GW_FRAME_READY;
}
