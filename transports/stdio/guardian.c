/* The guardian process; see guardian.h. */
#include "guardian.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

#define LOG_SOURCE "mcphost.transport.stdio"

/* ---- the guardian process ----
 * It is forked from a host that may have threads, by a fork that runs no
 * atfork handler (middle_main), so it only makes async-signal-safe calls:
 * no malloc (the set lives in mmap'd pages), no stdio, no locks, nothing
 * of the threads library (pthread_*, sched_getcpu): its copy of the
 * thread's state is the calling thread's, as it was. */

typedef struct pgid_set {
  pid_t *ids;
  size_t len, cap;
} pgid_set;

static void set_add(pgid_set *s, pid_t id) {
  if (s->len == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 1024;
    void *p = mmap(NULL, cap * sizeof(pid_t), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      return; /* this group goes unguarded; nothing better to do */
    }
    if (s->ids) {
      memcpy(p, s->ids, s->len * sizeof(pid_t));
      munmap(s->ids, s->cap * sizeof(pid_t));
    }
    s->ids = p;
    s->cap = cap;
  }
  s->ids[s->len++] = id;
}

static void set_remove(pgid_set *s, pid_t id) {
  for (size_t i = 0; i < s->len; i++) {
    if (s->ids[i] == id) {
      s->ids[i] = s->ids[--s->len];
      return;
    }
  }
}

/* Applies one command line ("+123" or "-123", without the '\n'). */
static void apply_command(pgid_set *s, const char *line, size_t len) {
  if (len < 2 || (line[0] != '+' && line[0] != '-')) {
    return;
  }
  long id = 0;
  for (size_t i = 1; i < len; i++) {
    if (line[i] < '0' || line[i] > '9' || id > 99999999) {
      return;
    }
    id = id * 10 + (line[i] - '0');
  }
  if (id <= 1) {
    return; /* kill(-1) or kill(0) would hit far more than a server */
  }
  if (line[0] == '+') {
    set_add(s, (pid_t)id);
  } else {
    set_remove(s, (pid_t)id);
  }
}

/* Holds nothing of mcphost's: not its stdout or stderr (someone may be
 * reading them to end-of-file), not a server's pipe, not the write end of
 * the command pipe. Done by the middle process in its own descriptor
 * table (vfork() shares the memory, not the table), before it forks the
 * guardian: once it has exited, no copy is left anywhere. */
static void drop_fds(int cmd_fd) {
  int null_fd = open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; fd++) {
    if (null_fd >= 0 && null_fd != fd) {
      dup2(null_fd, fd);
    } else if (null_fd < 0) {
      close(fd);
    }
  }
  proc_close_fds_except(cmd_fd);
}

static _Noreturn void guardian_main(int cmd_fd);

/* The middle process: a vfork() child, in mcphost's memory while the
 * thread that started it waits. It drops mcphost's descriptors, forks the
 * guardian (which gets a copy of that memory) and exits. The fork is
 * _Fork() (glibc 2.34, musl 1.2.3), which runs no atfork handler: fork()
 * would run them (the allocator's locks among them) in the memory the
 * middle shares with mcphost. */
PROC_VFORK_CODE static _Noreturn void middle_main(int cmd_fd) {
  drop_fds(cmd_fd);
  pid_t pid = _Fork();
  if (pid == 0) {
    guardian_main(cmd_fd);
  }
  _exit(pid < 0 ? 1 : 0);
}

static _Noreturn void guardian_main(int cmd_fd) {
  /* Out of mcphost's session and process group: a terminal's ^C or a
   * kill of mcphost's group must not take the guardian down with it. */
  setsid();
  prctl(PR_SET_NAME, "mcphost-guard");
  /* Forked from mcphost, it holds mcphost's environment: the servers it
   * guards must not read it from /proc (inherited from a host that did
   * the same, and set here for any host that did not). */
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

  uint64_t ignore = 0;
  const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGTSTP};
  for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
    ignore |= (uint64_t)1 << (ignored[i] - 1);
  }
  proc_signals_reset(ignore);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);

  pgid_set set = {0};
  char buf[256];
  size_t len = 0;
  for (;;) {
    ssize_t n = read(cmd_fd, buf + len, sizeof buf - len);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break; /* end-of-file: mcphost is gone */
    }
    len += (size_t)n;
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
      if (buf[i] == '\n') {
        apply_command(&set, buf + start, i - start);
        start = i + 1;
      }
    }
    memmove(buf, buf + start, len - start);
    len -= start;
    if (len == sizeof buf) {
      len = 0; /* no command is this long: drop the garbage */
    }
  }
  for (size_t i = 0; i < set.len; i++) {
    kill(-set.ids[i], SIGKILL);
  }
  _exit(0);
}

