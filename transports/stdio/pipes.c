/*
 * The child's three pipes: stdin takes queued messages, each followed by
 * '\n', written as the pipe accepts them; stdout is split into lines and
 * delivered as messages; stderr goes to the stderr log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "stdio_transport.h"
#include "text_escape.h"

#define READ_CHUNK ((size_t)64 << 10)
/* Work done per watch callback, so that a server that floods its stdout
 * or stderr cannot starve the loop. The host's watches are level-triggered
 * (what is left fires the watch again). */
#define STDOUT_BUDGET ((size_t)4 << 20)
#define STDERR_BUDGET ((size_t)1 << 20)
/* What is read after the child exited; more can only come from a process
 * that left the group and still holds the pipe. */
#define DRAIN_BUDGET ((size_t)16 << 20)
#define TX_KEEP_MAX ((size_t)1 << 20) /* free a drained send queue above */
#define EXCERPT_CHARS 200
#define OWNED_MIN ((size_t)64 << 10) /* a line handed over, from this size */
/* A message this long before its end grows the stdout pipe to
 * PIPE_BIG_SIZE until it is in. */
#define PIPE_GROW_AT ((size_t)256 << 10)
#define PIPE_BIG_SIZE (1 << 20)

/* ---- stdout ---- */

/* The first EXCERPT_CHARS characters of a line, for a message, with its
 * controls and invisible characters escaped by the one rule
 * (text_escape.h). New string (free()), NULL when memory runs out. */
static char *excerpt(const char *s, size_t n) {
  size_t end = 0, chars = 0;
  while (end < n) {
    bool lead = ((unsigned char)s[end] & 0xc0) != 0x80;
    if (lead && (chars++ == EXCERPT_CHARS || end >= EXCERPT_CHARS * 4)) {
      break;
    }
    end++;
  }
  return text_escape(s, end, TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE,
                     NULL);
}

/* A problem that does not end the transport: the host hears of it (and
 * logs it), or, when it takes no such reports, the log has it. */
static void report_error(mcph_transport *t, int code, const char *msg) {
  if (t->ev->on_error) {
    t->ev->on_error(t->ev->ud, code, msg);
  } else {
    t->host->log(t->host, MCPH_LOG_WARN, t->name, msg);
  }
}

/* A line over maxMessageBytes was dropped (`seen` bytes of it so far).
 * A host with ABI 1.2 gets its first bytes, so that it can fail the
 * request the line answered now instead of at its deadline; the host
 * logs it then. */
static void report_dropped(mcph_transport *t, size_t seen) {
  char msg[128];
  snprintf(msg, sizeof msg,
           "message from server exceeds the %zu-byte limit; dropped",
           t->cfg.max_message_bytes);
  if (MCPH_HAS(t->ev, mcph_transport_events, on_message_dropped) &&
      t->ev->on_message_dropped) {
    const char *head = t->rx.dropped_head ? t->rx.dropped_head : "";
    t->ev->on_message_dropped(t->ev->ud, MCPH_ETOOBIG, msg, head,
                              t->rx.dropped_head_len, seen);
  } else {
    report_error(t, MCPH_ETOOBIG, msg);
  }
}

/* A large line goes to the host in the read buffer itself, when the
 * host takes it (ABI 1.7): a result of megabytes is then held once. */
static void deliver_message(mcph_transport *t, const char *line, size_t len) {
  if (len >= OWNED_MIN &&
      MCPH_HAS(t->ev, mcph_transport_events, on_message_owned) &&
      t->ev->on_message_owned) {
    char *buf = framing_take(&t->rx, line, len);
    if (buf) {
      t->ev->on_message_owned(t->ev->ud, buf, len);
      return;
    }
  }
  t->ev->on_message(t->ev->ud, line, len);
}

/* Not inlined: its 8 KiB message is on the stack only when a line is not
 * JSON, not under every message the host handles (the deepest stack of a
 * cold call was 8 KiB deeper for it). */
static __attribute__((noinline)) void
report_not_json(mcph_transport *t, const char *line, size_t len) {
  /* 200 characters of 4 bytes, each shown in up to 10 */
  char msg[EXCERPT_CHARS * 40 + 64];
  char *text = excerpt(line, len);
  snprintf(msg, sizeof msg, "server wrote a non-JSON line to stdout: %s",
           text ? text : "");
  free(text);
  report_error(t, MCPH_EPROTO, msg);
}

