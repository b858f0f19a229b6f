/* The public client API (sdk/include/mcphost/client.h) over the library's
 * MCP client (mcp/client.h, mcp/calls.h): every operation is one
 * mcp_client_start or mcp_client_use, as the CLI's commands make them;
 * this file adds the handles, the copies, JSON text at the edges and the
 * two ways of running the loop. Every operation starts on the loop
 * through loop_post, so a call from any thread and a call from the
 * loop's own thread take the same path. */
#include <mcphost/client.h>

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "config/config_scopes.h"
#include "core/host.h"
#include "core/host_config.h"
#include "env_ms.h"
#include "json_parse.h"
#include "json_write.h"
#include "mcp/calls.h"
#include "mcp/client.h"
#include "mcp/inproc.h"
#include "mcp/jsonrpc.h"
#include "size_limits.h"
#include "util.h"

/* The client whose loop this thread is running now (its own thread, or
 * the caller's inside mcphost_perform or a waiting call): what may call
 * the loop-only code of host/mcp directly. */
static _Thread_local const mcphost_client *loop_of
    /* Static TLS (8 bytes, within what glibc keeps for a library loaded
     * with dlopen): no __tls_get_addr, so the executable that links these
     * objects needs no ld.so symbol, nor its lookup at start. */
    __attribute__((tls_model("initial-exec")));

struct mcphost_server_request {
  mcphost_client *c;
  size_t idx;
  cJSON *id;
  char *id_text;  /* id as JSON text */
  int64_t op;     /* the operation it was made for, or 0 */
  bool cancelled; /* by the server: answered with nothing */
  mcphost_server_request *next, *prev;
};

struct api_op {
  mcphost_client *c;
  int64_t id;
  int kind; /* enum mcphost_op_kind */
  /* The request's strings, copied into `strings` (one allocation). */
  const char *server, *name, *method;
  cJSON *arguments;
  const char *arguments_text; /* what `arguments` was parsed from */
  cJSON *words;               /* CALL_TOOL: mcphost_request.words, parsed */
  size_t idx; /* the server's config index, once op_begin found it */
  uint64_t timeout_ms;
  uint32_t flags; /* enum mcphost_request_flag */
  /* The failed request's JSON-RPC error data, for `done` with
   * MCPHOST_REQUEST_ERROR_DATA: borrowed until op_finish. */
  const cJSON *error_data;
  mcphost_callbacks cb;
  mcp_op *op;      /* the client's operation while it runs */
  mcp_asker asker; /* the client's, telling which operation asks */
  mcp_waiter w;    /* OP_CONNECT's wait */
  bool waiting;    /* OP_CONNECT: w is with the client */
  loop_timer *timer;
  bool timed_out;
  loop_task begin; /* op_begin, asked for on the loop's own thread */
  bool begin_due;  /* begin is with the loop: linked, not begun yet */
  /* c->ops, both ways: a window of operations ends in any order, each
   * unlinked at once (a walk from the newest cost batch's 256 in flight
   * a walk of the window at every end). */
  api_op *next, *prev;
  char strings[];
};

/* ---- names, versions, errors ---- */

const char *mcphost_status_name(int code) {
  switch (code) {
  case MCPHOST_OK: return "MCPHOST_OK";
  case MCPHOST_EUSAGE: return "MCPHOST_EUSAGE";
  case MCPHOST_ESERVER: return "MCPHOST_ESERVER";
  case MCPHOST_EPROTOCOL: return "MCPHOST_EPROTOCOL";
  case MCPHOST_ETIMEDOUT: return "MCPHOST_ETIMEDOUT";
  case MCPHOST_ENOTFOUND: return "MCPHOST_ENOTFOUND";
  case MCPHOST_EAUTH: return "MCPHOST_EAUTH";
  case MCPHOST_EDENIED: return "MCPHOST_EDENIED";
  case MCPHOST_ECANCELED: return "MCPHOST_ECANCELED";
  case MCPHOST_ENOMEM: return "MCPHOST_ENOMEM";
  case MCPHOST_EABI: return "MCPHOST_EABI";
  case MCPHOST_ESTATE: return "MCPHOST_ESTATE";
  default: return "MCPHOST_E?";
  }
}

const char *mcphost_version(int *api_major, int *api_minor) {
  if (api_major)
    *api_major = MCPHOST_API_MAJOR;
  if (api_minor)
    *api_minor = MCPHOST_API_MINOR;
  return MCPHOST_VERSION;
}

/* on_log gets the host's levels as they are. */
_Static_assert((int)MCPHOST_LOG_ERROR == (int)MCPH_LOG_ERROR &&
                   (int)MCPHOST_LOG_WARN == (int)MCPH_LOG_WARN &&
                   (int)MCPHOST_LOG_INFO == (int)MCPH_LOG_INFO &&
                   (int)MCPHOST_LOG_DEBUG == (int)MCPH_LOG_DEBUG &&
                   (int)MCPHOST_LOG_TRACE == (int)MCPH_LOG_TRACE,
               "mcphost_log_level is mcph_log_level");

void mcphost_free(void *p) {
  free(p);
}

int api_fail(mcphost_error *err, int code, int rpc_code, const char *server,
             const char *fmt, ...) {
  if (!err || !API_HAS(err, mcphost_error, server))
    return code;
  err->code = code;
  err->rpc_code = rpc_code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  snprintf(err->server, sizeof err->server, "%s", server ? server : "");
  if (API_HAS(err, mcphost_error, message_long))
    err->message_long = NULL;
  return code;
}

void api_clear_error(mcphost_error *err) {
  if (err && API_HAS(err, mcphost_error, server)) {
    err->code = MCPHOST_OK;
    err->rpc_code = 0;
    err->message[0] = err->server[0] = '\0';
    if (API_HAS(err, mcphost_error, message_long))
      err->message_long = NULL;
  }
}

int api_status_of_kind(mcp_error_kind kind) {
  switch (kind) {
  case MCP_ERR_NONE: return MCPHOST_OK;
  case MCP_ERR_USAGE: return MCPHOST_EUSAGE;
  case MCP_ERR_SERVER: return MCPHOST_ESERVER;
  case MCP_ERR_PROTOCOL: return MCPHOST_EPROTOCOL;
  case MCP_ERR_TIMEOUT: return MCPHOST_ETIMEDOUT;
  case MCP_ERR_NOT_FOUND: return MCPHOST_ENOTFOUND;
  case MCP_ERR_AUTH: return MCPHOST_EAUTH;
  case MCP_ERR_DENIED: return MCPHOST_EDENIED;
  case MCP_ERR_INTERRUPTED: return MCPHOST_ECANCELED;
  }
  return MCPHOST_ESERVER;
}

/* JSON text of a tree (a cJSON_Raw is the text the server sent, checked
 * and minified: json_raw.h). */
static char *json_text(const cJSON *v, size_t *len) {
  if (cJSON_IsRaw(v) && v->valuestring) {
    *len = rpc_raw_length(v);
    return xstrdup(v->valuestring);
  }
  strbuf b;
  sb_init(&b);
  if (!v || json_write(&b, v) != 0) {
    sb_free(&b);
    *len = 2;
    return xstrdup("{}");
  }
  *len = b.len;
  return sb_take(&b);
}