/* ---- the host side ---- */

void guardian_init(guardian *g, const mcph_host *host) {
  g->host = host;
  g->fd = -1;
  g->mid = 0;
  g->warned = false;
}

static void guardian_warn(guardian *g, const char *what, int error) {
  if (!g->warned) {
    g->warned = true;
    mcph_logf(g->host, MCPH_LOG_WARN, LOG_SOURCE,
              "%s: %s; processes that servers fork may outlive mcphost if it "
              "is killed",
              what, strerror(error));
  }
}

/* vfork() and the middle, in a function of their own that ASan leaves
 * alone (PROC_VFORK_CODE). */
PROC_VFORK_CODE static pid_t start_middle(int cmd_fd) {
  pid_t mid = vfork();
  if (mid == 0) {
    middle_main(cmd_fd);
  }
  return mid;
}

void guardian_prepare(guardian *g) {
  if (g->fd >= 0 || g->mid > 0) {
    return;
  }
  int fds[2];
  /* The write end non-blocking: never block the loop on a guardian that
   * does not read. */
  if (proc_make_pipe(fds, 1) != 0) {
    guardian_warn(g, "cannot start the process guardian: pipe", errno);
    return;
  }

  /* Fork twice: the guardian is orphaned at once and adopted by init (or
   * the nearest subreaper), so mcphost never has a child of its own to
   * reap for it, even if it dies early. The middle process is a vfork()
   * child (middle_main): mcphost's memory is copied once, for the
   * guardian, not twice, and natively the middle has dropped our
   * descriptors and called _exit() when vfork() returns;
   * guardian_settle() reaps it. Signals stay blocked until then: no
   * handler of ours runs in the middle. errno is the calling thread's,
   * which the middle's calls set: kept across. */
  int saved_errno = errno;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pid_t mid = start_middle(fds[0]);
  int fork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = saved_errno;
  close(fds[0]);
  if (mid < 0) {
    close(fds[1]);
    guardian_warn(g, "cannot start the process guardian: fork", fork_errno);
    return;
  }
  g->mid = mid;
  g->fd = fds[1];
}

bool guardian_settle(guardian *g) {
  if (g->mid <= 0) {
    return g->fd >= 0;
  }
  pid_t mid = g->mid, got;
  int status = 0;
  while ((got = waitpid(mid, &status, 0)) < 0 && errno == EINTR) {
  }
  g->mid = 0;
  /* Only a middle process that said its fork failed means no guardian
   * reads the pipe. Not reaped here (a host that ignores SIGCHLD, or
   * reaps what it did not start), the guardian may well run and hold
   * groups registered already: closing the pipe would have it kill
   * them. A dead guardian shows at the next write (EPIPE). */
  if (got == mid && WIFEXITED(status) &&
      WEXITSTATUS(status) != 0 && g->fd >= 0) {
    close(g->fd);
    g->fd = -1;
    guardian_warn(g, "cannot start the process guardian: fork", EAGAIN);
    return false;
  }
  return g->fd >= 0;
}

/* Writes one command. Returns false only when the guardian is gone. */
static bool guardian_write(guardian *g, char op, pid_t pgid) {
  char line[32];
  int n = snprintf(line, sizeof line, "%c%ld\n", op, (long)pgid);
  ssize_t w;
  do {
    w = write(g->fd, line, (size_t)n); /* < PIPE_BUF: all or nothing */
  } while (w < 0 && errno == EINTR);
  if (w == n) {
    return true;
  }
  if (errno != EPIPE) {
    /* Full (it is stuck) or odd: this command is lost, but closing the
     * pipe would make the guardian kill every running server. */
    guardian_warn(g, "cannot write to the process guardian", errno);
    return true;
  }
  guardian_warn(g, "the process guardian has died", errno);
  close(g->fd);
  g->fd = -1;
  return false;
}

void guardian_register(guardian *g, pid_t pgid) {
  /* A second attempt starts a new guardian if the old one died (EPIPE).
   * Groups registered with the dead one stay unguarded. */
  for (int attempt = 0; attempt < 2; attempt++) {
    if (g->fd < 0) {
      guardian_settle(g); /* a start of the dead one, not reaped yet */
      guardian_prepare(g);
    }
    if (g->fd < 0) {
      return;
    }
    /* Buffered in the pipe until the guardian reads it. */
    if (guardian_write(g, '+', pgid)) {
      return;
    }
  }
}

void guardian_unregister(guardian *g, pid_t pgid) {
  if (g->fd >= 0) {
    guardian_write(g, '-', pgid);
  }
}

void guardian_stop(guardian *g) {
  guardian_settle(g);
  if (g->fd >= 0) {
    close(g->fd);
    g->fd = -1;
  }
}
