#include "trailer.h"

#include <string.h>

typedef struct scheme {
  const char *head;
  const char *foot;
} scheme;

static const scheme schemes[] = {
    {"MCPB_SIG_V1", "MCPB_SIG_END"},
    {"DXT_SIG_V1", "DXT_SIG_END"},
};

static int broken(trailer *t, const char *why) {
  t->why = why;
  return TRAILER_BROKEN;
}

/* The last occurrence of `needle` that starts before `end`, or -1. */
static long last_before(const unsigned char *d, size_t end,
                        const char *needle) {
  size_t n = strlen(needle);
  if (end < n) {
    return -1;
  }
  for (size_t i = end - n + 1; i-- > 0;) {
    if (memcmp(d + i, needle, n) == 0) {
      return (long)i;
    }
  }
  return -1;
}

int trailer_parse(const unsigned char *tail, size_t len, uint64_t file_len,
                  trailer *out) {
  memset(out, 0, sizeof *out);
  out->zip_len = file_len;
  uint64_t base = file_len - len; /* the file offset of tail[0] */
  for (size_t k = 0; k < sizeof schemes / sizeof schemes[0]; k++) {
    const scheme *s = &schemes[k];
    size_t flen = strlen(s->foot), hlen = strlen(s->head);
    if (len < flen || memcmp(tail + len - flen, s->foot, flen) != 0) {
      continue;
    }
    out->scheme = s->head;
    size_t footer = len - flen;
    long h = last_before(tail, footer, s->head);
    if (h < 0) {
      return broken(out, base ? "the signature footer has no header before "
                                "it in the file's last " TRAILER_TAIL_TEXT
                              : "the signature footer has no header before "
                                "it");
    }
    size_t hdr = (size_t)h;
    if (footer - hdr < hlen + 4) {
      return broken(out, "the signature block is too short for its length");
    }
    const unsigned char *p = tail + hdr + hlen;
    uint32_t n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                 (uint32_t)p[3] << 24;
    size_t start = hdr + hlen + 4;
    if (n == 0 || n > footer - start) {
      return broken(out, "the signature length runs past the footer");
    }
    for (size_t i = start + n; i < footer; i++) {
      if (tail[i] != 0) {
        return broken(out, "bytes other than zero padding between the "
                           "signature and its footer");
      }
    }
    out->zip_len = base + hdr;
    out->der_off = base + start;
    out->der_len = n;
    return TRAILER_OK;
  }
  return TRAILER_NONE;
}
