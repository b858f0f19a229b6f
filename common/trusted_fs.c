/* Trusted files and directories; see trusted_fs.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_PATH */
#endif
#include "trusted_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fnv.h"

static int fail(int err, char *why, size_t why_len, const char *fmt,
                const char *path, const char *detail) {
  if (why && why_len) {
    snprintf(why, why_len, fmt, path, detail);
  }
  errno = err;
  return -1;
}

/* fail() with `fmt` saying "dir/name" and `detail`. Not inlined: the
 * path is joined only for a message, so its buffer (4 KiB) is on the
 * stack only then, not under every open and step of a walk. */
static __attribute__((noinline)) int
name_fail(int err, char *why, size_t why_len, const char *fmt, const char *dir,
          const char *name, const char *detail) {
  char shown[PATH_MAX + NAME_MAX + 2];
  snprintf(shown, sizeof shown, "%s%s%s", dir ? dir : ".",
           dir && strcmp(dir, "/") == 0 ? "" : "/", name);
  return fail(err, why, why_len, fmt, shown, detail);
}

/* Whether group `gid` is the user's private group (TRUSTED_FS_PRIVATE_
 * GROUP). The name is copied before getgrgid(), which may reuse the
 * buffer getpwuid() returned. */
static bool group_is_private(gid_t gid) {
  const struct passwd *pw = getpwuid(geteuid());
  if (!pw || pw->pw_gid != gid || !pw->pw_name) {
    return false;
  }
  char user[256];
  if (snprintf(user, sizeof user, "%s", pw->pw_name) >= (int)sizeof user) {
    return false;
  }
  const struct group *gr = getgrgid(gid);
  bool private = gr && gr->gr_name && strcmp(gr->gr_name, user) == 0;
  for (char **m = private ? gr->gr_mem : NULL; m && *m && private; m++) {
    private = strcmp(*m, user) == 0;
  }
  return private;
}

trusted_fs_verdict trusted_fs_check_owner(const struct stat *st,
                                          const uid_t *also, unsigned flags) {
  /* geteuid() last: root's files (installed plugins, system
   * directories) need no system call. */
  if (st->st_uid != 0 && !(also && st->st_uid == *also) &&
      st->st_uid != geteuid()) {
    return TRUSTED_FS_FOREIGN;
  }
  if ((st->st_mode & S_IWOTH) ||
      ((st->st_mode & S_IWGRP) &&
       !((flags & TRUSTED_FS_PRIVATE_GROUP) && group_is_private(st->st_gid)))) {
    return TRUSTED_FS_SHARED_WRITE;
  }
  return TRUSTED_FS_OWN;
}

int trusted_fs_check_secret(const struct stat *st, const char *path, char *why,
                            size_t why_len) {
  char detail[64];
  if (!S_ISREG(st->st_mode)) {
    return fail(EPERM, why, why_len,
                "%s is refused: it is not a regular file%s", path, "");
  }
  if (trusted_fs_check_owner(st, NULL, 0) == TRUSTED_FS_FOREIGN) {
    snprintf(detail, sizeof detail, "%lu", (unsigned long)st->st_uid);
    return fail(EPERM, why, why_len,
                "%s is refused: it is owned by uid %s, not by you; another "
                "user may have written it",
                path, detail);
  }
  if (st->st_mode & 077) {
    /* Writable by others lets them plant a token; readable lets them
     * take one. */
    snprintf(detail, sizeof detail, "%s (mode %04o); it must be 0600",
             st->st_mode & 022 ? "others may write it" : "others may read it",
             (unsigned)(st->st_mode & 07777));
    return fail(EPERM, why, why_len, "%s is refused: %s", path, detail);
  }
  return 0;
}

/* `also`: one more owner trusted, or NULL (trusted_fs_open_dir_owned_by). */
static bool owner_ok(const struct stat *st, const uid_t *also) {
  return trusted_fs_check_owner(st, also, 0) != TRUSTED_FS_FOREIGN;
}

