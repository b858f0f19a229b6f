/*
 * mcphost plugin ABI — the services the host offers a plugin.
 *
 * The host passes one `mcph_host` table to the plugin's init. The plugin
 * calls the host only through it and never links against host symbols.
 *
 * Threads: the host runs one event loop thread ("the loop"). Every plugin
 * callback runs on it, and every function in this table must be called on
 * it, except `post`, which is [any thread] (the tags: abi.h). Never block
 * the loop (abi.h): a slow step runs on a watch, a timer, or a thread of
 * the plugin's that posts its result back.
 */
#ifndef MCPHOST_HOST_H
#define MCPHOST_HOST_H

#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mcph_host mcph_host;
typedef struct mcph_watch mcph_watch; /* opaque: an fd watch */
typedef struct mcph_timer mcph_timer; /* opaque: a one-shot timer */

enum mcph_log_level {
  MCPH_LOG_ERROR = 0,
  MCPH_LOG_WARN = 1,
  MCPH_LOG_INFO = 2,
  MCPH_LOG_DEBUG = 3,
  MCPH_LOG_TRACE = 4
};

/* Event bits for fd watches. READ and WRITE are requested; ERROR and HUP
 * are always reported when they happen. */
enum mcph_fd_event {
  MCPH_FD_READ = 1u << 0,
  MCPH_FD_WRITE = 1u << 1,
  MCPH_FD_ERROR = 1u << 2,
  MCPH_FD_HUP = 1u << 3
};

/* Paths the host hands out with get_path(). */
enum mcph_path {
  MCPH_PATH_CWD = 0,   /* the working directory mcphost was started in */
  MCPH_PATH_STATE = 1, /* per-user state dir ($XDG_STATE_HOME/mcphost) */
  MCPH_PATH_LOGS = 2,  /* per-user log dir (server stderr logs go here) */
  MCPH_PATH_CACHE = 3  /* per-user cache dir ($XDG_CACHE_HOME/mcphost) */
};

/* [loop] Callbacks run on the loop. `ud` is the pointer given at
 * registration. */
typedef void (*mcph_fd_cb)(void *ud, int fd, unsigned events);
typedef void (*mcph_timer_cb)(void *ud);
typedef void (*mcph_post_cb)(void *ud);

struct mcph_host {
  uint32_t struct_size; /* sizeof(mcph_host) as the host was built */
  uint32_t abi_major;   /* the host's MCPH_ABI_MAJOR */
  uint32_t abi_minor;   /* the host's MCPH_ABI_MINOR */
  const char *host_version; /* e.g. "0.1.0"; static, never freed */

  /* ---- ABI 1.0 ---- */

  /* [loop] Writes one log line attributed to `source` (the plugin id or server
   * name; may be NULL). `msg` is borrowed for the call. */
  void (*log)(const mcph_host *host, int level, const char *source,
              const char *msg);

  /* [loop] Watches `fd` for `events` (MCPH_FD_READ|MCPH_FD_WRITE). `cb` runs on
   * the loop with the events that fired. Watches are level-triggered: a
   * callback may read only part of what is ready and will be called
   * again. The fd stays owned by the caller,
   * who must unwatch it before closing it. Returns 0 and sets *out, or a
   * negative MCPH_E* code. */
  int (*fd_watch)(const mcph_host *host, int fd, unsigned events,
                  mcph_fd_cb cb, void *ud, mcph_watch **out);
  /* [loop] Changes the events a watch asks for. */
  int (*fd_update)(const mcph_host *host, mcph_watch *w, unsigned events);
  /* [loop] Stops and frees a watch. Safe from inside its own callback. */
  void (*fd_unwatch)(const mcph_host *host, mcph_watch *w);

  /* [loop] Starts a one-shot timer that fires after `delay_ms` on the loop. The
   * timer is freed after it fired; do not cancel it afterwards. */
  int (*timer_start)(const mcph_host *host, uint64_t delay_ms,
                     mcph_timer_cb cb, void *ud, mcph_timer **out);
  /* [loop] Cancels a timer that has not fired yet and frees it. */
  void (*timer_cancel)(const mcph_host *host, mcph_timer *t);

  /* [any thread] Queues `cb(ud)` to run on the loop soon. The only
   * thread-safe function of this table. Returns 0 or MCPH_ENOMEM. A post
   * cannot be withdrawn; posts still queued at shutdown are dropped
   * without running, so a plugin's deinit must stop (join) its own
   * threads first. */
  int (*post)(const mcph_host *host, mcph_post_cb cb, void *ud);

  /* [loop] Monotonic milliseconds. */
  uint64_t (*now_ms)(const mcph_host *host);

  /* [loop] One of enum mcph_path. The string is owned by the host and valid for
   * the host's lifetime; NULL for an unknown value, and (a clarification
   * for every 1.x plugin, which must handle NULL anyway) for the per-user
   * directories when the user has no home (then write no files). The
   * directory may not exist yet: create it before use (mode 0700), and
   * refuse it when it or a parent is another user's or writable by
   * others (docs/security.md). */
  const char *(*get_path)(const mcph_host *host, int which);

  /* [loop] Looks up an optional host service by id with revision, e.g.
   * "mcph.host.ui/1". Returns NULL when the host does not offer it.
   * Published ids are frozen; a change is a new revision. */
  const void *(*get_service)(const mcph_host *host, const char *id);
};

/* [loop] Formats and logs through host->log. */
static inline void mcph_logf(const mcph_host *host, int level,
                             const char *source, const char *fmt, ...)
    MCPH_PRINTF(4, 5);
static inline void mcph_logf(const mcph_host *host, int level,
                             const char *source, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  host->log(host, level, source, line);
}

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_HOST_H */
