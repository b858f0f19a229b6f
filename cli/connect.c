/* The CLI's side of the client: the command line's settings for it,
 * and running one operation (mcphost_start) to its end with its
 * progress, the "still running" line and Ctrl-C. */
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "env_ms.h"
#include "json_parse.h"
#include "util.h"

/* `v` in decimal, in buf (24 bytes): a number for mcphost_set_option
 * without printf's cost. */
static const char *decimal(char *buf, uint64_t v) {
  char *p = buf + 23;
  *p = '\0';
  do {
    *--p = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  return p;
}

static void set(cli *c, const char *name, const char *value) {
  mcphost_set_option(c->api, name, value, NULL);
}

static void set_ms(cli *c, const char *name, uint64_t ms) {
  char buf[24];
  set(c, name, decimal(buf, ms));
}

/* The command line's settings; with `all`, every one, else those the
 * command line changed: a client just made read the environment as
 * set_defaults did (MCP_TIMEOUT, MCP_TOOL_TIMEOUT,
 * MCPHOST_REQUEST_TIMEOUT, MCPHOST_STDIO_EXIT_MS,
 * MCPHOST_MAX_NAME_CHARS, MCPHOST_LIST_CACHE_TTL), and each call costs
 * a cold command (tools) some 400 instructions. */
static void client_options(cli *c, bool all, bool keep) {
  /* A deadline the user gave is a hard total; the others are the
   * defaults, restarted at each progress notification (NULL). */
  if (all || c->timeout_given) {
    set_ms(c, "connect-timeout", c->connect_timeout_ms);
    if (c->request_timeout_given)
      set_ms(c, "request-timeout", c->request_timeout_ms);
    else
      set(c, "request-timeout", NULL);
    if (c->tool_timeout_given)
      set_ms(c, "tool-timeout", c->tool_timeout_ms);
    else
      set(c, "tool-timeout", NULL);
  }
  if (all) {
    set_ms(c, "server-exit", c->server_exit_ms);
    set_ms(c, "name-chars", c->lim.name_chars);
    set_ms(c, "list-cache-ttl",
           env_ms("MCPHOST_LIST_CACHE_TTL", 20000, true, NULL));
    set(c, "keep", keep ? "1" : "0");
  }
  if (all || c->log_level)
    set(c, "log-level", c->log_level);
  if (all || c->protocol)
    set(c, "protocol", c->protocol);
  if (all || c->nroot_dirs || c->no_roots) {
    set(c, "no-roots", "0");
    set(c, "root", NULL);
    for (size_t i = 0; i < c->nroot_dirs; i++)
      set(c, "root", c->root_dirs[i]);
    if (c->no_roots)
      set(c, "no-roots", NULL);
  }
}

void cli_client_options(cli *c) {
  /* A session's client keeps the last command's settings: every one is
   * set; its servers outlive the command. */
  client_options(c, c->shared != NULL, c->shared != NULL);
}

void cli_client_options_kept(cli *c) {
  client_options(c, true, true);
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
    cli_error(c, e->server[0] ? e->server : NULL, "%s",
              e->message_long ? e->message_long : e->message);
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

int cli_wait_until(cli *c, const int *done, uint64_t deadline) {
  while (!*done) {
    if (mcphost_interrupted(c->api)) {
      return 1;
    }
    int wait = mcphost_timeout_ms(c->api);
    if (deadline) {
      uint64_t now = mcphost_now_ms();
      if (now >= deadline) {
        return -1;
      }
      uint64_t left = deadline - now;
      if (wait < 0 || (uint64_t)wait > left) {
        wait = left > INT_MAX ? INT_MAX : (int)left;
      }
    }
    struct pollfd p = {.fd = mcphost_fd(c->api), .events = POLLIN};
    poll(&p, 1, wait);
    mcphost_perform(c->api);
  }
  return 0;
}

bool cli_wait(cli *c, const int *done) {
  return cli_wait_until(c, done, 0) == 1;
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
    /* A server's long message kept whole, the command's until its next
     * operation: borrowed from `err` only for this call. */
    free(r->c->error_long);
    r->c->error_long = err->message_long ? xstrdup(err->message_long) : NULL;
    r->err->message_long = r->c->error_long;
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