/* The checks of one component; `last` is the directory asked for. */
static int check_dir(const struct stat *st, const char *path, bool last,
                     unsigned flags, const uid_t *also, char *why,
                     size_t why_len) {
  if (!S_ISDIR(st->st_mode)) {
    return fail(ENOTDIR, why, why_len, "%s is not a directory%s", path, "");
  }
  trusted_fs_verdict v = trusted_fs_check_owner(st, also, 0);
  if (v == TRUSTED_FS_FOREIGN) {
    char who[48];
    snprintf(who, sizeof who, "%lu", (unsigned long)st->st_uid);
    return fail(EPERM, why, why_len,
                "%s is owned by uid %s, not by you or root; refusing it", path,
                who);
  }
  bool shared = v == TRUSTED_FS_SHARED_WRITE;
  if (shared && (last || !(st->st_mode & S_ISVTX) || st->st_uid != 0)) {
    return fail(EPERM, why, why_len, "%s is writable by %s; refusing it", path,
                st->st_mode & S_IWOTH ? "everyone" : "its group");
  }
  if (last && (flags & TRUSTED_FS_PRIVATE) && (st->st_mode & 077)) {
    return fail(EPERM, why, why_len,
                "%s is open to other users (mode %s); it must be 0700", path,
                st->st_mode & 070 ? "g+rwx" : "o+rwx");
  }
  return 0;
}

#define MAX_LINKS 40      /* as the kernel's own limit */
#define FILE_NAME_MAX 100 /* bytes of a file name made from a name */
#define FILE_NAME_MARK 9  /* "-" and 8 hex digits */

/* A symbolic link may be followed when it is the user's or root's: only
 * they can have made it in a directory that passed the checks, and in a
 * sticky one only its owner can replace it. */
static int check_link(int dir_fd, const char *dir, const char *name,
                      char *target, size_t size, const uid_t *also, char *why,
                      size_t why_len) {
  struct stat st;
  if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    int err = errno;
    return name_fail(err, why, why_len, "cannot check %s: %s", dir, name,
                     strerror(err));
  }
  if (!S_ISLNK(st.st_mode)) {
    return name_fail(ENOTDIR, why, why_len, "%s is not a directory%s", dir,
                     name, "");
  }
  if (!owner_ok(&st, also)) {
    char who[48];
    snprintf(who, sizeof who, "%lu", (unsigned long)st.st_uid);
    return name_fail(EPERM, why, why_len,
                     "%s is a link made by uid %s, not by you or root; "
                     "refusing it",
                     dir, name, who);
  }
  ssize_t n = readlinkat(dir_fd, name, target, size - 1);
  if (n <= 0 || (size_t)n >= size - 1) {
    return name_fail(ENAMETOOLONG, why, why_len, "cannot read the link %s%s",
                     dir, name, "");
  }
  target[n] = '\0';
  return 0;
}

#define PENDING_MAX (PATH_MAX * 2) /* a path with the links' targets */

/* The walk: `pending` holds what is left of the path (malloc'ed at its
 * length, grown by a link's target, below PENDING_MAX bytes); `at` the
 * checked path so far (no links, no dots), `fd` its O_PATH descriptor. */
typedef struct walk {
  char *pending;
  char at[PATH_MAX];
  int fd;
  int links;
  const uid_t *also;
  bool readable; /* fd is the last directory's, open for reading */
} walk;

/* `s` past its leading slashes. Not strspn(), nor strcspn() below: in
 * glibc those two are alone in a 64 KiB window of its code, which a cold
 * command then maps for them (docs/architecture.md, "The executable's
 * layout"). */
static char *past_slashes(char *s) {
  while (*s == '/') {
    s++;
  }
  return s;
}

/* Takes the next component of w->pending into `name`: 1, 0 at the end,
 * -1 for one longer than `size` - 1 (ENAMETOOLONG, as the kernel says:
 * never cut, which would walk its rest as one more component). */
