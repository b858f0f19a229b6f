/* The headersHelper command; see headers_helper.h. */
#include "headers_helper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc_spawn.h"
#include "split_words.h"
#include "text_escape.h"

extern char **environ;

/* How often the exit is looked for once both pipes are at end of file. */
#define REAP_POLL_MS 10u
#define STDERR_KEEP 512u

struct headers_helper {
  const mcph_host *host;
  char *server;
  char *command; /* as configured, for messages */
  headers_helper_cb cb;
  void *ud;
  pid_t pid;
  int out_fd, err_fd; /* -1 once at end of file */
  mcph_watch *out_w, *err_w;
  mcph_timer *deadline, *reap;
  char *out;
  size_t out_len, out_cap;
  char err[STDERR_KEEP + 1];
  size_t err_len;
  bool too_big;
};

static void close_pipe(headers_helper *h, int *fd, mcph_watch **w) {
  if (*w) {
    h->host->fd_unwatch(h->host, *w);
    *w = NULL;
  }
  if (*fd >= 0) {
    close(*fd);
    *fd = -1;
  }
}

static void helper_free(headers_helper *h) {
  close_pipe(h, &h->out_fd, &h->out_w);
  close_pipe(h, &h->err_fd, &h->err_w);
  if (h->deadline) {
    h->host->timer_cancel(h->host, h->deadline);
  }
  if (h->reap) {
    h->host->timer_cancel(h->host, h->reap);
  }
  if (h->pid > 0) {
    proc_kill(h->pid);
  }
  free(h->out);
  free(h->server);
  free(h->command);
  free(h);
}

void headers_helper_cancel(headers_helper *h) {
  if (h) {
    helper_free(h);
  }
}

/* Calls back once with a formatted failure (text escaped: it quotes the
 * command and its stderr) or the output, and frees. */
void headers_helper_message(char *buf, size_t size, const char *server,
                            const char *command, const char *why) {
  char *cmd = text_escape(command, strlen(command),
                          TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  snprintf(buf, size, "server \"%s\": headersHelper \"%.300s\" %s", server,
           cmd ? cmd : "?", why);
  free(cmd);
}

static void finish(headers_helper *h, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void finish(headers_helper *h, int code, const char *fmt, ...) {
  char why[600] = "";
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
  }
  char msg[1200];
  headers_helper_message(msg, sizeof msg, h->server, h->command, why);
  h->cb(h->ud, code, code ? msg : NULL, code ? NULL : h->out,
        code ? 0 : h->out_len);
  helper_free(h);
}

/* The first line of what the helper wrote on stderr, escaped, or "". */
static char *stderr_line(headers_helper *h) {
  h->err[h->err_len] = '\0';
  size_t n = strcspn(h->err, "\r\n");
  return text_escape(h->err, n, TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE,
                     NULL);
}

static void exited(headers_helper *h, int status) {
  h->pid = 0;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    if (h->too_big) {
      finish(h, MCPH_ETOOBIG, "wrote more than %zu bytes",
             HEADERS_HELPER_MAX_OUTPUT);
      return;
    }
    finish(h, 0, NULL);
    return;
  }
  char *line = stderr_line(h);
  const char *sep = line && *line ? ": " : "";
  if (WIFEXITED(status)) {
    finish(h, MCPH_EIO, "exited with status %d%s%.300s", WEXITSTATUS(status),
           sep, line ? line : "");
  } else {
    finish(h, MCPH_EIO, "was killed by signal %d%s%.300s",
           WIFSIGNALED(status) ? WTERMSIG(status) : 0, sep, line ? line : "");
  }
  free(line);
}

/* Both pipes are at end of file: reap, or look again shortly (a helper
 * may close its stdout before it exits). */
static void on_reap(void *ud) {
  headers_helper *h = ud;
  h->reap = NULL;
  int status = 0;
  pid_t r;
  while ((r = waitpid(h->pid, &status, WNOHANG)) < 0 && errno == EINTR) {
  }
  if (r == h->pid) {
    exited(h, status);
    return;
  }
  if (r < 0) {
    h->pid = 0; /* ECHILD: reaped by someone else; its status is lost */
    finish(h, MCPH_EIO, "ended, but its exit status is unknown");
    return;
  }
  if (h->host->timer_start(h->host, REAP_POLL_MS, on_reap, h, &h->reap) != 0) {
    h->reap = NULL;
    finish(h, MCPH_ENOMEM, "cannot be waited for (no timer)");
  }
}

static void maybe_done(headers_helper *h) {
  if (h->out_fd < 0 && h->err_fd < 0 && !h->reap) {
    on_reap(h);
  }
}

/* Reads what one pipe has into `buf`: the byte count, 0 when there is
 * nothing now, or -1 at the end (the pipe then closed, and the helper
 * reaped once both are). */
static ssize_t read_pipe(headers_helper *h, int *fd, mcph_watch **w, char *buf,
                         size_t size) {
  ssize_t n = read(*fd, buf, size);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
    return 0;
  }
  if (n <= 0) {
    close_pipe(h, fd, w);
    maybe_done(h);
    return -1;
  }
  return n;
}

static void on_out(void *ud, int fd, unsigned events) {
  headers_helper *h = ud;
  (void)fd;
  (void)events;
  char buf[16384];
  ssize_t n = read_pipe(h, &h->out_fd, &h->out_w, buf, sizeof buf);
  if (n <= 0) {
    return;
  }
  size_t k = (size_t)n;
  if (h->too_big || h->out_len + k > HEADERS_HELPER_MAX_OUTPUT) {
    h->too_big = true;
    return;
  }
  if (h->out_len + k + 1 > h->out_cap) {
    size_t cap = (h->out_len + k + 1) * 2;
    char *p = realloc(h->out, cap);
    if (!p) {
      finish(h, MCPH_ENOMEM, "wrote more than memory holds");
      return;
    }
    h->out = p;
    h->out_cap = cap;
  }
  memcpy(h->out + h->out_len, buf, k);
  h->out_len += k;
  h->out[h->out_len] = '\0';
}