/* ---- operations, on the loop ---- */

/* Ends `op` with its `result` (freed here) or `err`. */
static void op_finish(api_op *op, cJSON *result, const mcphost_error *err) {
  mcphost_client *c = op->c;
  if (op->prev)
    op->prev->next = op->next;
  else
    c->ops = op->next;
  if (op->next)
    op->next->prev = op->prev;
  if (op->timer)
    loop_timer_cancel(host_loop(c->h), op->timer);
  atomic_fetch_sub(&c->nops, 1);
  size_t len = 0;
  const cJSON *shown = result ? result : op->error_data;
  char *text = NULL;
  if (op->cb.done) {
    /* A result kept as the server's text (json_raw.h) is lent as it is,
     * or handed over with MCPHOST_REQUEST_TAKE_RESULT: a 10 MiB result is
     * not copied once more. */
    bool take = (op->flags & MCPHOST_REQUEST_TAKE_RESULT) != 0;
    if (cJSON_IsRaw(shown) && shown->valuestring && !take) {
      op->cb.done(op->cb.ud, shown->valuestring, rpc_raw_length(shown),
                  result ? NULL : err);
    } else if (cJSON_IsRaw(result) && result->valuestring) {
      len = rpc_raw_length(result);
      text = result->valuestring; /* taken: the tree no longer holds it */
      result->valuestring = NULL;
      op->cb.done(op->cb.ud, text, len, NULL);
    } else {
      text = shown ? json_text(shown, &len) : NULL;
      const mcphost_error *why = result ? NULL : err;
      /* The tree written, its blocks freed before the caller parses
       * the text: json_alloc.c gives them out again to its tree. */
      cJSON_Delete(result);
      result = NULL;
      op->cb.done(op->cb.ud, text, len, why);
    }
    if (take)
      text = NULL; /* the caller's */
  }
  free(text);
  cJSON_Delete(result);
  cJSON_Delete(op->arguments);
  cJSON_Delete(op->words);
  free(op);
}

static void op_fail(api_op *op, int code, const char *server, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));
static void op_fail(api_op *op, int code, const char *server, const char *fmt,
                    ...) {
  mcphost_error e = MCPHOST_ERROR_INIT;
  e.code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e.message, sizeof e.message, fmt, ap);
  va_end(ap);
  snprintf(e.server, sizeof e.server, "%s", server ? server : "");
  op_finish(op, NULL, &e);
}

static void on_op_done(void *ud, cJSON *result, const mcp_error *err) {
  api_op *op = ud;
  op->op = NULL;
  mcphost_error e; /* 1.3 KB: set in full only without a result */
  e.struct_size = sizeof e;
  if (!result)
    e = (mcphost_error)MCPHOST_ERROR_INIT;
  if (!result && err) {
    e.code = api_status_of_kind(err->kind);
    e.rpc_code = err->rpc_code;
    if (op->timed_out && err->kind == MCP_ERR_INTERRUPTED) {
      e.code = MCPHOST_ETIMEDOUT;
      snprintf(e.message, sizeof e.message,
               "no answer within the deadline of %llu ms",
               (unsigned long long)op->timeout_ms);
    } else {
      const char *m = err->message ? err->message : "the operation failed";
      /* A server's long message whole beside its cut copy: borrowed
       * from `err`, alive while `done` runs. */
      if ((size_t)snprintf(e.message, sizeof e.message, "%s", m) >=
          sizeof e.message)
        e.message_long = m;
    }
    snprintf(e.server, sizeof e.server, "%s", err->server ? err->server : "");
    if (err->rpc_code && op->flags & MCPHOST_REQUEST_ERROR_DATA)
      op->error_data = err->data;
  }
  op_finish(op, result, &e);
}

/* The tool or prompt was found (mcp_call_callbacks.resolved). */
static void on_op_resolved(void *ud, const cJSON *item) {
  api_op *op = ud;
  if (!op->cb.resolved)
    return;
  size_t len;
  char *text = json_text(item, &len);
  op->cb.resolved(op->cb.ud, host_cfg(op->c->h)->servers[op->idx].name, text);
  free(text);
}

/* A task's status changed (mcp_call_callbacks.task). */
static void on_op_task(void *ud, const cJSON *task) {
  api_op *op = ud;
  if (!op->cb.task)
    return;
  size_t len;
  char *text = json_text(task, &len);
  op->cb.task(op->cb.ud, text);
  free(text);
}

static void on_op_progress(void *ud, const cJSON *params) {
  api_op *op = ud;
  if (!op->cb.progress)
    return;
  size_t len;
  char *text = json_text(params, &len);
  op->cb.progress(op->cb.ud, text);
  free(text);
}

/* OP_CONNECT: the server is ready or settled in failure. */
static void on_connect_ready(mcp_waiter *w, session *s) {
  (void)s;
  api_op *op = (api_op *)((char *)w - offsetof(api_op, w));
  op->waiting = false;
  mcp_server_status st;
  mcp_client_status(op->c->mc, w->idx, &st);
  const char *name = host_cfg(op->c->h)->servers[w->idx].name;
  if (!st.ready) {
    op_fail(op, api_status_of_kind(st.failure ? st.failure : MCP_ERR_SERVER),
            name, "server \"%s\" could not connect: %s", name,
            st.error ? st.error : "it is not connected");
    return;
  }
  cJSON *r = cJSON_CreateObject();
  cJSON_AddItemToObject(r, "serverInfo",
                        st.server_info ? cJSON_Duplicate(st.server_info, 1)
                                       : cJSON_CreateNull());
  cJSON_AddStringToObject(r, "protocolVersion",
                          st.protocol_version ? st.protocol_version : "");
  cJSON_AddItemToObject(r, "capabilities",
                        st.capabilities ? cJSON_Duplicate(st.capabilities, 1)
                                        : cJSON_CreateObject());
  op_finish(op, r, NULL);
}

/* Withdraws what the operation waits for; its `done` runs (now, or for a
 * connect, here). */
static void op_abort(api_op *op) {
  if (op->begin_due) { /* not begun: it ends without beginning */
    loop_soon_cancel(host_loop(op->c->h), &op->begin);
    op->begin_due = false;
    op_fail(op, MCPHOST_ECANCELED, op->server, "cancelled");
  } else if (op->op) {
    mcp_op_cancel(op->op); /* on_op_done runs before it returns */
  } else if (op->waiting) {
    mcp_client_unwait(op->c->mc, &op->w);
    op->waiting = false;
    const char *name = host_cfg(op->c->h)->servers[op->w.idx].name;
    if (op->timed_out)
      op_fail(op, MCPHOST_ETIMEDOUT, name,
              "server \"%s\" did not connect within the deadline of %llu ms",
              name, (unsigned long long)op->timeout_ms);
    else
      op_fail(op, MCPHOST_ECANCELED, name, "cancelled");
  }
}