static int next_name(walk *w, char *name, size_t size) {
  char *p = past_slashes(w->pending);
  size_t n = (size_t)(strchrnul(p, '/') - p);
  if (n == 0) {
    return 0;
  }
  if (n >= size) {
    return -1;
  }
  memcpy(name, p, n);
  name[n] = '\0';
  memmove(w->pending, p + n, strlen(p + n) + 1);
  return 1;
}

static bool at_end(const walk *w) {
  return *past_slashes(w->pending) == '\0';
}

static void at_push(walk *w, const char *name) {
  size_t n = strlen(w->at), len = strlen(name);
  if (!(n > 0 && w->at[n - 1] == '/') && n + 1 < sizeof w->at) {
    w->at[n++] = '/';
  }
  if (len >= sizeof w->at - n) {
    len = sizeof w->at - n - 1;
  }
  memcpy(w->at + n, name, len);
  w->at[n + len] = '\0';
}

static void at_pop(walk *w) {
  char *slash = strrchr(w->at, '/');
  if (slash) {
    slash[slash == w->at ? 1 : 0] = '\0';
  }
}

/* Goes back to "/" (for an absolute link target). */
static int walk_root(walk *w, char *why, size_t why_len) {
  int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    return fail(err, why, why_len, "cannot open %s: %s", "/", strerror(err));
  }
  if (w->fd >= 0) {
    close(w->fd);
  }
  w->fd = fd;
  w->readable = false;
  snprintf(w->at, sizeof w->at, "/");
  return 0;
}

/* A step's failure, `fmt` saying w->at/name and strerror(err). */
static int step_fail(const walk *w, const char *name, int err, const char *fmt,
                     char *why, size_t why_len) {
  return name_fail(err, why, why_len, fmt, w->at, name, strerror(err));
}

/* The link `name` in w->fd, checked: its target put before the rest. Not
 * inlined: its target's buffer (4 KiB) would be on the stack of every
 * step. */
static __attribute__((noinline)) int follow_link(walk *w, const char *name,
                                                 char *why, size_t why_len) {
  char target[PATH_MAX];
  if (check_link(w->fd, w->at, name, target, sizeof target, w->also, why,
                 why_len) != 0) {
    return -1;
  }
  if (++w->links > MAX_LINKS) {
    return name_fail(ELOOP, why, why_len, "%s: too many links%s", w->at, name,
                     "");
  }
  size_t tlen = strlen(target), rlen = strlen(w->pending);
  if (tlen + 1 + rlen >= PENDING_MAX) {
    return name_fail(ENAMETOOLONG, why, why_len, "%s: path too long%s", w->at,
                     name, "");
  }
  char *grown = realloc(w->pending, tlen + 1 + rlen + 1);
  if (!grown) {
    return name_fail(ENOMEM, why, why_len, "%s: %s", w->at, name,
                     strerror(ENOMEM));
  }
  w->pending = grown;
  memmove(w->pending + tlen + 1, w->pending, rlen + 1);
  memcpy(w->pending, target, tlen);
  w->pending[tlen] = '/';
  return target[0] == '/' ? walk_root(w, why, why_len) : 0;
}

/* One step into `name` from w->fd: a directory (made when missing and
 * TRUSTED_FS_CREATE), or a link whose target is put before the rest.
 * The `last` one is opened for reading at once (a directory's open has
 * no effect to fear), not as a path and then "." again. */
