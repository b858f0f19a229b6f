/* The bundle plugin's block reader (bundles/source.h): SipHash-2-4
 * against the reference vectors, blocks served whole and in order, the
 * limit of the ZIP bytes, a file changed between two reads of a block
 * refused, and once frozen, blocks nobody checked read as they are. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "source.h"

/* The reference key 00 01 .. 0f and message 00 01 .. (n - 1). */
static uint64_t reference(size_t n) {
  static const uint64_t k[2] = {0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
  unsigned char m[64];
  for (size_t i = 0; i < sizeof m; i++) {
    m[i] = (unsigned char)i;
  }
  return bsrc_siphash(k, m, n);
}

TEST(test_siphash_reference_vectors) {
  CHECK(reference(0) == 0x726fdb47dd0e0e31ull);
  CHECK(reference(7) == 0xab0200f58b01d137ull);
  CHECK(reference(8) == 0x93f5f5799a932462ull);
  CHECK(reference(15) == 0xa129ca6149be45e5ull);
  CHECK(reference(63) == 0x958a324ceb064572ull);
}

/* A file of `n` bytes, byte i = i * 7 (mod 256); its fd, unlinked. */
static int file_of(size_t n) {
  char path[] = "/tmp/mcpb-source-XXXXXX";
  int fd = mkstemp(path);
  unlink(path);
  unsigned char *b = malloc(n);
  for (size_t i = 0; i < n; i++) {
    b[i] = (unsigned char)(i * 7);
  }
  CHECK(write(fd, b, n) == (ssize_t)n);
  free(b);
  return fd;
}

TEST(test_blocks_are_served_whole_up_to_the_limit) {
  size_t n = 3 * BSRC_BLOCK + 100;
  bsrc s;
  char err[200] = "";
  CHECK(bsrc_open_fd(&s, file_of(n), err, sizeof err) == 0);
  CHECK(s.size == n);
  bsrc_limit(&s, n - 50); /* a trailer's 50 bytes */
  uint64_t off = 0;
  size_t avail, reads = 0;
  const unsigned char *p;
  int same = 1;
  while ((p = bsrc_at(&s, off, &avail)) && avail > 0) {
    for (size_t i = 0; i < avail; i++) {
      same &= p[i] == (unsigned char)((off + i) * 7);
    }
    off += avail;
    reads++;
  }
  CHECK(p != NULL);
  CHECK(same);
  CHECK(off == n - 50);
  CHECK(reads == 4);
  /* Mid-block, and again: the same bytes, checked against the digest. */
  p = bsrc_at(&s, BSRC_BLOCK + 10, &avail);
  CHECK(p && avail == BSRC_BLOCK - 10 &&
        p[0] == (unsigned char)(10 * 7 + BSRC_BLOCK * 7));
  unsigned char tail[50];
  CHECK(bsrc_pread(&s, n - 50, tail, sizeof tail) == 0);
  CHECK(tail[49] == (unsigned char)((n - 1) * 7));
  bsrc_close(&s);
}

TEST(test_a_block_changed_since_its_first_read_is_refused) {
  int fd = file_of(3 * BSRC_BLOCK);
  bsrc s;
  char err[200] = "";
  CHECK(bsrc_open_fd(&s, fd, err, sizeof err) == 0);
  size_t avail;
  CHECK(bsrc_at(&s, 0, &avail) && avail == BSRC_BLOCK);
  CHECK(bsrc_at(&s, BSRC_BLOCK, &avail) && avail == BSRC_BLOCK);
  /* Block 0 is rewritten in place (the same length). */
  CHECK(pwrite(fd, "X", 1, 100) == 1);
  CHECK(bsrc_at(&s, 5, &avail) == NULL);
  CHECK_CONTAINS(s.err, "the bundle file changed while it was read");
  CHECK_CONTAINS(s.err, "offset 0");
  /* Block 1 is as it was (read again: the failed read left no block). */
  CHECK(bsrc_at(&s, BSRC_BLOCK, &avail) != NULL);
  /* Cut short: a read past the new end fails too. */
  CHECK(ftruncate(fd, BSRC_BLOCK) == 0);
  CHECK(bsrc_at(&s, 2 * BSRC_BLOCK + 1, &avail) == NULL);
  CHECK_CONTAINS(s.err, "shorter");
  bsrc_close(&s);
}

TEST(test_once_frozen_only_checked_blocks_are_checked) {
  int fd = file_of(3 * BSRC_BLOCK);
  bsrc s;
  char err[200] = "";
  CHECK(bsrc_open_fd(&s, fd, err, sizeof err) == 0);
  size_t avail;
  CHECK(bsrc_at(&s, 2 * BSRC_BLOCK, &avail) != NULL); /* checked */
  bsrc_freeze(&s);
  CHECK(bsrc_at(&s, 0, &avail) != NULL); /* read without a digest */
  CHECK(pwrite(fd, "X", 1, 10) == 1);
  CHECK(pwrite(fd, "X", 1, 2 * BSRC_BLOCK + 10) == 1);
  CHECK(bsrc_at(&s, BSRC_BLOCK, &avail) != NULL);
  CHECK(bsrc_at(&s, 0, &avail) != NULL && avail == BSRC_BLOCK);
  CHECK(bsrc_at(&s, 2 * BSRC_BLOCK, &avail) == NULL);
  CHECK_CONTAINS(s.err, "changed while it was read");
  bsrc_close(&s);
}

TEST(test_a_source_over_memory) {
  static const char text[] = "PK and more";
  bsrc s;
  bsrc_open_mem(&s, text, sizeof text - 1);
  size_t avail;
  const unsigned char *p = bsrc_at(&s, 3, &avail);
  CHECK(p && avail == sizeof text - 4 && p[0] == 'a');
  CHECK(bsrc_at(&s, sizeof text, &avail) != NULL && avail == 0);
  bsrc_close(&s);
}

TEST(test_not_a_regular_file) {
  bsrc s;
  char err[200] = "";
  CHECK(bsrc_open_fd(&s, open("/tmp", O_RDONLY | O_DIRECTORY), err,
                     sizeof err) < 0);
  CHECK_STR(err, "not a regular file");
}

int main(void) {
  static const test_case tests[] = {
      T(test_siphash_reference_vectors),
      T(test_blocks_are_served_whole_up_to_the_limit),
      T(test_a_block_changed_since_its_first_read_is_refused),
      T(test_once_frozen_only_checked_blocks_are_checked),
      T(test_a_source_over_memory),
      T(test_not_a_regular_file),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0]);
}
