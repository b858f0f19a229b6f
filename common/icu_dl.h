/*
 * ICU, opened with dlopen on first use instead of linked.
 *
 * Linking ICU maps libicuuc, libicudata and libstdc++ into every process
 * at start-up and relocates them, though most commands never need it
 * (bench/results/2026-11-30-findings.md, B). The elicitation plugin's URL
 * check calls ICU's IDNA (UTS #46) through this table instead. (The
 * host's sanitizer needs no ICU at run time: its Unicode data are tables
 * generated from ICU at build time, host/safety/unicode_quick.h.)
 *
 * The library and symbol names come from the ICU headers this was built
 * with: the soname from U_ICU_VERSION_MAJOR_NUM (libicuuc.so.72), the
 * symbols through ICU's own renaming (uidna_close is uidna_close_72), so
 * that they match whatever ICU version the build found.
 */
#ifndef MCPHOST_ICU_DL_H
#define MCPHOST_ICU_DL_H

#include <stdbool.h>

#include <unicode/uidna.h>
#include <unicode/uvernum.h>

#define ICU_DL_STR_(x) #x
#define ICU_DL_STR(x) ICU_DL_STR_(x)

/* The file opened: "libicuuc.so.72" for ICU 72. (Tests define another to
 * see what happens when it is missing.) */
#ifndef ICU_DL_LIBRARY
#define ICU_DL_LIBRARY "libicuuc.so." ICU_DL_STR(U_ICU_VERSION_MAJOR_NUM)
#endif

/* The functions used, with the headers' prototypes. */
typedef struct icu_fns {
  __typeof__(uidna_openUTS46) *idna_open_uts46;
  __typeof__(uidna_nameToASCII_UTF8) *idna_name_to_ascii;
  __typeof__(uidna_close) *idna_close;
} icu_fns;

/* Opens ICU on the first call (any thread; later calls only read).
 * Returns the table, valid for the life of the process (ICU is never
 * closed), or NULL when ICU cannot be loaded. Then *why, when `why` is
 * not NULL, points to a static sentence that names the library and says
 * why, and *first, when `first` is not NULL, is true for exactly one call
 * in the process, so that the failure is reported once. */
const icu_fns *icu_dl_load(const char **why, bool *first);

#endif
