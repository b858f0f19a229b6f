/*
 * The child process after spawn: noticing that it exited (a pidfd, or
 * polling where pidfd_open is missing -- never SIGCHLD, which is the
 * host's), stopping it (Claude Code's sequence), reaping it, and telling
 * the host why the transport ended.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "spawn.h"
#include "stdio_transport.h"

#define GRACE_MS 100         /* a pipe closed: time to exit by itself */
#define SIGTERM_AFTER_MS 500 /* after SIGINT */
#define SIGKILL_AFTER_MS 500 /* after SIGTERM, 1000 ms in all */
#define WAIT_POLL_MS 50      /* without pidfd: how often to look */
#define REASON_MAX 4096

static bool check_exit(mcph_transport *t);

static void signal_group(mcph_transport *t, int sig) {
  if (t->pid > 0) {
    kill(-t->pid, sig);
  }
}

/* ---- stopping ---- */

static void on_kill_timer(void *ud) {
  mcph_transport *t = ud;
  t->kill_timer = NULL;
  if (t->kill_step++ == 0) {
    signal_group(t, SIGTERM);
    if (t->host->timer_start(t->host, SIGKILL_AFTER_MS, on_kill_timer, t,
                             &t->kill_timer) == 0) {
      return;
    }
  }
  signal_group(t, SIGKILL);
}

void child_stop(mcph_transport *t) {
  if (t->state != T_RUNNING || t->stopping) {
    return;
  }
  t->stopping = true;
  stdio_cancel(t, &t->grace_timer);
  pipes_close_stdin(t);
  signal_group(t, SIGINT);
  t->kill_step = 0;
  if (t->host->timer_start(t->host, SIGTERM_AFTER_MS, on_kill_timer, t,
                           &t->kill_timer) != 0) {
    signal_group(t, SIGKILL); /* no timer, no escalation: end it now */
  }
}

static void on_grace_timer(void *ud) {
  mcph_transport *t = ud;
  t->grace_timer = NULL;
  if (!check_exit(t)) {
    t->cause = t->cause ? t->cause : t->grace_cause;
    child_stop(t);
  }
}

void child_pipe_lost(mcph_transport *t, enum stdio_end_cause cause) {
  /* Usually the child is exiting: the kernel closes its fds just before it
   * becomes a zombie, and the pidfd fires a moment later. Then the exit
   * status alone is the reason. */
  if (t->state != T_RUNNING || t->stopping || t->grace_timer) {
    return;
  }
  t->grace_cause = cause;
  if (t->host->timer_start(t->host, GRACE_MS, on_grace_timer, t,
                           &t->grace_timer) != 0) {
    t->cause = t->cause ? t->cause : cause;
    child_stop(t);
  }
}

/* ---- reaping and reporting ---- */

void child_reap(mcph_transport *t, bool block) {
  /* While the leader is unreaped its id cannot be reused, so this kills
   * only the leader (when it still runs: destroy's last resort) and what
   * it left behind in its group. */
  kill(-t->pid, SIGKILL);
  guardian_unregister(&t->pl->guard, t->pid);
  int status = 0;
  pid_t r;
  while ((r = waitpid(t->pid, &status, block ? 0 : WNOHANG)) < 0 &&
         errno == EINTR) {
  }
  /* ECHILD: someone else reaped it (a host that ignores SIGCHLD). */
  t->status_known = r == t->pid;
  t->wait_status = status;
  t->pid = -1;
}

static void describe_exit(const mcph_transport *t, char *buf, size_t size) {
  int st = t->wait_status;
  if (!t->status_known) {
    snprintf(buf, size, "server process ended (exit status unknown)");
  } else if (WIFEXITED(st)) {
    snprintf(buf, size, "server process exited with status %d",
             WEXITSTATUS(st));
  } else if (WIFSIGNALED(st)) {
    const char *abbrev = sigabbrev_np(WTERMSIG(st));
    snprintf(buf, size, "server process killed by signal %d (SIG%s)",
             WTERMSIG(st), abbrev ? abbrev : "?");
  } else {
    snprintf(buf, size, "server process ended (wait status %d)", st);
  }
}

