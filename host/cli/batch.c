/* mcphost batch: many requests in one process, for scripts and drivers.
 * Reads one JSON request per line on stdin and writes one JSON line per
 * answer on stdout, as answers complete (so requests run concurrently).
 *
 *   {"id": 1, "call": "mcp__demo__echo", "arguments": {"message": "hi"}}
 *   {"id": 2, "read": "demo", "uri": "demo://readme"}
 *   {"id": 3, "prompt": "demo/greet", "arguments": {"name": "Ada"}}
 *   {"id": 4, "list": "tools", "server": "demo"}   (no server: all)
 *   {"id": 5, "subscribe": "every", "uri": "demo://resource/static/..."}
 *   {"id": 6, "roots": ["/some/dir"], "server": "every"}   (no server: all)
 * ->
 *   {"id": 1, "result": {...}}
 *   {"id": 9, "error": {"exit": 6, "message": "..."}}
 *
 * After a subscribe, each notifications/resources/updated of that server
 * is written as {"server": S, "notification": M, "params": {...}}.
 * Servers are connected on first use; a list of tools used to resolve
 * tool names is kept for MCPHOST_LIST_CACHE_TTL ms (20000) and dropped on
 * notifications/tools/list_changed and when the connection closes. "exit"
 * is the exit code the same request would have given as a single command.
 * A list of every server gathers the items, each with its "server", and
 * the servers that failed under "errors". New roots apply to the
 * servers' next connections and are announced to connected ones with
 * notifications/roots/list_changed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../json_write.h"
#include "../names.h"
#include "../redact.h"
#include "../roots.h"
#include "../util.h"
#include "cli.h"

typedef enum {
  OP_CALL,
  OP_READ,
  OP_PROMPT,
  OP_LIST,
  OP_SUBSCRIBE,
  OP_UNSUBSCRIBE,
  OP_LIST_ALL, /* a list of every server: the parent of one OP_LIST each */
  OP_ROOTS
} op_kind;

typedef struct batch batch;

typedef struct op {
  batch *b;
  op_kind kind;
  cJSON *id;       /* echoed back; owned */
  size_t server;   /* config index */
  char *name;      /* tool/prompt (normalized when qualified), or uri */
  bool qualified;
  cJSON *args;     /* owned */
  char *list_kind; /* for OP_LIST */
  struct op *next; /* waiting list of its server */
  /* OP_LIST_ALL: its children still running, what they gathered. */
  struct op *parent; /* an OP_LIST of OP_LIST_ALL answers to it */
  size_t children;
  cJSON *items, *errors; /* owned */
} op;

/* Per server: its session, and requests waiting for it to connect or for
 * its tool list (needed to map a normalized mcp__ name to the real one). */
typedef struct server_slot {
  op *waiting;
  bool connecting;
  cJSON *tools; /* cached tools/list, NULL until listed */
  uint64_t tools_at; /* when it was listed (the cache has a TTL) */
  unsigned subscriptions; /* resources subscribed on this server */
  bool listing;
  op *waiting_tools;
  /* Set while a connection the breaker closed is still shutting down:
   * the waiting requests connect again once it has. */
  bool restart_when_closed;
  loop_timer *restart;
  /* The roots a {"roots": ...} request gave this server (owned); NULL:
   * those of the command line and the configuration. */
  cJSON *roots;
  batch *b;
} server_slot;

struct batch {
  cli *c;
  uint64_t cache_ttl_ms;
  server_slot *slots;
  size_t inflight;
  bool eof;
  bool done;
  strbuf in; /* unparsed input */
  /* Answers not yet written: stdout is written only when it can take
   * more, so a slow reader never stalls the loop (and with it every
   * server's deadlines); reading requests pauses while too much waits. */
  strbuf out;
  size_t out_off;
  loop_watch *in_watch, *out_watch;
  bool in_paused;
  int out_flags; /* stdout's flags before we made it non-blocking, or -1 */
};

