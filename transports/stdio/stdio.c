/*
 * The stdio transport plugin: runs an MCP server as a child process and
 * exchanges newline-delimited JSON-RPC with it over its stdin and stdout.
 *
 * Life of one transport, all on the host's loop thread:
 *
 *   create   parse and check the config (config.c); nothing runs yet.
 *   start    spawn (spawn.c), register the child's process group with the
 *            guardian (guardian.c), watch stdout, stderr and the child.
 *   running  send() writes or queues to stdin; stdout is split into lines
 *            (framing.c) and delivered; stderr is logged (stderr_log.c);
 *            all three in pipes.c.
 *   stopping close() closes stdin and waits for the child to exit (up to
 *            MCPHOST_STDIO_EXIT_MS, 2000 ms), reading its stdout and
 *            stderr on, then SIGTERM to the group, SIGKILL 1000 ms later.
 *            A pipe closing under a live child (after a short grace), or
 *            close() called again while it waits, takes the quick way:
 *            SIGINT, SIGTERM at 500 ms, SIGKILL at 1000 ms (child.c).
 *   exited   the child's pidfd fires: kill what is left of its group,
 *            unregister it, reap the child, deliver what stdout still held,
 *            then on_close once, with the exit status and the tail of
 *            stderr (child.c).
 *
 * Nothing blocks the loop except destroy() of a transport whose child was
 * never reaped: it kills the child with SIGKILL and waits for it.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/plugin.h>

#include "env_ms.h"
#include "proc_watch.h"
#include "spawn.h"
#include "stdio_transport.h"

/* How long close() waits for a server's exit by default (the MCP
 * lifecycle: close stdin, wait, then SIGTERM). */
#define EXIT_WAIT_MS 2000

/* ---- the transport functions ---- */

static int t_create(void *plugin_ctx, const mcph_transport_params *params,
                    mcph_transport **out, mcph_error *err) {
  if (!MCPH_HAS(params, mcph_transport_params, events) || !params->events ||
      !MCPH_HAS(params->events, mcph_transport_events, on_close) ||
      !params->events->on_message || !params->events->on_close) {
    return mcph_error_set(err, MCPH_EABI,
                          "stdio transport: incomplete transport params");
  }
  mcph_transport *t = calloc(1, sizeof *t);
  if (!t) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  t->pl = plugin_ctx;
  t->host = t->pl->host;
  t->ev = params->events;
  t->pid = -1;
  t->status_fd = t->stdin_fd = t->stdout_fd = t->stderr_fd = -1;
  t->name = strdup(params->server_name ? params->server_name : "");
  int rc = t->name ? stdio_config_parse(params->config_json, &t->cfg, err)
                   : mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  if (rc != 0) {
    free(t->name);
    free(t);
    return rc;
  }
  framing_init(&t->rx, t->cfg.max_message_bytes);
  stderr_log_init(&t->errlog, t->host, t->name);
  *out = t;
  return 0;
}

static int t_start(mcph_transport *t, mcph_error *err) {
  if (t->state != T_NEW || t->pid > 0) {
    return mcph_error_set(err, MCPH_EINVAL, "already started");
  }
  stderr_log_open(&t->errlog);
  spawn_request req = {
      .argv = t->cfg.argv, .env = t->cfg.env, .cwd = t->cfg.cwd};
  spawn_child child;
  int rc = spawn_start(&req, &child, err);
  if (rc != 0) {
    stderr_log_close(&t->errlog);
    return rc;
  }
  t->pid = child.pid;
  t->stdin_fd = child.stdin_fd;
  t->stdout_fd = child.stdout_fd;
  t->stderr_fd = child.stderr_fd;
  t->status_fd = child.status_fd;
  guardian_register(&t->pl->guard, t->pid);

  char mark[256];
  snprintf(mark, sizeof mark, "started pid %ld: %.200s", (long)t->pid,
           t->cfg.command);
  stderr_log_mark(&t->errlog, mark);
  t->host->log(t->host, MCPH_LOG_DEBUG, t->name, mark);

  if (t->host->fd_watch(t->host, t->stdout_fd, MCPH_FD_READ, pipes_on_stdout, t,
                        &t->stdout_watch) != 0 ||
      t->host->fd_watch(t->host, t->stderr_fd, MCPH_FD_READ, pipes_on_stderr, t,
                        &t->stderr_watch) != 0 ||
      child_watch(t) != 0) {
    /* start() failing means nothing runs and nothing is called back: stop
     * watching and kill it now; destroy(), which follows a failed start,
     * reaps it and frees the rest. */
    stdio_unwatch(t, &t->stdout_watch);
    stdio_unwatch(t, &t->stderr_watch);
    proc_watch_cancel(t->exit_watch);
    t->exit_watch = NULL;
    kill(-t->pid, SIGKILL);
    return mcph_error_set(err, MCPH_ENOMEM,
                          "cannot start \"%s\": cannot watch its pipes",
                          t->cfg.command);
  }
  t->state = T_RUNNING;
  return 0;
}

