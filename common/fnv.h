/* The one non-cryptographic hash of mcphost (host and plugins): FNV-1a,
 * small, stable across runs, builds and platforms. For keys and names
 * where only an accidental clash matters (a cache key, a file name's
 * mark, a table's slot); never where someone could choose a clash to
 * their gain (project approvals keep SHA-256: config_approval.h). Pure
 * functions, any thread. */
#ifndef MCPHOST_FNV_H
#define MCPHOST_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A32_INIT 2166136261u
#define FNV1A64_INIT 0xcbf29ce484222325ull

/* `h` (FNV1A32_INIT to start) continued over n bytes at p. */
static inline uint32_t fnv1a32_add(uint32_t h, const void *p, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ s[i]) * 16777619u;
  }
  return h;
}

/* `h` (FNV1A64_INIT to start) continued over n bytes at p. */
static inline uint64_t fnv1a64_add(uint64_t h, const void *p, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ s[i]) * 0x100000001b3ull;
  }
  return h;
}

static inline uint32_t fnv1a32(const void *p, size_t n) {
  return fnv1a32_add(FNV1A32_INIT, p, n);
}

static inline uint64_t fnv1a64(const void *p, size_t n) {
  return fnv1a64_add(FNV1A64_INIT, p, n);
}

#endif