/* Output waiting beyond this stops the reading of requests, until it is
 * down to the low mark. */
#define OUT_HIGH (4u << 20)
#define OUT_LOW (1u << 20)
/* A drained queue keeps its room up to this. */
#define OUT_KEEP_MAX ((size_t)1 << 20)

static void flush_out(batch *b);

static void on_stdout(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  flush_out(ud);
}

static void flush_out(batch *b) {
  while (b->out_off < b->out.len) {
    ssize_t n = write(1, b->out.data + b->out_off, b->out.len - b->out_off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && errno == EAGAIN) {
      if (!b->out_watch &&
          loop_watch_fd(b->c->h->loop, 1, LOOP_WRITE, on_stdout, b,
                        &b->out_watch) < 0)
        b->out_watch = NULL;
      break;
    }
    if (n <= 0) { /* the reader is gone: drop what is left */
      cli_output_failed(b->c, n < 0 ? errno : EIO);
      b->out_off = b->out.len;
      break;
    }
    b->out_off += (size_t)n;
  }
  size_t waiting = b->out.len - b->out_off;
  if (waiting == 0) {
    b->out.len = b->out_off = 0;
    if (b->out.cap > OUT_KEEP_MAX) /* a large answer's room, given back */
      sb_free(&b->out);
    if (b->out_watch) {
      loop_unwatch(b->c->h->loop, b->out_watch);
      b->out_watch = NULL;
    }
  }
  if (b->in_watch && !b->in_paused && waiting > OUT_HIGH) {
    b->in_paused = true;
    loop_watch_update(b->c->h->loop, b->in_watch, 0);
  } else if (b->in_watch && b->in_paused && waiting <= OUT_LOW) {
    b->in_paused = false;
    loop_watch_update(b->c->h->loop, b->in_watch, LOOP_READ);
  }
}

/* Writes `line` into the queue itself: a large answer printed to a
 * string first would be held twice more while it is copied in. */
static void emit(batch *b, cJSON *line) {
  bool written = json_write(&b->out, line) == 0;
  cJSON_Delete(line);
  if (written) {
    sb_addc(&b->out, '\n');
    flush_out(b);
  }
}

static void check_done(batch *b) {
  if (b->eof && b->inflight == 0)
    b->done = true;
}

static void op_free(op *o) {
  cJSON_Delete(o->id);
  cJSON_Delete(o->args);
  cJSON_Delete(o->items);
  cJSON_Delete(o->errors);
  free(o->name);
  free(o->list_kind);
  free(o);
}

static void finish_result(op *o, cJSON *result);

/* A child of OP_LIST_ALL is done: the last one answers for all. */
static void child_done(op *o) {
  op *p = o->parent;
  batch *b = o->b;
  op_free(o);
  b->inflight--;
  if (--p->children > 0)
    return;
  cJSON *result = cJSON_CreateObject();
  cJSON_AddItemToObject(result, p->list_kind, p->items);
  p->items = NULL;
  if (cJSON_GetArraySize(p->errors) > 0) {
    cJSON_AddItemToObject(result, "errors", p->errors);
    p->errors = NULL;
  }
  finish_result(p, result);
}

static void finish_error(op *o, int exit_code, const char *message) {
  if (o->parent) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "server",
                            o->b->c->h->cfg.servers[o->server].name);
    cJSON_AddNumberToObject(e, "exit", exit_code);
    char *safe = redact(message);
    cJSON_AddStringToObject(e, "message", safe);
    free(safe);
    cJSON_AddItemToArray(o->parent->errors, e);
    child_done(o);
    return;
  }
  cJSON *line = cJSON_CreateObject();
  cJSON_AddItemToObject(line, "id", o->id ? o->id : cJSON_CreateNull());
  o->id = NULL;
  cJSON *e = cJSON_AddObjectToObject(line, "error");
  cJSON_AddNumberToObject(e, "exit", exit_code);
  /* The message can quote a server or an HTTP peer. */
  char *safe = redact(message);
  cJSON_AddStringToObject(e, "message", safe);
  free(safe);
  batch *b = o->b;
  emit(b, line);
  op_free(o);
  b->inflight--;
  check_done(b);
}

