#include "safety/unicode_quick.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "utf8.h"

/* A code point's record (unicode_gen.c). */
typedef struct unicode_rec {
  uint8_t ccc;     /* canonical combining class */
  uint8_t flags;   /* UNICODE_F_* */
  uint16_t decomp; /* offset in unicode_decomp, 0 for none; or the one
                     * code point (UNICODE_F_DECOMP_ONE) */
  uint16_t comp;   /* offset in unicode_pairs, 0 for none */
} unicode_rec;

#include "unicode_quick_tables.h"

#define CP_LIMIT 0x110000u

/* Hangul syllables and their jamo, Unicode 3.12: syllables are
 * L V or LV T, numbered in order, so both directions are arithmetic. */
#define S_BASE 0xAC00u
#define L_BASE 0x1100u
#define V_BASE 0x1161u
#define T_BASE 0x11A7u /* one before the first trailing consonant */
#define L_COUNT 19u
#define V_COUNT 21u
#define T_COUNT 28u /* with "no trailing consonant" */
#define N_COUNT (V_COUNT * T_COUNT)
#define S_COUNT (L_COUNT * N_COUNT)

/* Runs of marks up to this long are put in canonical order by insertion,
 * longer ones by counting (linear whatever the run). */
#define SHORT_RUN 32

/* The number of the record of `cp`, which must be below CP_LIMIT.
 * Inlined: it is the whole cost of most code points. */
static inline __attribute__((always_inline)) uint32_t rec_no(uint32_t cp) {
  uint32_t b3;
  if (cp < 0x10000) {
    b3 = unicode_bmp[cp >> UNICODE_SHIFT3];
  } else {
    uint32_t b2 = unicode_stage1[cp >> (UNICODE_SHIFT2 + UNICODE_SHIFT3)];
    b3 =
        unicode_stage2[(b2 << UNICODE_SHIFT2) |
                       ((cp >> UNICODE_SHIFT3) & ((1u << UNICODE_SHIFT2) - 1))];
  }
  return unicode_stage3[(b3 << UNICODE_SHIFT3) |
                        (cp & ((1u << UNICODE_SHIFT3) - 1))];
}

static inline __attribute__((always_inline)) const unicode_rec *
rec_of(uint32_t cp) {
  return &unicode_recs[rec_no(cp)];
}

static unsigned ccc_of(const unicode_rec *r) {
  return r->ccc;
}

static unsigned flags_of(const unicode_rec *r) {
  return r->flags;
}

/* A record's class and flags in one word, as decompose() keeps them. */
static uint16_t info_of(const unicode_rec *r) {
  return (uint16_t)(r->ccc | (unsigned)r->flags << 8);
}

static inline __attribute__((always_inline)) unsigned quick_class(uint32_t cp) {
  if (cp >= CP_LIMIT) {
    return UNICODE_QUICK_NOT_CLEAR;
  }
  uint32_t no = rec_no(cp);
  if (no < UNICODE_QUICK_ZERO) { /* class 0, NFKC_QC Yes, kept */
    return 0;
  }
  /* Not the record: the quick classes sit beside the stages. */
  return unicode_quick[no - UNICODE_QUICK_ZERO];
}

unsigned unicode_quick_class(uint32_t cp) {
  return quick_class(cp);
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
    unsigned cc = ok ? quick_class(cp) : UNICODE_QUICK_NOT_CLEAR;
    /* The rule of Unicode's quick check (UAX #15, 9): a mark after one of
     * a higher class is out of canonical order, and NFKC would move it. */
    if (cc == UNICODE_QUICK_NOT_CLEAR || (cc != 0 && prev > cc)) {
      return false;
    }
    prev = cc;
    i += k;
  }
  return true;
}

bool unicode_removable(uint32_t cp) {
  return cp >= CP_LIMIT || (flags_of(rec_of(cp)) & UNICODE_F_REMOVABLE);
}

/* Room for `n` elements of `size` bytes at *p, which holds *cap. */
static void reserve(void *p, size_t *cap, size_t n, size_t size) {
  if (*cap >= n) {
    return;
  }
  size_t c = *cap ? *cap : 64;
  while (c < n) {
    c *= 2;
  }
  void **pp = p;
  *pp = xrealloc(*pp, c * size);
  *cap = c;
}

void unicode_text_reserve(unicode_text *t, size_t n) {
  reserve(&t->cp, &t->cap, n, sizeof *t->cp);
}

void unicode_text_free(unicode_text *t) {
  free(t->cp);
  free(t->tmp);
  free(t->info);
  memset(t, 0, sizeof *t);
}

