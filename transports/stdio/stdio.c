/*
 * The stdio transport plugin: runs an MCP server as a child process and
 * exchanges newline-delimited JSON-RPC with it over its stdin and stdout.
 *
 * Life of one transport, all on the host's loop thread:
 *
 *   start    spawn (spawn.c), register its process group with the guardian
 *            (guardian.c), watch stdout, stderr and a pidfd of the child.
 *   running  send() queues to stdin; stdout is split into lines
 *            (framing.c) and delivered; stderr goes to stderr_log.c.
 *   stopping close() -- or stdout/stdin closing under a live process, after
 *            a short grace -- closes stdin and sends SIGINT to the group,
 *            SIGTERM at 500 ms, SIGKILL at 1000 ms (Claude Code's sequence).
 *   exited   the pidfd fires: kill what is left of the group, unregister
 *            it, reap the child, deliver the stdout still buffered, then
 *            on_close once with the exit status and the tail of stderr.
 *
 * Nothing here blocks the loop except destroy() of a transport whose child
 * was never reaped, which kills it with SIGKILL and then waits for it.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mcphost/plugin.h>
#include <mcphost/transport.h>

#include "config.h"
#include "framing.h"
#include "guardian.h"
#include "spawn.h"
#include "stderr_log.h"

#define PLUGIN_ID "mcphost.transport.stdio"

#define READ_CHUNK ((size_t)64 << 10)
#define EOF_GRACE_MS 100     /* stdout/stdin closed: time to exit by itself */
#define SIGTERM_AFTER_MS 500 /* after SIGINT */
#define SIGKILL_AFTER_MS 500 /* after SIGTERM, 1000 ms in all */
#define WAIT_POLL_MS 50      /* without pidfd: how often to check the child */
#define TX_KEEP_MAX ((size_t)1 << 20) /* free a drained send queue above */
#define EXCERPT_CHARS 200
#define REASON_MAX 4096

typedef struct plugin {
  const mcph_host *host;
  guardian guard;
} plugin;

enum state {
  T_NEW,     /* created, not started */
  T_RUNNING, /* the child has not been reaped (it may be stopping) */
  T_EXITED,  /* reaped; delivering what stdout still held */
  T_CLOSED   /* on_close was called */
};

/* Why a transport began to end while its process was alive. */
enum end_cause {
  END_NONE,
  END_STDOUT_EOF,
  END_STDIN_CLOSED,
  END_READ_FAILED
};

struct mcph_transport {
  plugin *pl;
  const mcph_host *host;
  const mcph_transport_events *ev;
  char *name;
  stdio_config cfg;

  enum state state;
  enum end_cause cause;
  bool close_requested; /* the host called close() */
  bool stopping;        /* the signal sequence has begun */

  pid_t pid; /* child and process group id; -1 once reaped */
  int pidfd;
  int status_fd; /* the child's start-failure report, see spawn.h */
  int wait_status;
  bool status_known;
  mcph_watch *pid_watch;
  mcph_timer *poll_timer;  /* without pidfd */
  mcph_timer *grace_timer; /* EOF_GRACE_MS */
  mcph_timer *kill_timer;  /* SIGTERM, then SIGKILL */
  int kill_step;

  int stdin_fd;
  mcph_watch *stdin_watch; /* only while tx holds data */
  char *tx;
  size_t tx_len, tx_off, tx_cap;

  int stdout_fd;
  mcph_watch *stdout_watch;
  framing rx;

  int stderr_fd;
  mcph_watch *stderr_watch;
  stderr_log errlog;
};

static void begin_stop(mcph_transport *t);
static bool check_child(mcph_transport *t);

/* ---- small helpers ---- */

static void close_fd(int *fd) {
  if (*fd >= 0) {
    close(*fd);
    *fd = -1;
  }
}

static void unwatch(mcph_transport *t, mcph_watch **w) {
  if (*w) {
    t->host->fd_unwatch(t->host, *w);
    *w = NULL;
  }
}