static void on_op_deadline(void *ud) {
  api_op *op = ud;
  op->timer = NULL;
  op->timed_out = true;
  op_abort(op);
}

static const mcp_op_kind op_kinds[] = {
    [MCPHOST_OP_CALL_TOOL] = MCP_OP_CALL_TOOL,
    [MCPHOST_OP_LIST] = MCP_OP_LIST,
    [MCPHOST_OP_READ] = MCP_OP_READ,
    [MCPHOST_OP_GET_PROMPT] = MCP_OP_GET_PROMPT,
    [MCPHOST_OP_REQUEST] = MCP_OP_REQUEST,
    [MCPHOST_OP_FIND_TOOL] = MCP_OP_FIND_TOOL,
    [MCPHOST_OP_FIND_PROMPT] = MCP_OP_FIND_PROMPT,
    [MCPHOST_OP_TASK_RESULT] = MCP_OP_TASK_RESULT,
};

/* The kinds that take a reference ("SERVER/NAME", "mcp__SERVER__NAME")
 * when no server is given, and what the reference names. */
static const char *ref_what(int kind) {
  switch (kind) {
  case MCPHOST_OP_CALL_TOOL:
  case MCPHOST_OP_FIND_TOOL: return "tool";
  case MCPHOST_OP_GET_PROMPT:
  case MCPHOST_OP_FIND_PROMPT: return "prompt";
  default: return NULL;
  }
}

/* The client's asker for operation `op` (ud): the question says which
 * operation asks. */
static void *op_ask_start(void *ud, const mcp_ask *q, mcp_ask_answer_fn answer,
                          void *token) {
  api_op *op = ud;
  return api_ask_start_op(op->c, op->id, q, answer, token);
}

static void op_link(api_op *op) {
  mcphost_client *c = op->c;
  op->prev = NULL;
  op->next = c->ops;
  if (c->ops)
    c->ops->prev = op;
  c->ops = op;
}

static void op_begin(void *ud) {
  api_op *op = ud;
  mcphost_client *c = op->c;
  if (op->begin_due)
    op->begin_due = false; /* linked when it was started */
  else
    op_link(op);
  if (c->closing) {
    op_fail(op, MCPHOST_ECANCELED, NULL, "the client is closing");
    return;
  }
  size_t idx;
  char *item = NULL;
  bool qualified = false;
  if (op->server) {
    mcphost_error e = MCPHOST_ERROR_INIT;
    if (api_find_server(c, op->server, &idx, &e) != MCPHOST_OK) {
      op_fail(op, e.code, NULL, "%s", e.message);
      return;
    }
  } else {
    mcp_error e = {0};
    if (mcp_client_resolve_ref(c->mc, op->name, ref_what(op->kind), &idx, &item,
                               &qualified, &e) != 0) {
      op_fail(op, api_status_of_kind(e.kind), e.server, "%s",
              e.message ? e.message : "bad reference");
      mcp_error_clear(&e);
      return;
    }
  }
  op->idx = idx;
  const server_config *sc = &host_cfg(c->h)->servers[idx];
  if (sc->state != SERVER_ACTIVE) {
    op_fail(op, MCPHOST_EDENIED, sc->name, "server \"%s\" (%s scope) is %s: %s",
            sc->name, config_server_scope(sc), server_state_name(sc),
            sc->reason ? sc->reason : "not allowed to start");
    free(item);
    return;
  }
  if (op->timeout_ms)
    op->timer =
        loop_timer_start(host_loop(c->h), op->timeout_ms, on_op_deadline, op);
  if (op->kind == MCPHOST_OP_CONNECT) {
    op->w = (mcp_waiter){.ready = on_connect_ready};
    op->waiting = true;
    mcp_client_use(c->mc, idx, &op->w); /* may run on_connect_ready now */
    return;
  }
  cJSON *args = op->arguments;
  op->arguments = NULL;
  uint32_t f = op->flags;
  op->asker =
      (mcp_asker){.start = op_ask_start, .cancel = api_ask_cancel, .ud = op};
  bool tool = op->kind == MCPHOST_OP_CALL_TOOL;
  mcp_call call = {
      .kind = op_kinds[op->kind],
      .server = idx,
      .name = item ? item : op->name,
      .name_taken = item != NULL, /* the item part, the op's own */
      .qualified = qualified,
      .resolved = op->kind == MCPHOST_OP_GET_PROMPT && op->server &&
                  (f & MCPHOST_REQUEST_EXACT_NAME),
      .method = op->method,
      .arguments_taken = args,
      .arguments_text = args ? op->arguments_text : NULL,
      .words = op->words,
      .check_arguments = tool && !(f & MCPHOST_REQUEST_NO_CHECK),
      .raw_result = true,
      .for_model = (f & MCPHOST_REQUEST_FOR_MODEL) != 0,
      .if_declared = (f & MCPHOST_REQUEST_IF_DECLARED) != 0,
      .task = tool && (f & (MCPHOST_REQUEST_TASK | MCPHOST_REQUEST_DETACH)),
      .detach = tool && (f & MCPHOST_REQUEST_DETACH)};
  mcp_op *o = mcp_client_start(c->mc, &call,
                               &(mcp_call_callbacks){.progress = on_op_progress,
                                                     .done = on_op_done,
                                                     .asker = &op->asker,
                                                     .ud = op,
                                                     .resolved = on_op_resolved,
                                                     .task = on_op_task});
  if (o)
    op->op = o; /* else done ran, and op is gone */
}

