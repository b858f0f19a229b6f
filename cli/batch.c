/* mcphost batch: many requests in one process, for scripts and drivers.
 * Reads one JSON request per line on stdin and writes one JSON line per
 * answer on stdout, as answers complete (so requests run concurrently:
 * at most INFLIGHT_MAX at once, the next line read as one ends).
 *
 *   {"id": 1, "call": "mcp__demo__echo", "arguments": {"message": "hi"}}
 *   {"id": 7, "call": "demo/echo", "args": ["message=hi"]}  (as `call`
 *                                   takes KEY=VALUE; "validate": false)
 *   {"id": 2, "read": "demo", "uri": "demo://readme"}
 *   {"id": 3, "prompt": "demo/greet", "arguments": {"name": "Ada"}}
 *   {"id": 4, "list": "tools", "server": "demo"}   (no server: all)
 *   {"id": 5, "subscribe": "every", "uri": "demo://resource/static/..."}
 *   {"id": 6, "roots": ["/some/dir"], "server": "every"}   (no server: all)
 *   {"id": 8, "call": "every/simulate-research-query", "args": [...],
 *    "detach": true}   ("task": true, "detach": true as --task, --detach)
 *   {"id": 9, "task": "result", "server": "every", "taskId": "..."}
 *                      (also "status", "cancel"; "list" without taskId)
 * ->
 *   {"id": 1, "result": {...}}
 *   {"id": 9, "error": {"exit": 6, "message": "..."}}
 *
 * After a subscribe, each notifications/resources/updated of that server
 * is written as {"server": S, "notification": M, "params": {...}}.
 * Each request is an operation of the client API (mcphost_start), as the
 * single commands' are: servers connect on first use, tool names resolve in
 * a list kept for MCPHOST_LIST_CACHE_TTL ms (20000), progress goes to
 * stderr, -32042 elicitations run, and a rule that asks takes --allow,
 * else asks on /dev/tty when the process has one, else the permission
 * plugins, else refuses. "exit" is the exit code the same request would
 * have given as a single command.
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
#include <sys/uio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "json_parse.h"
#include "json_raw.h"
#include "json_scan.h"
#include "json_write.h"
#include "redact.h"
#include "suggest.h"
#include "util.h"
#include "write_all.h"

typedef enum {
  OP_CALL,
  OP_READ,
  OP_PROMPT,
  OP_LIST,
  OP_SUBSCRIBE,
  OP_UNSUBSCRIBE,
  OP_LIST_ALL, /* a list of every server: the parent of one OP_LIST each */
  OP_ROOTS,
  OP_TASK /* "task": status, result, cancel or list */
} op_kind;

typedef struct batch batch;

/* A large result waiting to be written, in the buffer it was received in
 * (taken from the client: MCPHOST_REQUEST_TAKE_RESULT): written from
 * there and freed once written, never copied into the queue. */
typedef struct out_piece {
  struct out_piece *next;
  char *data; /* owned */
  size_t len, off;
} out_piece;

typedef struct op {
  batch *b;
  op_kind kind;
  /* The flags beside `kind`, in its padding: one op per request read. */
  bool no_validate;  /* OP_CALL: "validate": false */
  bool task, detach; /* OP_CALL: "task", "detach" */
  /* Its arguments are the text in the batch's scratch buffer (the
   * request's, put there by handle_line, which starts it). */
  bool has_args;
  cJSON *id; /* echoed back; owned */
  /* Or, for a plain call's (plain_call), its integer token, which
   * json_write would give back as it is: "" when none. */
  char id_token[17];
  size_t server;   /* config index (mcphost_server_name's) */
  char *name;      /* the tool or prompt reference, or uri */
  cJSON *args;     /* made for the request (OP_TASK, OP_SUBSCRIBE); owned */
  char *words;     /* OP_CALL: "args" (mcphost_args_parse's); owned */
  char *task_verb; /* OP_TASK: status, result, cancel, list */
  char *list_kind; /* for OP_LIST */
  /* OP_LIST_ALL: its children still running, what they gathered. */
  struct op *parent; /* an OP_LIST of OP_LIST_ALL answers to it */
  size_t children;
  cJSON *items, *errors; /* owned */
  /* Started (mcphost_start): its id, in the batch's list of them, which
   * an interrupt cancels. */
  int64_t api_id;
  struct op *prev, *next;
} op;

struct batch {
  cli *c;
  mcphost_client *api;
  unsigned *subscriptions; /* per server: resources subscribed */
  size_t nservers;
  size_t inflight;
  op *started;    /* the operations started and not ended */
  strbuf scratch; /* a request's arguments as text, for mcphost_start */
  bool in_eof;    /* stdin is at its end */
  bool eof;       /* ... and every request of it is started */
  int done;
  /* At most INFLIGHT_MAX requests run at once: the lines after them wait
   * in `in`, and stdin is read again as requests end. */
  bool window_full;
  bool feeding; /* in feed(): an op that ends inside waits for it */
  bool stopped; /* interrupted: no more requests start */
  int drained;  /* ... and every request started has ended */
  mcphost_timer *feed_timer;
  strbuf in; /* unparsed input */
  /* Answers not yet written: stdout is written only when it can take
   * more, so a slow reader never stalls the loop (and with it every
   * server's deadlines); reading requests pauses while too much waits. */
  strbuf out;
  size_t out_off;
  /* Written before `out`: large results, and what was queued before
   * each (the queue's buffer, handed on). */
  out_piece *pieces, **pieces_end;
  size_t piece_bytes; /* not yet written */
  mcphost_watch *in_watch, *out_watch;
  bool out_full; /* too much output waits (OUT_HIGH, OUT_LOW) */
  bool reading;  /* in_watch asks for LOOP_READ */
  int out_flags; /* stdout's flags before we made it non-blocking, or -1 */
  bool out_tty;  /* stdout is a terminal (asked once) */
};

