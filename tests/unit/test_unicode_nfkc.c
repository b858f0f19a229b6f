/* The sanitizer's NFKC (host/safety/unicode_quick.h, from tables
 * generated from ICU at build time) against ICU's own, linked here: the
 * same ICU the tables came from. Every code point alone, after a base
 * letter, after a leading jamo and before a mark; starters with marks in
 * scrambled orders, runs of marks longer than the insertion sort takes;
 * random strings of mixed scripts, Hangul syllables and jamo,
 * compatibility forms and removed categories. Also the categories: every
 * code point is removed exactly when ICU calls it Cf, Co, Cn or Cs. */
#include <stdint.h>
#include <stdlib.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/utf16.h>

#include "check.h"
#include "safety/unicode_quick.h"

#define LAST_CP 0x10FFFF

static const UNormalizer2 *icu_nfkc(void) {
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *n = unorm2_getNFKCInstance(&e);
  if (U_FAILURE(e)) {
    abort();
  }
  return n;
}

/* ICU's NFKC of in[0..n) into out (room for `cap`); returns its length. */
static size_t icu_normalize(const uint32_t *in, size_t n, uint32_t *out,
                            size_t cap) {
  static UChar a[8192], b[8192 * 18];
  int32_t la = 0;
  for (size_t i = 0; i < n; i++) {
    U16_APPEND_UNSAFE(a, la, (UChar32)in[i]);
  }
  UErrorCode e = U_ZERO_ERROR;
  int32_t lb = unorm2_normalize(icu_nfkc(), a, la, b, 8192 * 18, &e);
  if (U_FAILURE(e)) {
    abort();
  }
  size_t m = 0;
  for (int32_t i = 0; i < lb && m < cap;) {
    UChar32 c;
    U16_NEXT(b, i, lb, c);
    out[m++] = (uint32_t)c;
  }
  return m;
}

static int differences;

/* True when unicode_nfkc() gives ICU's NFKC of in[0..n), and says it
 * changed the text exactly when it did. The first few differences are
 * shown. */
static bool same_as_icu(unicode_text *t, const uint32_t *in, size_t n) {
  static uint32_t want[8192 * 18];
  size_t m = icu_normalize(in, n, want, sizeof want / sizeof *want);
  unicode_text_reserve(t, n);
  memcpy(t->cp, in, n * sizeof *in);
  t->len = n;
  bool changed = unicode_nfkc(t);
  bool same = t->len == m && memcmp(t->cp, want, m * sizeof *want) == 0 &&
              changed == (m != n || memcmp(in, want, n * sizeof *in) != 0);
  if (!same && differences++ < 10) {
    fputs("  differ on", stderr);
    for (size_t i = 0; i < n; i++) {
      fprintf(stderr, " %04X", (unsigned)in[i]);
    }
    fputs(":\n    ICU", stderr);
    for (size_t i = 0; i < m; i++) {
      fprintf(stderr, " %04X", (unsigned)want[i]);
    }
    fputs("\n    ours", stderr);
    for (size_t i = 0; i < t->len; i++) {
      fprintf(stderr, " %04X", (unsigned)t->cp[i]);
    }
    fprintf(stderr, "%s\n", changed ? " (changed)" : " (unchanged)");
  }
  return same;
}

static bool scalar(UChar32 c) {
  return c < 0xD800 || (c > 0xDFFF && c <= LAST_CP);
}

TEST(test_every_code_point_is_removed_as_icu_categorizes_it) {
  int shown = 0;
  for (UChar32 c = 0; c <= LAST_CP; c++) {
    int8_t t = u_charType(c);
    bool want = t == U_FORMAT_CHAR || t == U_PRIVATE_USE_CHAR ||
                t == U_UNASSIGNED || t == U_SURROGATE;
    if (unicode_removable((uint32_t)c) != want && shown++ < 10) {
      fprintf(stderr, "  U+%04X: removable %d, ICU's category %d\n",
              (unsigned)c, !want, t);
    }
  }
  CHECK(shown == 0);
  CHECK(unicode_removable(LAST_CP + 1));
}

TEST(test_every_code_point_normalizes_as_icu_does) {
  /* Alone; after a base letter (which it may compose with); after a
   * leading jamo (a vowel jamo composes); after an LV syllable (a
   * trailing jamo composes); before an acute accent and before a cedilla
   * (it may compose with them, or they move before it). */
  static const uint32_t before[] = {0, 'a', 0x1100, 0xAC00, 0x0B47, 0x03B1};
  static const uint32_t after[] = {0, 0x0301, 0x0327, 0x0B3E};
  unicode_text t = {0};
  differences = 0;
  for (UChar32 c = 0; c <= LAST_CP; c++) {
    if (!scalar(c)) {
      continue;
    }
    for (size_t b = 0; b < sizeof before / sizeof *before; b++) {
      for (size_t a = 0; a < sizeof after / sizeof *after; a++) {
        if (b != 0 && a != 0) {
          continue;
        }
        uint32_t s[3];
        size_t n = 0;
        if (before[b]) {
          s[n++] = before[b];
        }
        s[n++] = (uint32_t)c;
        if (after[a]) {
          s[n++] = after[a];
        }
        same_as_icu(&t, s, n);
      }
    }
  }
  CHECK(differences == 0);
  unicode_text_free(&t);
}

