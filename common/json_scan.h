/* The scan for the end of a run of plain string text, shared by the JSON
 * parser (json_parse.c), the pass-through scanner (json_raw.c) and the
 * writer's test for escapes (json_write.c).
 *
 * A string is scanned up to the first byte that needs a look: '"', '\\',
 * a control character, and for some callers a byte from 0x80 (UTF-8 to
 * check) or one more byte (U+0000's first byte, C0). Most strings are
 * short (keys, names), so the cost is in the setup as much as in the
 * loop: sixteen bytes a step with SSE2 (every x86-64 has it), then
 * eight as one 64-bit word, then one at a time. */
#ifndef MCPHOST_JSON_SCAN_H
#define MCPHOST_JSON_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* What ends a run besides '"', '\\' and the bytes below 0x20. */
#define JSON_SCAN_HIGH 2u /* the bytes from 0x80 (UTF-8 to check) */
#define JSON_SCAN_C0 4u   /* 0xC0, U+0000's first byte (json_parse.h) */

/* Each byte's reasons to end a run: 1 for '"', '\\' and below 0x20, and
 * the flags above. */
/* clang-format off */
static const unsigned char json_scan_stop[256] = {
    [0x00 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1,
    [0x80 ... 0xbf] = JSON_SCAN_HIGH, [0xc0] = JSON_SCAN_HIGH | JSON_SCAN_C0,
    [0xc1 ... 0xff] = JSON_SCAN_HIGH};
/* clang-format on */

/* The first byte of [p, end) that ends a run, or end; `flags` says what
 * ends one besides '"', '\\' and control characters (JSON_SCAN_HIGH,
 * JSON_SCAN_C0). Inlined, so that each caller's constant `flags` makes
 * its own loop. */
static inline __attribute__((always_inline)) const unsigned char *
json_scan_run(const unsigned char *p, const unsigned char *end,
              unsigned flags) {
  const bool high = flags & JSON_SCAN_HIGH;
  const unsigned char also = flags & JSON_SCAN_C0 ? 0xC0 : 0;
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8('"'), slash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20), zero = _mm_setzero_si128();
  const __m128i extra = _mm_set1_epi8((char)also);
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* Signed: the bytes from 0x80 are below 0x20 too. */
    __m128i low = _mm_cmplt_epi8(v, space);
    if (!high)
      low = _mm_andnot_si128(_mm_cmplt_epi8(v, zero), low);
    __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, slash)),
        _mm_or_si128(low, _mm_cmpeq_epi8(v, extra)));
    unsigned bits = (unsigned)_mm_movemask_epi8(hit);
    if (bits)
      return p + __builtin_ctz(bits);
    p += 16;
  }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* Eight bytes as a word: a byte b is found by the "has a zero byte"
   * test on b ^ '"', b ^ '\\', b ^ 0xC0 and on b < 0x20 (and its own
   * high bit, for JSON_SCAN_HIGH). The lowest byte flagged is a true one
   * (a borrow only flags bytes above a true one). */
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  while (end - p >= 8) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    uint64_t q = v ^ (ones * '"'), s = v ^ (ones * '\\'), a = v ^ (ones * also);
    uint64_t hit = ((v - ones * 0x20) & ~v) | ((q - ones) & ~q) |
                   ((s - ones) & ~s) | ((a - ones) & ~a) | (high ? v : 0);
    if (hit & highs)
      return p + __builtin_ctzll(hit & highs) / 8;
    p += 8;
  }
#endif
  while (p < end && !(json_scan_stop[*p] & (1u | flags)))
    p++;
  return p;
}

#endif
