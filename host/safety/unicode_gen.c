/*
 * mcphost-unicode-gen OUT: writes OUT, the tables of safety/unicode_quick.c,
 * from the ICU this program runs against. A build tool: the build runs
 * it against the ICU it compiles with (host/CMakeLists.txt), so that the
 * tables and the ICU the host opens (libicuuc.so.MAJOR, common/icu_dl.h)
 * are of one Unicode version.
 *
 * For each code point, one byte: its canonical combining class when
 * NFKC_Quick_Check is Yes and its general category is none the sanitizer
 * removes (Cf, Co, Cn, Cs); else UNICODE_QUICK_NEEDS_ICU. Stored as a
 * two-stage table: an index of blocks of 2^shift code points, and the
 * distinct blocks, with the shift that makes the two smallest. Code
 * points from the block after the last one with a class on all need ICU.
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

#include "safety/unicode_quick.h"

#define CODE_POINTS 0x110000
#define MAX_BLOCK 512 /* 2^9, the largest shift tried */

/* With a block's worth past the last code point, all needing ICU, for a
 * last block that straddles it. */
static uint8_t cls[CODE_POINTS + MAX_BLOCK];

/* The byte for `c` (see above), from the normalizer the sanitizer uses:
 * its quick check of `c` alone, the property, and the class. */
static uint8_t class_of(const UNormalizer2 *nfkc, UChar32 c) {
  int8_t t = u_charType(c);
  if (t == U_FORMAT_CHAR || t == U_PRIVATE_USE_CHAR || t == U_UNASSIGNED ||
      t == U_SURROGATE) {
    return UNICODE_QUICK_NEEDS_ICU;
  }
  UChar u[2];
  int32_t n = 0;
  U16_APPEND_UNSAFE(u, n, c);
  UErrorCode e = U_ZERO_ERROR;
  /* Both must say Yes: the normalizer is what the sanitizer calls, the
   * property is what Unicode publishes; they agree in every ICU seen, and
   * if one day they do not, ICU decides. */
  if (unorm2_quickCheck(nfkc, u, n, &e) != UNORM_YES || U_FAILURE(e) ||
      u_getIntPropertyValue(c, UCHAR_NFKC_QUICK_CHECK) != UNORM_YES) {
    return UNICODE_QUICK_NEEDS_ICU;
  }
  uint8_t cc = unorm2_getCombiningClass(nfkc, c);
  return cc == UNICODE_QUICK_NEEDS_ICU ? UNICODE_QUICK_NEEDS_ICU : cc;
}

typedef struct layout {
  unsigned shift;
  size_t nindex;  /* index entries: the blocks up to the limit */
  size_t nblocks; /* distinct blocks */
  size_t size;    /* bytes of both stages */
  uint32_t *index;
} layout;

/* The two stages for blocks of 2^shift code points below `limit`. */
static layout plan(unsigned shift, uint32_t limit) {
  layout l = {.shift = shift};
  size_t bs = (size_t)1 << shift;
  l.nindex = (limit + bs - 1) >> shift;
  l.index = malloc(l.nindex * sizeof *l.index);
  uint32_t *first = malloc(l.nindex * sizeof *first); /* a block's start */
  if (!l.index || !first) {
    fputs("mcphost-unicode-gen: out of memory\n", stderr);
    exit(1);
  }
  for (size_t b = 0; b < l.nindex; b++) {
    size_t k = 0;
    while (k < l.nblocks && memcmp(cls + first[k], cls + (b << shift), bs)) {
      k++;
    }
    if (k == l.nblocks) {
      first[l.nblocks++] = (uint32_t)(b << shift);
    }
    l.index[b] = (uint32_t)k;
  }
  free(first);
  l.size = l.nindex * (l.nblocks > 256 ? 2 : 1) + l.nblocks * bs;
  return l;
}

/* Writes the array NAME of `n` values. In .rodata1, which the linker
 * places after all of .rodata: a run whose text is all ASCII never reads
 * these 35 KiB, and among the strings and small tables it does read they
 * would take pages of their own (docs/architecture.md, "The executable's
 * layout"). */