/* Output waiting beyond this stops the reading of requests, until it is
 * down to the low mark. */
#define OUT_HIGH (4u << 20)
#define OUT_LOW (1u << 20)
/* A drained queue keeps its room up to this. */
#define OUT_KEEP_MAX ((size_t)1 << 20)
/* Requests running at once: each holds about 1 KB until it is answered
 * (its op, the client's, the JSON-RPC request and its text), so that
 * 2,000 written at once would hold 2 MB; the next line is read as one
 * ends. */
#define INFLIGHT_MAX 256u

static void flush_out(batch *b);
static void set_reading(batch *b);

static void on_stdout(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  flush_out(ud);
}

/* Bytes of answers not yet written. */
static size_t out_waiting(const batch *b) {
  return b->piece_bytes + b->out.len - b->out_off;
}

/* `n` bytes written: the pieces first, then the queue. */
static void out_consume(batch *b, size_t n) {
  while (n > 0 && b->pieces) {
    out_piece *p = b->pieces;
    size_t k = p->len - p->off < n ? p->len - p->off : n;
    p->off += k;
    b->piece_bytes -= k;
    n -= k;
    if (p->off == p->len) { /* the result is out: its buffer goes */
      b->pieces = p->next;
      if (!b->pieces)
        b->pieces_end = &b->pieces;
      free(p->data);
      free(p);
    }
  }
  b->out_off += n;
}

/* One writev of what waits, in order; write's result. */
static ssize_t out_write(batch *b) {
  struct iovec iov[8];
  int n = 0;
  const out_piece *p = b->pieces;
  for (; p && n < 8; p = p->next)
    iov[n++] = (struct iovec){p->data + p->off, p->len - p->off};
  if (!p && n < 8 && b->out_off < b->out.len)
    iov[n++] =
        (struct iovec){b->out.data + b->out_off, b->out.len - b->out_off};
  ssize_t w = writev(1, iov, n);
  if (w > 0)
    out_consume(b, (size_t)w);
  return w;
}

/* Drops what waits (the reader is gone). */
static void out_drop(batch *b) {
  while (b->pieces) {
    out_piece *p = b->pieces;
    b->pieces = p->next;
    free(p->data);
    free(p);
  }
  b->pieces_end = &b->pieces;
  b->piece_bytes = 0;
  b->out_off = b->out.len;
}

static void flush_out(batch *b) {
  while (out_waiting(b) > 0) {
    ssize_t n = out_write(b);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && errno == EAGAIN) {
      if (!b->out_watch &&
          mcphost_watch_fd(b->api, 1, MCPHOST_FD_WRITE, on_stdout, b,
                           &b->out_watch, NULL) != MCPHOST_OK)
        b->out_watch = NULL;
      break;
    }
    if (n <= 0) { /* the reader is gone: drop what is left */
      cli_output_failed(b->c, n < 0 ? errno : EIO);
      out_drop(b);
      break;
    }
  }
  size_t waiting = out_waiting(b);
  if (waiting == 0) {
    b->out.len = b->out_off = 0;
    if (b->out.cap > OUT_KEEP_MAX) /* a large answer's room, given back */
      sb_free(&b->out);
    if (b->out_watch) {
      mcphost_unwatch(b->api, b->out_watch);
      b->out_watch = NULL;
    }
  }
  if (!b->out_full && waiting > OUT_HIGH) {
    b->out_full = true;
    set_reading(b);
  } else if (b->out_full && waiting <= OUT_LOW) {
    b->out_full = false;
    set_reading(b);
  }
}

/* Writes `line` into the queue itself: a large answer printed to a
 * string first would be held twice more while it is copied in. */
static void emit(batch *b, cJSON *line) {
  mcphost_status_end(b->api); /* a progress line shown in place ends here */
  bool written = out_json_append_tty(&b->out, line, false, b->out_tty) == 0;
  cJSON_Delete(line);
  if (written) {
    sb_addc(&b->out, '\n');
    flush_out(b);
  }
}

static void push_piece(batch *b, char *data, size_t len, size_t off) {
  out_piece *p = xmalloc(sizeof *p);
  *p = (out_piece){.data = data, .len = len, .off = off};
  *b->pieces_end = p;
  b->pieces_end = &p->next;
  b->piece_bytes += len - off;
}

/* Queues `data` (taken) after what waits, to be written from where it
 * is. */
