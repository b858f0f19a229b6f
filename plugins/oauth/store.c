/* The credential file, $XDG_STATE_HOME/mcphost/credentials.json: one JSON
 * document {"version":1,"mcpOAuth":{"<name>|<hash16>":{...}}} shared by
 * every mcphost process of the user. Each read-modify-write, and each
 * refresh, runs under flock on credentials.json.lock, so two processes
 * never both spend a rotating refresh token; each write replaces the file
 * whole (a temporary file, fsync, rename), so a reader never sees half of
 * one. The directory is checked as every state directory is
 * (common/trusted_fs.h) and kept 0700; the file must be the user's and
 * closed to others (0600), or it is refused. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "oauth.h"
#include "trusted_fs.h"

#define FILE_NAME "credentials.json"
#define LOCK_NAME "credentials.json.lock"
#define FILE_MAX (4 * 1024 * 1024)

static int open_dir(oauth_store *st, char *why, size_t why_len) {
  return trusted_fs_open_dir(st->dir, TRUSTED_FS_CREATE | TRUSTED_FS_PRIVATE,
                             why, why_len);
}

int store_lock(oauth_store *st, char *why, size_t why_len) {
  int dfd = open_dir(st, why, why_len);
  if (dfd < 0) {
    return -1;
  }
  int fd = trusted_fs_open_file(dfd, st->dir, LOCK_NAME, O_RDWR | O_CREAT, 0600,
                                why, why_len);
  close(dfd);
  if (fd < 0) {
    return -1;
  }
  /* Bounded: a process that hangs holding the lock costs 30 s, not
   * forever. */
  for (int i = 0; i < 300; i++) {
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      st->lock_fd = fd;
      return 0;
    }
    if (errno != EWOULDBLOCK && errno != EINTR) {
      break;
    }
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  snprintf(why, why_len, "%s/%s: another mcphost holds the lock", st->dir,
           LOCK_NAME);
  close(fd);
  return -1;
}

void store_unlock(oauth_store *st) {
  if (st->lock_fd > 0) {
    flock(st->lock_fd, LOCK_UN);
    close(st->lock_fd);
  }
  st->lock_fd = -1;
}

static cJSON *empty_doc(void) {
  cJSON *d = cJSON_CreateObject();
  cJSON_AddNumberToObject(d, "version", 1);
  cJSON_AddObjectToObject(d, "mcpOAuth");
  return d;
}

cJSON *store_read(oauth_store *st, char *why, size_t why_len) {
  int dfd = open_dir(st, why, why_len);
  if (dfd < 0) {
    return NULL;
  }
  cJSON *doc = NULL;
  char *text = NULL;
  int fd = openat(dfd, FILE_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    doc = empty_doc();
    goto out;
  }
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    snprintf(why, why_len, "%s: cannot open (%s)", st->path,
             errno == ELOOP ? "a symbolic link" : strerror(errno));
    goto out;
  }
  if (!S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
      (sb.st_mode & 077) != 0) {
    snprintf(why, why_len,
             "%s is refused: it must be a regular file of yours that no "
             "one else may read or write (mode 0600; it is %04o)",
             st->path, (unsigned)(sb.st_mode & 07777));
    goto out;
  }
  if (sb.st_size > FILE_MAX) {
    snprintf(why, why_len, "%s is over 4 MiB", st->path);
    goto out;
  }
  text = oauth_calloc(1, (size_t)sb.st_size + 1);
  ssize_t n = read(fd, text, (size_t)sb.st_size);
  doc = n >= 0 ? cJSON_Parse(text) : NULL;
  if (!doc || !cJSON_IsObject(doc)) {
    /* Never overwrite what cannot be read: keep it aside for the user. */
    cJSON_Delete(doc);
    char aside[64];
    snprintf(aside, sizeof aside, FILE_NAME ".corrupt-%ld", (long)time(NULL));
    renameat(dfd, FILE_NAME, dfd, aside);
    doc = empty_doc();
    goto out;
  }
  if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "mcpOAuth"))) {
    cJSON_DeleteItemFromObjectCaseSensitive(doc, "mcpOAuth");
    cJSON_AddObjectToObject(doc, "mcpOAuth");
  }
out:
  free(text);
  if (fd >= 0) {
    close(fd);
  }
  close(dfd);
  return doc;
}

int store_write(oauth_store *st, const cJSON *doc, char *why, size_t why_len) {
  int dfd = open_dir(st, why, why_len);
  if (dfd < 0) {
    return -1;
  }
  int ret = -1;
  char tmp[64];
  snprintf(tmp, sizeof tmp, FILE_NAME ".tmp-%ld", (long)getpid());
  char *text = cJSON_PrintUnformatted(doc);
  unlinkat(dfd, tmp, 0);
  int fd = openat(dfd, tmp,
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 || !text) {
    snprintf(why, why_len, "%s: cannot write (%s)", st->path, strerror(errno));
    goto out;
  }
  size_t len = strlen(text), off = 0;
  while (off < len) {
    ssize_t n = write(fd, text + off, len - off);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      snprintf(why, why_len, "%s: cannot write (%s)", st->path,
               strerror(errno));
      goto out;
    }
    off += (size_t)n;
  }
  if (fsync(fd) != 0 || renameat(dfd, tmp, dfd, FILE_NAME) != 0) {
    snprintf(why, why_len, "%s: cannot write (%s)", st->path, strerror(errno));
    goto out;
  }
  fsync(dfd);
  ret = 0;
out:
  if (fd >= 0) {
    close(fd);
    if (ret != 0) {
      unlinkat(dfd, tmp, 0);
    }
  }
  cJSON_free(text);
  close(dfd);
  return ret;
}

cJSON *store_entry(cJSON *doc, const char *key, bool create) {
  cJSON *all = cJSON_GetObjectItemCaseSensitive(doc, "mcpOAuth");
  cJSON *e = cJSON_GetObjectItemCaseSensitive(all, key);
  if (!e && create && all) {
    e = cJSON_AddObjectToObject(all, key);
  }
  return cJSON_IsObject(e) ? e : NULL;
}
