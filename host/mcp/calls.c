/* The pipeline of calls.h: each operation is a small state machine
 * stepped by the callbacks of what it waits for (a connect, a list, an
 * answer to ask, a request, elicitations). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/permissions.h"
#include "mcp/feature_plugins.h"
#include "core/host.h"
#include "core/host_ui.h"
#include "util.h"
#include "mcp/arguments.h"
#include "mcp/calls.h"
#include "mcp/client_internal.h"
#include "mcp/names.h"
#include "mcp/signature.h"
#include "suggest.h"
#include "mcp/tasks.h"
#include "mcp_name.h"
#include "safety/json_write.h"
#include "safety/sanitize.h"

#define CALL_ATTEMPTS 3

typedef struct elicit_wait elicit_wait;

struct mcp_op {
  mcp_client *mc;
  mcp_call call; /* the strings below are the op's own copies */
  char *name, *method;
  cJSON *args;
  cJSON *words; /* CALL_TOOL: KEY=VALUE words not yet set (arguments.h) */
  mcp_call_callbacks cb;
  session *s;
  mcp_waiter w; /* a connect or a tool list */
  char *real;   /* the tool's or prompt's real name, once resolved */
  /* The rules' verdict on the name given (SERVER/TOOL: the real name). */
  perm_verdict given;
  char *given_q; /* its mcp__server__tool */
  char *description;
  /* what it waits for, for mcp_op_cancel */
  bool asking;
  void *ask_handle;
  bool answered_at_once; /* the asker answered inside start() */
  int64_t request_id;    /* > 0 while a request is in flight */
  elicit_wait *elicit;
  int attempt;
  uint64_t call_started_ms; /* the first tools/call: its deadline's start */
  /* -32042: the URL elicitations of the last error (their
   * elicitationIds), each done once notifications/elicitation/complete
   * came for it; while `url_waiting` the call waits for them, or for the
   * person's line on the terminal (`url_ask`), until `url_timer`. */
  char **url_ids;
  bool *url_done;
  size_t nurl;
  bool url_waiting;
  loop_timer *url_timer;
  struct mcph_ui_ask *url_ask;
  /* SERVER/TOOL is called as named; an answer that may mean "no such
   * tool" is held while the list confirms it. */
  bool confirming;
  cJSON *held_result;
  mcp_error held_err;
  /* A call that runs as a task (tasks.h): its follower once created;
   * `phase` names the request a follower's answer came from. */
  bool tasked;
  task_follow *follow;
  const char *phase;
  bool cancelled;
  bool finished;
  bool *live;                 /* mcp_client_start's: cleared when done runs */
  struct mcp_op *prev, *next; /* the client's live operations */
};

/* ---- the live list ---- */

void mcp_op_link(mcp_op **list, mcp_op *op) {
  op->prev = NULL;
  op->next = *list;
  if (*list) {
    (*list)->prev = op;
  }
  *list = op;
}

void mcp_op_unlink(mcp_op **list, mcp_op *op) {
  if (op->prev) {
    op->prev->next = op->next;
  } else if (*list == op) {
    *list = op->next;
  }
  if (op->next) {
    op->next->prev = op->prev;
  }
  op->prev = op->next = NULL;
}

void mcp_ops_cancel_all(mcp_client *mc) {
  while (mc->ops) {
    mcp_op_cancel(mc->ops);
  }
}

mcp_op *mcp_op_of_request(mcp_client *mc, const session *s, int64_t id) {
  for (mcp_op *op = mc->ops; op; op = op->next) {
    if (op->s == s && op->request_id == id && !op->finished) {
      return op;
    }
  }
  return NULL;
}

size_t mcp_op_server(const mcp_op *op) {
  return op->call.server;
}

/* ---- the end ---- */

static void url_wait_stop(mcp_op *op);
static void url_ids_clear(mcp_op *op);

static void op_free(mcp_op *op) {
  url_wait_stop(op);
  url_ids_clear(op);
  cJSON_Delete(op->held_result);
  mcp_error_clear(&op->held_err);
  free(op->name);
  free(op->method);
  free(op->real);
  free(op->description);
  free(op->given_q);
  cJSON_Delete(op->args);
  cJSON_Delete(op->words);
  free(op);
}

static void finish(mcp_op *op, cJSON *result, mcp_error *err) {
  if (op->finished) {
    cJSON_Delete(result);
    return;
  }
  op->finished = true;
  if (op->live) {
    *op->live = false;
  }
  url_wait_stop(op);
  mcp_client_unwait(op->mc, &op->w);
  mcp_client_untrack(op->mc, op);
  op->cb.done(op->cb.ud, result, err);
  if (err) {
    mcp_error_clear(err);
  }
  if (!op->elicit) { /* else freed when the elicitations end */
    op_free(op);
  }
}

