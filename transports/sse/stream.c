/*
 * The GET event stream of the legacy HTTP+SSE transport.
 *
 *   connect   GET the SSE URL with Accept: text/event-stream (no deadline
 *             but the connect one), following redirects within the origin.
 *   endpoint  the `endpoint` event gives the POST URL, relative or
 *             absolute; it must have the SSE URL's origin. Its arrival
 *             lets the POST queue go (post.c).
 *   messages  `message` events (or events without a type) are JSON-RPC
 *             messages for the host.
 *   loss      a stream that ends or breaks after the first endpoint event
 *             is reconnected with Last-Event-ID, after the server's retry
 *             (1000 ms by default), doubling on each failure in a row up
 *             to 30 s, at most 5 times; 4xx answers other than 408 and 429
 *             end it at once. Before the first endpoint event every
 *             failure ends the transport: the host decides about retrying
 *             a connection that never worked.
 *
 * curl callbacks only parse and queue notes (sse_transport.c); the host
 * hears of them from the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/authorization.h"
#include "../common/url.h"
#include "backoff.h"
#include "http_status.h"
#include "sse_transport.h"

#define CONNECT_TIMEOUT_MS 30000L
/* A reconnected stream that sends no endpoint event and no message: after
 * this long, POSTs go to the endpoint we had. */
#define ENDPOINT_GRACE_MS 1000
/* How long the body of an error answer may take to arrive; it only goes
 * into the message. */
#define ERROR_BODY_MS 2000
#define PARSER_SLACK 64

static int start_get(mcph_transport *t);

static void cancel(mcph_transport *t, mcph_timer **tm) {
  if (*tm) {
    t->host->timer_cancel(t->host, *tm);
    *tm = NULL;
  }
}

/* ---- curl and parser callbacks: parse and queue only ---- */

static void too_big(mcph_transport *t) {
  sse_notef(t, NOTE_ERROR, MCPH_ETOOBIG,
            "an SSE event from %s exceeds the %zu-byte limit "
            "(maxMessageBytes); dropped",
            t->cfg.display_url, t->cfg.max_message_bytes);
}

static void on_sse_event(void *ud, const sse_event *ev) {
  mcph_transport *t = ud;
  enum note_kind kind;
  if (ev->data_len == 0) {
    return; /* priming events and keep-alives */
  }
  if (ev->data_len > t->cfg.max_message_bytes) {
    too_big(t);
    return;
  }
  if (strcmp(ev->event, "message") == 0) {
    kind = NOTE_MESSAGE;
  } else if (strcmp(ev->event, "endpoint") == 0) {
    kind = NOTE_ENDPOINT;
  } else {
    mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
              "ignoring an SSE event of type \"%.64s\"", ev->event);
    return;
  }
  char *copy = malloc(ev->data_len + 1);
  if (copy) {
    memcpy(copy, ev->data, ev->data_len + 1);
  }
  if (!copy || !sse_note(t, kind, 0, copy, ev->data_len, NULL, 0)) {
    t->get_nomem = true; /* on_get_data stops the transfer */
  }
}

static void on_sse_retry(void *ud, unsigned long ms) {
  mcph_transport *t = ud;
  t->retry_ms = (unsigned long)backoff_first(ms);
}

static void on_error_body_timer(void *ud);

static size_t on_get_header(char *line, size_t size, size_t n, void *ud) {
  mcph_transport *t = ud;
  size_t len = size * n;
  if (!http_resp_header(&t->get_resp, line, len)) {
    return len;
  }
  /* The headers of the final answer are complete. */
  const http_resp *r = &t->get_resp;
  bool success = r->status >= 200 && r->status < 300 && r->status != 204;
  if (success && r->event_stream) {
    t->stream_ok = true;
    if (!sse_note(t, NOTE_STREAM_UP, 0, NULL, 0, NULL, 0)) {
      t->get_nomem = true;
      return 0; /* stop the transfer */
    }
  } else if (success) {
    return 0; /* not an event stream: nothing in it is for us */
  } else if (!t->error_body_timer &&
             t->host->timer_start(t->host, ERROR_BODY_MS, on_error_body_timer,
                                  t, &t->error_body_timer) != 0) {
    return 0; /* an error answer: its status is all we need */
  }
  return len;
}

