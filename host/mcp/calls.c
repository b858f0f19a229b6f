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
#include "mcp/calls_internal.h"
#include "mcp/jsonrpc.h"
#include "mcp/names.h"
#include "mcp/signature.h"
#include "suggest.h"
#include "mcp/tasks.h"
#include "mcp_name.h"
#include "mcp_tool.h"
#include "json_write.h"
#include "safety/sanitize.h"

#define CALL_ATTEMPTS 3

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

/* The real name is most often the name given: then it is that string,
 * not a copy. */
static void real_free(mcp_op *op) {
  if (op->real != op->name) {
    free(op->real);
  }
  op->real = NULL;
}

/* The op's held answer, allocated when first used. */
static op_held *held_of(mcp_op *op) {
  if (!op->held) {
    op->held = xcalloc(1, sizeof *op->held);
  }
  return op->held;
}

/* The held answer's error, moved to `e` ({0} when none), and the rest
 * of it freed. */
static void held_drop(mcp_op *op, mcp_error *e) {
  if (!op->held) {
    return;
  }
  if (e) {
    mcp_error_move(e, &op->held->err);
  }
  cJSON_Delete(op->held->result);
  mcp_error_clear(&op->held->err);
  free(op->held);
  op->held = NULL;
}

void mcp_op_free(mcp_op *op) {
  mcp_op_url_wait_stop(op);
  mcp_op_url_ids_clear(op);
  free(op->url);
  held_drop(op, NULL);
  real_free(op);
  free(op->name);
  free(op->method);
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
  op->args_text = NULL; /* the caller's, until done */
  if (op->live) {
    *op->live = false;
  }
  mcp_op_url_wait_stop(op);
  mcp_client_unwait(op->mc, &op->w);
  mcp_client_untrack(op->mc, op);
  op->cb.done(op->cb.ud, result, err);
  if (err) {
    mcp_error_clear(err);
  }
  if (!mcp_op_elicit(op)) { /* else freed when the elicitations end */
    mcp_op_free(op);
  }
}

void mcp_op_fail(mcp_op *op, mcp_error_kind kind, const char *fmt, ...) {
  mcp_error e = {0};
  va_list ap;
  va_start(ap, fmt);
  /* The server named even before a session is at hand (a listing that
   * has not the item): a --json error says which server it was. */
  const config *cfg = &op->mc->h->cfg;
  const char *server = op->s ? op->s->cfg->name
                       : op->call.server < cfg->nservers
                           ? mcp_op_server_name(op)
                           : NULL;
  mcp_error_vset(&e, kind, server, fmt, ap);
  va_end(ap);
  finish(op, NULL, &e);
}

const char *mcp_op_server_name(const mcp_op *op) {
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

static char *item_suggestions(const mcp_op *op, const cJSON *tools);

/* Whether the answer to a SERVER/TOOL call may say the tool does not
 * exist: a JSON-RPC "not found", or an isError result (the SDKs answer an
 * unknown tool so); a raw result (json_raw.h) says so by its flags. */
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
    return rpc_raw_has(result, RPC_RAW_IS_ERROR);
  }
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"));
}