static void queue_piece(batch *b, char *data, size_t len) {
  if (b->out_off < b->out.len) { /* what came before, handed on as it is */
    push_piece(b, b->out.data, b->out.len, b->out_off);
    sb_init(&b->out);
  }
  b->out.len = b->out_off = 0;
  push_piece(b, data, len, 0);
}

/* Below this a result is copied into the queue as any answer is. */
#define PIECE_MIN ((size_t)64 << 10)

/* The request's id for its answer, taken from `o`: null when it had
 * none. */
static cJSON *take_id(op *o) {
  cJSON *id = o->id            ? o->id
              : o->id_token[0] ? json_number_from_token(o->id_token)
                               : cJSON_CreateNull();
  o->id = NULL;
  o->id_token[0] = '\0';
  return id;
}

/* {"id": ID, "result": RESULT} as emit() writes it, for a result as JSON
 * text (`text`, `len` bytes, taken): written as it is, with no tree of
 * the line built only to be printed; a large one from its own buffer, so
 * that the answer is held once. A terminal takes the ordinary way, which
 * escapes what a terminal would obey. */
static void emit_result(batch *b, op *o, char *text, size_t len) {
  if (b->out_tty) {
    cJSON *line = cJSON_CreateObject();
    cJSON_AddItemToObject(line, "id", take_id(o));
    cJSON_AddRawToObject(line, "result", text);
    free(text);
    emit(b, line);
    return;
  }
  mcphost_status_end(b->api);
  sb_addl(&b->out, "{\"id\":");
  if (o->id_token[0]) {
    sb_adds(&b->out, o->id_token);
  } else {
    cJSON *id = take_id(o);
    if (json_write(&b->out, id) != 0)
      sb_addl(&b->out, "null");
    cJSON_Delete(id);
  }
  sb_addl(&b->out, ",\"result\":");
  if (len < PIECE_MIN) {
    sb_add(&b->out, text, len);
    free(text);
  } else {
    queue_piece(b, text, len);
  }
  sb_addl(&b->out, "}\n");
  flush_out(b);
}

static void on_feed_timer(void *ud);

/* A request ended: the batch is done, or the next lines may start (from
 * the loop, not inside the ending request's callbacks). */
static void check_done(batch *b) {
  if (b->stopped) {
    b->drained = b->inflight == 0;
  } else if (b->eof && b->inflight == 0) {
    b->done = 1;
  } else if (b->window_full && !b->feed_timer && !b->feeding &&
             b->inflight < INFLIGHT_MAX) {
    b->feed_timer = mcphost_timer_start(b->api, 0, on_feed_timer, b);
  }
}

static void op_free(op *o) {
  cJSON_Delete(o->id);
  cJSON_Delete(o->args);
  mcphost_free(o->words);
  cJSON_Delete(o->items);
  cJSON_Delete(o->errors);
  if (o->name != (char *)(o + 1)) { /* else plain_call's, in its block */
    free(o->name);
  }
  free(o->list_kind);
  free(o->task_verb);
  free(o);
}

static const char *server_name(const op *o) {
  return mcphost_server_name(o->b->api, o->server);
}

static void finish_result(op *o, cJSON *result);

/* A child of OP_LIST_ALL is done: the last one answers for all. */
static void child_done(op *o) {
  op *p = o->parent;
  batch *b = o->b;
  op_free(o);
  b->inflight--;
  if (--p->children > 0) {
    check_done(b);
    return;
  }
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
    cJSON_AddStringToObject(e, "server", server_name(o));
    cJSON_AddNumberToObject(e, "exit", exit_code);
    char *safe = redact(message);
    cJSON_AddStringToObject(e, "message", safe);
    free(safe);
    cJSON_AddItemToArray(o->parent->errors, e);
    child_done(o);
    return;
  }
  cJSON *line = cJSON_CreateObject();
  cJSON_AddItemToObject(line, "id", take_id(o));
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

/* A request's answer as a tree (a list over every server, roots), or a
 * list's over one server gathered by its parent. */
