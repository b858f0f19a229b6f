/* The CLI's files in the state directory (state_files.h). */
#include "cli/interactive/state_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trusted_fs.h"
#include "util.h"

/* The directory of `*name` opened (made when `create`), *dir its path
 * (the caller frees it) and *name moved to the file's own name: `name`
 * is a file of the state directory, or "SUB/FILE", a file of its
 * directory SUB (made 0700 as the state directory is). */
static int open_dir(mcphost_client *c, const char **name, bool create,
                    char **dir, char *why, size_t why_len) {
  const char *state = mcphost_path(c, MCPHOST_PATH_STATE);
  *dir = NULL;
  if (!state) {
    if (why_len) {
      snprintf(why, why_len, "no per-user state directory (no home)");
    }
    errno = ENOENT;
    return -1;
  }
  const char *slash = strchr(*name, '/');
  if (slash) {
    char *sub = xstrndup(*name, (size_t)(slash - *name));
    *dir = path_join(state, sub);
    free(sub);
    *name = slash + 1;
  } else {
    *dir = xstrdup(state);
  }
  return trusted_fs_open_dir(
      *dir, TRUSTED_FS_PRIVATE | (create ? TRUSTED_FS_CREATE : 0), why,
      why_len);
}

int state_file_open(mcphost_client *c, const char *name, int oflags, char *why,
                    size_t why_len) {
  char *dir;
  int dfd = open_dir(c, &name, (oflags & O_CREAT) != 0, &dir, why, why_len);
  int fd = dfd < 0 ? -1
                   : trusted_fs_open_file(dfd, dir, name, oflags, 0600, why,
                                          why_len);
  int e = errno;
  if (dfd >= 0) {
    close(dfd);
  }
  free(dir);
  errno = e;
  return fd;
}

char *state_file_read(mcphost_client *c, const char *name, size_t *len) {
  /* Not there yet (a first run): as the checked open would find. */
  const char *dir = mcphost_path(c, MCPHOST_PATH_STATE);
  char *path = dir ? path_join(dir, name) : NULL;
  bool none = path && path_missing(path);
  free(path);
  if (none) {
    return NULL;
  }
  /* Why it cannot be opened is not said (it reads as none), so no
   * buffer for it on the stack under the walk. */
  int fd = state_file_open(c, name, O_RDONLY, NULL, 0);
  if (fd < 0) {
    return NULL;
  }
  /* Read into the buffer it is returned in (1 KiB, then doubling): no
   * second buffer on the stack under the read. */
  strbuf b;
  sb_init(&b);
  ssize_t n;
  for (;;) {
    size_t want = b.len < 1024 ? 1024 : b.len;
    char *at = sb_extend(&b, want);
    n = read(fd, at, want);
    b.len -= want - (n > 0 ? (size_t)n : 0);
    b.data[b.len] = '\0';
    if (n == 0 || (n < 0 && errno != EINTR)) {
      break;
    }
  }
  close(fd);
  if (n < 0) {
    sb_free(&b);
    return NULL;
  }
  if (len) {
    *len = b.len;
  }
  return sb_take(&b);
}

int state_file_write(mcphost_client *c, const char *name, const char *data,
                     size_t len, char *why, size_t why_len) {
  char *dir;
  int dfd = open_dir(c, &name, true, &dir, why, why_len);
  if (dfd < 0) {
    free(dir);
    return -1;
  }
  char tmp[NAME_MAX + 32];
  snprintf(tmp, sizeof tmp, ".%.200s.%ld.new", name, (long)getpid());
  unlinkat(dfd, tmp, 0);
  int rc = -1;
  int fd = trusted_fs_open_file(dfd, dir, tmp, O_WRONLY | O_CREAT | O_EXCL,
                                0600, why, why_len);
  if (fd < 0) {
    goto out;
  }
  bool ok = true;
  for (size_t off = 0; ok && off < len;) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    ok = w > 0;
    off += ok ? (size_t)w : 0;
  }
  ok = close(fd) == 0 && ok;
  if (!ok || renameat(dfd, tmp, dfd, name) != 0) {
    snprintf(why, why_len, "cannot write %s/%s: %s", dir, name,
             strerror(errno));
    unlinkat(dfd, tmp, 0);
    goto out;
  }
  rc = 0;
out:
  close(dfd);
  free(dir);
  return rc;
}