/* ASCII: class 0, NFKC_QC Yes, no decomposition, the second of no pair,
 * kept. Its record is not looked up. */
#define ASCII_INFO ((uint16_t)(UNICODE_F_QC_YES << 8))

/* The full compatibility decomposition of t->cp[0..len) into t->tmp, with
 * each code point's record's info in t->info; returns its length. Sets
 * *ordered to whether its marks are already in canonical order. */
static size_t decompose(unicode_text *t, bool *ordered) {
  size_t n = 0;
  unsigned prev = 0;
  bool in_order = true;
  for (size_t i = 0; i < t->len; i++) {
    /* The longest decomposition is UNICODE_DECOMP_LONGEST units, so at
     * most that many code points. */
    size_t room = n + UNICODE_DECOMP_LONGEST;
    if (room > t->tmp_cap || room > t->info_cap) {
      /* For the rest of the text too, as long as nothing expands. */
      room += t->len - i;
      reserve(&t->tmp, &t->tmp_cap, room, sizeof *t->tmp);
      reserve(&t->info, &t->info_cap, room, sizeof *t->info);
    }
    uint32_t c = t->cp[i];
    if (c < 0x80) {
      t->tmp[n] = c;
      t->info[n++] = ASCII_INFO;
      prev = 0;
      continue;
    }
    if (c - S_BASE < S_COUNT) {
      /* Jamo: class 0, and no other record bit matters once decomposed
       * (they compose arithmetically). */
      uint32_t s = c - S_BASE;
      t->tmp[n] = L_BASE + s / N_COUNT;
      t->info[n++] = 0;
      t->tmp[n] = V_BASE + s % N_COUNT / T_COUNT;
      t->info[n++] = 0;
      if (s % T_COUNT) {
        t->tmp[n] = T_BASE + s % T_COUNT;
        t->info[n++] = 0;
      }
      prev = 0;
      continue;
    }
    const unicode_rec *r = rec_of(c);
    if (!r->decomp) {
      unsigned cc = ccc_of(r);
      in_order = in_order && (cc == 0 || prev <= cc);
      prev = cc;
      t->tmp[n] = c;
      t->info[n++] = info_of(r);
      continue;
    }
    /* UTF-16: code points beyond the BMP as surrogate pairs. One BMP
     * code point is in the record, as a decomposition of one unit. */
    uint16_t one[2] = {1, r->decomp};
    const uint16_t *d = flags_of(r) & UNICODE_F_DECOMP_ONE
                            ? one
                            : unicode_decomp + r->decomp;
    for (size_t k = 1; k <= d[0]; k++) {
      uint32_t u = d[k];
      if (u < 0x80) { /* ASCII: its record is not looked up */
        t->tmp[n] = u;
        t->info[n++] = ASCII_INFO;
        prev = 0;
        continue;
      }
      if (u - 0xD800u < 0x400u) {
        u = 0x10000u + ((u - 0xD800u) << 10) + (d[++k] - 0xDC00u);
      }
      const unicode_rec *ru = rec_of(u);
      unsigned cc = ccc_of(ru);
      in_order = in_order && (cc == 0 || prev <= cc);
      prev = cc;
      t->tmp[n] = u;
      t->info[n++] = info_of(ru);
    }
  }
  *ordered = in_order;
  return n;
}

/* Puts the `k` marks at s[0..k), with their info at in[0..k), in
 * canonical order: stably by class. */
static void sort_run(unicode_text *t, uint32_t *s, uint16_t *in, size_t k) {
  if (k <= SHORT_RUN) {
    for (size_t i = 1; i < k; i++) {
      uint32_t c = s[i];
      uint16_t ci = in[i];
      size_t j = i;
      while (j > 0 && (in[j - 1] & 0xFFu) > (ci & 0xFFu)) {
        s[j] = s[j - 1];
        in[j] = in[j - 1];
        j--;
      }
      s[j] = c;
      in[j] = ci;
    }
    return;
  }
  /* Past the end of t->cp, whose text is kept to compare: the code
   * points, then their info. */
  size_t words = k + (k * sizeof *in + sizeof *s - 1) / sizeof *s;
  reserve(&t->cp, &t->cap, t->len + words, sizeof *t->cp);
  uint32_t *out = t->cp + t->len;
  uint16_t *out_in = (uint16_t *)(out + k);
  size_t at[256] = {0};
  for (size_t i = 0; i < k; i++) {
    at[in[i] & 0xFFu]++;
  }
  for (size_t c = 0, sum = 0; c < 256; c++) {
    size_t here = at[c];
    at[c] = sum;
    sum += here;
  }
  for (size_t i = 0; i < k; i++) {
    size_t to = at[in[i] & 0xFFu]++;
    out[to] = s[i];
    out_in[to] = in[i];
  }
  memcpy(s, out, k * sizeof *s);
  memcpy(in, out_in, k * sizeof *in);
}

