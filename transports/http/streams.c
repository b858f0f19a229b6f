/*
 * Event streams that outlive one exchange:
 *
 * - The standalone GET stream, opened once notifications/initialized went
 *   through, so that the server can send requests and notifications that
 *   belong to no client request. A server that answers the GET with 400,
 *   404 or 405 offers none. When the stream ends or breaks it is opened
 *   again, with Last-Event-ID, after the server's retry delay, doubling on
 *   failed attempts up to 30 s; a 4xx other than 408, 409 or 429 stops it,
 *   and so does a redirect out of the origin. A 401 or 403 (on it or on a
 *   resumption) is also reported as on_auth_required, as for a POST.
 *
 * - Resumption: a POST whose event stream ended before the response to the
 *   request it carried is continued by GET with Last-Event-ID after the
 *   server's retry delay (exactly: the conformance suite times it), with
 *   the same doubling on failures, and at most BACKOFF_MAX_ATTEMPTS failed
 *   attempts in a row before the request is failed. An attempt that
 *   established a stream resets the count, even if the server closed it
 *   again unanswered: servers may close streams on purpose and let clients
 *   poll (SEP-1699), as the TypeScript SDK allows. The GET that brings the
 *   response is kept until the server ends it.
 *
 * While the standalone GET is being opened, POSTs are held (at most
 * HOLD_MAX_MS): a server may send a request on it as soon as it handles
 * the next POST (the conformance suite's elicitation scenario does), and
 * drops it when no GET stream exists yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/url.h"
#include "http_status.h"
#include "http_transport.h"
#include "rpc_peek.h"

/* ---- delivery ---- */

static void note_answer(exchange *x, const char *json, size_t len) {
  if (!x->req_id || x->answered)
    return;
  rpc_peek pk;
  if (rpc_peek_object(json, len, &pk) && !pk.method &&
      (pk.has_result || pk.has_error) &&
      rpc_same_id(pk.id, pk.id_len, x->req_id, x->req_id_len))
    x->answered = true;
}

static void deliver_element(void *ud, const char *json, size_t len) {
  exchange *x = ud;
  note_answer(x, json, len);
  hq_message(x->t, json, len);
}

void stream_deliver(exchange *x, const char *json, size_t len) {
  /* A batch (2025-03-26) is delivered one message at a time; one the
   * splitter cannot read goes to the host whole, which reports it. */
  if (rpc_is_batch(json, len) && rpc_split_batch(json, len, deliver_element, x))
    return;
  deliver_element(x, json, len);
}

void stream_deliver_take(exchange *x, char *json, size_t len) {
  if (rpc_is_batch(json, len)) {
    stream_deliver(x, json, len);
    free(json);
    return;
  }
  note_answer(x, json, len);
  hq_message_take(x->t, json, len);
}

/* ---- reconnecting ---- */

static void on_reconnect(void *ud);

/* The server's retry exactly after a stream that was established, doubled
 * for each failed attempt since, never past the cap (backoff.h). */
static unsigned long reconnect_delay(const exchange *x) {
  return (unsigned long)backoff_delay(
      x->has_retry ? x->retry_ms : BACKOFF_FIRST_MS, x->fails);
}

/* Gives x up: a resumption fails its request; the standalone stream just
 * stops. Takes x. */
static void give_up(exchange *x, int code, const char *why) {
  mcph_transport *t = x->t;
  if (x->kind == X_RESUME) {
    hq_send_failed(x, code, why);
  } else {
    mcph_logf(t->host, MCPH_LOG_WARN, t->name,
              "the standalone event stream stopped: %s", why);
  }
  exchange_free(x);
}

static void schedule_reconnect(exchange *x) {
  mcph_transport *t = x->t;
  unsigned long ms = reconnect_delay(x);
  const char *last = sse_last_event_id(&x->sse);
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
            "%s event stream: reconnecting in %lu ms%s%.64s%s",
            x->kind == X_RESUME ? "request's" : "standalone", ms,
            *last ? " from event id \"" : "", last, *last ? "\"" : "");
  if (t->host->timer_start(t->host, ms, on_reconnect, x, &x->timer) != 0) {
    x->timer = NULL;
    give_up(x, MCPH_ENOMEM, "cannot start a timer to reconnect");
  }
}

static void on_reconnect(void *ud) {
  exchange *x = ud;
  x->timer = NULL;
  int rc = exchange_start(x);
  if (rc != 0)
    give_up(x, rc, x->last_error);
}

/* ---- a POST's stream ---- */

/* An event dropped for its size while the request was unanswered most
 * likely held the response: resuming would only replay what follows it. */
static bool failed_for_size(exchange *x) {
  if (!x->dropped)
    return false;
  char msg[600];
  snprintf(msg, sizeof msg,
           "an event from %s exceeded the %zu-byte message limit and was "
           "dropped; it probably held the response",
           x->t->cfg.display_url, x->t->cfg.max_message_bytes);
  hq_send_failed(x, MCPH_ETOOBIG, msg);
  exchange_free(x);
  return true;
}

