#include "utf8.h"

size_t utf8_sequence(const unsigned char *s, size_t n, bool *ok, uint32_t *cp) {
  unsigned char b = s[0];
  *ok = false;
  if (b < 0x80) {
    *ok = true;
    if (cp) {
      *cp = b;
    }
    return 1;
  }
  /* The second byte's range excludes overlong forms, surrogates and what
   * is above U+10FFFF (Unicode's Table 3-7); the others are 80..BF. */
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  uint32_t v;
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2, v = b & 0x1Fu;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3, v = b & 0x0Fu;
    lo = b == 0xE0 ? 0xA0 : 0x80;
    hi = b == 0xED ? 0x9F : 0xBF;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4, v = b & 0x07u;
    lo = b == 0xF0 ? 0x90 : 0x80;
    hi = b == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 1;
  }
  if (n < 2 || s[1] < lo || s[1] > hi) {
    return 1;
  }
  v = (v << 6) | (s[1] & 0x3Fu);
  if (len > 2) {
    if (n < 3 || (s[2] & 0xC0) != 0x80) {
      return 2;
    }
    v = (v << 6) | (s[2] & 0x3Fu);
  }
  if (len > 3) {
    if (n < 4 || (s[3] & 0xC0) != 0x80) {
      return 3;
    }
    v = (v << 6) | (s[3] & 0x3Fu);
  }
  *ok = true;
  if (cp) {
    *cp = v;
  }
  return len;
}

size_t utf8_put(unsigned char *o, uint32_t cp) {
  if (cp < 0x80) {
    o[0] = (unsigned char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (unsigned char)(0xC0 | (cp >> 6));
    o[1] = (unsigned char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (unsigned char)(0xE0 | (cp >> 12));
    o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (unsigned char)(0xF0 | (cp >> 18));
  o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (unsigned char)(0x80 | (cp & 0x3F));
  return 4;
}
