/* Newline-delimited JSON framing; see framing.h. */
#include "framing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An empty buffer larger than this is freed rather than kept, so that one
 * huge message does not pin its memory for the transport's lifetime. */
#define FRAMING_KEEP_MAX ((size_t)1 << 20)
#define FRAMING_MIN_CAP ((size_t)4096)

void framing_init(framing *f, size_t max_line) {
  memset(f, 0, sizeof *f);
  f->max_line = max_line ? max_line : 1;
}

/* Frees the buffer, which holds no line. */
static void drop_buffer(framing *f) {
  free(f->buf);
  f->buf = NULL;
  f->cap = f->start = f->scan = f->len = 0;
}

void framing_free(framing *f) {
  drop_buffer(f);
  free(f->dropped_head);
  f->dropped_head = NULL;
  f->dropped_head_len = 0;
}

char *framing_reserve(framing *f, size_t want, size_t *avail) {
  if (f->start == f->len) {
    f->start = f->scan = f->len = 0;
    if (f->cap > FRAMING_KEEP_MAX) {
      drop_buffer(f);
    }
  } else if (f->start > 0) {
    /* Only the unfinished last line is left; it moves once. */
    memmove(f->buf, f->buf + f->start, f->len - f->start);
    f->len -= f->start;
    f->scan -= f->start;
    f->start = 0;
  }
  if (want == 0) {
    want = 1;
  }
  if (f->cap - f->len < want) {
    if (want > SIZE_MAX / 2 - f->len) {
      return NULL;
    }
    size_t need = f->len + want;
    size_t cap = f->cap ? f->cap : FRAMING_MIN_CAP;
    while (cap < need) {
      cap *= 2;
    }
    /* Doubling may overshoot what the limit can ever need (a line of
     * max_line bytes, "\r\n", and one read). */
    size_t ceiling = f->max_line + 2 + want;
    if (f->max_line < SIZE_MAX / 4 && cap > ceiling && ceiling >= need) {
      cap = ceiling;
    }
    char *p = realloc(f->buf, cap);
    if (!p) {
      return NULL;
    }
    f->buf = p;
    f->cap = cap;
  }
  *avail = f->cap - f->len;
  return f->buf + f->len;
}

void framing_commit(framing *f, size_t n) {
  f->len += n;
}

bool framing_push(framing *f, const void *data, size_t n) {
  size_t avail;
  char *dst = framing_reserve(f, n, &avail);
  if (!dst) {
    return false;
  }
  if (n) {
    memcpy(dst, data, n);
  }
  framing_commit(f, n);
  return true;
}

void framing_set_eof(framing *f) {
  f->eof = true;
}

size_t framing_pending(const framing *f) {
  return f->discarding ? 0 : f->len - f->start;
}

void framing_drop_pending(framing *f) {
  f->start = f->scan = f->len;
}

/* JSON whitespace, less '\n' which never occurs inside a line. */
static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

static enum framing_kind classify(const char *line, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (!is_blank(line[i])) {
      return line[i] == '{' || line[i] == '[' ? FRAMING_MESSAGE
                                              : FRAMING_NOT_JSON;
    }
  }
  return FRAMING_NONE; /* empty or blank: skipped */
}

/* True when an unfinished line of `pending` bytes can no longer fit: one
 * byte over the limit is allowed if it is a '\r' that a '\n' may follow. */
static bool pending_too_big(const framing *f, size_t pending) {
  if (pending <= f->max_line) {
    return false;
  }
  return !(pending == f->max_line + 1 && f->buf[f->len - 1] == '\r');
}

/* Keeps the first bytes of a line about to be dropped. */
static void keep_head(framing *f, const char *line, size_t n) {
  if (!f->dropped_head) {
    f->dropped_head = malloc(FRAMING_HEAD_MAX);
  }
  f->dropped_head_len = !f->dropped_head       ? 0
                        : n < FRAMING_HEAD_MAX ? n
                                               : FRAMING_HEAD_MAX;
  if (f->dropped_head_len) {
    memcpy(f->dropped_head, line, f->dropped_head_len);
  }
}

enum framing_kind framing_next(framing *f, const char **line, size_t *len) {
  *line = NULL;
  *len = 0;
  if (!f->buf) {
    return FRAMING_NONE; /* nothing came (a peer that exits at once) */
  }
  for (;;) {
    char *nl = f->scan < f->len
                   ? memchr(f->buf + f->scan, '\n', f->len - f->scan)
                   : NULL;
    if (f->discarding) {
      if (!nl) {
        f->start = f->scan = f->len; /* drop what came, keep dropping */
        return FRAMING_NONE;
      }
      f->start = f->scan = (size_t)(nl - f->buf) + 1;
      f->discarding = false;
      continue;
    }

    const char *l = f->buf + f->start;
    size_t n;
    if (nl) {
      n = (size_t)(nl - l);
      f->start = f->scan = (size_t)(nl - f->buf) + 1;
    } else {
      size_t pending = f->len - f->start;
      f->scan = f->len;
      if (pending_too_big(f, pending)) {
        keep_head(f, l, pending);
        f->discarding = !f->eof;
        f->start = f->scan = f->len;
        *len = pending;
        return FRAMING_TOO_BIG;
      }
      if (!f->eof || pending == 0) {
        return FRAMING_NONE;
      }
      n = pending; /* the last line, without a '\n' */
      f->start = f->len;
    }

    if (n > 0 && l[n - 1] == '\r') {
      n--;
    }
    if (n > f->max_line) {
      keep_head(f, l, n);
      *len = n;
      return FRAMING_TOO_BIG;
    }
    enum framing_kind kind = classify(l, n);
    if (kind != FRAMING_NONE) {
      *line = l;
      *len = n;
      return kind;
    }
  }
}

char *framing_take(framing *f, const char *line, size_t len) {
  if (!f->buf || line != f->buf) {
    return NULL;
  }
  /* The line's '\n' (or '\r') follows it, unless it was the last line
   * at the end of input and filled the buffer: then room for the NUL. */
  char *taken = f->buf;
  if (len >= f->cap) {
    taken = realloc(f->buf, len + 1);
    if (!taken) {
      return NULL;
    }
    f->buf = taken;
    f->cap = len + 1;
  }
  size_t rest = f->len - f->start;
  char *buf = NULL;
  size_t cap = 0;
  if (rest > 0) {
    cap = rest > FRAMING_MIN_CAP ? rest : FRAMING_MIN_CAP;
    buf = malloc(cap);
    if (!buf) {
      return NULL;
    }
    memcpy(buf, taken + f->start, rest);
  }
  f->scan -= f->start;
  f->buf = buf;
  f->cap = cap;
  f->len = rest;
  f->start = 0;
  return taken;
}
