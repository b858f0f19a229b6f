/* Files and directories mcphost trusts: the one check for every place it
 * loads code from (plugin directories, transport implementations) or
 * writes to (state, logs, saved results).
 *
 * A directory is trusted when every component of its path, from "/", is
 * a real directory (a symbolic link in the path is resolved once, before
 * the walk, and the resolved path is what is checked) owned by the user
 * (the effective uid) or root, and writable by nobody else; a directory
 * above the last one may be group- or world-writable only when it is
 * sticky and owned by root (/tmp), as then nobody else can rename or
 * remove what the user made in it. The walk opens each component
 * relative to the one before, without following links, so what was
 * checked is what is used: the caller gets a directory fd and opens files
 * relative to it. A path of plain names (no link, dot or missing
 * directory: the usual case) is checked with a stat a component instead
 * of three calls, and opened by its path: what it resolves to cannot
 * change between the two, each directory on it being writable by nobody
 * else (trusted_fs.c, open_dir_by_path).
 *
 * A file is trusted when it is a regular file, not a symbolic link, owned
 * by the user or root, and writable by nobody else.
 *
 * Every failure fills `why` with a sentence naming the path at fault.
 * Any thread (no global state); compiled into the host and into plugins. */
#ifndef MCPHOST_TRUSTED_FS_H
#define MCPHOST_TRUSTED_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

enum {
  /* Create missing directories (mode 0700) on the way. */
  TRUSTED_FS_CREATE = 1u << 0,
  /* The last directory must also be closed to reading by others (mode
   * 0700 or less): a private directory. */
  TRUSTED_FS_PRIVATE = 1u << 1,
};

/* The one rule behind every check, here and for project files
 * (host/config/config_trust.h): what `st` describes is owned by the user
 * (the effective uid), by root or by `also` (NULL: nobody more), and
 * writable by nobody else. */
typedef enum trusted_fs_verdict {
  TRUSTED_FS_OWN = 0,       /* owned so, and nobody else may write it */
  TRUSTED_FS_FOREIGN,       /* owned by someone else */
  TRUSTED_FS_SHARED_WRITE   /* others, or its group, may write it */
} trusted_fs_verdict;
enum {
  /* Group write by the user's private group (its primary group, named
   * like it, with no other member: the umask-002 scheme, where every
   * checkout is group-writable) is the user's own write. */
  TRUSTED_FS_PRIVATE_GROUP = 1u << 2,
};
trusted_fs_verdict trusted_fs_check_owner(const struct stat *st,
                                          const uid_t *also, unsigned flags);

/* A secret kept in a file (a token, a login): the file `st` describes,
 * opened as `path`, is a regular file owned by the user or root and open
 * to nobody else: no read or write bit for its group or others (0600).
 * 0, or -1 with errno EPERM and a sentence naming `path` and the problem
 * in `why`. */
int trusted_fs_check_secret(const struct stat *st, const char *path, char *why,
                            size_t why_len);

/* Opens the directory `path` (absolute) after the checks above. Returns a
 * directory fd (O_RDONLY, O_CLOEXEC; the caller closes it) or -1 with
 * errno set (ENOENT: it does not exist and TRUSTED_FS_CREATE was not
 * given; EPERM: it failed a check) and the reason in `why`. */
int trusted_fs_open_dir(const char *path, unsigned flags, char *why,
                        size_t why_len);

/* Opens the file `name` (one path component) in the trusted directory
 * `dir_fd` with `oflags` (O_NOFOLLOW, O_CLOEXEC and O_NOCTTY added) and
 * `mode` for a file it creates; an existing file must pass the file
 * check, and a file opened for writing is set to `mode` (so a log once
 * created 0644 becomes 0600). `dir_path` only names the file in `why`.
 * Returns the fd or -1 with errno set and the reason in `why`. */
int trusted_fs_open_file(int dir_fd, const char *dir_path, const char *name,
                         int oflags, unsigned mode, char *why, size_t why_len);

/* A file name made from untrusted text (a server name from a config
 * file), the same for every file named after it, and different for
 * different names: a name of [A-Za-z0-9._-] (not starting with '.') of at
 * most 100 bytes and `size` - 1 is kept as it is; any other (one with
 * another byte, a longer one, an empty one, or one that ends like the
 * mark) is cut to fit, its other bytes '_', and marked "-" + 8 hex digits
 * of a hash of the whole name ("a b" -> "a_b-1a2b3c4d"; "" ->
 * "server-811c9dc5"). Never ".", ".." or a hidden file. `size` >= 16. */
void trusted_fs_file_name(const char *text, char *out, size_t size);

/* Opens `name` in the trusted directory `dir_fd` (`dir_path`) for
 * reading code: as trusted_fs_open_file, except that a symbolic link
 * there (put there by the user or root, who alone may write the
 * directory) is followed to a file that passes the file check in a
 * directory that passes the directory check. */
int trusted_fs_open_code(int dir_fd, const char *dir_path, const char *name,
                         char *why, size_t why_len);

/* As trusted_fs_open_dir and trusted_fs_open_code, with `also` trusted
 * as an owner beside the user and root: the owner of the mcphost
 * executable for its built-in plugin directory, the owner of a plugin
 * for its own implementation. Whoever owns that code controls what runs
 * already, so trusting them for its directory adds nobody; it lets root
 * run a build tree of another user's. */
int trusted_fs_open_dir_owned_by(const char *path, unsigned flags, uid_t also,
                                 char *why, size_t why_len);
int trusted_fs_open_code_owned_by(int dir_fd, const char *dir_path,
                                  const char *name, uid_t also, char *why,
                                  size_t why_len);

/* As trusted_fs_open_code with `also` (NULL: nobody more), handing back
 * the status the checks were made on in *st and, in *linked, whether
 * `name` was a link (then the file is in another directory than
 * `dir_fd`'s); either may be NULL. */
int trusted_fs_open_code_stat(int dir_fd, const char *dir_path,
                              const char *name, const uid_t *also,
                              struct stat *st, bool *linked, char *why,
                              size_t why_len);

/* Whether the file `name` in the trusted directory `dir_fd` would pass
 * trusted_fs_open_code's checks as it is now (a regular file, owned by
 * the user, root or `also`, writable by nobody else), without opening
 * it: one fstatat(). 0, or -1 with errno (ELOOP for a link, which
 * trusted_fs_open_code would follow and check; EPERM for a failed
 * check; ENOENT). No reason is written: the caller opens the file for
 * one. */
int trusted_fs_code_there(int dir_fd, const char *name, const uid_t *also);

/* The directory `name` beside `dir_fd`, a directory opened by
 * trusted_fs_open_dir (or _owned_by): in its parent, which that walk
 * checked, so one step and one check stand for a walk from "/" when the
 * walk trusted no owner that `also` does not (the same `also`, none, or
 * root's or the user's uid). A link there is not followed. An O_PATH
 * directory fd (for openat(), trusted_fs_open_code), or -1 with errno
 * (ELOOP or ENOTDIR for a link or a file, ENOENT, EPERM for a failed
 * check); the caller falls back to the walk for a reason to show. */
int trusted_fs_open_beside(int dir_fd, const char *name, const uid_t *also);

#endif
