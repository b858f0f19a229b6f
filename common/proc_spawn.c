/* Starting a child process; see proc_spawn.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pipe2, strchrnul, close_range, sigabbrev_np */
#endif
#include "proc_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* glibc's execvp() searches this when PATH is unset (confstr _CS_PATH). */
#define DEFAULT_PATH "/bin:/usr/bin"

/* Everything the child needs, prepared before the vfork() so that the
 * child only makes async-signal-safe calls (fork_child). */
typedef struct child_plan {
  pid_t parent;
  const proc_spec *spec;
  int status_fd;        /* where a failure before exec is reported */
  char **candidates;    /* paths to try, in order */
  bool searched;        /* candidates came from a PATH search */
  const char **sh_argv; /* {"/bin/sh", <candidate>, argv[1..], NULL} */
  char *const *envp;
} child_plan;

static void free_strv(char **v) {
  for (char **p = v; p && *p; p++) {
    free(*p);
  }
  free(v);
}

/* The execvp() search list for `cmd`, with PATH from the child's env. */
static char **exec_candidates(const char *cmd, char *const *envp,
                              bool *searched) {
  *searched = strchr(cmd, '/') == NULL;
  if (!*searched) {
    char **v = calloc(2, sizeof *v);
    if (v && !(v[0] = strdup(cmd))) {
      free(v);
      v = NULL;
    }
    return v;
  }
  const char *path = DEFAULT_PATH;
  for (char *const *e = envp; e && *e; e++) {
    if (strncmp(*e, "PATH=", 5) == 0) {
      path = *e + 5;
    }
  }
  size_t n = 1;
  for (const char *p = path; *p; p++) {
    n += *p == ':';
  }
  char **v = calloc(n + 1, sizeof *v);
  if (!v) {
    return NULL;
  }
  size_t i = 0;
  for (const char *p = path;; p++) {
    const char *end = strchrnul(p, ':');
    /* An empty element means the working directory, as in execvp(). */
    int len = end == p ? asprintf(&v[i], "%s", cmd)
                       : asprintf(&v[i], "%.*s/%s", (int)(end - p), p, cmd);
    if (len < 0) {
      v[i] = NULL;
      free_strv(v);
      return NULL;
    }
    i++;
    if (!*end) {
      break;
    }
    p = end;
  }
  return v;
}

int proc_lift_fd(int fd) {
  if (fd >= 3) {
    return fd;
  }
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int e = errno;
  close(fd);
  errno = e;
  return moved;
}

int proc_make_pipe(int fds[2], int nonblock_end) {
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return -1;
  }
  /* The child dup2()s its ends onto 0, 1 and 2; no end may already be one
   * of those (the host may run with a standard fd closed). */
  fds[0] = proc_lift_fd(fds[0]);
  fds[1] = proc_lift_fd(fds[1]);
  if (fds[0] < 0 || fds[1] < 0) {
    int e = errno;
    if (fds[0] >= 0) {
      close(fds[0]);
    }
    if (fds[1] >= 0) {
      close(fds[1]);
    }
    fds[0] = fds[1] = -1;
    errno = e;
    return -1;
  }
  if (nonblock_end == 0 || nonblock_end == 1) {
    /* A new pipe's end has no status flag but its access mode, which
     * F_SETFL leaves alone: set, not read first (one system call). */
    fcntl(fds[nonblock_end], F_SETFL, O_NONBLOCK);
  }
  return 0;
}

void proc_close_fds_except(int keep) {
  if (keep < 3) {
    if (close_range(3, ~0U, 0) == 0) {
      return;
    }
  } else if ((keep == 3 || close_range(3, (unsigned)keep - 1, 0) == 0) &&
             close_range((unsigned)keep + 1, ~0U, 0) == 0) {
    return;
  }
  /* close_range() needs Linux 5.9; before that, one at a time. */
  struct rlimit rl;
  int max = 65536;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)max) {
    max = (int)rl.rlim_cur;
  }
  for (int fd = 3; fd < max; fd++) {
    if (fd != keep) {
      close(fd);
    }
  }
}

/* The value of 8 hex digits (lowercase, as the kernel writes them) at
 * `h`, all at once in a 64-bit word; above 32 bits when one is not a
 * digit. A byte's value is its low four bits, plus 9 for a letter (bit
 * 6); the value is a digit's when it is below 16 and written back gives
 * the byte. */
