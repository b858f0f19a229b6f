/*
 * One HTTP exchange on libcurl: the request (method, headers, body), the
 * response headers (status, Content-Type, Mcp-Session-Id,
 * WWW-Authenticate), and the body, collected as JSON, parsed as an event
 * stream, or kept in part for an error message.
 *
 * The curl callbacks here only record state and queue host callbacks;
 * they never add or remove transfers (libcurl forbids it from inside its
 * callbacks) and never call the host's transport callbacks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/authorization.h"
#include "../common/url.h"
#include "http_status.h"
#include "http_transport.h"
#include "rpc_peek.h"

/* ---- small helpers ---- */

static bool media_is(const char *ctype, const char *type) {
  size_t n = strlen(type);
  return strncasecmp(ctype, type, n) == 0 &&
         (ctype[n] == '\0' || ctype[n] == ';' || ctype[n] == ' ' ||
          ctype[n] == '\t');
}

/* Visible ASCII only (the spec's rule for session ids; it also keeps
 * header injection out of the ids we echo back). */
static bool visible_ascii(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] < 0x21 || s[i] > 0x7e)
      return false;
  return n > 0;
}

static char *dup_n(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

static struct curl_slist *add_header(struct curl_slist *list, bool *ok,
                                     const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static struct curl_slist *add_header(struct curl_slist *list, bool *ok,
                                     const char *fmt, ...) {
  char line[SESSION_ID_MAX + 128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  struct curl_slist *n = curl_slist_append(list, line);
  if (!n) {
    *ok = false;
    return list;
  }
  return n;
}

/* ---- curl callbacks ---- */

static void parse_status_line(exchange *x, const char *l, size_t n) {
  /* "HTTP/1.1 200 OK" or "HTTP/2 200" */
  x->status = 0;
  x->reason[0] = '\0';
  const char *sp = memchr(l, ' ', n);
  if (!sp)
    return;
  size_t i = (size_t)(sp - l) + 1;
  long st = 0;
  size_t digits = 0;
  while (i < n && l[i] >= '0' && l[i] <= '9' && digits < 3) {
    st = st * 10 + (l[i++] - '0');
    digits++;
  }
  if (digits != 3)
    return;
  x->status = st;
  while (i < n && l[i] == ' ')
    i++;
  /* The phrase as sent (REASON_RAW_MAX bytes of it), shown by the one
   * rule. */
  size_t len = n - i < REASON_RAW_MAX ? n - i : REASON_RAW_MAX;
  http_client_excerpt(l + i, len, x->reason, sizeof x->reason);
}

/* A blank line ended a block of response headers. */
static void headers_end(exchange *x) {
  mcph_transport *t = x->t;
  long st = x->status;
  if (st < 200)
    return; /* 1xx: the real response follows */
  if (st < 300) {
    if (x->new_session && !x->stateless)
      http_session_assigned(t, x->new_session);
    if (x->kind != X_DELETE && media_is(x->ctype, "text/event-stream")) {
      x->mode = BODY_SSE;
      x->established = true;
    } else if (x->kind == X_POST && media_is(x->ctype, "application/json")) {
      x->mode = BODY_JSON;
    } else {
      x->mode = BODY_DISCARD;
    }
  } else if (st < 400) {
    x->mode = BODY_DISCARD; /* a redirect curl follows, or gives up on */
    return;
  } else {
    x->mode = BODY_ERROR;
  }
  if (x->kind == X_STREAM && t->hold) {
    /* Whatever the answer, the GET is settled: held POSTs may go (from
     * the pump; no transfer can start inside a curl callback). */
    t->release_pending = true;
    hq_schedule(t);
  }
}

static size_t on_header(char *buf, size_t size, size_t nitems, void *ud) {
  exchange *x = ud;
  size_t len = size * nitems, n = len;
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
    n--;
  if (n >= 5 && memcmp(buf, "HTTP/", 5) == 0) {
    /* A new response (after a redirect or a 1xx): forget the last. */
    parse_status_line(x, buf, n);
    x->t->reached = true;
    x->ctype[0] = '\0';
    free(x->www_auth);
    x->www_auth = NULL;
    free(x->new_session);
    x->new_session = NULL;
    x->mode = BODY_NONE;
    return len;
  }
  if (n == 0) {
    headers_end(x);
    return len;
  }
  const char *colon = memchr(buf, ':', n);
  if (!colon)
    return len;
  size_t nlen = (size_t)(colon - buf);
  const char *v = colon + 1, *end = buf + n;
  while (v < end && (*v == ' ' || *v == '\t'))
    v++;
  while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  size_t vlen = (size_t)(end - v);
  if (nlen == 12 && strncasecmp(buf, "content-type", 12) == 0) {
    size_t k = vlen < sizeof x->ctype - 1 ? vlen : sizeof x->ctype - 1;
    memcpy(x->ctype, v, k);
    x->ctype[k] = '\0';
  } else if (nlen == 14 && strncasecmp(buf, "mcp-session-id", 14) == 0) {
    if (vlen <= SESSION_ID_MAX && visible_ascii(v, vlen)) {
      free(x->new_session);
      x->new_session = dup_n(v, vlen);
    } else {
      mcph_logf(x->t->host, MCPH_LOG_WARN, x->t->name,
                "ignoring an invalid Mcp-Session-Id header from %s",
                x->t->cfg.display_url);
    }
  } else if (nlen == 16 && strncasecmp(buf, "www-authenticate", 16) == 0) {
    size_t old = x->www_auth ? strlen(x->www_auth) : 0;
    if (old + vlen + 3 <= 4096) {
      char *w = realloc(x->www_auth, old + vlen + 3);
      if (w) {
        size_t o = old;
        if (old) {
          w[o++] = ',';
          w[o++] = ' ';
        }
        memcpy(w + o, v, vlen);
        w[o + vlen] = '\0';
        x->www_auth = w;
      }
    }
  }
  return len;
}

static bool body_append(exchange *x, const char *data, size_t n, size_t limit) {
  if (n > limit - x->body_len)
    return false;
  size_t need = x->body_len + n + 1;
  if (need > x->body_cap) {
    size_t cap = x->body_cap ? x->body_cap : 4096;
    while (cap < need)
      cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    if (cap > limit + 1)
      cap = limit + 1; /* need <= limit + 1: doubling stops at the cap */
    char *b = realloc(x->body, cap);
    if (!b)
      return false;
    x->body = b;
    x->body_cap = cap;
  }
  memcpy(x->body + x->body_len, data, n);
  x->body_len += n;
  x->body[x->body_len] = '\0';
  return true;
}

static size_t on_body(char *buf, size_t size, size_t nitems, void *ud) {
  exchange *x = ud;
  mcph_transport *t = x->t;
  size_t len = size * nitems;
  switch (x->mode) {
  case BODY_JSON:
    if (!body_append(x, buf, len, t->cfg.max_message_bytes)) {
      size_t room = t->cfg.max_message_bytes - x->body_len;
      x->abort_code = len > room ? MCPH_ETOOBIG : MCPH_ENOMEM;
      /* Keep the body's first bytes for on_message_dropped, whose id tells
       * the host which request the message answered. */
      if (len > room && x->body_len < SSE_DROP_HEAD_MAX) {
        size_t k = SSE_DROP_HEAD_MAX - x->body_len;
        k = k < room ? k : room;
        body_append(x, buf, k < len ? k : len, t->cfg.max_message_bytes);
      }
      curl_off_t cl = -1;
      if (curl_easy_getinfo(x->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl) ==
              CURLE_OK &&
          cl > 0)
        x->body_total = (size_t)cl;
      return 0; /* curl ends the transfer with CURLE_WRITE_ERROR */
    }
    return len;
  case BODY_SSE:
    sse_feed(&x->sse, buf, len); /* drops are reported by on_sse_drop */
    return len;
  case BODY_ERROR: {
    /* A stateless request's error may be its JSON-RPC answer: whole. */
    size_t keep = x->stateless ? ERROR_BODY_MAX : EXCERPT_BYTES + 4;
    if (x->body_len < keep)
      body_append(x, buf, len < keep - x->body_len ? len : keep - x->body_len,
                  keep);
    return len;
  }
  default: return len;
  }
}

static void on_sse_event(void *ud, const sse_event *ev) {
  exchange *x = ud;
  if (ev->data_len == 0)
    return; /* a priming event: only its id and retry matter */
  if (strcmp(ev->event, "message") != 0) {
    mcph_logf(x->t->host, MCPH_LOG_DEBUG, x->t->name,
              "skipping an event of type \"%.64s\" from %s", ev->event,
              x->t->cfg.display_url);
    return;
  }
  stream_deliver(x, ev->data, ev->data_len);
}

static void on_sse_drop(void *ud, const char *head, size_t head_len) {
  exchange *x = ud;
  mcph_transport *t = x->t;
  if (x->req_id && !x->answered)
    x->dropped++;
  char msg[600];
  snprintf(msg, sizeof msg,
           "an event from %s exceeds the %zu-byte message limit; dropped",
           t->cfg.display_url, t->cfg.max_message_bytes);
  hq_dropped(t, MCPH_ETOOBIG, msg, head, head_len, 0);
}

static void on_sse_retry(void *ud, unsigned long ms) {
  exchange *x = ud;
  x->retry_ms = (unsigned long)backoff_first(ms);
  x->has_retry = true;
}

/* ---- the exchange ---- */

exchange *exchange_new(mcph_transport *t, xkind kind, const char *msg,
                       size_t len) {
  exchange *x = calloc(1, sizeof *x);
  if (!x)
    return NULL;
  x->t = t;
  x->kind = kind;
  if (msg) {
    if (!(x->msg = dup_n(msg, len))) {
      free(x);
      return NULL;
    }
    x->msg_len = len;
    rpc_peek pk;
    if (rpc_peek_object(msg, len, &pk)) {
      if (pk.id && pk.method && !pk.has_result && !pk.has_error) {
        if (!(x->req_id = dup_n(pk.id, pk.id_len))) {
          free(x->msg);
          free(x);
          return NULL;
        }
        x->req_id_len = pk.id_len;
      }
      static const char initialized[] = "\"notifications/initialized\"";
      static const char initialize[] = "\"initialize\"";
      x->initialize = x->req_id && pk.method_len == sizeof initialize - 1 &&
                      memcmp(pk.method, initialize, pk.method_len) == 0;
      x->opens_stream = !pk.id && pk.method &&
                        pk.method_len == sizeof initialized - 1 &&
                        memcmp(pk.method, initialized, pk.method_len) == 0;
    }
  }
  if (kind != X_DELETE) {
    sse_init(&x->sse, t->cfg.max_message_bytes, on_sse_event, on_sse_retry, x);
    sse_set_on_drop(&x->sse, on_sse_drop);
    x->sse_ready = true;
  }
  x->prev = t->tail;
  if (t->tail)
    t->tail->next = x;
  else
    t->head = x;
  t->tail = x;
  return x;
}

static void reset_response(exchange *x) {
  x->status = 0;
  x->reason[0] = '\0';
  x->ctype[0] = '\0';
  free(x->www_auth);
  x->www_auth = NULL;
  free(x->new_session);
  x->new_session = NULL;
  x->mode = BODY_NONE;
  x->body_len = 0;
  x->abort_code = 0;
  x->body_total = 0;
  x->established = false;
  x->errbuf[0] = '\0';
  x->redirect_refused[0] = '\0';
  if (x->sse_ready)
    sse_restart(&x->sse); /* keeps the last event id */
}

static struct curl_slist *build_headers(exchange *x, bool *ok) {
  mcph_transport *t = x->t;
  struct curl_slist *h = NULL;
  if (x->kind == X_POST) {
    h = add_header(h, ok, "Content-Type: application/json");
    h = add_header(h, ok, "Accept: application/json, text/event-stream");
    h = add_header(h, ok, "Expect:"); /* no 100-continue round trip */
  } else if (x->kind != X_DELETE) {
    h = add_header(h, ok, "Accept: text/event-stream");
    const char *last = sse_last_event_id(&x->sse);
    size_t n = strlen(last);
    if (n > 0 && n <= SESSION_ID_MAX) {
      bool printable = true;
      for (size_t i = 0; i < n; i++)
        printable =
            printable && (unsigned char)last[i] >= 0x20 && last[i] != 0x7f;
      if (printable)
        h = add_header(h, ok, "Last-Event-ID: %s", last);
    }
  }
  if (!authorization_headers(&h, t->cfg.headers, t->authorization)) {
    *ok = false;
  }
  if (x->stateless) {
    for (char **e = x->extra; e && *e; e++)
      h = add_header(h, ok, "%s", *e);
    return h;
  }
  if (x->session)
    h = add_header(h, ok, "Mcp-Session-Id: %s", x->session);
  if (t->protocol_version)
    h = add_header(h, ok, "MCP-Protocol-Version: %s", t->protocol_version);
  return h;
}

int exchange_start(exchange *x) {
  mcph_transport *t = x->t;
  const remote_config *c = &t->cfg;
  reset_response(x);
  free(x->session);
  x->session = NULL;
  if (!x->stateless && t->session_id && !(x->session = strdup(t->session_id)))
    goto nomem;
  CURL *e =
      http_client_easy(c, t->user_agent, x->url ? x->url : c->url, x->errbuf);
  if (!e) {
    goto nomem;
  }
  bool ok = true;
  x->hdrs = build_headers(x, &ok);
  if (!ok) {
    curl_easy_cleanup(e);
    curl_slist_free_all(x->hdrs);
    x->hdrs = NULL;
    goto nomem;
  }
  /* Redirects (e.g. /mcp -> /mcp/) are followed by http_done(), within
   * the origin only (url_redirect_check), keeping the method and body. */
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, x->hdrs);
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, x);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
  switch (x->kind) {
  case X_POST:
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, x->msg);
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)x->msg_len);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, c->timeout_ms);
    break;
  case X_STREAM:
  case X_RESUME:
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                     c->timeout_ms < GET_CONNECT_TIMEOUT_MS
                         ? c->timeout_ms
                         : GET_CONNECT_TIMEOUT_MS);
    break;
  case X_DELETE:
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "DELETE");
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, DELETE_TIMEOUT_MS);
    break;
  }
  if (curl_loop_add(t->cl, e, http_done, x) != 0) {
    curl_easy_cleanup(e);
    curl_slist_free_all(x->hdrs);
    x->hdrs = NULL;
    snprintf(x->last_error, sizeof x->last_error,
             "cannot start a transfer to %s", c->display_url);
    return MCPH_EIO;
  }
  x->easy = e;
  return 0;