static const char *server_name(const mcp_op *op);
static void fail(mcp_op *op, mcp_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(mcp_op *op, mcp_error_kind kind, const char *fmt, ...) {
  mcp_error e = {0};
  va_list ap;
  va_start(ap, fmt);
  /* The server named even before a session is at hand (a listing that
   * has not the item): a --json error says which server it was. */
  const config *cfg = &op->mc->h->cfg;
  const char *server = op->s                             ? op->s->cfg->name
                       : op->call.server < cfg->nservers ? server_name(op)
                                                         : NULL;
  mcp_error_vset(&e, kind, server, fmt, ap);
  va_end(ap);
  finish(op, NULL, &e);
}

static const char *server_name(const mcp_op *op) {
  return op->mc->h->cfg.servers[op->call.server].name;
}

/* ---- requests ---- */

static const char *op_method(const mcp_op *op) {
  if (op->phase) {
    return op->phase;
  }
  switch (op->call.kind) {
  case MCP_OP_CALL_TOOL: return "tools/call";
  case MCP_OP_GET_PROMPT: return "prompts/get";
  case MCP_OP_READ: return "resources/read";
  default: return op->method;
  }
}

static void send_call(mcp_op *op);
static void run_elicitations(mcp_op *op, const cJSON *data);
static void url_ids_set(mcp_op *op, const cJSON *data);
static const cJSON *find_named(const mcp_op *op, const cJSON *items);
static char *item_suggestions(const mcp_op *op, const cJSON *tools);

/* Whether the answer to a SERVER/TOOL call may say the tool does not
 * exist: a JSON-RPC "not found", or an isError result (the SDKs answer an
 * unknown tool so). A raw result (json_raw.h) is minified JSON: its
 * isError member reads "isError":true (a string that contains the same
 * text only costs a look at the list). */
static bool needs_confirming(const mcp_op *op, const cJSON *result,
                             const mcp_error *e) {
  if (op->call.kind != MCP_OP_CALL_TOOL || op->call.qualified ||
      op->confirming || op->phase) {
    return false;
  }
  if (e) {
    return e->kind == MCP_ERR_NOT_FOUND;
  }
  if (cJSON_IsRaw(result)) {
    return strstr(result->valuestring, "\"isError\":true") != NULL;
  }
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"));
}

static void on_confirm(mcp_waiter *w, session *s) {
  mcp_op *op = (mcp_op *)((char *)w - offsetof(mcp_op, w));
  const cJSON *tools = mcp_client_cached_tools(op->mc, op->call.server);
  if (tools && !find_named(op, tools)) {
    cJSON_Delete(op->held_result);
    op->held_result = NULL;
    mcp_error_clear(&op->held_err);
    mcp_error e = {0};
    char *hint = item_suggestions(op, tools);
    mcp_error_set(&e, MCP_ERR_NOT_FOUND, s->cfg->name,
                  "server \"%s\" has no tool named \"%s\"%s", s->cfg->name,
                  op->name, hint);
    free(hint);
    finish(op, NULL, &e);
    return;
  }
  /* Listed (or the list failed): the answer stands. */
  cJSON *result = op->held_result;
  op->held_result = NULL;
  if (result) {
    finish(op, result, NULL);
    return;
  }
  mcp_error e = {0};
  mcp_error_move(&e, &op->held_err);
  finish(op, NULL, &e);
}

static void confirm(mcp_op *op) {
  op->confirming = true;
  if (op->s->state != SESS_READY) {
    on_confirm(&op->w, op->s);
    return;
  }
  op->w.ready = on_confirm;
  mcp_client_want_tools(op->mc, op->call.server, &op->w);
}

/* A list's answer may come after a cancel: the op is kept for it. */
#define LISTING ((int64_t)-1)

/* A listing's answer came: whether the op was cancelled meanwhile (then
 * the answer is dropped and the op freed). */
static bool listing_cancelled(mcp_op *op, cJSON *items) {
  op->request_id = 0;
  if (!op->finished) {
    return false;
  }
  cJSON_Delete(items);
  if (!op->elicit) {
    op_free(op);
  }
  return true;
}

/* A resource not found: the held error gets the server's closest URIs
 * (" (did you mean ...)") from resources/list, when it lists them. */
static void on_uris(void *ud, session *s, cJSON *items, const char *error) {
  (void)s;
  mcp_op *op = ud;
  if (listing_cancelled(op, items)) {
    return;
  }
  int n = error ? 0 : cJSON_GetArraySize(items);
  const char **uris = xcalloc(n > 0 ? (size_t)n : 1, sizeof *uris);
  for (int i = 0; i < n; i++) {
    uris[i] = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(items, i), "uri"));
  }
  strbuf hint;
  sb_init(&hint);
  mcp_suggest(&hint, op->name, uris, (size_t)n);
  mcp_error e = {0};
  mcp_error_move(&e, &op->held_err);
  if (hint.len) {
    char *m = xasprintf("%s%s", e.message ? e.message : "", sb_str(&hint));
    free(e.message);
    e.message = m;
  }
  sb_free(&hint);
  free(uris);
  cJSON_Delete(items);
  finish(op, NULL, &e);
}

static void suggest_uris(mcp_op *op) {
  op->request_id = LISTING;
  session_list(op->s, "resources/list", "resources",
               op->mc->opt.request_timeout_ms, on_uris, op);
}

static void follow_task(mcp_op *op, const cJSON *task, int64_t call_id);