static void deliver_lines(mcph_transport *t) {
  const char *line;
  size_t len;
  enum framing_kind kind;
  while ((kind = framing_next(&t->rx, &line, &len)) != FRAMING_NONE) {
    if (kind == FRAMING_MESSAGE) {
      deliver_message(t, line, len);
    } else if (kind == FRAMING_NOT_JSON) {
      report_not_json(t, line, len);
    } else {
      report_dropped(t, len);
    }
  }
}

/* The room of the stdout pipe, for a large message: 64 KiB (Linux's
 * default) makes a 10 MiB result 160 hand-overs between the server and
 * mcphost, each a wake-up of the one that waits, on another CPU; 1 MiB
 * makes it ten, and the crossing half as long (transports/stdio/
 * README.md, "Messages", has the figures). The pipe has
 * its old size back as soon as the message is in (and the pipe holds no
 * more than that size: else at a later read), because pages beyond the
 * default count against the user's pipe-user-pages-soft, past which every
 * new pipe of theirs gets two pages. A kernel that refuses (the limit, or
 * pipe-max-size below 1 MiB) is not asked again. */
static void stdout_pipe_room(mcph_transport *t) {
  if (t->stdout_fd < 0)
    return; /* a message delivered just now ended the transport */
  size_t pending = framing_pending(&t->rx);
  if (!t->stdout_pipe_size && pending >= PIPE_GROW_AT &&
      !t->stdout_grow_failed) {
    int was = fcntl(t->stdout_fd, F_GETPIPE_SZ);
    if (was > 0 && was < PIPE_BIG_SIZE &&
        fcntl(t->stdout_fd, F_SETPIPE_SZ, PIPE_BIG_SIZE) >= 0) {
      t->stdout_pipe_size = was;
    } else {
      t->stdout_grow_failed = true;
    }
  } else if (t->stdout_pipe_size && pending < PIPE_GROW_AT &&
             fcntl(t->stdout_fd, F_SETPIPE_SZ, t->stdout_pipe_size) >= 0) {
    t->stdout_pipe_size = 0;
  }
}

/* Reads up to `budget` bytes of stdout, delivering lines as they complete.
 * With `until_empty` false, a read that leaves room unfilled ends it: the
 * pipe was empty then, and the watch, level-triggered, fires again for
 * what comes next or for end-of-file. That saves the read that would only
 * have said EAGAIN, once per answer. Returns false when stdout is
 * finished: end-of-file, or an error (logged, and t->cause set). */