static void cancel(mcph_transport *t, mcph_timer **tm) {
  if (*tm) {
    t->host->timer_cancel(t->host, *tm);
    *tm = NULL;
  }
}

static void signal_group(mcph_transport *t, int sig) {
  if (t->pid > 0) {
    kill(-t->pid, sig);
  }
}

static void report_error(mcph_transport *t, int code, const char *msg) {
  if (t->ev->on_error) {
    t->ev->on_error(t->ev->ud, code, msg);
  }
}

/* The first EXCERPT_CHARS characters of a line, for a message: whole UTF-8
 * sequences only, control characters as '?'. */
static void excerpt(const char *s, size_t n, char *out, size_t size) {
  size_t o = 0, chars = 0;
  for (size_t i = 0; i < n && o + 1 < size; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c & 0xc0) != 0x80 && chars++ == EXCERPT_CHARS) {
      break;
    }
    if (o + 5 >= size && (c & 0xc0) != 0x80) {
      break; /* no room for this whole character */
    }
    out[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
  }
  out[o] = '\0';
}

/* ---- stdout ---- */

static void deliver_lines(mcph_transport *t) {
  const char *line;
  size_t len;
  enum framing_kind kind;
  while ((kind = framing_next(&t->rx, &line, &len)) != FRAMING_NONE) {
    if (kind == FRAMING_MESSAGE) {
      t->ev->on_message(t->ev->ud, line, len);
    } else if (kind == FRAMING_NOT_JSON) {
      char text[EXCERPT_CHARS * 4 + 1], msg[EXCERPT_CHARS * 4 + 64];
      excerpt(line, len, text, sizeof text);
      snprintf(msg, sizeof msg,
               "server wrote a non-JSON line to stdout: %s", text);
      t->host->log(t->host, MCPH_LOG_WARN, t->name, msg);
      report_error(t, MCPH_EPROTO, msg);
    } else {
      char msg[128];
      snprintf(msg, sizeof msg,
               "message from server exceeds the %zu-byte limit; dropped",
               t->cfg.max_message_bytes);
      t->host->log(t->host, MCPH_LOG_WARN, t->name, msg);
      report_error(t, MCPH_ETOOBIG, msg);
    }
  }
}

/* Reads stdout until it would block (watches may be edge-triggered),
 * delivering lines as they complete. Returns false when stdout is
 * finished: end-of-file, or an error that was logged. */
static bool read_stdout(mcph_transport *t) {
  for (;;) {
    size_t avail;
    char *dst = framing_reserve(&t->rx, READ_CHUNK, &avail);
    if (!dst) {
      mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
                "out of memory reading the server's stdout");
      t->cause = t->cause ? t->cause : END_READ_FAILED;
      return false;
    }
    ssize_t n = read(t->stdout_fd, dst, avail);
    if (n > 0) {
      framing_commit(&t->rx, (size_t)n);
      deliver_lines(t);
    } else if (n == 0) {
      return false;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      return true;
    } else if (errno != EINTR) {
      mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
                "cannot read the server's stdout: %s", strerror(errno));
      t->cause = t->cause ? t->cause : END_READ_FAILED;
      return false;
    }
  }
}

/* Stops reading stdout and delivers a last line that had no '\n'. */
static void finish_stdout(mcph_transport *t) {
  unwatch(t, &t->stdout_watch);
  close_fd(&t->stdout_fd);
  framing_set_eof(&t->rx);
  deliver_lines(t);
}

static void on_grace_timer(void *ud) {
  mcph_transport *t = ud;
  t->grace_timer = NULL;
  if (!check_child(t)) {
    begin_stop(t);
  }
}

/* stdout or stdin is gone while the child has not been reaped. Usually the
 * child is exiting and its pidfd fires in a moment; if it does not within
 * the grace period, stop it: without both pipes it is of no use. */
