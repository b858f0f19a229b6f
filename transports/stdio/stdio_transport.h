/*
 * Internal to the stdio plugin: the transport object, shared by
 *   stdio.c  the plugin entry and the transport functions the host calls;
 *   pipes.c  the child's stdin (send queue), stdout (messages) and stderr;
 *   child.c  the child process: noticing its exit, the stop sequence,
 *            reaping, and the reason given to on_close.
 * Everything here runs on the host's loop thread.
 */
#ifndef MCPH_STDIO_TRANSPORT_H
#define MCPH_STDIO_TRANSPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include <mcphost/transport.h>

#include "config.h"
#include "framing.h"
#include "guardian.h"
#include "stderr_log.h"

#define STDIO_PLUGIN_ID "mcphost.transport.stdio"

/* The plugin instance (init's plugin_ctx). */
typedef struct stdio_plugin {
  const mcph_host *host;
  guardian guard;
  /* How long close() waits for a server to exit by itself once its stdin
   * is closed, before SIGTERM (MCPHOST_STDIO_EXIT_MS, default 2000). */
  uint64_t exit_wait_ms;
} stdio_plugin;

enum stdio_state {
  T_NEW,     /* created, not started (or start failed) */
  T_RUNNING, /* the child has not been reaped (it may be stopping) */
  T_EXITED,  /* reaped; delivering what stdout still held */
  T_CLOSED   /* on_close was called */
};

/* Why the transport stopped a live child. END_NONE: the child ended by
 * itself (or close() was asked for). */
enum stdio_end_cause {
  END_NONE,
  END_STDOUT_EOF,
  END_STDIN_CLOSED,
  END_READ_FAILED
};

struct mcph_transport {
  stdio_plugin *pl;
  const mcph_host *host;
  const mcph_transport_events *ev; /* the host's; valid until destroy */
  char *name;                      /* server name, for logs */
  stdio_config cfg;

  enum stdio_state state;
  enum stdio_end_cause cause;       /* set when we stop it for a reason */
  enum stdio_end_cause grace_cause; /* what the grace timer waits out */
  bool close_requested;             /* the host called close() */
  bool stopping;                    /* stdin closed: the child is ending */
  bool waiting_exit; /* close(): stdin closed, no signal sent yet */

  pid_t pid; /* child and process group id; -1 once reaped */
  int status_fd; /* the child's start-failure report, see spawn.h */
  int wait_status;
  bool status_known;
  struct proc_watch *exit_watch; /* common/proc_watch.h, no reaping */
  mcph_timer *grace_timer; /* a pipe closed: time to exit by itself */
  mcph_timer *kill_timer;  /* the next signal of the stop sequence */
  int kill_step;           /* signals of the sequence sent so far */

  int stdin_fd;
  mcph_watch *stdin_watch; /* only while tx holds data */
  char *tx;                /* bytes queued for stdin: tx[tx_off, tx_len) */
  size_t tx_len, tx_off, tx_cap;

  int stdout_fd;
  mcph_watch *stdout_watch;
  framing rx;
  /* The pipe's room, grown while a large message comes (pipes.c): its
   * size before, 0 when not grown; grow_failed once the kernel refused. */
  int stdout_pipe_size;
  bool stdout_grow_failed;

  int stderr_fd;
  mcph_watch *stderr_watch;
  stderr_log errlog;
};

/* ---- pipes.c ---- */

/* Queues one message (without its '\n') for the child's stdin, writing
 * at once what the pipe takes. `json` is borrowed for the call. Returns 0,
 * or MCPH_ECLOSED/MCPH_ENOMEM with `err` set; stdin is then closed. */
int pipes_send(mcph_transport *t, const char *json, size_t len,
               mcph_error *err);

/* Closes stdin and drops what was queued for it. Idempotent. */
void pipes_close_stdin(mcph_transport *t);

/* fd watch callbacks for stdout and stderr (ud is the transport). */
void pipes_on_stdout(void *ud, int fd, unsigned events);
void pipes_on_stderr(void *ud, int fd, unsigned events);

/* After the child was reaped: takes in what stdout and stderr still hold
 * (bounded), delivers the last messages -- a last line without '\n' only
 * if the child exited with status 0 -- and closes both pipes. */
void pipes_drain(mcph_transport *t);

/* ---- child.c ---- */

/* Starts noticing the child's exit (common/proc_watch.h: a pidfd, else a
 * poll timer). Returns 0 or a negative MCPH_E* code. */
int child_watch(mcph_transport *t);

/* A pipe closed under a child not yet reaped: waits a short grace for it
 * to exit by itself, then stops it with `cause` in the reason. */
void child_pipe_lost(mcph_transport *t, enum stdio_end_cause cause);

/* Begins the quick stop sequence (close stdin, SIGINT, SIGTERM at
 * 500 ms, SIGKILL at 1000 ms, to the process group): a pipe lost, or a
 * close() asked again (a person interrupted the host). During
 * child_close()'s wait it takes over from there. Idempotent otherwise.
 * Calls no host callback, so start/send/close may use it. */
void child_stop(mcph_transport *t);

/* The MCP lifecycle's shutdown, for close(): close stdin, wait up to
 * exit_wait_ms for the exit, then SIGTERM to the process group and
 * SIGKILL 1000 ms later. Idempotent. Calls no host callback. */
void child_close(mcph_transport *t);

/* Kills what is left of the group, unregisters it from the guardian and
 * reaps the child. `block` only for destroy()'s last resort. */
void child_reap(mcph_transport *t, bool block);

/* ---- small helpers ---- */

static inline void stdio_close_fd(int *fd) {
  if (*fd >= 0) {
    close(*fd);
    *fd = -1;
  }
}

static inline void stdio_unwatch(mcph_transport *t, mcph_watch **w) {
  if (*w) {
    t->host->fd_unwatch(t->host, *w);
    *w = NULL;
  }
}

static inline void stdio_cancel(mcph_transport *t, mcph_timer **tm) {
  if (*tm) {
    t->host->timer_cancel(t->host, *tm);
    *tm = NULL;
  }
}

#endif /* MCPH_STDIO_TRANSPORT_H */
