/* A Server-Sent Events parser (the WHATWG event-stream format): fields
 * id, event, data (multi-line), retry; comments; CRLF, LF and CR line
 * ends, split anywhere across chunks; memory bounded per event. Shared by
 * the http and sse transports (compiled into each plugin). */
#ifndef MCPHOST_SSE_H
#define MCPHOST_SSE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sse_event {
  const char *id;    /* the last event id in force ("" if none yet) */
  bool has_id;       /* this event carried its own id field */
  const char *event; /* the event type, "message" by default */
  const char *data;  /* NUL-terminated; the joined data lines */
  size_t data_len;
} sse_event;

/* Called once per dispatched event, including events whose data is empty
 * (priming events): the caller decides what to skip. Strings are
 * borrowed for the call. */
typedef void (*sse_event_fn)(void *ud, const sse_event *ev);
/* Called when a retry field with a valid number arrives. */
typedef void (*sse_retry_fn)(void *ud, unsigned long ms);
/* Called at the end of an event dropped for exceeding max_event, with the
 * first bytes of its data (data lines joined with '\n', at most
 * SSE_DROP_HEAD_MAX bytes, fewer if less had arrived), from which a
 * caller can read a JSON-RPC id. Borrowed for the call. */
typedef void (*sse_drop_fn)(void *ud, const char *head, size_t head_len);

#define SSE_DROP_HEAD_MAX 4096

typedef struct sse_parser {
  size_t max_event; /* bytes of data plus line buffer per event */
  sse_event_fn on_event;
  sse_retry_fn on_retry;
  void *ud;
  /* private */
  char *line;
  size_t line_len, line_cap;
  char *data;
  size_t data_len, data_cap;
  char *event;
  char *last_id; /* committed at the end of each event: Last-Event-ID */
  char *id_buf;  /* the id field of the event being read, not yet ended */
  bool id_dirty; /* id_buf holds an id to commit at the event's end */
  bool has_id;
  bool line_any; /* the current line has bytes (stored or skipped) */
  bool after_cr; /* the last byte was CR: a following LF is the same end */
  bool bom_done; /* the stream's leading BOM was checked */
  unsigned char bom_len; /* bytes of a BOM matched so far (split BOM) */
  bool skipping;         /* discarding an oversized event until its end */
  sse_drop_fn on_drop;
  char *drop_head; /* the first bytes of the event being dropped */
  size_t drop_head_len;
} sse_parser;

void sse_init(sse_parser *p, size_t max_event, sse_event_fn on_event,
              sse_retry_fn on_retry, void *ud);
/* Optional, after sse_init: report dropped events' first bytes. */
void sse_set_on_drop(sse_parser *p, sse_drop_fn on_drop);
/* Frees the buffers (the struct itself is the caller's). */
void sse_free(sse_parser *p);
/* Starts a new stream (a reconnect) keeping the last event id. An id
 * whose event had not ended when the old stream broke is forgotten. */
void sse_restart(sse_parser *p);

/* Feeds bytes. Returns the number of events that were dropped for being
 * larger than max_event (0 normally); parsing goes on after a drop. */
size_t sse_feed(sse_parser *p, const char *buf, size_t len);

/* The id of the last event that ended ("" if none), for Last-Event-ID.
 * Like the WHATWG parser, an id counts only once the blank line ending
 * its event arrived: a stream cut in the middle of an event resumes from
 * before it. */
const char *sse_last_event_id(const sse_parser *p);

#endif
