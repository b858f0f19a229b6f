/* Fuzz target: the gateway's request heads and their framing
 * (gateway/serve_http.h, gw_http_frame, as conn_process uses it). The
 * first byte picks a padding, the next eight a chunking; the rest is
 * what a client sends on one connection. With the padding, a header
 * "X-Pad: aaa..." goes in after the first CRLF, so long that the head
 * ends 2 bytes below to 2 bytes above the 16 KiB limit.
 * The bytes are read as conn_process reads them, whole and in chunks:
 * each whole request is taken, the rest kept, until a refusal or the
 * end. Properties:
 *  - the chunked run sees the same requests and the same last outcome;
 *  - each request is the one a plain model of RFC 9112 finds: the
 *    request line's method, target and HTTP/1.x version, each known
 *    header's value (the last one, without the spaces around it), one
 *    Content-Length of digits only, Transfer-Encoding refused, a POST
 *    without a length refused, the Connection: close rule; a head of a
 *    NUL, a CR or LF outside a CRLF, or a header name that is not a
 *    token (a space before the colon, a folded line), or a second Host
 *    is refused;
 *  - a head over 16384 bytes gets 431, a body over 4 MiB 413;
 *  - every string points inside the request's copy of the head, the body
 *    is the Content-Length bytes right after the head. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz_chunks.h"
#include "gateway/serve_http_head.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

#define HEAD_MAX (16u << 10) /* as the gateway promises */
#define BODY_MAX (4u << 20)
#define MAX_REQS 64

enum { NFIELDS = 12 };

/* What one run saw of one request. */
typedef struct seen {
  const char *field[NFIELDS]; /* method, target, the known headers */
  size_t head_len, content_length;
  bool has_length, close;
  const char *body;
} seen;

typedef struct run {
  seen req[MAX_REQS];
  char *heads[MAX_REQS];
  size_t n;
  enum gw_http_frame last;
} run;

static const char *const known[NFIELDS - 2] = {
    "host",       "origin",         "authorization",        "content-type",
    "accept",     "mcp-session-id", "mcp-protocol-version", "last-event-id",
    "mcp-method", "mcp-name"};

static void fields_of(const http_req *r, const char **f) {
  const char *v[NFIELDS] = {r->method,        r->target,     r->host,
                            r->origin,        r->auth,       r->ctype,
                            r->accept,        r->session,    r->version,
                            r->last_event_id, r->mcp_method, r->mcp_name};
  memcpy(f, v, sizeof v);
}

/* Takes the whole requests at the start of buf[0..*len) as
 * conn_process does; what a request's strings point to is kept (its
 * head) for the comparison. */
static void take(run *out, char *buf, size_t *len, bool *stop) {
  while (!*stop && out->n < MAX_REQS) {
    http_req r;
    memset(&r, 0, sizeof r);
    size_t hl;
    enum gw_http_frame f = gw_http_frame(buf, *len, &r, &hl);
    out->last = f;
    if (f != GW_FRAME_READY) {
      *stop = f != GW_FRAME_HEAD_WAIT && f != GW_FRAME_BODY_WAIT;
      free(r.head);
      return;
    }
    if (!r.method || !r.target || hl == 0 || !r.head) {
      abort();
    }
    seen *s = &out->req[out->n];
    out->heads[out->n++] = r.head;
    fields_of(&r, s->field);
    for (int i = 0; i < NFIELDS; i++) {
      const char *p = s->field[i];
      if (p && (p < r.head || p + strlen(p) > r.head + hl)) {
        abort(); /* a string outside the head */
      }
    }
    s->head_len = hl;
    s->content_length = r.content_length;
    s->has_length = r.has_length;
    s->close = r.close;
    if (r.chunked || r.content_length > BODY_MAX ||
        *len - hl < r.content_length) {
      abort();
    }
    /* The body, copied: the buffer moves on. */
    char *body = malloc(r.content_length + 1);
    if (!body) {
      abort();
    }
    memcpy(body, buf + hl, r.content_length);
    s->body = body;
    size_t used = hl + r.content_length;
    memmove(buf, buf + used, *len - used);
    *len -= used;
  }
}

static void run_free(run *r) {
  for (size_t i = 0; i < r->n; i++) {
    free(r->heads[i]);
    free((char *)r->req[i].body);
  }
}