nomem:
  snprintf(x->last_error, sizeof x->last_error, "out of memory");
  return MCPH_ENOMEM;
}

void exchange_stop(exchange *x) {
  mcph_transport *t = x->t;
  if (x->timer) {
    t->host->timer_cancel(t->host, x->timer);
    x->timer = NULL;
  }
  if (x->easy) {
    curl_loop_remove(t->cl, x->easy);
    curl_easy_cleanup(x->easy);
    x->easy = NULL;
  }
  curl_slist_free_all(x->hdrs);
  x->hdrs = NULL;
}

void exchange_free(exchange *x) {
  if (!x)
    return;
  mcph_transport *t = x->t;
  exchange_stop(x);
  if (x->prev)
    x->prev->next = x->next;
  else
    t->head = x->next;
  if (x->next)
    x->next->prev = x->prev;
  else
    t->tail = x->prev;
  if (t->stream == x)
    t->stream = NULL;
  if (x->sse_ready)
    sse_free(&x->sse);
  free(x->msg);
  free(x->req_id);
  free(x->session);
  free(x->www_auth);
  free(x->new_session);
  free(x->body);
  free(x->url);
  for (char **e = x->extra; e && *e; e++)
    free(*e);
  free(x->extra);
  free(x);
}

/* ---- describing failures ---- */

