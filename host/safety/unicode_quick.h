/* What the sanitizer (sanitize.h) can tell about text without ICU: tables
 * generated at build time from the ICU the build compiles with
 * (unicode_gen.c), so of the Unicode version of the libicuuc the host
 * opens. They say which code points NFKC leaves as they are
 * (NFKC_Quick_Check=Yes) and the sanitizer keeps (not Cf, Co, Cn or Cs),
 * with their canonical combining class. Text made of those alone, its
 * combining marks in canonical order, is what sanitizing gives back
 * unchanged: the usual non-ASCII text (accented letters, Greek,
 * Cyrillic, CJK, Indic scripts, emoji) needs no ICU at all. Pure
 * functions of constant tables: any thread. */
#ifndef MCPHOST_UNICODE_QUICK_H
#define MCPHOST_UNICODE_QUICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The class of a code point the tables cannot clear. */
#define UNICODE_QUICK_NEEDS_ICU 255u

/* The canonical combining class of `cp` (0 for most) when NFKC_QC is Yes
 * and its category is not Cf, Co, Cn or Cs; else UNICODE_QUICK_NEEDS_ICU
 * (so too beyond U+10FFFF). */
unsigned unicode_quick_class(uint32_t cp);

/* True when the `n` bytes at `s` are well-formed UTF-8 whose code points
 * all have a class above, no mark after one of a higher class (the
 * canonical order; a class-0 code point starts afresh): then ICU's quick
 * check says Yes and nothing is removed, so the sanitizer would return
 * them as they are. False only means ICU must look. */
bool unicode_quick_clean(const char *s, size_t n);

/* The ICU and Unicode versions the tables were generated from: "72.1",
 * "15.0". */
const char *unicode_quick_icu_version(void);
const char *unicode_quick_unicode_version(void);

#endif
