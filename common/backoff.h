/* The one reconnection backoff: the host's sessions (mcp/session.c) and
 * the remote transports' event streams (http, sse) wait by it. Claude
 * Code's rule (claude-code-mcp.md, "Reconnect"): up to 5 attempts, the
 * first after 1 s, doubling to 30 s. A server's SSE `retry:` field
 * replaces the first delay, within [BACKOFF_MIN_MS, BACKOFF_MAX_MS]: the
 * cap holds whatever a server asks. Header only; any thread. */
#ifndef MCPHOST_COMMON_BACKOFF_H
#define MCPHOST_COMMON_BACKOFF_H

#include <stdint.h>

#define BACKOFF_FIRST_MS 1000u  /* the first wait, when no server said */
#define BACKOFF_MAX_MS 30000u   /* no wait is longer */
#define BACKOFF_MIN_MS 100u     /* "retry: 0" must not spin */
#define BACKOFF_MAX_ATTEMPTS 5u /* failed attempts in a row, then give up */

/* A server's `retry:` value as a first delay: raised to BACKOFF_MIN_MS,
 * lowered to BACKOFF_MAX_MS. */
static inline uint64_t backoff_first(uint64_t retry_ms) {
  return retry_ms < BACKOFF_MIN_MS   ? BACKOFF_MIN_MS
         : retry_ms > BACKOFF_MAX_MS ? BACKOFF_MAX_MS
                                     : retry_ms;
}

/* The wait before the next attempt after `failed` failed ones in a row:
 * `first_ms` (backoff_first() applies) doubled `failed` times, at most
 * BACKOFF_MAX_MS. */
static inline uint64_t backoff_delay(uint64_t first_ms, unsigned failed) {
  uint64_t d = backoff_first(first_ms);
  for (unsigned i = 0; i < failed && d < BACKOFF_MAX_MS; i++) {
    d *= 2;
  }
  return d > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : d;
}

#endif