int64_t mcphost_start(mcphost_client *c, const mcphost_request *rq,
                      const mcphost_callbacks *cb, mcphost_error *err) {
  api_clear_error(err);
  if (!c || !rq || !cb)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_start needs a client, a request and callbacks");
  if (!API_HAS(rq, mcphost_request, timeout_ms) ||
      !API_HAS(cb, mcphost_callbacks, ud))
    return api_fail(err, MCPHOST_EABI, 0, NULL,
                    "a request or callbacks struct_size too small "
                    "(%u, %u)",
                    (unsigned)rq->struct_size, (unsigned)cb->struct_size);
  int kind = rq->kind;
  if (kind < MCPHOST_OP_CONNECT || kind > MCPHOST_OP_TASK_RESULT)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "unknown operation kind %d",
                    kind);
  bool by_ref = ref_what(kind) != NULL;
  if (!rq->server && !by_ref)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "this operation needs a server");
  if (!rq->name && kind != MCPHOST_OP_CONNECT && kind != MCPHOST_OP_REQUEST)
    return api_fail(err, MCPHOST_EUSAGE, 0, rq->server,
                    "this operation needs a name");
  if (!rq->method && kind == MCPHOST_OP_REQUEST)
    return api_fail(err, MCPHOST_EUSAGE, 0, rq->server,
                    "a request needs a method");
  cJSON *args = NULL;
  size_t na = 0;
  if (rq->arguments && kind != MCPHOST_OP_CONNECT) {
    json_error je;
    size_t n = strlen(rq->arguments);
    na = n + 1;
    args = json_parse(rq->arguments, n, &je);
    if (!args || !cJSON_IsObject(args)) {
      char *why = args ? NULL : json_error_text(rq->arguments, n, &je);
      api_fail(err, MCPHOST_EUSAGE, 0, rq->server,
               "the arguments are not a JSON object%s%s", why ? ": " : "",
               why ? why : "");
      free(why);
      cJSON_Delete(args);
      return MCPHOST_EUSAGE;
    }
  }
  cJSON *words = NULL;
  const char *words_text =
      API_HAS(rq, mcphost_request, words) && kind == MCPHOST_OP_CALL_TOOL
          ? rq->words
          : NULL;
  if (words_text) {
    words = json_parse(words_text, strlen(words_text), NULL);
    if (!cJSON_IsArray(words)) {
      cJSON_Delete(words);
      cJSON_Delete(args);
      return api_fail(err, MCPHOST_EUSAGE, 0, rq->server,
                      "the argument words are not a JSON array "
                      "(mcphost_args_parse gives them)");
    }
  }
  size_t ns = rq->server ? strlen(rq->server) + 1 : 0;
  size_t nn = rq->name ? strlen(rq->name) + 1 : 0;
  size_t nm = rq->method ? strlen(rq->method) + 1 : 0;
  api_op *op = xmalloc(sizeof *op + ns + nn + nm + na);
  *op = (api_op){.c = c, .kind = kind};
  op->id = atomic_fetch_add(&c->next_id, 1);
  char *at = op->strings;
  op->server = rq->server ? memcpy(at, rq->server, ns) : NULL;
  op->name = rq->name ? memcpy(at + ns, rq->name, nn) : NULL;
  op->method = rq->method ? memcpy(at + ns + nn, rq->method, nm) : NULL;
  /* Kept as text too: a call's request carries it as it came. */
  op->arguments_text = na ? memcpy(at + ns + nn + nm, rq->arguments, na) : NULL;
  op->arguments = args;
  op->words = words;
  op->timeout_ms = rq->timeout_ms;
  if (API_HAS(rq, mcphost_request, flags))
    op->flags = rq->flags;
  op->cb = *cb;
  int64_t id = op->id;
  atomic_fetch_add(&c->nops, 1);
  if (loop_of == c && (op->flags & MCPHOST_REQUEST_NOW)) {
    op_begin(op); /* may end it */
    return id;
  }
  /* On the loop's own thread it begins once the callback that started
   * it returned, in this turn of the loop: no wake-up of the loop through
   * its eventfd (two system calls an operation), nor a timer. Linked
   * now, a cancel finds it before it begins. */
  if (loop_of == c) {
    loop_soon(host_loop(c->h), &op->begin, op_begin, op);
    op->begin_due = true;
    op_link(op);
  } else if (loop_post(host_loop(c->h), op_begin, op) != 0) {
    atomic_fetch_sub(&c->nops, 1);
    cJSON_Delete(args);
    cJSON_Delete(words);
    free(op);
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  }
  return id;
}

typedef struct cancel_job {
  mcphost_client *c;
  int64_t id;
} cancel_job;

static void cancel_now_on_loop(void *ud) {
  cancel_job *j = ud;
  for (api_op *op = j->c->ops; op; op = op->next) {
    if (op->id == j->id) {
      op_abort(op);
      break;
    }
  }
}

static void cancel_on_loop(void *ud) {
  cancel_now_on_loop(ud);
  free(ud);
}

void mcphost_cancel_now(mcphost_client *c, int64_t id) {
  if (!c || id <= 0)
    return;
  cancel_job j = {.c = c, .id = id};
  api_run_on_loop(c, cancel_now_on_loop, &j);
}

void mcphost_cancel(mcphost_client *c, int64_t id) {
  if (!c || id <= 0)
    return;
  cancel_job *j = xcalloc(1, sizeof *j);
  j->c = c;
  j->id = id;
  if (loop_post(host_loop(c->h), cancel_on_loop, j) != 0)
    free(j);
}

/* ---- waiting for one operation ---- */

typedef struct sync_wait {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  bool done, failed;
  char *result;
  size_t len;
  mcphost_error *err;
} sync_wait;

static void on_sync_done(void *ud, const char *result, size_t len,
                         const mcphost_error *e) {
  sync_wait *s = ud;
  pthread_mutex_lock(&s->lock);
  if (result) { /* the result, or with an error its data */
    s->result = xmalloc(len + 1);
    memcpy(s->result, result, len + 1);
    s->len = len;
  }
  if (e) {
    s->failed = true;
    api_fail(s->err, e->code, e->rpc_code, e->server, "%s", e->message);
  }
  s->done = true;
  pthread_cond_signal(&s->cond);
  pthread_mutex_unlock(&s->lock);
}

bool api_on_loop_thread(const mcphost_client *c) {
  return c->mode == MCPHOST_LOOP_THREAD && c->started &&
         pthread_equal(pthread_self(), c->thread);
}

int mcphost_run(mcphost_client *c, const mcphost_request *rq,
                char **result_json, size_t *len, mcphost_error *err) {
  api_clear_error(err);
  if (result_json)
    *result_json = NULL;
  if (c && api_on_loop_thread(c))
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_run waits for the loop: not from its thread "
                    "(a callback); use mcphost_start there");
  mcphost_error own = MCPHOST_ERROR_INIT;
  sync_wait s = {.err = err ? err : &own};
  pthread_mutex_init(&s.lock, NULL);
  pthread_cond_init(&s.cond, NULL);
  int64_t id = mcphost_start(
      c, rq,
      &(mcphost_callbacks){.struct_size = sizeof(mcphost_callbacks),
                           .done = on_sync_done,
                           .ud = &s},
      err);
  int rc;
  if (id < 0) {
    rc = (int)id;
  } else {
    if (c->mode == MCPHOST_LOOP_CALLER) {
      const mcphost_client *was = loop_of;
      loop_of = c;
      while (!s.done)
        loop_run_once(host_loop(c->h), -1);
      loop_of = was;
    } else {
      pthread_mutex_lock(&s.lock);
      while (!s.done)
        pthread_cond_wait(&s.cond, &s.lock);
      pthread_mutex_unlock(&s.lock);
    }
    rc = !s.failed ? MCPHOST_OK : s.err->code ? s.err->code : MCPHOST_ESERVER;
  }
  if (s.result && result_json) {
    *result_json = s.result;
    if (len)
      *len = s.len;
  } else {
    free(s.result);
  }
  pthread_cond_destroy(&s.cond);
  pthread_mutex_destroy(&s.lock);
  return rc;
}

