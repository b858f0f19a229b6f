/*
 * Callbacks to the host, queued (mcphost/helpers/event_queue.h) and delivered in
 * order by a "pump" that runs from a zero-delay timer: the ABI forbids
 * calling the host from inside start(), send() or close(), and libcurl
 * forbids starting or stopping transfers from inside its callbacks. A
 * queued on_close is delivered last, once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/www_auth.h"
#include "http_transport.h"

void hq_schedule(mcph_transport *t) {
  if (t->state == T_CLOSED || t->pumping) {
    return;
  }
  if (!mcph_evq_schedule(&t->q)) {
    t->host->log(t->host, MCPH_LOG_ERROR, t->name,
                 "cannot start a timer: messages from the server are stuck");
  }
}

static char *copy_n(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    if (n) {
      memcpy(d, s, n);
    }
    d[n] = '\0';
  }
  return d;
}

void hq_message_take(mcph_transport *t, char *json, size_t len) {
  mcph_evq_push(&t->q, t->name, EV_MESSAGE, 0, json, len, NULL, 0, 0);
}

void hq_message(mcph_transport *t, const char *json, size_t len) {
  char *copy = copy_n(json, len);
  if (!copy) {
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "out of memory: a message from the server was lost");
    return;
  }
  hq_message_take(t, copy, len);
}

void hq_error(mcph_transport *t, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  mcph_evq_vpushf(&t->q, t->name, EV_ERROR, code, fmt, ap);
  va_end(ap);
}

void hq_send_failed(exchange *x, int code, const char *message) {
  mcph_transport *t = x->t;
  char *text = strdup(message);
  if (!text) {
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "out of memory: a send failure report was lost");
    return;
  }
  mcph_evq_push(&t->q, t->name, EV_SEND_FAILED, code, text, strlen(text), x->msg,
           x->msg_len, 0);
  x->msg = NULL;
  x->msg_len = 0;
}

void hq_auth_required(exchange *x) {
  mcph_transport *t = x->t;
  const char *www = x->www_auth;
  char *url = strdup(t->cfg.display_url);
  char *text = www ? strdup(www) : NULL;
  if (!url || (www && !text)) {
    free(url);
    free(text);
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "out of memory: an authorization challenge was lost");
    return;
  }
  mcph_evq_push(&t->q, t->name, EV_AUTH, (int)exchange_status(x), text,
           text ? strlen(text) : 0, url, strlen(url), 0);
}

void hq_dropped(mcph_transport *t, int code, const char *message,
                const char *head, size_t head_len, size_t total) {
  if (head_len > 4096) {
    head_len = 4096;
  }
  char *text = strdup(message), *json = copy_n(head, head_len);
  if (!text || !json) {
    free(text);
    free(json);
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "out of memory: a dropped-message report was lost");
    return;
  }
  mcph_evq_push(&t->q, t->name, EV_DROPPED, code, text, strlen(text), json, head_len,
           total);
}

void hq_close(mcph_transport *t, int code, const char *reason) {
  if (t->close_queued || t->state == T_CLOSED) {
    return;
  }
  t->close_queued = true;
  t->close_code = code;
  snprintf(t->close_reason, sizeof t->close_reason, "%s", reason);
  hq_schedule(t);
}

void hq_free(mcph_transport *t) {
  mcph_evq_clear(&t->q);
}

static bool has_message_dropped(const mcph_transport *t) {
  return MCPH_HAS(t->ev, mcph_transport_events, on_message_dropped) &&
         t->ev->on_message_dropped;
}

static bool has_send_failed(const mcph_transport *t) {
  return MCPH_HAS(t->ev, mcph_transport_events, on_send_failed) &&
         t->ev->on_send_failed;
}

static void deliver_auth(mcph_transport *t, const mcph_evq_item *e) {
  const mcph_transport_events *ev = t->ev;
  if (!MCPH_HAS(ev, mcph_transport_events, on_auth_required) ||
      !ev->on_auth_required) {
    return; /* an older host learns of it from on_send_failed */
  }
  www_auth w;
  mcph_auth_challenge ch;
  www_auth_parse(e->data, &w);
  www_auth_challenge(&w, e->code, e->json, e->data, &ch);
  ev->on_auth_required(ev->ud, &ch);
}

static void deliver(mcph_transport *t, const mcph_evq_item *e) {
  const mcph_transport_events *ev = t->ev;
  const char *text = e->data ? e->data : "";
  switch ((hevent_kind)e->kind) {
  case EV_AUTH: deliver_auth(t, e); break;
  case EV_MESSAGE: ev->on_message(ev->ud, e->data, e->len); break;
  case EV_ERROR:
    if (ev->on_error) {
      ev->on_error(ev->ud, e->code, text);
    }
    break;
  case EV_DROPPED:
    /* ABI 1.2: the host reads the id from the head and fails the request
     * the message answered; an older host only hears of it. */
    if (has_message_dropped(t)) {
      ev->on_message_dropped(ev->ud, e->code, text, e->json, e->json_len,
                             e->total);
    } else if (ev->on_error) {
      ev->on_error(ev->ud, e->code, text);
    }
    break;
  case EV_SEND_FAILED:
    if (has_send_failed(t)) {
      ev->on_send_failed(ev->ud, e->code, text, e->json ? e->json : "",
                         e->json_len);
      break;
    }
    /* A host from before ABI 1.1 cannot learn which request failed: tell
     * it what happened, and when the server was never reached at all, end
     * the transport as a dead process would, rather than let every
     * request wait for its deadline. */
    if (ev->on_error) {
      ev->on_error(ev->ud, e->code, text);
    }
    if (!t->reached && t->state == T_RUNNING) {
      http_abort_all(t);
      t->state = T_CLOSING;
      hq_close(t, e->code, text);
    }
    break;
  }
}

static void pump(void *ud) {
  mcph_transport *t = ud;
  t->pumping = true;
  for (;;) {
    if (t->release_pending) {
      t->release_pending = false;
      stream_release_hold(t);
    }
    if (t->state == T_CLOSED) {
      break;
    }
    mcph_evq_item *e = mcph_evq_pop(&t->q);
    if (!e) {
      break;
    }
    deliver(t, e);
    mcph_evq_item_free(e);
  }
  if (t->close_queued && t->state != T_CLOSED) {
    /* Last, once: after on_close the host calls nothing but destroy. */
    t->state = T_CLOSED;
    t->pumping = false;
    hq_free(t);
    t->ev->on_close(t->ev->ud, t->close_code, t->close_reason);
    return;
  }
  t->pumping = false;
}

void hq_init(mcph_transport *t) {
  mcph_evq_init(&t->q, t->host, pump, t);
}