static int walk_step(walk *w, const char *name, bool last, unsigned flags,
                     char *why, size_t why_len) {
  if (strcmp(name, ".") == 0) {
    return 0;
  }
  if (strcmp(name, "..") == 0) {
    /* The parent of a checked path was checked on the way down. */
    int up = openat(w->fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (up < 0) {
      int err = errno;
      return fail(err, why, why_len, "cannot open the parent of %s: %s", w->at,
                  strerror(err));
    }
    close(w->fd);
    w->fd = up;
    w->readable = false;
    at_pop(w);
    return 0;
  }
  int how = (last ? O_RDONLY : O_PATH) | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  int next = openat(w->fd, name, how);
  if (next < 0 && errno == ENOENT && (flags & TRUSTED_FS_CREATE)) {
    if (mkdirat(w->fd, name, 0700) != 0 && errno != EEXIST) {
      return step_fail(w, name, errno, "cannot create %s: %s", why, why_len);
    }
    next = openat(w->fd, name, how);
  }
  if (next >= 0) {
    close(w->fd);
    w->fd = next;
    w->readable = last;
    at_push(w, name);
    return 0;
  }
  if (errno != ELOOP && errno != ENOTDIR) {
    return step_fail(w, name, errno, "cannot open %s: %s", why, why_len);
  }
  return follow_link(w, name, why, why_len);
}

static int open_dir(const char *path, unsigned flags, const uid_t *also,
                    char *why, size_t why_len) {
  if (!path || path[0] != '/') {
    return fail(EINVAL, why, why_len, "%s is not an absolute path%s",
                path ? path : "(none)", "");
  }
  /* On the stack, not zeroed (4 KiB, on every open): each field is set
   * below, `at` as a string. Not on the heap: its top would be written
   * on every open, and a later large buffer that lands there (each stdio
   * server's read buffer) would keep those pages resident without using
   * them (50 servers: 400 KiB). `pending` is the path's length, a small
   * block of the heap's bins; at PENDING_MAX on the stack it was 8 KiB
   * more under every call of the walk, resident in every process. */
  walk ws;
  walk *w = &ws;
  w->pending = NULL;
  w->fd = -1;
  w->links = 0;
  w->also = also;
  w->readable = false;
  w->at[0] = '\0';
  int rc = -1;
  size_t len = strlen(path);
  if (len >= PENDING_MAX) {
    fail(ENAMETOOLONG, why, why_len, "%s: path too long%s", path, "");
    goto out;
  }
  w->pending = malloc(len + 1);
  if (!w->pending) {
    fail(ENOMEM, why, why_len, "%s: %s", path, strerror(ENOMEM));
    goto out;
  }
  memcpy(w->pending, path, len + 1);
  if (walk_root(w, why, why_len) != 0) {
    goto out;
  }
  /* Every directory on the way is checked once reached; the last one
   * (nothing left to walk) with the stricter rule. */
  for (;;) {
    struct stat st;
    if (fstat(w->fd, &st) != 0) {
      int err = errno;
      fail(err, why, why_len, "cannot check %s: %s", w->at, strerror(err));
      goto out;
    }
    bool last = at_end(w);
    if (check_dir(&st, w->at, last, flags, also, why, why_len) != 0) {
      goto out;
    }
    char name[NAME_MAX + 1];
    int got = next_name(w, name, sizeof name);
    if (got == 0) {
      break;
    }
    if (got < 0) {
      fail(ENAMETOOLONG, why, why_len, "%s: a name in the path is too long%s",
           path, "");
      goto out;
    }
    if (walk_step(w, name, at_end(w), flags, why, why_len) != 0) {
      goto out;
    }
  }
  if (w->readable) {
    rc = w->fd;
    w->fd = -1;
    goto out;
  }
  /* An O_PATH fd cannot be read: the caller may list the directory. */
  rc = openat(w->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (rc < 0) {
    int err = errno;
    fail(err, why, why_len, "cannot open %s: %s", w->at, strerror(err));
  }
out:;
  int err = errno;
  if (w->fd >= 0) {
    close(w->fd);
  }
  free(w->pending);
  errno = err;
  return rc;
}

#define BY_PATH_NO (-2) /* open_dir_by_path: the walk is the way */

/* The status of `path` for open_dir_by_path: 0 for a directory or a file
 * that is neither a link nor an automount point not mounted yet. The
 * stat calls do not mount one (AT_NO_AUTOMOUNT, always so for stat): the
 * empty mount point would be what is checked, and the file system that
 * the next component's lookup mounts there never; the walk's open mounts
 * it, then checks what is there. */
static int stat_plain(const char *path, struct stat *st) {
  struct statx sx;
  if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
            STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | STATX_INO,
            &sx) != 0 ||
      S_ISLNK(sx.stx_mode) ||
      (sx.stx_attributes_mask & sx.stx_attributes & STATX_ATTR_AUTOMOUNT)) {
    return -1;
  }
  memset(st, 0, sizeof *st);
  st->st_mode = sx.stx_mode;
  st->st_uid = sx.stx_uid;
  st->st_gid = sx.stx_gid;
  st->st_ino = sx.stx_ino;
  st->st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
  return 0;
}