int mcphost_resolve_ref(const mcphost_client *c, const char *ref,
                        const char *what, const char **server, char **item,
                        mcphost_error *err) {
  api_clear_error(err);
  if (server)
    *server = NULL;
  if (item)
    *item = NULL;
  if (!c || !ref || !server || !c->mc)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_resolve_ref needs a loaded client, a reference "
                    "and *server");
  if (!what || (strcmp(what, "tool") != 0 && strcmp(what, "prompt") != 0))
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "a reference names a \"tool\" or a \"prompt\"");
  size_t idx;
  char *part = NULL;
  bool qualified;
  mcp_error e = {0};
  if (mcp_client_resolve_ref(c->mc, ref, what, &idx, &part, &qualified, &e) !=
      0) {
    int code = api_fail(err, api_status_of_kind(e.kind), 0, e.server, "%s",
                        e.message ? e.message : "bad reference");
    mcp_error_clear(&e);
    return code;
  }
  *server = host_cfg(c->h)->servers[idx].name;
  if (item)
    *item = part;
  else
    free(part);
  return MCPHOST_OK;
}

int mcphost_connect(mcphost_client *c, const char *server, mcphost_error *err) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CONNECT;
  rq.server = server;
  return mcphost_run(c, &rq, NULL, NULL, err);
}

/* ---- results ---- */

int mcphost_result_text(const char *json, size_t len, char **text,
                        size_t *text_len, int *is_error, mcphost_error *err) {
  api_clear_error(err);
  if (text)
    *text = NULL;
  cJSON *r = json ? json_parse(json, len, NULL) : NULL;
  if (!cJSON_IsObject(r) || !text) {
    cJSON_Delete(r);
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "a result is a JSON object");
  }
  if (is_error)
    *is_error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "isError"));
  strbuf b;
  sb_init(&b);
  const cJSON *items = cJSON_GetObjectItemCaseSensitive(r, "content");
  if (!items)
    items = cJSON_GetObjectItemCaseSensitive(r, "contents");
  const cJSON *structured =
      cJSON_GetObjectItemCaseSensitive(r, "structuredContent");
  const cJSON *it;
  bool open_line = false; /* the last text did not end its line */
  cJSON_ArrayForEach(it, items) {
    const char *t =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "text"));
    if (!t)
      continue;
    if (open_line)
      sb_addc(&b, '\n');
    size_t n = strlen(t);
    char *at = sb_extend(&b, n);
    b.len -= n - json_nul_restore(at, t, n); /* U+0000 as a byte again */
    b.data[b.len] = '\0';
    open_line = n > 0 && t[n - 1] != '\n';
  }
  if (cJSON_GetArraySize(items) == 0 && structured) {
    json_write_pretty(&b, structured);
    sb_addc(&b, '\n');
  }
  cJSON_Delete(r);
  if (text_len)
    *text_len = b.len;
  *text = b.data ? sb_take(&b) : xstrdup("");
  return MCPHOST_OK;
}

/* ---- the servers' notifications and requests ---- */

static void on_state(void *ud, size_t idx) {
  mcphost_client *c = ud;
  c->on_state(c->ud, host_cfg(c->h)->servers[idx].name);
}

/* The server cancelled request `params.requestId` of its own: one the
 * program took is answered with nothing. */
static void taken_cancelled(mcphost_client *c, size_t idx,
                            const cJSON *params) {
  const cJSON *rid = cJSON_GetObjectItemCaseSensitive(params, "requestId");
  for (mcphost_server_request *r = c->taken; r && rid; r = r->next) {
    if (r->idx == idx && cJSON_Compare(r->id, rid, true)) {
      r->cancelled = true;
      return;
    }
  }
}

static void on_notify(void *ud, size_t idx, const char *method,
                      const cJSON *params) {
  mcphost_client *c = ud;
  if (c->taken && strcmp(method, "notifications/cancelled") == 0)
    taken_cancelled(c, idx, params);
  if (!c->on_notify)
    return;
  size_t len;
  char *text = json_text(params, &len);
  c->on_notify(c->ud, host_cfg(c->h)->servers[idx].name, method, text);
  free(text);
}

static bool on_request(void *ud, size_t idx, const char *method,
                       const cJSON *params, const cJSON *id,
                       const struct mcp_op *op) {
  mcphost_client *c = ud;
  if (!c->on_request || c->closing)
    return false;
  mcphost_server_request *r = xcalloc(1, sizeof *r);
  r->c = c;
  r->idx = idx;
  r->id = cJSON_Duplicate(id, 1);
  size_t id_len;
  r->id_text = json_text(id, &id_len);
  for (api_op *o = c->ops; o && op; o = o->next) {
    if (o->op == op) {
      r->op = o->id;
      break;
    }
  }
  r->next = c->taken;
  if (c->taken)
    c->taken->prev = r;
  c->taken = r;
  size_t len;
  char *text = json_text(params, &len);
  int took =
      c->on_request(c->ud, host_cfg(c->h)->servers[idx].name, method, text, r);
  free(text);
  if (took)
    return true;
  c->taken = r->next;
  if (r->next)
    r->next->prev = NULL;
  cJSON_Delete(r->id);
  free(r->id_text);
  free(r);
  return false;
}

int mcphost_server_request_get(const mcphost_server_request *req,
                               mcphost_server_request_info *out,
                               mcphost_error *err) {
  api_clear_error(err);
  if (!req || !out)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_server_request_get needs a request and a place "
                    "for what it is");
  if (!API_HAS(out, mcphost_server_request_info, op))
    return api_fail(err, MCPHOST_EABI, 0, NULL,
                    "mcphost_server_request_info.struct_size %u is too small",
                    (unsigned)out->struct_size);
  out->op = req->op;
  if (API_HAS(out, mcphost_server_request_info, id_json))
    out->id_json = req->id_text;
  if (API_HAS(out, mcphost_server_request_info, server))
    out->server = host_cfg(req->c->h)->servers[req->idx].name;
  return MCPHOST_OK;
}

typedef struct respond_job {
  mcphost_server_request *req;
  cJSON *result;
  int code;
  char *message;
  cJSON *data; /* the error's */
} respond_job;

static void request_forget(mcphost_server_request *r) {
  mcphost_client *c = r->c;
  if (r->prev)
    r->prev->next = r->next;
  else
    c->taken = r->next;
  if (r->next)
    r->next->prev = r->prev;
  cJSON_Delete(r->id);
  free(r->id_text);
  free(r);
}

static void respond_on_loop(void *ud) {
  respond_job *j = ud;
  mcphost_server_request *r = j->req;
  if (r->cancelled) /* by the server: nobody waits for an answer */
    cJSON_Delete(j->result);
  else
    mcp_client_answer(r->c->mc, r->idx, r->id, j->result, j->code,
                      j->message ? j->message : "", j->data);
  request_forget(r);
  cJSON_Delete(j->data);
  free(j->message);
  free(j);
}

/* Answers `req` (result and data taken): at once on the loop's thread
 * (a callback: the answer leaves in the order the program gives it),
 * else on the loop. */
static int respond_start(mcphost_client *c, mcphost_server_request *req,
                         cJSON *result, int code, const char *message,
                         cJSON *data, mcphost_error *err) {
  respond_job *j = xcalloc(1, sizeof *j);
  j->req = req;
  j->result = result;
  j->code = code;
  j->message = message ? xstrdup(message) : NULL;
  j->data = data;
  if (loop_of == c) {
    respond_on_loop(j);
  } else if (loop_post(host_loop(c->h), respond_on_loop, j) != 0) {
    cJSON_Delete(result);
    cJSON_Delete(data);
    free(j->message);
    free(j);
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  }
  return MCPHOST_OK;
}

