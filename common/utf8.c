#include "utf8.h"

size_t utf8_sequence(const unsigned char *s, size_t n, bool *ok, uint32_t *cp) {
  unsigned char b = s[0];
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  uint32_t v;
  *ok = false;
  if (b < 0x80) {
    *ok = true;
    if (cp) {
      *cp = b;
    }
    return 1;
  }
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2, v = b & 0x1Fu;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3, v = b & 0x0Fu;
    lo = b == 0xE0 ? 0xA0 : 0x80; /* no overlong form */
    hi = b == 0xED ? 0x9F : 0xBF; /* no surrogate */
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4, v = b & 0x07u;
    lo = b == 0xF0 ? 0x90 : 0x80; /* no overlong form */
    hi = b == 0xF4 ? 0x8F : 0xBF; /* nothing above U+10FFFF */
  } else {
    return 1;
  }
  size_t i = 1;
  for (; i < len && i < n; i++) {
    unsigned char lim_lo = i == 1 ? lo : 0x80, lim_hi = i == 1 ? hi : 0xBF;
    if (s[i] < lim_lo || s[i] > lim_hi) {
      return i;
    }
    v = (v << 6) | (s[i] & 0x3Fu);
  }
  *ok = i == len;
  if (*ok && cp) {
    *cp = v;
  }
  return i;
}
