/* A deliberate regression for the footprint guard's own test
 * (tests/integration/test_footprint_guard.sh): preloaded into mcphost
 * (FOOTPRINT_PRELOAD), it spins a few million instructions before main,
 * in a function whose name the guard's report must show. */
#include <stdlib.h>

void footprint_spin(void);

__attribute__((noinline)) void footprint_spin(void) {
  const char *n = getenv("FOOTPRINT_SPIN");
  unsigned long count = n ? strtoul(n, NULL, 10) : 500000;
  for (volatile unsigned long i = 0; i < count; i++) {
  }
}

__attribute__((constructor)) static void spin_at_start(void) {
  footprint_spin();
}
