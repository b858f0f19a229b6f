#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "scratch.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char made[256];

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

void scratch_remove(const char *path) {
  nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_made(void) {
  scratch_remove(made);
}

void scratch_dir(const char *name, char *dir, size_t n) {
  if (!made[0]) {
    struct stat st;
    snprintf(made, sizeof made, "%s/mcph-fuzz-%s-XXXXXX",
             stat("/dev/shm", &st) == 0 ? "/dev/shm" : "/tmp", name);
    if (!mkdtemp(made)) {
      abort();
    }
    atexit(remove_made);
  }
  if ((size_t)snprintf(dir, n, "%s", made) >= n) {
    abort();
  }
}
