#include "core/plugin_impl.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "elf_file.h"
#include "trusted_fs.h"

/* "impl" beside the directory holding the stub's real file: the kernel's
 * name of the open file (readlink, one call, where realpath() would walk
 * and stat every component again). */
static int impl_dir(const plugin *p, char *dir, size_t n, mcph_error *err) {
  char byfd[32], self[PATH_MAX];
  proc_fd_path(byfd, p->fd);
  ssize_t len = p->fd < 0 ? -1 : readlink(byfd, self, sizeof self - 1);
  if (len <= 0 || self[0] != '/') {
    return mcph_error_set(err, MCPH_EIO, "cannot tell where %s is", p->path);
  }
  self[len] = '\0';
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
  size_t len_self = (size_t)(parent - self);
  if (len_self + sizeof "/impl" > n) {
    return mcph_error_set(err, MCPH_EIO, "the path %s/impl is too long", self);
  }
  memcpy(dir, self, len_self);
  memcpy(dir + len_self, "/impl", sizeof "/impl");
  return MCPH_OK;
}

/* impl_dir(), as a new string (NULL with `err` set). Not inlined: its
 * buffers (8 KiB) are on the stack only here, not under the walk and
 * dlopen() that follow, nor is a PATH_MAX buffer kept for the result. */
