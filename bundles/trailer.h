/* The signature trailer of a .mcpb (or legacy .dxt) file.
 *
 *   [ZIP bytes] "MCPB_SIG_V1" u32le(N) [N bytes DER CMS] [zeros] "MCPB_SIG_END"
 *
 * (DXT_SIG_V1 / DXT_SIG_END for .dxt files.) The footer must end the file;
 * zero padding between the DER and the footer is allowed (the externally
 * signed variant pads the block to 16 KiB). A file that does not end with
 * a footer is unsigned; one that ends with a footer whose header, length
 * or padding does not fit is broken, and its signature invalid.
 *
 * The parser reads the file's last bytes only (TRAILER_TAIL of them, or
 * the whole file when it is shorter): a signature block is a few KiB
 * (16 KiB padded), and the ZIP bytes before it are never held whole.
 *
 * Pure function, any thread, no allocation: the parser only computes
 * offsets. O(n) in the tail's size. */
#ifndef MCPB_TRAILER_H
#define MCPB_TRAILER_H

#include <stddef.h>
#include <stdint.h>

enum trailer_kind {
  TRAILER_NONE = 0,   /* no footer: the whole file is the ZIP */
  TRAILER_OK = 1,     /* a well-formed trailer */
  TRAILER_BROKEN = -1 /* a footer without a usable block: *why says why */
};

/* The most of a file's end the parser reads. */
#define TRAILER_TAIL (256u << 10)
#define TRAILER_TAIL_TEXT "256 KiB"

typedef struct trailer {
  uint64_t zip_len; /* the signed content: bytes [0, zip_len) of the file */
  uint64_t der_off; /* the DER blob: [der_off, der_off + der_len) of it */
  size_t der_len;
  const char *scheme; /* "MCPB_SIG_V1" or "DXT_SIG_V1", NULL when none */
  const char *why;    /* TRAILER_BROKEN: a static reason */
} trailer;

/* Parses the trailer of a file of `file_len` bytes whose last `len`
 * bytes are `tail` (the whole file when `len` is `file_len`). Returns a
 * trailer_kind; on TRAILER_NONE zip_len is `file_len`. Offsets are the
 * file's: the DER is at tail + der_off - (file_len - len). */
int trailer_parse(const unsigned char *tail, size_t len, uint64_t file_len,
                  trailer *out);

#endif
