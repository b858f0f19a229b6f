#include "sse.h"

#include <stdlib.h>
#include <string.h>

/* Grows *buf to hold need+1 bytes; false when that passes `limit` or
 * memory runs out. */
static bool reserve(char **buf, size_t *cap, size_t need, size_t limit) {
  /* The limit first: the capacity may already exceed it (doubling). */
  if (need > limit)
    return false;
  if (need + 1 <= *cap)
    return true;
  size_t c = *cap ? *cap : 128;
  while (c < need + 1)
    c *= 2;
  char *n = realloc(*buf, c);
  if (!n)
    return false;
  *buf = n;
  *cap = c;
  return true;
}

static char *dup_str(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

void sse_init(sse_parser *p, size_t max_event, sse_event_fn on_event,
              sse_retry_fn on_retry, void *ud) {
  memset(p, 0, sizeof *p);
  p->max_event = max_event;
  p->on_event = on_event;
  p->on_retry = on_retry;
  p->ud = ud;
  p->last_id = dup_str("", 0);
}

static void reset_event(sse_parser *p) {
  p->data_len = 0;
  free(p->event);
  p->event = NULL;
  p->has_id = false;
}

void sse_set_on_drop(sse_parser *p, sse_drop_fn on_drop) {
  p->on_drop = on_drop;
}

void sse_free(sse_parser *p) {
  free(p->drop_head);
  free(p->line);
  free(p->data);
  free(p->event);
  free(p->last_id);
  free(p->id_buf);
  memset(p, 0, sizeof *p);
}

void sse_restart(sse_parser *p) {
  p->line_len = 0;
  p->line_any = false;
  reset_event(p);
  free(p->id_buf);
  p->id_buf = NULL;
  p->id_dirty = false;
  p->after_cr = false;
  p->bom_done = false;
  p->bom_len = 0;
  p->skipping = false;
  p->drop_head_len = 0;
}

const char *sse_last_event_id(const sse_parser *p) {
  return p->last_id ? p->last_id : "";
}

/* The blank line ending an event makes its id the last event id, whether
 * or not the event is dispatched (WHATWG "dispatch the event", step 1). */
static void commit_id(sse_parser *p) {
  if (!p->id_dirty)
    return;
  p->id_dirty = false;
  free(p->last_id);
  p->last_id = p->id_buf;
  p->id_buf = NULL;
}

static void dispatch(sse_parser *p) {
  commit_id(p);
  /* No data field means no event; "data:" alone means an event with
   * empty data. data_len counts the trailing '\n' of each data line. */
  if (p->data_len == 0) {
    reset_event(p);
    return;
  }
  p->data_len--; /* the last line's '\n' */
  p->data[p->data_len] = '\0';
  sse_event ev = {.id = sse_last_event_id(p),
                  .has_id = p->has_id,
                  .event = p->event && *p->event ? p->event : "message",
                  .data = p->data,
                  .data_len = p->data_len};
  p->on_event(p->ud, &ev);
  reset_event(p);
}

/* The event being read passed max_event: from here to its blank line it
 * is discarded. For on_drop, keeps the first bytes of its data: what was
 * joined so far, then `more` (the data line that did not fit, if any). */
static void start_skipping(sse_parser *p, const char *more, size_t more_len) {
  p->skipping = true;
  p->drop_head_len = 0;
  if (!p->on_drop ||
      (!p->drop_head && !(p->drop_head = malloc(SSE_DROP_HEAD_MAX))))
    return;
  size_t n = p->data_len < SSE_DROP_HEAD_MAX ? p->data_len : SSE_DROP_HEAD_MAX;
  if (n)
    memcpy(p->drop_head, p->data, n);
  size_t m =
      SSE_DROP_HEAD_MAX - n < more_len ? SSE_DROP_HEAD_MAX - n : more_len;
  if (m)
    memcpy(p->drop_head + n, more, m);
  p->drop_head_len = n + m;
}

static void field(sse_parser *p, const char *name, size_t nlen,
                  const char *value, size_t vlen) {
  if (nlen == 4 && memcmp(name, "data", 4) == 0) {
    /* Bounded by the line limit already; data grows by one line. */
    if (!reserve(&p->data, &p->data_cap, p->data_len + vlen + 1,
                 p->max_event)) {
      start_skipping(p, value, vlen);
      return;
    }
    memcpy(p->data + p->data_len, value, vlen);
    p->data_len += vlen;
    p->data[p->data_len++] = '\n';
    p->data[p->data_len] = '\0';
  } else if (nlen == 5 && memcmp(name, "event", 5) == 0) {
    free(p->event);
    p->event = dup_str(value, vlen);
  } else if (nlen == 2 && memcmp(name, "id", 2) == 0) {
    if (memchr(value, '\0', vlen))
      return; /* ids with NUL are ignored, as the spec says */
    char *id = dup_str(value, vlen);
    if (id) {
      free(p->id_buf);
      p->id_buf = id;
      p->id_dirty = true;
      p->has_id = true;
    }
  } else if (nlen == 5 && memcmp(name, "retry", 5) == 0) {
    if (vlen == 0 || vlen > 9)
      return;
    unsigned long ms = 0;
    for (size_t i = 0; i < vlen; i++) {
      if (value[i] < '0' || value[i] > '9')
        return;
      ms = ms * 10 + (unsigned long)(value[i] - '0');
    }
    if (p->on_retry)
      p->on_retry(p->ud, ms);
  }
  /* Unknown fields are ignored. */
}

/* One complete line (without its end). */
static size_t line_done(sse_parser *p) {
  const char *l = p->line ? p->line : "";
  size_t n = p->line_len;
  bool blank = !p->line_any;
  p->line_len = 0;
  p->line_any = false;
  if (blank) {
    if (p->skipping) {
      p->skipping = false;
      commit_id(p);
      if (p->on_drop)
        p->on_drop(p->ud, p->drop_head ? p->drop_head : "", p->drop_head_len);
      p->drop_head_len = 0;
      reset_event(p);
      return 1;
    }
    dispatch(p);
    return 0;
  }
  /* A line that overflowed (n == 0 but not blank) is part of a skipped
   * event: only a truly blank line ends it. */
  if (p->skipping || n == 0 || l[0] == ':')
    return 0;
  const char *colon = memchr(l, ':', n);
  size_t nlen = colon ? (size_t)(colon - l) : n;
  const char *value = colon ? colon + 1 : l + n;
  size_t vlen = colon ? n - nlen - 1 : 0;
  if (vlen > 0 && value[0] == ' ') {
    value++;
    vlen--;
  }
  field(p, l, nlen, value, vlen);
  return 0;
}

/* Appends ordinary (non line-end) bytes to the current line. */
static void append_line(sse_parser *p, const char *s, size_t n) {
  if (n == 0)
    return;
  p->line_any = true;
  if (p->skipping)
    return;
  if (reserve(&p->line, &p->line_cap, p->line_len + n, p->max_event)) {
    memcpy(p->line + p->line_len, s, n);
    p->line_len += n;
    return;
  }
  /* The line alone is too long: the rest of this event is discarded. If
   * it is a data line, its start goes into the dropped event's head. */
  if (!p->on_drop) {
    p->line_len = 0;
    start_skipping(p, NULL, 0);
    return;
  }
  char pre[SSE_DROP_HEAD_MAX + 6];
  size_t k = p->line_len < sizeof pre ? p->line_len : sizeof pre;
  if (k)
    memcpy(pre, p->line, k);
  size_t k2 = sizeof pre - k < n ? sizeof pre - k : n;
  memcpy(pre + k, s, k2);
  k += k2;
  const char *value = pre + 5;
  size_t vlen = 0;
  if (k >= 5 && memcmp(pre, "data:", 5) == 0) {
    vlen = k - 5;
    if (vlen > 0 && *value == ' ') {
      value++;
      vlen--;
    }
  }
  p->line_len = 0;
  start_skipping(p, value, vlen);
}

size_t sse_feed(sse_parser *p, const char *buf, size_t len) {
  static const char bom[3] = {'\xEF', '\xBB', '\xBF'};
  size_t dropped = 0, i = 0;
  /* A UTF-8 BOM may open the stream, possibly split across chunks: hold
   * the bytes that match it so far; on a mismatch they were text. */
  while (!p->bom_done && i < len) {
    if (buf[i] == bom[p->bom_len]) {
      i++;
      if (++p->bom_len == sizeof bom)
        p->bom_done = true;
      continue;
    }
    p->bom_done = true;
    append_line(p, bom, p->bom_len);
  }
  while (i < len) {
    char c = buf[i];
    if (p->after_cr) {
      p->after_cr = false;
      if (c == '\n') {
        i++;
        continue;
      }
    }
    if (c == '\r' || c == '\n') {
      p->after_cr = c == '\r';
      dropped += line_done(p);
      i++;
      continue;
    }
    /* Copy the run of ordinary bytes up to the next line end at once. */
    size_t j = i;
    while (j < len && buf[j] != '\r' && buf[j] != '\n')
      j++;
    append_line(p, buf + i, j - i);
    i = j;
  }
  return dropped;
}