static __attribute__((noinline)) char *impl_dir_new(const plugin *p,
                                                    mcph_error *err) {
  char dir[PATH_MAX];
  return impl_dir(p, dir, sizeof dir, err) == MCPH_OK ? xstrdup(dir) : NULL;
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

void impl_dir_cache_free(impl_dir_cache *c) {
  if (c->open) {
    close(c->fd);
  }
  free(c->dir);
  *c = (impl_dir_cache){0};
}

/* The checked implementation directory `dir` for files of `owner`: the
 * cache's fd when it holds that directory for that owner (every stub of
 * a plugin directory shares it: the walk from "/" is done once), else a
 * new one, kept in the cache when there is one (then not the caller's
 * to close: *own false). -1 with the reason in `why`. */
static int impl_dir_open(impl_dir_cache *c, const char *dir, uid_t owner,
                         bool *own, char *why, size_t n) {
  *own = !c;
  if (c && c->open && !c->beside && c->owner == owner &&
      strcmp(c->dir, dir) == 0) {
    return c->fd;
  }
  int dfd = trusted_fs_open_dir_owned_by(dir, 0, owner, why, n);
  if (c && dfd >= 0) {
    impl_dir_cache_free(c);
    *c = (impl_dir_cache){
        .dir = strdup(dir), .owner = owner, .fd = dfd, .open = true};
    if (!c->dir) {
      *c = (impl_dir_cache){0};
      *own = true; /* not kept: closed by the caller */
    }
  }
  return dfd;
}

/* dlerror()'s text without the name it starts with ("NAME: ..."). */
static const char *without_name(const char *e, const char *name) {
  size_t n = strlen(name);
  if (strncmp(e, name, n) == 0 && e[n] == ':' && e[n + 1] == ' ') {
    return e + n + 2;
  }
  return e;
}

/* The error `fmt`, whose four %s are the implementation's path, `a`,
 * `b`, then the package that installed it when `hint`, else `c`. Not
 * inlined: the path is joined only for a message, so its buffer (4 KiB)
 * is not on the stack under dlopen() and the checked open. */
static __attribute__((noinline)) int
impl_error(mcph_error *err, int code, const char *dir, const plugin *p,
           const char *fmt, const char *a, const char *b, const char *c,
           bool hint) {
  char path[PATH_MAX + NAME_MAX + 2];
  const char *file = p->provides->implementation;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  return mcph_error_set(err, code, fmt, path, a, b,
                        hint ? package_hint(path, file) : c);
}

/* "loaded PATH" at debug (not inlined, for impl_error's reason). */
static __attribute__((noinline)) void log_loaded(const plugin *p,
                                                 const char *dir) {
  char line[PATH_MAX + NAME_MAX + 16];
  snprintf(line, sizeof line, "loaded %s/%s", dir, p->provides->implementation);
  p->handle.api.log(&p->handle.api, MCPH_LOG_DEBUG, p->id, line);
}

/* The implementation directory beside the scanned one (impl_scan), from
 * the cache or opened and kept there; -1 when that does not stand for
 * the walk from "/" (a linked stub; a walk that trusted an owner the
 * stub's does not stand for; the root directory, which has no parent) or
 * fails (then the walk, which says why, is the way). */
static int impl_dir_beside(impl_dir_cache *c, const impl_scan *scan) {
  if (!c || !scan || scan->linked || strcmp(scan->dir, "/") == 0 ||
      (scan->also && *scan->also != scan->owner && *scan->also != 0 &&
       *scan->also != geteuid())) {
    return -1;
  }
  if (c->open && c->beside && c->owner == scan->owner &&
      strcmp(c->dir, scan->dir) == 0) {
    return c->fd;
  }
  int dfd = trusted_fs_open_beside(scan->dir_fd, "impl", &scan->owner);
  char *dir = dfd >= 0 ? strdup(scan->dir) : NULL;
  if (!dir) {
    if (dfd >= 0) {
      close(dfd);
    }
    return -1;
  }
  impl_dir_cache_free(c);
  *c = (impl_dir_cache){.dir = dir,
                        .owner = scan->owner,
                        .fd = dfd,
                        .open = true,
                        .beside = true};
  return dfd;
}

/* Opens p's implementation file, checked (owner, mode, a whole ELF file):
 * returns the fd, with its directory in *dir (the caller's to free); or -1
 * with the reason in `err`. */
static int open_checked(const plugin *p, impl_dir_cache *cache, char **dirp,
                        mcph_error *err) {
  const char *file = p->provides->implementation;
  const char *what = p->name ? p->name : p->id;
  char why[PATH_MAX + 128];
  if (strchr(file, '/') || strcmp(file, "..") == 0 || file[0] == '.') {
    mcph_error_set(err, MCPH_EINVAL,
                   "%s names the implementation \"%s\": a file name in "
                   "the implementation directory is needed",
                   p->path, file);
    return -1;
  }
  char *dir = *dirp = impl_dir_new(p, err);
  if (!dir) {
    return -1;
  }
  struct stat st;
  uid_t owner = fstat(p->fd, &st) == 0 ? st.st_uid : 0;
  bool own;
  int dfd = impl_dir_open(cache, dir, owner, &own, why, sizeof why);
  int fd = dfd < 0 ? -1
                   : trusted_fs_open_code_stat(dfd, dir, file, &owner, &st,
                                               NULL, why, sizeof why);
  if (dfd >= 0 && own) {
    close(dfd);
  }
  if (fd >= 0 &&
      elf_check_note(fd, &st, NULL, 0, NULL, NULL, why, sizeof why) != 0) {
    close(fd); /* dlopen() would die of SIGBUS on a file cut short */
    fd = -1;
  }
  if (fd < 0) {
    impl_error(err, MCPH_ENOTFOUND, dir, p,
               "cannot load %s, the implementation of the %s: %s%s", what, why,
               "", true);
  }
  return fd;
}

int plugin_impl_check(const plugin *p, impl_dir_cache *cache,
                      const impl_scan *scan, mcph_error *err) {
  /* Beside the scanned directory, the file's status is checked: there,
   * and as trusted as an open would find it. Its content is checked by
   * plugin_impl_open before dlopen(), as for every implementation. */
  const char *file = p->provides->implementation;
  int beside = impl_dir_beside(cache, scan);
  if (beside >= 0 && file[0] != '.' &&
      trusted_fs_code_there(beside, file, &scan->owner) == 0) {
    return MCPH_OK;
  }
  /* Else opened and checked whole, from the stub's own path (a link, a
   * file not there or refused: the reason comes from here). */
  char *dir = NULL;
  int fd = open_checked(p, cache, &dir, err);
  free(dir);
  if (fd < 0) {
    return err->code ? err->code : MCPH_ENOTFOUND;
  }
  close(fd);
  return MCPH_OK;
}

int plugin_impl_open(const plugin *p, const mcph_entry **out, mcph_error *err) {
  const char *what = p->name ? p->name : p->id;
  char *dir = NULL;
  int rc;
  int fd = open_checked(p, NULL, &dir, err);
  if (fd < 0) {
    free(dir);
    return err->code ? err->code : MCPH_ENOTFOUND;
  }
  /* Through the checked open file, kept open as the plugin's own: the
   * library is never closed, and /proc/self/fd/N must keep naming it. */
  char byfd[32];
  proc_fd_path(byfd, fd);
  void *h = dlopen(byfd, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror(); /* process-wide: used at once */
    rc = impl_error(err, MCPH_ENOTFOUND, dir, p,
                    "cannot load %s, the implementation of the %s: %s%s", what,
                    e ? without_name(e, byfd) : "unknown error", "", false);
    close(fd);
    free(dir);
    return rc;
  }
  const mcph_entry *impl = dlsym(h, MCPH_ENTRY_SYMBOL);
  if (!impl || impl->abi_major != MCPH_ABI_MAJOR ||
      !MCPH_HAS(impl, mcph_entry, get_extension) || !impl->id ||
      strcmp(impl->id, p->id) != 0 || !impl->init || !impl->get_extension) {
    dlclose(h); /* nothing of it ran */
    close(fd);
    char abi[32];
    snprintf(abi, sizeof abi, "%d.%d", MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
    rc = impl_error(err, MCPH_EABI, dir, p,
                    "%s is not the implementation of %s (plugin ABI %s): "
                    "reinstall mcphost%s",
                    p->id, abi, "", false);
    free(dir);
    return rc;
  }
  log_loaded(p, dir);
  free(dir);
  *out = impl;
  return MCPH_OK;
}
