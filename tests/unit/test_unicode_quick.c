/* The sanitizer's Unicode tables (host/safety/unicode_quick.h) against the
 * ICU linked here, the ICU they were generated from: every code point has
 * the class ICU gives it, and text goes through the sanitizer to the same
 * bytes whether the quick check may clear it or all of it is normalized
 * (test_unicode_nfkc.c compares that normalization with ICU's). */
#include <stdint.h>
#include <stdlib.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/utf8.h>
#include <unicode/uversion.h>

#include "check.h"
#include "safety/sanitize.h"
#include "safety/unicode_quick.h"

#define LAST_CP 0x10FFFF

TEST(test_tables_come_from_the_icu_linked_here) {
  UVersionInfo v;
  char icu[U_MAX_VERSION_STRING_LENGTH], uni[U_MAX_VERSION_STRING_LENGTH];
  u_getVersion(v);
  u_versionToString(v, icu);
  u_getUnicodeVersion(v);
  u_versionToString(v, uni);
  CHECK_STR(unicode_quick_icu_version(), icu);
  CHECK_STR(unicode_quick_unicode_version(), uni);
}

/* What the tables must say of `c`, in ICU's words: its combining class
 * when its NFKC_Quick_Check is Yes and the sanitizer keeps its category. */
static unsigned icu_class(UChar32 c) {
  int8_t t = u_charType(c);
  if (t == U_FORMAT_CHAR || t == U_PRIVATE_USE_CHAR || t == U_UNASSIGNED ||
      t == U_SURROGATE ||
      u_getIntPropertyValue(c, UCHAR_NFKC_QUICK_CHECK) != UNORM_YES) {
    return UNICODE_QUICK_NOT_CLEAR;
  }
  return u_getCombiningClass(c);
}

TEST(test_every_code_point_has_the_class_icu_gives_it) {
  int shown = 0;
  for (UChar32 c = 0; c <= LAST_CP; c++) {
    unsigned want = icu_class(c), got = unicode_quick_class((uint32_t)c);
    if (got != want && shown++ < 10) {
      fprintf(stderr, "  U+%04X: the tables say %u, ICU %u\n", (unsigned)c, got,
              want);
    }
  }
  CHECK(shown == 0);
  CHECK(unicode_quick_class(LAST_CP + 1) == UNICODE_QUICK_NOT_CLEAR);
  CHECK(unicode_quick_class(UINT32_MAX) == UNICODE_QUICK_NOT_CLEAR);
}

/* Sanitizes s[0..n) with the quick check and without; true when both
 * give the same bytes. The first few differences are shown. */
static int differences;
static bool same_both_ways(const char *s, size_t n) {
  size_t la, lb;
  sanitize_use_quick_tables(true);
  char *a = sanitize_text(s, n, &la);
  sanitize_use_quick_tables(false);
  char *b = sanitize_text(s, n, &lb);
  sanitize_use_quick_tables(true);
  bool same = la == lb && memcmp(a, b, la) == 0;
  if (!same && differences++ < 10) {
    fputs("  differ on", stderr);
    for (size_t i = 0; i < n; i++) {
      fprintf(stderr, " %02X", (unsigned char)s[i]);
    }
    fputc('\n', stderr);
  }
  free(a);
  free(b);
  return same;
}

/* Appends the UTF-8 of `c` to buf[*n]. */
static void put(char *buf, size_t *n, UChar32 c) {
  int32_t i = (int32_t)*n;
  U8_APPEND_UNSAFE(buf, i, c);
  *n = (size_t)i;
}

/* The marks the tables clear (class neither 0 nor NEEDS_ICU); *lo and
 * *hi, one of the lowest class and one of the highest. */
static size_t quick_marks(UChar32 *out, size_t cap, UChar32 *lo, UChar32 *hi) {
  size_t n = 0;
  unsigned lo_cc = 256, hi_cc = 0;
  for (UChar32 c = 0x80; c <= LAST_CP; c++) {
    unsigned cc = unicode_quick_class((uint32_t)c);
    if (cc == 0 || cc == UNICODE_QUICK_NOT_CLEAR) {
      continue;
    }
    if (n < cap) {
      out[n++] = c;
    }
    if (cc < lo_cc) {
      lo_cc = cc;
      *lo = c;
    }
    if (cc > hi_cc) {
      hi_cc = cc;
      *hi = c;
    }
  }
  return n;
}

TEST(test_every_code_point_sanitizes_the_same_either_way) {
  /* Each code point after an ASCII letter (the start of a segment); those
   * the tables may clear also followed by a mark of the lowest class and
   * preceded by one of the highest: a mark among those is out of
   * canonical order, which NFKC fixes and the tables must not clear. (The
   * others make any text the tables are asked about be normalized.) */
  static UChar32 marks[4096];
  UChar32 lo = 0, hi = 0;
  size_t nmarks = quick_marks(marks, 4096, &lo, &hi);
  CHECK(nmarks > 100 && nmarks < 4096);
  differences = 0;
  for (UChar32 c = 1; c <= LAST_CP; c++) {
    if (U_IS_SURROGATE(c)) {
      continue;
    }
    char buf[32];
    size_t n = 0;
    buf[n++] = 'a';
    put(buf, &n, c);
    same_both_ways(buf, n);
    if (unicode_quick_class((uint32_t)c) == UNICODE_QUICK_NOT_CLEAR) {
      continue;
    }
    put(buf, &n, lo);
    same_both_ways(buf, n);
    n = 1;
    put(buf, &n, hi);
    put(buf, &n, c);
    same_both_ways(buf, n);
  }
  CHECK(differences == 0);
}

