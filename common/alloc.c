/* Checked allocation; see alloc.h. */
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void out_of_memory(void) {
  fputs("mcphost: out of memory\n", stderr);
  abort();
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    out_of_memory();
  }
  return p;
}

/* Below this, malloc and memset: glibc's calloc never takes a chunk from
 * the thread cache (tcache) that free() fills, so a small object made
 * with calloc and freed once per call filled its size's cache after seven
 * calls, and every later free() took the slow way (and, next to the top
 * of the heap, a malloc_consolidate()): 1,300 instructions of a
 * sequential call. Above it, calloc: fresh pages need no zeroing, and
 * untouched ones stay out of the resident set. */
#define XCALLOC_SMALL 1024u

void *xcalloc(size_t n, size_t m) {
  n = n ? n : 1;
  m = m ? m : 1;
  void *p;
  if (n <= XCALLOC_SMALL / m) {
    p = malloc(n * m);
    if (p) {
      /* The barrier keeps the compiler from making the pair calloc. */
      __asm__ volatile("" : : "r"(p) : "memory");
      memset(p, 0, n * m);
    }
  } else {
    p = calloc(n, m);
  }
  if (!p) {
    out_of_memory();
  }
  return p;
}

void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) {
    out_of_memory();
  }
  return p;
}

char *xstrdup(const char *s) {
  return s ? xstrndup(s, strlen(s)) : xstrndup("", 0);
}

char *xstrndup(const char *s, size_t n) {
  char *p = xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}
