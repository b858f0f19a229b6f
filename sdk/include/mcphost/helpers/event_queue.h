/*
 * mcphost plugin SDK, optional helper (header only): a transport's queue
 * of events to the host.
 *
 * The transport ABI forbids calling the host's events from inside
 * start(), send() or close(), and a library such as libcurl forbids
 * starting or stopping transfers from inside its own callbacks, which
 * is what the host does when it answers a message. So a transport
 * queues what happened, in order, and a zero-delay timer runs the
 * transport's own `run` function, which pops the items and delivers
 * them (a message before the failure or the close that followed it).
 * The tree's http, sse and ws transports use this queue.
 *
 * Use: mcph_evq_init() in create(); mcph_evq_push() (or _pushf) where an
 * event happens, with a `kind` of the transport's own; in `run`, pop
 * with mcph_evq_pop() and deliver each item, then mcph_evq_item_free();
 * mcph_evq_clear() in destroy().
 *
 * Threads: [loop] only, like the timers it uses. Bounded by what the
 * transport pushes.
 */
#ifndef MCPHOST_HELPERS_EVENT_QUEUE_H
#define MCPHOST_HELPERS_EVENT_QUEUE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mcph_evq_item {
  struct mcph_evq_item *next;
  int kind;   /* the transport's */
  int code;   /* an MCPH_E* code, or 0 */
  char *data; /* owned: a message's JSON, or the text of a report */
  size_t len;
  char *json; /* owned: a failed or dropped message's bytes, or NULL */
  size_t json_len;
  size_t total; /* a dropped message's size, 0 if unknown */
} mcph_evq_item;

typedef struct mcph_evq {
  const mcph_host *host;
  mcph_evq_item *head, *tail;
  mcph_timer *timer;
  void (*run)(void *ud); /* called from the timer; pops and delivers */
  void *ud;
} mcph_evq;

/* [loop] Sets up an empty queue whose timer calls run(ud). */
static inline void mcph_evq_init(mcph_evq *q, const mcph_host *host,
                                 void (*run)(void *ud), void *ud) {
  memset(q, 0, sizeof *q);
  q->host = host;
  q->run = run;
  q->ud = ud;
}

static inline void mcph_evq_on_timer_(void *ud) {
  mcph_evq *q = (mcph_evq *)ud;
  q->timer = NULL; /* the host frees a timer that fired */
  q->run(q->ud);
}

/* [loop] Arms the zero-delay timer if it is not armed (run() is called
 * even when the queue is empty). 0 when no timer can be started, else
 * 1. */
static inline int mcph_evq_schedule(mcph_evq *q) {
  if (q->timer) {
    return 1;
  }
  if (q->host->timer_start(q->host, 0, mcph_evq_on_timer_, q, &q->timer) != 0) {
    q->timer = NULL;
    return 0;
  }
  return 1;
}

/* [loop] Appends an item and arms the timer. Takes `data` and `json`
 * (malloc'ed; either may be NULL). 0 when out of memory or without a
 * timer: then both are freed and an error is logged for `server`; else
 * 1. */
static inline int mcph_evq_push(mcph_evq *q, const char *server, int kind,
                                int code, char *data, size_t len, char *json,
                                size_t json_len, size_t total) {
  /* malloc, every field set below: glibc's calloc never reuses what
   * free() keeps in its thread cache, and this runs for every message. */
  mcph_evq_item *it = (mcph_evq_item *)malloc(sizeof *it);
  if (!it || !mcph_evq_schedule(q)) {
    free(it);
    free(data);
    free(json);
    q->host->log(q->host, MCPH_LOG_ERROR, server,
                 "out of memory or timers: an event from the server was "
                 "lost");
    return 0;
  }
  it->next = NULL;
  it->kind = kind;
  it->code = code;
  it->data = data;
  it->len = len;
  it->json = json;
  it->json_len = json_len;
  it->total = total;
  if (q->tail) {
    q->tail->next = it;
  } else {
    q->head = it;
  }
  q->tail = it;
  return 1;
}

/* [loop] As mcph_evq_push() with a formatted text (copied; at most
 * 1 KiB). */
static inline int mcph_evq_vpushf(mcph_evq *q, const char *server, int kind,
                                  int code, const char *fmt, va_list ap)
    MCPH_PRINTF(5, 0);
static inline int mcph_evq_vpushf(mcph_evq *q, const char *server, int kind,
                                  int code, const char *fmt, va_list ap) {
  char text[1024];
  vsnprintf(text, sizeof text, fmt, ap);
  size_t n = strlen(text);
  char *copy = (char *)malloc(n + 1);
  if (!copy) {
    q->host->log(q->host, MCPH_LOG_ERROR, server,
                 "out of memory: an error report was lost");
    return 0;
  }
  memcpy(copy, text, n + 1);
  return mcph_evq_push(q, server, kind, code, copy, n, NULL, 0, 0);
}

static inline int mcph_evq_pushf(mcph_evq *q, const char *server, int kind,
                                 int code, const char *fmt, ...)
    MCPH_PRINTF(5, 6);
static inline int mcph_evq_pushf(mcph_evq *q, const char *server, int kind,
                                 int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int ok = mcph_evq_vpushf(q, server, kind, code, fmt, ap);
  va_end(ap);
  return ok;
}

/* [loop] Cancels the timer: the transport delivers now, from the loop
 * (a transfer that finished), rather than from the timer. */
static inline void mcph_evq_cancel(mcph_evq *q) {
  if (q->timer) {
    q->host->timer_cancel(q->host, q->timer);
    q->timer = NULL;
  }
}

/* [loop] The oldest item, taken off the queue (free it with
 * mcph_evq_item_free()), or NULL. */
static inline mcph_evq_item *mcph_evq_pop(mcph_evq *q) {
  mcph_evq_item *it = q->head;
  if (it) {
    q->head = it->next;
    if (!q->head) {
      q->tail = NULL;
    }
    it->next = NULL;
  }
  return it;
}

/* [loop] Frees an item popped off the queue (NULL is ignored). */
static inline void mcph_evq_item_free(mcph_evq_item *it) {
  if (it) {
    free(it->data);
    free(it->json);
    free(it);
  }
}

/* [loop] Frees every item and cancels the timer. */
static inline void mcph_evq_clear(mcph_evq *q) {
  mcph_evq_cancel(q);
  mcph_evq_item *it;
  while ((it = mcph_evq_pop(q)) != NULL) {
    mcph_evq_item_free(it);
  }
}

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_HELPERS_EVENT_QUEUE_H */
