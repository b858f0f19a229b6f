/*
 * Callbacks to the host, queued and delivered in order by a "pump" that
 * runs from a zero-delay timer. The ABI forbids calling the host from
 * inside start(), send() or close(), and libcurl forbids starting or
 * stopping transfers from inside its callbacks -- which is what the host
 * does when it answers a message. Queueing satisfies both, and keeps the
 * order in which things happened (a message before the failure or the
 * close that followed it).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_transport.h"
#include "../common/www_auth.h"

static void pump(void *ud);

void hq_schedule(mcph_transport *t) {
  if (t->pump_timer || t->pumping || t->state == T_CLOSED)
    return;
  if (t->host->timer_start(t->host, 0, pump, t, &t->pump_timer) != 0) {
    t->pump_timer = NULL;
    t->host->log(t->host, MCPH_LOG_ERROR, t->name,
                 "cannot start a timer: messages from the server are stuck");
  }
}

static void push(mcph_transport *t, hevent *e) {
  if (t->q_tail)
    t->q_tail->next = e;
  else
    t->q_head = e;
  t->q_tail = e;
  hq_schedule(t);
}

static hevent *new_event(hevent_kind kind, int code) {
  hevent *e = calloc(1, sizeof *e);
  if (e) {
    e->kind = kind;
    e->code = code;
  }
  return e;
}

static void free_event(hevent *e) {
  free(e->text);
  free(e->json);
  free(e);
}

static void lost(mcph_transport *t, const char *what) {
  mcph_logf(t->host, MCPH_LOG_ERROR, t->name, "out of memory: %s was lost",
            what);
}

void hq_message_take(mcph_transport *t, char *json, size_t len) {
  hevent *e = new_event(EV_MESSAGE, 0);
  if (!e) {
    free(json);
    lost(t, "a message from the server");
    return;
  }
  e->text = json;
  e->text_len = len;
  push(t, e);
}

void hq_message(mcph_transport *t, const char *json, size_t len) {
  char *copy = malloc(len + 1);
  if (!copy) {
    lost(t, "a message from the server");
    return;
  }
  memcpy(copy, json, len);
  copy[len] = '\0';
  hq_message_take(t, copy, len);
}

void hq_error(mcph_transport *t, int code, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  hevent *e = new_event(EV_ERROR, code);
  if (!e || !(e->text = strdup(msg))) {
    free(e);
    lost(t, "an error report");
    return;
  }
  push(t, e);
}

void hq_send_failed(exchange *x, int code, const char *message) {
  mcph_transport *t = x->t;
  hevent *e = new_event(EV_SEND_FAILED, code);
  if (!e || !(e->text = strdup(message))) {
    free(e);
    lost(t, "a send failure report");
    return;
  }
  e->json = x->msg;
  e->json_len = x->msg_len;
  x->msg = NULL;
  x->msg_len = 0;
  push(t, e);
}

void hq_auth_required(exchange *x) {
  mcph_transport *t = x->t;
  hevent *e = new_event(EV_AUTH, (int)exchange_status(x));
  const char *www = x->www_auth;
  if (!e || !(e->json = strdup(t->cfg.display_url)) ||
      (www && !(e->text = strdup(www)))) {
    if (e) {
      free(e->json);
    }
    free(e);
    lost(t, "an authorization challenge");
    return;
  }
  push(t, e);
}

void hq_dropped(mcph_transport *t, int code, const char *message,
                const char *head, size_t head_len, size_t total) {
  if (head_len > 4096)
    head_len = 4096;
  hevent *e = new_event(EV_DROPPED, code);
  if (!e || !(e->text = strdup(message)) || !(e->json = malloc(head_len + 1))) {
    if (e)
      free(e->text);
    free(e);
    lost(t, "a dropped-message report");
    return;
  }
  if (head_len)
    memcpy(e->json, head, head_len);
  e->json_len = head_len;
  e->total = total;
  push(t, e);
}

void hq_close(mcph_transport *t, int code, const char *reason) {
  if (t->close_queued || t->state == T_CLOSED)
    return;
  t->close_queued = true;
  t->close_code = code;
  snprintf(t->close_reason, sizeof t->close_reason, "%s", reason);
  hq_schedule(t);
}

void hq_free(mcph_transport *t) {
  while (t->q_head) {
    hevent *e = t->q_head;
    t->q_head = e->next;
    free_event(e);
  }
  t->q_tail = NULL;
  if (t->pump_timer) {
    t->host->timer_cancel(t->host, t->pump_timer);
    t->pump_timer = NULL;
  }
}

static bool has_message_dropped(const mcph_transport *t) {
  return MCPH_HAS(t->ev, mcph_transport_events, on_message_dropped) &&
         t->ev->on_message_dropped;
}

static bool has_send_failed(const mcph_transport *t) {
  return MCPH_HAS(t->ev, mcph_transport_events, on_send_failed) &&
         t->ev->on_send_failed;
}

static void deliver_auth(mcph_transport *t, const hevent *e) {
  const mcph_transport_events *ev = t->ev;
  if (!MCPH_HAS(ev, mcph_transport_events, on_auth_required) ||
      !ev->on_auth_required) {
    return; /* an older host learns of it from on_send_failed */
  }
  www_auth w;
  mcph_auth_challenge ch;
  www_auth_parse(e->text, &w);
  www_auth_challenge(&w, e->code, e->json, e->text, &ch);
  ev->on_auth_required(ev->ud, &ch);
}

static void deliver(mcph_transport *t, hevent *e) {
  const mcph_transport_events *ev = t->ev;
  switch (e->kind) {
  case EV_AUTH: deliver_auth(t, e); break;
  case EV_MESSAGE: ev->on_message(ev->ud, e->text, e->text_len); break;
  case EV_ERROR:
    if (ev->on_error)
      ev->on_error(ev->ud, e->code, e->text);
    break;
  case EV_DROPPED:
    /* ABI 1.2: the host reads the id from the head and fails the request
     * the message answered; an older host only hears of it. */
    if (has_message_dropped(t))
      ev->on_message_dropped(ev->ud, e->code, e->text, e->json, e->json_len,
                             e->total);
    else if (ev->on_error)
      ev->on_error(ev->ud, e->code, e->text);
    break;
  case EV_SEND_FAILED:
    if (has_send_failed(t)) {
      ev->on_send_failed(ev->ud, e->code, e->text, e->json ? e->json : "",
                         e->json_len);
      break;
    }
    /* A host from before ABI 1.1 cannot learn which request failed: tell
     * it what happened, and when the server was never reached at all, end
     * the transport as a dead process would, rather than let every
     * request wait for its deadline. */
    if (ev->on_error)
      ev->on_error(ev->ud, e->code, e->text);
    if (!t->reached && t->state == T_RUNNING) {
      http_abort_all(t);
      t->state = T_CLOSING;
      hq_close(t, e->code, e->text);
    }
    break;
  }
}

static void pump(void *ud) {
  mcph_transport *t = ud;
  t->pump_timer = NULL;
  t->pumping = true;
  for (;;) {
    if (t->release_pending) {
      t->release_pending = false;
      stream_release_hold(t);
    }
    if (!t->q_head || t->state == T_CLOSED)
      break;
    hevent *e = t->q_head;
    t->q_head = e->next;
    if (!t->q_head)
      t->q_tail = NULL;
    deliver(t, e);
    free_event(e);
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
