#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static inline void sip_round(uint64_t v[4]) {
  v[0] += v[1];
  v[1] = ROTL(v[1], 13);
  v[1] ^= v[0];
  v[0] = ROTL(v[0], 32);
  v[2] += v[3];
  v[3] = ROTL(v[3], 16);
  v[3] ^= v[2];
  v[0] += v[3];
  v[3] = ROTL(v[3], 21);
  v[3] ^= v[0];
  v[2] += v[1];
  v[1] = ROTL(v[1], 17);
  v[1] ^= v[2];
  v[2] = ROTL(v[2], 32);
}

static inline uint64_t le64(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w); /* one load */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  return w;
}

uint64_t bsrc_siphash(const uint64_t k[2], const void *data, size_t n) {
  const unsigned char *p = data;
  uint64_t v[4] = {k[0] ^ 0x736f6d6570736575ull, k[1] ^ 0x646f72616e646f6dull,
                   k[0] ^ 0x6c7967656e657261ull, k[1] ^ 0x7465646279746573ull};
  size_t whole = n & ~(size_t)7;
  for (size_t i = 0; i < whole; i += 8) {
    uint64_t m = le64(p + i);
    v[3] ^= m;
    sip_round(v);
    sip_round(v);
    v[0] ^= m;
  }
  uint64_t last = (uint64_t)(n & 0xff) << 56;
  for (size_t i = n - whole; i-- > 0;) {
    last |= (uint64_t)p[whole + i] << (8 * i);
  }
  v[3] ^= last;
  sip_round(v);
  sip_round(v);
  v[0] ^= last;
  v[2] ^= 0xff;
  for (int i = 0; i < 4; i++) {
    sip_round(v);
  }
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static void blank(bsrc *s) {
  memset(s, 0, sizeof *s);
  s->fd = -1;
  s->cur = SIZE_MAX;
}

int bsrc_open_fd(bsrc *s, int fd, char *err, size_t n) {
  blank(s);
  s->fd = fd;
  struct stat st;
  if (fstat(fd, &st) < 0) {
    snprintf(err, n, "%s", strerror(errno));
    goto fail;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, n, "not a regular file");
    goto fail;
  }
  if (getrandom(s->key, sizeof s->key, 0) != (ssize_t)sizeof s->key) {
    snprintf(err, n, "no random key for the file's digests (%s)",
             strerror(errno));
    goto fail;
  }
  s->size = s->len = (uint64_t)st.st_size;
  s->nblocks = (size_t)((s->size + BSRC_BLOCK - 1) / BSRC_BLOCK);
  s->digest = calloc(s->nblocks + 1, sizeof *s->digest);
  s->seen = calloc(s->nblocks + 1, 1);
  s->buf = malloc(BSRC_BLOCK);
  if (!s->digest || !s->seen || !s->buf) {
    abort();
  }
  return 0;
fail:
  bsrc_close(s);
  return -1;
}

void bsrc_open_mem(bsrc *s, const void *data, size_t len) {
  blank(s);
  s->mem = data;
  s->size = s->len = len;
}

int bsrc_pread(bsrc *s, uint64_t off, void *out, size_t n) {
  if (off > s->size || n > s->size - off) {
    snprintf(s->err, sizeof s->err, "the file is shorter than it was");
    return -1;
  }
  if (s->fd < 0) {
    if (n > 0) {
      memcpy(out, s->mem + off, n);
    }
    return 0;
  }
  unsigned char *p = out;
  while (n > 0) {
    ssize_t r = pread(s->fd, p, n, (off_t)off);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r <= 0) {
      snprintf(s->err, sizeof s->err, "%s",
               r < 0 ? strerror(errno)
                     : "the bundle file changed while it was read (it is "
                       "shorter)");
      return -1;
    }
    p += r;
    off += (uint64_t)r;
    n -= (size_t)r;
  }
  return 0;
}

void bsrc_limit(bsrc *s, uint64_t len) {
  if (len < s->size) {
    s->len = len;
  }
}

const unsigned char *bsrc_at(bsrc *s, uint64_t off, size_t *avail) {
  *avail = 0;
  if (off >= s->len) {
    return s->fd < 0 && s->mem ? s->mem : (const unsigned char *)"";
  }
  if (s->fd < 0) {
    uint64_t left = s->len - off;
    *avail = left > SIZE_MAX ? SIZE_MAX : (size_t)left;
    return s->mem + off;
  }
  size_t i = (size_t)(off / BSRC_BLOCK);
  if (i != s->cur) {
    uint64_t start = (uint64_t)i * BSRC_BLOCK;
    size_t n = s->len - start < BSRC_BLOCK ? (size_t)(s->len - start)
                                           : (size_t)BSRC_BLOCK;
    s->cur = SIZE_MAX;
    if (bsrc_pread(s, start, s->buf, n) < 0) {
      return NULL;
    }
    if (s->seen[i] || !s->frozen) {
      uint64_t d = bsrc_siphash(s->key, s->buf, n);
      if (!s->seen[i]) {
        s->seen[i] = 1;
        s->digest[i] = d;
      } else if (s->digest[i] != d) {
        snprintf(s->err, sizeof s->err,
                 "the bundle file changed while it was read (the bytes at "
                 "offset %llu differ from what was checked)",
                 (unsigned long long)start);
        return NULL;
      }
    }
    s->cur = i;
    s->cur_len = n;
  }
  size_t in = (size_t)(off - (uint64_t)i * BSRC_BLOCK);
  *avail = s->cur_len - in;
  return s->buf + in;
}

void bsrc_freeze(bsrc *s) {
  s->frozen = 1;
}

void bsrc_close(bsrc *s) {
  if (s->fd >= 0) {
    close(s->fd);
  }
  free(s->digest);
  free(s->seen);
  free(s->buf);
  blank(s);
}
