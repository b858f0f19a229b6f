/* Chunk sizes for targets that feed a stream parser piece by piece: a
 * small generator seeded from the input's first bytes, so libFuzzer can
 * steer the split and a crash input replays the same split. Header only;
 * a target's state, one thread. */
#ifndef MCPH_FUZZ_CHUNKS_H
#define MCPH_FUZZ_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_chunks {
  uint64_t state;
} fuzz_chunks;

/* Seeds from up to 8 bytes at *data and consumes them. */
static inline void fuzz_chunks_init(fuzz_chunks *c, const unsigned char **data,
                                    size_t *len) {
  c->state = 0x243f6a8885a308d3ull;
  for (int i = 0; i < 8 && *len > 0; i++) {
    c->state = (c->state ^ **data) * 0x100000001b3ull;
    (*data)++;
    (*len)--;
  }
}

static inline uint64_t fuzz_chunks_next(fuzz_chunks *c) {
  c->state += 0x9e3779b97f4a7c15ull;
  uint64_t z = c->state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The next chunk: 0 to `max` bytes, small ones most often (the splits
 * that find bugs cut inside a token). */
static inline size_t fuzz_chunks_size(fuzz_chunks *c, size_t max) {
  uint64_t r = fuzz_chunks_next(c);
  size_t n = (r & 3) ? (size_t)((r >> 8) % 4) : (size_t)((r >> 8) % 97);
  return n < max ? n : max;
}

#endif