int mcphost_respond(mcphost_client *c, mcphost_server_request *req,
                    const char *result_json, int rpc_code, const char *message,
                    mcphost_error *err) {
  api_clear_error(err);
  if (!c || !req || req->c != c)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_respond needs the client and its request");
  cJSON *result = NULL;
  if (result_json) {
    result = json_parse(result_json, strlen(result_json), NULL);
    if (!cJSON_IsObject(result)) {
      cJSON_Delete(result);
      return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                      "an answer's result is a JSON object");
    }
  } else if (rpc_code == 0) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "an answer is a result or a JSON-RPC error code");
  }
  return respond_start(c, req, result, rpc_code, message, NULL, err);
}

int mcphost_respond_error(mcphost_client *c, mcphost_server_request *req,
                          int rpc_code, const char *message,
                          const char *data_json, mcphost_error *err) {
  api_clear_error(err);
  if (!c || !req || req->c != c || rpc_code == 0)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_respond_error needs the client, its request "
                    "and a JSON-RPC error code");
  cJSON *data = NULL;
  if (data_json) {
    data = json_parse(data_json, strlen(data_json), NULL);
    if (!data)
      return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                      "an error's data is JSON text");
  }
  return respond_start(c, req, NULL, rpc_code, message, data, err);
}

/* ---- the client ---- */

/* The built-in plugins beside the library: <libdir>/libmcphost.so.1 ->
 * <libdir>/mcphost/plugins (the build tree has the same layout), wherever
 * the prefix is now. NULL when this code is linked into an executable:
 * the host's default then (next to the executable). */
static char *builtin_plugin_dir(void) {
  if (&api_shared_library == NULL)
    return NULL; /* linked into an executable: no dladdr to pay for */
  Dl_info info;
  if (!dladdr((void *)builtin_plugin_dir, &info) || !info.dli_fname ||
      !strstr(info.dli_fname, ".so"))
    return NULL;
  char *path = realpath(info.dli_fname, NULL);
  if (!path)
    return NULL;
  char *slash = strrchr(path, '/');
  if (slash)
    *slash = '\0';
  char *dir = xasprintf("%s/mcphost/plugins", path);
  free(path);
  return dir;
}

char **api_copy_strings(const char *const *v, size_t n) {
  char **out = xcalloc(n + 1, sizeof *out);
  for (size_t i = 0; i < n; i++)
    out[i] = xstrdup(v[i] ? v[i] : "");
  return out;
}

/* Frees a NULL-terminated array of copy_strings. */
void api_free_strings(char **v) {
  for (size_t i = 0; v && v[i]; i++)
    free(v[i]);
  free(v);
}

/* The client's deadlines and limits, from the options or the environment
 * as the CLI takes them. */
static void set_client_options(mcphost_client *c, const mcphost_options *o) {
  bool tool_given = false, request_given = false;
  uint64_t connect = env_ms("MCP_TIMEOUT", MCP_CONNECT_TIMEOUT_MS, false, NULL);
  uint64_t tool =
      env_ms("MCP_TOOL_TIMEOUT", MCP_TOOL_TIMEOUT_MS, false, &tool_given);
  uint64_t request = env_ms("MCPHOST_REQUEST_TIMEOUT", MCP_REQUEST_TIMEOUT_MS,
                            false, &request_given);
  if (o->connect_timeout_ms)
    connect = o->connect_timeout_ms;
  if (o->tool_timeout_ms) {
    tool = o->tool_timeout_ms;
    tool_given = true;
  }
  if (o->request_timeout_ms) {
    request = o->request_timeout_ms;
    request_given = true;
  }
  limits lim;
  limits_default(&lim);
  free(limits_from_env(&lim));
  c->ask_timeout_ms = request;
  mcp_client_set_options(
      c->mc,
      &(mcp_client_options){
          .connect_timeout_ms = connect,
          .request_timeout_ms = request,
          .tool_timeout_ms = tool,
          .tool_timeout_total = tool_given,
          .request_timeout_total = request_given,
          .server_exit_ms = env_ms("MCPHOST_STDIO_EXIT_MS", 2000, false, NULL),
          .name_chars = lim.name_chars,
          .list_cache_ttl_ms =
              env_ms("MCPHOST_LIST_CACHE_TTL", 20000, true, NULL)});
}

static void *loop_thread(void *ud) {
  mcphost_client *c = ud;
  loop_of = c;
  while (!c->stop)
    loop_run_once(host_loop(c->h), -1);
  return NULL;
}

/* Ends every operation and answers every request taken, then closes the
 * servers: on the loop. */
static void close_servers(void *ud) {
  mcphost_client *c = ud;
  c->closing = true;
  while (c->ops) {
    api_op *op = c->ops;
    if (op->op || op->waiting) {
      op_abort(op);
    } else {
      op_fail(op, MCPHOST_ECANCELED, NULL, "the client is closing");
    }
  }
  while (c->taken) {
    mcp_client_answer(c->mc, c->taken->idx, c->taken->id, NULL,
                      MCPH_RPC_INTERNAL_ERROR, "the client is closing", NULL);
    request_forget(c->taken);
  }
  mcp_client_shutdown(c->mc);
}

/* The same, and the client's thread ends. */
static void close_on_loop(void *ud) {
  close_servers(ud);
  ((mcphost_client *)ud)->stop = true;
}

void api_client_close(mcphost_client *c) {
  if (c->mode == MCPHOST_LOOP_THREAD && c->started) {
    api_run_on_loop(c, close_servers, c);
    return;
  }
  /* What was started and not begun yet begins, and ends cancelled. */
  const mcphost_client *was = loop_of;
  loop_of = c;
  c->closing = true;
  loop_run_once(host_loop(c->h), 0);
  close_servers(c);
  loop_of = was;
}

void mcphost_client_free(mcphost_client *c) {
  if (!c)
    return;
  if (c->mode == MCPHOST_LOOP_THREAD && c->started) {
    if (loop_post(host_loop(c->h), close_on_loop, c) == 0)
      pthread_join(c->thread, NULL);
  } else {
    api_client_close(c);
  }
  host_free(c->h);
  c->h = NULL;
  mcp_client_free(c->mc);
  for (api_names *l = atomic_load(&c->names), *older; l; l = older) {
    older = l->older;
    api_free_strings(l->names);
    free(l);
  }
  api_free_strings(c->plugin_dirs);
  api_free_strings(c->configs);
  api_frontend_free(c);
  free(c);
}