static int t_send(mcph_transport *t, const char *json, size_t len,
                  mcph_error *err) {
  if (t->state != T_RUNNING || t->stopping || t->stdin_fd < 0) {
    return mcph_error_set(err, MCPH_ECLOSED, "the server connection is closed");
  }
  /* A raw newline would split the message in two for the server. */
  if (len == 0 || memchr(json, '\n', len)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "a message must be one line of JSON");
  }
  return pipes_send(t, json, len, err);
}

static void t_close(mcph_transport *t) {
  if (t->state != T_RUNNING) {
    return;
  }
  if (t->close_requested) {
    child_stop(t); /* asked again: a person interrupted the host */
    return;
  }
  t->close_requested = true;
  child_close(t);
}

static void t_destroy(mcph_transport *t) {
  if (!t) {
    return;
  }
  proc_watch_cancel(t->exit_watch);
  t->exit_watch = NULL;
  stdio_cancel(t, &t->grace_timer);
  stdio_cancel(t, &t->kill_timer);
  stdio_unwatch(t, &t->stdout_watch);
  stdio_unwatch(t, &t->stderr_watch);
  pipes_close_stdin(t);
  if (t->pid > 0) {
    child_reap(t, true); /* not reaped: close() skipped, or start failed */
  }
  stdio_close_fd(&t->status_fd);
  stdio_close_fd(&t->stdout_fd);
  stdio_close_fd(&t->stderr_fd);
  stderr_log_free(&t->errlog);
  framing_free(&t->rx);
  stdio_config_free(&t->cfg);
  free(t->name);
  free(t);
}

/* ---- the plugin ---- */

/* MCPHOST_STDIO_EXIT_MS: a positive whole number of milliseconds, else
 * the default (env_ms.h's rule). The host reads the same variable for how
 * long it waits at exit, and warns about a value that is not one. */
static uint64_t exit_wait_ms(void) {
  uint64_t ms;
  const char *v = getenv("MCPHOST_STDIO_EXIT_MS");
  return v && ms_parse(v, false, &ms) ? ms : EXIT_WAIT_MS;
}

static const char *const stdio_types[] = {"stdio", NULL};
static const mcph_transport_type_info stdio_info[] = {
    {sizeof(mcph_transport_type_info), "stdio", MCPH_TRANSPORT_LOCAL},
    {0, NULL, 0}};

static const mcph_transport_factory stdio_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = stdio_types,
    .create = t_create,
    .start = t_start,
    .send = t_send,
    .close = t_close,
    .destroy = t_destroy,
    .session_id = NULL,
    .set_protocol_version = NULL,
    .type_info = stdio_info,
};

static int plugin_init(const mcph_host *host, void **plugin_ctx,
                       mcph_error *err) {
  if (!MCPH_HAS(host, mcph_host, get_path) ||
      host->abi_major != MCPH_ABI_MAJOR || !host->log || !host->fd_watch ||
      !host->fd_unwatch || !host->timer_start || !host->timer_cancel ||
      !host->get_path) {
    return mcph_error_set(err, MCPH_EABI,
                          "stdio transport: the host lacks services this "
                          "plugin needs (built for ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  stdio_plugin *pl = calloc(1, sizeof *pl);
  if (!pl) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  pl->host = host;
  pl->exit_wait_ms = exit_wait_ms();
  guardian_init(&pl->guard, host);
  *plugin_ctx = pl;
  return 0;
}

static const void *plugin_get_extension(void *plugin_ctx, const char *id) {
  (void)plugin_ctx;
  return id && strcmp(id, MCPH_EXT_TRANSPORT) == 0 ? &stdio_factory : NULL;
}

static void plugin_deinit(void *plugin_ctx) {
  stdio_plugin *pl = plugin_ctx;
  if (pl) {
    guardian_stop(&pl->guard);
    free(pl);
  }
}

/* The one exported symbol. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = STDIO_PLUGIN_ID,
    .name = "stdio transport",
    .version = "0.1.0",
    .description = "Runs an MCP server as a child process and talks "
                   "newline-delimited JSON-RPC over its stdin and stdout.",
    .init = plugin_init,
    .get_extension = plugin_get_extension,
    .deinit = plugin_deinit,
};
