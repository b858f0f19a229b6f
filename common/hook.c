/* Running a hook; see hook.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pipe2 */
#endif

#include "hook.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "proc_spawn.h"
#include "proc_watch.h"

/* After the hook exited, how long its stdout may stay open (a child it
 * left in the background may hold it) before its answer is taken as is. */
#define EXIT_GRACE_MS 500

struct hook_run {
  const mcph_host *host;
  char *name; /* argv[0], for messages */
  pid_t pid;
  int in_fd, out_fd;
  mcph_watch *in_watch, *out_watch;
  proc_watch *exit_watch;
  mcph_timer *deadline, *grace;
  uint64_t timeout_ms;
  char *input;
  size_t input_len, input_off;
  char *out;
  size_t out_len, out_cap;
  bool exited;
  int wstatus;
  hook_done_cb cb;
  void *ud;
};

static void close_in(hook_run *r) {
  if (r->in_watch)
    r->host->fd_unwatch(r->host, r->in_watch);
  r->in_watch = NULL;
  if (r->in_fd >= 0)
    close(r->in_fd);
  r->in_fd = -1;
}

static void close_out(hook_run *r) {
  if (r->out_watch)
    r->host->fd_unwatch(r->host, r->out_watch);
  r->out_watch = NULL;
  if (r->out_fd >= 0)
    close(r->out_fd);
  r->out_fd = -1;
}

/* Stops everything; kills the hook if it still runs. */
static void stop(hook_run *r) {
  close_in(r);
  close_out(r);
  if (r->deadline)
    r->host->timer_cancel(r->host, r->deadline);
  if (r->grace)
    r->host->timer_cancel(r->host, r->grace);
  r->deadline = r->grace = NULL;
  if (r->exit_watch) {
    proc_watch_cancel(r->exit_watch);
    r->exit_watch = NULL;
  }
  if (!r->exited && r->pid > 0) {
    proc_kill(r->pid);
    r->exited = true;
  }
}

static void run_free(hook_run *r) {
  free(r->name);
  free(r->input);
  free(r->out);
  free(r);
}

static void done(hook_run *r, hook_status st, const char *why) {
  stop(r);
  r->out[r->out_len] = '\0';
  hook_done_cb cb = r->cb;
  void *ud = r->ud;
  char *out = r->out;
  r->out = NULL;
  run_free(r);
  cb(ud, st, out, why);
  free(out);
}

/* The hook exited and its stdout is closed (or the grace ran out). */
static void finish(hook_run *r) {
  char why[400], status[120];
  if (WIFEXITED(r->wstatus) && WEXITSTATUS(r->wstatus) == 0) {
    done(r, HOOK_OK, NULL);
    return;
  }
  proc_describe_status(r->wstatus, status, sizeof status);
  snprintf(why, sizeof why, "the hook \"%.200s\" %s", r->name, status);
  done(r, HOOK_FAILED, why);
}