static void finish_result(op *o, cJSON *result) {
  if (o->parent) {
    const char *server = o->b->c->h->cfg.servers[o->server].name;
    cJSON *items = cJSON_GetObjectItemCaseSensitive(result, o->list_kind);
    while (cJSON_IsArray(items) && items->child) {
      cJSON *it = cJSON_DetachItemViaPointer(items, items->child);
      if (cJSON_IsObject(it)) {
        cJSON_DeleteItemFromObjectCaseSensitive(it, "server");
        cJSON_AddStringToObject(it, "server", server);
      }
      cJSON_AddItemToArray(o->parent->items, it);
    }
    cJSON_Delete(result);
    child_done(o);
    return;
  }
  cJSON *line = cJSON_CreateObject();
  cJSON_AddItemToObject(line, "id", o->id ? o->id : cJSON_CreateNull());
  o->id = NULL;
  cJSON_AddItemToObject(line, "result", result);
  batch *b = o->b;
  emit(b, line);
  op_free(o);
  b->inflight--;
  check_done(b);
}

static session *op_session(op *o) { return o->b->c->sessions[o->server]; }

static void on_answer(void *ud, cJSON *result, const rpc_error *err,
                      bool *take) {
  op *o = ud;
  if (err) {
    char msg[700];
    snprintf(msg, sizeof msg, "server \"%s\": %s", op_session(o)->cfg->name,
             err->message);
    finish_error(o,
                 cli_exit_code(&(cli_failure){.s = op_session(o),
                                              .status = err->status,
                                              .rpc_code = err->code,
                                              .message = err->message,
                                              .item = o->name}),
                 msg);
    return;
  }
  *take = true;
  finish_result(o, result);
}

static void send_op(op *o, const char *method, cJSON *params) {
  char why[600];
  /* Results are only passed on: a large one may skip the tree. */
  rpc_request_opts opts = {
      .ud = o, .raw_result = true, .kind = cli_result_kind(method)};
  batch *b = o->b;
  opts.timeout_ms = o->kind == OP_CALL ? b->c->tool_timeout_ms
                                       : b->c->request_timeout_ms;
  if (session_request(op_session(o), method, params, &opts, on_answer, why,
                      sizeof why) < 0)
    finish_error(o, op_session(o)->state == SESS_READY ? EXIT_PROTOCOL
                                                       : EXIT_SERVER,
                 why);
}

static void on_listed(void *ud, session *s, cJSON *items, const char *error) {
  (void)s;
  op *o = ud;
  if (error) {
    finish_error(o, EXIT_PROTOCOL, error);
    return;
  }
  cJSON *result = cJSON_CreateObject();
  cJSON_AddItemToObject(result, o->list_kind, items);
  finish_result(o, result);
}

static void run_call(op *o, const char *real) {
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "name", real);
  cJSON_AddItemToObject(params, "arguments",
                        o->args ? o->args : cJSON_CreateObject());
  o->args = NULL;
  send_op(o, "tools/call", params);
}

static void run_ready(op *o);

/* Waiting lists are built by prepending; requests run in arrival order. */
static op *reversed(op *list) {
  op *out = NULL;
  while (list) {
    op *next = list->next;
    list->next = out;
    out = list;
    list = next;
  }
  return out;
}

static void on_tools(void *ud, session *s, cJSON *items, const char *error) {
  server_slot *slot = ud;
  (void)s;
  slot->listing = false;
  slot->tools = items;
  slot->tools_at = loop_now_ms();
  op *w = reversed(slot->waiting_tools);
  slot->waiting_tools = NULL;
  while (w) {
    op *next = w->next;
    if (error)
      finish_error(w, EXIT_PROTOCOL, error);
    else
      run_ready(w);
    w = next;
  }
}

