/* One forwarded command in the session process (daemon.h): for its
 * length, fds 0, 1 and 2 are the caller's, and so are environ and the
 * working directory, so that isatty(), prompts, getenv() and relative
 * paths are what the command would have had run directly; cli_main runs
 * it against the kept host and client; then everything is put back.
 * Only one runs at a time (daemon.c queues the others). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/daemon/daemon.h"
#include "util.h"

extern char **environ;

typedef struct run_watch {
  mcphost_client *api;
  mcphost_watch *w;
  bool signalled; /* a signal came from the caller */
} run_watch;

/* A byte from the caller is a signal it got; the end of its connection
 * (it was killed) is a hang-up. */
static void on_caller(void *ud, int fd, unsigned events) {
  run_watch *rw = ud;
  unsigned char b[16];
  ssize_t n = read(fd, b, sizeof b);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
    return;
  }
  if (n <= 0 || (events & (MCPHOST_FD_HUP | MCPHOST_FD_ERROR))) {
    mcphost_unwatch(rw->api, rw->w);
    rw->w = NULL;
    mcphost_interrupt(rw->api, SIGHUP);
    rw->signalled = true;
    return;
  }
  int sig = b[n - 1];
  mcphost_interrupt(rw->api, sig == SIGINT || sig == SIGTERM ? sig : SIGHUP);
  rw->signalled = true;
}

/* stdio's state must not carry from one caller to the next. */
static void reset_stdio(void) {
  __fpurge(stdin);
  clearerr(stdin);
  clearerr(stdout);
  clearerr(stderr);
}

/* The caller's terminal is the command's (terminal_open.h): this process
 * has none of its own. Without one, the caller's MCPHOST_TTY stays. */
static void use_terminal(daemon_request *r) {
  if (r->fds[3] < 0) {
    return;
  }
  size_t n = 0, kept = 0;
  while (r->env[n]) {
    n++;
  }
  for (size_t i = 0; i < n; i++) {
    if (strncmp(r->env[i], "MCPHOST_TTY=", 12) != 0) {
      r->env[kept++] = r->env[i];
    }
  }
  r->tty_env = xasprintf("MCPHOST_TTY=/proc/self/fd/%d", r->fds[3]);
  r->env = xrealloc(r->env, (kept + 2) * sizeof *r->env);
  r->env[kept] = r->tty_env;
  r->env[kept + 1] = NULL;
}

int daemon_run_command(const cli_shared *shared, int conn, daemon_request *r,
                       bool *stop) {
  mcphost_client *api = shared->api;
  int home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  fflush(stdout);
  fflush(stderr);
  reset_stdio();
  for (int i = 0; i < 3; i++) {
    dup2(r->fds[i], i);
  }
  /* Line-buffered on a terminal, as a process starting there would be. */
  setvbuf(stdout, NULL, isatty(1) ? _IOLBF : _IOFBF, BUFSIZ);
  char **own_env = environ;
  use_terminal(r);
  environ = r->env;
  int rc;
  if (chdir(r->cwd) != 0) {
    fprintf(stderr, "mcphost: the session cannot enter %s: %s\n", r->cwd,
            strerror(errno));
    rc = EXIT_USAGE;
  } else {
    int fl = fcntl(conn, F_GETFL);
    fcntl(conn, F_SETFL, fl | O_NONBLOCK);
    run_watch rw = {.api = api};
    mcphost_watch_fd(api, conn, MCPHOST_FD_READ, on_caller, &rw, &rw.w, NULL);
    /* getopt's and the command's own words are the request's (owned by
     * it until the request is freed, after the command). */
    rc = cli_main(r->argc, r->argv, shared);
    mcphost_unwatch(api, rw.w);
    fcntl(conn, F_SETFL, fl);
    if (mcphost_interrupted(api) && !rw.signalled) {
      *stop = true; /* SIGTERM, SIGINT or SIGHUP to the session itself */
    }
  }
  /* The next command starts with no signal (signal number 0 too). */
  mcphost_interrupt(api, 0);
  mcphost_interrupt_clear(api);
  fflush(stdout);
  fflush(stderr);
  reset_stdio();
  environ = own_env;
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int i = 0; i < 3 && null >= 0; i++) {
    dup2(null, i);
  }
  if (null > 2) {
    close(null);
  }
  if (home >= 0) {
    (void)!fchdir(home);
    close(home);
  }
  return rc;
}