int mcphost_client_new(const mcphost_options *o, mcphost_client **out,
                       mcphost_error *err) {
  api_clear_error(err);
  if (out)
    *out = NULL;
  if (!o || !out)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_client_new needs options and a place for the "
                    "client");
  if (!API_HAS(o, mcphost_options, loop_mode))
    return api_fail(err, MCPHOST_EABI, 0, NULL,
                    "mcphost_options.struct_size %u is too small",
                    (unsigned)o->struct_size);
  if (o->api_major != MCPHOST_API_MAJOR || o->api_minor > MCPHOST_API_MINOR)
    return api_fail(err, MCPHOST_EABI, 0, NULL,
                    "built for the mcphost client API %u.%u; this "
                    "library is %d.%d",
                    (unsigned)o->api_major, (unsigned)o->api_minor,
                    MCPHOST_API_MAJOR, MCPHOST_API_MINOR);
  /* Every field of 1.0: a 1.0 caller's struct covers them all. */
  if (!API_HAS(o, mcphost_options, ud))
    return api_fail(err, MCPHOST_EABI, 0, NULL,
                    "mcphost_options.struct_size %u is too small for API "
                    "%u.%u",
                    (unsigned)o->struct_size, (unsigned)o->api_major,
                    (unsigned)o->api_minor);
  if (o->loop_mode != MCPHOST_LOOP_THREAD &&
      o->loop_mode != MCPHOST_LOOP_CALLER)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "unknown loop mode %d",
                    (int)o->loop_mode);
  if ((o->nplugin_dirs && !o->plugin_dirs) || (o->nconfigs && !o->configs))
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "a count of plugin directories or configurations "
                    "without its array");
  /* Read only when the caller's struct has it (added in 1.0). */
  bool defer = API_HAS(o, mcphost_options, defer_config) && o->defer_config;
  if (defer && (o->nconfigs || o->strict || o->approve_project))
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_options: configs, strict and approve_project "
                    "go to mcphost_load_config with defer_config");

  mcphost_client *c = xcalloc(1, sizeof *c);
  c->mode = o->loop_mode;
  c->next_id = 1;
  c->on_notify = o->on_notify;
  c->on_request = o->on_request;
  c->ud = o->ud;
  c->on_ask = o->on_ask;
  c->on_ask_end =
      API_HAS(o, mcphost_options, on_ask_end) ? o->on_ask_end : NULL;
  c->on_state = API_HAS(o, mcphost_options, on_state) ? o->on_state : NULL;
  c->asker =
      (mcp_asker){.start = api_ask_start, .cancel = api_ask_cancel, .ud = c};
  c->plugin_dirs = api_copy_strings(o->plugin_dirs, o->nplugin_dirs);
  c->configs = api_copy_strings(o->configs, o->nconfigs);

  /* What the program gives is checked alone first, as the CLI checks its
   * command line: a bad file or text is the caller's error. */
  config_sources src = {.mcp_configs = (const char *const *)c->configs,
                        .nmcp_configs = o->nconfigs,
                        .strict = o->strict != 0,
                        .approve_project = o->approve_project != 0};
  if (!defer && api_config_check(NULL, &src, NULL, err) != MCPHOST_OK) {
    api_free_strings(c->plugin_dirs);
    api_free_strings(c->configs);
    free(c);
    return MCPHOST_EUSAGE;
  }

  char *builtin = builtin_plugin_dir();
  host_options ho = {.plugin_dirs = (const char *const *)c->plugin_dirs,
                     .nplugin_dirs = o->nplugin_dirs,
                     .builtin_plugin_dir = builtin,
                     .verbosity = o->verbosity,
                     .no_signals = true};
  if (API_HAS(o, mcphost_options, on_log) && o->on_log) {
    ho.log = o->on_log; /* the same signature: host_log_fn */
    ho.log_ud = o->ud;
  }
  c->h = host_new(&ho);
  free(builtin);
  if (!c->h) {
    api_free_strings(c->plugin_dirs);
    api_free_strings(c->configs);
    free(c);
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL,
                    "cannot create the event loop");
  }
  /* Before the plugins: their init may look the servers service up. */
  c->mc = mcp_client_new(c->h);
  host_load_plugins(c->h);
  set_client_options(c, o);
  mcp_client_on_notify(c->mc, on_notify, c);
  mcp_client_on_request(c->mc, on_request, c);
  if (c->on_state)
    mcp_client_on_state(c->mc, on_state, c);
  if (defer) {
    *out = c; /* mcphost_load_config loads and starts it */
    return MCPHOST_OK;
  }
  api_config_load(c, &src);
  const config *cfg = host_cfg(c->h);
  /* As the CLI: a bad entry costs that entry only, unless the caller
   * gave every server itself (strict) or none is left. */
  if (cfg->nerrors && (o->strict || cfg->nservers == 0)) {
    api_fail(err, MCPHOST_EUSAGE, 0, NULL, "config error: %s", cfg->errors[0]);
    mcphost_client_free(c); /* no thread yet */
    return MCPHOST_EUSAGE;
  }
  if (api_client_start(c, err) != MCPHOST_OK) {
    mcphost_client_free(c);
    return MCPHOST_ENOMEM;
  }
  *out = c;
  return MCPHOST_OK;
}

void api_config_loaded(void *ud, const config *cfg) {
  mcphost_client *c = ud;
  api_names *l = xcalloc(1, sizeof *l);
  l->n = cfg->nservers;
  l->names = xcalloc(cfg->nservers + 1, sizeof *l->names);
  for (size_t i = 0; i < cfg->nservers; i++)
    l->names[i] = xstrdup(cfg->servers[i].name);
  l->older = atomic_load(&c->names);
  atomic_store(&c->names, l);
  if (c->bind_approvals)
    api_bind_approvals(c, cfg);
}

int api_client_start(mcphost_client *c, mcphost_error *err) {
  if (c->mode == MCPHOST_LOOP_THREAD) {
    c->started = true; /* before the thread: it reads it */
    if (pthread_create(&c->thread, NULL, loop_thread, c) != 0) {
      c->started = false; /* freed as a client without a thread */
      return api_fail(err, MCPHOST_ENOMEM, 0, NULL,
                      "cannot start the client's thread");
    }
  }
  return MCPHOST_OK;
}

size_t mcphost_server_count(const mcphost_client *c) {
  const api_names *l = c ? atomic_load(&c->names) : NULL;
  return l ? l->n : 0;
}

const char *mcphost_server_name(const mcphost_client *c, size_t i) {
  const api_names *l = c ? atomic_load(&c->names) : NULL;
  return l && i < l->n ? l->names[i] : NULL;
}

/* ---- the caller's loop ---- */

int mcphost_fd(const mcphost_client *c) {
  return c ? loop_fd(host_loop(c->h)) : -1;
}

int mcphost_timeout_ms(const mcphost_client *c) {
  return c ? loop_timeout_ms(host_loop(c->h)) : -1;
}

const mcphost_client *api_enter_loop(const mcphost_client *c) {
  const mcphost_client *was = loop_of;
  loop_of = c;
  return was;
}

void api_leave_loop(const mcphost_client *was) {
  loop_of = was;
}

int mcphost_perform(mcphost_client *c) {
  if (!c)
    return 0;
  const mcphost_client *was = api_enter_loop(c);
  loop_run_once(host_loop(c->h), 0);
  api_leave_loop(was);
  return atomic_load(&c->nops);
}

/* ---- in-process servers (mcp/inproc.h) ---- */