static uint64_t hex8(const char *h) {
  const uint64_t ones = 0x0101010101010101u;
  uint64_t v;
  memcpy(&v, h, 8);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  v = __builtin_bswap64(v); /* the first digit in the top byte */
#endif
  uint64_t val = (v & 0x0f * ones) + 9 * (v >> 6 & ones);
  uint64_t above9 = (val + 0x76 * ones) >> 7 & ones;
  if ((val & 0xf0 * ones) != 0 || val + 0x30 * ones + 0x27 * above9 != v) {
    return UINT64_MAX;
  }
  val = (val | val >> 4) & 0x00ff00ff00ff00ffu;
  val = (val | val >> 8) & 0x0000ffff0000ffffu;
  return (val | val >> 16) & 0xffffffffu;
}

/* The mask of signals 1 to 64 (bit n - 1: signal n) of the line `l` of
 * /proc/self/status after its 8-byte key ("SigIgn:\t"), up to `nl`, its
 * end: its last 16 hex digits (a kernel with more signals writes more). */
static bool line_mask(const char *l, const char *nl, uint64_t *mask) {
  if (nl - l < 8 + 16) {
    return false;
  }
  uint64_t hi = hex8(nl - 16), lo = hex8(nl - 8);
  *mask = hi << 32 | lo;
  return ((hi | lo) >> 32) == 0;
}

/* Whether `p`, in `text`, starts a line with the 8-byte `key`. */
static bool line_key(const char *text, const char *p, const char *key) {
  return (p == text || p[-1] == '\n') && memcmp(p, key, 8) == 0;
}

/* The SigIgn and SigCgt masks of the text of /proc/self/status (`len`
 * bytes, cut anywhere), each from a whole line: false when one is
 * missing. Pure as strlen() (no lock, no allocation: a forked child may
 * call it). The lines are SigIgn then SigCgt, some 20 lines before the
 * end, and no g comes after them: from the end, each g is checked for
 * SigCgt's, and SigIgn's line looked for just before it; any other order
 * is read line by line. */
static bool status_masks(const char *text, size_t len, uint64_t *ign,
                         uint64_t *caught) {
  const char *c = text + len;
  while ((c = memrchr(text, 'g', (size_t)(c - text))) != NULL) {
    const char *l = c - 4, *nl = l + 8 + 16;
    if (l >= text && nl < text + len && *nl == '\n' &&
        line_key(text, l, "SigCgt:\t")) {
      if (l - text >= 25 && line_key(text, l - 25, "SigIgn:\t")) {
        return line_mask(l - 25, l - 1, ign) && line_mask(l, nl, caught);
      }
      break;
    }
  }
  bool have_ign = false, have_caught = false;
  const char *nl = memrchr(text, '\n', len); /* the last whole line's */
  while (nl && !(have_ign && have_caught)) {
    const char *prev = memrchr(text, '\n', (size_t)(nl - text));
    const char *l = prev ? prev + 1 : text;
    if (nl - l > 8 && memcmp(l, "SigIgn:\t", 8) == 0) {
      have_ign = line_mask(l, nl, ign);
    } else if (nl - l > 8 && memcmp(l, "SigCgt:\t", 8) == 0) {
      have_caught = line_mask(l, nl, caught);
    }
    nl = prev;
  }
  return have_ign && have_caught;
}

/* The signals ignored and caught now, from the kernel: three system calls
 * where asking sigaction() would be one a signal (the file comes whole
 * in one read; more are made only should it not). */
static bool signals_set(uint64_t *ign, uint64_t *caught) {
  char text[4096];
  size_t len = 0;
  bool found = false;
  int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  while (!found && len < sizeof text - 1) {
    ssize_t n = read(fd, text + len, sizeof text - 1 - len);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    len += (size_t)n;
    text[len] = '\0';
    found = status_masks(text, len, ign, caught);
  }
  close(fd);
  return found;
}

void proc_signals_reset(uint64_t ignore) {
  uint64_t ign = 0, caught = 0;
  /* The signals to set: those not as wanted already, all when unknown. */
  uint64_t change = ~(uint64_t)0;
  if (signals_set(&ign, &caught)) {
    change = (ignore & ~ign) | (~ignore & (ign | caught));
  }
  /* Not 32 and 33, the C library's own, which sigaction() refuses. */
  change &= ~((uint64_t)3 << 31);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_IGN;
  for (uint64_t set = change & ignore; set != 0; set &= set - 1) {
    sigaction(__builtin_ctzll(set) + 1, &sa, NULL);
  }
  /* The rest at their default (KILL and STOP fail harmlessly). */
  sa.sa_handler = SIG_DFL;
  for (uint64_t set = change & ~ignore; set != 0; set &= set - 1) {
    sigaction(__builtin_ctzll(set) + 1, &sa, NULL);
  }
  for (int sig = 65; sig < NSIG; sig++) { /* none on Linux */
    sigaction(sig, &sa, NULL);
  }
}