static size_t on_get_data(char *data, size_t size, size_t n, void *ud) {
  mcph_transport *t = ud;
  size_t len = size * n;
  if (!t->stream_ok) {
    /* An error answer: keep its start for the message, and no more. */
    return http_resp_keep_body(&t->get_resp, data, len) ? 0 : len;
  }
  if (sse_feed(&t->parser, data, len) > 0) {
    too_big(t);
  }
  return t->get_nomem ? 0 : len;
}

/* ---- reconnecting ---- */

static void on_reconnect_timer(void *ud) {
  mcph_transport *t = ud;
  t->reconnect_timer = NULL;
  free(t->get_url);
  t->get_url = strdup(t->cfg.url);
  t->get_redirects = 0;
  int rc = t->get_url ? start_get(t) : MCPH_ENOMEM;
  if (rc != 0) {
    sse_finish(t, rc, "cannot reconnect to %s: out of memory",
               t->cfg.display_url);
  }
}

/* The stream is gone after it worked: try again later, or give up. */
static void stream_lost(mcph_transport *t, int code, const char *what,
                        long retry_after_s) {
  t->post_ok = false; /* POSTs wait for the next stream */
  cancel(t, &t->grace_timer);
  if (t->attempts >= BACKOFF_MAX_ATTEMPTS) {
    sse_finish(t, code == MCPH_ECONNREFUSED ? MCPH_ECONNREFUSED : MCPH_ECLOSED,
               "lost the SSE stream and %u reconnect attempts failed; the "
               "last: %s",
               BACKOFF_MAX_ATTEMPTS, what);
    return;
  }
  unsigned long delay = (unsigned long)backoff_delay(t->retry_ms, t->attempts);
  if (retry_after_s > 0) {
    /* 429 and 503 may say how long to wait (Retry-After). */
    unsigned long ra = retry_after_s > (long)(BACKOFF_MAX_MS / 1000)
                           ? BACKOFF_MAX_MS
                           : (unsigned long)retry_after_s * 1000UL;
    delay = ra > delay ? ra : delay;
  }
  t->attempts++;
  mcph_logf(t->host, MCPH_LOG_INFO, t->name,
            "%s; reconnecting in %lu ms (attempt %u of %u)", what, delay,
            t->attempts, BACKOFF_MAX_ATTEMPTS);
  if (t->host->timer_start(t->host, delay, on_reconnect_timer, t,
                           &t->reconnect_timer) != 0) {
    sse_finish(t, MCPH_ENOMEM, "cannot reconnect to %s: out of memory",
               t->cfg.display_url);
  }
}

/* The GET is over. Everything it carried is delivered first; then why it
 * ended decides between reconnecting and ending the transport. `easy` is
 * out of the loop already. */
