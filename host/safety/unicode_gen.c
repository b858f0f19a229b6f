/*
 * mcphost-unicode-gen OUT: writes OUT, the tables of safety/unicode_quick.c,
 * from the ICU this program runs against. A build tool: the build runs
 * it against the ICU it compiles with (host/CMakeLists.txt). ICU is the
 * tables' source and nothing more: the host normalizes and classifies
 * with the tables alone, so the data it applies is exactly ICU's, of
 * ICU's Unicode version, and ICU is never opened for it at run time.
 *
 * For each code point, a record (deduplicated, most code points share
 * one):
 *   - its canonical combining class;
 *   - UNICODE_F_REMOVABLE when its general category is one the sanitizer
 *     removes (Cf, Co, Cn, Cs);
 *   - UNICODE_F_QC_YES when NFKC_Quick_Check is Yes (both the property
 *     and the normalizer's quick check of it alone say so);
 *   - UNICODE_F_COMBINES_BACK when it is the second of a pair that
 *     canonical composition joins;
 *   - its full compatibility decomposition, NFKD of it alone, when that
 *     is not itself: one BMP code point in the record itself
 *     (UNICODE_F_DECOMP_ONE), else an offset into a pool of UTF-16 units,
 *     each entry its length in units, then the units;
 *   - the pairs it starts: an offset into a list of (second, composite),
 *     each list its length, then the pairs sorted by second. A pair is
 *     one ICU composes (unorm2_composePair) from a canonical
 *     decomposition of two code points: composition exclusions and
 *     singletons are ICU's business.
 * Hangul syllables decompose and compose arithmetically (Unicode 3.12):
 * they have no decomposition and no pairs here.
 *
 * The records are reached through a three-stage table: an index of
 * blocks of 2^(SHIFT2+SHIFT3) code points, whose entries pick a block of
 * the second stage, whose entries pick a block of 2^SHIFT3 record
 * numbers; identical blocks are stored once, and the shifts are those
 * that make it smallest. The BMP, where most text is, skips the first
 * two stages: an index of its blocks of 2^SHIFT3 picks the third-stage
 * block directly. All of it is constant data (.rodata): a process maps
 * in only the pages its text touches.
 *
 * Writes OUT.tmp, then renames it: a failed run leaves no table behind.
 * Exits 1, saying why on stderr, when ICU cannot give what is asked.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

#include "alloc.h"
#include "safety/unicode_quick.h"

#define CODE_POINTS 0x110000
#define HANGUL_FIRST 0xAC00
#define HANGUL_LAST 0xD7A3

static void fail(const char *what) {
  fprintf(stderr, "mcphost-unicode-gen: %s\n", what);
  exit(1);
}

/* A growable array of uint32_t. */
typedef struct vec {
  uint32_t *v;
  size_t n, cap;
} vec;

static void vec_push(vec *a, uint32_t x) {
  if (a->n == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 1024;
    a->v = xrealloc(a->v, a->cap * sizeof *a->v);
  }
  a->v[a->n++] = x;
}

/* Finds the `len` values at `key` among the blocks of `len` already in
 * `store` (a multiple of `len` long), adding them when new; returns the
 * block's number. `hash` is an open-addressing table of block numbers + 1
 * with `hcap` slots (a power of two, more than the blocks ever stored). */
static uint32_t intern(vec *store, const uint32_t *key, size_t len,
                       uint32_t *hash, size_t hcap) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++) {
    h = (h ^ key[i]) * 1099511628211ull;
  }
  for (size_t j = (size_t)h & (hcap - 1);; j = (j + 1) & (hcap - 1)) {
    if (hash[j] == 0) {
      uint32_t b = (uint32_t)(store->n / len);
      for (size_t i = 0; i < len; i++) {
        vec_push(store, key[i]);
      }
      hash[j] = b + 1;
      return b;
    }
    uint32_t b = hash[j] - 1;
    if (memcmp(store->v + (size_t)b * len, key, len * sizeof *key) == 0) {
      return b;
    }
  }
}

/* A code point's record, before numbering. */
typedef struct rec {
  uint8_t ccc, flags;
  uint32_t decomp; /* offset in the pool, 0 for none */
  uint32_t comp;   /* offset in the pair lists, 0 for none */
} rec;

