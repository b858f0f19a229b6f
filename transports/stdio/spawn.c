/* Starting a server process; see spawn.h. */
#include "spawn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  const char **envp = spawn_build_env(req->env);
  if (!envp) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto out;
  }
  if (proc_make_pipe(in, 1) != 0 || proc_make_pipe(outp, 0) != 0 ||
      proc_make_pipe(errp, 0) != 0 || proc_make_pipe(st, 0) != 0) {
    rc = mcph_error_set(err, MCPH_ESPAWN, "cannot start \"%s\": pipe: %s",
                        req->argv[0], strerror(errno));
    goto out;
  }
  /* The start waits for the exec (proc_spawn.c, fork_child), not for a
   * failure's report: a failed chdir or exec shows up as the child's
   * report once it exited (child.c). */
  proc_spec spec = {.argv = req->argv,
                    .envp = (char *const *)envp,
                    .cwd = req->cwd,
                    .fd = {in[0], outp[1], errp[1]},
                    .die_with_host = true,
                    .report_fd = st[1]};
  char why[512];
  pid_t pid;
  if (proc_start(&spec, &pid, why, sizeof why) != 0) {
    rc = mcph_error_set(err, errno == ENOMEM ? MCPH_ENOMEM : MCPH_ESPAWN,
                        "%s", why);
    goto out;
  }
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
  free(envp);
  return rc;
}