static void on_answer(void *ud, cJSON *result, const rpc_error *err,
                      bool *take) {
  mcp_op *op = ud;
  int64_t call_id = op->request_id;
  op->request_id = 0;
  const cJSON *task = !err && op->tasked && !op->phase && !op->call.detach
                          ? task_of_result(result)
                          : NULL;
  if (task) {
    follow_task(op, task, call_id);
    return;
  }
  if (!err) {
    *take = true;
    if (needs_confirming(op, result, NULL)) {
      op->held_result = result;
      confirm(op);
      return;
    }
    finish(op, result, NULL);
    return;
  }
  const char *method = op_method(op);
  if (op->call.kind == MCP_OP_CALL_TOOL && err->status == RPC_ERR_REMOTE &&
      err->code == MCPH_RPC_URL_ELICITATION_REQUIRED &&
      op->attempt < CALL_ATTEMPTS) {
    host_log(op->mc->h, MCPH_LOG_INFO, op->s->cfg->name,
             "the call needs a URL elicitation first (attempt %d of %d)",
             op->attempt, CALL_ATTEMPTS);
    /* The error is the caller's only for this callback. */
    cJSON *data = err->data ? cJSON_Duplicate(err->data, 1) : NULL;
    url_ids_set(op, data);
    run_elicitations(op, data);
    cJSON_Delete(data);
    return;
  }
  mcp_error e = {0};
  const char *name = op->s->cfg->name;
  mcp_error_kind kind =
      mcp_error_kind_of_rpc(op->s, err->status, err->code, err->message,
                            op->real ? op->real : op->name);
  switch (err->status) {
  case RPC_OK: break;
  case RPC_ERR_REMOTE: {
    if (op->call.kind == MCP_OP_CALL_TOOL &&
        err->code == MCPH_RPC_URL_ELICITATION_REQUIRED) {
      mcp_error_set(&e, kind, name,
                    "server \"%s\" still requires a URL elicitation after "
                    "%d attempts",
                    name, CALL_ATTEMPTS);
      break;
    }
    char *text = rpc_error_text(err->message, err->code);
    mcp_error_set(&e, kind, name, "server \"%s\": %s failed: %s", name, method,
                  text);
    free(text);
    e.rpc_code = err->code;
    e.data = err->data ? cJSON_Duplicate(err->data, 1) : NULL;
    break;
  }
  case RPC_ERR_TIMEOUT:
    if (op->phase && strcmp(op->phase, "task") == 0) {
      /* The follower's deadline says what stayed the same (tasks.h). */
      mcp_error_set(&e, kind, name, "server \"%s\": %s", name, err->message);
      break;
    }
    mcp_error_set(&e, kind, name, "server \"%s\": %s timed out after %llu ms",
                  name, method,
                  (unsigned long long)(op->call.kind == MCP_OP_CALL_TOOL
                                           ? op->mc->opt.tool_timeout_ms
                                           : op->mc->opt.request_timeout_ms));
    break;
  case RPC_ERR_CLOSED:
    mcp_error_set(&e, kind, name, "server \"%s\" went away during %s: %s", name,
                  method, err->message);
    break;
  case RPC_ERR_TRANSPORT:
    mcp_error_set(&e, kind, name, "server \"%s\": %s failed: %s", name, method,
                  err->message);
    break;
  case RPC_ERR_CANCELLED:
    if (op->cancelled) {
      mcp_error_set(&e, MCP_ERR_INTERRUPTED, name, "%s: interrupted", method);
      break;
    }
    /* fall through */
  case RPC_ERR_LOCAL: mcp_error_set(&e, kind, name, "%s", err->message); break;
  }
  if (needs_confirming(op, NULL, &e)) {
    mcp_error_move(&op->held_err, &e);
    confirm(op);
    return;
  }
  if (op->call.kind == MCP_OP_READ && e.kind == MCP_ERR_NOT_FOUND &&
      session_has_capability(op->s, "resources")) {
    mcp_error_move(&op->held_err, &e);
    suggest_uris(op);
    return;
  }
  finish(op, NULL, &e);
}

static void on_progress(void *ud, const cJSON *params) {
  mcp_op *op = ud;
  if (op->cb.progress) {
    op->cb.progress(op->cb.ud, params);
  }
}

/* What the answer to `method` is, for the rule sanitizing it. */
static sanitize_kind answer_kind(const mcp_op *op, const char *method) {
  if (strcmp(method, "tools/call") != 0 &&
      strcmp(method, "resources/read") != 0 &&
      strcmp(method, "tasks/result") != 0 &&
      strcmp(method, "prompts/get") != 0) {
    return SANITIZE_NAMES;
  }
  return op->call.for_model ? SANITIZE_MODEL : SANITIZE_RESULT;
}

static void send_request(mcp_op *op, const char *method, cJSON *params) {
  char why[600];
  bool tool = op->call.kind == MCP_OP_CALL_TOOL;
  rpc_request_opts o = {.timeout_ms = tool ? op->mc->opt.tool_timeout_ms
                                           : op->mc->opt.request_timeout_ms,
                        .on_progress = op->cb.progress ? on_progress : NULL,
                        .ud = op,
                        .progress_resets_deadline =
                            tool ? !op->mc->opt.tool_timeout_total
                                 : !op->mc->opt.request_timeout_total,
                        /* A task's first answer is read here. */
                        .raw_result = op->call.raw_result && !op->tasked,
                        .kind = answer_kind(op, method)};
  int64_t id =
      session_request(op->s, method, params, &o, on_answer, why, sizeof why);
  if (id < 0) {
    fail(op,
         op->s->state == SESS_READY ? MCP_ERR_PROTOCOL
                                    : mcp_error_kind_of_session(op->s),
         "%s", why);
    return;
  }
  if (!op->finished) {
    op->request_id = id;
  }
}

/* The arguments go by reference: the op keeps them for a call again. */
static void add_arguments(const mcp_op *op, cJSON *params) {
  if (op->args) {
    cJSON_AddItemReferenceToObject(params, "arguments", op->args);
  } else {
    cJSON_AddItemToObject(params, "arguments", cJSON_CreateObject());
  }
}

static void send_call(mcp_op *op) {
  if (op->attempt++ == 0) {
    op->call_started_ms = loop_now_ms();
  }
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "name", op->real);
  add_arguments(op, params);
  if (op->tasked) {
    cJSON_AddItemToObject(params, "task", task_request_member());
  }
  send_request(op, "tools/call", params);
}

/* ---- a task: followed to its result (tasks.h) ---- */

static void on_task_status(void *ud, const cJSON *task) {
  mcp_op *op = ud;
  if (op->cb.task) {
    op->cb.task(op->cb.ud, task);
  }
}

static void on_task_done(void *ud, const char *method, cJSON *result,
                         const rpc_error *err, bool *take) {
  mcp_op *op = ud;
  op->follow = NULL; /* freed after this returns */
  op->phase = method;
  on_answer(op, result, err, take);
}

static void follow_task(mcp_op *op, const cJSON *task, int64_t call_id) {
  task_follow_cb cb = {.status = on_task_status,
                       .progress = op->cb.progress ? on_progress : NULL,
                       .done = on_task_done,
                       .ud = op,
                       .cancel_on_deadline =
                           op->call.kind == MCP_OP_CALL_TOOL};
  op->follow = task_follow_start(
      op->s, task, call_id, op->mc->opt.request_timeout_ms,
      op->mc->opt.tool_timeout_ms, op->mc->opt.tool_timeout_ms, &cb);
}

