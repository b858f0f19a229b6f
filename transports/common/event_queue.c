/* The queue of callbacks to the host; see event_queue.h. */
#include "event_queue.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void evq_init(event_queue *q, const mcph_host *host, void (*run)(void *ud),
              void *ud) {
  memset(q, 0, sizeof *q);
  q->host = host;
  q->run = run;
  q->ud = ud;
}

static void on_timer(void *ud) {
  event_queue *q = ud;
  q->timer = NULL; /* the host frees a timer that fired */
  q->run(q->ud);
}

bool evq_schedule(event_queue *q) {
  if (q->timer) {
    return true;
  }
  if (q->host->timer_start(q->host, 0, on_timer, q, &q->timer) != 0) {
    q->timer = NULL;
    return false;
  }
  return true;
}

bool evq_push(event_queue *q, const char *server, int kind, int code,
              char *data, size_t len, char *json, size_t json_len,
              size_t total) {
  evq_item *it = calloc(1, sizeof *it);
  if (!it || !evq_schedule(q)) {
    free(it);
    free(data);
    free(json);
    q->host->log(q->host, MCPH_LOG_ERROR, server,
                 "out of memory or timers: an event from the server was "
                 "lost");
    return false;
  }
  *it = (evq_item){.kind = kind,
                   .code = code,
                   .data = data,
                   .len = len,
                   .json = json,
                   .json_len = json_len,
                   .total = total};
  if (q->tail) {
    q->tail->next = it;
  } else {
    q->head = it;
  }
  q->tail = it;
  return true;
}

bool evq_pushf(event_queue *q, const char *server, int kind, int code,
               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bool ok = evq_vpushf(q, server, kind, code, fmt, ap);
  va_end(ap);
  return ok;
}

bool evq_vpushf(event_queue *q, const char *server, int kind, int code,
                const char *fmt, va_list ap) {
  char text[1024];
  vsnprintf(text, sizeof text, fmt, ap);
  char *copy = strdup(text);
  if (!copy) {
    q->host->log(q->host, MCPH_LOG_ERROR, server,
                 "out of memory: an error report was lost");
    return false;
  }
  return evq_push(q, server, kind, code, copy, strlen(copy), NULL, 0, 0);
}

void evq_cancel(event_queue *q) {
  if (q->timer) {
    q->host->timer_cancel(q->host, q->timer);
    q->timer = NULL;
  }
}

evq_item *evq_pop(event_queue *q) {
  evq_item *it = q->head;
  if (it) {
    q->head = it->next;
    if (!q->head) {
      q->tail = NULL;
    }
    it->next = NULL;
  }
  return it;
}

void evq_item_free(evq_item *it) {
  if (it) {
    free(it->data);
    free(it->json);
    free(it);
  }
}

void evq_clear(event_queue *q) {
  evq_cancel(q);
  evq_item *it;
  while ((it = evq_pop(q)) != NULL) {
    evq_item_free(it);
  }
}
