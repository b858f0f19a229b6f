#include "safety/unicode_quick.h"

#include "unicode_quick_tables.h"
#include "utf8.h"

unsigned unicode_quick_class(uint32_t cp) {
  if (cp >= UNICODE_QUICK_LIMIT) {
    return UNICODE_QUICK_NEEDS_ICU;
  }
  uint32_t block = unicode_quick_index[cp >> UNICODE_QUICK_SHIFT];
  uint32_t mask = (1u << UNICODE_QUICK_SHIFT) - 1;
  return unicode_quick_blocks[(block << UNICODE_QUICK_SHIFT) | (cp & mask)];
}

bool unicode_quick_clean(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  unsigned prev = 0; /* the class of the code point before */
  for (size_t i = 0; i < n;) {
    if (p[i] < 0x80) {
      prev = 0;
      i++;
      continue;
    }
    bool ok;
    uint32_t cp = 0;
    size_t k = utf8_sequence(p + i, n - i, &ok, &cp);
    unsigned cc = ok ? unicode_quick_class(cp) : UNICODE_QUICK_NEEDS_ICU;
    /* The rule of Unicode's quick check (UAX #15, 9): a mark after one of
     * a higher class is out of canonical order, and NFKC would move it. */
    if (cc == UNICODE_QUICK_NEEDS_ICU || (cc != 0 && prev > cc)) {
      return false;
    }
    prev = cc;
    i += k;
  }
  return true;
}

const char *unicode_quick_icu_version(void) {
  return UNICODE_QUICK_ICU;
}

const char *unicode_quick_unicode_version(void) {
  return UNICODE_QUICK_UNICODE;
}
