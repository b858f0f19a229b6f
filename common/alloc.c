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

void *xcalloc(size_t n, size_t m) {
  void *p = calloc(n ? n : 1, m ? m : 1);
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
