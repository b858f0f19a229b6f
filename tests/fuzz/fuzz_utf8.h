/* A strict UTF-8 check for the targets' properties, written apart from
 * the code under test (Unicode Table 3-7: no overlongs, no surrogates,
 * nothing above U+10FFFF). Header only, pure. */
#ifndef MCPH_FUZZ_UTF8_H
#define MCPH_FUZZ_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the sequence at s[*i] into *cp and moves *i past it; false at
 * an ill-formed one. */
static inline bool fuzz_utf8_next(const unsigned char *s, size_t n, size_t *i,
                                  uint32_t *cp) {
  unsigned char b = s[*i];
  size_t need;
  uint32_t c, lo = 0x80, hi = 0xBF;
  if (b < 0x80) {
    *cp = b;
    (*i)++;
    return true;
  } else if (b >= 0xC2 && b <= 0xDF) {
    need = 1;
    c = b & 0x1F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2;
    c = b & 0x0F;
    lo = b == 0xE0 ? 0xA0 : 0x80;
    hi = b == 0xED ? 0x9F : 0xBF;
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3;
    c = b & 0x07;
    lo = b == 0xF0 ? 0x90 : 0x80;
    hi = b == 0xF4 ? 0x8F : 0xBF;
  } else {
    return false;
  }
  if (n - *i <= need) {
    return false;
  }
  for (size_t k = 1; k <= need; k++) {
    unsigned char t = s[*i + k];
    if (t < (k == 1 ? lo : 0x80) || t > (k == 1 ? hi : 0xBF)) {
      return false;
    }
    c = c << 6 | (t & 0x3F);
  }
  *i += need + 1;
  *cp = c;
  return true;
}

static inline bool fuzz_utf8_valid(const char *s, size_t n) {
  size_t i = 0;
  uint32_t cp;
  while (i < n) {
    if (!fuzz_utf8_next((const unsigned char *)s, n, &i, &cp)) {
      return false;
    }
  }
  return true;
}

#endif
