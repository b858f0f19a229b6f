/* The CLI's side of the MCP client (mcp/client.h, mcp/calls.h): the
 * command line's settings for it, and running one operation to its end
 * with the "still running" line and Ctrl-C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "env_ms.h"
#include "json_parse.h"
#include "util.h"

void cli_client_options(cli *c) {
  mcp_client_set_options(
      c->mc,
      &(mcp_client_options){.connect_timeout_ms = c->connect_timeout_ms,
                            .request_timeout_ms = c->request_timeout_ms,
                            .tool_timeout_ms = c->tool_timeout_ms,
                            .tool_timeout_total = c->tool_timeout_given,
                            .server_exit_ms = c->server_exit_ms,
                            .request_timeout_total = c->request_timeout_given,
                            .log_level = c->log_level,
                            .root_dirs = (const char *const *)c->root_dirs,
                            .nroot_dirs = c->nroot_dirs,
                            .no_roots = c->no_roots,
                            .name_chars = c->lim.name_chars,
                            /* a session's servers outlive the command */
                            .keep = c->shared != NULL,
                            .protocol = c->protocol,
                            .list_cache_ttl_ms = env_ms(
                                "MCPHOST_LIST_CACHE_TTL", 20000, true, NULL)});
}

size_t cli_connect_flags(cli *c, const size_t *idx, size_t n, unsigned flags) {
  const char **names = xcalloc(n ? n : 1, sizeof *names);
  for (size_t k = 0; k < n; k++) {
    names[k] = mcphost_server_name(c->api, idx[k]);
  }
  size_t ok = 0;
  mcphost_connect_servers(c->api, names, n, flags, &ok, NULL);
  free(names);
  return ok;
}

size_t cli_connect(cli *c, const size_t *idx, size_t n) {
  return cli_connect_flags(c, idx, n, 0);
}

size_t cli_connect_all(cli *c) {
  size_t ok = 0;
  mcphost_connect_servers(c->api, NULL, 0, 0, &ok, NULL);
  return ok;
}

long cli_find_server(const cli *c, const char *name) {
  size_t i;
  return mcphost_server_find(c->api, name, &i, NULL) == MCPHOST_OK ? (long)i
                                                                   : -1;
}

int cli_no_server(cli *c, const char *name) {
  /* The library's message: the name and the closest configured ones. */
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (mcphost_server_find(c->api, name, NULL, &err) != MCPHOST_OK) {
    cli_error(c, NULL, "%s", err.message);
  } else {
    cli_error(c, NULL, "no server named \"%s\" is configured", name);
  }
  return EXIT_NOT_FOUND;
}

cJSON *cli_server_status(cli *c, const char *name, unsigned flags) {
  char *text = NULL;
  if (mcphost_server_status(c->api, name, flags, &text, NULL, NULL) !=
      MCPHOST_OK) {
    return name ? NULL : cJSON_CreateArray();
  }
  cJSON *v = json_parse(text, strlen(text), NULL);
  mcphost_free(text);
  return v ? v : name ? NULL : cJSON_CreateArray();
}

bool cli_server_ready(const cJSON *status) {
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(status, "code");
  return cJSON_IsNumber(code) && code->valueint == MCPHOST_OK;
}

int cli_exit_for_server(const cJSON *status) {
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(status, "code");
  return cli_exit_for_api(cJSON_IsNumber(code) ? code->valueint
                                               : MCPHOST_ESERVER);
}

int cli_fail(cli *c, const mcp_error *e) {
  if (e->message) {
    cli_error(c, e->server, "%s", e->message);
  }
  return cli_exit_code(e);
}

/* The "still running" line: every MCPHOST_STILL_RUNNING_MS (30000) on a
 * terminal while a tool call runs. */
typedef struct still_running {
  cli *c;
  const mcp_op *op;
  uint64_t started;
  loop_timer *timer;
} still_running;

static uint64_t still_running_interval(void) {
  return env_ms("MCPHOST_STILL_RUNNING_MS", 30000, false, NULL);
}

static void on_still_running(void *ud) {
  still_running *sr = ud;
  size_t idx = mcp_op_server(sr->op);
  host_status_end(sr->c->h);
  fprintf(stderr,
          "mcphost: tools/call on server \"%s\" still running "
          "(%llu s)\n",
          cli_esc(sr->c, host_cfg(sr->c->h)->servers[idx].name),
          (unsigned long long)((loop_now_ms() - sr->started) / 1000));
  sr->timer = loop_timer_start(host_loop(sr->c->h), still_running_interval(),
                               on_still_running, sr);
}

typedef struct sync_op {
  cli *c;
  char **real;
  still_running *sr; /* its timer ends with the operation, which it reads */
  bool done;
  cJSON *result;
  mcp_error *err;
} sync_op;

static void on_sync_done(void *ud, cJSON *result, const mcp_error *err) {
  sync_op *r = ud;
  r->done = true;
  r->result = result;
  /* The operation is freed after this returns: its still-running line must
   * not fire again (a timer due in the same loop turn would read it). */
  if (r->sr && r->sr->timer) {
    loop_timer_cancel(host_loop(r->c->h), r->sr->timer);
    r->sr->timer = NULL;
  }
  if (err) {
    r->err->kind = err->kind;
    r->err->rpc_code = err->rpc_code;
    r->err->message = err->message ? xstrdup(err->message) : NULL;
    r->err->server = err->server ? xstrdup(err->server) : NULL;
    r->err->data = err->data ? cJSON_Duplicate(err->data, 1) : NULL;
  }
}

static void on_sync_resolved(void *ud, const cJSON *item) {
  sync_op *r = ud;
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "name"));
  if (r->real && name) {
    free(*r->real);
    *r->real = xstrdup(name);
  }
}

static void on_sync_progress(void *ud, const cJSON *params) {
  sync_op *r = ud;
  if (!r->c->quiet_progress) {
    out_progress(r->c, params);
  }
}

static void on_sync_task(void *ud, const cJSON *task) {
  sync_op *r = ud;
  if (!r->c->quiet_progress) {
    out_task_status(r->c, task);
  }
}

int cli_run(cli *c, const mcp_call *call, cJSON **result, mcp_error *err,
            char **real) {
  still_running sr = {.c = c};
  sync_op r = {.c = c, .err = err, .real = real, .sr = &sr};
  mcp_error_clear(err);
  mcp_op *op =
      mcp_client_start(c->mc, call,
                       &(mcp_call_callbacks){.progress = on_sync_progress,
                                             .done = on_sync_done,
                                             .asker = cli_asker(c),
                                             .ud = &r,
                                             .resolved = on_sync_resolved,
                                             .task = on_sync_task});
  /* A person waiting on a long tool call sees that it is still alive. */
  sr.op = op;
  sr.started = loop_now_ms();
  if (op && !r.done && call->kind == MCP_OP_CALL_TOOL && isatty(2) &&
      !c->quiet_progress) {
    sr.timer = loop_timer_start(host_loop(c->h), still_running_interval(),
                                on_still_running, &sr);
  }
  if (host_run_until(c->h, &r.done, 0) == -2 && !r.done) {
    mcp_op_cancel(op);
  }
  host_status_end(c->h); /* the result starts below the last progress */
  if (sr.timer) {
    loop_timer_cancel(host_loop(c->h), sr.timer);
  }
  *result = r.result;
  return r.result ? EXIT_OK : cli_exit_code(err);
}
