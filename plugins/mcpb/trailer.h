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
 * Pure function, any thread, no allocation: the parser only computes
 * offsets into the caller's buffer. O(n) in the trailer's size. */
#ifndef MCPB_TRAILER_H
#define MCPB_TRAILER_H

#include <stddef.h>
#include <stdint.h>

enum trailer_kind {
  TRAILER_NONE = 0,   /* no footer: the whole file is the ZIP */
  TRAILER_OK = 1,     /* a well-formed trailer */
  TRAILER_BROKEN = -1 /* a footer without a usable block: *why says why */
};

typedef struct trailer {
  size_t zip_len; /* the signed content: bytes [0, zip_len) */
  size_t der_off; /* the DER blob: [der_off, der_off + der_len) */
  size_t der_len;
  const char *scheme; /* "MCPB_SIG_V1" or "DXT_SIG_V1", NULL when none */
  const char *why;    /* TRAILER_BROKEN: a static reason */
} trailer;

/* Parses the trailer of `data` (`len` bytes). Returns a trailer_kind; on
 * TRAILER_NONE zip_len is `len`. */
int trailer_parse(const unsigned char *data, size_t len, trailer *out);

#endif