static void on_confirm(mcp_waiter *w, session *s) {
  mcp_op *op = (mcp_op *)((char *)w - offsetof(mcp_op, w));
  const cJSON *tools = mcp_client_cached_tools(op->mc, op->call.server);
  if (tools && !mcp_op_find_named(op, tools)) {
    held_drop(op, NULL);
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
  cJSON *result = op->held ? op->held->result : NULL;
  if (result) {
    op->held->result = NULL;
    held_drop(op, NULL);
    finish(op, result, NULL);
    return;
  }
  mcp_error e = {0};
  held_drop(op, &e);
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
  if (!mcp_op_elicit(op)) {
    mcp_op_free(op);
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
  held_drop(op, &e);
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
      held_of(op)->result = result;
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
    mcp_op_url_ids_set(op, data);
    mcp_op_run_elicitations(op, data);
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
    mcp_error_move(&held_of(op)->err, &e);
    confirm(op);
    return;
  }
  if (op->call.kind == MCP_OP_READ && e.kind == MCP_ERR_NOT_FOUND &&
      session_has_capability(op->s, "resources")) {
    mcp_error_move(&held_of(op)->err, &e);
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
    mcp_op_fail(op,
                op->s->state == SESS_READY ? MCP_ERR_PROTOCOL
                                           : mcp_error_kind_of_session(op->s),
                "%s", why);
    return;
  }
  if (!op->finished) {
    op->request_id = id;
  }
}

/* The arguments go by reference: the op keeps them for a call again.
 * An object's reference under a constant key copies nothing (the
 * request's tree is written and deleted at once, the op outlives it). */
static void add_arguments(const mcp_op *op, cJSON *params) {
  const char *text = op->args_text;
  if (text && cJSON_IsObject(op->args) && !strchr(text, '\n') &&
      !strchr(text, '\xC0')) {
    /* The text the tree was read from, by reference: a raw item
     * (cJSON_Delete leaves a reference's string alone). */
    cJSON *raw = cJSON_CreateNull();
    if (!raw) {
      abort();
    }
    raw->type = cJSON_Raw | cJSON_IsReference;
    raw->valuestring = (char *)text;
    cJSON_AddItemToObjectCS(params, "arguments", raw);
  } else if (cJSON_IsObject(op->args)) {
    cJSON_AddItemToObjectCS(params, "arguments",
                            cJSON_CreateObjectReference(op->args->child));
  } else if (op->args) {
    cJSON_AddItemReferenceToObject(params, "arguments", op->args);
  } else {
    cJSON_AddItemToObject(params, "arguments", cJSON_CreateObject());
  }
}

void mcp_op_send_call(mcp_op *op) {
  if (op->attempt++ == 0) {
    op->call_started_ms = loop_now_ms();
  }
  cJSON *params = cJSON_CreateObject();
  cJSON_AddItemToObjectCS(params, "name",
                          cJSON_CreateStringReference(op->real));
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

/* ---- resolving the name ---- */

/* The item of `items` that `want` names: an mcp__ item part (names.h:
 * shortened, de-duplicated) or the server's own name. Borrowed. */
static const cJSON *find_named(const mcp_op *op, const cJSON *items) {
  if (op->call.qualified) {
    return name_find_item(mcp_op_server_name(op), items, op->mc->opt.name_chars,
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

/* In the server's cached tool list, the item last found is remembered
 * with the name that found it (client_slot.found). */
const cJSON *mcp_op_find_named(const mcp_op *op, const cJSON *items) {
  mcp_client *mc = op->mc;
  size_t idx = op->call.server;
  client_slot *slot = mc->slots && idx < mc->nslots ? &mc->slots[idx] : NULL;
  if (!slot || !items || items != slot->tools || !op->name) {
    return find_named(op, items);
  }
  if (slot->found && slot->found_qualified == op->call.qualified &&
      strcmp(slot->found_name, op->name) == 0) {
    return slot->found;
  }
  const cJSON *it = find_named(op, items);
  if (it) {
    free(slot->found_name);
    slot->found_name = xstrdup(op->name);
    slot->found_qualified = op->call.qualified;
    slot->found = it;
    slot->found_real =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
    slot->found_schema = cJSON_GetObjectItemCaseSensitive(it, "inputSchema");
    slot->found_support = mcp_tool_task_support(it);
  }
  return it;
}

/* The server's memo when `it` is the tool item it holds, else NULL. */
static const client_slot *memo_of(const mcp_op *op, const cJSON *it) {
  const mcp_client *mc = op->mc;
  size_t idx = op->call.server;
  const client_slot *slot =
      mc->slots && idx < mc->nslots ? &mc->slots[idx] : NULL;
  return it && slot && slot->found == it ? slot : NULL;
}

/* The description is not copied: only a question asking for permission
 * shows it, and takes it from the list then (check_permission). */
static void take_item(mcp_op *op, const cJSON *it) {
  real_free(op);
  const client_slot *memo = memo_of(op, it);
  const char *real =
      memo ? memo->found_real
           : cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
  op->real = real && op->name && strcmp(real, op->name) == 0 ? op->name
                                                             : xstrdup(real);
  if (op->cb.resolved) {
    op->cb.resolved(op->cb.ud, it);
  }
}

/* " (did you mean ...)" with the server's closest tool or prompt names,
 * in the form the reference was given in; a new string ("" for none). */
static char *item_suggestions(const mcp_op *op, const cJSON *tools) {
  size_t n = 0;
  char **names = name_assign_items(mcp_op_server_name(op), tools,
                                   op->mc->opt.name_chars, &n);
  const char **shown = xcalloc(n ? n : 1, sizeof *shown);
  size_t prefix = 0;
  if (op->call.qualified && n > 0 && names[0]) {
    /* The reference's item part is matched against the assigned names'. */
    char *part =
        name_server_part(mcp_op_server_name(op), op->mc->opt.name_chars);
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
  const client_slot *memo = memo_of(op, tool);
  const cJSON *schema =
      memo ? memo->found_schema
           : cJSON_GetObjectItemCaseSensitive(tool, "inputSchema");
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
      op->args_text = NULL; /* no longer the text's tree */
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
  char *q = name_qualify(mcp_op_server_name(op), op->real);
  char *sig = tool ? mcp_tool_signature(q, tool) : NULL;
  mcp_op_fail(op, MCP_ERR_USAGE, "tool \"%s\": %s%s%s", q, why,
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
    op->real = op->name;
    if (apply_schema(op, NULL) == 0) {
      mcp_op_check_permission(op);
    }
    return;
  }
  if (!tools) {
    const char *why = mcp_client_tools_error(op->mc, op->call.server);
    /* A listing refused for want of authorization is needs-auth. */
    mcp_op_fail(op, s && s->fail == FAIL_AUTH ? MCP_ERR_AUTH : MCP_ERR_PROTOCOL,
                "%s", why ? why : "tools/list failed");
    return;
  }
  const cJSON *t = mcp_op_find_named(op, tools);
  if (t && op->call.kind == MCP_OP_FIND_TOOL) {
    take_item(op, t);
    finish(op, cJSON_Duplicate(t, 1), NULL);
    return;
  }
  if (!t && !op->call.qualified && op->call.kind == MCP_OP_CALL_TOOL &&
      !op->call.task && !op->call.detach) {
    /* SERVER/TOOL of a tool not listed: called as named, its words by the
     * rule without a schema. */
    op->real = op->name;
    if (apply_schema(op, NULL) == 0) {
      mcp_op_check_permission(op);
    }
    return;
  }
  if (!t) {
    char *hint = item_suggestions(op, tools);
    mcp_op_fail(op, MCP_ERR_NOT_FOUND,
                "server \"%s\" has no tool named \"%s\"%s", s->cfg->name,
                op->name, hint);
    free(hint);
    return;
  }
  take_item(op, t);
  if (apply_schema(op, t) != 0) {
    return;
  }
  char *why = NULL;
  const client_slot *memo = memo_of(op, t);
  int wanted = task_wanted(
      s, t, memo ? memo->found_support : mcp_tool_task_support(t),
      op->call.task || op->call.detach, &why);
  if (wanted < 0) {
    mcp_op_fail(op, MCP_ERR_USAGE, "%s", why);
    free(why);
    return;
  }
  op->tasked = wanted == 1;
  mcp_op_check_permission(op);
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
    mcp_op_fail(op, MCP_ERR_PROTOCOL, "%s", error);
    return;
  }
  const cJSON *p = mcp_op_find_named(op, items);
  if (!p) {
    char *hint = item_suggestions(op, items);
    cJSON_Delete(items);
    mcp_op_fail(op, MCP_ERR_NOT_FOUND,
                "server \"%s\" has no prompt named \"%s\"%s", s->cfg->name,
                op->name, hint);
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
    mcp_op_fail(op, MCP_ERR_PROTOCOL, "%s", error);
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
    mcp_op_fail(op, mcp_error_kind_of_session(s), "server \"%s\" failed: %s",
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
    op->real = op->name;
    mcp_op_check_permission(op);
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
      op->real = op->name;
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
      mcp_op_fail(op, MCP_ERR_USAGE,
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
  op->name = call->name_taken ? (char *)call->name
             : call->name     ? xstrdup(call->name)
                              : NULL;
  op->method = call->method ? xstrdup(call->method) : NULL;
  op->args = call->arguments_taken ? call->arguments_taken
             : call->arguments     ? cJSON_Duplicate(call->arguments, 1)
                                   : NULL;
  op->args_text = call->arguments_taken ? call->arguments_text : NULL;
  op->words = call->words ? cJSON_Duplicate(call->words, 1) : NULL;
  op->call.words = NULL;
  op->call.arguments_taken = NULL;
  op->call.arguments_text = NULL;
  op->call.name_taken = false;
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
    op->given =
        mcp_op_verdict(op, op->name, call->qualified, &op->given_q, &desc);
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
    mcp_error_set(&e, MCP_ERR_INTERRUPTED, mcp_op_server_name(op),
                  "server \"%s\": task %s interrupted%s",
                  mcp_op_server_name(op), id,
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
  const char *name = mcp_op_server_name(op);
  if (op->asking) {
    op->asking = false;
    if (op->cb.asker->cancel && op->ask_handle) {
      op->cb.asker->cancel(op->cb.asker->ud, op->ask_handle);
    }
    char *q = mcp_op_qualified_name(op, op->real, false);
    mcp_error_set(&e, MCP_ERR_INTERRUPTED, name,
                  "tool call of %s: interrupted while asking for permission",
                  q);
    free(q);
  } else if (mcp_op_elicit(op) || op->url_waiting) {
    if (mcp_op_elicit(op)) {
      op->url->elicit->op = NULL; /* its answers end without the op */
      op->url->elicit = NULL;
    }
    mcp_op_url_wait_stop(op);
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
