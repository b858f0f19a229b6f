#include "core/host.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "core/host_config.h"
#include "core/host_secrets.h"
#include "core/host_transports.h"
#include "core/host_ui.h"
#include "util.h"
#include "redact.h"
#include "size_limits.h"
#include "text_escape.h"

#ifndef MCPHOST_INSTALL_PLUGIN_DIR
#define MCPHOST_INSTALL_PLUGIN_DIR "/usr/local/lib/mcphost/plugins"
#endif
#ifndef MCPHOST_PLUGIN_RELDIR
#define MCPHOST_PLUGIN_RELDIR "../lib/mcphost/plugins"
#endif

/* Every table handed out is the first member of a plugin_handle, which
 * says whose it is. */
host *host_from_api(const mcph_host *api) {
  return ((const plugin_handle *)api)->owner;
}

plugin *host_caller(const mcph_host *api) {
  return ((const plugin_handle *)api)->p;
}

static const char *level_name(int level) {
  static const char *names[] = {"error", "warning", "info", "debug", "trace"};
  return level >= 0 && level <= 4 ? names[level] : "log";
}

void host_status_end(host *h) {
  if (h->status_open) {
    h->status_open = false;
    fputc('\n', stderr);
  }
}

void host_status_line(host *h, const char *text) {
  const char *term = getenv("TERM");
  if (!isatty(STDERR_FILENO) || (term && strcmp(term, "dumb") == 0)) {
    host_status_end(h);
    fprintf(stderr, "%s\n", text);
    return;
  }
  /* A line that wrapped would leave its first rows behind: one row,
   * with the last column free for the cursor (a terminal of unknown
   * width: as it is). */
  unsigned cols = 0, rows = 0;
  char *cut = term_size(STDERR_FILENO, &cols, &rows) && cols > 1
                  ? limits_cut_to_width(text, cols - 1)
                  : NULL;
  fprintf(stderr, "\r%s\x1b[K", cut ? cut : text);
  fflush(stderr);
  free(cut);
  h->status_open = true;
}

static void vlog(host *h, int level, const char *label, const char *source,
                 const char *fmt, va_list ap) {
  /* Errors and warnings always show; -v adds info, -vv debug, -vvv trace. */
  if (level > MCPH_LOG_WARN + h->verbosity)
    return;
  strbuf b;
  sb_init(&b);
  if (!h->log) { /* the program's log function gets the text alone */
    host_status_end(h);
    sb_printf(&b, "mcphost: %s: ", label ? label : level_name(level));
    if (source && *source)
      sb_printf(&b, "[%s] ", source);
  }
  sb_vprintf(&b, fmt, ap);
  if (!h->log)
    sb_addc(&b, '\n');
  /* Every log line passes here: wire traces, transport errors, server
   * logs, plugins. None may carry a token (redact.h), and none reaches
   * the terminal with a control, invisible or bidi character a server
   * sent (text_escape.h; lines kept, as in out_error). */
  char *safe = redact(sb_str(&b));
  char *shown = text_escape(safe, strlen(safe), TEXT_ESCAPE_INVISIBLE, NULL);
  if (!host_log_sink(h, level, source, shown ? shown : safe))
    fputs(shown ? shown : safe, stderr);
  free(shown);
  free(safe);
  sb_free(&b);
}

bool host_log_sink(host *h, int level, const char *source, const char *text) {
  if (!h->log)
    return false;
  h->log(h->log_ud, level, source && *source ? source : NULL, text);
  return true;
}

void host_log(host *h, int level, const char *source, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(h, level, NULL, source, fmt, ap);
  va_end(ap);
}

void host_log_labeled(host *h, int level, const char *label, const char *source,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(h, level, label, source, fmt, ap);
  va_end(ap);
}

static void roots_note(void *ud, int level, const char *server,
                       const char *message) {
  host_log(ud, level, server, "%s", message);
}

cJSON *roots_for_server(host *h, const server_config *sc,
                        const roots_options *o) {
  return roots_offer(sc, o, roots_note, h);
}

/* ---- strings returned to plugins ---- */

static void free_returned(void *ud) {
  host *h = ud;
  for (size_t i = 0; i < h->nreturned; i++) {
    free(h->returned[i]);
  }
  free(h->returned);
  h->returned = NULL;
  h->nreturned = 0;
  h->returned_posted = false;
}

const char *host_returned(host *h, char *s) {
  if (!s) {
    return NULL;
  }
  h->returned = xrealloc(h->returned, (h->nreturned + 1) * sizeof *h->returned);
  h->returned[h->nreturned++] = s;
  /* A post runs after the callback that is running now has returned. */
  if (!h->returned_posted && loop_post(h->loop, free_returned, h) == 0) {
    h->returned_posted = true;
  }
  return s;
}

/* ---- the services table (mcph_host) ---- */

/* A line without a source is the calling plugin's (ABI 1.6: the host
 * knows who calls). */
static void api_log(const mcph_host *api, int level, const char *source,
                    const char *msg) {
  const plugin *p = host_caller(api);
  if ((!source || !*source) && p) {
    source = p->id;
  }
  host_log(host_from_api(api), level, source, "%s", msg ? msg : "");
}