/* ---- -32042: the URL elicitations, then the call again ---- */

/* Accepting a URL elicitation means the person was sent to the URL, not
 * that they are done there: the call is sent again once the server says
 * each one is complete (notifications/elicitation/complete for its
 * elicitationId), or once the person says so on the terminal (a line on
 * stdin), within the call's deadline. */

static void url_ids_clear(mcp_op *op) {
  for (size_t i = 0; i < op->nurl; i++) {
    free(op->url_ids[i]);
  }
  free(op->url_ids);
  free(op->url_done);
  op->url_ids = NULL;
  op->url_done = NULL;
  op->nurl = 0;
}

/* The ids of the error's URL elicitations: the completions to wait for. */
static void url_ids_set(mcp_op *op, const cJSON *data) {
  url_ids_clear(op);
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(data, "elicitations");
  size_t n = (size_t)cJSON_GetArraySize(list);
  op->url_ids = xcalloc(n ? n : 1, sizeof *op->url_ids);
  op->url_done = xcalloc(n ? n : 1, sizeof *op->url_done);
  const cJSON *e;
  cJSON_ArrayForEach(e, list) {
    const char *mode =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "mode"));
    const char *id = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(e, "elicitationId"));
    if (mode && strcmp(mode, "url") == 0 && id && op->nurl < n) {
      op->url_ids[op->nurl++] = xstrdup(id);
    }
  }
}

static bool url_all_done(const mcp_op *op) {
  for (size_t i = 0; i < op->nurl; i++) {
    if (!op->url_done[i]) {
      return false;
    }
  }
  return true;
}

static void url_wait_stop(mcp_op *op) {
  if (op->url_timer) {
    loop_timer_cancel(op->mc->h->loop, op->url_timer);
    op->url_timer = NULL;
  }
  if (op->url_ask) {
    host_ui_service()->cancel(&op->mc->h->self.api, op->url_ask);
    op->url_ask = NULL;
  }
  op->url_waiting = false;
}

static void url_retry(mcp_op *op, const char *why) {
  url_wait_stop(op);
  host_log(op->mc->h, MCPH_LOG_INFO, op->s->cfg->name,
           "%s; sending the call again", why);
  send_call(op);
}

/* The ids still awaited, for messages: "a", "b" (at most three). */
static char *url_pending_text(const mcp_op *op) {
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  size_t shown = 0, left = 0;
  for (size_t i = 0; i < op->nurl; i++) {
    if (op->url_done[i]) {
      continue;
    }
    if (shown == 3) {
      left++;
      continue;
    }
    sb_printf(&b, "%s%.100s", shown ? ", " : "", op->url_ids[i]);
    shown++;
  }
  if (left) {
    sb_printf(&b, " and %zu more", left);
  }
  return sb_take(&b);
}

static void on_url_deadline(void *ud) {
  mcp_op *op = ud;
  op->url_timer = NULL; /* a fired timer frees itself */
  char *ids = url_pending_text(op);
  bool asked = op->url_ask != NULL;
  url_wait_stop(op);
  fail(op, MCP_ERR_TIMEOUT,
       "server \"%s\": tools/call timed out after %llu ms waiting for the "
       "URL elicitation %s to be completed (%s%s)",
       op->s->cfg->name, (unsigned long long)op->mc->opt.tool_timeout_ms, ids,
       op->nurl ? "no notifications/elicitation/complete came for it"
                : "nobody said it was done",
       op->nurl && asked ? ", and nobody said it was done" : "");
  free(ids);
}

static void on_url_line(void *ud, const char *answer, const mcph_error *err) {
  mcp_op *op = ud;
  op->url_ask = NULL; /* dead once its answer runs */
  if (!answer) {
    /* The input ended: only the server's word is left to wait for. */
    (void)err;
    if (op->nurl == 0) {
      url_retry(op, "the terminal's input ended");
    }
    return;
  }
  url_retry(op, "the URL elicitation was said to be done on the terminal");
}

static void url_wait_start(mcp_op *op) {
  host *h = op->mc->h;
  const mcph_host *self = &h->self.api;
  bool person = host_ui_service()->interactive(self) != 0;
  if (op->nurl > 0 && url_all_done(op)) {
    url_retry(op, "the URL elicitation is complete");
    return;
  }
  if (op->nurl == 0 && !person) {
    /* No id to hear of and nobody to ask: as before, at once. */
    send_call(op);
    return;
  }
  uint64_t now = loop_now_ms(), limit = op->mc->opt.tool_timeout_ms;
  uint64_t end = op->call_started_ms + limit;
  if (end <= now) {
    op->url_waiting = true;
    on_url_deadline(op);
    return;
  }
  op->url_waiting = true;
  op->url_timer = loop_timer_start(h->loop, end - now, on_url_deadline, op);
  char *ids = url_pending_text(op);
  host_log_labeled(
      h, MCPH_LOG_WARN, "waiting", op->s->cfg->name,
      "tools/call %s waits for the URL elicitation to be completed: %s%s%s%s "
      "(at most %llu s more)",
      op->real ? op->real : op->name,
      op->nurl ? "notifications/elicitation/complete for " : "", ids,
      op->nurl && person ? ", or " : "",
      person ? "Enter here once you are done in the browser" : "",
      (unsigned long long)((end - now + 999) / 1000));
  free(ids);
  if (person) {
    mcph_error err;
    mcph_error_init(&err);
    const char *q = "press Enter once you are done:";
    if (host_ui_service()->ask(self, q, on_url_line, op, &op->url_ask, &err) !=
        MCPH_OK) {
      op->url_ask = NULL;
      host_log(h, MCPH_LOG_DEBUG, op->s->cfg->name,
               "cannot ask on the terminal: %s", err.message);
      if (op->nurl == 0) {
        url_retry(op, "nobody can be asked");
      }
    }
  }
}

