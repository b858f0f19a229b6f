#include "config/config_trust.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "trusted_fs.h"

bool trust_path_within(const char *path, const char *dir) {
  size_t n = strlen(dir);
  if (n == 1 && dir[0] == '/')
    return path[0] == '/';
  return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The one ownership rule (trusted_fs.h), with group write by the user's
 * private group counted as the user's own: a checkout made under umask
 * 002 is group-writable. */
static bool owner_ok(const struct stat *st) {
  return trusted_fs_check_owner(st, NULL, TRUSTED_FS_PRIVATE_GROUP) !=
         TRUSTED_FS_FOREIGN;
}

static bool others_write(const struct stat *st) {
  return trusted_fs_check_owner(st, NULL, TRUSTED_FS_PRIVATE_GROUP) ==
         TRUSTED_FS_SHARED_WRITE;
}

/* "uid 1001 (mallory)" for messages. */
static void owner_text(uid_t uid, char *buf, size_t len) {
  const struct passwd *pw = getpwuid(uid);
  if (pw && pw->pw_name)
    snprintf(buf, len, "uid %u (%s)", (unsigned)uid, pw->pw_name);
  else
    snprintf(buf, len, "uid %u", (unsigned)uid);
}

int trust_project_link(const char *path, const char *tree, char *why,
                       size_t why_len) {
  struct stat lst;
  if (lstat(path, &lst) < 0) {
    if (errno == ENOENT)
      return 1;
    snprintf(why, why_len, "%s: cannot stat: %s", path, strerror(errno));
    return -1;
  }
  if (!S_ISLNK(lst.st_mode))
    return 0;
  char *real = realpath(path, NULL);
  if (!real) {
    /* A dangling link: the reader and the writer say so themselves. */
    return 0;
  }
  int rc = 0;
  if (!trust_path_within(real, tree)) {
    snprintf(why, why_len,
             "%s: a symbolic link to %s, outside the project tree %s; "
             "refused",
             path, real, tree);
    rc = -1;
  }
  free(real);
  return rc;
}

/* Whether the directory `dir` (resolved) and every one above it could
 * be changed by nobody else. `dir` itself: owned by the user or root and
 * not writable by others, except a sticky one holding the user's own file
 * (`own_file`). Above it: writable by others only when sticky and owned
 * by root (/tmp), since whoever may write a parent may rename the
 * directory below it and put another in its place. */
static int trust_ancestors(const char *path, const char *dir, bool own_file,
                           char *why, size_t why_len) {
  char *d = xstrdup(dir);
  int rc = 0;
  for (bool first = true; rc == 0; first = false) {
    struct stat dst;
    char who[128];
    if (stat(d, &dst) < 0) {
      snprintf(why, why_len, "%s: skipped: cannot stat its directory %s: %s",
               path, d, strerror(errno));
      rc = -1;
    } else if (!owner_ok(&dst)) {
      owner_text(dst.st_uid, who, sizeof who);
      snprintf(why, why_len,
               "%s: skipped: %s %s is owned by %s, not by you or root", path,
               first ? "its directory" : "the directory above it", d, who);
      rc = -1;
    } else if (others_write(&dst) && first &&
               !((dst.st_mode & S_ISVTX) && own_file)) {
      snprintf(why, why_len,
               "%s: skipped: its directory %s is writable by its group or "
               "by others (mode %04o)%s",
               path, d, (unsigned)(dst.st_mode & 07777),
               dst.st_mode & S_ISVTX ? " and the file is not yours" : "");
      rc = -1;
    } else if (others_write(&dst) && !first &&
               !((dst.st_mode & S_ISVTX) && dst.st_uid == 0)) {
      snprintf(why, why_len,
               "%s: skipped: the directory above it %s is writable by its "
               "group or by others (mode %04o) and not a sticky directory "
               "of root's: another user could replace the directories below",
               path, d, (unsigned)(dst.st_mode & 07777));
      rc = -1;
    }
    if (rc != 0 || strcmp(d, "/") == 0)
      break;
    char *slash = strrchr(d, '/');
    if (slash == d)
      slash[1] = '\0';
    else
      *slash = '\0';
  }
  free(d);
  return rc;
}

int trust_project_open(const char *path, const char *tree, int *fd_out,
                       char *why, size_t why_len) {
  *fd_out = -1;
  int rc = trust_project_link(path, tree, why, why_len);
  if (rc != 0)
    return rc;
  /* The link check resolved any link inside the tree: the resolved path
   * is opened without following another, and what is checked below is
   * the file open on the fd, the one then read. */
  char *real = realpath(path, NULL);
  if (!real) {
    struct stat lst;
    /* A dangling link: 0 without an fd, and the reader reports it. */
    return lstat(path, &lst) == 0 ? 0 : 1;
  }
  int fd =
      open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int e = errno;
    snprintf(why, why_len, "%s: skipped: cannot open: %s", path, strerror(e));
    free(real);
    return e == ENOENT ? 1 : -1;
  }
  struct stat st;
  char who[128];
  rc = 0;
  if (fstat(fd, &st) < 0) {
    snprintf(why, why_len, "%s: skipped: cannot stat: %s", path,
             strerror(errno));
    rc = -1;
  } else if (!owner_ok(&st)) {
    owner_text(st.st_uid, who, sizeof who);
    snprintf(why, why_len,
             "%s: skipped: owned by %s, not by you or root; another user "
             "may have written it",
             path, who);
    rc = -1;
  } else if (others_write(&st)) {
    snprintf(why, why_len,
             "%s: skipped: writable by its group or by others (mode %04o)",
             path, (unsigned)(st.st_mode & 07777));
    rc = -1;
  } else {
    char *copy = xstrdup(real);
    rc = trust_ancestors(path, dirname(copy), st.st_uid == geteuid(), why,
                         why_len);
    free(copy);
  }
  free(real);
  if (rc != 0) {
    close(fd);
    return rc;
  }
  *fd_out = fd;
  return 0;
}

int trust_project_file(const char *path, const char *tree, char *why,
                       size_t why_len) {
  int fd;
  int rc = trust_project_open(path, tree, &fd, why, why_len);
  if (fd >= 0)
    close(fd);
  return rc;
}