static bool read_stdout(mcph_transport *t, size_t budget, bool until_empty) {
  size_t done = 0;
  while (done < budget) {
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
      done += (size_t)n;
      deliver_lines(t);
      stdout_pipe_room(t);
      if (!until_empty && (size_t)n < avail) {
        return true;
      }
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
  return true;
}

/* Stops reading stdout. A last line without '\n' waits for the exit
 * status: see deliver_last_line(). */
static void finish_stdout(mcph_transport *t) {
  stdio_unwatch(t, &t->stdout_watch);
  stdio_close_fd(&t->stdout_fd);
}

/* Once the child is reaped: a last line that had no '\n' is delivered if
 * the server exited with status 0 (or its status is unknown): some end
 * their last message without one. From a server that crashed or was
 * killed it is the part of a message written before it died: delivering
 * it would fail the request it answered as "not valid JSON", hiding the
 * crash; instead it is dropped and the request fails with the exit
 * status and stderr, from on_close. */
static void deliver_last_line(mcph_transport *t) {
  size_t n = framing_pending(&t->rx);
  bool clean = !t->status_known ||
               (WIFEXITED(t->wait_status) && WEXITSTATUS(t->wait_status) == 0);
  if (n > 0 && !clean) {
    /* After a close() the host asked for, the rest is of no interest. */
    mcph_logf(t->host, t->close_requested ? MCPH_LOG_DEBUG : MCPH_LOG_WARN,
              t->name,
              "server ended in the middle of a message (%zu bytes without "
              "a newline); dropped",
              n);
    framing_drop_pending(&t->rx);
    return;
  }
  framing_set_eof(&t->rx);
  deliver_lines(t);
}

void pipes_on_stdout(void *ud, int fd, unsigned events) {
  mcph_transport *t = ud;
  (void)fd;
  (void)events;
  if (!read_stdout(t, STDOUT_BUDGET, false)) {
    finish_stdout(t);
    child_pipe_lost(t, END_STDOUT_EOF);
  }
}

/* ---- stderr ---- */

/* Returns false when stderr is finished. */
static bool read_stderr(mcph_transport *t, size_t budget) {
  char buf[4096];
  size_t done = 0;
  while (done < budget) {
    ssize_t n = read(t->stderr_fd, buf, sizeof buf);
    if (n > 0) {
      stderr_log_write(&t->errlog, buf, (size_t)n);
      done += (size_t)n;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
  }
  return true;
}

static void finish_stderr(mcph_transport *t) {
  stdio_unwatch(t, &t->stderr_watch);
  stdio_close_fd(&t->stderr_fd);
}

void pipes_on_stderr(void *ud, int fd, unsigned events) {
  mcph_transport *t = ud;
  (void)fd;
  (void)events;
  if (!read_stderr(t, STDERR_BUDGET)) {
    finish_stderr(t);
  }
}

void pipes_drain(mcph_transport *t) {
  /* What the child wrote before it exited is in the pipes already. */
  if (t->stdout_fd >= 0) {
    read_stdout(t, DRAIN_BUDGET, true);
    finish_stdout(t);
  }
  deliver_last_line(t);
  if (t->stderr_fd >= 0) {
    read_stderr(t, DRAIN_BUDGET);
    finish_stderr(t);
  }
}

/* ---- stdin ---- */

void pipes_close_stdin(mcph_transport *t) {
  /* Then nobody else holds the write end (guardian.h). */
  guardian_settle(&t->pl->guard);
  stdio_unwatch(t, &t->stdin_watch);
  stdio_close_fd(&t->stdin_fd);
  free(t->tx);
  t->tx = NULL;
  t->tx_len = t->tx_off = t->tx_cap = 0;
}

static void stdin_failed(mcph_transport *t, int error) {
  if (error != EPIPE) {
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "cannot write to the server's stdin: %s", strerror(error));
  }
  pipes_close_stdin(t);
  child_pipe_lost(t, END_STDIN_CLOSED);
}

static void on_stdin_writable(void *ud, int fd, unsigned events);

/* Writes queued bytes until done or the pipe is full, watching stdin for
 * room while anything is left. Returns 0, or the errno that ended stdin
 * (already handled). */
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
  stdio_unwatch(t, &t->stdin_watch);
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
  if (n == 0) {
    return true;
  }
  if (t->tx_off > 0 && t->tx_cap - t->tx_len < n) {
    /* Reuse the room of what was written already before growing. */
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

int pipes_send(mcph_transport *t, const char *json, size_t len,
               mcph_error *err) {
  if (t->tx_off < t->tx_len) {
    /* Behind other messages: queue it whole, after them. The stdin watch
     * is armed while anything is queued. */
    size_t before = t->tx_len;
    if (!tx_append(t, json, len) || !tx_append(t, "\n", 1)) {
      t->tx_len = before;
      return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    }
    return 0;
  }

  /* Nothing queued: write at once, without a copy. */
  struct iovec iov[2] = {{(void *)json, len}, {"\n", 1}};
  ssize_t n;
  do {
    n = writev(t->stdin_fd, iov, 2);
  } while (n < 0 && errno == EINTR);
  if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
    int e = errno;
    stdin_failed(t, e);
    return mcph_error_set(err, MCPH_ECLOSED, "cannot write to the server: %s",
                          strerror(e));
  }
  size_t done = n > 0 ? (size_t)n : 0;
  if (done == len + 1) {
    return 0;
  }
  /* Queue the rest of this message. */
  size_t rest = done < len ? len - done : 0;
  if (!tx_append(t, json + len - rest, rest) || !tx_append(t, "\n", 1)) {
    t->tx_len = 0;
    if (done > 0) { /* part of it is out: the stream is broken */
      stdin_failed(t, ENOMEM);
    }
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  int e = flush_tx(t);
  if (e) {
    return mcph_error_set(err, MCPH_ECLOSED, "cannot write to the server: %s",
                          strerror(e));
  }
  return 0;
}
