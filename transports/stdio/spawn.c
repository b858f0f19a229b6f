/* Starting a server process; see spawn.h. */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

extern char **environ;

/* The host's environment variables a server inherits; everything else is
 * withheld so that secrets in the host's environment do not leak to
 * servers. A server that needs more gets it through its config's `env`.
 * What passes: identity and locale, the search path, temp and runtime
 * dirs, and what networking needs behind a proxy or a private CA. All LC_*
 * variables pass too (see env_allowed()). README.md lists them for users;
 * keep the two in step. */
static const char *const env_allowlist[] = {
    "HOME",
    "LOGNAME",
    "PATH",
    "SHELL",
    "TERM",
    "USER",
    "LANG",
    "TMPDIR",
    "TZ",
    "XDG_RUNTIME_DIR",
    /* proxies */
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    /* TLS trust */
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
};

/* glibc's execvp() searches this when PATH is unset (confstr _CS_PATH). */
#define DEFAULT_PATH "/bin:/usr/bin"

static size_t name_len(const char *kv) {
  const char *eq = strchr(kv, '=');
  return eq ? (size_t)(eq - kv) : strlen(kv);
}

static bool env_allowed(const char *kv) {
  size_t n = name_len(kv);
  if (n > 3 && strncmp(kv, "LC_", 3) == 0) {
    return true;
  }
  for (size_t i = 0; i < sizeof env_allowlist / sizeof *env_allowlist; i++) {
    if (strlen(env_allowlist[i]) == n && memcmp(env_allowlist[i], kv, n) == 0) {
      return true;
    }
  }
  return false;
}

static bool env_has(char *const *list, const char *kv) {
  size_t n = name_len(kv);
  for (; list && *list; list++) {
    if (name_len(*list) == n && memcmp(*list, kv, n) == 0) {
      return true;
    }
  }
  return false;
}

const char **spawn_build_env(char *const *overrides) {
  size_t n = 0;
  for (char **e = environ; e && *e; e++) {
    n++;
  }
  for (char *const *o = overrides; o && *o; o++) {
    n++;
  }
  const char **env = calloc(n + 1, sizeof *env);
  if (!env) {
    return NULL;
  }
  size_t i = 0;
  for (char **e = environ; e && *e; e++) {
    if (env_allowed(*e) && !env_has(overrides, *e)) {
      env[i++] = *e;
    }
  }
  for (char *const *o = overrides; o && *o; o++) {
    env[i++] = *o;
  }
  return env;
}

/* Everything the child needs, prepared before fork so that the child only
 * makes async-signal-safe calls (the host may have threads). */
