/* How many terminal columns text takes, for tables and cuts to the
 * screen width.
 *
 * One small table of East Asian Wide and Fullwidth ranges (CJK, Hangul,
 * fullwidth forms, most emoji: two columns) and of combining marks,
 * variation selectors and the zero-width joiner (no column); everything
 * else is one column, an ill-formed byte too. A table rather than
 * wcwidth(): mcphost runs in the C locale, where wcwidth() knows no
 * character beyond ASCII, and the answer is the same on every machine.
 * Text shown on a terminal is escaped first (text_escape.h), so controls
 * and invisible characters arrive as ASCII "<U+XXXX>" and count as what
 * they look like. Pure functions, any thread. */
#ifndef MCPHOST_DISPLAY_WIDTH_H
#define MCPHOST_DISPLAY_WIDTH_H

#include <stddef.h>

/* The columns one code point takes: 0, 1 or 2. */
int display_cp_width(unsigned cp);

/* The columns UTF-8 text s[0..len) takes. */
size_t display_width(const char *s, size_t len);

/* The length in bytes of the longest start of s[0..len) that fits in
 * `cols` columns; never splits a character (nor a combining mark from
 * its base). */
size_t display_offset(const char *s, size_t len, size_t cols);

#endif