struct mcphost_inproc {
  mcphost_client *c;
  uint64_t id; /* what a send from another thread finds it by */
  mcp_inproc_server *srv;
  mcphost_inproc_callbacks cb;
  bool released; /* on_close(MCPHOST_INPROC_RELEASED) began */
  mcphost_inproc *next;
};

/* Runs fn(ud) on the loop and returns when it has run: here when this
 * thread may (the loop's own, or the caller's in MCPHOST_LOOP_CALLER
 * mode), else posted to the loop's thread and waited for. */
typedef struct loop_call {
  void (*fn)(void *);
  void *ud;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  bool done;
} loop_call;

static void loop_call_run(void *ud) {
  loop_call *lc = ud;
  lc->fn(lc->ud);
  pthread_mutex_lock(&lc->lock);
  lc->done = true;
  pthread_cond_signal(&lc->cond);
  pthread_mutex_unlock(&lc->lock);
}

int api_run_on_loop(mcphost_client *c, void (*fn)(void *), void *ud) {
  if (c->mode == MCPHOST_LOOP_CALLER || loop_of == c || !c->started) {
    fn(ud);
    return 0;
  }
  loop_call lc = {.fn = fn, .ud = ud};
  pthread_mutex_init(&lc.lock, NULL);
  pthread_cond_init(&lc.cond, NULL);
  int rc = loop_post(host_loop(c->h), loop_call_run, &lc);
  if (rc == 0) {
    pthread_mutex_lock(&lc.lock);
    while (!lc.done)
      pthread_cond_wait(&lc.cond, &lc.lock);
    pthread_mutex_unlock(&lc.lock);
  }
  pthread_cond_destroy(&lc.cond);
  pthread_mutex_destroy(&lc.lock);
  return rc;
}

static void inproc_unlink(mcphost_inproc *p) {
  for (mcphost_inproc **q = &p->c->inprocs; *q; q = &(*q)->next) {
    if (*q == p) {
      *q = p->next;
      return;
    }
  }
}

static void inproc_message(void *ud, mcp_inproc_server *srv, const char *json,
                           size_t len) {
  (void)srv;
  mcphost_inproc *p = ud;
  p->cb.on_message(p->cb.ud, p, json, len); /* p may be gone after it */
}

static void inproc_close(void *ud, mcp_inproc_server *srv, mcp_inproc_end end) {
  (void)srv;
  mcphost_inproc *p = ud;
  if (end != MCP_INPROC_RELEASED) {
    if (p->cb.on_close)
      p->cb.on_close(p->cb.ud, p, MCPHOST_INPROC_DISCONNECTED);
    return;
  }
  p->released = true;
  if (p->cb.on_close)
    p->cb.on_close(p->cb.ud, p, MCPHOST_INPROC_RELEASED);
  inproc_unlink(p);
  free(p);
}

typedef struct register_job {
  mcphost_client *c;
  const char *name;
  mcphost_inproc *p;
  int rc;
  char why[MCPHOST_ERROR_MAX];
} register_job;

static void register_on_loop(void *ud) {
  register_job *j = ud;
  mcphost_client *c = j->c;
  if (c->closing) {
    j->rc = MCPH_EINVAL;
    snprintf(j->why, sizeof j->why, "the client is closing");
    return;
  }
  j->rc = mcp_inproc_register(
      c->mc, j->name,
      &(mcp_inproc_callbacks){
          .on_message = inproc_message, .on_close = inproc_close, .ud = j->p},
      &j->p->srv, j->why, sizeof j->why);
  if (j->rc != 0)
    return;
  j->p->id = ++c->next_inproc;
  j->p->next = c->inprocs;
  c->inprocs = j->p;
}

int mcphost_inproc_register(mcphost_client *c, const char *name,
                            const mcphost_inproc_callbacks *cb,
                            mcphost_inproc **out, mcphost_error *err) {
  api_clear_error(err);
  if (out)
    *out = NULL;
  if (!c || !name || !*name || !cb || !out)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_inproc_register needs a client, a name, "
                    "callbacks and a place for the handle");
  if (!API_HAS(cb, mcphost_inproc_callbacks, ud))
    return api_fail(err, MCPHOST_EABI, 0, name,
                    "mcphost_inproc_callbacks.struct_size %u is too small",
                    (unsigned)cb->struct_size);
  if (!cb->on_message)
    return api_fail(err, MCPHOST_EUSAGE, 0, name,
                    "in-process server \"%s\" needs an on_message callback",
                    name);
  mcphost_inproc *p = xcalloc(1, sizeof *p);
  p->c = c;
  p->cb = *cb;
  register_job j = {.c = c, .name = name, .p = p};
  if (api_run_on_loop(c, register_on_loop, &j) != 0) {
    free(p);
    return api_fail(err, MCPHOST_ENOMEM, 0, name, "out of memory");
  }
  if (j.rc != 0) {
    free(p);
    return api_fail(err, MCPHOST_EUSAGE, 0, name, "%s", j.why);
  }
  *out = p;
  return MCPHOST_OK;
}

typedef struct send_job {
  mcphost_client *c;
  uint64_t id;
  size_t len;
  char text[]; /* len bytes */
} send_job;

static void send_on_loop(void *ud) {
  send_job *j = ud;
  for (mcphost_inproc *p = j->c->inprocs; p; p = p->next) {
    if (p->id == j->id) {
      mcp_inproc_send(p->srv, j->text, j->len); /* closed: dropped */
      break;
    }
  }
  free(j);
}

int mcphost_inproc_send(mcphost_inproc *p, const char *json, size_t len,
                        mcphost_error *err) {
  api_clear_error(err);
  if (!p || !json || len == 0)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_inproc_send needs a server and a message");
  mcphost_client *c = p->c;
  if (p->released)
    return api_fail(err, MCPHOST_ESTATE, 0, mcp_inproc_name(p->srv),
                    "in-process server \"%s\" is being released",
                    mcp_inproc_name(p->srv));
  if (loop_of == c) {
    if (mcp_inproc_send(p->srv, json, len) != MCPH_OK)
      return api_fail(err, MCPHOST_ESTATE, 0, mcp_inproc_name(p->srv),
                      "in-process server \"%s\" has no connection open",
                      mcp_inproc_name(p->srv));
    return MCPHOST_OK;
  }
  /* Another thread: the loop sends it, if the server is still there. */
  send_job *j = xmalloc(sizeof *j + len);
  j->c = c;
  j->id = p->id;
  j->len = len;
  memcpy(j->text, json, len);
  if (loop_post(host_loop(c->h), send_on_loop, j) != 0) {
    free(j);
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  }
  return MCPHOST_OK;
}

static void unregister_on_loop(void *ud) {
  mcphost_inproc *p = ud;
  inproc_unlink(p);
  mcp_inproc_unregister(p->srv);
  free(p);
}

void mcphost_inproc_unregister(mcphost_inproc *p) {
  if (!p || p->released)
    return; /* released: mcphost_client_free frees it */
  api_run_on_loop(p->c, unregister_on_loop, p);
}
