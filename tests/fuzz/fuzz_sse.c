/* Fuzz target: the Server-Sent Events parser (transports/common/sse.h).
 * The input is a per-event limit, a chunk seed and a stream. The stream
 * is fed once whole and once in chunks of 0 to 96 bytes; the promise is
 * the same events whatever the chunking: the same dispatched events (id,
 * whether it had its own, type, data), retries, drop count and last event
 * id, and a dropped event's first bytes a prefix of what the whole feed
 * kept (a chunked feed may have seen fewer when it gave up). Also: no
 * event's data passes the limit or holds a CR, types and ids hold no line
 * end, a dropped head is at most SSE_DROP_HEAD_MAX bytes. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_chunks.h"
#include "sse.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

/* What the callbacks saw, as one byte log per feed. */
typedef struct {
  char *buf;
  size_t len, cap;
  size_t max_event;
  /* Dropped heads, kept apart: compared as prefixes. */
  char *heads[64];
  size_t head_lens[64];
  size_t nheads, drops;
} record;

static void put(record *r, const void *s, size_t n) {
  if (n == 0) {
    return;
  }
  if (r->len + n > r->cap) {
    size_t cap = r->cap ? r->cap : 256;
    while (cap < r->len + n) {
      cap *= 2;
    }
    char *b = realloc(r->buf, cap);
    if (!b) {
      abort();
    }
    r->buf = b;
    r->cap = cap;
  }
  memcpy(r->buf + r->len, s, n);
  r->len += n;
}

static void put_str(record *r, const char *s, size_t n) {
  put(r, &n, sizeof n);
  put(r, s, n);
}

static bool has_line_end(const char *s, size_t n) {
  return memchr(s, '\r', n) || memchr(s, '\n', n);
}

static void on_event(void *ud, const sse_event *ev) {
  record *r = ud;
  size_t idn = strlen(ev->id), evn = strlen(ev->event);
  if (ev->data_len > r->max_event || memchr(ev->data, '\r', ev->data_len) ||
      ev->data[ev->data_len] != '\0' || has_line_end(ev->id, idn) ||
      has_line_end(ev->event, evn) || evn == 0) {
    abort();
  }
  put(r, "E", 1);
  put_str(r, ev->id, idn);
  put(r, ev->has_id ? "1" : "0", 1);
  put_str(r, ev->event, evn);
  put_str(r, ev->data, ev->data_len);
}

static void on_retry(void *ud, unsigned long ms) {
  record *r = ud;
  if (ms > 999999999ul) {
    abort(); /* at most nine digits */
  }
  put(r, "R", 1);
  put(r, &ms, sizeof ms);
}

static void on_drop(void *ud, const char *head, size_t n) {
  record *r = ud;
  if (n > SSE_DROP_HEAD_MAX) {
    abort();
  }
  put(r, "D", 1);
  r->drops++;
  if (r->nheads < 64) {
    r->heads[r->nheads] = malloc(n + 1);
    if (!r->heads[r->nheads]) {
      abort();
    }
    memcpy(r->heads[r->nheads], head, n);
    r->head_lens[r->nheads++] = n;
  }
}

static void record_free(record *r) {
  free(r->buf);
  for (size_t i = 0; i < r->nheads; i++) {
    free(r->heads[i]);
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len < 1) {
    return 0;
  }
  size_t max_event =
      data[0] < 200 ? (size_t)data[0] + 1 : ((size_t)data[0] - 199) * 1024;
  data++;
  len--;
  fuzz_chunks ch;
  fuzz_chunks_init(&ch, &data, &len);
  const char *s = (const char *)data;

  record whole = {.max_event = max_event};
  sse_parser p;
  sse_init(&p, max_event, on_event, on_retry, &whole);
  sse_set_on_drop(&p, on_drop);
  size_t whole_dropped = sse_feed(&p, s, len);
  char *whole_id = strdup(sse_last_event_id(&p));
  sse_free(&p);

  record parts = {.max_event = max_event};
  sse_init(&p, max_event, on_event, on_retry, &parts);
  sse_set_on_drop(&p, on_drop);
  size_t parts_dropped = 0;
  for (size_t off = 0; off < len;) {
    size_t n = fuzz_chunks_size(&ch, len - off);
    parts_dropped += sse_feed(&p, s + off, n);
    off += n;
  }
  if (!whole_id || strcmp(whole_id, sse_last_event_id(&p)) != 0) {
    abort();
  }
  sse_free(&p);

  if (whole.len != parts.len ||
      (whole.len && memcmp(whole.buf, parts.buf, whole.len) != 0) ||
      whole_dropped != parts_dropped || whole_dropped != whole.drops ||
      parts.drops != whole.drops || parts.nheads != whole.nheads) {
    abort();
  }
  for (size_t i = 0; i < whole.nheads; i++) {
    size_t n = parts.head_lens[i];
    if (n > whole.head_lens[i] ||
        (n && memcmp(parts.heads[i], whole.heads[i], n) != 0)) {
      abort();
    }
  }
  free(whole_id);
  record_free(&whole);
  record_free(&parts);
  return 0;
}
