/* Noticing on the host's loop that a child exited, and reaping it: a
 * pidfd watched like any fd, or, where pidfd_open is missing (Linux
 * before 5.3), a waitpid(WNOHANG) every 50 ms. Never SIGCHLD, which
 * belongs to the host. The one implementation for the stdio transport and
 * the elicitation plugin (mcphost_proc, with proc_spawn.h). Loop thread:
 * every function, and the callback. */
#ifndef MCPHOST_COMMON_PROC_WATCH_H
#define MCPHOST_COMMON_PROC_WATCH_H

#include <stdbool.h>
#include <sys/types.h>

#include <mcphost/host.h>

typedef struct proc_watch proc_watch;

/* `wstatus` is the wait status (0 when someone else reaped the child, or
 * with PROC_WATCH_NO_REAP, when it exited), or -1 when the host could no
 * longer give the 50 ms timer: then the child may still run, and its
 * owner should stop it. */
typedef void (*proc_exit_cb)(void *ud, int wstatus);

enum {
  /* The callback runs once the child has exited but before it is reaped
   * (its pid cannot be reused yet): the caller reaps it itself, when it
   * has done what must come first. */
  PROC_WATCH_NO_REAP = 1u << 0,
};

/* Calls cb(ud, ...) on the loop once `pid` exited; the watch frees itself
 * before the callback runs. Returns 0 with *out, or -1 when the host
 * could give neither a watch nor a timer (nothing is watched then). */
int proc_watch_start(const mcph_host *host, pid_t pid, unsigned flags,
                     proc_exit_cb cb, void *ud, proc_watch **out);
/* Stops watching without reaping (the process is left to run). NULL is
 * fine. */
void proc_watch_cancel(proc_watch *w);

/* Whether `pid` (a child of this process) has exited, without reaping
 * it; also true when it is gone already (reaped behind our back). */
bool proc_exited(pid_t pid);

#endif
