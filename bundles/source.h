/* A bundle's ZIP bytes read in blocks, never whole: the signature check,
 * the manifest and the extraction each read what they need through one
 * block buffer (BSRC_BLOCK bytes), so an install's memory does not grow
 * with the bundle.
 *
 * The file is read more than once (the signature over every byte, then
 * the manifest, then the extraction), so each block's keyed digest
 * (SipHash-2-4, a random key per source) is kept the first time the
 * block is read and checked on every later read: what the signature
 * vouched for and the manifest showed is what is extracted, and a file
 * changed in between (in place, by whoever can write it) fails the
 * install with "the bundle file changed while it was read". Once the
 * checks are done (bsrc_freeze), a block nothing checked is read without
 * a digest: an unsigned bundle's entries are hashed by nobody, and the
 * extraction, the last reader, needs no record of them.
 *
 * A source over memory (bsrc_open_mem) reads the caller's buffer, with
 * no digests: for the fuzz targets and bytes that are already private.
 *
 * One thread at a time per source; no global state. */
#ifndef MCPB_SOURCE_H
#define MCPB_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#define BSRC_BLOCK (64u << 10)

typedef struct bsrc {
  int fd;                   /* -1 for a source over memory */
  const unsigned char *mem; /* the bytes of a source over memory */
  uint64_t size;            /* of the file */
  uint64_t len;             /* readable: [0, len), the ZIP bytes */
  uint64_t pos;             /* where the next sequential read starts */
  uint64_t key[2];          /* the digests' key */
  uint64_t *digest;         /* one per block */
  unsigned char *seen;      /* one per block: its digest is kept */
  size_t nblocks;
  int frozen;         /* no more digests kept (bsrc_freeze) */
  unsigned char *buf; /* BSRC_BLOCK bytes */
  size_t cur;         /* the block in buf, or SIZE_MAX */
  size_t cur_len;
  char err[200]; /* why the last read failed */
} bsrc;

/* A source over the regular file open on `fd` (the source owns it from
 * here, also on failure). 0, or -1 with the reason in `err`. */
int bsrc_open_fd(bsrc *s, int fd, char *err, size_t n);

/* A source over `len` bytes of memory, borrowed. */
void bsrc_open_mem(bsrc *s, const void *data, size_t len);

/* Reads `n` bytes at `off` (anywhere in the file, not limited to `len`)
 * straight from the file, with no digest: the trailer, read once. 0, or
 * -1 with the reason in s->err. */
int bsrc_pread(bsrc *s, uint64_t off, void *out, size_t n);

/* Limits reads to [0, len) (the ZIP bytes before a signature trailer);
 * before any block is read. */
void bsrc_limit(bsrc *s, uint64_t len);

/* The bytes at `off`: a pointer valid until the next call, and how many
 * follow in *avail (0 at the end). NULL with the reason in s->err when
 * the file cannot be read or changed since the block was first read. */
const unsigned char *bsrc_at(bsrc *s, uint64_t off, size_t *avail);

/* The checks are done: blocks not read yet are read from now on without
 * keeping their digest; those read before are still checked. */
void bsrc_freeze(bsrc *s);

void bsrc_close(bsrc *s);

/* SipHash-2-4 of `n` bytes under the 128-bit key `k`. */
uint64_t bsrc_siphash(const uint64_t k[2], const void *data, size_t n);

#endif