/* The session is connected: do the op. */
static void run_ready(op *o) {
  server_slot *slot = &o->b->slots[o->server];
  session *s = op_session(o);
  switch (o->kind) {
  case OP_CALL: {
    /* Both forms are looked up in the (cached) list, so that a name the
     * server does not have is exit 6 as with `call`, however the server
     * would have answered it. */
    if (slot->tools && loop_now_ms() - slot->tools_at > o->b->cache_ttl_ms) {
      cJSON_Delete(slot->tools); /* stale: list again */
      slot->tools = NULL;
    }
    if (!slot->tools) {
      o->next = slot->waiting_tools;
      slot->waiting_tools = o;
      if (!slot->listing) {
        slot->listing = true;
        session_list(s, "tools/list", "tools", o->b->c->request_timeout_ms,
                     on_tools, slot);
      }
      return;
    }
    /* The names `tools` lists (names.h): shortened, de-duplicated; or
     * the server's own. */
    const cJSON *t = NULL;
    if (o->qualified) {
      t = name_find_item(s->cfg->name, slot->tools, o->b->c->lim.name_chars,
                         o->name);
    } else {
      cJSON_ArrayForEach(t, slot->tools) {
        const char *n =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "name"));
        if (n && strcmp(n, o->name) == 0)
          break;
      }
    }
    if (t) {
      const char *real =
          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "name"));
      /* The rules match the real name, as call does: the name given may
       * be a shortened or hashed alias that no rule names. */
      char why[600];
      int prc = cli_permission_now(o->b->c, o->server, real, false, why,
                                   sizeof why);
      if (prc != EXIT_OK)
        finish_error(o, prc, why);
      else
        run_call(o, real);
      return;
    }
    char msg[400];
    snprintf(msg, sizeof msg, "server \"%s\" has no tool named \"%s\"",
             s->cfg->name, o->name);
    finish_error(o, EXIT_NOT_FOUND, msg);
    return;
  }
  case OP_SUBSCRIBE:
  case OP_UNSUBSCRIBE: {
    cJSON *params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "uri", o->name);
    if (o->kind == OP_SUBSCRIBE)
      slot->subscriptions++;
    else if (slot->subscriptions)
      slot->subscriptions--;
    send_op(o, o->kind == OP_SUBSCRIBE ? "resources/subscribe"
                                       : "resources/unsubscribe",
            params);
    return;
  }
  case OP_READ: {
    cJSON *params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "uri", o->name);
    send_op(o, "resources/read", params);
    return;
  }
  case OP_PROMPT: {
    cJSON *params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "name", o->name);
    cJSON_AddItemToObject(params, "arguments",
                          o->args ? o->args : cJSON_CreateObject());
    o->args = NULL;
    send_op(o, "prompts/get", params);
    return;
  }
  case OP_LIST_ALL:
  case OP_ROOTS:
    break; /* never waits for a server (start_list_all, set_roots) */
  case OP_LIST: {
    char method[64];
    snprintf(method, sizeof method, "%s/list", o->list_kind);
    session_list(s, method, o->list_kind, o->b->c->request_timeout_ms,
                 on_listed, o);
    return;
  }
  }
}

static void restart_slot(void *ud) {
  server_slot *slot = ud;
  slot->restart = NULL;
  session_restart(slot->b->c->sessions[slot - slot->b->slots]);
}

