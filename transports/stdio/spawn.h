/*
 * Starting a server process for the stdio transport: the child's
 * environment (an allowlist of the host's variables plus the config's
 * `env`), the PATH search, and fork/exec with the child set up in its own
 * process group, tied to the host's life, with clean signals and fds.
 */
#ifndef MCPH_STDIO_SPAWN_H
#define MCPH_STDIO_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <mcphost/abi.h>

typedef struct spawn_request {
  char *const *argv; /* argv[0] is the command, looked up like execvp */
  char *const *env;  /* "KEY=value" set over the allowlist; may be NULL */
  const char *cwd;   /* directory to start in, or NULL */
} spawn_request;

typedef struct spawn_child {
  pid_t pid;     /* also its process group id */
  int stdin_fd;  /* write end, non-blocking, close-on-exec */
  int stdout_fd; /* read end, non-blocking, close-on-exec */
  int stderr_fd; /* read end, non-blocking, close-on-exec */
  int status_fd; /* read end of the start-failure report, see below */
} spawn_child;

/* What a child reports when it could not get as far as exec. */
enum spawn_stage { SPAWN_STAGE_CHDIR = 1, SPAWN_STAGE_EXEC = 2 };
typedef struct spawn_failure {
  int stage; /* enum spawn_stage */
  int error; /* errno */
} spawn_failure;

/* Loop thread. Forks and execs the child; does not wait for the exec.
 * All fds in *out are >= 3 and owned by the caller. Returns 0, or
 * MCPH_ESPAWN/MCPH_ENOMEM with `err` set when nothing was started (no
 * pipes, no fork). Failures of chdir or exec in the child show up later
 * through spawn_read_failure(). */
int spawn_start(const spawn_request *req, spawn_child *out, mcph_error *err);

/* Loop thread, after the child exited (before or after it was reaped):
 * reads the child's failure report from `status_fd`. Returns true and
 * fills *f when the child failed before exec. */
bool spawn_read_failure(int status_fd, spawn_failure *f);

/* Any thread. Writes e.g. `cannot start "foo": No such file or directory`
 * into `buf` (caller-owned, `size` bytes, always NUL-terminated). */
void spawn_describe_failure(const spawn_failure *f, const char *command,
                            const char *cwd, char *buf, size_t size);

/* Loop thread (it reads `environ`, which setenv() elsewhere would change).
 * Returns a new NULL-terminated environment: the allowed variables of the
 * host's environment, then `overrides` ("KEY=value") replacing or adding.
 * The array is new (free it); the strings are borrowed from `environ` and
 * `overrides` and valid until either changes. NULL when out of memory. */
const char **spawn_build_env(char *const *overrides);

/* Loop thread. pipe2() with both ends close-on-exec and numbered >= 3,
 * and end `nonblock_end` (0 or 1) non-blocking. Returns 0, or -1 with
 * errno set and nothing open. The caller owns both fds. */
int spawn_make_pipe(int fds[2], int nonblock_end);

/* Async-signal-safe, for a freshly forked child: closes every fd >= 3
 * except `keep` (-1 for none). */
void spawn_close_fds_except(int keep);

#endif /* MCPH_STDIO_SPAWN_H */
