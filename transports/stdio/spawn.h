/*
 * Starting a server process for the stdio transport: the child's
 * environment (an allowlist of the host's variables plus the config's
 * `env`) and its pipes; the fork and exec are common/proc_spawn.h's.
 */
#ifndef MCPH_STDIO_SPAWN_H
#define MCPH_STDIO_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <mcphost/abi.h>

#include "proc_spawn.h"

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

/* Loop thread. Starts the child (common/proc_spawn.h: its own process
 * group, killed with the host) on three pipes and a failure report; does
 * not wait for the exec. All fds in *out are >= 3 and owned by the
 * caller. Returns 0, or MCPH_ESPAWN/MCPH_ENOMEM with `err` set when
 * nothing was started (no pipes, no fork). Failures of chdir or exec in
 * the child show up later through proc_read_failure(). */
int spawn_start(const spawn_request *req, spawn_child *out, mcph_error *err);

/* Loop thread (it reads `environ`, which setenv() elsewhere would change).
 * Returns a new NULL-terminated environment: the allowed variables of the
 * host's environment, then `overrides` ("KEY=value") replacing or adding.
 * The array is new (free it); the strings are borrowed from `environ` and
 * `overrides` and valid until either changes. NULL when out of memory. */
const char **spawn_build_env(char *const *overrides);

#endif /* MCPH_STDIO_SPAWN_H */