typedef struct child_plan {
  pid_t parent;
  int in_fd, out_fd, err_fd, status_fd; /* the child's ends */
  const char *cwd;
  char **candidates; /* paths to try, in order */
  bool searched;     /* candidates came from a PATH search */
  char *const *argv;
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
static char **exec_candidates(const char *cmd, const char **envp,
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
  for (const char **e = envp; *e; e++) {
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

/* Moves `fd` to a number >= 3 (close-on-exec). Returns it, or -1 with
 * errno set and `fd` closed. */
static int lift_fd(int fd) {
  if (fd >= 3) {
    return fd;
  }
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int e = errno;
  close(fd);
  errno = e;
  return moved;
}

int spawn_make_pipe(int fds[2], int nonblock_end) {
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return -1;
  }
  /* The child dup2()s its ends onto 0, 1 and 2; no end may already be one
   * of those (the host may run with a standard fd closed). */
  fds[0] = lift_fd(fds[0]);
  fds[1] = lift_fd(fds[1]);
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
  int fl = fcntl(fds[nonblock_end], F_GETFL);
  fcntl(fds[nonblock_end], F_SETFL, fl | O_NONBLOCK);
  return 0;
}

void spawn_close_fds_except(int keep) {
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

static _Noreturn void child_fail(const child_plan *p, int stage, int error) {
  spawn_failure f = {.stage = stage, .error = error};
  ssize_t unused = write(p->status_fd, &f, sizeof f);
  (void)unused;
  _exit(127);
}

static _Noreturn void child_main(const child_plan *p) {
  /* Signals are all blocked (see spawn_start): restore the defaults, so
   * that nothing the host ignores or handles stays so in the server, then
   * unblock. */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; sig++) {
    sigaction(sig, &dfl, NULL); /* fails harmlessly for KILL, STOP, ... */
  }

  /* Its own process group, so that shutdown signals reach whatever it
   * forks and nothing of the host's. */
  setpgid(0, 0);
  /* Killed when the host dies; if it died already, the signal will never
   * come. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != p->parent) {
    _exit(127);
  }

  if (dup2(p->in_fd, 0) < 0 || dup2(p->out_fd, 1) < 0 ||
      dup2(p->err_fd, 2) < 0) {
    child_fail(p, SPAWN_STAGE_EXEC, errno);
  }
  spawn_close_fds_except(p->status_fd); /* close-on-exec itself */

  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);

  if (p->cwd && chdir(p->cwd) != 0) {
    child_fail(p, SPAWN_STAGE_CHDIR, errno);
  }

  bool denied = false;
  for (char **c = p->candidates; *c; c++) {
    execve(*c, p->argv, p->envp);
    int e = errno;
    if (e == ENOEXEC) { /* no #! line: a shell script, as execvp() does */
      p->sh_argv[1] = *c;
      execve("/bin/sh", (char *const *)p->sh_argv, p->envp);
      child_fail(p, SPAWN_STAGE_EXEC, errno);
    }
    if (!p->searched) {
      child_fail(p, SPAWN_STAGE_EXEC, e);
    }
    switch (e) {
    case EACCES: denied = true; break;
    case ENOENT:
    case ENOTDIR:
    case ESTALE:
    case ENODEV:
    case ETIMEDOUT: break; /* try the next directory, as execvp() does */
    default: child_fail(p, SPAWN_STAGE_EXEC, e);
    }
  }
  child_fail(p, SPAWN_STAGE_EXEC, denied ? EACCES : ENOENT);
}

static void close_fd(int *fd) {
  if (*fd >= 0) {
    close(*fd);
    *fd = -1;
  }
}

int spawn_start(const spawn_request *req, spawn_child *out, mcph_error *err) {
  if (!req->argv || !req->argv[0] || !req->argv[0][0]) {
    return mcph_error_set(err, MCPH_EINVAL, "no command to start");
  }
  int rc = 0;
  int in[2] = {-1, -1}, outp[2] = {-1, -1}, errp[2] = {-1, -1},
      st[2] = {-1, -1};
  child_plan plan = {.parent = getpid(), .cwd = req->cwd, .argv = req->argv};
  const char **envp = spawn_build_env(req->env);
  size_t argc = 0;
  while (req->argv[argc]) {
    argc++;
  }
  plan.sh_argv = calloc(argc + 2, sizeof *plan.sh_argv);
  if (envp) {
    plan.envp = (char *const *)envp;
    plan.candidates = exec_candidates(req->argv[0], envp, &plan.searched);
  }
  if (!envp || !plan.sh_argv || !plan.candidates) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto out;
  }
  plan.sh_argv[0] = "/bin/sh";
  for (size_t i = 1; i < argc; i++) {
    plan.sh_argv[i + 1] = req->argv[i];
  }

  if (spawn_make_pipe(in, 1) != 0 || spawn_make_pipe(outp, 0) != 0 ||
      spawn_make_pipe(errp, 0) != 0 || spawn_make_pipe(st, 0) != 0) {
    rc = mcph_error_set(err, MCPH_ESPAWN, "cannot start \"%s\": pipe: %s",
                        req->argv[0], strerror(errno));
    goto out;
  }
  plan.in_fd = in[0];
  plan.out_fd = outp[1];
  plan.err_fd = errp[1];
  plan.status_fd = st[1];

  /* Block every signal across fork so that no host handler runs in the
   * child before it has reset them. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pid_t pid = fork();
  if (pid == 0) {
    child_main(&plan);
  }
  int fork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (pid < 0) {
    rc = mcph_error_set(err, MCPH_ESPAWN, "cannot start \"%s\": fork: %s",
                        req->argv[0], strerror(fork_errno));
    goto out;
  }
  /* Also here, so that the group exists before the first kill(-pid);
   * fails harmlessly once the child has exec'd. */
  setpgid(pid, pid);

  out->pid = pid;
  out->stdin_fd = in[1];
  out->stdout_fd = outp[0];
  out->stderr_fd = errp[0];
  out->status_fd = st[0];
  in[1] = outp[0] = errp[0] = st[0] = -1;

out:
  close_fd(&in[0]);
  close_fd(&in[1]);
  close_fd(&outp[0]);
  close_fd(&outp[1]);
  close_fd(&errp[0]);
  close_fd(&errp[1]);
  close_fd(&st[0]);
  close_fd(&st[1]);
  free_strv(plan.candidates);
  free(plan.sh_argv);
  free(envp);
  return rc;
}

bool spawn_read_failure(int status_fd, spawn_failure *f) {
  ssize_t n;
  do {
    n = read(status_fd, f, sizeof *f);
  } while (n < 0 && errno == EINTR);
  return n == (ssize_t)sizeof *f;
}

void spawn_describe_failure(const spawn_failure *f, const char *command,
                            const char *cwd, char *buf, size_t size) {
  if (f->stage == SPAWN_STAGE_CHDIR) {
    snprintf(buf, size,
             "cannot start \"%s\": cannot change to directory "
             "\"%s\": %s",
             command, cwd ? cwd : "", strerror(f->error));
  } else {
    snprintf(buf, size, "cannot start \"%s\": %s", command, strerror(f->error));
  }
}
