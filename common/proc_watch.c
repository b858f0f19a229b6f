/* Reaping children on the loop; see proc_watch.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "proc_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"

#define POLL_MS 50

struct proc_watch {
  const mcph_host *host;
  pid_t pid;
  unsigned flags;
  int pidfd;
  mcph_watch *watch;
  mcph_timer *timer;
  proc_exit_cb cb;
  void *ud;
};

bool proc_exited(pid_t pid) {
  siginfo_t si;
  memset(&si, 0, sizeof si);
  /* WNOWAIT: the child stays a zombie for its owner to reap. ECHILD: it
   * was reaped already. */
  if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0) {
    return si.si_pid != 0;
  }
  return errno == ECHILD;
}

static void watch_free(proc_watch *w) {
  if (w->watch) {
    w->host->fd_unwatch(w->host, w->watch);
  }
  if (w->timer) {
    w->host->timer_cancel(w->host, w->timer);
  }
  if (w->pidfd >= 0) {
    close(w->pidfd);
  }
  free(w);
}

/* True when the child exited (and `w` is freed, the callback run). */
static bool check(proc_watch *w) {
  int status = 0;
  if (w->flags & PROC_WATCH_NO_REAP) {
    if (!proc_exited(w->pid)) {
      return false;
    }
  } else {
    pid_t r;
    do {
      r = waitpid(w->pid, &status, WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == 0) {
      return false;
    }
    if (r < 0) {
      status = 0; /* ECHILD: someone else reaped it */
    }
  }
  proc_exit_cb cb = w->cb;
  void *ud = w->ud;
  watch_free(w);
  cb(ud, status);
  return true;
}

static void on_pidfd(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  check(ud);
}

static void on_poll(void *ud) {
  proc_watch *w = ud;
  w->timer = NULL; /* the host freed it */
  if (check(w)) {
    return;
  }
  if (w->host->timer_start(w->host, POLL_MS, on_poll, w, &w->timer) != 0) {
    /* No timer left to look with: said as an unknown end, so that the
     * owner stops the child instead of waiting for ever. */
    proc_exit_cb cb = w->cb;
    void *ud2 = w->ud;
    watch_free(w);
    cb(ud2, -1);
  }
}

int proc_watch_start(const mcph_host *host, pid_t pid, unsigned flags,
                     proc_exit_cb cb, void *ud, proc_watch **out) {
  proc_watch *w = xcalloc(1, sizeof *w);
  *w = (proc_watch){.host = host,
                    .pid = pid,
                    .flags = flags,
                    .pidfd = -1,
                    .cb = cb,
                    .ud = ud};
#ifdef SYS_pidfd_open
  w->pidfd = (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec */
  if (w->pidfd >= 0 && host->fd_watch(host, w->pidfd, MCPH_FD_READ, on_pidfd, w,
                                      &w->watch) != 0) {
    close(w->pidfd);
    w->pidfd = -1;
  }
#endif
  if (!w->watch &&
      host->timer_start(host, POLL_MS, on_poll, w, &w->timer) != 0) {
    free(w);
    return -1;
  }
  *out = w;
  return 0;
}

void proc_watch_cancel(proc_watch *w) {
  if (w) {
    watch_free(w);
  }
}