void stream_post_ended(exchange *x, const char *why) {
  mcph_transport *t = x->t;
  if (!x->req_id || x->answered) {
    exchange_free(x);
    return;
  }
  if (failed_for_size(x))
    return;
  if (!*sse_last_event_id(&x->sse)) {
    char msg[1024];
    snprintf(msg, sizeof msg,
             "the event stream from %s ended before the response arrived "
             "(%s), and gave no event id to resume from",
             t->cfg.display_url, why);
    hq_send_failed(x, MCPH_EIO, msg);
    exchange_free(x);
    return;
  }
  x->kind = X_RESUME;
  x->fails = 0;
  snprintf(x->last_error, sizeof x->last_error, "%s", why);
  schedule_reconnect(x);
}

/* ---- the standalone stream ---- */

void stream_release_hold(mcph_transport *t) {
  t->release_pending = false;
  if (!t->hold)
    return;
  t->hold = false;
  if (t->hold_timer) {
    t->host->timer_cancel(t->host, t->hold_timer);
    t->hold_timer = NULL;
  }
  exchange *next;
  for (exchange *x = t->head; x; x = next) {
    next = x->next;
    if (x->held) {
      x->held = false;
      http_post_release(x);
    }
  }
}

void stream_open(mcph_transport *t) {
  if (t->state != T_RUNNING) {
    stream_release_hold(t);
    return;
  }
  stream_stop(t);
  exchange *x = exchange_new(t, X_STREAM, NULL, 0);
  if (!x) {
    stream_release_hold(t);
    return;
  }
  t->stream = x;
  if (exchange_start(x) != 0) {
    mcph_logf(t->host, MCPH_LOG_WARN, t->name,
              "cannot open the standalone event stream: %s", x->last_error);
    exchange_free(x);
    stream_release_hold(t);
    return;
  }
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
            "opening the standalone event stream (GET %s)", t->cfg.display_url);
}

void stream_stop(mcph_transport *t) {
  if (t->stream)
    exchange_free(t->stream); /* clears t->stream */
}

/* ---- a GET ended ---- */

static bool retryable_4xx(long st) {
  return st == 408 || st == 409 || st == 429;
}

void stream_done(exchange *x, CURLcode rc) {
  mcph_transport *t = x->t;
  const char *url = t->cfg.display_url;
  long st = exchange_status(x);
  char why[1024];
  if (x->kind == X_STREAM)
    stream_release_hold(t);
  if (x->kind == X_RESUME && x->answered) {
    exchange_free(x); /* it brought the response; the server ended it */
    return;
  }
  if (x->kind == X_RESUME && failed_for_size(x))
    return;
  if (x->established) {
    /* A 2xx event stream ended or broke. It was a successful attempt (as
     * in the TypeScript SDK): reconnect after exactly `retry`. A server
     * may close streams on purpose and have clients poll (SEP-1699). */
    x->fails = 0;
    x->redirects = 0; /* the limit is per attempt to reach the stream */
    if (rc != CURLE_OK)
      exchange_describe_curl(x, rc, why, sizeof why);
    else
      snprintf(why, sizeof why, "the server ended the event stream (%s)", url);
  } else if (rc != CURLE_OK) {
    exchange_describe_curl(x, rc, why, sizeof why);
    x->fails++;
  } else if (st >= 200 && st < 300) {
    snprintf(why, sizeof why,
             "GET %s answered HTTP %ld with Content-Type \"%s\", not an "
             "event stream",
             url, st, x->ctype);
    if (x->kind == X_STREAM) {
      mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
                "no standalone event stream: %s", why);
      exchange_free(x);
      return;
    }
    x->fails++;
  } else if (x->kind == X_STREAM && (st == 400 || st == 404 || st == 405)) {
    mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
              "the server offers no standalone event stream (HTTP %ld from "
              "GET %s)",
              st, url);
    exchange_free(x);
    return;
  } else if (x->kind == X_RESUME && st == 404 && x->session) {
    http_session_expired(t, x->session);
    snprintf(why, sizeof why, "session expired (HTTP 404 from %s)", url);
    hq_send_failed(x, MCPH_ESESSION, why);
    exchange_free(x);
    return;
  } else if ((st >= 400 && st < 500 && !retryable_4xx(st)) ||
             url_is_redirect(st)) {
    char status[900];
    int code = exchange_describe_status(x, status, sizeof status);
    if (http_status_is_auth(st)) {
      hq_auth_required(x); /* the same event as for a refused POST */
    }
    if (x->kind == X_STREAM) {
      hq_error(t, code, "the standalone event stream stopped: %s", status);
      exchange_free(x);
    } else {
      snprintf(why, sizeof why, "cannot resume the event stream: %s", status);
      give_up(x, code, why);
    }
    return;
  } else {
    exchange_describe_status(x, why, sizeof why);
    x->fails++;
  }
  snprintf(x->last_error, sizeof x->last_error, "%s", why);
  if (x->kind == X_RESUME && x->fails >= BACKOFF_MAX_ATTEMPTS) {
    char msg[1400];
    /* The last error names the URL. */
    snprintf(msg, sizeof msg,
             "the event stream broke before the response arrived and could "
             "not be resumed (%u attempts; last: %.900s)",
             BACKOFF_MAX_ATTEMPTS, x->last_error);
    give_up(x, MCPH_EIO, msg);
    return;
  }
  schedule_reconnect(x);
}