static void on_state(void *ud, session *s) {
  batch *b = ud;
  size_t idx = (size_t)(s->cfg - b->c->h->cfg.servers);
  server_slot *slot = &b->slots[idx];
  if (s->state != SESS_READY && slot->tools) {
    /* The tool list belongs to the connection it came from. */
    cJSON_Delete(slot->tools);
    slot->tools = NULL;
  }
  if (slot->restart_when_closed &&
      (s->state == SESS_FAILED || s->state == SESS_CLOSED)) {
    /* Not from inside the transport's own callback: on the next turn. */
    slot->restart_when_closed = false;
    slot->restart = loop_timer_start(b->c->h->loop, 0, restart_slot, slot);
    return;
  }
  if (s->state == SESS_CONNECTING || session_will_reconnect(s)) {
    slot->connecting = true; /* requests wait for the outcome */
    return;
  }
  if (!session_is_settled(s) || !slot->connecting)
    return;
  slot->connecting = false;
  op *w = reversed(slot->waiting);
  slot->waiting = NULL;
  while (w) {
    op *next = w->next;
    if (s->state == SESS_READY) {
      run_ready(w);
    } else {
      char msg[700];
      snprintf(msg, sizeof msg, "server \"%s\" failed: %s", s->cfg->name,
               s->error ? s->error : "not connected");
      finish_error(w, cli_exit_for_failure(s), msg);
    }
    w = next;
  }
}

/* What a server pushes: resource updates go out as lines of their own
 * (there is no request id to answer), and a changed tool list drops the
 * cached one. */