void mcp_ops_elicitation_complete(mcp_client *mc, const session *s,
                                  const char *id) {
  mcp_op *next;
  for (mcp_op *op = mc->ops; op && id; op = next) {
    next = op->next;
    if (op->s != s || op->finished) {
      continue;
    }
    bool mine = false;
    for (size_t i = 0; i < op->nurl; i++) {
      if (!op->url_done[i] && strcmp(op->url_ids[i], id) == 0) {
        op->url_done[i] = mine = true;
      }
    }
    if (mine && op->url_waiting && url_all_done(op)) {
      url_retry(op, "the server says the URL elicitation is complete");
    }
  }
}

/* Outlives a cancelled op: the elicitations answer when they answer. */
struct elicit_wait {
  mcp_op *op; /* NULL once the op is gone */
  size_t pending;
  bool all_accepted;
  char reason[300];
};

static void elicitations_done(elicit_wait *w) {
  mcp_op *op = w->op;
  bool accepted = w->all_accepted;
  char reason[300];
  snprintf(reason, sizeof reason, "%s", w->reason);
  free(w);
  if (!op) {
    return;
  }
  op->elicit = NULL;
  if (op->finished) { /* cancelled meanwhile */
    op_free(op);
    return;
  }
  if (!accepted) {
    fail(op, MCP_ERR_PROTOCOL,
         "server \"%s\" requires a URL elicitation, which was not "
         "completed (%s)",
         op->s->cfg->name, reason);
    return;
  }
  url_wait_start(op);
}

static void on_elicited(void *ud, const cJSON *result, int code,
                        const char *message) {
  elicit_wait *w = ud;
  (void)code;
  const char *action =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(result, "action"));
  if (!result || !action || strcmp(action, "accept") != 0) {
    if (w->all_accepted) {
      snprintf(w->reason, sizeof w->reason, "%s",
               result ? (action ? action : "no action")
                      : (message ? message : "error"));
    }
    w->all_accepted = false;
  }
  if (--w->pending == 0) {
    elicitations_done(w);
  }
}

/* Each elicitation of the error's data goes to the feature plugin that
 * answers "elicitation/create", as if the server had sent it. */
static void run_elicitations(mcp_op *op, const cJSON *data) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(data, "elicitations");
  if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0) {
    fail(op, MCP_ERR_PROTOCOL,
         "server \"%s\" requires a URL elicitation but listed none",
         op->s->cfg->name);
    return;
  }
  elicit_wait *w = xcalloc(1, sizeof *w);
  w->op = op;
  w->pending = 1; /* held until every request is out */
  w->all_accepted = true;
  op->elicit = w;
  const cJSON *e;
  bool unhandled = false;
  cJSON_ArrayForEach(e, list) {
    w->pending++;
    if (!features_local_request(op->s, "elicitation/create", e, on_elicited,
                                w)) {
      w->pending--;
      unhandled = true;
      break;
    }
  }
  if (unhandled) {
    /* Nothing will complete: say so plainly (answers still due free w). */
    w->op = NULL;
    op->elicit = NULL;
    if (--w->pending == 0) {
      free(w);
    }
    fail(op, MCP_ERR_PROTOCOL,
         "server \"%s\" requires a URL elicitation, and no plugin handles "
         "elicitation",
         op->s->cfg->name);
    return;
  }
  if (--w->pending == 0) {
    elicitations_done(w);
  }
}

/* ---- permission ---- */

/* Rules match the full normalized name, never a shortened one: a rule
 * must not depend on how long the other names are. */
static char *qualified_name(const mcp_op *op, const char *tool,
                            bool normalized) {
  /* Written in place: on every call, where a printf cost more than the
   * rest of deciding. */
  char *srv = name_normalize(server_name(op));
  char *t = normalized ? NULL : name_normalize(tool);
  const char *tp = t ? t : tool;
  size_t ns = strlen(srv), nt = strlen(tp);
  char *q = xmalloc(sizeof "mcp__" - 1 + ns + 2 + nt + 1);
  memcpy(q, "mcp__", 5);
  memcpy(q + 5, srv, ns);
  memcpy(q + 5 + ns, "__", 2);
  memcpy(q + 7 + ns, tp, nt + 1);
  free(srv);
  free(t);
  return q;
}

/* The verdict on `tool`; fills *q (new string) and, unless the verdict
 * is allow, *desc (new string; else NULL). */
static perm_verdict verdict(const mcp_op *op, const char *tool, bool normalized,
                            char **q, char **desc) {
  *q = qualified_name(op, tool, normalized);
  perm_verdict v = perm_decide(op->mc->h->cfg.perms, *q,
                               &op->mc->h->cfg.servers[op->call.server]);
  *desc = v.kind == PERM_ALLOW ? NULL : perm_describe(&v);
  return v;
}

static void on_ask_answer(void *token, bool allowed, const char *why) {
  mcp_op *op = token;
  op->asking = false;
  op->ask_handle = NULL;
  op->answered_at_once = true;
  if (op->finished) {
    return;
  }
  char *q, *desc;
  verdict(op, op->real, false, &q, &desc);
  if (!allowed) {
    fail(op, MCP_ERR_DENIED, "tool call refused: %s needs permission (%s): %s",
         q, desc, why ? why : "");
  } else {
    host_log(op->mc->h, MCPH_LOG_INFO, NULL, "%s: %s", q, why ? why : "");
    send_call(op);
  }
  free(q);
  free(desc);
}

/* The rules on the real name (the name given may be a shortened or
 * hashed alias that no rule names); "ask" goes to the asker. */
/* Whether normalizing `s` (names.h) leaves it as it is. */
static bool normal_name(const char *s) {
  for (; *s; s++) {
    if (!mcp_name_char((unsigned char)*s)) {
      return false;
    }
  }
  return true;
}

