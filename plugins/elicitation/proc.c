/* Splitting, spawning and reaping; see proc.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX_SPAWN_SETSID, pipe2 */
#endif

#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- splitting ---- */

void proc_free_argv(char **argv) {
  for (char **p = argv; p && *p; p++)
    free(*p);
  free(argv);
}

char **proc_split(const char *cmd, char *why, size_t n) {
  size_t len = strlen(cmd);
  /* No word is longer than the command, and there are at most len/2+1. */
  char **argv = calloc(len / 2 + 2, sizeof *argv);
  char *word = malloc(len + 1);
  if (!argv || !word)
    abort();
  size_t argc = 0, w = 0;
  bool in_word = false;
  const char *p = cmd;
  while (*p) {
    char c = *p++;
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) {
        word[w] = '\0';
        argv[argc++] = strdup(word);
        w = 0;
        in_word = false;
      }
      continue;
    }
    in_word = true;
    if (c == '\'') {
      while (*p && *p != '\'')
        word[w++] = *p++;
      if (!*p++)
        goto unclosed;
    } else if (c == '"') {
      while (*p && *p != '"') {
        if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
          p++;
        word[w++] = *p++;
      }
      if (!*p++)
        goto unclosed;
    } else if (c == '\\') {
      if (*p)
        word[w++] = *p++;
    } else {
      word[w++] = c;
    }
  }
  if (in_word) {
    word[w] = '\0';
    argv[argc++] = strdup(word);
  }
  free(word);
  for (size_t i = 0; i < argc; i++)
    if (!argv[i])
      abort();
  if (argc == 0) {
    snprintf(why, n, "the command is empty");
    proc_free_argv(argv);
    return NULL;
  }
  return argv;
unclosed:
  free(word);
  proc_free_argv(argv);
  snprintf(why, n, "a quote is not closed in: %.200s", cmd);
  return NULL;
}

/* ---- spawning ---- */

int proc_spawn(char *const argv[], int in_fd, int out_fd, int err_fd,
               bool new_session, pid_t *pid, char *why, size_t n) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  int fds[3] = {in_fd, out_fd, err_fd};
  for (int i = 0; i < 3; i++) {
    if (fds[i] == -1)
      posix_spawn_file_actions_addopen(&fa, i, "/dev/null",
                                       i == 0 ? O_RDONLY : O_WRONLY, 0);
    else if (fds[i] >= 0)
      posix_spawn_file_actions_adddup2(&fa, fds[i], i);
  }
  /* The host's fds should all be close-on-exec; make sure. */
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);

  /* The host blocks SIGINT, SIGTERM and SIGHUP (it reads them from a
   * signalfd) and ignores SIGPIPE; a child must get the usual behaviour. */
  sigset_t none, dfl;
  sigemptyset(&none);
  sigemptyset(&dfl);
  int defaults[] = {SIGPIPE, SIGINT,  SIGTERM, SIGHUP, SIGQUIT,
                    SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU};
  for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
    sigaddset(&dfl, defaults[i]);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &dfl);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (new_session) {
    flags |= POSIX_SPAWN_SETSID;
  } else {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&attr, 0);
  }
  posix_spawnattr_setflags(&attr, flags);

  int rc = posix_spawnp(pid, argv[0], &fa, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    snprintf(why, n, "cannot run \"%.200s\": %s", argv[0], strerror(rc));
    return -1;
  }
  return 0;
}

/* ---- reaping ---- */

#define POLL_MS 50

struct proc_watch {
  const mcph_host *host;
  pid_t pid;
  int pidfd;
  mcph_watch *watch;
  mcph_timer *timer;
  proc_exit_cb cb;
  void *ud;
};

static void watch_free(proc_watch *w) {
  if (w->watch)
    w->host->fd_unwatch(w->host, w->watch);
  if (w->timer)
    w->host->timer_cancel(w->host, w->timer);
  if (w->pidfd >= 0)
    close(w->pidfd);
  free(w);
}

/* Reaps if it exited; true when done (and `w` is freed). */
static bool try_reap(proc_watch *w) {
  int status = 0;
  pid_t r;
  do {
    r = waitpid(w->pid, &status, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == 0)
    return false;
  /* r < 0 (ECHILD): someone else reaped it; nothing more to learn. */
  proc_exit_cb cb = w->cb;
  void *ud = w->ud;
  watch_free(w);
  cb(ud, r < 0 ? 0 : status);
  return true;
}

static void on_pidfd(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  try_reap(ud);
}

static void on_poll(void *ud) {
  proc_watch *w = ud;
  w->timer = NULL; /* the host freed it */
  if (!try_reap(w) &&
      w->host->timer_start(w->host, POLL_MS, on_poll, w, &w->timer) != 0)
    w->timer = NULL;
}

int proc_watch_start(const mcph_host *host, pid_t pid, proc_exit_cb cb,
                     void *ud, proc_watch **out) {
  proc_watch *w = calloc(1, sizeof *w);
  if (!w)
    abort();
  *w = (proc_watch){.host = host, .pid = pid, .pidfd = -1, .cb = cb, .ud = ud};
#ifdef SYS_pidfd_open
  w->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (w->pidfd >= 0) {
    fcntl(w->pidfd, F_SETFD, FD_CLOEXEC);
    if (host->fd_watch(host, w->pidfd, MCPH_FD_READ, on_pidfd, w, &w->watch) !=
        0) {
      close(w->pidfd);
      w->pidfd = -1;
    }
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
  if (w)
    watch_free(w);
}

void proc_kill(pid_t pid) {
  if (pid <= 0)
    return;
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
    ;
}

void proc_describe(int wstatus, char *buf, size_t n) {
  if (WIFEXITED(wstatus))
    snprintf(buf, n, "exited with status %d", WEXITSTATUS(wstatus));
  else if (WIFSIGNALED(wstatus))
    snprintf(buf, n, "was killed by signal %d (%s)", WTERMSIG(wstatus),
             strsignal(WTERMSIG(wstatus)));
  else
    snprintf(buf, n, "ended with wait status %d", wstatus);
}