static void finish_result(op *o, cJSON *result) {
  if (o->parent) {
    const char *server = server_name(o);
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
  batch *b = o->b;
  cJSON *line = cJSON_CreateObject();
  cJSON_AddItemToObject(line, "id", take_id(o));
  cJSON_AddItemToObject(line, "result", result);
  emit(b, line);
  op_free(o);
  b->inflight--;
  check_done(b);
}

/* A request's answer as the client gave it: JSON text, taken. */
static void finish_text(op *o, char *text, size_t len) {
  if (o->parent) {
    cJSON *result = json_parse(text, len, NULL);
    free(text);
    finish_result(o, result ? result : cJSON_CreateObject());
    return;
  }
  batch *b = o->b;
  emit_result(b, o, text, len);
  op_free(o);
  b->inflight--;
  check_done(b);
}

static void on_done(void *ud, const char *result_json, size_t len,
                    const mcphost_error *err) {
  op *o = ud;
  /* The batch's (MCPHOST_REQUEST_TAKE_RESULT): queued as it is. */
  char *text = (char *)result_json;
  batch *b = o->b;
  if (o->prev) {
    o->prev->next = o->next;
  } else {
    b->started = o->next;
  }
  if (o->next) {
    o->next->prev = o->prev;
  }
  if (err) {
    free(text);
    finish_error(o, cli_exit_for_api(err->code),
                 err->message_long ? err->message_long : err->message);
    return;
  }
  finish_text(o, text, len);
}

static void on_progress(void *ud, const char *params_json) {
  op *o = ud;
  cJSON *params = json_parse_str(params_json);
  out_progress(o->b->c, params);
  cJSON_Delete(params);
}

static void on_task(void *ud, const char *task_json) {
  op *o = ud;
  cJSON *task = json_parse_str(task_json);
  out_task_status(o->b->c, task);
  cJSON_Delete(task);
}

/* OP_TASK as an operation: `o->name` is the task id. */
static void task_request(op *o, mcphost_request *rq) {
  const char *v = o->task_verb;
  if (strcmp(v, "list") == 0) {
    rq->kind = MCPHOST_OP_LIST;
    rq->name = "tasks";
  } else if (strcmp(v, "result") == 0) {
    rq->kind = MCPHOST_OP_TASK_RESULT;
  } else {
    rq->kind = MCPHOST_OP_REQUEST;
    rq->method = strcmp(v, "status") == 0 ? "tasks/get" : "tasks/cancel";
    cJSON_Delete(o->args);
    o->args = cJSON_CreateObject();
    cJSON_AddStringToObject(o->args, "taskId", o->name);
  }
}

static void start_op(batch *b, op *o) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  /* Results are only passed on: each is written from the text it came
   * in. */
  rq.flags = MCPHOST_REQUEST_TAKE_RESULT;
  rq.server = server_name(o);
  rq.name = o->name;
  switch (o->kind) {
  case OP_CALL:
    rq.kind = MCPHOST_OP_CALL_TOOL;
    rq.server = NULL; /* `name` is the reference */
    rq.words = o->words;
    rq.flags |= (o->no_validate ? MCPHOST_REQUEST_NO_CHECK : 0) |
                (o->task ? MCPHOST_REQUEST_TASK : 0) |
                (o->detach ? MCPHOST_REQUEST_DETACH : 0);
    break;
  case OP_TASK: task_request(o, &rq); break;
  case OP_PROMPT:
    rq.kind = MCPHOST_OP_GET_PROMPT;
    rq.server = NULL;
    break;
  case OP_READ: rq.kind = MCPHOST_OP_READ; break;
  case OP_LIST:
    rq.kind = MCPHOST_OP_LIST;
    rq.name = o->list_kind;
    break;
  case OP_SUBSCRIBE:
  case OP_UNSUBSCRIBE: {
    rq.kind = MCPHOST_OP_REQUEST;
    rq.method = o->kind == OP_SUBSCRIBE ? "resources/subscribe"
                                        : "resources/unsubscribe";
    cJSON_Delete(o->args);
    o->args = cJSON_CreateObject();
    cJSON_AddStringToObject(o->args, "uri", o->name);
    if (o->kind == OP_SUBSCRIBE) {
      b->subscriptions[o->server]++;
    } else if (b->subscriptions[o->server]) {
      b->subscriptions[o->server]--;
    }
    break;
  }
  case OP_LIST_ALL:
  case OP_ROOTS: return; /* never started so (start_list_all, set_roots) */
  }
  if (o->args) { /* made here (a task's id, a uri) */
    b->scratch.len = 0;
    json_write(&b->scratch, o->args);
    cJSON_Delete(o->args);
    o->args = NULL;
    o->has_args = true;
  }
  if (o->has_args)
    rq.arguments = sb_str(&b->scratch);
  bool quiet = b->c->quiet_progress;
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.progress = quiet ? NULL : on_progress;
  cb.done = on_done;
  cb.ud = o;
  cb.task = quiet ? NULL : on_task;
  mcphost_error err;
  err.struct_size = sizeof err; /* filled only when it cannot start */
  int64_t id = mcphost_start(b->api, &rq, &cb, &err);
  if (id < 0) {
    finish_error(o, cli_exit_for_api((int)id), err.message);
    return;
  }
  o->api_id = id;
  o->next = b->started;
  if (b->started) {
    b->started->prev = o;
  }
  b->started = o;
}

/* The index of the configured server `name`, or nservers. */
static size_t server_index(const batch *b, const char *name) {
  size_t i = 0;
  while (i < b->nservers && strcmp(mcphost_server_name(b->api, i), name))
    i++;
  return i;
}

/* What a server pushes: resource updates go out as lines of their own
 * (there is no request id to answer); the client itself drops a tool
 * list that changed. */
static void on_notify(void *ud, const char *server, const char *method,
                      const char *params_json) {
  batch *b = ud;
  size_t idx;
  if (strcmp(method, "notifications/resources/updated") == 0 &&
      (idx = server_index(b, server)) < b->nservers && b->subscriptions[idx]) {
    cJSON *line = cJSON_CreateObject();
    cJSON *params = json_parse_str(params_json);
    cJSON_AddStringToObject(line, "server", server);
    cJSON_AddStringToObject(line, "notification", method);
    cJSON_AddItemToObject(line, "params",
                          params ? params : cJSON_CreateObject());
    emit(b, line);
  }
}

/* {"list": KIND} without a server: one OP_LIST per server that may
 * start, gathered by `o`. */