static int api_fd_watch(const mcph_host *api, int fd, unsigned events,
                        mcph_fd_cb cb, void *ud, mcph_watch **out) {
  if (fd < 0 || !cb || !out)
    return MCPH_EINVAL;
  loop_watch *w;
  int rc = loop_watch_fd(host_from_api(api)->loop, fd, events, cb, ud, &w);
  if (rc < 0)
    return rc == -ENOMEM ? MCPH_ENOMEM : MCPH_EINVAL;
  *out = (mcph_watch *)w;
  return MCPH_OK;
}

static int api_fd_update(const mcph_host *api, mcph_watch *w,
                         unsigned events) {
  return loop_watch_update(host_from_api(api)->loop, (loop_watch *)w, events)
             ? MCPH_EINVAL
             : MCPH_OK;
}

static void api_fd_unwatch(const mcph_host *api, mcph_watch *w) {
  loop_unwatch(host_from_api(api)->loop, (loop_watch *)w);
}

static int api_timer_start(const mcph_host *api, uint64_t delay_ms,
                           mcph_timer_cb cb, void *ud, mcph_timer **out) {
  if (!cb || !out)
    return MCPH_EINVAL;
  loop_timer *t = loop_timer_start(host_from_api(api)->loop, delay_ms, cb, ud);
  if (!t)
    return MCPH_ENOMEM;
  *out = (mcph_timer *)t;
  return MCPH_OK;
}

static void api_timer_cancel(const mcph_host *api, mcph_timer *t) {
  loop_timer_cancel(host_from_api(api)->loop, (loop_timer *)t);
}

static int api_post(const mcph_host *api, mcph_post_cb cb, void *ud) {
  return loop_post(host_from_api(api)->loop, cb, ud) ? MCPH_ENOMEM : MCPH_OK;
}

static uint64_t api_now_ms(const mcph_host *api) {
  (void)api;
  return loop_now_ms();
}

static const char *api_get_path(const mcph_host *api, int which) {
  host *h = host_from_api(api);
  return which >= 0 && which < 4 ? h->paths[which] : NULL;
}

static const void *service_of(const mcph_host *api, const char *id) {
  host *h = host_from_api(api);
  const void *upper = id && h->hooks ? h->hooks->service(h, id) : NULL;
  if (upper)
    return upper;
  if (id && strcmp(id, MCPH_SERVICE_SERVERS) == 0)
    return h->servers_service;
  if (id && strcmp(id, MCPH_SERVICE_SECRETS) == 0)
    return host_secrets_service();
  if (id && strcmp(id, MCPH_SERVICE_TRANSPORTS) == 0)
    return host_transports_service();
  if (id && strcmp(id, MCPH_SERVICE_CONFIG) == 0)
    return host_config_service();
  if (id && strcmp(id, MCPH_SERVICE_UI) == 0)
    return host_ui_service();
  return NULL;
}

static const void *api_get_service(const mcph_host *api, const char *id) {
  const void *s = service_of(api, id);
  const plugin *p = host_caller(api);
  if (p && p->watch && p->watch->service) {
    p->watch->service(p->watch->ud, p, id, s);
  }
  return s;
}

/* ---- paths ---- */

/* $VAR/mcphost, else <home>/FALLBACK/mcphost (user_home(): never a shared
 * place such as /tmp). NULL without a home: then nothing is written there
 * (logs go to stderr only). */
static char *xdg_dir(const char *var, const char *fallback) {
  const char *v = getenv(var);
  if (v && v[0] == '/') {
    return path_join(v, "mcphost");
  }
  char *home = user_home();
  if (!home) {
    return NULL;
  }
  char *dir = xasprintf("%s/%s/mcphost", home, fallback);
  free(home);
  return dir;
}

char *host_default_plugin_dir(void) {
  /* On the heap: on the stack it was under the calls below, in every
   * command's start (host_new). */
  char *exe = xmalloc(PATH_MAX);
  ssize_t n = readlink("/proc/self/exe", exe, PATH_MAX - 1);
  if (n <= 0) {
    free(exe);
    return xstrdup(MCPHOST_INSTALL_PLUGIN_DIR);
  }
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash)
    *slash = '\0';
  /* <prefix>/bin/mcphost -> <prefix>/lib/mcphost/plugins, wherever the
   * prefix is now (it may have been moved since it was installed); the
   * build tree has the same layout. The kernel's name of the executable
   * holds no link and no dot, so each "../" is its directory's parent:
   * taken off here, not by realpath(), which asked every component again
   * (nine system calls a start). A link further down (lib/ to elsewhere)
   * stays in the name, and the plugin directory's walk follows it under
   * its checks. */
  const char *rel = MCPHOST_PLUGIN_RELDIR;
  while (strncmp(rel, "../", 3) == 0 && (slash = strrchr(exe, '/')) &&
         slash != exe) {
    *slash = '\0';
    rel += 3;
  }
  char *dir = path_join(exe, rel);
  free(exe);
  return dir;
}

