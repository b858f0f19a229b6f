#include "curl_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static curl_dl table;
static int state; /* 0 not tried, 1 loaded, -1 failed */
static char failure[256];

/* A data pointer from dlsym becomes a function pointer through memcpy:
 * ISO C has no cast between the two. */
static int sym(void *lib, const char *name, void *fn, size_t size) {
  void *p = dlsym(lib, name);
  if (!p) {
    snprintf(failure, sizeof failure, "libcurl has no %s", name);
    return -1;
  }
  memcpy(fn, &p, size);
  return 0;
}

#define SYM(lib, field, name) sym(lib, name, &table.field, sizeof table.field)

const curl_dl *curl_dl_get(char *why, size_t size) {
  if (state == 0) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *e = dlerror();
      snprintf(failure, sizeof failure, "cannot load libcurl: %s",
               e ? e : "unknown error");
      state = -1;
    } else if (SYM(lib, easy_init, "curl_easy_init") < 0 ||
               SYM(lib, easy_setopt, "curl_easy_setopt") < 0 ||
               SYM(lib, easy_perform, "curl_easy_perform") < 0 ||
               SYM(lib, easy_getinfo, "curl_easy_getinfo") < 0 ||
               SYM(lib, easy_cleanup, "curl_easy_cleanup") < 0 ||
               SYM(lib, easy_strerror, "curl_easy_strerror") < 0 ||
               SYM(lib, slist_append, "curl_slist_append") < 0 ||
               SYM(lib, slist_free_all, "curl_slist_free_all") < 0) {
      state = -1;
    } else {
      state = 1;
    }
  }
  if (state < 0) {
    snprintf(why, size, "%s", failure);
    return NULL;
  }
  return &table;
}
