#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fsutil.h"
#include "write_all.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fs_remove_tree(int dirfd, const char *name) {
  struct stat st;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
    return errno == ENOENT ? 0 : -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    return unlinkat(dirfd, name, 0);
  }
  int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    return -1;
  }
  DIR *d = fdopendir(fd);
  if (!d) {
    close(fd);
    return -1;
  }
  int rc = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
      continue;
    }
    if (fs_remove_tree(fd, de->d_name) < 0) {
      rc = -1;
    }
  }
  closedir(d);
  if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0) {
    rc = -1;
  }
  return rc;
}

char *fs_read_at(int dirfd, const char *name, size_t max, size_t *len) {
  int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    return NULL;
  }
  char *buf = NULL;
  struct stat st;
  if (fstat(fd, &st) < 0) {
    goto out;
  }
  if (!S_ISREG(st.st_mode)) {
    errno = EINVAL;
    goto out;
  }
  if ((unsigned long long)st.st_size > max) {
    errno = EFBIG;
    goto out;
  }
  size_t size = (size_t)st.st_size, got = 0;
  buf = malloc(size + 1);
  if (!buf) {
    goto out;
  }
  while (got < size) {
    ssize_t r = read(fd, buf + got, size - got);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r <= 0) {
      free(buf);
      buf = NULL;
      if (r == 0) {
        errno = EIO;
      }
      goto out;
    }
    got += (size_t)r;
  }
  buf[got] = '\0';
  if (len) {
    *len = got;
  }
out:
  close(fd);
  return buf;
}

unsigned char *fs_read_path(const char *path, size_t max, size_t *len,
                            char *err, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, n, "%s", strerror(errno));
    return NULL;
  }
  unsigned char *buf = NULL;
  size_t cap = 0, got = 0;
  for (;;) {
    if (got == cap) {
      if (cap >= max) {
        snprintf(err, n, "larger than the limit of %zu bytes", max);
        goto fail;
      }
      cap = cap ? cap * 2 : 1u << 16;
      if (cap > max) {
        cap = max;
      }
      unsigned char *grown = realloc(buf, cap + 1);
      if (!grown) {
        abort();
      }
      buf = grown;
    }
    size_t r = fread(buf + got, 1, cap - got, f);
    got += r;
    if (r == 0) {
      break;
    }
  }
  if (ferror(f)) {
    snprintf(err, n, "read error");
    goto fail;
  }
  fclose(f);
  *len = got;
  return buf;
fail:
  free(buf);
  fclose(f);
  return NULL;
}

int fs_write_at(int dirfd, const char *name, const void *data, size_t len,
                unsigned mode) {
  char tmp[512];
  if ((size_t)snprintf(tmp, sizeof tmp, ".%s.tmp%ld", name, (long)getpid()) >=
      sizeof tmp) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int fd =
      openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
             (mode_t)mode);
  if (fd < 0) {
    return -1;
  }
  if (write_all(fd, data, len) < 0) {
    int saved = errno;
    close(fd);
    unlinkat(dirfd, tmp, 0);
    errno = saved;
    return -1;
  }
  int bad = fchmod(fd, (mode_t)mode) < 0 || fsync(fd) < 0;
  int e = errno;
  if (close(fd) < 0 && !bad) {
    bad = 1;
    e = errno;
  }
  if (bad) {
    unlinkat(dirfd, tmp, 0);
    errno = e;
    return -1;
  }
  if (renameat(dirfd, tmp, dirfd, name) < 0) {
    e = errno;
    unlinkat(dirfd, tmp, 0);
    errno = e;
    return -1;
  }
  return 0;
}
