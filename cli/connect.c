/* The CLI's side of the client: the command line's settings for it,
 * and running one operation (mcphost_start) to its end with its
 * progress, the "still running" line and Ctrl-C. */
#include <poll.h>
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

int cli_fail(cli *c, const mcphost_error *e) {
  if (e->message[0]) {
    cli_error(c, e->server[0] ? e->server : NULL, "%s", e->message);
  }
  return cli_exit_for_api(e->code);
}

mcphost_request cli_request(int kind, const char *server, const char *name,
                            const char *arguments, uint32_t flags) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = kind;
  rq.server = server;
  if (kind == MCPHOST_OP_REQUEST) {
    rq.method = name;
  } else {
    rq.name = name;
  }
  rq.arguments = arguments;
  rq.flags = flags;
  return rq;
}

bool cli_wait(cli *c, const int *done) {
  while (!*done) {
    if (mcphost_interrupted(c->api)) {
      return true;
    }
    struct pollfd p = {.fd = mcphost_fd(c->api), .events = POLLIN};
    poll(&p, 1, mcphost_timeout_ms(c->api));
    mcphost_perform(c->api);
  }
  return false;
}

/* One operation run to its end, with the "still running" line: every
 * MCPHOST_STILL_RUNNING_MS (30000) on a terminal while a tool call
 * runs. */
typedef struct sync_op {
  cli *c;
  char **real;
  const char *server; /* the still-running line's */
  uint64_t started;
  mcphost_timer *timer;
  int done;
  cJSON *result;
  mcphost_error *err;
} sync_op;

static uint64_t still_running_interval(void) {
  return env_ms("MCPHOST_STILL_RUNNING_MS", 30000, false, NULL);
}

static void on_still_running(void *ud) {
  sync_op *r = ud;
  mcphost_status_end(r->c->api);
  fprintf(stderr,
          "mcphost: tools/call on server \"%s\" still running "
          "(%llu s)\n",
          cli_esc(r->c, r->server ? r->server : "?"),
          (unsigned long long)((mcphost_now_ms() - r->started) / 1000));
  r->timer = mcphost_timer_start(r->c->api, still_running_interval(),
                                 on_still_running, r);
}

static void on_sync_done(void *ud, const char *result, size_t len,
                         const mcphost_error *err) {
  sync_op *r = ud;
  r->done = 1;
  /* The still-running line ends with the operation. */
  if (r->timer) {
    mcphost_timer_cancel(r->c->api, r->timer);
    r->timer = NULL;
  }
  /* The text is ours (MCPHOST_REQUEST_TAKE_RESULT), parsed where it is:
   * a string of megabytes (a big tool result) becomes its value without
   * a copy. */
  char *own = (char *)result;
  if (err) {
    *r->err = *err;
    mcphost_free(own); /* an error's data: not wanted here */
    return;
  }
  r->result = own ? json_parse_owned(own, len, NULL) : NULL;
  if (!r->result) { /* the library gives JSON: never seen */
    r->err->code = MCPHOST_EPROTOCOL;
    snprintf(r->err->message, sizeof r->err->message, "the result is not JSON");
  }
}

static void on_sync_resolved(void *ud, const char *server,
                             const char *item_json) {
  sync_op *r = ud;
  (void)server;
  if (!r->real) {
    return;
  }
  cJSON *item = json_parse_str(item_json);
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "name"));
  if (name) {
    free(*r->real);
    *r->real = xstrdup(name);
  }
  cJSON_Delete(item);
}

static void on_sync_progress(void *ud, const char *params_json) {
  sync_op *r = ud;
  if (!r->c->quiet_progress) {
    cJSON *params = json_parse_str(params_json);
    out_progress(r->c, params);
    cJSON_Delete(params);
  }
}

static void on_sync_task(void *ud, const char *task_json) {
  sync_op *r = ud;
  if (!r->c->quiet_progress) {
    cJSON *task = json_parse_str(task_json);
    out_task_status(r->c, task);
    cJSON_Delete(task);
  }
}

int cli_run(cli *c, const mcphost_request *rq, cJSON **result,
            mcphost_error *err, char **real) {
  sync_op r = {.c = c, .err = err, .real = real, .server = rq->server};
  *result = NULL;
  *err = (mcphost_error)MCPHOST_ERROR_INIT;
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.progress = on_sync_progress;
  cb.done = on_sync_done;
  cb.ud = &r;
  cb.resolved = on_sync_resolved;
  cb.task = on_sync_task;
  mcphost_request own = *rq;
  own.flags |= MCPHOST_REQUEST_TAKE_RESULT;
  int64_t id = mcphost_start(c->api, &own, &cb, err);
  if (id < 0) {
    return cli_exit_for_api((int)id);
  }
  /* A person waiting on a long tool call sees that it is still alive. */
  if (rq->kind == MCPHOST_OP_CALL_TOOL && isatty(2) && !c->quiet_progress) {
    if (!r.server) {
      mcphost_resolve_ref(c->api, rq->name, "tool", &r.server, NULL, NULL);
    }
    r.started = mcphost_now_ms();
    r.timer = mcphost_timer_start(c->api, still_running_interval(),
                                  on_still_running, &r);
  }
  if (cli_wait(c, &r.done)) {
    /* Ctrl-C: the request is withdrawn, and ends interrupted. */
    mcphost_cancel(c->api, id);
    while (!r.done) {
      struct pollfd p = {.fd = mcphost_fd(c->api), .events = POLLIN};
      poll(&p, 1, mcphost_timeout_ms(c->api));
      mcphost_perform(c->api);
    }
  }
  mcphost_status_end(c->api); /* the result starts below the last progress */
  if (r.timer) {
    mcphost_timer_cancel(c->api, r.timer);
  }
  *result = r.result;
  return r.result ? EXIT_OK : cli_exit_for_api(err->code);
}