static void check_permission(mcp_op *op) {
  char *q, *desc;
  perm_verdict v;
  if (!op->call.qualified || (op->given_q && strcmp(op->real, op->name) == 0 &&
                              normal_name(op->real))) {
    /* The name given is the real one, or the mcp__ form of it that the
     * rules saw already: the verdict is known. */
    v = op->given;
    q = op->given_q;
    op->given_q = NULL;
    desc = v.kind == PERM_ALLOW ? NULL : perm_describe(&v);
  } else {
    v = verdict(op, op->real, false, &q, &desc);
  }
  if (v.kind == PERM_ALLOW) {
    free(q);
    send_call(op);
    return;
  }
  if (v.kind == PERM_DENY) {
    fail(op, MCP_ERR_DENIED, "tool call refused: %s: %s", q, desc);
  } else if (v.kind == PERM_ASK && !op->cb.asker) {
    fail(op, MCP_ERR_DENIED,
         "tool call refused: %s needs permission (%s) and there is no one "
         "to ask",
         q, desc);
  } else {
    if (!op->description) {
      /* A list at hand gives the question the tool's description. */
      const cJSON *tools = mcp_client_cached_tools(op->mc, op->call.server);
      const cJSON *t = tools ? find_named(op, tools) : NULL;
      const char *d = cJSON_GetStringValue(
          cJSON_GetObjectItemCaseSensitive(t, "description"));
      op->description = d ? xstrdup(d) : NULL;
    }
    char *args_text = op->args ? json_print(op->args) : NULL;
    mcp_ask a = {.tool = q,
                 .server = server_name(op),
                 .tool_name = op->real,
                 .arguments_json = args_text ? args_text : "{}",
                 .reason = desc,
                 .description = op->description};
    op->asking = true;
    op->answered_at_once = false;
    /* A refusal from inside start() ends (and frees) the op. */
    bool *outer = op->live, here = true;
    op->live = &here;
    void *handle = op->cb.asker->start(op->cb.asker->ud, &a, on_ask_answer, op);
    if (!here) {
      if (outer) {
        *outer = false;
      }
      cJSON_free(args_text);
      free(q);
      free(desc);
      return;
    }
    op->live = outer;
    if (!op->answered_at_once) {
      op->ask_handle = handle;
    }
    cJSON_free(args_text);
  }
  free(q);
  free(desc);
}

/* ---- resolving the name ---- */

/* The item of `items` that `want` names: an mcp__ item part (names.h:
 * shortened, de-duplicated) or the server's own name. Borrowed. */
static const cJSON *find_named(const mcp_op *op, const cJSON *items) {
  if (op->call.qualified) {
    return name_find_item(server_name(op), items, op->mc->opt.name_chars,
                          op->name);
  }
  const cJSON *it;
  cJSON_ArrayForEach(it, items) {
    const char *n =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
    if (n && strcmp(n, op->name) == 0) {
      return it;
    }
  }
  return NULL;
}

/* The description is not copied: only a question asking for permission
 * shows it, and takes it from the list then (check_permission). */
static void take_item(mcp_op *op, const cJSON *it) {
  free(op->real);
  op->real = xstrdup(
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name")));
  if (op->cb.resolved) {
    op->cb.resolved(op->cb.ud, it);
  }
}

/* " (did you mean ...)" with the server's closest tool or prompt names,
 * in the form the reference was given in; a new string ("" for none). */
static char *item_suggestions(const mcp_op *op, const cJSON *tools) {
  size_t n = 0;
  char **names = name_assign_items(server_name(op), tools,
                                   op->mc->opt.name_chars, &n);
  const char **shown = xcalloc(n ? n : 1, sizeof *shown);
  size_t prefix = 0;
  if (op->call.qualified && n > 0 && names[0]) {
    /* The reference's item part is matched against the assigned names'. */
    char *part = name_server_part(server_name(op), op->mc->opt.name_chars);
    prefix = strlen("mcp__") + strlen(part) + strlen("__");
    free(part);
  }
  for (size_t i = 0; i < n; i++) {
    const cJSON *it = cJSON_GetArrayItem(tools, (int)i);
    shown[i] = op->call.qualified
                   ? (names[i] && strlen(names[i]) >= prefix ? names[i] + prefix
                                                             : NULL)
                   : cJSON_GetStringValue(
                         cJSON_GetObjectItemCaseSensitive(it, "name"));
  }
  strbuf b;
  sb_init(&b);
  mcp_suggest(&b, op->name, shown, n);
  free(shown);
  name_list_free(names, n);
  return sb_take(&b);
}

/* Sets the words over the arguments by the tool's inputSchema (`tool`
 * NULL: no schema) and checks them when asked. Returns 0, or -1 having
 * finished the op with a usage error naming the parameter and showing
 * the signature. */
static int apply_schema(mcp_op *op, const cJSON *tool) {
  const cJSON *schema =
      cJSON_GetObjectItemCaseSensitive(tool, "inputSchema");
  char *why = NULL;
  int rc = 0;
  if (op->words) {
    cJSON *args = NULL;
    rc = mcp_args_build(schema, op->args, op->words,
                        op->call.check_arguments ? 0 : MCP_ARGS_LENIENT, &args,
                        &why);
    if (rc == 0) {
      cJSON_Delete(op->args);
      op->args = args;
    }
  }
  if (rc == 0 && tool && op->call.check_arguments) {
    cJSON *empty = op->args ? NULL : cJSON_CreateObject();
    rc = mcp_args_check(schema, op->args ? op->args : empty, &why);
    cJSON_Delete(empty);
  }
  if (rc == 0) {
    return 0;
  }
  char *q = name_qualify(server_name(op), op->real);
  char *sig = tool ? mcp_tool_signature(q, tool) : NULL;
  fail(op, MCP_ERR_USAGE, "tool \"%s\": %s%s%s", q, why,
       sig ? "\nusage: " : "", sig ? sig : "");
  free(sig);
  free(q);
  free(why);
  return -1;
}

static void on_tools(mcp_waiter *w, session *s) {
  mcp_op *op = (mcp_op *)((char *)w - offsetof(mcp_op, w));
  const cJSON *tools = mcp_client_cached_tools(op->mc, op->call.server);
  if (!tools && !op->call.qualified && s && s->state == SESS_READY &&
      op->call.kind == MCP_OP_CALL_TOOL) {
    /* SERVER/TOOL needs no list: without one, no schema. */
    op->real = xstrdup(op->name);
    if (apply_schema(op, NULL) == 0) {
      check_permission(op);
    }
    return;
  }
  if (!tools) {
    const char *why = mcp_client_tools_error(op->mc, op->call.server);
    /* A listing refused for want of authorization is needs-auth. */
    fail(op, s && s->fail == FAIL_AUTH ? MCP_ERR_AUTH : MCP_ERR_PROTOCOL, "%s",
         why ? why : "tools/list failed");
    return;
  }
  const cJSON *t = find_named(op, tools);
  if (t && op->call.kind == MCP_OP_FIND_TOOL) {
    take_item(op, t);
    finish(op, cJSON_Duplicate(t, 1), NULL);
    return;
  }
  if (!t && !op->call.qualified && op->call.kind == MCP_OP_CALL_TOOL &&
      !op->call.task && !op->call.detach) {
    /* SERVER/TOOL of a tool not listed: called as named, its words by the
     * rule without a schema. */
    op->real = xstrdup(op->name);
    if (apply_schema(op, NULL) == 0) {
      check_permission(op);
    }
    return;
  }
  if (!t) {
    char *hint = item_suggestions(op, tools);
    fail(op, MCP_ERR_NOT_FOUND, "server \"%s\" has no tool named \"%s\"%s",
         s->cfg->name, op->name, hint);
    free(hint);
    return;
  }
  take_item(op, t);
  if (apply_schema(op, t) != 0) {
    return;
  }
  char *why = NULL;
  int wanted = task_wanted(s, t, op->call.task || op->call.detach, &why);
  if (wanted < 0) {
    fail(op, MCP_ERR_USAGE, "%s", why);
    free(why);
    return;
  }
  op->tasked = wanted == 1;
  check_permission(op);
}

static void send_prompt(mcp_op *op) {
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "name", op->real);
  add_arguments(op, params);
  send_request(op, "prompts/get", params);
}

