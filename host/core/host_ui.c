#include "core/host_ui.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "browser.h"
#include "core/host.h"
#include "util.h"
#include "proc_watch.h"
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
  host_status_end(h);
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

/* A browser started by ui_open_url, reaped on the host's loop. Loop
 * thread only. */
typedef struct ui_browser {
  host *h;
  proc_watch *watch;
  struct ui_browser *next;
} ui_browser;

static void on_browser_exit(void *ud, int wstatus) {
  (void)wstatus; /* the browser's own business once it started */
  ui_browser *b = ud;
  for (ui_browser **pp = &b->h->ui_browsers; *pp; pp = &(*pp)->next) {
    if (*pp == b) {
      *pp = b->next;
      break;
    }
  }
  free(b);
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
  host_status_end(host_from_api(api));
  fprintf(stderr, "mcphost: [%s] opening %s\n", who(api), u);
  free(u);
  /* The one rule for $BROWSER (browser.h); the browser may run long, so
   * it is reaped on the loop, never waited for here. */
  pid_t pid;
  char why[256];
  if (browser_start(url, &pid, NULL, why, sizeof why) != 0) {
    return mcph_error_set(err, MCPH_ESPAWN, "cannot start a browser: %s", why);
  }
  /* Watched with the host's own services, which outlive any plugin. */
  host *h = host_from_api(api);
  ui_browser *b = xcalloc(1, sizeof *b);
  b->h = h;
  if (proc_watch_start(&h->self.api, pid, 0, on_browser_exit, b, &b->watch) ==
      0) {
    b->next = h->ui_browsers;
    h->ui_browsers = b;
  } else {
    free(b); /* unwatched: a zombie until mcphost exits */
  }
  return MCPH_OK;
}

static void ui_progress(const mcph_host *api, const char *label,
                        double fraction) {
  if (!ui_interactive(api)) {
    return;
  }
  char *l = shown(label);
  host_status_end(host_from_api(api));
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
  /* Browsers outlive mcphost: stop watching, never kill. */
  while (h->ui_browsers) {
    ui_browser *b = h->ui_browsers;
    h->ui_browsers = b->next;
    proc_watch_cancel(b->watch);
    free(b);
  }
  if (h->ui_ask) {
    end_ask(h->ui_ask);
  }
}
