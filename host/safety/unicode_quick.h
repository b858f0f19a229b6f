/* The Unicode the sanitizer (sanitize.h) applies, from tables generated at
 * build time from the ICU the build compiles with (unicode_gen.c): each
 * code point's canonical combining class, whether NFKC leaves it as it
 * is (NFKC_Quick_Check=Yes), whether the sanitizer removes it (Cf, Co,
 * Cn, Cs), its compatibility decomposition and the pairs canonical
 * composition makes of it. From those, NFKC itself (UAX #15:
 * compatibility decomposition, canonical ordering, canonical
 * composition; Hangul arithmetically), equal to ICU's for all text
 * (tests/unit/test_unicode_nfkc.c compares every code point and random
 * text): ICU is the tables' source at build time, never opened to
 * sanitize. Pure functions of constant tables: any thread. */
#ifndef MCPHOST_UNICODE_QUICK_H
#define MCPHOST_UNICODE_QUICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The class unicode_quick_class() gives a code point that NFKC may
 * change or the sanitizer removes. */
#define UNICODE_QUICK_NOT_CLEAR 255u

/* A record's flags (unicode_gen.c). */
#define UNICODE_F_REMOVABLE 1u     /* Cf, Co, Cn or Cs */
#define UNICODE_F_QC_YES 2u        /* NFKC_Quick_Check=Yes */
#define UNICODE_F_COMBINES_BACK 4u /* second of a composition pair */
#define UNICODE_F_DECOMP_ONE 8u    /* decomp is the one code point */

/* The canonical combining class of `cp` (0 for most) when NFKC_QC is Yes
 * and its category is not Cf, Co, Cn or Cs; else UNICODE_QUICK_NOT_CLEAR
 * (so too beyond U+10FFFF). */
unsigned unicode_quick_class(uint32_t cp);

/* True when the `n` bytes at `s` are well-formed UTF-8 whose code points
 * all have a class above, no mark after one of a higher class (the
 * canonical order; a class-0 code point starts afresh): then NFKC leaves
 * them as they are and nothing is removed, so the sanitizer would return
 * them as they are. False only means they must be normalized to tell. */
bool unicode_quick_clean(const char *s, size_t n);

/* True when the sanitizer removes `cp`: its general category is Cf, Co,
 * Cn or Cs, or it is beyond U+10FFFF. */
bool unicode_removable(uint32_t cp);

/* Text as code points, with the scratch space unicode_nfkc() needs; zero
 * it to start, unicode_text_free() at the end. */
typedef struct unicode_text {
  uint32_t *cp; /* the text: cp[0..len) */
  size_t len, cap;
  uint32_t *tmp; /* scratch */
  size_t tmp_cap;
  uint16_t *info; /* scratch: each code point's class and flags */
  size_t info_cap;
} unicode_text;

/* Room for `n` code points in t->cp, its first t->len kept. */
void unicode_text_reserve(unicode_text *t, size_t n);
void unicode_text_free(unicode_text *t);

/* Replaces t->cp[0..t->len), scalar values, by its NFKC. Returns true
 * when that changed it. Linear in the length of the text and of its
 * decomposition, however long its runs of marks. */
bool unicode_nfkc(unicode_text *t);

/* The ICU and Unicode versions the tables were generated from: "72.1",
 * "15.0". */
const char *unicode_quick_icu_version(void);
const char *unicode_quick_unicode_version(void);

#endif