PROC_VFORK_CODE static _Noreturn void child_fail(const child_plan *p, int stage,
                                                 int error) {
  proc_failure f = {.stage = stage, .error = error};
  ssize_t unused = write(p->status_fd, &f, sizeof f);
  (void)unused;
  _exit(127);
}

/* The child's stdin, stdout and stderr, in order: an fd given is at
 * least 3, so no dup2 overwrites one still to be used. */
static bool child_fds(const child_plan *p) {
  for (int i = 0; i < 3; i++) {
    int fd = p->spec->fd[i];
    if (fd == PROC_FD_INHERIT) {
      continue;
    }
    if (fd == PROC_FD_NULL) {
      int null = open("/dev/null", i == 0 ? O_RDONLY : O_WRONLY);
      if (null < 0) {
        return false;
      }
      if (null != i && (dup2(null, i) < 0 || close(null) != 0)) {
        return false;
      }
    } else if (dup2(fd, i) < 0) {
      return false;
    }
  }
  return true;
}

/* Every fd from 3 on closed at the exec, which happens after the caller
 * is released: a close may flush (a file on NFS or FUSE), and the caller
 * waits for everything before (fork_child). The report fd is close-on-exec
 * already. Linux 5.11; before, closed now. */
static void child_cloexec_fds(const child_plan *p) {
  if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
    proc_close_fds_except(p->status_fd);
  }
}

PROC_VFORK_CODE static _Noreturn void child_main(const child_plan *p) {
  /* Signals are all blocked (see proc_start): restore the defaults, so
   * that nothing the host ignores or handles stays so in the child, then
   * unblock. */
  proc_signals_reset(0);
  if (p->spec->new_session) {
    setsid();
  } else {
    /* Its own process group, so that shutdown signals reach whatever it
     * forks and nothing of the host's. */
    setpgid(0, 0);
  }
  if (p->spec->die_with_host) {
    /* Killed when the host dies; if it died already, the signal will
     * never come. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != p->parent) {
      _exit(127);
    }
  }
  if (!child_fds(p)) {
    child_fail(p, PROC_STAGE_EXEC, errno);
  }
  child_cloexec_fds(p);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (p->spec->cwd && chdir(p->spec->cwd) != 0) {
    child_fail(p, PROC_STAGE_CHDIR, errno);
  }
  bool denied = false;
  for (char **c = p->candidates; *c; c++) {
    execve(*c, p->spec->argv, p->envp);
    int e = errno;
    if (e == ENOEXEC) { /* no #! line: a shell script, as execvp() does */
      p->sh_argv[1] = *c;
      execve("/bin/sh", (char *const *)p->sh_argv, p->envp);
      child_fail(p, PROC_STAGE_EXEC, errno);
    }
    if (!p->searched) {
      child_fail(p, PROC_STAGE_EXEC, e);
    }
    switch (e) {
    case EACCES: denied = true; break;
    case ENOENT:
    case ENOTDIR:
    case ESTALE:
    case ENODEV:
    case ETIMEDOUT: break; /* try the next directory, as execvp() does */
    default: child_fail(p, PROC_STAGE_EXEC, e);
    }
  }
  child_fail(p, PROC_STAGE_EXEC, denied ? EACCES : ENOENT);
}

static void close_fd(int *fd) {
  if (*fd >= 0) {
    close(*fd);
    *fd = -1;
  }
}

/* Starts the child of `plan`; the parent's side. Returns the pid or -1
 * with errno set.
 *
 * vfork(): the child runs at once, in the caller's memory, and the
 * calling thread goes on only once it has exec'd or exited. A fork()'s
 * child waited its turn on the caller's CPU while the caller went on
 * (150 us of a cold `tools`, measured), and every page the caller wrote
 * meanwhile was copied. So the child writes nothing the caller reads
 * (but the plan's sh_argv, which is its own): everything it reads was
 * prepared before (child_plan), it calls no allocator and takes no lock
 * (other threads run on), and it leaves by execve() or _exit() only.
 * errno is the calling thread's, which the child's failed calls set; it
 * is read here only when there is no child.
 *
 * The caller waits for what the child does before its exec, as with
 * posix_spawn(): a few system calls, and a chdir() and the exec's path
 * lookup, which a hung network mount can stall. Every signal is blocked
 * across it, so that no handler of the host's runs in the child (which
 * resets them before unblocking): a ^C or SIGTERM meanwhile is taken
 * once the child goes on. */