/* The usual case in a system call a component, not three: a path of
 * plain names (no ".", "..", link or missing directory) whose every
 * prefix, stat'ed by its path without following a link, passes the
 * checks; then the directory is opened by its path, not following a
 * link, and must be the one last stat'ed. What the prefixes resolve to
 * cannot change between the two: each directory checked is writable by
 * the user or root alone (or sticky and root's, where nobody else can
 * rename or remove what is there), so nobody else can replace what is in
 * it, as the walk's chain of descriptors makes sure of too. A refusal is
 * the walk's, with its words (check_dir); anything else the walk does
 * (BY_PATH_NO), and says why when it fails. Called before open_dir, not
 * from it: their buffers (4 KiB each) are never on the stack together. */
static __attribute__((noinline)) int
open_dir_by_path(const char *path, unsigned flags, const uid_t *also,
                 char *why, size_t why_len) {
  size_t len = path ? strlen(path) : 0;
  if (len == 0 || path[0] != '/' || len >= PATH_MAX) {
    return BY_PATH_NO;
  }
  char at[PATH_MAX];
  struct stat st;
  size_t n = 1;
  at[0] = '/';
  at[1] = '\0';
  const char *p = past_slashes((char *)path);
  for (;;) {
    if (stat_plain(at, &st) != 0) {
      return BY_PATH_NO;
    }
    bool last = *p == '\0';
    if (check_dir(&st, at, last, flags, also, why, why_len) != 0) {
      return -1;
    }
    if (last) {
      break;
    }
    size_t c = (size_t)(strchrnul(p, '/') - p);
    if ((c == 1 && p[0] == '.') || (c == 2 && p[0] == '.' && p[1] == '.')) {
      return BY_PATH_NO;
    }
    if (n > 1) {
      at[n++] = '/';
    }
    memcpy(at + n, p, c);
    n += c;
    at[n] = '\0';
    p = past_slashes((char *)p + c);
  }
  int fd = open(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat now;
  if (fd >= 0 && fstat(fd, &now) == 0 && now.st_dev == st.st_dev &&
      now.st_ino == st.st_ino) {
    return fd;
  }
  if (fd >= 0) {
    close(fd);
  }
  return BY_PATH_NO;
}

int trusted_fs_open_dir(const char *path, unsigned flags, char *why,
                        size_t why_len) {
  int fd = open_dir_by_path(path, flags, NULL, why, why_len);
  return fd != BY_PATH_NO ? fd : open_dir(path, flags, NULL, why, why_len);
}

int trusted_fs_open_dir_owned_by(const char *path, unsigned flags, uid_t also,
                                 char *why, size_t why_len) {
  int fd = open_dir_by_path(path, flags, &also, why, why_len);
  return fd != BY_PATH_NO ? fd : open_dir(path, flags, &also, why, why_len);
}

/* `out` (or NULL): the file's status, as checked. */
static int open_file(int dir_fd, const char *dir_path, const char *name,
                     int oflags, unsigned mode, const uid_t *also,
                     struct stat *out, char *why, size_t why_len) {
  /* The path as messages name it is made only for one (name_fail):
   * every plugin and state file is opened here, at every start. */
#define FAIL(err, fmt, detail)                                                 \
  name_fail(err, why, why_len, fmt, dir_path, name, detail)
  if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 ||
      strcmp(name, "..") == 0) {
    return FAIL(EINVAL, "%s: not a file name%s", "");
  }
  int fd = openat(dir_fd, name, oflags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
                  (mode_t)mode);
  if (fd < 0) {
    int err = errno;
    if (err == ELOOP) {
      return FAIL(err, "%s is a symbolic link; refusing to follow it%s", "");
    }
    return FAIL(err, "cannot open %s: %s", strerror(err));
  }
  struct stat st;
  int err = fstat(fd, &st) != 0 ? errno : 0;
  /* Once: each check may ask geteuid(). */
  trusted_fs_verdict v =
      err ? TRUSTED_FS_FOREIGN : trusted_fs_check_owner(&st, also, 0);
  if (err) {
    FAIL(err, "cannot check %s: %s", strerror(err));
  } else if (!S_ISREG(st.st_mode)) {
    err = EPERM;
    FAIL(err, "%s is not a regular file%s", "");
  } else if (v == TRUSTED_FS_FOREIGN) {
    char who[48];
    snprintf(who, sizeof who, "%lu", (unsigned long)st.st_uid);
    err = EPERM;
    FAIL(err, "%s is owned by uid %s, not by you or root; refusing it", who);
  } else if ((oflags & O_ACCMODE) != O_RDONLY) {
    if ((st.st_mode & 07777) != (mode & 07777) &&
        fchmod(fd, (mode_t)mode) != 0) {
      err = errno;
      FAIL(err, "cannot set the mode of %s: %s", strerror(err));
    }
  } else if (v != TRUSTED_FS_OWN) {
    err = EPERM;
    FAIL(err, "%s is writable by %s; refusing it",
         st.st_mode & S_IWOTH ? "everyone" : "its group");
  }
#undef FAIL
  if (err) {
    close(fd);
    errno = err;
    return -1;
  }
  if (out) {
    *out = st;
  }
  return fd;
}