static bool same_str(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_seen(const seen *a, const seen *b) {
  for (int i = 0; i < NFIELDS; i++) {
    if (!same_str(a->field[i], b->field[i])) {
      return false;
    }
  }
  return a->head_len == b->head_len && a->content_length == b->content_length &&
         a->has_length == b->has_length && a->close == b->close &&
         memcmp(a->body, b->body, a->content_length) == 0;
}

/* ---- the model ---- */

static bool tchar(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

typedef struct model_req {
  char *copy; /* the head's lines, owned; the fields point into it */
  seen s;
  bool chunked, post;
} model_req;

/* The head in s[0..hl) (hl > 0, ending with CRLF CRLF): false when it is
 * no HTTP/1.x request head. */
static bool model_head(const char *s, size_t hl, model_req *m) {
  memset(m, 0, sizeof *m);
  m->copy = malloc(hl + 1);
  if (!m->copy) {
    abort();
  }
  memcpy(m->copy, s, hl);
  m->copy[hl] = '\0';
  char *h = m->copy;
  size_t n = hl - 4; /* the lines without the last CRLF CRLF */
  while (n >= 2 && h[0] == '\r' && h[1] == '\n') {
    h += 2, n -= 2; /* empty lines before the request line */
  }
  for (size_t i = 0; i < n + 4; i++) {
    if (h[i] == '\0' || (h[i] == '\r' && h[i + 1] != '\n') ||
        (h[i] == '\n' && (i == 0 || h[i - 1] != '\r'))) {
      return false;
    }
  }
  h[n] = '\0';
  if (n == 0) {
    return false;
  }
  /* Lines, each ended by CRLF. */
  char *lines[HEAD_MAX / 2 + 2];
  size_t nl = 0;
  for (char *p = h;;) {
    char *e = strstr(p, "\r\n");
    lines[nl++] = p;
    if (!e) {
      break;
    }
    *e = '\0';
    p = e + 2;
  }
  char *rl = lines[0];
  char *sp1 = strchr(rl, ' ');
  char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
  if (!sp2 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
    return false;
  }
  *sp1 = *sp2 = '\0';
  m->s.field[0] = rl;
  m->s.field[1] = sp1 + 1;
  m->s.close = strcmp(sp2 + 1, "HTTP/1.0") == 0;
  m->post = strcmp(rl, "POST") == 0;
  for (size_t i = 1; i < nl; i++) {
    char *line = lines[i];
    char *colon = strchr(line, ':');
    if (!colon || colon == line) {
      return false;
    }
    for (char *c = line; c < colon; c++) {
      if (!tchar((unsigned char)*c)) {
        return false;
      }
    }
    *colon = '\0';
    char *v = colon + 1;
    while (*v == ' ' || *v == '\t') {
      v++;
    }
    char *e = v + strlen(v);
    while (e > v && (e[-1] == ' ' || e[-1] == '\t')) {
      *--e = '\0';
    }
    for (int k = 0; k < NFIELDS - 2; k++) {
      if (strcasecmp(line, known[k]) == 0) {
        if (k == 0 && m->s.field[2]) {
          return false; /* a second Host */
        }
        m->s.field[2 + k] = v;
      }
    }
    if (strcasecmp(line, "content-length") == 0) {
      if (!*v || strspn(v, "0123456789") != strlen(v)) {
        return false;
      }
      unsigned long long x = 0;
      for (const char *d = v; *d; d++) {
        unsigned dig = (unsigned)(*d - '0');
        x = x > (UINT64_MAX - dig) / 10 ? UINT64_MAX : x * 10 + dig;
      }
      if (m->s.has_length && m->s.content_length != x) {
        return false;
      }
      m->s.content_length = (size_t)x;
      m->s.has_length = true;
    } else if (strcasecmp(line, "transfer-encoding") == 0) {
      m->chunked = true;
    } else if (strcasecmp(line, "connection") == 0) {
      m->s.close = strcasecmp(v, "close") == 0;
    }
  }
  return true;
}

/* The model's reading of the whole input: its requests and last
 * outcome, checked against the run's as it goes. */
static void model_check(const char *in, size_t len, const run *got) {
  size_t at = 0, k = 0;
  enum gw_http_frame last;
  for (;;) {
    const char *p = in + at;
    size_t left = len - at;
    const char *end = NULL;
    for (size_t i = 0; i + 4 <= left; i++) {
      if (memcmp(p + i, "\r\n\r\n", 4) == 0) {
        end = p + i + 4;
        break;
      }
    }
    size_t hl = end ? (size_t)(end - p) : 0;
    if (hl > HEAD_MAX || (!end && left > HEAD_MAX)) {
      last = GW_FRAME_HEAD_BIG;
      break;
    }
    if (!end) {
      last = GW_FRAME_HEAD_WAIT;
      break;
    }
    model_req m;
    bool ok = model_head(p, hl, &m);
    last = !ok                                        ? GW_FRAME_BAD
           : m.chunked || (m.post && !m.s.has_length) ? GW_FRAME_NO_LENGTH
           : m.s.content_length > BODY_MAX            ? GW_FRAME_BODY_BIG
           : left - hl < m.s.content_length           ? GW_FRAME_BODY_WAIT
                                                      : GW_FRAME_READY;
    if (last == GW_FRAME_READY) {
      m.s.head_len = hl;
      m.s.body = p + hl;
      if (k >= got->n || !same_seen(&m.s, &got->req[k])) {
        abort(); /* not the request the model finds */
      }
      k++;
      at += hl + m.s.content_length;
    }
    free(m.copy);
    if (last != GW_FRAME_READY || k == MAX_REQS) {
      break;
    }
  }
  if (k != got->n || (k < MAX_REQS && last != got->last)) {
    abort();
  }
}

/* The input with the padding header after its first CRLF, sized so that
 * the head ends at HEAD_MAX - 2 + `delta`; or a plain copy. */
static char *expand(const unsigned char *data, size_t len, unsigned pad,
                    size_t *out_len) {
  const char *s = (const char *)data;
  const char *crlf = pad ? memmem(s, len, "\r\n", 2) : NULL;
  const char *end = crlf ? memmem(s, len, "\r\n\r\n", 4) : NULL;
  size_t extra = 0;
  if (end && end >= crlf) {
    size_t head = (size_t)(end - s) + 4;
    size_t want = HEAD_MAX - 2 + (pad - 1) % 5;
    if (want > head + 9) {
      extra = want - head; /* "X-Pad: " + a's + CRLF */
    }
  }
  char *out = malloc(len + extra + 1);
  if (!out) {
    abort();
  }
  if (!extra) {
    memcpy(out, s, len);
    *out_len = len;
    return out;
  }
  size_t before = (size_t)(crlf - s) + 2;
  memcpy(out, s, before);
  memcpy(out + before, "X-Pad: ", 7);
  memset(out + before + 7, 'a', extra - 9);
  memcpy(out + before + extra - 2, "\r\n", 2);
  memcpy(out + before + extra, s + before, len - before);
  *out_len = len + extra;
  return out;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len < 1) {
    return 0;
  }
  unsigned pad = data[0] < 200 ? 0 : data[0] - 199u;
  data++;
  len--;
  fuzz_chunks ch;
  fuzz_chunks_init(&ch, &data, &len);
  size_t n;
  char *in = expand(data, len, pad, &n);

  /* Whole. */
  static run whole, parts;
  memset(&whole, 0, sizeof whole);
  memset(&parts, 0, sizeof parts);
  char *buf = malloc(n + 1);
  if (!buf) {
    abort();
  }
  memcpy(buf, in, n);
  size_t blen = n;
  bool stop = false;
  take(&whole, buf, &blen, &stop);
  model_check(in, n, &whole);

  /* In chunks, as reads bring them; a padded input in larger ones (each
   * read scans the head from its start). */
  blen = 0;
  stop = false;
  parts.last = GW_FRAME_HEAD_WAIT;
  for (size_t off = 0; off < n && !stop;) {
    size_t k = fuzz_chunks_size(&ch, n - off) * (1 + n / 512);
    k = k < n - off ? k : n - off;
    memcpy(buf + blen, in + off, k);
    blen += k;
    off += k;
    take(&parts, buf, &blen, &stop);
  }
  if (parts.n != whole.n || (whole.n < MAX_REQS && parts.last != whole.last)) {
    abort();
  }
  for (size_t i = 0; i < whole.n; i++) {
    if (!same_seen(&whole.req[i], &parts.req[i])) {
      abort();
    }
  }
  run_free(&whole);
  run_free(&parts);
  free(buf);
  free(in);
  return 0;
}
