/* See strbuf.h. */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

char *xvasprintf(const char *fmt, va_list ap) {
  /* Most results (paths, names, messages) fit here: formatted once, and
   * one allocation of their size. */
  char small[256];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < 0) {
    n = 0;
    small[0] = '\0';
  }
  char *s = xmalloc((size_t)n + 1);
  if ((size_t)n < sizeof small) {
    memcpy(s, small, (size_t)n + 1);
  } else {
    vsnprintf(s, (size_t)n + 1, fmt, ap2);
  }
  va_end(ap2);
  return s;
}

char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = xvasprintf(fmt, ap);
  va_end(ap);
  return s;
}

void sb_init(strbuf *b) {
  b->data = NULL;
  b->len = b->cap = 0;
}

void sb_free(strbuf *b) {
  free(b->data);
  sb_init(b);
}

static void sb_grow(strbuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1)
    cap *= 2;
  b->data = xrealloc(b->data, cap);
  b->cap = cap;
}

void sb_reserve(strbuf *b, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->data = xrealloc(b->data, b->len + n + 1);
    b->cap = b->len + n + 1;
  }
}

void sb_add_grow(strbuf *b, const char *s, size_t n) {
  sb_grow(b, n);
  if (n)
    memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void sb_adds(strbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

char *sb_extend_grow(strbuf *b, size_t n) {
  sb_grow(b, n);
  char *at = b->data + b->len;
  b->len += n;
  b->data[b->len] = '\0';
  return at;
}

void sb_vprintf(strbuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  sb_grow(b, 64);
  int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
  if (n > 0 && b->len + (size_t)n + 1 > b->cap) {
    sb_grow(b, (size_t)n);
    vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap2);
  }
  if (n > 0)
    b->len += (size_t)n;
  va_end(ap2);
}

void sb_printf(strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

char *sb_take(strbuf *b) {
  char *s = b->data ? b->data : xstrdup("");
  sb_init(b);
  return s;
}

const char *sb_str(const strbuf *b) { return b->data ? b->data : ""; }
