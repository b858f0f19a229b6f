/*
 * The remote transports' queue of callbacks to the host. The ABI forbids
 * calling the host from inside start(), send() or close(), and libcurl
 * forbids starting or stopping transfers from inside its callbacks --
 * which is what the host does when it answers a message. So what happens
 * is queued, in order, and a zero-delay timer runs the transport's own
 * `run` function, which pops the items and delivers them (a message
 * before the failure or the close that followed it).
 *
 * Loop thread only. Bounded by what the transport pushes; the transport
 * decides what each kind means.
 */
#ifndef MCPH_EVENT_QUEUE_H
#define MCPH_EVENT_QUEUE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <mcphost/host.h>

typedef struct evq_item {
  struct evq_item *next;
  int kind;   /* the transport's */
  int code;   /* an MCPH_E* code, or 0 */
  char *data; /* owned: a message's JSON, or the text of a report */
  size_t len;
  char *json; /* owned: a failed or dropped message's bytes, or NULL */
  size_t json_len;
  size_t total; /* a dropped message's size, 0 if unknown */
} evq_item;

typedef struct event_queue {
  const mcph_host *host;
  evq_item *head, *tail;
  mcph_timer *timer;
  void (*run)(void *ud); /* called from the timer; pops and delivers */
  void *ud;
} event_queue;

void evq_init(event_queue *q, const mcph_host *host, void (*run)(void *ud),
              void *ud);

/* Appends an item and arms the timer. Takes `data` and `json` (either may
 * be NULL). Returns false when out of memory or without a timer; then
 * both are freed and an error is logged for `server`. */
bool evq_push(event_queue *q, const char *server, int kind, int code,
              char *data, size_t len, char *json, size_t json_len,
              size_t total);

/* As evq_push() with a formatted text (copied; at most 1 KiB). */
bool evq_pushf(event_queue *q, const char *server, int kind, int code,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));
bool evq_vpushf(event_queue *q, const char *server, int kind, int code,
                const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

/* Arms the zero-delay timer if it is not armed (run() is called even when
 * the queue is empty). Returns false when no timer can be started. */
bool evq_schedule(event_queue *q);

/* Cancels the timer: the transport delivers now, from the loop (a
 * transfer that finished), rather than from the timer. */
void evq_cancel(event_queue *q);

/* The oldest item, taken off the queue (free with evq_item_free()), or
 * NULL. */
evq_item *evq_pop(event_queue *q);
void evq_item_free(evq_item *it);

/* Frees every item and cancels the timer. */
void evq_clear(event_queue *q);

#endif /* MCPH_EVENT_QUEUE_H */