static void on_signal(void *ud, int fd, unsigned events) {
  (void)events;
  host *h = ud;
  struct signalfd_siginfo si;
  while (read(fd, &si, sizeof si) == (ssize_t)sizeof si) {
    h->interrupted = true;
    h->signal_number = (int)si.ssi_signo;
  }
}

host *host_new(const host_options *opt) {
  host *h = xcalloc(1, sizeof *h);
  h->loop = loop_new();
  if (!h->loop) {
    free(h);
    return NULL;
  }
  h->verbosity = opt->verbosity;
  h->log = opt->log;
  h->log_ud = opt->log_ud;
  h->sigfd = -1;
  registry_init(&h->reg);
  config_init(&h->cfg);

  /* getcwd's own allocation: a PATH_MAX buffer here was under all of the
   * start below (the deepest stack of every command, one page more). */
  h->paths[MCPH_PATH_CWD] = getcwd(NULL, 0);
  if (!h->paths[MCPH_PATH_CWD]) {
    h->paths[MCPH_PATH_CWD] = xstrdup("/");
  }
  h->paths[MCPH_PATH_STATE] = xdg_dir("XDG_STATE_HOME", ".local/state");
  if (h->paths[MCPH_PATH_STATE]) {
    h->paths[MCPH_PATH_LOGS] = path_join(h->paths[MCPH_PATH_STATE], "logs");
  }
  h->paths[MCPH_PATH_CACHE] = xdg_dir("XDG_CACHE_HOME", ".cache");

  h->self.owner = h;
  h->self.api = (mcph_host){
      .struct_size = sizeof(mcph_host),
      .abi_major = MCPH_ABI_MAJOR,
      .abi_minor = MCPH_ABI_MINOR,
      .host_version = MCPHOST_VERSION,
      .log = api_log,
      .fd_watch = api_fd_watch,
      .fd_update = api_fd_update,
      .fd_unwatch = api_fd_unwatch,
      .timer_start = api_timer_start,
      .timer_cancel = api_timer_cancel,
      .post = api_post,
      .now_ms = api_now_ms,
      .get_path = api_get_path,
      .get_service = api_get_service,
  };
  h->reg.tmpl = h->self.api;
  h->reg.owner = h;

  /* Signals become loop events, so a Ctrl-C cancels requests cleanly
   * instead of killing us mid-write. SIGPIPE is ignored: a dead server's
   * pipe must be an error code, not our death. */
  signal(SIGPIPE, SIG_IGN);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  if (!opt->no_signals && sigprocmask(SIG_BLOCK, &set, NULL) == 0) {
    h->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (h->sigfd >= 0)
      loop_watch_fd(h->loop, h->sigfd, LOOP_READ, on_signal, h, &h->sigwatch);
  }

  for (size_t i = 0; i < opt->nplugin_dirs; i++)
    registry_add_dir(&h->reg, opt->plugin_dirs[i]);
  h->reg.ngiven = h->reg.ndirs;
  const char *envpath = getenv("MCPHOST_PLUGIN_PATH");
  if (envpath) {
    char *copy = xstrdup(envpath), *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
      registry_add_dir(&h->reg, d);
    free(copy);
  }
  if (opt->builtin_plugin_dir) {
    registry_add_builtin_dir(&h->reg, opt->builtin_plugin_dir);
  } else {
    char *dir = host_default_plugin_dir();
    registry_add_builtin_dir(&h->reg, dir);
    free(dir);
  }
  return h;
}

void host_load_plugins(host *h) {
  registry_load_all(&h->reg);
  if (h->hooks)
    h->hooks->plugins_loaded(h);
}

plugin *host_load_plugin_file(host *h, const char *path,
                              const plugin_watch *watch) {
  h->reg.watch = watch;
  plugin *p = registry_load_path(&h->reg, path);
  if (h->hooks)
    h->hooks->plugins_loaded(h);
  return p;
}

void host_free(host *h) {
  if (!h)
    return;
  host_status_end(h); /* the shell's prompt starts below it */
  host_ui_free(h);
  if (h->hooks)
    h->hooks->free(h);
  for (size_t i = 0; i < h->noptions; i++) {
    free(h->options[i].name);
    free(h->options[i].value);
  }
  free(h->options);
  free_returned(h);
  registry_free(&h->reg);
  config_free(&h->cfg);
  if (h->sigwatch)
    loop_unwatch(h->loop, h->sigwatch);
  if (h->sigfd >= 0)
    close(h->sigfd);
  loop_free(h->loop);
  for (int i = 0; i < 4; i++)
    free(h->paths[i]);
  free(h);
}

void host_run_ready(host *h) {
  /* Bounded: a callback that keeps making work does not hold it here. */
  for (int i = 0; i < 64 && loop_run_once(h->loop, 0) > 0; i++) {
  }
}

int host_run_until(host *h, const bool *done, uint64_t deadline_ms) {
  while (!*done) {
    if (h->interrupted)
      return -2;
    int wait = -1;
    if (deadline_ms) {
      uint64_t now = loop_now_ms();
      if (now >= deadline_ms)
        return -1;
      wait = (int)(deadline_ms - now);
    }
    loop_run_once(h->loop, wait);
  }
  return 0;
}
