#include "core/host_ui.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/host.h"
#include "core/util.h"
#include "proc_spawn.h"
#include "text_escape.h"

struct mcph_ui_ask {
  host *h;
  loop_watch *watch;
  mcph_ui_answer_cb cb;
  void *ud;
  char line[1024];
  size_t len;
};

static int ui_interactive(const mcph_host *api) {
  (void)api;
  return isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
}

/* "[plugin id] " for the calling plugin, or "". */
static const char *who(const mcph_host *api) {
  const plugin *p = host_caller(api);
  return p ? p->id : "mcphost";
}

/* Untrusted text as shown on the terminal (text_escape.h). */
static char *shown(const char *s) {
  char *e =
      text_escape(s ? s : "", s ? strlen(s) : 0, TEXT_ESCAPE_INVISIBLE, NULL);
  return e ? e : xstrdup("");
}

static void end_ask(mcph_ui_ask *a) {
  loop_unwatch(a->h->loop, a->watch);
  a->h->ui_ask = NULL;
  free(a);
}

static void on_input(void *ud, int fd, unsigned events) {
  (void)events;
  mcph_ui_ask *a = ud;
  char buf[256];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
    return;
  }
  for (ssize_t i = 0; i < n && a->len + 1 < sizeof a->line; i++) {
    a->line[a->len++] = buf[i];
  }
  a->line[a->len] = '\0';
  char *nl = memchr(a->line, '\n', a->len);
  if (n > 0 && !nl && a->len + 1 < sizeof a->line) {
    return;
  }
  mcph_ui_answer_cb cb = a->cb;
  void *cb_ud = a->ud;
  char answer[sizeof a->line];
  bool eof = n <= 0 && !nl;
  if (nl) {
    *nl = '\0';
  }
  snprintf(answer, sizeof answer, "%s", a->line);
  end_ask(a);
  if (eof) {
    mcph_error err;
    mcph_error_init(&err);
    mcph_error_set(&err, MCPH_ECLOSED, "the input ended before an answer");
    cb(cb_ud, NULL, &err);
  } else {
    cb(cb_ud, answer, NULL);
  }
}

static int ui_ask(const mcph_host *api, const char *question,
                  mcph_ui_answer_cb cb, void *ud, mcph_ui_ask **out,
                  mcph_error *err) {
  host *h = host_from_api(api);
  if (!cb) {
    return mcph_error_set(err, MCPH_EINVAL, "ask needs a callback");
  }
  if (!ui_interactive(api)) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "%s asks a question, but nobody is at a terminal "
                          "to answer it",
                          who(api));
  }
  if (h->ui_ask) {
    return mcph_error_set(err, MCPH_EBUSY,
                          "%s asks a question while another is open", who(api));
  }
  mcph_ui_ask *a = xcalloc(1, sizeof *a);
  a->h = h;
  a->cb = cb;
  a->ud = ud;
  if (loop_watch_fd(h->loop, STDIN_FILENO, LOOP_READ, on_input, a, &a->watch) !=
      0) {
    free(a);
    return mcph_error_set(err, MCPH_EIO, "cannot read the terminal");
  }
  h->ui_ask = a;
  char *q = shown(question);
  fprintf(stderr, "mcphost: [%s] %s ", who(api), q);
  fflush(stderr);
  free(q);
  if (out) {
    *out = a;
  }
  return MCPH_OK;
}

static void ui_cancel(const mcph_host *api, mcph_ui_ask *a) {
  (void)api;
  if (a) {
    end_ask(a);
  }
}

static int ui_open_url(const mcph_host *api, const char *url, mcph_error *err) {
  if (!url || (strncasecmp(url, "https://", 8) != 0 &&
               strncasecmp(url, "http://", 7) != 0)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "only http and https URLs are opened");
  }
  for (const char *p = url; *p; p++) {
    if ((unsigned char)*p <= 0x20 || *p == 0x7f) {
      return mcph_error_set(err, MCPH_EINVAL,
                            "a URL with spaces or control characters is "
                            "not opened");
    }
  }
  if (!ui_interactive(api)) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "%s wants a URL opened, but nobody is at a "
                          "terminal",
                          who(api));
  }
  char *u = shown(url);
  fprintf(stderr, "mcphost: [%s] opening %s\n", who(api), u);
  free(u);
  /* The shell puts the browser in the background and returns at once;
   * the URL is its argument, never shell text. */
  const char *browser = getenv("BROWSER");
  char *const argv[] = {
      "sh",
      "-c",
      "\"${1:-xdg-open}\" \"$2\" >/dev/null 2>&1 </dev/null &",
      "sh",
      (char *)(browser && *browser ? browser : ""),
      (char *)url,
      NULL};
  /* Started as every child is (proc_spawn.h): the signals the host
   * blocks and ignores are back to their defaults in it. */
  proc_spec spec = {.argv = argv,
                    .fd = {PROC_FD_NULL, PROC_FD_NULL, PROC_FD_NULL},
                    .new_session = true,
                    .report_fd = -1};
  pid_t pid;
  char why[256];
  if (proc_start(&spec, &pid, why, sizeof why) != 0) {
    return mcph_error_set(err, MCPH_ESPAWN, "cannot start a browser: %s",
                          why);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return MCPH_OK;
}

static void ui_progress(const mcph_host *api, const char *label,
                        double fraction) {
  if (!ui_interactive(api)) {
    return;
  }
  char *l = shown(label);
  if (fraction >= 0 && fraction <= 1) {
    fprintf(stderr, "mcphost: [%s] %s: %d%%\n", who(api), l,
            (int)(fraction * 100 + 0.5));
  } else {
    fprintf(stderr, "mcphost: [%s] %s\n", who(api), l);
  }
  free(l);
}

const mcph_host_ui *host_ui_service(void) {
  static const mcph_host_ui svc = {
      .struct_size = sizeof svc,
      .interactive = ui_interactive,
      .ask = ui_ask,
      .cancel = ui_cancel,
      .open_url = ui_open_url,
      .progress = ui_progress,
  };
  return &svc;
}

void host_ui_free(host *h) {
  if (h->ui_ask) {
    end_ask(h->ui_ask);
  }
}