TEST(test_every_pair_of_marks_sanitizes_the_same_either_way) {
  static UChar32 marks[4096];
  UChar32 lo, hi;
  size_t nmarks = quick_marks(marks, 4096, &lo, &hi);
  differences = 0;
  for (size_t i = 0; i < nmarks; i++) {
    for (size_t j = 0; j < nmarks; j++) {
      char buf[32];
      size_t n = 0;
      buf[n++] = 'o';
      put(buf, &n, marks[i]);
      put(buf, &n, marks[j]);
      same_both_ways(buf, n);
    }
  }
  CHECK(differences == 0);
}

TEST(test_random_text_sanitizes_the_same_either_way) {
  /* Code points the tables clear (starters and marks), ones they do not
   * (marks that compose, compatibility forms, removed categories, Hangul
   * jamo), ASCII and ill-formed bytes, mixed. */
  static const char *pieces[] = {
      "e",          "a ",         "\u00E9",       "\u65E5\u672C", "\u0416",
      "\u03B1",     "\U0001F600", "\u0928\u094D", "\u05E9\u05B8", "\u05C1",
      "\u0316",     "\u0301",     "\u0327",       "\u093C",       "\u0E38",
      "\u3099",     "\u304B",     "\u1100",       "\u1161",       "\u11A8",
      "\uAC00",     "\uFB01",     "\uFF41",       "\u00B2",       "\u200B",
      "\uFEFF",     "\uE000",     "\u0378",       "\xC1",         "\xE2\x82",
      "\x80",       "\u0345",     "\u035D",       "\u0334",       "\uFE0F",
      "\U000E0100", "\U000E0041", "\u1E0B\u0323",
  };
  unsigned seed = 2026;
  char buf[512];
  differences = 0;
  for (int iter = 0; iter < 200000; iter++) {
    size_t len = 0;
    seed = seed * 1103515245u + 12345u;
    int npieces = 1 + (int)((seed >> 16) % 12);
    for (int k = 0; k < npieces; k++) {
      seed = seed * 1103515245u + 12345u;
      const char *p = pieces[(seed >> 16) % (sizeof pieces / sizeof *pieces)];
      memcpy(buf + len, p, strlen(p));
      len += strlen(p);
    }
    same_both_ways(buf, len);
  }
  CHECK(differences == 0);
}

TEST(test_text_already_in_nfkc_is_cleared_by_the_tables) {
  static const char *clean[] = {
      "caf\u00E9 cr\u00E8me",
      "\u65E5\u672C\u8A9E\u306E\u30C4\u30FC\u30EB", /* Japanese */
      "\u041F\u0440\u0438\u0432\u0435\u0442",       /* Russian */
      "\u0928\u092E\u0938\u094D\u0924\u0947",       /* Hindi, a virama */
      "\u05E9\u05B8\u05C1\u05DC\u05D5\u05B9\u05DD", /* Hebrew, in order */
      "\uD55C\uAD6D\uC5B4",                         /* Hangul syllables */
      "\U0001F600 \u2764\uFE0F",                    /* emoji, a selector */
  };
  for (size_t i = 0; i < sizeof clean / sizeof *clean; i++) {
    CHECK(unicode_quick_clean(clean[i], strlen(clean[i])));
    char *r = sanitize_text(clean[i], strlen(clean[i]), NULL);
    CHECK_STR(r, clean[i]);
    free(r);
  }
}

TEST(test_text_that_needs_icu_is_not_cleared) {
  static const char *dirty[] = {
      "\uFB01le",           /* a ligature: NFKC_QC No */
      "\uFF46ull",          /* fullwidth */
      "e\u0301",            /* a mark that composes: Maybe */
      "\u1100\u1161",       /* Hangul jamo that compose */
      "zero\u200Bwidth",    /* Cf */
      "\uE000",             /* Co */
      "\u0378",             /* Cn */
      "\xC3",               /* truncated */
      "\xED\xA0\x80",       /* an encoded surrogate */
      "\u05E9\u05C1\u05B8", /* Hebrew marks out of canonical order */
  };
  for (size_t i = 0; i < sizeof dirty / sizeof *dirty; i++) {
    CHECK(!unicode_quick_clean(dirty[i], strlen(dirty[i])));
  }
  /* The last one: NFKC puts the marks in order. */
  char *r = sanitize_text(dirty[9], strlen(dirty[9]), NULL);
  CHECK_STR(r, "\u05E9\u05B8\u05C1");
  free(r);
}

RUN(T(test_tables_come_from_the_icu_linked_here),
    T(test_every_code_point_has_the_class_icu_gives_it),
    T(test_every_code_point_sanitizes_the_same_either_way),
    T(test_every_pair_of_marks_sanitizes_the_same_either_way),
    T(test_random_text_sanitizes_the_same_either_way),
    T(test_text_already_in_nfkc_is_cleared_by_the_tables),
    T(test_text_that_needs_icu_is_not_cleared))
