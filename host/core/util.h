/* Small helpers shared by the host: a growable byte buffer, and checked
 * allocation for the few places where failure cannot be reported. */
#ifndef MCPHOST_UTIL_H
#define MCPHOST_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "alloc.h" /* xmalloc, xcalloc, xrealloc, xstrdup, xstrndup */

typedef struct strbuf {
  char *data; /* always NUL-terminated once anything was added */
  size_t len, cap;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_add(strbuf *b, const char *s, size_t n);
void sb_adds(strbuf *b, const char *s);
void sb_addc(strbuf *b, char c);
/* Adds `n` bytes for the caller to fill and returns where they start; the
 * NUL after them is written already. */
char *sb_extend(strbuf *b, size_t n);
/* Makes room for `n` more bytes at once (a message of about known size
 * grows once, not by doubling from 64). */
void sb_reserve(strbuf *b, size_t n);
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
void sb_printf(strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Returns the contents ("" when empty), which the caller then owns. */
char *sb_take(strbuf *b);
const char *sb_str(const strbuf *b);

/* Reads `path` ("-": stdin) whole into a new string (its length in
 * *len); NULL with errno set. */
char *read_whole_file(const char *path, size_t *len);

char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

bool str_starts(const char *s, const char *prefix);

/* Whether `s` matches `pattern`, where '*' matches any run of characters
 * (including none and '/'); every other character matches itself. */
bool glob_match(const char *pattern, const char *s);
/* The user's home directory: $HOME when it is an absolute path, else the
 * passwd entry's home when it exists (and is not "/"). Never a shared
 * fallback such as /tmp: NULL when there is none. A new string. */
char *user_home(void);

/* The size of the terminal on `fd`: true with *cols and *rows set, or
 * false when `fd` is no terminal (or says no size). */
bool term_size(int fd, unsigned *cols, unsigned *rows);

#endif