static void pipe_lost(mcph_transport *t, enum end_cause cause) {
  if (t->state != T_RUNNING || t->stopping || t->grace_timer) {
    return;
  }
  if (!t->cause) {
    t->cause = cause;
  }
  if (t->host->timer_start(t->host, EOF_GRACE_MS, on_grace_timer, t,
                           &t->grace_timer) != 0) {
    begin_stop(t);
  }
}

static void on_stdout(void *ud, int fd, unsigned events) {
  mcph_transport *t = ud;
  (void)fd;
  (void)events;
  if (!read_stdout(t)) {
    finish_stdout(t);
    pipe_lost(t, END_STDOUT_EOF);
  }
}

/* ---- stderr ---- */

/* Returns false when stderr is finished. */
static bool read_stderr(mcph_transport *t) {
  char buf[4096];
  for (;;) {
    ssize_t n = read(t->stderr_fd, buf, sizeof buf);
    if (n > 0) {
      stderr_log_write(&t->errlog, buf, (size_t)n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
  }
}

static void on_stderr(void *ud, int fd, unsigned events) {
  mcph_transport *t = ud;
  (void)fd;
  (void)events;
  if (!read_stderr(t)) {
    unwatch(t, &t->stderr_watch);
    close_fd(&t->stderr_fd);
  }
}

/* ---- stdin ---- */

static void close_stdin(mcph_transport *t) {
  unwatch(t, &t->stdin_watch);
  close_fd(&t->stdin_fd);
  free(t->tx);
  t->tx = NULL;
  t->tx_len = t->tx_off = t->tx_cap = 0;
}

static void stdin_failed(mcph_transport *t, int error) {
  if (error != EPIPE) {
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "cannot write to the server's stdin: %s", strerror(error));
  }
  close_stdin(t);
  pipe_lost(t, END_STDIN_CLOSED);
}

static void on_stdin_writable(void *ud, int fd, unsigned events);

/* Writes queued bytes until done or the pipe is full. Returns 0, or the
 * errno that ended stdin (already handled). */
static int flush_tx(mcph_transport *t) {
  while (t->tx_off < t->tx_len) {
    ssize_t n = write(t->stdin_fd, t->tx + t->tx_off, t->tx_len - t->tx_off);
    if (n > 0) {
      t->tx_off += (size_t)n;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!t->stdin_watch &&
          t->host->fd_watch(t->host, t->stdin_fd, MCPH_FD_WRITE,
                            on_stdin_writable, t, &t->stdin_watch) != 0) {
        stdin_failed(t, ENOMEM);
        return ENOMEM;
      }
      return 0;
    } else {
      int e = n < 0 ? errno : EIO;
      stdin_failed(t, e);
      return e;
    }
  }
  unwatch(t, &t->stdin_watch);
  t->tx_off = t->tx_len = 0;
  if (t->tx_cap > TX_KEEP_MAX) {
    free(t->tx);
    t->tx = NULL;
    t->tx_cap = 0;
  }
  return 0;
}

static void on_stdin_writable(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  flush_tx(ud);
}

static bool tx_append(mcph_transport *t, const char *data, size_t n) {
  if (t->tx_off > 0 && t->tx_off == t->tx_len) {
    t->tx_off = t->tx_len = 0;
  } else if (t->tx_off > 0 && t->tx_cap - t->tx_len < n) {
    memmove(t->tx, t->tx + t->tx_off, t->tx_len - t->tx_off);
    t->tx_len -= t->tx_off;
    t->tx_off = 0;
  }
  if (t->tx_cap - t->tx_len < n) {
    size_t cap = t->tx_cap ? t->tx_cap : 4096;
    while (cap - t->tx_len < n) {
      if (cap > SIZE_MAX / 2) {
        return false;
      }
      cap *= 2;
    }
    char *p = realloc(t->tx, cap);
    if (!p) {
      return false;
    }
    t->tx = p;
    t->tx_cap = cap;
  }
  memcpy(t->tx + t->tx_len, data, n);
  t->tx_len += n;
  return true;
}