static void on_in(void *ud, int fd, unsigned events) {
  hook_run *r = ud;
  (void)events;
  while (r->input_off < r->input_len) {
    ssize_t n = send(fd, r->input + r->input_off, r->input_len - r->input_off,
                     MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return;
    if (n < 0)
      break; /* EPIPE: it does not read its input; its answer may still do */
    r->input_off += (size_t)n;
  }
  close_in(r); /* EOF for the hook */
}

static void on_grace(void *ud) {
  hook_run *r = ud;
  r->grace = NULL;
  finish(r);
}

static void on_out(void *ud, int fd, unsigned events) {
  hook_run *r = ud;
  (void)events;
  for (;;) {
    if (r->out_cap - r->out_len < 4096) {
      if (r->out_cap > HOOK_MAX_OUTPUT) {
        char why[300];
        snprintf(why, sizeof why,
                 "the hook \"%.200s\" printed more than %d "
                 "bytes",
                 r->name, HOOK_MAX_OUTPUT);
        done(r, HOOK_FAILED, why);
        return;
      }
      r->out_cap *= 2;
      char *bigger = xrealloc(r->out, r->out_cap + 1);
      r->out = bigger;
    }
    ssize_t n = read(fd, r->out + r->out_len, r->out_cap - r->out_len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return;
    if (n <= 0)
      break;
    r->out_len += (size_t)n;
  }
  close_out(r);
  if (r->exited) {
    if (r->grace)
      r->host->timer_cancel(r->host, r->grace);
    r->grace = NULL;
    finish(r);
  }
}

static void on_exit_(void *ud, int wstatus) {
  hook_run *r = ud;
  r->exit_watch = NULL; /* freed itself */
  r->exited = true;
  r->wstatus = wstatus;
  if (r->out_fd < 0) {
    finish(r);
  } else if (r->host->timer_start(r->host, EXIT_GRACE_MS, on_grace, r,
                                  &r->grace) != 0) {
    r->grace = NULL;
    finish(r);
  }
}

static void on_deadline(void *ud) {
  hook_run *r = ud;
  r->deadline = NULL;
  char why[300];
  snprintf(why, sizeof why, "the hook \"%.200s\" did not answer within %.3g s",
           r->name, (double)r->timeout_ms / 1000.0);
  done(r, HOOK_TIMEOUT, why);
}

/* Moves `fd` to a number >= 3, so that the child's dup2() onto 0, 1 and 2
 * never meets one of its own sources. */
static int lift(int fd) {
  if (fd < 0 || fd >= 3)
    return fd;
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return moved;
}

static void close_pair(int fds[2]) {
  for (int i = 0; i < 2; i++)
    if (fds[i] >= 0)
      close(fds[i]);
}

hook_run *hook_start(const mcph_host *host, const char *command,
                     const char *input, uint64_t timeout_ms, hook_done_cb cb,
                     void *ud, char *why, size_t n) {
  char **argv = hook_split(command, why, n);
  if (!argv)
    return NULL;
  hook_run *r = xcalloc(1, sizeof *r);
  *r = (hook_run){.host = host,
                  .pid = -1,
                  .in_fd = -1,
                  .out_fd = -1,
                  .timeout_ms = timeout_ms,
                  .cb = cb,
                  .ud = ud};
  r->name = xstrdup(argv[0]);
  r->input_len = strlen(input);
  r->input = xmalloc(r->input_len + 1);
  r->out_cap = 4096;
  r->out = xmalloc(r->out_cap + 1);
  memcpy(r->input, input, r->input_len + 1);

  /* stdin is a socket so that writing to a hook that exited is EPIPE
   * without SIGPIPE (send with MSG_NOSIGNAL), whatever the host's signal
   * setup. */
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 ||
      pipe2(out, O_CLOEXEC) != 0) {
    snprintf(why, n, "cannot run the hook: %s", strerror(errno));
    goto fail;
  }
  for (int i = 0; i < 2; i++) {
    in[i] = lift(in[i]);
    out[i] = lift(out[i]);
  }
  if (in[0] < 0 || in[1] < 0 || out[0] < 0 || out[1] < 0) {
    snprintf(why, n, "cannot run the hook: %s", strerror(errno));
    goto fail;
  }
  shutdown(in[1], SHUT_WR); /* the hook only reads it */
  proc_spec spec = {.argv = argv,
                    .fd = {in[1], out[1], PROC_FD_INHERIT},
                    .report_fd = -1};
  if (proc_start(&spec, &r->pid, why, n) != 0)
    goto fail;
  close(in[1]);
  close(out[1]);
  in[1] = out[1] = -1;
  r->in_fd = in[0];
  r->out_fd = out[0];
  fcntl(r->in_fd, F_SETFL, fcntl(r->in_fd, F_GETFL) | O_NONBLOCK);
  fcntl(r->out_fd, F_SETFL, fcntl(r->out_fd, F_GETFL) | O_NONBLOCK);
  hook_free_argv(argv);
  argv = NULL;

  if (host->fd_watch(host, r->out_fd, MCPH_FD_READ, on_out, r, &r->out_watch) !=
          0 ||
      host->fd_watch(host, r->in_fd, MCPH_FD_WRITE, on_in, r, &r->in_watch) !=
          0 ||
      proc_watch_start(host, r->pid, 0, on_exit_, r, &r->exit_watch) != 0 ||
      host->timer_start(host, timeout_ms, on_deadline, r, &r->deadline) != 0) {
    snprintf(why, n, "cannot watch the hook \"%.200s\"", r->name);
    stop(r);
    run_free(r);
    return NULL;
  }
  return r;

fail:
  close_pair(in);
  close_pair(out);
  hook_free_argv(argv);
  run_free(r);
  return NULL;
}

void hook_abort(hook_run *r) {
  if (!r)
    return;
  stop(r);
  run_free(r);
}
