/* Opening the bundle plugin's other libraries; see impl_open.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "impl_open.h"

#include <mcphost/plugin.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_file.h"
#include "trusted_fs.h"

const void *mcpb_impl_open(const void *anchor, const char *file, const char *id,
                           const char *ext, char *err, size_t n) {
  /* The host opened the library holding `anchor` through
   * /proc/self/fd/N: dladdr and realpath name its file. */
  Dl_info info;
  char self[PATH_MAX], dir[PATH_MAX + 16], why[PATH_MAX + 256];
  struct stat st;
  if (!dladdr(anchor, &info) || !info.dli_fname ||
      !realpath(info.dli_fname, self) || stat(self, &st) < 0) {
    snprintf(err, n, "cannot tell where the bundle plugin was loaded from");
    return NULL;
  }
  char *slash = strrchr(self, '/');
  if (slash) {
    *slash = '\0';
    slash = strrchr(self, '/');
  }
  if (!slash) {
    snprintf(err, n, "cannot tell where %s is from %s", file, self);
    return NULL;
  }
  *slash = '\0';
  snprintf(dir, sizeof dir, "%s/impl", self);
  int dfd = trusted_fs_open_dir_owned_by(dir, 0, st.st_uid, why, sizeof why);
  int fd = dfd < 0 ? -1
                   : trusted_fs_open_code_owned_by(dfd, dir, file, st.st_uid,
                                                   why, sizeof why);
  if (dfd >= 0) {
    close(dfd);
  }
  if (fd >= 0 && elf_check_loadable(fd, why, sizeof why) != 0) {
    close(fd); /* dlopen() would die of SIGBUS on a file cut short */
    fd = -1;
  }
  if (fd < 0) {
    snprintf(err, n, "cannot load %s/%s: %s", dir, file, why);
    return NULL;
  }
  /* The fd stays open: /proc/self/fd/N must keep naming the library. */
  char byfd[64];
  snprintf(byfd, sizeof byfd, "/proc/self/fd/%d", fd);
  void *h = dlopen(byfd, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror(); /* process-wide: copied at once */
    snprintf(err, n, "cannot load %s/%s: %s", dir, file,
             e ? e : "unknown error");
    close(fd);
    return NULL;
  }
  const mcph_entry *e = dlsym(h, MCPH_ENTRY_SYMBOL);
  const void *x = e && e->abi_major == MCPH_ABI_MAJOR && e->id &&
                          strcmp(e->id, id) == 0 && e->get_extension
                      ? e->get_extension(NULL, ext)
                      : NULL;
  if (!x) {
    snprintf(err, n, "%s/%s is not a library of this build's bundle plugin",
             dir, file);
  }
  return x;
}