static void get_ended(mcph_transport *t, CURL *easy, CURLcode result) {
  t->get = NULL;
  cancel(t, &t->error_body_timer);
  curl_slist_free_all(t->get_headers);
  t->get_headers = NULL;
  const http_resp *r = &t->get_resp;
  char *location = NULL;
  if (result == CURLE_OK && url_is_redirect(r->status)) {
    char *loc = NULL;
    curl_easy_getinfo(easy, CURLINFO_REDIRECT_URL, &loc);
    location = loc ? strdup(loc) : NULL;
  }
  curl_off_t retry_after = 0;
  curl_easy_getinfo(easy, CURLINFO_RETRY_AFTER, &retry_after);
  curl_easy_cleanup(easy);
  bool nomem = t->get_nomem;
  t->get_nomem = false;

  sse_deliver_notes(t);
  if (t->state != T_RUNNING) {
    free(location);
    return;
  }

  char what[1024], status[512];
  int code;
  bool retryable = false;
  if (nomem) {
    sse_finish(t, MCPH_ENOMEM, "out of memory reading the SSE stream from %s",
               t->cfg.display_url);
    free(location);
    return;
  }
  if (t->stream_ok) {
    free(location); /* none: the answer was 2xx */
    if (result == CURLE_OK) {
      snprintf(what, sizeof what, "the server ended the SSE stream at %s",
               t->cfg.display_url);
    } else {
      snprintf(what, sizeof what, "the SSE stream at %s broke: %s",
               t->cfg.display_url,
               http_client_curl_error(result, t->get_errbuf));
    }
    if (!t->connected) {
      sse_finish(t, MCPH_ECLOSED, "%s before its endpoint event", what);
    } else {
      stream_lost(t, MCPH_ECLOSED, what, 0);
    }
    return;
  }
  char refused[300];
  if (r->status < 200) {
    code = http_client_code_for_curl(result);
    snprintf(what, sizeof what, "cannot connect to %s: %s", t->cfg.display_url,
             http_client_curl_error(result, t->get_errbuf));
    /* A server that is not there (any more) is not waited for. */
    retryable = !http_client_unreachable(result);
  } else if (url_is_redirect(r->status)) {
    http_resp_describe(r, false, status, sizeof status);
    code = MCPH_EPROTO;
    if (!url_redirect_check(t->get_url, location, t->get_redirects, refused,
                            sizeof refused)) {
      snprintf(what, sizeof what, "GET %s: %s %s", t->cfg.display_url, status,
               refused);
    } else {
      t->get_redirects++;
      free(t->get_url);
      t->get_url = location;
      if (start_get(t) != 0) {
        sse_finish(t, MCPH_ENOMEM, "cannot connect to %s: out of memory",
                   t->cfg.display_url);
      }
      return;
    }
  } else if (r->status == 204) {
    code = MCPH_ECLOSED;
    snprintf(what, sizeof what,
             "GET %s answered HTTP 204: the server has no stream to give",
             t->cfg.display_url);
  } else if (r->status >= 200 && r->status < 300) {
    code = MCPH_EPROTO;
    snprintf(what, sizeof what,
             "GET %s answered HTTP %ld with Content-Type \"%s\", not "
             "text/event-stream: is this the SSE URL of an MCP server?",
             t->cfg.display_url, r->status,
             r->content_type[0] ? r->content_type : "(none)");
  } else {
    code = http_status_error(r->status);
    if (http_status_is_auth(r->status)) {
      sse_auth_required(t, r->status, t->cfg.display_url, r->www_authenticate);
    }
    http_resp_describe(r, r->status != 401, status, sizeof status);
    snprintf(what, sizeof what, "GET %s failed: %s%s%s", t->cfg.display_url,
             status, r->www_authenticate ? "; WWW-Authenticate: " : "",
             r->www_authenticate ? r->www_authenticate : "");
    retryable = r->status >= 500 || r->status == 408 || r->status == 429;
  }
  free(location);
  if (!t->connected || !retryable) {
    sse_finish(t, code, "%s", what);
  } else {
    stream_lost(t, code, what, (long)retry_after);
  }
}

static void on_get_done(void *ud, CURL *easy, CURLcode result) {
  get_ended(ud, easy, result);
}

/* An error answer whose body goes on and on: what it said so far will do
 * for the message. */
static void on_error_body_timer(void *ud) {
  mcph_transport *t = ud;
  t->error_body_timer = NULL;
  CURL *easy = t->get;
  if (easy) {
    curl_loop_remove(t->loop, easy);
    get_ended(t, easy, CURLE_OK);
  }
}

/* ---- starting a GET ---- */

static bool add_header(struct curl_slist **list, const char *line) {
  struct curl_slist *n = curl_slist_append(*list, line);
  if (!n) {
    return false;
  }
  *list = n;
  return true;
}

