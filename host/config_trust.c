#include "config_trust.h"

#include <errno.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

bool trust_path_within(const char *path, const char *dir) {
  size_t n = strlen(dir);
  if (n == 1 && dir[0] == '/')
    return path[0] == '/';
  return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static bool owner_ok(uid_t owner) {
  return owner == geteuid() || owner == 0;
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

int trust_project_file(const char *path, const char *tree, char *why,
                       size_t why_len) {
  int rc = trust_project_link(path, tree, why, why_len);
  if (rc != 0)
    return rc;
  struct stat st;
  if (stat(path, &st) < 0)
    return 0; /* dangling: the reader reports it */
  char who[128];
  if (!owner_ok(st.st_uid)) {
    owner_text(st.st_uid, who, sizeof who);
    snprintf(why, why_len,
             "%s: skipped: owned by %s, not by you or root; another user "
             "may have written it",
             path, who);
    return -1;
  }
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    snprintf(why, why_len,
             "%s: skipped: writable by its group or by others (mode %04o)",
             path, (unsigned)(st.st_mode & 07777));
    return -1;
  }
  char *real = realpath(path, NULL);
  char *copy = xstrdup(real ? real : path);
  const char *dir = dirname(copy);
  struct stat dst;
  rc = 0;
  if (stat(dir, &dst) < 0) {
    snprintf(why, why_len, "%s: skipped: cannot stat its directory %s: %s",
             path, dir, strerror(errno));
    rc = -1;
  } else if (!owner_ok(dst.st_uid)) {
    owner_text(dst.st_uid, who, sizeof who);
    snprintf(why, why_len,
             "%s: skipped: its directory %s is owned by %s, not by you or "
             "root",
             path, dir, who);
    rc = -1;
  } else if ((dst.st_mode & (S_IWGRP | S_IWOTH)) &&
             !((dst.st_mode & S_ISVTX) && st.st_uid == geteuid())) {
    snprintf(why, why_len,
             "%s: skipped: its directory %s is writable by its group or by "
             "others (mode %04o)%s",
             path, dir, (unsigned)(dst.st_mode & 07777),
             dst.st_mode & S_ISVTX ? " and the file is not yours" : "");
    rc = -1;
  }
  free(copy);
  free(real);
  return rc;
}
