/* The host object: owns the loop, the plugin registry, the configuration,
 * the per-user paths, and the table of services handed to plugins. There
 * is no other mutable global state. Loop thread only. */
#ifndef MCPHOST_HOST_H_INTERNAL
#define MCPHOST_HOST_H_INTERNAL

#include <stdbool.h>
#include <stdint.h>

#include <mcphost/mcphost.h>

#include "config/config.h"
#include "config/config_scopes.h"
#include "config/roots.h"
#include "core/host_config.h"
#include "core/loop.h"
#include "core/plugins.h"
#include "safety/sanitize.h"

#define MCPHOST_VERSION "0.1.0"

/* Where the host's log goes instead of stderr (an embedding program's
 * on_log, sdk/include/mcphost/client.h): an entry's level (MCPH_LOG_*),
 * its source (the server or plugin; NULL: none) and its text, escaped and
 * redacted as on stderr, without "mcphost: LEVEL: " or the last newline.
 * The signature is mcphost_log_fn's. */
typedef void (*host_log_fn)(void *ud, int level, const char *source,
                            const char *text);

typedef struct host_options {
  const char *const *plugin_dirs; /* --plugin-dir, in order */
  size_t nplugin_dirs;
  const char *builtin_plugin_dir; /* NULL: next to the executable */
  int verbosity;                  /* 0 quiet .. 3 trace */
  /* Leave SIGINT, SIGTERM and SIGHUP to the program (an embedding one:
   * sdk/include/mcphost/client.h): they are not blocked nor read, so
   * nothing but the program interrupts the host. */
  bool no_signals;
  host_log_fn log; /* NULL: stderr */
  void *log_ud;
} host_options;

struct host;

/* What the layer above the core (mcp/: the client, its sessions, the
 * feature plugins' and auth providers' host side) adds to the host. The
 * core calls up only through these (host/layers.txt). mcp_client_new
 * sets them, before the plugins are loaded; a host without them offers
 * no feature or auth service and has no client to refuse a reload. */
typedef struct host_hooks {
  /* The plugins were loaded (host_load_plugins, host_load_plugin_file). */
  void (*plugins_loaded)(struct host *h);
  /* The service table of `id` this layer offers, or NULL. */
  const void *(*service)(struct host *h, const char *id);
  /* Whether something holds state for the configured servers, so that
   * reloading the configuration is refused (host_config.h). */
  bool (*holds_config)(const struct host *h);
  /* host_free: releases what the layer keeps in the host. */
  void (*free)(struct host *h);
} host_hooks;

typedef struct host {
  loop *loop;
  /* The host's own services table; each plugin has its own copy
   * (plugin.handle), all leading back here (host_from_api). */
  plugin_handle self;
  registry reg;
  config cfg;
  int verbosity;
  host_log_fn log; /* host_options' */
  void *log_ud;
  /* -q: what a server sends outside the protocol (a banner line on
   * stdout) is logged at info, not as a warning. */
  bool quiet;
  bool status_open; /* a status line is shown in place (host_status_line) */
  sanitize_mode sanitize; /* --sanitize: what sessions do to server text */
  char *paths[4]; /* enum mcph_path */
  int sigfd;      /* SIGINT/SIGTERM/SIGHUP as a readable fd */
  loop_watch *sigwatch;
  volatile bool interrupted; /* set when a signal arrived */
  int signal_number;
  void *features;  /* feature_rec[], see mcp/feature_plugins.c */
  size_t nfeatures;
  struct host_option {
    char *name, *value;
  } *options; /* values of plugin-declared options (--name=value) */
  size_t noptions;
  /* The "mcph.host.servers/1" service, offered by the MCP client that
   * owns the connections (mcp/client.h); NULL: not offered. */
  const mcph_host_servers *servers_service;
  struct mcp_client *client; /* that client, for its service functions */
  void *auth;                /* connections known to mcp/host_auth.c */
  const struct host_hooks *hooks; /* the client's layer's, or NULL */
  size_t nsessions;          /* live sessions (they point into cfg) */
  config_sources cfg_sources; /* what cfg was loaded from (host_config.h) */
  bool have_cfg_sources;
  bool listing_servers; /* inside a server source's list (no reload) */
  host_config_loaded_fn cfg_loaded; /* after a reload (host_config.h) */
  void *cfg_loaded_ud;
  struct mcph_ui_ask *ui_ask; /* the open question (host_ui.c), or NULL */
  struct ui_browser *ui_browsers; /* browsers being reaped (host_ui.c) */
  /* Strings handed to plugins, freed once control is back in the loop
   * (host_returned). */
  char **returned;
  size_t nreturned;
  bool returned_posted;
} host;