static void on_notify(void *ud, session *s, const char *method,
                      const cJSON *params) {
  batch *b = ud;
  server_slot *slot = &b->slots[(size_t)(s->cfg - b->c->h->cfg.servers)];
  if (strcmp(method, "notifications/tools/list_changed") == 0 && slot->tools) {
    cJSON_Delete(slot->tools);
    slot->tools = NULL;
  }
  if (strcmp(method, "notifications/resources/updated") == 0 &&
      slot->subscriptions) {
    cJSON *line = cJSON_CreateObject();
    cJSON_AddStringToObject(line, "server", s->cfg->name);
    cJSON_AddStringToObject(line, "notification", method);
    cJSON_AddItemToObject(line, "params",
                          params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
    emit(b, line);
  }
}

static void start_op(batch *b, op *o) {
  cli *c = b->c;
  server_slot *slot = &b->slots[o->server];
  session *s = c->sessions[o->server];
  if (!s) {
    s = cli_new_session(c, o->server);
    if (slot->roots)
      session_set_roots(s, cJSON_Duplicate(slot->roots, 1));
    c->sessions[o->server] = s;
    s->on_state = on_state;
    s->on_state_ud = b;
    s->auto_reconnect = true; /* a long-lived process: respawn crashes */
    s->on_notify = on_notify;
    s->on_notify_ud = b;
    slot->connecting = true;
    o->next = slot->waiting;
    slot->waiting = o;
    session_connect(s, c->connect_timeout_ms);
    return;
  }
  if (slot->connecting) {
    o->next = slot->waiting;
    slot->waiting = o;
    return;
  }
  if (s->state == SESS_FAILED && s->fail == FAIL_UNREACHABLE) {
    /* Lost, or switched off by the circuit breaker: the next use
     * connects again. */
    o->next = slot->waiting;
    slot->waiting = o;
    session_restart(s);
    return;
  }
  if (s->state == SESS_CLOSING && s->fail == FAIL_UNREACHABLE) {
    /* The breaker is still closing the connection. */
    o->next = slot->waiting;
    slot->waiting = o;
    slot->connecting = true;
    slot->restart_when_closed = true;
    return;
  }
  if (s->state != SESS_READY) {
    char msg[700];
    snprintf(msg, sizeof msg, "server \"%s\" failed: %s", s->cfg->name,
             s->error ? s->error : "not connected");
    finish_error(o, cli_exit_for_failure(s), msg);
    return;
  }
  run_ready(o);
}

/* The configuration and the permission rules, before anything starts:
 * batch has no terminal to ask on (stdin carries the requests). */
static int batch_allowed(batch *b, const op *o, char *why, size_t why_len) {
  const server_config *sc = &b->c->h->cfg.servers[o->server];
  if (sc->state != SERVER_ACTIVE) {
    snprintf(why, why_len, "server \"%s\" is %s: %s", sc->name,
             server_state_name(sc), sc->reason ? sc->reason : "");
    return EXIT_DENIED;
  }
  if (o->kind != OP_CALL)
    return EXIT_OK;
  return cli_permission_now(b->c, o->server, o->name, o->qualified, why,
                            why_len);
}

/* {"list": KIND} without a server: one OP_LIST per server that may
 * start, gathered by `o`. */
static void start_list_all(batch *b, op *o) {
  const config *cfg = &b->c->h->cfg;
  o->items = cJSON_CreateArray();
  o->errors = cJSON_CreateArray();
  o->children = 1; /* held until every child is out: some end at once */
  for (size_t i = 0; i < cfg->nservers; i++) {
    if (cfg->servers[i].state != SERVER_ACTIVE)
      continue;
    op *child = xcalloc(1, sizeof *child);
    child->b = b;
    child->kind = OP_LIST;
    child->server = i;
    child->list_kind = xstrdup(o->list_kind);
    child->parent = o;
    o->children++;
    b->inflight++;
    start_op(b, child);
  }
  /* The hold, released like a child's end. */
  op *hold = xcalloc(1, sizeof *hold);
  hold->b = b;
  hold->parent = o;
  b->inflight++;
  child_done(hold);
}

/* {"roots": [DIR...], "server": S}: resolves the directories against the
 * working directory, keeps them for the server's (or every server's)
 * next connections and gives them to the connected sessions, which
 * announce the change. Answers with the roots as offered. */
static void set_roots(batch *b, op *o, const cJSON *dirs, long only) {
  cli *c = b->c;
  char why[700];
  if (c->no_roots) {
    finish_error(o, EXIT_USAGE, "roots are off (--no-roots)");
    return;
  }
  cJSON *roots = cJSON_CreateArray();
  int i = 0;
  const cJSON *d;
  cJSON_ArrayForEach(d, dirs) {
    char *dir = cJSON_IsString(d) && d->valuestring[0]
                    ? roots_resolve_dir(c->h->paths[MCPH_PATH_CWD],
                                        d->valuestring, why, sizeof why)
                    : NULL;
    if (!dir) {
      char msg[800];
      snprintf(msg, sizeof msg, "\"roots\"[%d]: %s", i,
               cJSON_IsString(d) && d->valuestring[0]
                   ? why
                   : "must be a directory path");
      cJSON_Delete(roots);
      finish_error(o, EXIT_USAGE, msg);
      return;
    }
    cJSON_AddItemToArray(roots, roots_entry(dir));
    free(dir);
    i++;
  }
  for (size_t k = 0; k < c->nsessions; k++) {
    if (only >= 0 && (size_t)only != k)
      continue;
    cJSON_Delete(b->slots[k].roots);
    b->slots[k].roots = cJSON_Duplicate(roots, 1);
    if (c->sessions[k])
      session_set_roots(c->sessions[k], cJSON_Duplicate(roots, 1));
  }
  cJSON *result = cJSON_CreateObject();
  cJSON_AddItemToObject(result, "roots", roots);
  finish_result(o, result);
}

/* One input line: parse it into an op and start it. */
static void handle_line(batch *b, const char *line, size_t len) {
  op *o = xcalloc(1, sizeof *o);
  o->b = b;
  b->inflight++;
  cJSON *req = cJSON_ParseWithLength(line, len);
  char why[600];
  if (!cJSON_IsObject(req)) {
    cJSON_Delete(req);
    finish_error(o, EXIT_USAGE, "not a JSON object");
    return;
  }
  /* Taken out of the request, which is deleted below, not copied. */
  o->id = cJSON_DetachItemFromObjectCaseSensitive(req, "id");
  o->args = cJSON_DetachItemFromObjectCaseSensitive(req, "arguments");
  if (o->args && !cJSON_IsObject(o->args)) {
    cJSON_Delete(req);
    finish_error(o, EXIT_USAGE, "\"arguments\" must be an object");
    return;
  }
  const char *call = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(req, "call"));
  const char *read = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(req, "read"));
  const char *prompt = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(req, "prompt"));
  const char *list = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(req, "list"));
  const char *sub = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(req, "subscribe"));
  const char *unsub = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(req, "unsubscribe"));
  const cJSON *roots = cJSON_GetObjectItemCaseSensitive(req, "roots");
  if (sub || unsub)
    read = sub ? sub : unsub; /* same shape as read: server + uri */
  int rc = EXIT_OK;
  if (roots) {
    const char *srv =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(req, "server"));
    long i = srv ? cli_find_server(b->c, srv) : -1;
    o->kind = OP_ROOTS;
    if (!cJSON_IsArray(roots)) {
      rc = EXIT_USAGE;
      snprintf(why, sizeof why, "\"roots\" must be a list of directories");
    } else if (srv && i < 0) {
      rc = EXIT_NOT_FOUND;
      snprintf(why, sizeof why, "no server named \"%s\" is configured", srv);
    } else {
      set_roots(b, o, roots, i);
      cJSON_Delete(req);
      return;
    }
  } else if (list && !cJSON_GetObjectItemCaseSensitive(req, "server")) {
    o->kind = OP_LIST_ALL;
    if (strcmp(list, "tools") && strcmp(list, "resources") &&
        strcmp(list, "prompts")) {
      rc = EXIT_USAGE;
      snprintf(why, sizeof why, "\"list\" must be tools, resources or prompts");
    } else {
      o->list_kind = xstrdup(list);
      cJSON_Delete(req);
      start_list_all(b, o);
      return;
    }
  } else if (call || prompt) {
    o->kind = call ? OP_CALL : OP_PROMPT;
    rc = cli_resolve_ref(b->c, call ? call : prompt, call ? "tool" : "prompt",
                         &o->server, &o->name, &o->qualified, why, sizeof why);
  } else if (read || list) {
    const char *srv = read ? read : cJSON_GetStringValue(
                                        cJSON_GetObjectItemCaseSensitive(req, "server"));
    const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(req, "uri"));
    long i = srv ? cli_find_server(b->c, srv) : -1;
    o->kind = sub ? OP_SUBSCRIBE : unsub ? OP_UNSUBSCRIBE : read ? OP_READ : OP_LIST;
    if (!srv) {
      rc = EXIT_USAGE;
      snprintf(why, sizeof why, "\"server\" is missing");
    } else if (i < 0) {
      rc = EXIT_NOT_FOUND;
      snprintf(why, sizeof why, "no server named \"%s\" is configured", srv);
    } else if (read && !uri) {
      rc = EXIT_USAGE;
      snprintf(why, sizeof why, "\"uri\" is missing");
    } else if (list && strcmp(list, "tools") && strcmp(list, "resources") &&
               strcmp(list, "prompts")) {
      rc = EXIT_USAGE;
      snprintf(why, sizeof why, "\"list\" must be tools, resources or prompts");
    } else {
      o->server = (size_t)i;
      o->name = read ? xstrdup(uri) : NULL;
      o->list_kind = list ? xstrdup(list) : NULL;
    }
  } else {
    rc = EXIT_USAGE;
    snprintf(why, sizeof why,
             "a request needs one of \"call\", \"read\", \"prompt\", "
             "\"list\", \"subscribe\", \"unsubscribe\", \"roots\"");
  }
  cJSON_Delete(req);
  if (rc == EXIT_OK)
    rc = batch_allowed(b, o, why, sizeof why);
  if (rc != EXIT_OK) {
    finish_error(o, rc, why);
    return;
  }
  start_op(b, o);
}