int trusted_fs_open_file(int dir_fd, const char *dir_path, const char *name,
                         int oflags, unsigned mode, char *why, size_t why_len) {
  return open_file(dir_fd, dir_path, name, oflags, mode, NULL, NULL, why,
                   why_len);
}

/* open_code of a link (not inlined: its buffers, 16 KiB, stay off the
 * stack of the plain file's open). */
static __attribute__((noinline)) int
open_code_link(int dir_fd, const char *dir_path, const char *name,
               const uid_t *also, struct stat *st, char *why, size_t why_len) {
  char target[PATH_MAX];
  if (check_link(dir_fd, dir_path, name, target, sizeof target, also, why,
                 why_len) != 0) {
    return -1;
  }
  /* The target's directory is walked and checked as any other; a link
   * there again is refused (the file is opened without following). */
  char full[PATH_MAX + NAME_MAX + 2 + PATH_MAX];
  snprintf(full, sizeof full, "%s%s%s", target[0] == '/' ? "" : dir_path,
           target[0] == '/' ? "" : "/", target);
  char *slash = strrchr(full, '/');
  *slash = '\0';
  const char *dir = *full ? full : "/";
  int dfd = open_dir(dir, 0, also, why, why_len);
  if (dfd < 0) {
    return -1;
  }
  int fd = open_file(dfd, dir, slash + 1, O_RDONLY, 0, also, st, why, why_len);
  int err = errno;
  close(dfd);
  errno = err;
  return fd;
}

int trusted_fs_open_code_stat(int dir_fd, const char *dir_path,
                              const char *name, const uid_t *also,
                              struct stat *st, bool *linked, char *why,
                              size_t why_len) {
  /* Opened without following first: a link is what O_NOFOLLOW refuses
   * with ELOOP, so the plain file (every plugin at every start) needs no
   * fstatat() to tell. */
  int fd =
      open_file(dir_fd, dir_path, name, O_RDONLY, 0, also, st, why, why_len);
  if (linked) {
    *linked = fd < 0 && errno == ELOOP;
  }
  if (fd >= 0 || errno != ELOOP) {
    return fd;
  }
  return open_code_link(dir_fd, dir_path, name, also, st, why, why_len);
}

