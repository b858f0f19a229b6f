/* A growable string: the one buffer that text is built in, for the host
 * (util.h) and the plugins (OAuth, channels). Out of memory aborts,
 * as every x* allocation does (alloc.h). Any thread; a buffer is its
 * owner's. */
#ifndef MCPHOST_COMMON_STRBUF_H
#define MCPHOST_COMMON_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/* Zeroed ({0}) is empty, as sb_init() makes it. */
typedef struct strbuf {
  char *data; /* always NUL-terminated once anything was added */
  size_t len, cap;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
/* sb_add when the room must grow first. */
void sb_add_grow(strbuf *b, const char *s, size_t n);
/* Inlined: most adds fit in the room there is (a JSON text is written a
 * brace, a quote, a key at a time), and a character's or a literal's copy
 * is then a move or two, not two calls. */
static inline void sb_add(strbuf *b, const char *s, size_t n) {
  if (b->cap - b->len <= n) { /* room for the NUL too; none yet: cap 0 */
    sb_add_grow(b, s, n);
    return;
  }
  if (n) /* `s` may be NULL then */
    memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}
void sb_adds(strbuf *b, const char *s);
/* A string literal, its length known when compiled (no strlen). */
#define sb_addl(b, lit) sb_add((b), "" lit, sizeof(lit) - 1)
static inline void sb_addc(strbuf *b, char c) {
  sb_add(b, &c, 1);
}
/* sb_extend when the room must grow first. */
char *sb_extend_grow(strbuf *b, size_t n);
/* Adds `n` bytes for the caller to fill and returns where they start; the
 * NUL after them is written already. Inlined, as sb_add. */
static inline char *sb_extend(strbuf *b, size_t n) {
  if (b->cap - b->len <= n)
    return sb_extend_grow(b, n);
  char *at = b->data + b->len;
  b->len += n;
  b->data[b->len] = '\0';
  return at;
}
/* Makes room for `n` more bytes at once (a message of about known size
 * grows once, not by doubling from 64). */
void sb_reserve(strbuf *b, size_t n);
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
void sb_printf(strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Returns the contents ("" when empty), which the caller then owns. */
char *sb_take(strbuf *b);
const char *sb_str(const strbuf *b);

/* A new string, printf's; free it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

#endif