static unsigned seed = 20261206;

static uint32_t rnd(uint32_t n) {
  seed = seed * 1103515245u + 12345u;
  return ((seed >> 8) ^ (seed << 7)) % n;
}

/* Code points of a kind, listed once. */
typedef struct list {
  uint32_t *v;
  size_t n;
} list;

static void add(list *l, uint32_t c) {
  l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
  if (!l->v) {
    abort();
  }
  l->v[l->n++] = c;
}

/* Marks (class > 0), starters that compose with something, and code
 * points with a decomposition. */
static list marks, composing, decomposing;

static void classify(void) {
  if (marks.n) {
    return;
  }
  const UNormalizer2 *n = icu_nfkc();
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *nfc = unorm2_getNFCInstance(&e);
  for (UChar32 c = 0; c <= LAST_CP; c++) {
    if (!scalar(c)) {
      continue;
    }
    if (u_getCombiningClass(c) != 0) {
      add(&marks, (uint32_t)c);
    }
    UChar d[32];
    e = U_ZERO_ERROR;
    if (unorm2_getDecomposition(n, c, d, 32, &e) > 0) {
      add(&decomposing, (uint32_t)c);
    }
    e = U_ZERO_ERROR;
    int32_t k = unorm2_getRawDecomposition(nfc, c, d, 32, &e);
    if (k > 0 && U_SUCCESS(e)) {
      UChar32 first;
      int32_t i = 0;
      U16_NEXT(d, i, k, first);
      add(&composing, (uint32_t)first);
    }
  }
}

TEST(test_marks_in_scrambled_orders_normalize_as_icu_does) {
  classify();
  CHECK(marks.n > 500);
  unicode_text t = {0};
  differences = 0;
  static uint32_t s[200];
  for (int iter = 0; iter < 40000; iter++) {
    size_t n = 0;
    s[n++] = composing.v[rnd((uint32_t)composing.n)];
    /* Mostly short runs; one in 20 longer than an insertion sort takes. */
    size_t k = iter % 20 ? 1 + rnd(6) : 33 + rnd(120);
    for (size_t i = 0; i < k; i++) {
      uint32_t r = rnd(10);
      s[n++] = r < 6   ? marks.v[rnd((uint32_t)marks.n)]
               : r < 8 ? (uint32_t)(0x0300 + rnd(0x70)) /* Latin marks */
               : r < 9 ? decomposing.v[rnd((uint32_t)decomposing.n)]
                       : composing.v[rnd((uint32_t)composing.n)];
    }
    same_as_icu(&t, s, n);
  }
  CHECK(differences == 0);
  unicode_text_free(&t);
}

TEST(test_random_strings_normalize_as_icu_does) {
  classify();
  /* Ranges of mixed scripts: Latin and its marks, Greek, Cyrillic,
   * Hebrew and Arabic with their points, Devanagari, Tibetan, Hangul
   * jamo and syllables, CJK and its compatibility forms, fullwidth
   * forms, Arabic presentation forms, mathematical letters, emoji and
   * tags, unassigned and private use. */
  static const uint32_t ranges[][2] = {
      {0x20, 0x7E},       {0xA0, 0x24F},        {0x300, 0x36F},
      {0x370, 0x3FF},     {0x400, 0x4FF},       {0x590, 0x5FF},
      {0x600, 0x6FF},     {0x900, 0x97F},       {0xF00, 0xFFF},
      {0x1100, 0x11FF},   {0x3130, 0x318F},     {0xAC00, 0xD7A3},
      {0x1E00, 0x1FFF},   {0x2000, 0x2BFF},     {0x3000, 0x33FF},
      {0x4E00, 0x4FFF},   {0xF900, 0xFAFF},     {0xFB00, 0xFDFF},
      {0xFE00, 0xFFEF},   {0x1D400, 0x1D7FF},   {0x1F000, 0x1FAFF},
      {0xE0000, 0xE01EF}, {0x10FFF0, 0x10FFFF}, {0x0378, 0x0379},
      {0xE000, 0xE0FF},   {0x1100, 0x1112},     {0x1161, 0x1175},
      {0x11A8, 0x11C2},
  };
  size_t nr = sizeof ranges / sizeof *ranges;
  unicode_text t = {0};
  differences = 0;
  static uint32_t s[400];
  for (int iter = 0; iter < 5000; iter++) {
    size_t n = 1 + rnd(399);
    for (size_t i = 0; i < n; i++) {
      if (rnd(8) == 0) {
        s[i] = marks.v[rnd((uint32_t)marks.n)];
        continue;
      }
      const uint32_t *r = ranges[rnd((uint32_t)nr)];
      uint32_t c = r[0] + rnd(r[1] - r[0] + 1);
      s[i] = c >= 0xD800 && c <= 0xDFFF ? 0xFFFD : c;
    }
    same_as_icu(&t, s, n);
  }
  CHECK(differences == 0);
  unicode_text_free(&t);
}

int main(void) {
  static const test_case tests[] = {
      T(test_every_code_point_is_removed_as_icu_categorizes_it),
      T(test_every_code_point_normalizes_as_icu_does),
      T(test_marks_in_scrambled_orders_normalize_as_icu_does),
      T(test_random_strings_normalize_as_icu_does),
  };
  return run_tests(tests, sizeof tests / sizeof *tests);
}