static int start_get(mcph_transport *t) {
  http_resp_free(&t->get_resp);
  t->stream_ok = false;
  sse_restart(&t->parser);

  struct curl_slist *h = NULL;
  bool ok = true;
  ok = ok && add_header(&h, "Accept: text/event-stream");
  ok = ok && add_header(&h, "Cache-Control: no-cache");
  ok = ok && authorization_headers(&h, t->cfg.headers, t->authorization);
  const char *last_id = sse_last_event_id(&t->parser);
  if (ok && *last_id) {
    size_t n = strlen(last_id) + 32;
    char *line = malloc(n);
    ok = line != NULL;
    if (ok) {
      snprintf(line, n, "Last-Event-ID: %s", last_id);
      ok = add_header(&h, line);
      free(line);
    }
  }
  if (ok && t->protocol_version) {
    char line[128];
    snprintf(line, sizeof line, "MCP-Protocol-Version: %.64s",
             t->protocol_version);
    ok = add_header(&h, line);
  }
  CURL *e =
      ok ? http_client_easy(&t->cfg, t->user_agent, t->get_url, t->get_errbuf)
         : NULL;
  if (!e) {
    curl_slist_free_all(h);
    return MCPH_ENOMEM;
  }
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, CONNECT_TIMEOUT_MS);
  curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_get_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_get_data);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
  /* No CURLOPT_TIMEOUT: the stream lives as long as the connection. */
  if (curl_loop_add(t->loop, e, on_get_done, t) != 0) {
    curl_easy_cleanup(e);
    curl_slist_free_all(h);
    return MCPH_ENOMEM;
  }
  t->get = e;
  t->get_headers = h;
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "GET %s%s%s", t->cfg.display_url,
            *last_id ? " with Last-Event-ID " : "", last_id);
  return 0;
}

int stream_start(mcph_transport *t, mcph_error *err) {
  t->retry_ms = BACKOFF_FIRST_MS;
  /* The parser's bound covers a whole line ("data: " and all) and the
   * joined data with its line ends; with some room on top, the exact
   * limit on a message is checked in on_sse_event. */
  sse_init(&t->parser, t->cfg.max_message_bytes + PARSER_SLACK, on_sse_event,
           on_sse_retry, t);
  t->parser_ready = true;
  t->get_url = strdup(t->cfg.url);
  if (!t->get_url || start_get(t) != 0) {
    return mcph_error_set(err, MCPH_ENOMEM,
                          "cannot connect to %s: out of memory",
                          t->cfg.display_url);
  }
  return 0;
}

/* ---- notes from the stream, delivered from the loop ---- */

static void on_grace_timer(void *ud) {
  mcph_transport *t = ud;
  t->grace_timer = NULL;
  if (t->state == T_RUNNING && !t->post_ok && t->endpoint) {
    t->post_ok = true;
    post_pump(t);
  }
}

void stream_on_up(mcph_transport *t) {
  if (!t->connected) {
    return; /* the first stream: POSTs wait for its endpoint event */
  }
  mcph_logf(t->host, MCPH_LOG_INFO, t->name, "SSE stream at %s reconnected",
            t->cfg.display_url);
  /* Servers send a new endpoint event first thing; one that resumes the
   * old session may not. */
  cancel(t, &t->grace_timer);
  if (t->host->timer_start(t->host, ENDPOINT_GRACE_MS, on_grace_timer, t,
                           &t->grace_timer) != 0) {
    on_grace_timer(t);
  }
}

void stream_on_event_delivered(mcph_transport *t) {
  t->attempts = 0; /* the stream works again */
  if (!t->post_ok && t->endpoint) {
    /* A reconnected stream that resumed with messages: the endpoint we
     * had still holds. */
    cancel(t, &t->grace_timer);
    t->post_ok = true;
    post_pump(t);
  }
}

