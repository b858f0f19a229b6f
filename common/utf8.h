/* The one UTF-8 decoder of mcphost (host and plugins): what the text
 * escaper (text_escape.h), the sanitizer and the raw JSON reader take a
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

#endif
