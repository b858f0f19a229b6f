/* The secrets service's update (ABI 1.6): a read-modify-write of one
 * value under flock(2) on "<key>.lock" beside it, callable from any
 * thread. Life of an update: check the key, open the checked directory,
 * take the lock (30 s at most), read the value (refusing a file that is
 * not a regular file of the user's or is open to others), hand it to the
 * plugin's callback, write what it gave as a new file renamed over the
 * old one, release the lock. Each update opens its own lock file, so
 * threads of one process exclude each other as processes do. Nothing
 * here touches loop state: only the fixed paths of the host and the
 * caller's plugin record. */
#include "core/host_secrets.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "trusted_fs.h"

/* How long a holder may keep the lock before update gives up: a process
 * that hangs holding it costs 30 s, not forever. */
#define LOCK_WAIT_MS 30000
#define LOCK_STEP_MS 50

static int take_lock(int dfd, const char *dir, const char *key,
                     mcph_error *err) {
  char name[128], why[PATH_MAX + 128];
  snprintf(name, sizeof name, "%s.lock", key);
  int fd = trusted_fs_open_file(dfd, dir, name, O_RDWR | O_CREAT, 0600, why,
                                sizeof why);
  if (fd < 0) {
    return mcph_error_set(err, MCPH_EIO, "%s", why);
  }
  for (int waited = 0; waited <= LOCK_WAIT_MS; waited += LOCK_STEP_MS) {
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      return fd;
    }
    if (errno != EWOULDBLOCK && errno != EINTR) {
      break;
    }
    struct timespec ts = {0, LOCK_STEP_MS * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  close(fd);
  return mcph_error_set(err, MCPH_EBUSY,
                        "%s/%s: another mcphost held the lock for %d s", dir,
                        name, LOCK_WAIT_MS / 1000);
}

/* Reads `key` into *out (a new string, NUL-terminated; NULL when there is
 * no such file). MCPH_OK or a negative code with `err`. */
static int read_value(int dfd, const char *dir, const char *key, char **out,
                      size_t *len, mcph_error *err) {
  *out = NULL;
  *len = 0;
  int fd = openat(dfd, key, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
  if (fd < 0 && errno == ENOENT) {
    return MCPH_OK;
  }
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    int rc =
        mcph_error_set(err, MCPH_EIO, "%s/%s: cannot open (%s)", dir, key,
                       errno == ELOOP ? "a symbolic link" : strerror(errno));
    if (fd >= 0) {
      close(fd);
    }
    return rc;
  }
  int rc = MCPH_OK;
  if (!S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
      (sb.st_mode & 077) != 0) {
    rc = mcph_error_set(err, MCPH_EIO,
                        "%s/%s is refused: it must be a regular file of "
                        "yours that no one else may read or write (mode "
                        "0600; it is %04o)",
                        dir, key, (unsigned)(sb.st_mode & 07777));
    goto out;
  }
  if (sb.st_size > MCPH_SECRET_UPDATE_MAX) {
    rc = mcph_error_set(err, MCPH_ETOOBIG, "%s/%s is over %d bytes", dir, key,
                        MCPH_SECRET_UPDATE_MAX);
    goto out;
  }
  char *buf = xmalloc((size_t)sb.st_size + 1);
  size_t n = 0;
  while (n < (size_t)sb.st_size) {
    ssize_t r = read(fd, buf + n, (size_t)sb.st_size - n);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r < 0) {
      rc = mcph_error_set(err, MCPH_EIO, "cannot read %s/%s: %s", dir, key,
                          strerror(errno));
      free(buf);
      goto out;
    }
    if (r == 0) {
      break; /* shorter than it was: what is there is the value */
    }
    n += (size_t)r;
  }
  buf[n] = '\0';
  *out = buf;
  *len = n;
out:
  close(fd);
  return rc;
}

static int write_value(int dfd, const char *dir, const char *key,
                       const char *value, size_t len, mcph_error *err) {
  char tmp[160], why[PATH_MAX + 128];
  snprintf(tmp, sizeof tmp, "%s.tmp-%ld", key, (long)getpid());
  unlinkat(dfd, tmp, 0);
  int fd =
      trusted_fs_open_file(dfd, dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC,
                           0600, why, sizeof why);
  if (fd < 0) {
    return mcph_error_set(err, MCPH_EIO, "%s", why);
  }
  bool ok = true;
  for (size_t off = 0; ok && off < len;) {
    ssize_t w = write(fd, value + off, len - off);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    ok = w > 0;
    off += ok ? (size_t)w : 0;
  }
  ok = ok && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  if (!ok || renameat(dfd, tmp, dfd, key) != 0) {
    int rc = mcph_error_set(err, MCPH_EIO, "cannot write %s/%s: %s", dir, key,
                            strerror(errno));
    unlinkat(dfd, tmp, 0);
    return rc;
  }
  fsync(dfd); /* the rename itself survives a crash */
  return MCPH_OK;
}

int host_secrets_update(const mcph_host *api, const char *key, unsigned flags,
                        mcph_secret_update_cb cb, void *ud, mcph_error *err) {
  if (!cb || (flags & ~(unsigned)(MCPH_SECRET_SHARED | MCPH_SECRET_PEEK))) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "secrets update: no callback, or an unknown flag");
  }
  bool peek = flags & MCPH_SECRET_PEEK;
  char *dir = NULL, *value = NULL;
  size_t len = 0;
  int lock_fd = -1;
  int dfd = host_secrets_open_dir(api, key, flags, !peek, &dir, err);
  int rc = dfd < 0 ? dfd : MCPH_OK;
  if (peek && rc == MCPH_ENOTFOUND) {
    if (err) { /* no store yet: no value either */
      err->code = MCPH_OK;
      err->message[0] = '\0';
    }
    rc = MCPH_OK;
  } else if (rc < 0) {
    goto out;
  }
  if (dfd >= 0 && !peek) {
    lock_fd = take_lock(dfd, dir, key, err);
    if (lock_fd < 0) {
      rc = lock_fd;
      goto out;
    }
  }
  if (dfd >= 0) {
    rc = read_value(dfd, dir, key, &value, &len, err);
    if (rc < 0) {
      goto out;
    }
  }
  mcph_secret_update u = {.struct_size = sizeof u, .value = value, .len = len};
  rc = cb(ud, &u);
  if (rc < 0 || peek || !u.new_value) {
    goto out;
  }
  if (u.new_len > MCPH_SECRET_UPDATE_MAX) {
    rc = mcph_error_set(err, MCPH_ETOOBIG,
                        "%s/%s: a value is at most %d bytes (this one has "
                        "%zu)",
                        dir, key, MCPH_SECRET_UPDATE_MAX, u.new_len);
    goto out;
  }
  if (u.set_aside && value) {
    char aside[160];
    snprintf(aside, sizeof aside, "%s.corrupt-%ld", key, (long)time(NULL));
    renameat(dfd, key, dfd, aside);
  }
  rc = write_value(dfd, dir, key, u.new_value, u.new_len, err);
out:
  if (lock_fd >= 0) {
    flock(lock_fd, LOCK_UN);
    close(lock_fd);
  }
  if (dfd >= 0) {
    close(dfd);
  }
  if (value) {
    explicit_bzero(value, len); /* it may hold tokens */
  }
  free(value);
  free(dir);
  return rc;
}