/* Canonical ordering of t->tmp[0..n): each run of marks (class > 0)
 * sorted. */
static void reorder(unicode_text *t, size_t n) {
  const uint16_t *in = t->info;
  for (size_t i = 0; i < n;) {
    if ((in[i] & 0xFFu) == 0) {
      i++;
      continue;
    }
    size_t j = i + 1;
    while (j < n && (in[j] & 0xFFu) != 0) {
      j++;
    }
    if (j - i > 1) {
      sort_run(t, t->tmp + i, t->info + i, j - i);
    }
    i = j;
  }
}

/* The primary composite of starter `a` and `b` (with info `ib`), or 0
 * when they do not compose. */
static uint32_t compose_pair(uint32_t a, uint32_t b, uint16_t ib) {
  if (a - L_BASE < L_COUNT && b - V_BASE < V_COUNT) {
    return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT;
  }
  if (a - S_BASE < S_COUNT && (a - S_BASE) % T_COUNT == 0 &&
      b - (T_BASE + 1) < T_COUNT - 1) {
    return a + (b - T_BASE);
  }
  if (!((unsigned)ib >> 8 & UNICODE_F_COMBINES_BACK)) {
    return 0;
  }
  const unicode_rec *ra = rec_of(a);
  if (!ra->comp) {
    return 0;
  }
  const uint32_t *p = unicode_pairs + ra->comp;
  for (uint32_t k = 0; k < p[0]; k++) {
    uint32_t second = p[1 + 2 * k];
    if (second == b) {
      return p[2 + 2 * k];
    }
    if (second > b) {
      break;
    }
  }
  return 0;
}

/* Canonical composition of t->tmp[0..n) in place (UAX #15, 1.3): each
 * code point not blocked from the last starter (nothing between them, or
 * only marks of a lower class) and forming a primary composite with it
 * replaces the starter by the composite. Returns the new length. */
static size_t compose(unicode_text *t, size_t n) {
  uint32_t *s = t->tmp;
  const uint16_t *in = t->info;
  size_t out = 0, starter = SIZE_MAX;
  unsigned last_cc = 0; /* of s[out - 1] */
  for (size_t i = 0; i < n; i++) {
    uint32_t c = s[i];
    unsigned cc = in[i] & 0xFFu;
    /* Not adjacent, the code point before is a mark (else it would be
     * the starter): blocked unless its class is lower. ASCII is the
     * second of no pair. */
    if (c >= 0x80 && starter != SIZE_MAX &&
        (out == starter + 1 || last_cc < cc)) {
      uint32_t comp = compose_pair(s[starter], c, in[i]);
      if (comp) {
        s[starter] = comp;
        continue;
      }
    }
    if (cc == 0) {
      starter = out;
    }
    last_cc = cc;
    s[out++] = c;
  }
  return out;
}

bool unicode_nfkc(unicode_text *t) {
  /* The quick check (UAX #15, 9): code points NFKC leaves alone, in
   * canonical order, are already normalized. */
  unsigned prev = 0;
  size_t i = 0;
  for (; i < t->len; i++) {
    uint32_t c = t->cp[i];
    if (c < 0x80) {
      prev = 0;
      continue;
    }
    const unicode_rec *r = rec_of(c);
    unsigned cc = ccc_of(r);
    if (!(flags_of(r) & UNICODE_F_QC_YES) || (cc != 0 && prev > cc)) {
      break;
    }
    prev = cc;
  }
  if (i == t->len) {
    return false;
  }
  bool ordered;
  size_t n = decompose(t, &ordered);
  if (!ordered) {
    reorder(t, n);
  }
  n = compose(t, n);
  if (n == t->len && memcmp(t->cp, t->tmp, n * sizeof *t->tmp) == 0) {
    return false;
  }
  uint32_t *keep = t->cp;
  size_t keep_cap = t->cap;
  t->cp = t->tmp;
  t->cap = t->tmp_cap;
  t->tmp = keep;
  t->tmp_cap = keep_cap;
  t->len = n;
  return true;
}

const char *unicode_quick_icu_version(void) {
  return UNICODE_QUICK_ICU;
}

const char *unicode_quick_unicode_version(void) {
  return UNICODE_QUICK_UNICODE;
}