long exchange_status(const exchange *x) {
  return x->status;
}

int exchange_describe_status(const exchange *x, char *buf, size_t size) {
  const char *url = x->t->cfg.display_url;
  long st = x->status;
  char body[EXCERPT_BYTES * 2 + 1];
  size_t blen = x->mode == BODY_ERROR ? x->body_len : 0;
  http_client_excerpt(x->body ? x->body : "",
                      blen < EXCERPT_BYTES ? blen : EXCERPT_BYTES, body,
                      sizeof body);
  const char *www = x->www_auth;
  if (st == 401) {
    if (www)
      snprintf(buf, size, "HTTP 401 from %s; WWW-Authenticate: %s", url, www);
    else
      snprintf(buf, size, "HTTP 401 Unauthorized from %s%s%s", url,
               *body ? ": " : "", body);
    return MCPH_EAUTH;
  }
  if (st == 403) {
    if (www && strstr(www, "insufficient_scope"))
      snprintf(buf, size,
               "HTTP 403 from %s: insufficient_scope; WWW-Authenticate: %s",
               url, www);
    else
      snprintf(buf, size, "HTTP 403 Forbidden from %s%s%s%s%s", url,
               *body ? ": " : "", body, www ? "; WWW-Authenticate: " : "",
               www ? www : "");
    return MCPH_EAUTH;
  }
  const char *reason = x->reason[0] ? x->reason : http_client_reason(st);
  if (url_is_redirect(st)) {
    snprintf(buf, size, "HTTP %ld%s%s from %s: %s", st, *reason ? " " : "",
             reason, url,
             x->redirect_refused[0] ? x->redirect_refused
                                    : "a redirect that was not followed");
    return MCPH_EPROTO;
  }
  snprintf(buf, size, "HTTP %ld%s%s from %s%s%s", st, *reason ? " " : "",
           reason, url, *body ? ": " : "", body);
  return http_status_error(st);
}

int exchange_describe_curl(const exchange *x, CURLcode rc, char *buf,
                           size_t size) {
  snprintf(buf, size, "%s (%s)", http_client_curl_error(rc, x->errbuf),
           x->t->cfg.display_url);
  return http_client_code_for_curl(rc);
}