static void on_prompts(void *ud, session *s, cJSON *items, const char *error) {
  mcp_op *op = ud;
  if (listing_cancelled(op, items)) {
    return;
  }
  if (error) {
    fail(op, MCP_ERR_PROTOCOL, "%s", error);
    return;
  }
  const cJSON *p = find_named(op, items);
  if (!p) {
    char *hint = item_suggestions(op, items);
    cJSON_Delete(items);
    fail(op, MCP_ERR_NOT_FOUND, "server \"%s\" has no prompt named \"%s\"%s",
         s->cfg->name, op->name, hint);
    free(hint);
    return;
  }
  take_item(op, p);
  if (op->call.kind == MCP_OP_FIND_PROMPT) {
    cJSON *found = cJSON_Duplicate(p, 1);
    cJSON_Delete(items);
    finish(op, found, NULL);
    return;
  }
  cJSON_Delete(items);
  send_prompt(op);
}

static void on_listed(void *ud, session *s, cJSON *items, const char *error) {
  (void)s;
  mcp_op *op = ud;
  if (listing_cancelled(op, items)) {
    return;
  }
  if (error) {
    fail(op, MCP_ERR_PROTOCOL, "%s", error);
    return;
  }
  cJSON *result = cJSON_CreateObject();
  cJSON_AddItemToObject(result, op->name, items);
  finish(op, result, NULL);
}

/* What MCP_OP_LIST lists: the result key names the kind. */
typedef struct list_kind {
  const char *key, *method, *capability;
} list_kind;

static const list_kind *list_kind_of(const char *key) {
  static const list_kind kinds[] = {
      {"tools", "tools/list", "tools"},
      {"resources", "resources/list", "resources"},
      {"resourceTemplates", "resources/templates/list", "resources"},
      {"prompts", "prompts/list", "prompts"},
      {"tasks", "tasks/list", "tasks"},
  };
  for (size_t i = 0; key && i < sizeof kinds / sizeof kinds[0]; i++) {
    if (strcmp(kinds[i].key, key) == 0) {
      return &kinds[i];
    }
  }
  return NULL;
}

static void on_connected(mcp_waiter *w, session *s) {
  mcp_op *op = (mcp_op *)((char *)w - offsetof(mcp_op, w));
  op->s = s;
  if (s->state != SESS_READY) {
    fail(op, mcp_error_kind_of_session(s), "server \"%s\" failed: %s",
         s->cfg->name, s->error ? s->error : "not connected");
    return;
  }
  switch (op->call.kind) {
  case MCP_OP_CALL_TOOL: {
    if (op->call.qualified) {
      /* The mcp__ form is normalized: the list gives the real name. */
      op->w.ready = on_tools;
      mcp_client_want_tools(op->mc, op->call.server, &op->w);
      return;
    }
    if (op->words || op->call.check_arguments || op->call.task ||
        op->call.detach || session_has_capability(s, "tasks")) {
      /* The schema, when the server lists the tool, gives the types; the
       * tool's execution member whether it runs as a task. */
      op->w.ready = on_tools;
      mcp_client_want_tools(op->mc, op->call.server, &op->w);
      return;
    }
    /* The server's own name: called as it is (a server may take a tool
     * it does not list). */
    op->real = xstrdup(op->name);
    check_permission(op);
    return;
  }
  case MCP_OP_FIND_TOOL:
    op->w.ready = on_tools;
    mcp_client_want_tools(op->mc, op->call.server, &op->w);
    return;
  case MCP_OP_TASK_RESULT: {
    cJSON *task = cJSON_CreateObject();
    cJSON_AddStringToObject(task, "taskId", op->name);
    follow_task(op, task, 0);
    cJSON_Delete(task);
    return;
  }
  case MCP_OP_GET_PROMPT:
    if (op->call.resolved) {
      op->real = xstrdup(op->name);
      send_prompt(op);
      return;
    }
    /* fall through */
  case MCP_OP_FIND_PROMPT:
    op->request_id = LISTING;
    session_list(s, "prompts/list", "prompts", op->mc->opt.request_timeout_ms,
                 on_prompts, op);
    return;
  case MCP_OP_LIST: {
    const list_kind *k = list_kind_of(op->name);
    if (!k) {
      fail(op, MCP_ERR_USAGE,
           "cannot list \"%s\": tools, resources, resourceTemplates, "
           "prompts or tasks",
           op->name);
      return;
    }
    if (op->call.if_declared && !session_has_capability(s, k->capability)) {
      cJSON *result = cJSON_CreateObject();
      cJSON_AddNullToObject(result, op->name);
      finish(op, result, NULL);
      return;
    }
    op->request_id = LISTING;
    session_list(s, k->method, op->name, op->mc->opt.request_timeout_ms,
                 on_listed, op);
    return;
  }
  case MCP_OP_READ: {
    cJSON *params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "uri", op->name);
    send_request(op, "resources/read", params);
    return;
  }
  case MCP_OP_REQUEST:
    send_request(op, op->method,
                 op->args ? cJSON_Duplicate(op->args, 1) : NULL);
    return;
  }
}