static void start_list_all(batch *b, op *o) {
  o->items = cJSON_CreateArray();
  o->errors = cJSON_CreateArray();
  o->children = 1; /* held until every child is out: some end at once */
  for (size_t i = 0; i < b->nservers; i++) {
    mcphost_server_state st = MCPHOST_SERVER_STATE_INIT;
    if (mcphost_server_get(b->api, i, &st, NULL) != MCPHOST_OK || !st.startable)
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

/* {"roots": [DIR...], "server": S}: the client resolves the directories
 * against the working directory, keeps them for the server's (or every
 * server's) next connections and gives them to the connected sessions,
 * which announce the change. Answers with the roots as offered. */
static void set_roots(batch *b, op *o, const cJSON *dirs, const char *server) {
  char *text = json_print(dirs);
  char *roots = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_set_roots(b->api, server, text, &roots, &err);
  free(text);
  if (rc != MCPHOST_OK) {
    finish_error(o, cli_exit_for_api(rc), err.message);
    return;
  }
  strbuf r;
  sb_init(&r);
  sb_printf(&r, "{\"roots\":%s}", roots);
  mcphost_free(roots);
  size_t len = r.len;
  finish_text(o, sb_take(&r), len);
}

/* "no server named ..." with the closest configured names, as the
 * client says it. */
static void no_server(const batch *b, const char *srv, char *why,
                      size_t why_len) {
  const char **names = xcalloc(b->nservers + 1, sizeof *names);
  for (size_t i = 0; i < b->nservers; i++)
    names[i] = mcphost_server_name(b->api, i);
  strbuf hint;
  sb_init(&hint);
  mcp_suggest(&hint, srv, names, b->nservers);
  snprintf(why, why_len, "no server named \"%s\" is configured%s", srv,
           sb_str(&hint));
  sb_free(&hint);
  free(names);
}

/* The members of a request line, each the first of its name (as
 * cJSON_GetObjectItemCaseSensitive finds it), gathered in one pass over
 * the line rather than one search per name. */
typedef struct req_fields {
  cJSON *id, *call, *read, *prompt, *list, *subscribe, *unsubscribe, *roots,
      *task, *server, *uri, *args, *validate, *detach, *task_id;
} req_fields;

static void keep_first(cJSON **slot, cJSON *m) {
  if (!*slot) {
    *slot = m;
  }
}

static void req_gather(cJSON *req, req_fields *f) {
  memset(f, 0, sizeof *f);
  for (cJSON *m = req->child; m; m = m->next) {
    const char *k = m->string;
    cJSON **slot = NULL;
    if (!k) {
      continue;
    }
    switch (k[0]) {
    case 'a': slot = !strcmp(k, "args") ? &f->args : NULL; break;
    case 'c': slot = !strcmp(k, "call") ? &f->call : NULL; break;
    case 'd': slot = !strcmp(k, "detach") ? &f->detach : NULL; break;
    case 'i': slot = !strcmp(k, "id") ? &f->id : NULL; break;
    case 'l': slot = !strcmp(k, "list") ? &f->list : NULL; break;
    case 'p': slot = !strcmp(k, "prompt") ? &f->prompt : NULL; break;
    case 'r':
      slot = !strcmp(k, "read")    ? &f->read
             : !strcmp(k, "roots") ? &f->roots
                                   : NULL;
      break;
    case 's':
      slot = !strcmp(k, "server")      ? &f->server
             : !strcmp(k, "subscribe") ? &f->subscribe
                                       : NULL;
      break;
    case 't':
      slot = !strcmp(k, "task")     ? &f->task
             : !strcmp(k, "taskId") ? &f->task_id
                                    : NULL;
      break;
    case 'u':
      slot = !strcmp(k, "uri")           ? &f->uri
             : !strcmp(k, "unsubscribe") ? &f->unsubscribe
                                         : NULL;
      break;
    case 'v': slot = !strcmp(k, "validate") ? &f->validate : NULL; break;
    default: break;
    }
    if (slot) {
      keep_first(slot, m);
    }
  }
}

/* `message` cut to `why` as the message of a line's error is. */
static void set_why(char *why, size_t why_len, const char *message) {
  size_t len = strnlen(message, why_len - 1);
  memcpy(why, message, len);
  why[len] = '\0';
}

/* A call's "args": KEY=VALUE words as `call` takes them (mcphost_args_parse;
 * "@-" is refused: stdin carries the requests), and "validate": false
 * as --no-validate. */
static int call_words(op *o, const req_fields *f, char *why, size_t why_len) {
  const cJSON *words = f->args;
  const cJSON *validate = f->validate;
  const cJSON *task = f->task;
  const cJSON *detach = f->detach;
  o->no_validate = cJSON_IsFalse(validate);
  o->task = cJSON_IsTrue(task);
  o->detach = cJSON_IsTrue(detach);
  if ((validate && !cJSON_IsBool(validate)) || (task && !cJSON_IsBool(task)) ||
      (detach && !cJSON_IsBool(detach))) {
    snprintf(why, why_len, "\"%s\" must be true or false",
             validate && !cJSON_IsBool(validate) ? "validate"
             : task && !cJSON_IsBool(task)       ? "task"
                                                 : "detach");
    return EXIT_USAGE;
  }
  if (!words) {
    return EXIT_OK;
  }
  int n = cJSON_GetArraySize(words);
  char **list = xcalloc((size_t)n + 1, sizeof *list);
  const cJSON *w;
  int k = 0, rc = EXIT_OK;
  cJSON_ArrayForEach(w, words) {
    if (!cJSON_IsString(w)) {
      break;
    }
    list[k++] = w->valuestring;
  }
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (!cJSON_IsArray(words) || k != n) {
    snprintf(why, why_len, "\"args\" must be a list of KEY=VALUE strings");
    rc = EXIT_USAGE;
  } else if (mcphost_args_parse(n, (const char *const *)list, 0, &o->words,
                                &err) != MCPHOST_OK) {
    set_why(why, why_len, err.message);
    rc = EXIT_USAGE;
  }
  free(list);
  return rc;
}

/* {"task": VERB, "server": S, "taskId": ID}: fills `o` (OP_TASK). */
static int task_fields(batch *b, op *o, const req_fields *f, const char *verb,
                       char *why, size_t why_len) {
  const char *srv = cJSON_GetStringValue(f->server);
  const char *id = cJSON_GetStringValue(f->task_id);
  bool list = strcmp(verb, "list") == 0;
  long i = srv ? cli_find_server(b->c, srv) : -1;
  if (!list && strcmp(verb, "status") && strcmp(verb, "result") &&
      strcmp(verb, "cancel")) {
    snprintf(why, why_len, "\"task\" must be status, result, cancel or list");
    return EXIT_USAGE;
  }
  if (!srv || (!list && !id)) {
    snprintf(why, why_len, "\"%s\" is missing", srv ? "taskId" : "server");
    return EXIT_USAGE;
  }
  if (i < 0) {
    no_server(b, srv, why, why_len);
    return EXIT_NOT_FOUND;
  }
  o->server = (size_t)i;
  o->task_verb = xstrdup(verb);
  o->name = id ? xstrdup(id) : NULL;
  return EXIT_OK;
}

/* `item` (taken out of its object) without its key. */
static cJSON *keyless(cJSON *item) {
  if (item && !(item->type & cJSON_StringIsConst)) {
    cJSON_free(item->string);
  }
  if (item) {
    item->string = NULL;
  }
  return item;
}

/* Past the whitespace JSON allows at `p`. */
static const char *past_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) {
    p++;
  }
  return p;
}