/* Only the first STDERR_KEEP bytes are kept, for the failure message. */
static void on_err(void *ud, int fd, unsigned events) {
  headers_helper *h = ud;
  (void)fd;
  (void)events;
  char buf[4096];
  ssize_t n = read_pipe(h, &h->err_fd, &h->err_w, buf, sizeof buf);
  if (n <= 0) {
    return;
  }
  size_t room = STDERR_KEEP - h->err_len, k = (size_t)n;
  if (k > room) {
    k = room;
  }
  memcpy(h->err + h->err_len, buf, k);
  h->err_len += k;
}

static void on_deadline(void *ud) {
  headers_helper *h = ud;
  h->deadline = NULL;
  finish(h, MCPH_ETIMEDOUT, "did not finish within %u ms; killed",
         HEADERS_HELPER_TIMEOUT_MS);
}

/* mcphost's environment plus the two variables the helper is told. A
 * new array whose two added strings are new; free with env_free(). */
static char **helper_env(const char *server, const char *url) {
  static const char *const names[] = {"CLAUDE_CODE_MCP_SERVER_NAME=",
                                      "CLAUDE_CODE_MCP_SERVER_URL="};
  size_t n = 0;
  while (environ[n]) {
    n++;
  }
  char **env = calloc(n + 3, sizeof *env);
  if (!env) {
    return NULL;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(environ[i], names[0], strlen(names[0])) != 0 &&
        strncmp(environ[i], names[1], strlen(names[1])) != 0) {
      env[k++] = environ[i];
    }
  }
  const char *values[] = {server, url};
  for (size_t i = 0; i < 2; i++) {
    size_t len = strlen(names[i]) + strlen(values[i]) + 1;
    if (!(env[k] = malloc(len))) {
      free(env[k - i]);
      free(env);
      return NULL;
    }
    snprintf(env[k], len, "%s%s", names[i], values[i]);
    k++;
  }
  return env;
}

static void env_free(char **env) {
  if (env) {
    size_t n = 0;
    while (env[n]) {
      n++;
    }
    free(env[n - 1]);
    free(env[n - 2]);
    free(env);
  }
}

static int spawn(headers_helper *h, char **argv, const char *display_url,
                 mcph_error *err) {
  int out[2] = {-1, -1}, errp[2] = {-1, -1}, rc = 0;
  char **env = NULL;
  char why[512];
  if (proc_make_pipe(out, 0) != 0 || proc_make_pipe(errp, 0) != 0) {
    rc = mcph_error_set(err, MCPH_EIO, "cannot make a pipe: %s",
                        strerror(errno));
    goto out;
  }
  if (!(env = helper_env(h->server, display_url))) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto out;
  }
  /* Its own process group, so that the deadline's SIGKILL reaches what it
   * forks; the start waits for the exec, so a missing command fails here. */
  proc_spec spec = {.argv = argv,
                    .envp = env,
                    .fd = {PROC_FD_NULL, out[1], errp[1]},
                    .report_fd = -1};
  if (proc_start(&spec, &h->pid, why, sizeof why) != 0) {
    h->pid = 0;
    rc = mcph_error_set(err, MCPH_ESPAWN, "%s", why);
    goto out;
  }
  h->out_fd = out[0];
  h->err_fd = errp[0];
  out[0] = errp[0] = -1;
out:
  for (int i = 0; i < 2; i++) {
    if (out[i] >= 0) {
      close(out[i]);
    }
    if (errp[i] >= 0) {
      close(errp[i]);
    }
  }
  env_free(env);
  return rc;
}

int headers_helper_start(const mcph_host *host, const char *server,
                         const char *display_url, const char *command,
                         headers_helper_cb cb, void *ud, headers_helper **out,
                         mcph_error *err) {
  char **argv = NULL;
  size_t argc = 0;
  int rc = 0;
  headers_helper *h = calloc(1, sizeof *h);
  if (!h) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  h->host = host;
  h->cb = cb;
  h->ud = ud;
  h->out_fd = h->err_fd = -1;
  h->server = strdup(server ? server : "");
  h->command = strdup(command);
  if (!h->server || !h->command) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto out;
  }
  int s = split_words(command, &argv, &argc);
  if (s != 0 || argc == 0) {
    rc = mcph_error_set(err, s == -2 ? MCPH_ENOMEM : MCPH_EINVAL,
                        "\"headersHelper\": %s",
                        s == -1   ? "unterminated quote"
                        : s == -2 ? "out of memory"
                                  : "no command given");
    goto out;
  }
  if ((rc = spawn(h, argv, display_url ? display_url : "", err)) != 0) {
    goto out;
  }
  if (host->fd_watch(host, h->out_fd, MCPH_FD_READ, on_out, h, &h->out_w) ||
      host->fd_watch(host, h->err_fd, MCPH_FD_READ, on_err, h, &h->err_w) ||
      host->timer_start(host, HEADERS_HELPER_TIMEOUT_MS, on_deadline, h,
                        &h->deadline)) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "cannot watch the headersHelper");
    goto out;
  }
out:
  split_words_free(argv);
  if (rc != 0) {
    helper_free(h);
    return rc;
  }
  *out = h;
  return 0;
}