/* ---- the child process ---- */

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

/* Claude Code's sequence: stdin closed and SIGINT now, SIGTERM at 500 ms,
 * SIGKILL at 1000 ms, to the whole process group. The pidfd ends it. */
static void begin_stop(mcph_transport *t) {
  if (t->state != T_RUNNING || t->stopping) {
    return;
  }
  t->stopping = true;
  cancel(t, &t->grace_timer);
  close_stdin(t);
  signal_group(t, SIGINT);
  t->kill_step = 0;
  if (t->host->timer_start(t->host, SIGTERM_AFTER_MS, on_kill_timer, t,
                           &t->kill_timer) != 0) {
    signal_group(t, SIGKILL);
  }
}

/* Kills what is left of the group, forgets the group and reaps the child.
 * `block` only for destroy()'s last resort: otherwise the child is known to
 * have exited and waitpid() returns at once. */
static void reap_child(mcph_transport *t, bool block) {
  /* While the leader is unreaped its id cannot be reused, so this only
   * kills the leader (if `block`) and what it left behind in its group. */
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

/* The child has exited: reap it, take in what its pipes still hold, and
 * report the end. Runs once, from the pidfd or the poll timer. */
static void child_exited(mcph_transport *t) {
  unwatch(t, &t->pid_watch);
  close_fd(&t->pidfd);
  cancel(t, &t->poll_timer);
  cancel(t, &t->grace_timer);
  cancel(t, &t->kill_timer);
  reap_child(t, false);
  t->state = T_EXITED; /* from here on, send() and close() refuse */
  close_stdin(t);

  /* What the child wrote before it exited is in the pipes already. */
  if (t->stdout_fd >= 0) {
    read_stdout(t);
    finish_stdout(t);
  }
  if (t->stderr_fd >= 0) {
    read_stderr(t);
    unwatch(t, &t->stderr_watch);
    close_fd(&t->stderr_fd);
  }

  char reason[REASON_MAX], status[128];
  int code = MCPH_ECLOSED;
  spawn_failure failure;
  describe_exit(t, status, sizeof status);
  if (spawn_read_failure(t->status_fd, &failure)) {
    code = MCPH_ESPAWN;
    spawn_describe_failure(&failure, t->cfg.command, t->cfg.cwd, reason,
                           sizeof reason);
  } else if (t->close_requested) {
    code = 0;
    snprintf(reason, sizeof reason, "closed");
  } else {
    static const char *const causes[] = {
        [END_STDOUT_EOF] = "server closed its stdout",
        [END_STDIN_CLOSED] = "server stopped reading its stdin",
        [END_READ_FAILED] = "reading the server's stdout failed",
    };
    if (t->cause) {
      snprintf(reason, sizeof reason, "%s; %s", causes[t->cause], status);
    } else {
      snprintf(reason, sizeof reason, "%s", status);
    }
    stderr_log_append_tail(&t->errlog, reason, sizeof reason);
  }
  close_fd(&t->status_fd);
  stderr_log_mark(&t->errlog, status);
  stderr_log_close(&t->errlog);
  mcph_logf(t->host, code ? MCPH_LOG_INFO : MCPH_LOG_DEBUG, t->name, "%s",
            code == MCPH_ESPAWN ? reason : status);

  t->state = T_CLOSED;
  t->ev->on_close(t->ev->ud, code, reason);
}

/* Returns true when the child has exited, and then has handled it. */
static bool check_child(mcph_transport *t) {
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

static void on_pidfd(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  check_child(ud);
}

static void on_poll_timer(void *ud) {
  mcph_transport *t = ud;
  t->poll_timer = NULL;
  if (!check_child(t) &&
      t->host->timer_start(t->host, WAIT_POLL_MS, on_poll_timer, t,
                           &t->poll_timer) != 0) {
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "cannot start a timer; stopping the server");
    begin_stop(t); /* without a timer there is no escalation either */
    signal_group(t, SIGKILL);
  }
}

static int watch_child(mcph_transport *t) {
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

/* ---- the transport functions ---- */

static int t_create(void *plugin_ctx, const mcph_transport_params *params,
                    mcph_transport **out, mcph_error *err) {
  plugin *pl = plugin_ctx;
  if (!MCPH_HAS(params, mcph_transport_params, events) || !params->events ||
      !MCPH_HAS(params->events, mcph_transport_events, on_close) ||
      !params->events->on_message || !params->events->on_close) {
    return mcph_error_set(err, MCPH_EABI,
                          "stdio transport: incomplete transport params");
  }
  mcph_transport *t = calloc(1, sizeof *t);
  if (!t) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  t->pl = pl;
  t->host = pl->host;
  t->ev = params->events;
  t->pid = -1;
  t->pidfd = t->status_fd = t->stdin_fd = t->stdout_fd = t->stderr_fd = -1;
  t->name = strdup(params->server_name ? params->server_name : "");
  int rc = t->name ? stdio_config_parse(params->config_json, &t->cfg, err)
                   : mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  if (rc != 0) {
    free(t->name);
    free(t);
    return rc;
  }
  framing_init(&t->rx, t->cfg.max_message_bytes);
  stderr_log_init(&t->errlog, t->host, t->name);
  *out = t;
  return 0;
}

static int t_start(mcph_transport *t, mcph_error *err) {
  if (t->state != T_NEW) {
    return mcph_error_set(err, MCPH_EINVAL, "already started");
  }
  stderr_log_open(&t->errlog);
  spawn_request req = {.argv = t->cfg.argv, .env = t->cfg.env,
                       .cwd = t->cfg.cwd};
  spawn_child child;
  int rc = spawn_start(&req, &child, err);
  if (rc != 0) {
    stderr_log_close(&t->errlog);
    return rc;
  }
  t->pid = child.pid;
  t->stdin_fd = child.stdin_fd;
  t->stdout_fd = child.stdout_fd;
  t->stderr_fd = child.stderr_fd;
  t->status_fd = child.status_fd;
  guardian_register(&t->pl->guard, t->pid);

  char mark[256];
  snprintf(mark, sizeof mark, "started pid %ld: %.200s", (long)t->pid,
           t->cfg.command);
  stderr_log_mark(&t->errlog, mark);
  t->host->log(t->host, MCPH_LOG_DEBUG, t->name, mark);

  if (t->host->fd_watch(t->host, t->stdout_fd, MCPH_FD_READ, on_stdout, t,
                        &t->stdout_watch) != 0 ||
      t->host->fd_watch(t->host, t->stderr_fd, MCPH_FD_READ, on_stderr, t,
                        &t->stderr_watch) != 0 ||
      watch_child(t) != 0) {
    /* start() failing means nothing runs: kill it now; destroy(), which
     * follows a failed start, reaps it. */
    unwatch(t, &t->stdout_watch);
    unwatch(t, &t->stderr_watch);
    unwatch(t, &t->pid_watch);
    signal_group(t, SIGKILL);
    return mcph_error_set(err, MCPH_ENOMEM,
                          "cannot start \"%s\": cannot watch its pipes",
                          t->cfg.command);
  }
  t->state = T_RUNNING;
  return 0;
}

static int t_send(mcph_transport *t, const char *json, size_t len,
                  mcph_error *err) {
  if (t->state != T_RUNNING || t->stopping || t->stdin_fd < 0) {
    return mcph_error_set(err, MCPH_ECLOSED, "the server connection is "
                                             "closed");
  }
  if (len == 0 || memchr(json, '\n', len)) {
    return mcph_error_set(err, MCPH_EINVAL, "a message must be one line of "
                                            "JSON");
  }
  if (t->tx_off == t->tx_len) {
    /* Nothing queued: try to write it at once, without a copy. */
    struct iovec iov[2] = {{(void *)json, len}, {"\n", 1}};
    ssize_t n;
    do {
      n = writev(t->stdin_fd, iov, 2);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      int e = errno;
      stdin_failed(t, e);
      return mcph_error_set(err, MCPH_ECLOSED,
                            "cannot write to the server: %s", strerror(e));
    }
    size_t done = n > 0 ? (size_t)n : 0;
    if (done == len + 1) {
      return 0;
    }
    if (done < len) {
      json += done;
      len -= done;
    } else {
      json = "";
      len = 0;
    }
    if (!tx_append(t, json, len) || !tx_append(t, "\n", 1)) {
      /* Part of the message may be out already: the stream is broken. */
      stdin_failed(t, ENOMEM);
      return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    }
    return flush_tx(t) ? mcph_error_set(err, MCPH_ECLOSED,
                                        "cannot write to the server")
                       : 0;
  }
  size_t before = t->tx_len;
  if (!tx_append(t, json, len) || !tx_append(t, "\n", 1)) {
    t->tx_len = before; /* nothing of it was sent: drop it whole */
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  return 0; /* the stdin watch is armed while anything is queued */
}

static void t_close(mcph_transport *t) {
  if (t->state != T_RUNNING || t->close_requested) {
    return;
  }
  t->close_requested = true;
  begin_stop(t);
}

static void t_destroy(mcph_transport *t) {
  if (!t) {
    return;
  }
  cancel(t, &t->poll_timer);
  cancel(t, &t->grace_timer);
  cancel(t, &t->kill_timer);
  unwatch(t, &t->pid_watch);
  unwatch(t, &t->stdout_watch);
  unwatch(t, &t->stderr_watch);
  close_stdin(t);
  if (t->pid > 0) {
    reap_child(t, true); /* not reaped: close() skipped or start failed */
  }
  close_fd(&t->pidfd);
  close_fd(&t->status_fd);
  close_fd(&t->stdout_fd);
  close_fd(&t->stderr_fd);
  stderr_log_close(&t->errlog);
  framing_free(&t->rx);
  stdio_config_free(&t->cfg);
  free(t->name);
  free(t);
}

/* ---- the plugin ---- */

static const char *const stdio_types[] = {"stdio", NULL};

static const mcph_transport_factory stdio_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = stdio_types,
    .create = t_create,
    .start = t_start,
    .send = t_send,
    .close = t_close,
    .destroy = t_destroy,
    .session_id = NULL,
    .set_protocol_version = NULL,
};

static int plugin_init(const mcph_host *host, void **plugin_ctx,
                       mcph_error *err) {
  if (!MCPH_HAS(host, mcph_host, get_path) ||
      host->abi_major != MCPH_ABI_MAJOR || !host->log || !host->fd_watch ||
      !host->fd_unwatch || !host->timer_start || !host->timer_cancel ||
      !host->get_path) {
    return mcph_error_set(err, MCPH_EABI,
                          "stdio transport: the host table lacks services "
                          "this plugin needs (ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  plugin *pl = calloc(1, sizeof *pl);
  if (!pl) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  pl->host = host;
  guardian_init(&pl->guard, host);
  *plugin_ctx = pl;
  return 0;
}

static const void *plugin_get_extension(void *plugin_ctx, const char *id) {
  (void)plugin_ctx;
  return id && strcmp(id, MCPH_EXT_TRANSPORT) == 0 ? &stdio_factory : NULL;
}

static void plugin_deinit(void *plugin_ctx) {
  plugin *pl = plugin_ctx;
  if (pl) {
    guardian_stop(&pl->guard);
    free(pl);
  }
}

/* The one exported symbol. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = "stdio transport",
    .version = "0.1.0",
    .description = "Runs an MCP server as a child process and talks "
                   "newline-delimited JSON-RPC over its stdin and stdout.",
    .init = plugin_init,
    .get_extension = plugin_get_extension,
    .deinit = plugin_deinit,
};
