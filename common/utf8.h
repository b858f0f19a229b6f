/* The one UTF-8 decoder and encoder of mcphost (host and plugins): what the
 * text escaper (text_escape.h), the sanitizer and the raw JSON reader take a
 * sequence to be. Pure function, any thread. */
#ifndef MCPHOST_UTF8_H
#define MCPHOST_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The UTF-8 sequence at s[0..n) (n > 0): its length, *ok and its code
 * point in *cp (when not NULL) when it is a well-formed one (shortest
 * form, a scalar value), else the length of its maximal ill-formed
 * subpart (at least 1), which Unicode recommends replacing by one
 * U+FFFD; *cp is then left as it was. */
size_t utf8_sequence(const unsigned char *s, size_t n, bool *ok, uint32_t *cp);

/* Writes the UTF-8 of `cp` (a scalar value, U+0000 as 00) at `o`, which
 * has room for 4 bytes; returns the bytes written. */
size_t utf8_put(unsigned char *o, uint32_t cp);

#endif