static void put_array(FILE *f, const char *type, const char *name,
                      const uint32_t *v, size_t n) {
  fprintf(f,
          "static const %s %s[%zu]\n"
          "    __attribute__((section(\".rodata1\"))) = {",
          type, name, n);
  for (size_t i = 0; i < n; i++) {
    fprintf(f, "%s%u,", i % 16 ? " " : "\n    ", v[i]);
  }
  fputs("\n};\n", f);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: mcphost-unicode-gen OUT.h\n", stderr);
    return 2;
  }
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&e);
  if (U_FAILURE(e)) {
    fprintf(stderr, "mcphost-unicode-gen: ICU has no NFKC data: %s\n",
            u_errorName(e));
    return 1;
  }
  uint32_t limit = 0;
  memset(cls, UNICODE_QUICK_NEEDS_ICU, sizeof cls);
  for (UChar32 c = 0; c < CODE_POINTS; c++) {
    cls[c] = class_of(nfkc, c);
    if (cls[c] != UNICODE_QUICK_NEEDS_ICU) {
      limit = (uint32_t)c + 1;
    }
  }
  layout best = {0};
  for (unsigned shift = 4; shift <= 9; shift++) {
    layout l = plan(shift, limit);
    if (!best.index || l.size < best.size) {
      free(best.index);
      best = l;
    } else {
      free(l.index);
    }
  }
  if (best.nblocks > 65536) {
    fputs("mcphost-unicode-gen: too many distinct blocks\n", stderr);
    return 1;
  }

  UVersionInfo v;
  char icu[U_MAX_VERSION_STRING_LENGTH], uni[U_MAX_VERSION_STRING_LENGTH];
  u_getVersion(v);
  u_versionToString(v, icu);
  unsigned major = v[0];
  u_getUnicodeVersion(v);
  u_versionToString(v, uni);

  size_t plen = strlen(argv[1]);
  char *tmp = malloc(plen + 5);
  if (!tmp) {
    return 1;
  }
  memcpy(tmp, argv[1], plen);
  memcpy(tmp + plen, ".tmp", 5);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    perror(tmp);
    return 1;
  }
  fprintf(f,
          "/* Generated by host/safety/unicode_gen.c from ICU %s (Unicode "
          "%s) at build\n"
          " * time: do not edit. %zu-code-point blocks: %zu index entries, "
          "%zu distinct\n"
          " * blocks, %zu bytes. */\n",
          icu, uni, (size_t)1 << best.shift, best.nindex, best.nblocks,
          best.size);
  fprintf(f,
          "#include <unicode/uvernum.h>\n"
          "#if U_ICU_VERSION_MAJOR_NUM != %u\n"
          "#error \"the Unicode tables were generated from another ICU than "
          "its headers: rebuild\"\n"
          "#endif\n"
          "#define UNICODE_QUICK_ICU \"%s\"\n"
          "#define UNICODE_QUICK_UNICODE \"%s\"\n"
          "#define UNICODE_QUICK_SHIFT %uu\n"
          "#define UNICODE_QUICK_LIMIT 0x%Xu\n",
          major, icu, uni, best.shift, (unsigned)limit);
  put_array(f, best.nblocks > 256 ? "uint16_t" : "uint8_t",
            "unicode_quick_index", best.index, best.nindex);
  size_t bs = (size_t)1 << best.shift;
  uint32_t *blocks = malloc(best.nblocks * bs * sizeof *blocks);
  if (!blocks) {
    return 1;
  }
  for (size_t b = 0; b < best.nindex; b++) {
    for (size_t i = 0; i < bs; i++) {
      blocks[best.index[b] * bs + i] = cls[(b << best.shift) + i];
    }
  }
  put_array(f, "uint8_t", "unicode_quick_blocks", blocks, best.nblocks * bs);
  free(blocks);
  free(best.index);
  if (ferror(f) || fclose(f) != 0 || rename(tmp, argv[1]) != 0) {
    perror(argv[1]);
    remove(tmp);
    return 1;
  }
  free(tmp);
  return 0;
}