static rec recs_of[CODE_POINTS];
static uint32_t rec_no[CODE_POINTS];

/* The pairs canonical composition joins, as (first, second, composite). */
typedef struct pair {
  uint32_t first, second, composite;
} pair;

static int pair_order(const void *a, const void *b) {
  const pair *x = a, *y = b;
  if (x->first != y->first) {
    return x->first < y->first ? -1 : 1;
  }
  return x->second < y->second ? -1 : x->second > y->second;
}

typedef struct layout {
  unsigned s2, s3;
  vec t1, t2, t3; /* the three stages */
  vec bmp;        /* the BMP's third-stage blocks, indexed directly */
  size_t size;    /* bytes of all four */
} layout;

static size_t width(size_t max) {
  return max < 256 ? 1 : max < 65536 ? 2 : 4;
}

/* The three stages for shifts s2 and s3, over the record numbers. */
static layout plan(unsigned s2, unsigned s3, size_t nrec) {
  layout l = {.s2 = s2, .s3 = s3};
  size_t b3 = (size_t)1 << s3, b2 = (size_t)1 << s2;
  size_t hcap = 1u << 20;
  uint32_t *hash3 = xcalloc(hcap, sizeof *hash3);
  uint32_t *hash2 = xcalloc(hcap, sizeof *hash2);
  uint32_t *mid = xmalloc(((size_t)CODE_POINTS >> s3) * sizeof *mid);
  for (size_t b = 0; b < ((size_t)CODE_POINTS >> s3); b++) {
    mid[b] = intern(&l.t3, rec_no + (b << s3), b3, hash3, hcap);
  }
  for (size_t b = 0; b < ((size_t)CODE_POINTS >> (s2 + s3)); b++) {
    vec_push(&l.t1, intern(&l.t2, mid + (b << s2), b2, hash2, hcap));
  }
  for (size_t b = 0; b < ((size_t)0x10000 >> s3); b++) {
    vec_push(&l.bmp, mid[b]);
  }
  free(mid);
  free(hash3);
  free(hash2);
  l.size = l.t1.n * width(l.t2.n / b2) +
           (l.t2.n + l.bmp.n) * width(l.t3.n / b3) + l.t3.n * width(nrec);
  return l;
}

static const char *type_of(size_t max) {
  return max < 256 ? "uint8_t" : max < 65536 ? "uint16_t" : "uint32_t";
}

/* Writes the member NAME, `n` values of `type`, of struct unicode_tables
 * (its declaration when `values` is NULL, else its initializer). */
static void put_member(FILE *f, const char *type, const char *name,
                       const uint32_t *v, size_t n, bool values) {
  if (!values) {
    fprintf(f, "  %s %s[%zu];\n", type, name, n);
    return;
  }
  fprintf(f, "  .%s = {", name);
  for (size_t i = 0; i < n; i++) {
    fprintf(f, "%s%u,", i % 12 ? " " : "\n    ", v[i]);
  }
  fputs("\n  },\n", f);
}

/* The tables, in the order of struct unicode_tables. */
typedef struct tables {
  const layout *l;
  vec quick; /* each record's quick class, from UNICODE_QUICK_ZERO on */
  const vec *recs, *pool, *comp;
  size_t nrec;
} tables;