mcp_op *mcp_client_start(mcp_client *mc, const mcp_call *call,
                         const mcp_call_callbacks *cb) {
  mcp_op *op = xcalloc(1, sizeof *op);
  op->mc = mc;
  op->call = *call;
  op->cb = *cb;
  op->name = call->name ? xstrdup(call->name) : NULL;
  op->method = call->method ? xstrdup(call->method) : NULL;
  op->args = call->arguments_taken ? call->arguments_taken
             : call->arguments     ? cJSON_Duplicate(call->arguments, 1)
                                   : NULL;
  op->words = call->words ? cJSON_Duplicate(call->words, 1) : NULL;
  op->call.words = NULL;
  op->call.arguments_taken = NULL;
  op->call.name = op->name;
  op->call.method = op->method;
  op->call.arguments = NULL;
  op->w.ready = on_connected;
  mcp_client_track(mc, op);
  const server_config *sc = &mc->h->cfg.servers[call->server];
  if (sc->state != SERVER_ACTIVE) {
    mcp_error e = {0};
    mcp_error_set(&e, MCP_ERR_DENIED, sc->name, "server \"%s\" is %s: %s",
                  sc->name, server_state_name(sc),
                  sc->reason ? sc->reason : "");
    finish(op, NULL, &e);
    return NULL;
  }
  if (call->kind == MCP_OP_CALL_TOOL) {
    /* A denied tool never even starts its server. */
    char *desc;
    op->given = verdict(op, op->name, call->qualified, &op->given_q, &desc);
    if (op->given.kind == PERM_DENY) {
      mcp_error e = {0};
      mcp_error_set(&e, MCP_ERR_DENIED, sc->name, "tool call refused: %s: %s",
                    op->given_q, desc);
      free(desc);
      finish(op, NULL, &e);
      return NULL;
    }
    free(desc);
  }
  /* `done` may run inside. */
  bool live = true;
  op->live = &live;
  mcp_client_use(mc, call->server, &op->w);
  if (!live) {
    return NULL;
  }
  op->live = NULL;
  return op;
}

void mcp_op_cancel(mcp_op *op) {
  if (op->finished) {
    return;
  }
  op->cancelled = true;
  if (op->follow) {
    /* A call's task is cancelled on the server; a task resumed with
     * TASK_RESULT was left running on purpose, and stays so. */
    bool cancel = op->call.kind == MCP_OP_CALL_TOOL;
    char *id = xstrdup(task_follow_id(op->follow));
    task_follow_stop(op->follow, cancel);
    op->follow = NULL;
    mcp_error e = {0};
    mcp_error_set(&e, MCP_ERR_INTERRUPTED, server_name(op),
                  "server \"%s\": task %s interrupted%s", server_name(op), id,
                  cancel ? "; tasks/cancel sent" : " (it keeps running)");
    free(id);
    finish(op, NULL, &e);
    return;
  }
  if (op->request_id > 0 && op->s) {
    session_cancel(op->s, op->request_id, "interrupted by the user");
    return; /* on_answer finishes it */
  }
  mcp_error e = {0};
  const char *name = server_name(op);
  if (op->asking) {
    op->asking = false;
    if (op->cb.asker->cancel && op->ask_handle) {
      op->cb.asker->cancel(op->cb.asker->ud, op->ask_handle);
    }
    char *q = qualified_name(op, op->real, false);
    mcp_error_set(&e, MCP_ERR_INTERRUPTED, name,
                  "tool call of %s: interrupted while asking for permission",
                  q);
    free(q);
  } else if (op->elicit || op->url_waiting) {
    if (op->elicit) {
      op->elicit->op = NULL; /* its answers end without the op */
      op->elicit = NULL;
    }
    url_wait_stop(op);
    mcp_error_set(&e, MCP_ERR_INTERRUPTED, name,
                  "%s: interrupted during a URL elicitation", op_method(op));
  } else {
    mcp_error_set(&e, MCP_ERR_INTERRUPTED, name, "server \"%s\": interrupted",
                  name);
  }
  if (op->request_id == LISTING) {
    /* The listing's callback still comes, and frees the op. */
    op->finished = true;
    if (op->live) {
      *op->live = false;
    }
    mcp_client_unwait(op->mc, &op->w);
    mcp_client_untrack(op->mc, op);
    op->cb.done(op->cb.ud, NULL, &e);
    mcp_error_clear(&e);
    return;
  }
  finish(op, NULL, &e);
}