/* The length of the integer token at `s` (of `n` bytes) when it is one
 * of at most 15 digits, as JSON writes it (no leading zero, no fraction
 * or exponent after it); 0 otherwise. */
static size_t plain_integer(const char *s, size_t n) {
  size_t i = n > 0 && s[0] == '-';
  size_t first = i;
  while (i < n && s[i] >= '0' && s[i] <= '9') {
    i++;
  }
  size_t digits = i - first;
  if (digits == 0 || digits > 15 || (digits > 1 && s[first] == '0') ||
      (i < n && (s[i] == '.' || s[i] == 'e' || s[i] == 'E'))) {
    return 0;
  }
  return i;
}

/* The usual request, {"id": N, "call": "REF", "arguments": {...}} (its
 * members in any order, "id" and "arguments" optional), started without
 * building a tree of the line only to take three members out of it:
 * each key at most once, the reference plain ASCII without an escape,
 * the id an integer of at most 15 digits and the arguments an object
 * that json_raw_value accepts (forms the tree's parse accepts alike).
 * Any other line returns false, nothing done: handle_line parses it,
 * and says what is wrong with it as ever. */
static bool plain_call(batch *b, const char *line, size_t len) {
  const char *end = line + len;
  const char *p = past_space(line, end);
  const char *v[3] = {NULL, NULL, NULL}; /* id, call, arguments */
  size_t n[3] = {0, 0, 0};
  if (p == end || *p != '{') {
    return false;
  }
  for (p++;;) {
    p = past_space(p, end);
    if (p == end || *p != '"') {
      return false;
    }
    const char *k = ++p;
    /* A key with an escape matches none of the three. */
    size_t room = (size_t)(end - k);
    p = memchr(k, '"', room < 10 ? room : 10);
    size_t klen = p ? (size_t)(p - k) : 0;
    int m = klen == 2 && memcmp(k, "id", 2) == 0          ? 0
            : klen == 4 && memcmp(k, "call", 4) == 0      ? 1
            : klen == 9 && memcmp(k, "arguments", 9) == 0 ? 2
                                                          : -1;
    if (m < 0 || v[m]) {
      return false;
    }
    p = past_space(p + 1, end);
    if (p == end || *p != ':') {
      return false;
    }
    p = past_space(p + 1, end);
    v[m] = p;
    room = (size_t)(end - p);
    if (m == 0) {
      n[m] = plain_integer(p, room);
    } else if (m == 1 && *p == '"') {
      /* No escape, control character or non-ASCII byte before its
       * closing quote. */
      const unsigned char *u = (const unsigned char *)p + 1;
      u = json_scan_run(u, (const unsigned char *)end, JSON_SCAN_HIGH);
      n[m] = u < (const unsigned char *)end && *u == '"'
                 ? (size_t)(u - (const unsigned char *)p) + 1
                 : 0;
    } else if (m == 2 && *p == '{') {
      n[m] = json_raw_value(p, room, JSON_PARSE_MAX_DEPTH - 1);
    }
    if (!n[m]) {
      return false;
    }
    p = past_space(p + n[m], end);
    if (p < end && *p == ',') {
      p++;
      continue;
    }
    if (p == end || *p != '}' || past_space(p + 1, end) != end) {
      return false;
    }
    break;
  }
  if (!v[1]) {
    return false;
  }
  /* The reference in the op's own block: one allocation less. */
  size_t name_len = n[1] - 2;
  op *o = xcalloc(1, sizeof *o + name_len + 1);
  if (v[0]) {
    memcpy(o->id_token, v[0], n[0]);
  }
  o->b = b;
  b->inflight++;
  o->kind = OP_CALL;
  o->name = memcpy(o + 1, v[1] + 1, name_len);
  if (v[2]) { /* its text, for start_op */
    o->has_args = true;
    b->scratch.len = 0;
    sb_add(&b->scratch, v[2], n[2]);
  }
  start_op(b, o);
  return true;
}