/* Fills reason and returns the on_close code. */
static int close_reason(mcph_transport *t, const char *status, char *reason,
                        size_t size) {
  spawn_failure failure;
  if (spawn_read_failure(t->status_fd, &failure)) {
    spawn_describe_failure(&failure, t->cfg.command, t->cfg.cwd, reason, size);
    return MCPH_ESPAWN;
  }
  if (t->close_requested) {
    snprintf(reason, size, "closed");
    return 0;
  }
  static const char *const causes[] = {
      [END_STDOUT_EOF] = "server closed its stdout",
      [END_STDIN_CLOSED] = "server stopped reading its stdin",
      [END_READ_FAILED] = "reading the server's stdout failed",
  };
  if (t->cause != END_NONE) {
    snprintf(reason, size, "%s; %s", causes[t->cause], status);
  } else {
    snprintf(reason, size, "%s", status);
  }
  stderr_log_append_tail(&t->errlog, reason, size);
  return MCPH_ECLOSED;
}

/* The child has exited: reap it, take in what its pipes still hold, and
 * report the end. Runs once. */
static void child_exited(mcph_transport *t) {
  stdio_unwatch(t, &t->pid_watch);
  stdio_close_fd(&t->pidfd);
  stdio_cancel(t, &t->poll_timer);
  stdio_cancel(t, &t->grace_timer);
  stdio_cancel(t, &t->kill_timer);
  child_reap(t, false);
  t->state = T_EXITED; /* from here on, send() and close() refuse */
  pipes_close_stdin(t);
  pipes_drain(t);

  char reason[REASON_MAX], status[128];
  describe_exit(t, status, sizeof status);
  int code = close_reason(t, status, reason, sizeof reason);
  stdio_close_fd(&t->status_fd);
  stderr_log_mark(&t->errlog, status);
  stderr_log_close(&t->errlog);
  mcph_logf(t->host, code ? MCPH_LOG_INFO : MCPH_LOG_DEBUG, t->name, "%s",
            code == MCPH_ESPAWN ? reason : status);

  t->state = T_CLOSED;
  t->ev->on_close(t->ev->ud, code, reason);
}

/* Returns true when the child has exited, and then has handled it. */
static bool check_exit(mcph_transport *t) {
  if (t->state != T_RUNNING) {
    return true;
  }
  siginfo_t si;
  memset(&si, 0, sizeof si);
  /* WNOWAIT: the group is unregistered from the guardian before the reap
   * that could free its id. ECHILD: it was reaped behind our back. */
  if (waitid(P_PID, (id_t)t->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0
          ? si.si_pid == 0
          : errno != ECHILD) {
    return false;
  }
  child_exited(t);
  return true;
}

/* ---- watching ---- */

static void on_pidfd(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  check_exit(ud);
}

static void on_poll_timer(void *ud) {
  mcph_transport *t = ud;
  t->poll_timer = NULL;
  if (!check_exit(t) &&
      t->host->timer_start(t->host, WAIT_POLL_MS, on_poll_timer, t,
                           &t->poll_timer) != 0) {
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "cannot start a timer to watch the server; stopping it");
    child_stop(t);
    signal_group(t, SIGKILL);
  }
}

int child_watch(mcph_transport *t) {
#ifdef SYS_pidfd_open
  t->pidfd = (int)syscall(SYS_pidfd_open, t->pid, 0); /* close-on-exec */
#endif
  if (t->pidfd >= 0) {
    return t->host->fd_watch(t->host, t->pidfd, MCPH_FD_READ, on_pidfd, t,
                             &t->pid_watch);
  }
  /* Linux before 5.3: poll. */
  return t->host->timer_start(t->host, WAIT_POLL_MS, on_poll_timer, t,
                              &t->poll_timer);
}
