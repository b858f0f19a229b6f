/* A deliberate regression of resident memory for the footprint guard's
 * own test (tests/integration/test_footprint_guard.sh): preloaded into
 * mcphost (FOOTPRINT_PRELOAD), it makes 200 KiB resident before main and
 * holds them to the exit, writing one byte a page. Built twice: with
 * GROW_KIB=0 too, the same library making nothing resident, which the
 * test's baseline is counted with, so that the two runs differ by the
 * 200 KiB and a few hundred instructions only (preloading a library
 * costs mcphost's dynamic linking some 13-25 k instructions itself). */
#include <stdlib.h>

extern char *volatile footprint_grown;

#ifndef GROW_KIB
#define GROW_KIB 200
#endif
#define PAGE 4096

/* Kept to the exit, and seen from outside: the stores are not
 * optimized away. */
char *volatile footprint_grown;

__attribute__((constructor)) static void grow_at_start(void) {
  size_t bytes = (size_t)GROW_KIB * 1024;
  volatile char *p = malloc(bytes + 1);
  if (!p) {
    return;
  }
  for (volatile char *q = p; q < p + bytes; q += PAGE) {
    *q = 1;
  }
  footprint_grown = (char *)p;
}