PROC_VFORK_CODE static pid_t fork_child(const child_plan *plan) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pid_t pid = vfork();
  if (pid == 0) {
    child_main(plan);
  }
  int fork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (pid > 0 && !plan->spec->new_session) {
    /* The child has its group by now, but where vfork() runs as fork()
     * (valgrind, qemu-user) it may not yet, and a kill(-pid) must reach
     * it: fails harmlessly once it has exec'd. */
    setpgid(pid, pid);
  }
  errno = fork_errno;
  return pid;
}

int proc_start(const proc_spec *spec, pid_t *pid, char *why, size_t n) {
  const char *cmd = spec->argv && spec->argv[0] ? spec->argv[0] : "";
  if (!*cmd) {
    snprintf(why, n, "no command to start");
    errno = EINVAL;
    return -1;
  }
  int rc = -1, err = 0;
  int st[2] = {-1, -1};
  child_plan plan = {.parent = getpid(),
                     .spec = spec,
                     .envp = spec->envp ? spec->envp : environ,
                     .status_fd = spec->report_fd};
  size_t argc = 0;
  while (spec->argv[argc]) {
    argc++;
  }
  plan.sh_argv = calloc(argc + 2, sizeof *plan.sh_argv);
  plan.candidates = exec_candidates(cmd, plan.envp, &plan.searched);
  if (!plan.sh_argv || !plan.candidates) {
    err = ENOMEM;
    snprintf(why, n, "cannot start \"%s\": out of memory", cmd);
    goto out;
  }
  plan.sh_argv[0] = "/bin/sh";
  for (size_t i = 1; i < argc; i++) {
    plan.sh_argv[i + 1] = spec->argv[i];
  }
  if (spec->report_fd < 0) {
    if (proc_make_pipe(st, -1) != 0) {
      err = errno;
      snprintf(why, n, "cannot start \"%s\": pipe: %s", cmd, strerror(err));
      goto out;
    }
    plan.status_fd = st[1];
  }
  pid_t child = fork_child(&plan);
  if (child < 0) {
    err = errno;
    snprintf(why, n, "cannot start \"%s\": fork: %s", cmd, strerror(err));
    goto out;
  }
  if (spec->report_fd < 0) {
    /* The write end closes at the exec: EOF then, a report before. */
    close_fd(&st[1]);
    proc_failure f;
    if (proc_read_failure(st[0], &f)) {
      while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {
      }
      proc_describe_failure(&f, cmd, spec->cwd, why, n);
      err = f.error;
      goto out;
    }
  }
  *pid = child;
  rc = 0;
out:
  close_fd(&st[0]);
  close_fd(&st[1]);
  free_strv(plan.candidates);
  free(plan.sh_argv);
  if (rc != 0) {
    errno = err;
  }
  return rc;
}

bool proc_read_failure(int fd, proc_failure *f) {
  ssize_t n;
  do {
    n = read(fd, f, sizeof *f);
  } while (n < 0 && errno == EINTR);
  return n == (ssize_t)sizeof *f;
}

void proc_describe_failure(const proc_failure *f, const char *command,
                           const char *cwd, char *buf, size_t size) {
  if (f->stage == PROC_STAGE_CHDIR) {
    snprintf(buf, size,
             "cannot start \"%s\": cannot change to directory "
             "\"%s\": %s",
             command, cwd ? cwd : "", strerror(f->error));
  } else {
    snprintf(buf, size, "cannot start \"%s\": %s", command, strerror(f->error));
  }
}

void proc_describe_status(int wstatus, char *buf, size_t size) {
  if (WIFEXITED(wstatus)) {
    snprintf(buf, size, "exited with status %d", WEXITSTATUS(wstatus));
  } else if (WIFSIGNALED(wstatus)) {
    const char *abbrev = sigabbrev_np(WTERMSIG(wstatus));
    snprintf(buf, size, "killed by signal %d (SIG%s)", WTERMSIG(wstatus),
             abbrev ? abbrev : "?");
  } else {
    snprintf(buf, size, "ended (wait status %d)", wstatus);
  }
}

void proc_kill(pid_t pid) {
  if (pid <= 0) {
    return;
  }
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
  }
}