/* The value of the session id query parameter, or NULL. */
static char *session_of(const char *url) {
  char *s = url_query_param(url, "sessionId");
  return s ? s : url_query_param(url, "session_id");
}

void stream_on_endpoint(mcph_transport *t, const char *data, size_t len) {
  while (len > 0 && (*data == ' ' || *data == '\t')) {
    data++;
    len--;
  }
  while (len > 0 && (data[len - 1] == ' ' || data[len - 1] == '\t')) {
    len--;
  }
  char *ref = len > 0 ? strndup(data, len) : NULL;
  if (!ref) {
    return; /* nothing usable: wait for another */
  }
  /* Against the URL the stream came from, after the redirects it
   * followed (an http one upgraded to https, say): that is where the
   * server is, and so where its endpoint must be. */
  const char *base = t->get_url ? t->get_url : t->cfg.url;
  char why[256];
  char *url = url_resolve(base, ref, why, sizeof why);
  if (!url) {
    sse_finish(t, MCPH_EPROTO,
               "the endpoint event from %s is not a usable URL (\"%.200s\"): "
               "%s",
               t->cfg.display_url, ref, why);
    free(ref);
    return;
  }
  free(ref);
  if (!url_same_origin(url, base)) {
    char mine[300], theirs[300];
    url_origin(url, theirs, sizeof theirs);
    url_origin(base, mine, sizeof mine);
    sse_finish(t, MCPH_EPROTO,
               "endpoint origin %s differs from the SSE URL's origin %s",
               theirs, mine);
    free(url);
    return;
  }
  char *shown = url_display(url);
  char *session = session_of(url);
  if (!shown) {
    free(url);
    free(session);
    sse_finish(t, MCPH_ENOMEM, "out of memory");
    return;
  }
  bool changed = t->endpoint && strcmp(t->endpoint, url) != 0;
  bool new_session = changed && t->session_id && session &&
                     strcmp(t->session_id, session) != 0;
  free(t->endpoint);
  free(t->endpoint_display);
  free(t->session_id);
  t->endpoint = url;
  t->endpoint_display = shown;
  t->session_id = session;
  mcph_logf(t->host, changed ? MCPH_LOG_INFO : MCPH_LOG_DEBUG, t->name,
            "%sendpoint: %s", changed ? "new " : "", shown);
  t->connected = true;
  stream_on_event_delivered(t);
  t->post_ok = true;
  cancel(t, &t->grace_timer);
  if (new_session) {
    char msg[700];
    snprintf(msg, sizeof msg,
             "the server started a new session at %.300s after the SSE "
             "stream reconnected; requests sent before may get no answer",
             shown);
    /* ABI 1.6 has an event for it; an older host reads MCPH_ESESSION. */
    if (MCPH_HAS(t->ev, mcph_transport_events, on_session_reset) &&
        t->ev->on_session_reset) {
      t->ev->on_session_reset(t->ev->ud, msg);
    } else if (t->ev->on_error) {
      t->ev->on_error(t->ev->ud, MCPH_ESESSION, msg);
    }
    if (t->state != T_RUNNING) {
      return;
    }
  }
  post_pump(t);
}

/* ---- stopping ---- */

void stream_stop(mcph_transport *t) {
  if (t->get) {
    curl_loop_remove(t->loop, t->get);
    curl_easy_cleanup(t->get);
    t->get = NULL;
  }
  curl_slist_free_all(t->get_headers);
  t->get_headers = NULL;
  cancel(t, &t->reconnect_timer);
  cancel(t, &t->grace_timer);
  cancel(t, &t->error_body_timer);
}

void stream_free(mcph_transport *t) {
  stream_stop(t);
  if (t->parser_ready) {
    sse_free(&t->parser);
    t->parser_ready = false;
  }
  http_resp_free(&t->get_resp);
  free(t->get_url);
  free(t->endpoint);
  free(t->endpoint_display);
  free(t->session_id);
  t->get_url = t->endpoint = t->endpoint_display = t->session_id = NULL;
}
