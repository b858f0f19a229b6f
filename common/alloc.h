/* Checked allocation, for the host and every plugin built in this tree:
 * where running out of memory cannot be reported, it ends the process
 * ("mcphost: out of memory" on stderr, then abort()). One copy, linked
 * statically into each (mcphost_alloc). Any thread. */
#ifndef MCPHOST_COMMON_ALLOC_H
#define MCPHOST_COMMON_ALLOC_H

#include <stddef.h>

/* A zero size counts as one byte, so the result is never NULL. */
void *xmalloc(size_t n) __attribute__((returns_nonnull, malloc));
void *xcalloc(size_t n, size_t m) __attribute__((returns_nonnull, malloc));
void *xrealloc(void *p, size_t n) __attribute__((returns_nonnull));
/* A new copy of `s`; NULL is copied as "". */
char *xstrdup(const char *s) __attribute__((returns_nonnull, malloc));
/* The first `n` bytes of `s` (which must have them), NUL-terminated. */
char *xstrndup(const char *s, size_t n)
    __attribute__((returns_nonnull, malloc));

#endif