static void handle_line(batch *b, const char *line, size_t len) {
  if (plain_call(b, line, len)) {
    return;
  }
  op *o = xcalloc(1, sizeof *o);
  o->b = b;
  b->inflight++;
  size_t args_off, args_len;
  cJSON *req =
      json_parse_span(line, len, NULL, "arguments", &args_off, &args_len);
  char why[600];
  if (!cJSON_IsObject(req)) {
    cJSON_Delete(req);
    finish_error(o, EXIT_USAGE, "not a JSON object");
    return;
  }
  req_fields f;
  req_gather(req, &f);
  /* Taken out of the request, which is deleted below, not copied; and
   * without their keys, which nothing reads: every request read is held
   * until it is answered. */
  o->id = keyless(f.id ? cJSON_DetachItemViaPointer(req, f.id) : NULL);
  /* "arguments" is not in the tree (json_parse_span): checked there,
   * and passed on as its text, the line's own. */
  if (args_len && line[args_off] != '{') {
    cJSON_Delete(req);
    finish_error(o, EXIT_USAGE, "\"arguments\" must be an object");
    return;
  }
  if (args_len) { /* its text, for start_op */
    o->has_args = true;
    b->scratch.len = 0;
    sb_add(&b->scratch, line + args_off, args_len);
  }
  const char *call = cJSON_GetStringValue(f.call);
  const char *read = cJSON_GetStringValue(f.read);
  const char *prompt = cJSON_GetStringValue(f.prompt);
  const char *list = cJSON_GetStringValue(f.list);
  const char *sub = cJSON_GetStringValue(f.subscribe);
  const char *unsub = cJSON_GetStringValue(f.unsubscribe);
  const cJSON *roots = f.roots;
  const char *task = call ? NULL : cJSON_GetStringValue(f.task);
  if (sub || unsub)
    read = sub ? sub : unsub; /* same shape as read: server + uri */
  int rc = EXIT_OK;
  if (roots) {
    const char *srv = cJSON_GetStringValue(f.server);
    long i = srv ? cli_find_server(b->c, srv) : -1;
    o->kind = OP_ROOTS;
    if (!cJSON_IsArray(roots)) {
      rc = EXIT_USAGE;
      snprintf(why, sizeof why, "\"roots\" must be a list of directories");
    } else if (srv && i < 0) {
      rc = EXIT_NOT_FOUND;
      no_server(b, srv, why, sizeof why);
    } else {
      set_roots(b, o, roots, srv);
      cJSON_Delete(req);
      return;
    }
  } else if (list && !f.server) {
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
  } else if (task) {
    o->kind = OP_TASK;
    rc = task_fields(b, o, &f, task, why, sizeof why);
  } else if (call || prompt) {
    o->kind = call ? OP_CALL : OP_PROMPT;
    /* The operation resolves the reference (a bad one is its error);
     * here only when the rest of the request is bad too, which a bad
     * reference goes before. */
    const char *ref = call ? call : prompt;
    o->name = xstrdup(ref);
    if (call && (rc = call_words(o, &f, why, sizeof why)) != EXIT_OK) {
      const char *srv;
      mcphost_error err;
      err.struct_size = sizeof err;
      if (mcphost_resolve_ref(b->api, ref, "tool", &srv, NULL, &err) !=
          MCPHOST_OK) {
        rc = cli_exit_for_api(err.code);
        set_why(why, sizeof why, err.message);
      }
    }
  } else if (read || list) {
    const char *srv = read ? read : cJSON_GetStringValue(f.server);
    const char *uri = cJSON_GetStringValue(f.uri);
    long i = srv ? cli_find_server(b->c, srv) : -1;
    o->kind = sub     ? OP_SUBSCRIBE
              : unsub ? OP_UNSUBSCRIBE
              : read  ? OP_READ
                      : OP_LIST;
    if (!srv) {
      rc = EXIT_USAGE;
      snprintf(why, sizeof why, "\"server\" is missing");
    } else if (i < 0) {
      rc = EXIT_NOT_FOUND;
      no_server(b, srv, why, sizeof why);
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
             "\"list\", \"subscribe\", \"unsubscribe\", \"roots\", "
             "\"task\"");
  }
  cJSON_Delete(req);
  if (rc != EXIT_OK) {
    finish_error(o, rc, why);
    return;
  }
  start_op(b, o);
}

