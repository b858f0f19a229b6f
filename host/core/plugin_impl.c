#include "core/plugin_impl.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_file.h"
#include "trusted_fs.h"

/* "impl" beside the directory holding the stub's real file. */
static int impl_dir(const plugin *p, char *dir, size_t n, mcph_error *err) {
  char byfd[64], self[PATH_MAX];
  snprintf(byfd, sizeof byfd, "/proc/self/fd/%d", p->fd);
  if (p->fd < 0 || !realpath(byfd, self)) {
    return mcph_error_set(err, MCPH_EIO, "cannot tell where %s is", p->path);
  }
  char *file = strrchr(self, '/');
  char *parent = NULL;
  if (file) {
    *file = '\0';
    parent = strrchr(self, '/');
  }
  if (!parent) {
    return mcph_error_set(err, MCPH_EIO,
                          "cannot tell where the implementation of %s is "
                          "from its path %s",
                          p->path, self);
  }
  *parent = '\0';
  if ((size_t)snprintf(dir, n, "%s/impl", self) >= n) {
    return mcph_error_set(err, MCPH_EIO, "the path %s/impl is too long", self);
  }
  return MCPH_OK;
}

/* For an implementation that is not there at all: the package that
 * installs it, when the build was told (MCPHOST_IMPL_PACKAGES,
 * "FILE=PACKAGE,..."; a distribution that splits the plugins out sets
 * it), as " (installed by the package P)"; else "". */
static const char *package_hint(const char *path, const char *file) {
  static char hint[128];
  const char *list = MCPHOST_IMPL_PACKAGES;
  struct stat st;
  size_t n = strlen(file);
  if (!*list || lstat(path, &st) == 0 || errno != ENOENT) {
    return "";
  }
  for (const char *s = list; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1
                                                        : NULL) {
    if (strncmp(s, file, n) == 0 && s[n] == '=') {
      size_t len = strcspn(s + n + 1, ",");
      snprintf(hint, sizeof hint, " (installed by the package %.*s)",
               (int)len, s + n + 1);
      return hint;
    }
  }
  return "";
}

/* dlerror()'s text without the name it starts with ("NAME: ..."). */
static const char *without_name(const char *e, const char *name) {
  size_t n = strlen(name);
  if (strncmp(e, name, n) == 0 && e[n] == ':' && e[n + 1] == ' ') {
    return e + n + 2;
  }
  return e;
}

/* Opens p's implementation file, checked (owner, mode, a whole ELF file):
 * returns the fd, with its path in `path`; or -1 with the reason in
 * `err`. */
static int open_checked(const plugin *p, char *path, size_t path_len,
                        mcph_error *err) {
  const char *file = p->provides->implementation;
  const char *what = p->name ? p->name : p->id;
  char dir[PATH_MAX], why[PATH_MAX + 128];
  if (strchr(file, '/') || strcmp(file, "..") == 0 || file[0] == '.') {
    mcph_error_set(err, MCPH_EINVAL,
                   "%s names the implementation \"%s\": a file name in "
                   "the implementation directory is needed",
                   p->path, file);
    return -1;
  }
  if (impl_dir(p, dir, sizeof dir, err) != MCPH_OK) {
    return -1;
  }
  snprintf(path, path_len, "%s/%s", dir, file);
  struct stat st;
  uid_t owner = fstat(p->fd, &st) == 0 ? st.st_uid : 0;
  int dfd = trusted_fs_open_dir_owned_by(dir, 0, owner, why, sizeof why);
  int fd = dfd < 0 ? -1
                   : trusted_fs_open_code_owned_by(dfd, dir, file, owner, why,
                                                   sizeof why);
  if (dfd >= 0) {
    close(dfd);
  }
  if (fd >= 0 && elf_check_loadable(fd, why, sizeof why) != 0) {
    close(fd); /* dlopen() would die of SIGBUS on a file cut short */
    fd = -1;
  }
  if (fd < 0) {
    mcph_error_set(err, MCPH_ENOTFOUND,
                   "cannot load %s, the implementation of the %s: %s%s", path,
                   what, why, package_hint(path, file));
  }
  return fd;
}

int plugin_impl_check(const plugin *p, mcph_error *err) {
  char path[PATH_MAX + 64];
  int fd = open_checked(p, path, sizeof path, err);
  if (fd < 0) {
    return err->code ? err->code : MCPH_ENOTFOUND;
  }
  close(fd);
  return MCPH_OK;
}

int plugin_impl_open(const plugin *p, const mcph_entry **out, mcph_error *err) {
  const char *what = p->name ? p->name : p->id;
  char path[PATH_MAX + 64];
  int rc;
  int fd = open_checked(p, path, sizeof path, err);
  if (fd < 0) {
    return err->code ? err->code : MCPH_ENOTFOUND;
  }
  /* Through the checked open file, kept open as the plugin's own: the
   * library is never closed, and /proc/self/fd/N must keep naming it. */
  char byfd[64];
  snprintf(byfd, sizeof byfd, "/proc/self/fd/%d", fd);
  void *h = dlopen(byfd, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror(); /* process-wide: used at once */
    rc = mcph_error_set(
        err, MCPH_ENOTFOUND, "cannot load %s, the implementation of the %s: %s",
        path, what, e ? without_name(e, byfd) : "unknown error");
    close(fd);
    return rc;
  }
  const mcph_entry *impl = dlsym(h, MCPH_ENTRY_SYMBOL);
  if (!impl || impl->abi_major != MCPH_ABI_MAJOR ||
      !MCPH_HAS(impl, mcph_entry, get_extension) || !impl->id ||
      strcmp(impl->id, p->id) != 0 || !impl->init || !impl->get_extension) {
    dlclose(h); /* nothing of it ran */
    close(fd);
    return mcph_error_set(err, MCPH_EABI,
                          "%s is not the implementation of %s (plugin ABI "
                          "%d.%d): reinstall mcphost",
                          path, p->id, MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  char line[PATH_MAX + 80];
  snprintf(line, sizeof line, "loaded %s", path);
  p->handle.api.log(&p->handle.api, MCPH_LOG_DEBUG, p->id, line);
  *out = impl;
  return MCPH_OK;
}
