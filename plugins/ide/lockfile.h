/*
 * IDE lockfiles: where IDE plugins say they listen, read and checked.
 *
 * An IDE extension (VS Code, JetBrains, Neovim, Emacs) writes
 * <dir>/<port>.lock, a JSON object:
 *   {"pid": N, "workspaceFolders": ["/abs", ...], "ideName": "...",
 *    "transport": "ws"|"sse", "authToken": "...", "runningInWindows": b}
 * authToken and runningInWindows are optional (Emacs writes no token).
 * The directories scanned, in order, each once: $CLAUDE_CONFIG_DIR/ide,
 * ~/.claude/ide, $XDG_CONFIG_HOME/claude/ide.
 *
 * A lockfile is trusted only when its directory passes trusted_fs's
 * directory check and the file its file check (the user's or root's,
 * writable by nobody else): whoever could write it could point mcphost at
 * their own port with their own token. Nothing here deletes a lockfile;
 * a stale one (its pid is not running) is reported and skipped.
 *
 * Plain functions, any thread, no state.
 */
#ifndef MCPH_IDE_LOCKFILE_H
#define MCPH_IDE_LOCKFILE_H

#include <stdbool.h>
#include <stddef.h>

/* The largest lockfile read; a bigger one is refused. */
#define IDE_LOCK_MAX_BYTES (64u * 1024u)

typedef struct ide_lock {
  char *path; /* the lockfile, or a directory that was refused */
  /* Set when the entry could not be used: why, naming the file and the
   * field (the fields below are then unset, except port when known). */
  char *error;
  int port; /* from the file name: <port>.lock */
  long pid;
  bool alive;       /* kill(pid, 0) found the process */
  char *ide_name;   /* "IDE" when the file names none */
  char *transport;  /* "ws" or "sse" */
  char *auth_token; /* NULL when the file has none */
  bool windows;     /* runningInWindows */
  char **folders;   /* workspaceFolders */
  size_t nfolders;
  bool contains_cwd; /* one of folders is the working directory or above */
} ide_lock;

typedef struct ide_locks {
  ide_lock *v;
  size_t n;
  char **dirs; /* the directories looked in, for messages */
  size_t ndirs;
} ide_locks;

/* Scans every lockfile directory (those missing are skipped quietly) and
 * fills `out` (zeroed by the caller), sorted by directory, then port.
 * `cwd` is the working directory the workspaces are matched against. */
void ide_locks_scan(ide_locks *out, const char *cwd);

/* Reads one lockfile `name` in the trusted directory `dir_fd` (`dir`
 * names it) into `lk` (zeroed by the caller); on failure lk->error says
 * why. */
void ide_lock_read(int dir_fd, const char *dir, const char *name,
                   const char *cwd, ide_lock *lk);

/* Whether `dir` (absolute) is `cwd` or one of its parents. Both are
 * compared after realpath() when they exist, so a link to the workspace
 * matches it. */
bool ide_folder_contains(const char *dir, const char *cwd);

void ide_locks_free(ide_locks *l);

#endif
