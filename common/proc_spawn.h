/* Starting a child process: the one implementation for the stdio
 * transport (servers), the elicitation plugin (hooks, browsers) and
 * whatever else runs a command. vfork() and exec, with everything the
 * child needs prepared before so that the child makes only
 * async-signal-safe calls (the host may have threads): its stdin, stdout
 * and stderr, its environment and directory, its own process group (or
 * session), every signal back to its default and unblocked (the host
 * blocks and ignores some), every other fd closed, and argv[0] looked up
 * in the child's PATH as execvp() does (a file without "#!" runs under
 * /bin/sh). Reaping is proc_watch.h's. Compiled into the host and into
 * plugins (mcphost_proc). The calling thread only; no global state. */
#ifndef MCPHOST_COMMON_PROC_SPAWN_H
#define MCPHOST_COMMON_PROC_SPAWN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A child's fd that is not one of the caller's. */
enum { PROC_FD_NULL = -1, PROC_FD_INHERIT = -2 };

/* What a child reports when it could not get as far as exec. */
enum proc_stage { PROC_STAGE_CHDIR = 1, PROC_STAGE_EXEC = 2 };
typedef struct proc_failure {
  int stage; /* enum proc_stage */
  int error; /* errno */
} proc_failure;

typedef struct proc_spec {
  char *const *argv; /* argv[0] is the command, looked up like execvp */
  char *const *envp; /* the child's whole environment; NULL: the host's */
  const char *cwd;   /* the directory to start in, or NULL */
  /* The child's stdin, stdout and stderr: an fd of the caller's (>= 3,
   * so that no dup2 lands on another), PROC_FD_NULL (/dev/null) or
   * PROC_FD_INHERIT (the host's own). */
  int fd[3];
  /* A new session (setsid: nothing of the host's terminal, for a browser
   * that outlives mcphost); else a new process group the child leads,
   * so that a signal to -pid reaches whatever it forks. */
  bool new_session;
  /* SIGKILL when the host dies (PR_SET_PDEATHSIG). */
  bool die_with_host;
  /* The calling thread goes on once the child has exec'd or failed to
   * (a few system calls later). -1: a failed chdir or exec fails
   * proc_start itself. Else the write end (close-on-exec) of a pipe
   * where the child writes its proc_failure instead (the caller reads it
   * with proc_read_failure once the child exited): the start succeeds. */
  int report_fd;
} proc_spec;

/* Starts the child. Returns 0 with *pid (the process group id too unless
 * new_session), or -1 with errno set and `why` filled ("cannot start
 * "CMD": REASON", as proc_describe_failure for a failed chdir or exec);
 * nothing runs then. The caller's fds in `spec->fd` stay the caller's. */
int proc_start(const proc_spec *spec, pid_t *pid, char *why, size_t n);

/* After the child exited: reads its failure report from `report_fd`'s
 * read end. True and *f filled when it failed before exec. */
bool proc_read_failure(int fd, proc_failure *f);

/* `cannot start "CMD": No such file or directory`, or `... cannot change
 * to directory "DIR": ...`, into `buf` (always NUL-terminated). */
void proc_describe_failure(const proc_failure *f, const char *command,
                           const char *cwd, char *buf, size_t size);

/* A wait status as words: "exited with status 3", "killed by signal 9
 * (SIGKILL)", "ended (wait status N)". */
void proc_describe_status(int wstatus, char *buf, size_t size);

/* pipe2() with both ends close-on-exec and numbered >= 3 (so that a
 * child's dup2 onto 0, 1 or 2 never meets one), and end `nonblock_end`
 * (0 or 1; -1: neither) non-blocking. Returns 0, or -1 with errno set and
 * nothing open. */
int proc_make_pipe(int fds[2], int nonblock_end);

/* Moves `fd` to a number >= 3 (close-on-exec). Returns it, or -1 with
 * errno set and `fd` closed. */
int proc_lift_fd(int fd);

/* Marks the function that calls vfork(), and every function of the
 * child's path that makes a call that does not return (execve, _exit):
 * not instrumented by ASan. The child runs on the caller's stack, and the
 * reset of the stack's shadow ASan makes before such a call would take
 * the redzones of the caller's live frames. (A function that returns
 * leaves the shadow as it found it.) */
#define PROC_VFORK_CODE __attribute__((no_sanitize_address))

/* Async-signal-safe, for a new child process: closes every fd >= 3
 * except `keep` (-1 for none). */
void proc_close_fds_except(int keep);

/* Async-signal-safe, for a new child process (signals blocked): every
 * signal in `ignore` (bit n - 1: signal n) ignored, every other one at its
 * default. Only the signals not so already are set: those the kernel
 * lists as ignored or caught (/proc/self/status), a handful where every
 * signal was one sigaction() each; all of them when that cannot be read. */
void proc_signals_reset(uint64_t ignore);

/* Kills `pid`'s process group and `pid` with SIGKILL and reaps `pid`,
 * waiting for it (a killed process goes at once). */
void proc_kill(pid_t pid);

#endif
