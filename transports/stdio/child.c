/*
 * The child process after spawn: noticing that it exited (a pidfd, or
 * polling where pidfd_open is missing -- never SIGCHLD, which is the
 * host's), stopping it (the MCP lifecycle's sequence for a close(),
 * Claude Code's quicker one for a lost pipe or a close() asked again),
 * reaping it, and telling the host why the transport ended.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "proc_watch.h"
#include "spawn.h"
#include "stdio_transport.h"

#define GRACE_MS 100         /* a pipe closed: time to exit by itself */
#define SIGTERM_AFTER_MS 500 /* the quick sequence: after SIGINT */
#define SIGKILL_AFTER_MS 500 /* after its SIGTERM, 1000 ms in all */
#define CLOSE_SIGKILL_AFTER_MS 1000 /* close(): after its SIGTERM */
#define REASON_MAX 4096

static bool check_exit(mcph_transport *t);

static void signal_group(mcph_transport *t, int sig) {
  if (t->pid > 0) {
    kill(-t->pid, sig);
  }
}

/* ---- stopping ---- */

/* The next signal of a stop sequence: SIGTERM first, then SIGKILL. */
static void on_kill_timer(void *ud) {
  mcph_transport *t = ud;
  t->kill_timer = NULL;
  /* close()'s wait ran out: the server had its time after the end of its
   * stdin, and gets longer after SIGTERM than the quick sequence gives. */
  uint64_t kill_after =
      t->waiting_exit ? CLOSE_SIGKILL_AFTER_MS : SIGKILL_AFTER_MS;
  t->waiting_exit = false;
  if (t->kill_step++ == 0) {
    signal_group(t, SIGTERM);
    if (t->host->timer_start(t->host, kill_after, on_kill_timer, t,
                             &t->kill_timer) == 0) {
      return;
    }
  }
  signal_group(t, SIGKILL);
}

void child_stop(mcph_transport *t) {
  /* During close()'s wait this takes over: a person is in a hurry. */
  if (t->state != T_RUNNING || (t->stopping && !t->waiting_exit)) {
    return;
  }
  t->stopping = true;
  t->waiting_exit = false;
  stdio_cancel(t, &t->grace_timer);
  stdio_cancel(t, &t->kill_timer);
  pipes_close_stdin(t);
  signal_group(t, SIGINT);
  t->kill_step = 0;
  if (t->host->timer_start(t->host, SIGTERM_AFTER_MS, on_kill_timer, t,
                           &t->kill_timer) != 0) {
    signal_group(t, SIGKILL); /* no timer, no escalation: end it now */
  }
}

void child_close(mcph_transport *t) {
  if (t->state != T_RUNNING || t->stopping) {
    return;
  }
  /* The end of its stdin is the server's cue to finish (save, flush,
   * exit); no signal meanwhile, which would cut that short. Its stdout
   * and stderr are read on until it exits. */
  t->stopping = true;
  t->waiting_exit = true;
  stdio_cancel(t, &t->grace_timer);
  pipes_close_stdin(t);
  t->kill_step = 0;
  if (t->host->timer_start(t->host, t->pl->exit_wait_ms, on_kill_timer, t,
                           &t->kill_timer) != 0) {
    child_stop(t); /* no timer to bound the wait: the quick sequence */
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
  if (!t->status_known) {
    snprintf(buf, size, "server process ended (exit status unknown)");
    return;
  }
  char status[96];
  proc_describe_status(t->wait_status, status, sizeof status);
  snprintf(buf, size, "server process %s", status);
}

/* Fills reason and returns the on_close code. */
static int close_reason(mcph_transport *t, const char *status, char *reason,
                        size_t size) {
  proc_failure failure;
  if (proc_read_failure(t->status_fd, &failure)) {
    proc_describe_failure(&failure, t->cfg.command, t->cfg.cwd, reason, size);
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
  proc_watch_cancel(t->exit_watch);
  t->exit_watch = NULL;
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
  /* Not reaped yet: the group is unregistered from the guardian before
   * the reap that could free its id (child_reap). */
  if (!proc_exited(t->pid)) {
    return false;
  }
  child_exited(t);
  return true;
}

/* ---- watching ---- */

static void on_exit_seen(void *ud, int wstatus) {
  mcph_transport *t = ud;
  t->exit_watch = NULL; /* it freed itself */
  if (wstatus != -1) {
    /* Seen exited (waitid, once): not asked again. */
    if (t->state == T_RUNNING) {
      child_exited(t);
    }
    return;
  }
  if (!proc_exited(t->pid)) {
    /* The watch could not go on (no timer): end it rather than wait. */
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "cannot start a timer to watch the server; stopping it");
    child_stop(t);
    signal_group(t, SIGKILL);
    if (proc_watch_start(t->host, t->pid, PROC_WATCH_NO_REAP, on_exit_seen, t,
                         &t->exit_watch) != 0) {
      t->exit_watch = NULL;
    }
    return;
  }
  check_exit(t);
}

int child_watch(mcph_transport *t) {
  return proc_watch_start(t->host, t->pid, PROC_WATCH_NO_REAP, on_exit_seen, t,
                          &t->exit_watch) == 0
             ? 0
             : MCPH_ENOMEM;
}