int trusted_fs_open_code(int dir_fd, const char *dir_path, const char *name,
                         char *why, size_t why_len) {
  return trusted_fs_open_code_stat(dir_fd, dir_path, name, NULL, NULL, NULL,
                                   why, why_len);
}

int trusted_fs_open_code_owned_by(int dir_fd, const char *dir_path,
                                  const char *name, uid_t also, char *why,
                                  size_t why_len) {
  return trusted_fs_open_code_stat(dir_fd, dir_path, name, &also, NULL, NULL,
                                   why, why_len);
}

int trusted_fs_code_there(int dir_fd, const char *name, const uid_t *also) {
  struct stat st;
  if (!*name || strchr(name, '/') ||
      fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return -1;
  }
  if (S_ISLNK(st.st_mode)) {
    errno = ELOOP;
    return -1;
  }
  /* open_file's rule for a file opened for reading. */
  if (!S_ISREG(st.st_mode) ||
      trusted_fs_check_owner(&st, also, 0) != TRUSTED_FS_OWN) {
    errno = EPERM;
    return -1;
  }
  return 0;
}

int trusted_fs_open_beside(int dir_fd, const char *name, const uid_t *also) {
  char rel[NAME_MAX + 4];
  if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 ||
      strcmp(name, "..") == 0 ||
      (size_t)snprintf(rel, sizeof rel, "../%s", name) >= sizeof rel) {
    errno = EINVAL;
    return -1;
  }
  /* ".." is not a link, and the parent of a walked directory was checked
   * on the way down (walk_step's ".."); O_NOFOLLOW applies to `name`. */
  int fd = openat(dir_fd, rel, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    return -1;
  }
  struct stat st;
  int err = fstat(fd, &st) != 0 ? errno : 0;
  if (!err && check_dir(&st, rel, true, 0, also, NULL, 0) != 0) {
    err = errno;
  }
  if (err) {
    close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

static bool name_char(char c, size_t at) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-' || (c == '.' && at > 0);
}

/* Whether `s` (`n` bytes) ends in "-" and 8 lower-case hex digits: the
 * form of a changed name's mark. */
static bool ends_in_mark(const char *s, size_t n) {
  if (n < FILE_NAME_MARK) {
    return false;
  }
  const char *m = s + n - FILE_NAME_MARK;
  if (m[0] != '-') {
    return false;
  }
  for (size_t i = 1; i < FILE_NAME_MARK; i++) {
    if (!((m[i] >= '0' && m[i] <= '9') || (m[i] >= 'a' && m[i] <= 'f'))) {
      return false;
    }
  }
  return true;
}

void trusted_fs_file_name(const char *text, char *out, size_t size) {
  size_t n = strlen(text),
         keep = size - 1 < FILE_NAME_MAX ? size - 1 : FILE_NAME_MAX;
  bool same = n > 0 && n <= keep && !ends_in_mark(text, n);
  for (size_t i = 0; same && i < n; i++) {
    same = name_char(text[i], i);
  }
  if (same) {
    memcpy(out, text, n + 1);
    return;
  }
  /* Changed or cut: what can be kept, then the mark, a hash of the whole
   * name (FNV-1a), so that two names never share a file. A name of our
   * own that looks marked is marked too, for the same reason. */
  uint32_t h = fnv1a32(text, n);
  size_t room = keep - FILE_NAME_MARK, o = 0;
  if (n == 0) {
    memcpy(out, "server", 6);
    o = 6;
  }
  for (; o < room && o < n; o++) {
    out[o] = name_char(text[o], o) ? text[o] : '_';
  }
  snprintf(out + o, size - o, "-%08x", (unsigned)h);
}
