#include "icu_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* ICU's state is process-wide, and so is this: the one table, filled
 * once. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static icu_fns fns;
static bool loaded;
static char failure[320];
static atomic_bool failure_told;

/* dlsym of one ICU function by its renamed name (uidna_close_72);
 * NULL, and `failure` filled, when it is missing. */
static void *sym(void *h, const char *name) {
  void *p = dlsym(h, name);
  if (!p && !failure[0])
    snprintf(failure, sizeof failure, "cannot load ICU: %s has no %s",
             ICU_DL_LIBRARY, name);
  return p;
}

#define ICU_DL_SYM(field, fn)                                                  \
  (fns.field = (__typeof__(fns.field))sym(h, ICU_DL_STR(fn)))

static void open_icu(void) {
  void *h = dlopen(ICU_DL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror(); /* process-wide: copy at once */
    snprintf(failure, sizeof failure, "cannot load ICU: %s",
             e ? e : ICU_DL_LIBRARY ": unknown error");
    return;
  }
  /* Never closed: its caches and the callers' pointers live on. */
  ICU_DL_SYM(idna_open_uts46, uidna_openUTS46);
  ICU_DL_SYM(idna_name_to_ascii, uidna_nameToASCII_UTF8);
  ICU_DL_SYM(idna_close, uidna_close);
  loaded = !failure[0];
}

const icu_fns *icu_dl_load(const char **why, bool *first) {
  pthread_once(&once, open_icu);
  if (loaded)
    return &fns;
  if (why)
    *why = failure;
  if (first)
    *first = !atomic_exchange(&failure_told, true);
  return NULL;
}