static void put_members(FILE *f, const tables *t, bool values) {
  const layout *l = t->l;
  const char *t3 = type_of(l->t3.n >> l->s3);
  put_member(f, t3, "bmp", l->bmp.v, l->bmp.n, values);
  put_member(f, type_of(t->nrec), "stage3", l->t3.v, l->t3.n, values);
  put_member(f, "uint8_t", "quick", t->quick.v, t->quick.n, values);
  put_member(f, t3, "stage2", l->t2.v, l->t2.n, values);
  put_member(f, type_of(l->t2.n >> l->s2), "stage1", l->t1.v, l->t1.n, values);
  if (!values) {
    fprintf(f, "  unicode_rec recs[%zu];\n", t->nrec);
  } else {
    fputs("  .recs = {", f);
    for (size_t i = 0; i < t->nrec; i++) {
      const uint32_t *r = t->recs->v + 3 * i;
      fprintf(f, "%s{%u, %u, %u, %u},", i % 4 ? " " : "\n    ", r[0] & 0xFFu,
              r[0] >> 8, r[1], r[2]);
    }
    fputs("\n  },\n", f);
  }
  put_member(f, "uint16_t", "decomp", t->pool->v, t->pool->n, values);
  put_member(f, "uint32_t", "pairs", t->comp->v, t->comp->n, values);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: mcphost-unicode-gen OUT.h\n", stderr);
    return 2;
  }
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&e);
  const UNormalizer2 *nfkd = unorm2_getNFKDInstance(&e);
  const UNormalizer2 *nfc = unorm2_getNFCInstance(&e);
  if (U_FAILURE(e)) {
    fprintf(stderr, "mcphost-unicode-gen: ICU has no normalization data: %s\n",
            u_errorName(e));
    return 1;
  }

  /* The pairs, from every two-code-point canonical decomposition ICU
   * composes back. */
  pair *pairs = NULL;
  size_t npairs = 0, pcap = 0;
  for (UChar32 c = 0; c < CODE_POINTS; c++) {
    if (c >= HANGUL_FIRST && c <= HANGUL_LAST) {
      continue;
    }
    UChar raw[8];
    e = U_ZERO_ERROR;
    int32_t n = unorm2_getRawDecomposition(nfc, c, raw, 8, &e);
    if (n <= 0 || U_FAILURE(e)) {
      continue;
    }
    int32_t i = 0;
    UChar32 a, b;
    U16_NEXT(raw, i, n, a);
    if (i >= n) {
      continue;
    }
    U16_NEXT(raw, i, n, b);
    if (i != n || unorm2_composePair(nfc, a, b) != c) {
      continue;
    }
    if (npairs == pcap) {
      pcap = pcap ? pcap * 2 : 1024;
      pairs = xrealloc(pairs, pcap * sizeof *pairs);
    }
    pairs[npairs++] = (pair){(uint32_t)a, (uint32_t)b, (uint32_t)c};
  }
  qsort(pairs, npairs, sizeof *pairs, pair_order);

  /* The pair lists: [count, second, composite, ...] per first code point;
   * offset 0 is a dummy, so that 0 means none. */
  vec comp = {0};
  vec_push(&comp, 0);
  for (size_t i = 0; i < npairs;) {
    size_t j = i;
    while (j < npairs && pairs[j].first == pairs[i].first) {
      j++;
    }
    recs_of[pairs[i].first].comp = (uint32_t)comp.n;
    vec_push(&comp, (uint32_t)(j - i));
    for (size_t k = i; k < j; k++) {
      vec_push(&comp, pairs[k].second);
      vec_push(&comp, pairs[k].composite);
      recs_of[pairs[k].second].flags |= UNICODE_F_COMBINES_BACK;
    }
    i = j;
  }

  /* Each code point's record; the pool of decompositions, offset 0 a
   * dummy. */
  vec pool = {0};
  vec_push(&pool, 0);
  size_t longest = 0, ndecomp = 0;
  for (UChar32 c = 0; c < CODE_POINTS; c++) {
    rec *r = &recs_of[c];
    int8_t t = u_charType(c);
    if (t == U_FORMAT_CHAR || t == U_PRIVATE_USE_CHAR || t == U_UNASSIGNED ||
        t == U_SURROGATE) {
      r->flags |= UNICODE_F_REMOVABLE;
    }
    UChar u[2], d[64];
    int32_t n = 0;
    U16_APPEND_UNSAFE(u, n, c);
    e = U_ZERO_ERROR;
    if (t != U_SURROGATE && unorm2_quickCheck(nfkc, u, n, &e) == UNORM_YES &&
        U_SUCCESS(e) &&
        u_getIntPropertyValue(c, UCHAR_NFKC_QUICK_CHECK) == UNORM_YES) {
      r->flags |= UNICODE_F_QC_YES;
    }
    r->ccc = unorm2_getCombiningClass(nfkc, c);
    if (t == U_SURROGATE || (c >= HANGUL_FIRST && c <= HANGUL_LAST)) {
      continue;
    }
    e = U_ZERO_ERROR;
    int32_t m = unorm2_normalize(nfkd, u, n, d, 64, &e);
    if (U_FAILURE(e)) {
      fail("a decomposition longer than 64 units");
    }
    if (m == n && memcmp(u, d, (size_t)n * sizeof *u) == 0) {
      continue;
    }
    if ((size_t)m > longest) {
      longest = (size_t)m;
    }
    ndecomp++;
    if (m == 1) {
      /* One BMP code unit (most compatibility decompositions: fullwidth
       * and halfwidth forms, letterlike symbols): in the record itself,
       * so that normalizing them reads no page of the pool. */
      r->decomp = d[0];
      r->flags |= UNICODE_F_DECOMP_ONE;
      continue;
    }
    r->decomp = (uint32_t)pool.n;
    vec_push(&pool, (uint32_t)m);
    for (int32_t i = 0; i < m; i++) {
      vec_push(&pool, d[i]);
    }
  }
  if (pool.n > 65535 || comp.n > 65535) {
    fail("a pool too large for 16-bit offsets");
  }

  /* Records numbered in order of first use: code points that share
   * everything share one. */
  vec recs = {0}; /* ccc | flags << 8, decomp, comp */
  {
    size_t hcap = 1u << 16;
    uint32_t *hash = xcalloc(hcap, sizeof *hash);
    for (UChar32 c = 0; c < CODE_POINTS; c++) {
      const rec *r = &recs_of[c];
      uint32_t key[3] = {r->ccc | (uint32_t)r->flags << 8, r->decomp, r->comp};
      rec_no[c] = intern(&recs, key, 3, hash, hcap);
      if (recs.n / 3 >= hcap / 2) {
        fail("too many distinct records");
      }
    }
    free(hash);
  }
  size_t nrec = recs.n / 3;
  if (nrec > 65535) {
    fail("too many distinct records");
  }
  /* Renumbered so that the records of code points the quick check clears
   * with class 0 (most letters of most scripts) come first: below
   * UNICODE_QUICK_ZERO, the record number alone says so. */
  size_t nzero = 0;
  {
    uint32_t *renum = xmalloc(nrec * sizeof *renum);
    uint32_t *sorted = xmalloc(recs.n * sizeof *sorted);
    size_t next = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (size_t i = 0; i < nrec; i++) {
        bool zero = recs.v[3 * i] == UNICODE_F_QC_YES << 8; /* class 0 */
        if (zero != (pass == 0)) {
          continue;
        }
        renum[i] = (uint32_t)next;
        memcpy(sorted + 3 * next, recs.v + 3 * i, 3 * sizeof *sorted);
        next++;
      }
      if (pass == 0) {
        nzero = next;
      }
    }
    for (UChar32 c = 0; c < CODE_POINTS; c++) {
      rec_no[c] = renum[rec_no[c]];
    }
    free(recs.v);
    recs.v = sorted;
    free(renum);
  }

  layout best = {0};
  for (unsigned s3 = 3; s3 <= 7; s3++) {
    for (unsigned s2 = 2; s2 <= 7; s2++) {
      layout l = plan(s2, s3, nrec);
      if (!best.t1.v || l.size < best.size) {
        free(best.t1.v);
        free(best.t2.v);
        free(best.t3.v);
        free(best.bmp.v);
        best = l;
      } else {
        free(l.t1.v);
        free(l.t2.v);
        free(l.t3.v);
        free(l.bmp.v);
      }
    }
  }

  /* Each record's class for the quick check, from UNICODE_QUICK_ZERO on
   * (those below are class 0 and clear): read in place of the records,
   * so that the quick check reads 5 KiB of its own and none of them. */
  tables t = {
      .l = &best, .recs = &recs, .pool = &pool, .comp = &comp, .nrec = nrec};
  for (size_t i = nzero; i < nrec; i++) {
    unsigned ccc = recs.v[3 * i] & 0xFFu, flags = recs.v[3 * i] >> 8;
    bool clear = (flags & UNICODE_F_QC_YES) && !(flags & UNICODE_F_REMOVABLE);
    vec_push(&t.quick, clear ? ccc : UNICODE_QUICK_NOT_CLEAR);
  }

  UVersionInfo v;
  char icu[U_MAX_VERSION_STRING_LENGTH], uni[U_MAX_VERSION_STRING_LENGTH];
  u_getVersion(v);
  u_versionToString(v, icu);
  unsigned major = v[0];
  u_getUnicodeVersion(v);
  u_versionToString(v, uni);

  size_t plen = strlen(argv[1]);
  char *tmp = xmalloc(plen + 5);
  memcpy(tmp, argv[1], plen);
  memcpy(tmp + plen, ".tmp", 5);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    perror(tmp);
    return 1;
  }
  size_t rec_bytes = nrec * 6, pool_bytes = pool.n * 2, comp_bytes = comp.n * 4;
  fprintf(f,
          "/* Generated by host/safety/unicode_gen.c from ICU %s (Unicode "
          "%s) at build\n"
          " * time: do not edit. Stages of %zu, %zu and %zu entries and the "
          "BMP's index\n"
          " * of %zu (%zu bytes); %zu quick classes; %zu records (%zu "
          "bytes); %zu\n"
          " * decompositions in %zu units (%zu bytes); %zu pairs (%zu "
          "bytes): %zu bytes\n"
          " * in all. */\n",
          icu, uni, best.t1.n, best.t2.n, best.t3.n, best.bmp.n, best.size,
          t.quick.n, nrec, rec_bytes, ndecomp, pool.n, pool_bytes, npairs,
          comp_bytes,
          best.size + t.quick.n + rec_bytes + pool_bytes + comp_bytes);
  fprintf(f,
          "#include <unicode/uvernum.h>\n"
          "#if U_ICU_VERSION_MAJOR_NUM != %u\n"
          "#error \"the Unicode tables were generated from another ICU than "
          "its headers: rebuild\"\n"
          "#endif\n"
          "#define UNICODE_QUICK_ICU \"%s\"\n"
          "#define UNICODE_QUICK_UNICODE \"%s\"\n"
          "#define UNICODE_SHIFT2 %uu\n"
          "#define UNICODE_SHIFT3 %uu\n"
          "#define UNICODE_DECOMP_LONGEST %zuu\n"
          "#define UNICODE_QUICK_ZERO %zuu\n",
          major, icu, uni, best.s2, best.s3, longest, nzero);
  /* One object, so that its parts are laid out in this order: what the
   * quick check reads (the BMP's index, the third stage, the quick
   * classes, the other two stages) first, then what only normalizing
   * reads. In .rodata1, which the link places right after the read-only
   * data of the code the common commands run (cli/CMakeLists.txt; without
   * that, after all of .rodata): a run whose text is all ASCII reads none
   * of it, one whose text the quick check clears reads its first 46 KiB,
   * next to the pages it maps anyway (docs/architecture.md, "The
   * executable's layout"). */
  fputs("static const struct unicode_tables {\n", f);
  put_members(f, &t, false);
  fputs("} unicode_tables __attribute__((section(\".rodata1\"))) = {\n", f);
  put_members(f, &t, true);
  fputs("};\n"
        "#define unicode_bmp unicode_tables.bmp\n"
        "#define unicode_stage3 unicode_tables.stage3\n"
        "#define unicode_quick unicode_tables.quick\n"
        "#define unicode_stage2 unicode_tables.stage2\n"
        "#define unicode_stage1 unicode_tables.stage1\n"
        "#define unicode_recs unicode_tables.recs\n"
        "#define unicode_decomp unicode_tables.decomp\n"
        "#define unicode_pairs unicode_tables.pairs\n",
        f);
  free(t.quick.v);
  free(best.t1.v);
  free(best.t2.v);
  free(best.t3.v);
  free(best.bmp.v);
  free(recs.v);
  free(pool.v);
  free(comp.v);
  free(pairs);
  if (ferror(f) || fclose(f) != 0 || rename(tmp, argv[1]) != 0) {
    perror(argv[1]);
    remove(tmp);
    return 1;
  }
  free(tmp);
  return 0;
}