static void take_lines(batch *b) {
  size_t start = 0;
  for (size_t i = 0; i < b->in.len; i++) {
    if (b->in.data[i] != '\n')
      continue;
    size_t n = i - start;
    const char *l = b->in.data + start;
    while (n && (l[n - 1] == '\r' || l[n - 1] == ' '))
      n--;
    if (n)
      handle_line(b, l, n);
    start = i + 1;
  }
  if (start) {
    memmove(b->in.data, b->in.data + start, b->in.len - start);
    b->in.len -= start;
    b->in.data[b->in.len] = '\0';
  }
}

static void on_stdin(void *ud, int fd, unsigned events) {
  batch *b = ud;
  (void)events;
  char buf[65536];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EAGAIN || errno == EINTR))
    return;
  if (n > 0) {
    sb_add(&b->in, buf, (size_t)n);
    take_lines(b);
    return;
  }
  /* EOF (or error): a last line without '\n' still counts. */
  if (b->in.len) {
    sb_addc(&b->in, '\n');
    take_lines(b);
  }
  b->eof = true;
  check_done(b);
}

int cmd_batch(cli *c, int argc, char **argv) {
  if (argc > 1) {
    cli_error(c, NULL,
              "batch reads its requests from stdin and takes no arguments "
              "(\"%s\"; batch --help)",
              argv[1]);
    return EXIT_USAGE;
  }
  batch b = {.c = c};
  b.cache_ttl_ms = 20000;
  const char *ttl = getenv("MCPHOST_LIST_CACHE_TTL");
  if (ttl && *ttl)
    b.cache_ttl_ms = strtoull(ttl, NULL, 10);
  sb_init(&b.in);
  c->nsessions = c->h->cfg.nservers;
  c->sessions = xcalloc(c->nsessions, sizeof *c->sessions);
  b.slots = xcalloc(c->nsessions, sizeof *b.slots);
  for (size_t i = 0; i < c->nsessions; i++)
    b.slots[i].b = &b;
  sb_init(&b.out);
  /* Non-blocking writes where a write could block (a pipe or socket); the
   * flags are restored on the way out. */
  struct stat st;
  b.out_flags = -1;
  if (fstat(1, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
    b.out_flags = fcntl(1, F_GETFL);
    if (b.out_flags >= 0)
      fcntl(1, F_SETFL, b.out_flags | O_NONBLOCK);
  }
  if (loop_watch_fd(c->h->loop, 0, LOOP_READ, on_stdin, &b, &b.in_watch) < 0) {
    /* A regular file cannot be polled: it is always readable. */
    b.in_watch = NULL;
    while (!b.eof)
      on_stdin(&b, 0, LOOP_READ);
  }
  int rc = host_run_until(c->h, &b.done, 0);
  if (b.in_watch)
    loop_unwatch(c->h->loop, b.in_watch);
  /* Write what is left before the servers close. */
  if (b.out_flags >= 0)
    fcntl(1, F_SETFL, b.out_flags);
  if (b.out_watch)
    loop_unwatch(c->h->loop, b.out_watch);
  b.out_watch = NULL;
  while (b.out_off < b.out.len) {
    ssize_t n = write(1, b.out.data + b.out_off, b.out.len - b.out_off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      cli_output_failed(c, n < 0 ? errno : EIO);
      break;
    }
    b.out_off += (size_t)n;
  }
  sb_free(&b.out);
  for (size_t i = 0; i < c->nsessions; i++) {
    cJSON_Delete(b.slots[i].tools);
    cJSON_Delete(b.slots[i].roots);
    if (b.slots[i].restart)
      loop_timer_cancel(c->h->loop, b.slots[i].restart);
    if (c->sessions[i]) {
      /* Notifications keep coming while the sessions close: nothing of
       * this batch may be reached from them any more. */
      c->sessions[i]->on_state = NULL;
      c->sessions[i]->on_notify = NULL;
    }
  }
  free(b.slots);
  sb_free(&b.in);
  if (rc == -2) {
    /* Interrupted: what is in flight is cancelled by the shutdown. */
    for (size_t i = 0; i < c->nsessions; i++)
      if (c->sessions[i])
        rpc_cancel_all(c->sessions[i]->rpc, "interrupted by the user");
    return EXIT_INTERRUPTED;
  }
  return EXIT_OK;
}