host *host_new(const host_options *opt);
void host_free(host *h);
/* The host behind a table handed to plugins. */
host *host_from_api(const mcph_host *api);
/* The plugin a table was handed to; NULL for the host's own. */
plugin *host_caller(const mcph_host *api);

/* The one lifetime rule for strings the host returns to a plugin (abi.h):
 * takes `s` (malloc'd) and frees it once control returned to the loop.
 * Returns `s`. */
const char *host_returned(host *h, char *s);

/* Loads every plugin along the search path. */
void host_load_plugins(host *h);
/* Instead: loads the one file `path` (absolute) as host_load_plugins
 * loads each, with `watch` (borrowed for the host's life; may be NULL)
 * seeing its steps and the services it looks up (mcphost plugin check's
 * child). Returns its record. */
plugin *host_load_plugin_file(host *h, const char *path,
                              const plugin_watch *watch);

/* Logging to stderr (or the host's log function), filtered by verbosity.
 * `source` may be NULL. */
void host_log(host *h, int level, const char *source, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Hands an entry of the log (`text`, escaped) to the host's log function,
 * when it has one: true; false: the caller writes it on stderr. Every
 * entry passes here (host_log, the configuration's report). */
bool host_log_sink(host *h, int level, const char *source, const char *text);
/* A line of stderr saying how something is going (a tool's progress):
 * on a terminal each one replaces the last in place ("\r", cut to the
 * width, cleared to the end of the line), so updates do not scroll what
 * came before away; anywhere else (a pipe, a file) one line each. `text`
 * is shown as it is (escaped by the caller). */
void host_status_line(host *h, const char *text);
/* Ends the status line shown in place, if one is, so that what follows
 * (a log line, a result on stdout, a question) starts below it; its last
 * text stays. Every host log line does this first. */
void host_status_end(host *h);

/* As host_log, shown at `level` but labelled `label` instead of the
 * level's name: a server's own log line, shown with -v, keeps its level
 * ("error", "critical") in the text. */
void host_log_labeled(host *h, int level, const char *label, const char *source,
                      const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The roots server `sc` is offered (roots_offer, config/roots.h), what
 * is left out said on `h`'s log. */
cJSON *roots_for_server(host *h, const server_config *sc,
                        const roots_options *o);

/* Runs the loop until *done is true, the deadline (absolute loop_now_ms;
 * 0 = none) passes, or a signal arrives. Returns 0 when done, -1 on
 * deadline, -2 on signal. */
int host_run_until(host *h, const bool *done, uint64_t deadline_ms);
/* Runs what is ready now (fd events, timers due), without waiting: a
 * front end that left the loop idle (the shell at its prompt) catches up
 * with what happened meanwhile, a server's exit above all. */
void host_run_ready(host *h);

/* The value of a global option a plugin declared (--NAME=VALUE,
 * feature.h's options): plugins read it through their host handle. Both
 * strings are copied. */
void host_set_plugin_option(host *h, const char *name, const char *value);

/* ---- for front ends: the host's state without its fields ----
 * (host_state.c; the CLI reads and sets the host only through these.) */
/* The configuration (loaded by the front end: config_load_scopes into
 * host_cfg_edit). Borrowed for the host's life. */
const config *host_cfg(const host *h);
config *host_cfg_edit(host *h);
loop *host_loop(const host *h);
/* What is loaded, read-only. */
const registry *host_registry(const host *h);
int host_verbosity(const host *h); /* 0 quiet .. 3 trace */
void host_set_verbosity(host *h, int verbosity);
/* -q (host.quiet). */
void host_set_quiet(host *h, bool quiet);
bool host_quiet(const host *h);
/* --sanitize: what sessions do to server text (sanitize.h). */
sanitize_mode host_sanitize(const host *h);
void host_set_sanitize(host *h, sanitize_mode mode);
/* A per-user path (enum mcph_path: MCPH_PATH_CWD, ...), or NULL. */
const char *host_path(const host *h, int which);
/* A signal (SIGINT, SIGTERM, SIGHUP) arrived; its number. */
bool host_interrupted(const host *h);
void host_clear_interrupt(host *h);
/* As if signal `signal_number` had arrived: a session process passes on
 * the Ctrl-C of the command's caller (cli/daemon/daemon_run.c). */
void host_interrupt(host *h, int signal_number);

/* Clears the flag and the signal's number too: the signal was dealt with
 * (the shell's Ctrl-C ended one command) and must not set the exit. */
void host_forget_signal(host *h);
int host_signal_number(const host *h);

/* The directory holding this executable's built-in plugins. New string. */
char *host_default_plugin_dir(void);

#endif