static void on_line(void *ud, const char *line, size_t len) {
  handle_line(ud, line, len);
}

static bool window_open(void *ud) {
  const batch *b = ud;
  return !b->stopped && b->inflight < INFLIGHT_MAX;
}

/* stdin is watched while more requests may start and the output keeps
 * up. */
static void set_reading(batch *b) {
  bool want = !b->out_full && !b->window_full;
  if (b->in_watch && want != b->reading) {
    b->reading = want;
    mcphost_watch_update(b->api, b->in_watch, want ? MCPHOST_FD_READ : 0, NULL);
  }
}

/* Starts the lines read while the window has room; a regular file,
 * which cannot be watched, is read on here until the window is full. */
static void feed(batch *b) {
  if (b->feeding) {
    return;
  }
  b->feeding = true;
  for (;;) {
    cli_take_lines(&b->in, on_line, window_open, b);
    if (b->in_eof || b->in_watch || !window_open(b)) {
      break;
    }
    if (cli_read_more(0, &b->in) == 0) {
      b->in_eof = true;
    }
  }
  b->feeding = false;
  b->window_full = !window_open(b) && !b->stopped;
  b->eof =
      b->in_eof && (b->in.len == 0 || !memchr(b->in.data, '\n', b->in.len));
  set_reading(b);
  check_done(b);
}

static void on_feed_timer(void *ud) {
  batch *b = ud;
  b->feed_timer = NULL;
  feed(b);
}

static void on_stdin(void *ud, int fd, unsigned events) {
  batch *b = ud;
  (void)events;
  if (cli_read_more(fd, &b->in) == 0) {
    /* Not watched any more: a pipe's writer gone stays readable. */
    b->in_eof = true;
    mcphost_unwatch(b->api, b->in_watch);
    b->in_watch = NULL;
  }
  feed(b);
}

int cmd_batch(cli *c, int argc, char **argv) {
  if (argc > 1) {
    cli_error(c, NULL,
              "batch reads its requests from stdin and takes no arguments "
              "(\"%s\"; batch --help)",
              argv[1]);
    return EXIT_USAGE;
  }
  batch b = {.c = c, .api = c->api, .nservers = mcphost_server_count(c->api)};
  sb_init(&b.in);
  sb_init(&b.scratch);
  b.subscriptions =
      xcalloc(b.nservers ? b.nservers : 1, sizeof *b.subscriptions);
  /* A long-lived process: crashed servers are respawned. */
  mcphost_set_option(c->api, "keep", NULL, NULL);
  cli_on_notify(on_notify, &b);
  cli_ask_on_dev_tty(c);
  sb_init(&b.out);
  b.pieces_end = &b.pieces;
  /* Non-blocking writes where a write could block (a pipe or socket); the
   * flags are restored on the way out. */
  struct stat st;
  b.out_flags = -1;
  b.out_tty = isatty(1);
  if (fstat(1, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
    b.out_flags = fcntl(1, F_GETFL);
    if (b.out_flags >= 0)
      fcntl(1, F_SETFL, b.out_flags | O_NONBLOCK);
  }
  b.reading = true;
  if (mcphost_watch_fd(c->api, 0, MCPHOST_FD_READ, on_stdin, &b, &b.in_watch,
                       NULL) != MCPHOST_OK) {
    /* A regular file cannot be polled: it is always readable, and read
     * as the window has room (feed). */
    b.in_watch = NULL;
    feed(&b);
  }
  int rc = mcphost_run_interruptible(c->api, &b.done, 0);
  if (b.feed_timer)
    mcphost_timer_cancel(c->api, b.feed_timer);
  if (b.in_watch)
    mcphost_unwatch(c->api, b.in_watch);
  if (rc == MCPHOST_ECANCELED) {
    /* Interrupted: what is in flight ends as interrupted, answered; the
     * lines not started yet never start. */
    b.stopped = true;
    for (op *o = b.started; o; o = o->next)
      mcphost_cancel(c->api, o->api_id);
    check_done(&b);
    mcphost_run_until(c->api, &b.drained, 0);
  }
  /* Write what is left before the servers close. */
  if (b.out_flags >= 0)
    fcntl(1, F_SETFL, b.out_flags);
  if (b.out_watch)
    mcphost_unwatch(c->api, b.out_watch);
  b.out_watch = NULL;
  while (out_waiting(&b) > 0) {
    ssize_t n = out_write(&b);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      cli_output_failed(c, n < 0 ? errno : EIO);
      break;
    }
  }
  out_drop(&b);
  sb_free(&b.out);
  /* Notifications keep coming while the sessions close: nothing of this
   * batch may be reached from them any more. */
  cli_on_notify(NULL, NULL);
  free(b.subscriptions);
  sb_free(&b.in);
  sb_free(&b.scratch);
  if (rc == MCPHOST_ECANCELED) {
    return EXIT_INTERRUPTED;
  }
  return EXIT_OK;
}
