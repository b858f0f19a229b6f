/* mcphost serve --stdio: the gateway (serve.h, docs/gateway.md).
 *
 * Life of a gateway: the backends are chosen (--server NAME..., else
 * every server that may start); JSON-RPC lines are read on stdin and
 * answered on stdout as they complete. Each request the client makes
 * becomes one operation of the client library's pipeline (mcp/calls.h),
 * as `call`, `read`, `prompt` and the lists make them: backends connect
 * on first use, policy and permission rules apply (an "ask" goes to
 * --allow, then to the client as an elicitation when it declared it, or
 * is refused), results are sanitized by the sessions and cut as `call`
 * cuts them. Progress, cancellation, logging, resource updates and
 * list_changed are forwarded (serve_backends.c, with the permission
 * asker and the backends' own requests). The end of stdin ends the
 * gateway. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/client.h>
#include <mcphost/rpc.h>

#include "cli/frontend.h"
#include "gateway/serve.h"
#include "gateway/serve_internal.h"
#include "json_parse.h"
#include "json_write.h"
#include "redact.h"
#include "util.h"

/* ---- messages to the client (its framing's send) ---- */

void gw_send(gw *g, cJSON *msg, const cJSON *req) {
  g->send(g->send_ud, msg, req);
}

static void send_result(gw *g, const cJSON *id, cJSON *result) {
  cJSON *m = gw_msg_new();
  cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, 1));
  cJSON_AddItemToObject(m, "result", result ? result : cJSON_CreateObject());
  gw_send(g, m, id);
}

cJSON *gw_msg_error(const cJSON *id, int code, const char *message,
                    cJSON *data) {
  cJSON *m = gw_msg_new();
  cJSON_AddItemToObject(m, "id",
                        id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
  cJSON *e = cJSON_AddObjectToObject(m, "error");
  cJSON_AddNumberToObject(e, "code", code);
  char *safe = redact(message ? message : "");
  cJSON_AddStringToObject(e, "message", safe);
  free(safe);
  if (data) {
    cJSON_AddItemToObject(e, "data", data);
  }
  return m;
}

void gw_send_error(gw *g, const cJSON *id, int code, const char *message,
                   cJSON *data) {
  gw_send(g, gw_msg_error(id, code, message, data), id);
}

/* A notification; `req` as for gw_send_fn. */
void gw_send_notification(gw *g, const char *method, cJSON *params,
                          const cJSON *req) {
  cJSON *m = gw_msg_new();
  cJSON_AddStringToObject(m, "method", method);
  if (params) {
    cJSON_AddItemToObject(m, "params", params);
  }
  gw_send(g, m, req);
}

/* The library's error as a JSON-RPC error: a backend's own error passes
 * with its code and data (`data_json`, JSON text, or NULL); the rest say
 * their kind and server in data. */
static void send_api_error(gw *g, const rq *r, const mcphost_error *e,
                           const char *data_json) {
  if (e->code == MCPHOST_EPROTOCOL && e->rpc_code) {
    /* A legacy backend's "not found" is 2026-07-28's invalid params. */
    bool gone = r->modern && e->rpc_code == MCPH_RPC_RESOURCE_NOT_FOUND;
    gw_send_error(g, r->id, gone ? MCPH_RPC_INVALID_PARAMS : e->rpc_code,
                  e->message_long ? e->message_long : e->message,
                  data_json ? json_parse(data_json, strlen(data_json), NULL)
                            : NULL);
    return;
  }
  int code = MCPH_RPC_INTERNAL_ERROR;
  if (e->code == MCPHOST_EUSAGE) {
    code = MCPH_RPC_INVALID_PARAMS;
  } else if (e->code == MCPHOST_ENOTFOUND) {
    code = r->resource && !r->modern ? MCPH_RPC_RESOURCE_NOT_FOUND
                                     : MCPH_RPC_INVALID_PARAMS;
  }
  cJSON *data = cJSON_CreateObject();
  cJSON_AddStringToObject(data, "kind", mcphost_status_kind(e->code));
  if (e->server[0]) {
    cJSON_AddStringToObject(data, "server", e->server);
  }
  gw_send_error(g, r->id, code, e->message, data);
}

/* An error of the gateway's own of status `code` for `r`. */
static void send_own_error(gw *g, const rq *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void send_own_error(gw *g, const rq *r, int code, const char *fmt, ...) {
  mcphost_error e = MCPHOST_ERROR_INIT;
  e.code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e.message, sizeof e.message, fmt, ap);
  va_end(ap);
  send_api_error(g, r, &e, NULL);
}

/* ---- requests in flight ---- */

static rq *rq_new(gw *g, const cJSON *id, const cJSON *params) {
  rq *r = xcalloc(1, sizeof *r);
  r->g = g;
  r->log_level = -1;
  r->id = cJSON_Duplicate(id, 1);
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(params, "_meta"), "progressToken");
  if (cJSON_IsString(tok) || cJSON_IsNumber(tok)) {
    r->token = cJSON_Duplicate(tok, 1);
  }
  r->seq = ++g->hub->next_seq;
  r->next = g->reqs;
  g->reqs = r;
  return r;
}

void gw_rq_free(rq *r) {
  for (rq **p = &r->g->reqs; *p; p = &(*p)->next) {
    if (*p == r) {
      *p = r->next;
      break;
    }
  }
  if (r->park) { /* it ended parked: the park keeps its answer */
    gw_mrtr_rq_gone(r);
  }
  cJSON_Delete(r->id);
  cJSON_Delete(r->token);
  cJSON_Delete(r->items);
  cJSON_Delete(r->init);
  for (size_t k = 0; k < r->nwaits; k++) {
    if (r->waits[k] && !r->waits[k]->starting) {
      if (r->waits[k]->op) { /* its `done` (cancelled) frees it */
        r->waits[k]->r = NULL;
        mcphost_cancel_now(cli_api(r->g->c), r->waits[k]->op);
      } else {
        free(r->waits[k]);
      }
    }
  }
  free(r->waits);
  free(r->mrtr_method);
  cJSON_Delete(r->mrtr_params);
  free(r->then_method);
  cJSON_Delete(r->then_params);
  free(r);
}

static void check_done(gw *g) {
  if (g->ending && !g->reqs && g->drained) {
    void (*drained)(void *) = g->drained;
    g->drained = NULL;
    drained(g->send_ud);
  }
}

void gw_rq_move(rq *r, gw *to) {
  gw *from = r->g;
  for (rq **p = &from->reqs; *p; p = &(*p)->next) {
    if (*p == r) {
      *p = r->next;
      break;
    }
  }
  r->g = to;
  r->next = to->reqs;
  to->reqs = r;
  check_done(from);
}

/* The end of a single operation's request. */
static void rq_end(rq *r) {
  gw *g = r->g;
  r->op = 0;
  if (r->starting) {
    r->finished = true;
    return;
  }
  gw_rq_free(r);
  check_done(g);
}

/* A request's result (taken), as its era has it. */
static void send_rq_result(rq *r, cJSON *result) {
  if (r->modern) {
    gw_modern_result(result, r->cacheable);
  }
  send_result(r->g, r->id, result);
}

static void on_done(void *ud, const char *result_json, size_t len,
                    const mcphost_error *err) {
  rq *r = ud;
  if (!r->cancelled) {
    if (err) {
      send_api_error(r->g, r, err, result_json);
    } else {
      cJSON *result = json_parse(result_json, len, NULL);
      if (r->cut) {
        out_cut_result(r->g->c, result);
      }
      send_rq_result(r, result);
    }
  }
  rq_end(r);
}

/* A backend's progress goes to the client under the client's token. */
static void on_progress(void *ud, const char *params_json) {
  rq *r = ud;
  if (!r->token || r->cancelled) {
    return;
  }
  cJSON *p = json_parse(params_json, strlen(params_json), NULL);
  if (!cJSON_IsObject(p)) {
    cJSON_Delete(p);
    return;
  }
  cJSON_ReplaceItemInObjectCaseSensitive(p, "progressToken",
                                         cJSON_Duplicate(r->token, 1));
  gw_send_notification(r->g, "notifications/progress", p, r->id);
}

/* Starts `r`'s operation `q` on backend `idx`, with `args` (may be NULL)
 * as its arguments. */
static void start_op(rq *r, size_t idx, mcphost_request *q, const cJSON *args) {
  gw *g = r->g;
  /* What leaves the gateway goes to a model: its results are sanitized
   * as such, unless --sanitize display or off asked for them as sent.
   * It begins now, in the order of the client's requests; a tool's
   * arguments go as the client sent them, unchecked. */
  int mode = (int)cli_option_value(g->c, "sanitize");
  q->flags |= MCPHOST_REQUEST_NOW | MCPHOST_REQUEST_ERROR_DATA |
              MCPHOST_REQUEST_NO_CHECK;
  if (mode == MCPHOST_SANITIZE_DEFAULT || mode == MCPHOST_SANITIZE_FULL) {
    q->flags |= MCPHOST_REQUEST_FOR_MODEL;
  }
  strbuf text;
  sb_init(&text);
  if (args && json_write(&text, args) == 0) {
    q->arguments = sb_str(&text);
  }
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.progress = on_progress;
  cb.done = on_done;
  cb.ud = r;
  mcphost_error err = MCPHOST_ERROR_INIT;
  r->op_idx = idx;
  r->starting = true;
  int64_t op = mcphost_start(cli_api(g->c), q, &cb, &err);
  r->starting = false;
  sb_free(&text);
  if (op < 0) {
    send_api_error(g, r, &err, NULL);
    r->finished = true;
  }
  if (r->finished) {
    gw_rq_free(r);
    check_done(g);
    return;
  }
  r->op = op;
}

/* ---- lists: every backend's, gathered ---- */

static void do_resource(gw *g, rq *r, const char *method, const cJSON *params);
static void list_looked(rq *r);

static void list_part_done(rq_part *part) {
  rq *r = part->r;
  for (rq_part **p = &r->parts; *p; p = &(*p)->next) {
    if (*p == part) {
      *p = part->next;
      break;
    }
  }
  part->r = NULL; /* its starter sees it ended */
  if (!part->starting) {
    free(part);
  }
  if (--r->pending > 0) {
    return;
  }
  if (r->then) {
    list_looked(r);
    return;
  }
  if (!r->cancelled) {
    cJSON *res = cJSON_CreateObject();
    cJSON_AddItemToObject(res, r->kind, r->items);
    r->items = NULL;
    r->g->listed |= gw_list_bit(r->kind);
    send_rq_result(r, res);
  }
  gw *g = r->g;
  gw_rq_free(r);
  check_done(g);
}

static void on_list_part(void *ud, const char *result_json, size_t len,
                         const mcphost_error *err) {
  rq_part *part = ud;
  if (!part->r) { /* cancelled when its client went away */
    free(part);
    return;
  }
  gw_hub *hub = part->r->g->hub;
  size_t idx = hub->b.idx[part->k];
  hub->listing[part->k]--;
  /* What the client is told now includes this backend or not. */
  hub->ready[part->k] = gw_state(hub->c, idx).connected != 0;
  if (!err && !part->r->cancelled) {
    cJSON *result = json_parse(result_json, len, NULL);
    gw_items_add(&hub->b, part->k, part->r->kind, result, part->r->items);
    cJSON_Delete(result);
  } else if (err && !part->r->cancelled) {
    /* A backend that fails is left out of the list, and said on stderr. */
    cli_error(hub->c, mcphost_server_name(cli_api(hub->c), idx), "%s",
              err->message);
  }
  part->op = 0;
  list_part_done(part);
}

/* The capability a list kind needs (MCPHOST_CAP_*): templates are
 * resources'. */
static uint32_t list_capability(const char *kind) {
  return strcmp(kind, "tools") == 0     ? MCPHOST_CAP_TOOLS
         : strcmp(kind, "prompts") == 0 ? MCPHOST_CAP_PROMPTS
                                        : MCPHOST_CAP_RESOURCES;
}

static void start_list(gw *g, rq *r, const char *kind) {
  r->kind = kind;
  r->items = cJSON_CreateArray();
  r->pending = 1; /* held until every part is out */
  for (size_t k = 0; k < g->hub->b.n; k++) {
    rq_part *part = xcalloc(1, sizeof *part);
    part->r = r;
    part->k = k;
    part->next = r->parts;
    r->parts = part;
    r->pending++;
    g->hub->listing[k]++;
    size_t idx = g->hub->b.idx[k];
    mcphost_server_state st = gw_state(g->c, idx);
    if (st.connected && !(st.caps & list_capability(kind))) {
      /* A ready backend that did not declare the kind adds nothing, now:
       * a list no backend declares is answered at once (over HTTP, as
       * JSON rather than on a stream), as before any operation. */
      on_list_part(part, "{}", 2, NULL);
      continue;
    }
    /* One not connected yet that did not declare it answers null
     * unasked. */
    mcphost_request lq = MCPHOST_REQUEST_INIT;
    lq.kind = MCPHOST_OP_LIST;
    lq.server = mcphost_server_name(cli_api(g->c), idx);
    lq.name = kind;
    lq.flags = MCPHOST_REQUEST_IF_DECLARED;
    mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
    cb.done = on_list_part;
    cb.ud = part;
    mcphost_error err = MCPHOST_ERROR_INIT;
    int64_t op = mcphost_start(cli_api(g->c), &lq, &cb, &err);
    if (op < 0) {
      on_list_part(part, NULL, 0, &err);
    } else {
      part->op = op;
    }
  }
  rq_part hold = {.r = r, .starting = true};
  hold.next = r->parts;
  r->parts = &hold;
  list_part_done(&hold);
}

/* ---- the methods ---- */

/* Config index `idx`'s status (mcphost_server_status: "code" 0 when
 * connected, then its "capabilities", "serverInfo", "instructions"; else
 * its "error" and "connection"), new; an empty object when it cannot be
 * read. */
static cJSON *backend_status(const cli *c, size_t idx) {
  char *json = NULL;
  size_t len = 0;
  cJSON *st = NULL;
  if (mcphost_server_status(cli_api(c), mcphost_server_name(cli_api(c), idx), 0,
                            &json, &len, NULL) == MCPHOST_OK) {
    st = json_parse(json, len, NULL);
  }
  mcphost_free(json);
  if (!cJSON_IsObject(st)) {
    cJSON_Delete(st);
    st = cJSON_CreateObject();
  }
  return st;
}

/* Member `key` of object `o`. */
static const cJSON *member(const cJSON *o, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* The gateway's own capabilities, with what its ready backends add. */
static cJSON *gw_capabilities(const gw_hub *hub) {
  cJSON *caps = cJSON_CreateObject();
  const char *kinds[] = {"tools", "resources", "prompts"};
  for (size_t i = 0; i < 3; i++) {
    cJSON_AddTrueToObject(cJSON_AddObjectToObject(caps, kinds[i]),
                          "listChanged");
  }
  cJSON_AddObjectToObject(caps, "logging");
  /* The gateway routes resources/subscribe to a URI's backend: it can
   * when one of them can. */
  for (size_t k = 0; k < hub->b.n; k++) {
    if (!(gw_state(hub->c, hub->b.idx[k]).caps & MCPHOST_CAP_RESOURCES)) {
      continue; /* not connected, or no resources */
    }
    cJSON *st = backend_status(hub->c, hub->b.idx[k]);
    bool sub = cJSON_IsTrue(
        member(member(member(st, "capabilities"), "resources"), "subscribe"));
    cJSON_Delete(st);
    if (sub) {
      cJSON_AddTrueToObject(cJSON_GetObjectItemCaseSensitive(caps, "resources"),
                            "subscribe");
      break;
    }
  }
  return caps;
}

static void answer_initialize(rq *r, const cJSON *params) {
  gw *g = r->g;
  const char *want = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(params, "protocolVersion"));
  cJSON *res = cJSON_CreateObject();
  cJSON_AddStringToObject(
      res, "protocolVersion",
      mcphost_protocol_supported(MCPHOST_ERA_LEGACY, want)
          ? want
          : mcphost_protocol_version(MCPHOST_ERA_LEGACY, 0));
  if (g->hub->b.passthrough) {
    cJSON *st = backend_status(g->c, g->hub->b.idx[0]);
    cJSON *caps = cJSON_DetachItemFromObjectCaseSensitive(st, "capabilities");
    cJSON_AddItemToObject(res, "capabilities",
                          caps ? caps : cJSON_CreateObject());
    cJSON *info = cJSON_DetachItemFromObjectCaseSensitive(st, "serverInfo");
    if (info) {
      cJSON_AddItemToObject(res, "serverInfo", info);
    }
    cJSON *text = cJSON_DetachItemFromObjectCaseSensitive(st, "instructions");
    if (cJSON_IsString(text)) {
      cJSON_AddItemToObject(res, "instructions", text);
    } else {
      cJSON_Delete(text);
    }
    g->hub->ready[0] = gw_state(g->c, g->hub->b.idx[0]).connected != 0;
    cJSON_Delete(st);
  } else {
    cJSON_AddItemToObject(res, "capabilities", gw_capabilities(g->hub));
  }
  if (!cJSON_GetObjectItemCaseSensitive(res, "serverInfo")) {
    cJSON *info = cJSON_AddObjectToObject(res, "serverInfo");
    cJSON_AddStringToObject(info, "name", "mcphost");
    cJSON_AddStringToObject(info, "version", mcphost_version(NULL, NULL));
  }
  send_result(g, r->id, res);
}

/* One backend of an initialize is ready or failed: once all are, the
 * answer. */
static void initialize_waited(rq *r) {
  if (--r->pending > 0) {
    return;
  }
  gw *g = r->g;
  size_t idx0 = g->hub->b.idx[0];
  g->initializing = false;
  if (g->hub->b.passthrough && !gw_state(g->c, idx0).connected) {
    cJSON *st = backend_status(g->c, idx0);
    const char *error = cJSON_GetStringValue(member(st, "error"));
    const char *conn = cJSON_GetStringValue(member(st, "connection"));
    char *why = xasprintf("server \"%s\" failed: %s",
                          mcphost_server_name(cli_api(g->c), idx0),
                          error  ? error
                          : conn ? conn
                                 : "idle");
    cJSON_Delete(st);
    gw_send_error(g, r->id, MCPH_RPC_INTERNAL_ERROR, why, NULL);
    free(why);
  } else {
    answer_initialize(r, r->init);
    g->initialized = true;
  }
  gw_rq_free(r);
  check_done(g);
}

/* A backend of an initialize is connected or failed (MCPHOST_OP_CONNECT:
 * its status is read again). */
static void on_backend_ready(void *ud, const char *result_json, size_t len,
                             const mcphost_error *err) {
  (void)result_json;
  (void)len;
  (void)err;
  rq_wait *w = ud;
  w->op = 0;
  if (w->starting) {
    w->finished = true;
    return;
  }
  rq *r = w->r;
  if (!r) { /* its client went away */
    free(w);
    return;
  }
  for (size_t k = 0; k < r->nwaits; k++) {
    if (r->waits[k] == w) {
      r->waits[k] = NULL;
    }
  }
  free(w);
  initialize_waited(r);
}

static void do_initialize(gw *g, rq *r, const cJSON *params) {
  const cJSON *el = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(params, "capabilities"), "elicitation");
  /* Form mode: an empty object (before 2025-11-25) or one with "form". */
  g->elicitation =
      cJSON_IsObject(el) &&
      (!el->child || cJSON_GetObjectItemCaseSensitive(el, "form") != NULL);
  g->elicit_url = cJSON_GetObjectItemCaseSensitive(el, "url") != NULL;
  const cJSON *caps = cJSON_GetObjectItemCaseSensitive(params, "capabilities");
  g->roots = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(caps, "roots"));
  g->sampling =
      cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(caps, "sampling"));
  /* The gateway's capabilities are the backends' together (with
   * --passthrough, the one's): they connect first, as a first list
   * would make them; one that fails is left out. */
  r->init = cJSON_Duplicate(params, 1);
  /* What the client sends before the answer waits for the backends as
   * the answer does. */
  g->initializing = true;
  r->nwaits = g->hub->b.passthrough ? 1 : g->hub->b.n;
  r->waits = xcalloc(r->nwaits, sizeof *r->waits);
  r->pending = r->nwaits + 1; /* held until every wait is out */
  for (size_t k = 0; k < r->nwaits; k++) {
    rq_wait *w = xcalloc(1, sizeof *w);
    w->r = r;
    r->waits[k] = w;
    mcphost_request q = MCPHOST_REQUEST_INIT;
    q.kind = MCPHOST_OP_CONNECT;
    q.server = mcphost_server_name(cli_api(g->c), g->hub->b.idx[k]);
    q.flags = MCPHOST_REQUEST_NOW; /* a connected one answers at once */
    mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
    cb.done = on_backend_ready;
    cb.ud = w;
    w->starting = true;
    int64_t op = mcphost_start(cli_api(g->c), &q, &cb, NULL);
    w->starting = false;
    if (op > 0 && !w->finished) {
      w->op = op;
      continue;
    }
    r->waits[k] = NULL; /* settled already */
    free(w);
    r->pending--;
  }
  initialize_waited(r);
}

/* tools/call and prompts/get: a name of the gateway's to a backend's. */
static bool find_named(gw *g, rq *r, const char *what, const char *name,
                       size_t *idx, char **item, bool *qualified) {
  mcphost_error err = MCPHOST_ERROR_INIT;
  const char *server = NULL;
  if (!name) {
    char *m = xasprintf("%s/%s needs a \"name\"", what,
                        strcmp(what, "tool") == 0 ? "call" : "get");
    gw_send_error(g, r->id, MCPH_RPC_INVALID_PARAMS, m, NULL);
    free(m);
    return false;
  }
  if (g->hub->b.passthrough) {
    *idx = g->hub->b.idx[0];
    *item = xstrdup(name);
    *qualified = false;
    return true;
  }
  /* Only an mcp__ name is the gateway's (SERVER/NAME is the CLI's). */
  *qualified = strncmp(name, "mcp__", 5) == 0;
  if (mcphost_resolve_ref(cli_api(g->c), name, what, &server, item, &err) !=
          MCPHOST_OK ||
      mcphost_server_find(cli_api(g->c), server, idx, NULL) != MCPHOST_OK ||
      gw_backend_of(&g->hub->b, *idx) < 0 || !*qualified) {
    if (err.code == MCPHOST_OK) {
      send_own_error(g, r, MCPHOST_ENOTFOUND,
                     "no %s \"%s\" (the gateway's names are "
                     "mcp__<server>__<%s>)",
                     what, name, what);
    } else {
      send_api_error(g, r, &err, NULL);
    }
    mcphost_free(*item);
    *item = NULL;
    return false;
  }
  return true;
}

static void do_call(gw *g, rq *r, const cJSON *params) {
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  size_t idx;
  char *tool = NULL;
  bool qualified;
  if (args && !cJSON_IsObject(args)) {
    gw_send_error(g, r->id, MCPH_RPC_INVALID_PARAMS,
                  "tools/call \"arguments\" must be an object", NULL);
    goto fail;
  }
  if (!find_named(g, r, "tool", name, &idx, &tool, &qualified)) {
    goto fail;
  }
  /* The IDE rule holds for calls too: an IDE tool a model may not see is
   * not the gateway's (mcphost_name_model_visible). */
  if (!mcphost_name_model_visible(gw_state(g->c, idx).type, tool)) {
    char *m = xasprintf("no tool \"%s\" (an IDE's tool that is not the "
                        "model's)",
                        name);
    gw_send_error(g, r->id, MCPH_RPC_INVALID_PARAMS, m, NULL);
    free(m);
    goto fail;
  }
  r->cut = true;
  /* By the client's own name: the reference the item part came from. */
  mcphost_request q = MCPHOST_REQUEST_INIT;
  q.kind = MCPHOST_OP_CALL_TOOL;
  q.server = qualified ? NULL : mcphost_server_name(cli_api(g->c), idx);
  q.name = qualified ? name : tool;
  start_op(r, idx, &q, args);
  mcphost_free(tool);
  return;
fail:
  mcphost_free(tool);
  gw_rq_free(r);
}

static void do_prompt(gw *g, rq *r, const cJSON *params) {
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  size_t idx;
  char *prompt = NULL;
  bool qualified;
  if (!find_named(g, r, "prompt", name, &idx, &prompt, &qualified)) {
    gw_rq_free(r);
    return;
  }
  r->cut = true;
  mcphost_request q = MCPHOST_REQUEST_INIT;
  q.kind = MCPHOST_OP_GET_PROMPT;
  q.server = qualified ? NULL : mcphost_server_name(cli_api(g->c), idx);
  q.name = qualified ? name : prompt;
  start_op(r, idx, &q, cJSON_GetObjectItemCaseSensitive(params, "arguments"));
  mcphost_free(prompt);
}

/* A read of a URI no list had shown: the backends' resources, then their
 * templates, are listed (not sent on), and the read routed again. */
static void look_for_resource(gw *g, rq *r, const char *method,
                              const cJSON *params, const char *kind) {
  rq *lr = rq_new(g, NULL, NULL);
  lr->then = r;
  lr->then_method = xstrdup(method);
  lr->then_params = cJSON_Duplicate(params, 1);
  start_list(g, lr, kind);
}

static void list_looked(rq *lr) {
  gw *g = lr->g;
  rq *w = lr->then;
  const char *uri = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(lr->then_params, "uri"));
  bool templates = strcmp(lr->kind, "resourceTemplates") == 0;
  if (!w->cancelled && !templates && uri &&
      gw_resource_server(&g->hub->b, uri) < 0) {
    look_for_resource(g, w, lr->then_method, lr->then_params,
                      "resourceTemplates");
  } else if (w->cancelled) {
    gw_rq_free(w);
  } else {
    do_resource(g, w, lr->then_method, lr->then_params);
  }
  gw_rq_free(lr);
  check_done(g);
}

/* resources/read, subscribe, unsubscribe: to the backend of the URI. */
static void do_resource(gw *g, rq *r, const char *method, const cJSON *params) {
  const char *uri =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "uri"));
  r->resource = true;
  if (!uri) {
    char *m = xasprintf("%s needs a \"uri\"", method);
    gw_send_error(g, r->id, MCPH_RPC_INVALID_PARAMS, m, NULL);
    free(m);
    gw_rq_free(r);
    return;
  }
  long k = gw_resource_server(&g->hub->b, uri);
  if (k < 0 && !g->resources_looked) {
    g->resources_looked = true;
    look_for_resource(g, r, method, params, "resources");
    return;
  }
  if (k < 0) {
    cJSON *data = cJSON_CreateObject();
    cJSON_AddStringToObject(data, "uri", uri);
    char *m = xasprintf("resource \"%s\" not found: no backend server lists "
                        "it",
                        uri);
    /* 2026-07-28 says "not found" as invalid params. */
    gw_send_error(g, r->id,
                  r->modern ? MCPH_RPC_INVALID_PARAMS
                            : MCPH_RPC_RESOURCE_NOT_FOUND,
                  m, data);
    free(m);
    gw_rq_free(r);
    return;
  }
  bool read = strcmp(method, "resources/read") == 0;
  r->cut = read;
  mcphost_request q = MCPHOST_REQUEST_INIT;
  q.kind = read ? MCPHOST_OP_READ : MCPHOST_OP_REQUEST;
  q.server = mcphost_server_name(cli_api(g->c), g->hub->b.idx[k]);
  q.name = uri;
  q.method = method;
  start_op(r, g->hub->b.idx[k], &q, params);
}

/* A 2026-07-28 request: its envelope checked, the methods only that era
 * has answered. False when `r` is answered and freed. The era has no
 * requests to a client: what a backend asks during a call is put to it
 * as input_required rounds when the call's clientCapabilities allow
 * (serve_mrtr.c), and so is a permission rule's "ask". */
static bool modern_request(gw *g, rq *r, const char *method,
                           const cJSON *params) {
  const char *why = NULL;
  cJSON *data = NULL;
  int code = gw_modern_check(params, &why, &data);
  if (code) {
    gw_send_error(g, r->id, code, why, data);
    gw_rq_free(r);
    return false;
  }
  g->modern = true;
  r->modern = true;
  r->log_level = gw_modern_request_log_level(params);
  r->cacheable = strcmp(method, "resources/read") == 0 ||
                 (strstr(method, "/list") && strncmp(method, "subscr", 6) != 0);
  gw_mrtr_request(r, method, params);
  if (strcmp(method, "server/discover") == 0) {
    cJSON *st =
        g->hub->b.passthrough ? backend_status(g->c, g->hub->b.idx[0]) : NULL;
    const cJSON *caps = member(st, "capabilities");
    cJSON *own = NULL;
    if (!caps) {
      own = gw_capabilities(g->hub);
      caps = own;
    }
    send_result(g, r->id,
                gw_modern_discover(
                    caps, cJSON_GetStringValue(member(st, "instructions"))));
    cJSON_Delete(own);
    cJSON_Delete(st);
    gw_rq_free(r);
    return false;
  }
  if (strcmp(method, "subscriptions/listen") == 0) {
    char why_listen[200];
    gw_listen *l =
        gw_listen_open(g, r->id, params, why_listen, sizeof why_listen);
    if (!l) {
      gw_send_error(g, r->id, MCPH_RPC_INVALID_PARAMS, why_listen, NULL);
    } else {
      cJSON *p = cJSON_CreateObject();
      cJSON_AddItemToObject(p, "notifications", cJSON_Duplicate(l->filter, 1));
      gw_send_notification(g, "notifications/subscriptions/acknowledged",
                           gw_modern_tagged(p, l->id), l->id);
      cJSON_Delete(p);
    }
    gw_rq_free(r);
    return false;
  }
  return true;
}

/* Ends listen `l` (unlinked by the caller): with its result unless
 * `cancelled`. */
static void listen_end(gw *g, gw_listen *l, bool cancelled) {
  if (!cancelled) {
    cJSON *res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "resultType", "complete");
    cJSON *meta = cJSON_AddObjectToObject(res, "_meta");
    cJSON_AddItemToObject(meta, "io.modelcontextprotocol/subscriptionId",
                          cJSON_Duplicate(l->id, 1));
    send_result(g, l->id, res);
  }
  gw_listen_free(g->hub, l);
}

/* Whether `method` is one 2026-07-28 removed and `r` a modern request:
 * unknown to it even with --passthrough (a modern client's
 * logging/setLevel would set the shared backend's level for every
 * client; its ping and subscribe are gone from the era). */
static bool modern_gone(const rq *r, const char *method) {
  return r->modern && (strcmp(method, "ping") == 0 ||
                       strcmp(method, "logging/setLevel") == 0 ||
                       strcmp(method, "resources/subscribe") == 0 ||
                       strcmp(method, "resources/unsubscribe") == 0);
}

static void handle_request(gw *g, const char *method, const cJSON *id,
                           const cJSON *params) {
  rq *r = rq_new(g, id, params);
  if (!g->initialized && !g->initializing &&
      strcmp(method, "initialize") != 0 &&
      (gw_modern_asks(params) || strcmp(method, "server/discover") == 0) &&
      !modern_request(g, r, method, params)) {
    return; /* answered */
  }
  if (r->modern && gw_mrtr_resume(g, r, method, params)) {
    return; /* a parked operation's retry */
  }
  if (strcmp(method, "initialize") == 0) {
    do_initialize(g, r, params);
  } else if (strcmp(method, "ping") == 0 && !r->modern) {
    send_result(g, id, NULL);
    gw_rq_free(r);
  } else if (!g->initialized && !g->initializing && !r->modern) {
    gw_send_error(g, id, MCPH_RPC_INVALID_REQUEST,
                  "the gateway is not initialized yet (initialize first)",
                  NULL);
    gw_rq_free(r);
  } else if (strcmp(method, "tools/list") == 0) {
    start_list(g, r, "tools");
  } else if (strcmp(method, "prompts/list") == 0) {
    start_list(g, r, "prompts");
  } else if (strcmp(method, "resources/list") == 0) {
    start_list(g, r, "resources");
  } else if (strcmp(method, "resources/templates/list") == 0) {
    start_list(g, r, "resourceTemplates");
  } else if (strcmp(method, "tools/call") == 0) {
    do_call(g, r, params);
  } else if (strcmp(method, "prompts/get") == 0) {
    do_prompt(g, r, params);
  } else if (strncmp(method, "resources/", 10) == 0 &&
             (strcmp(method + 10, "read") == 0 ||
              (!r->modern && (strcmp(method + 10, "subscribe") == 0 ||
                              strcmp(method + 10, "unsubscribe") == 0)))) {
    do_resource(g, r, method, params);
  } else if (strcmp(method, "logging/setLevel") == 0 && !r->modern &&
             !g->hub->b.passthrough) {
    /* The backends' level is --log-level's. */
    send_result(g, id, NULL);
    gw_rq_free(r);
  } else if (g->hub->b.passthrough && !modern_gone(r, method)) {
    /* Anything else is the one backend's (completion/complete, ...). */
    mcphost_request q = MCPHOST_REQUEST_INIT;
    q.kind = MCPHOST_OP_REQUEST;
    q.server = mcphost_server_name(cli_api(g->c), g->hub->b.idx[0]);
    q.method = method;
    start_op(r, g->hub->b.idx[0], &q, params);
  } else {
    char *m = xasprintf("the gateway has no method \"%s\"", method);
    g->no_method = true;
    gw_send_error(g, id, MCPH_RPC_METHOD_NOT_FOUND, m, NULL);
    g->no_method = false;
    free(m);
    gw_rq_free(r);
  }
}

bool gw_client_no_method(const gw *g) {
  return g->no_method;
}

static void on_cancelled(gw *g, const cJSON *params) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(params, "requestId");
  for (gw_listen **p = &g->listens; *p && id; p = &(*p)->next) {
    if (cJSON_Compare((*p)->id, id, true)) {
      gw_listen *l = *p;
      *p = l->next;
      listen_end(g, l, true);
      return;
    }
  }
  if (id && gw_mrtr_cancelled(g, id)) {
    return;
  }
  for (rq *r = g->reqs; r && id; r = r->next) {
    if (cJSON_Compare(r->id, id, true)) {
      /* The request is not answered (the spec); the backend's call is
       * cancelled on the wire. */
      r->cancelled = true;
      if (r->op) {
        mcphost_cancel_now(cli_api(g->c), r->op);
      }
      return;
    }
  }
}

void gw_client_message(gw *g, const char *line, size_t len) {
  cJSON *msg = json_parse(line, len, NULL);
  if (!cJSON_IsObject(msg)) {
    gw_send_error(
        g, NULL, msg ? MCPH_RPC_INVALID_REQUEST : MCPH_RPC_PARSE_ERROR,
        msg ? "a JSON-RPC message is an object" : "the line is not JSON", NULL);
    goto out;
  }
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  if (!method) {
    if (id) {
      gw_on_client_answer(g, msg);
    }
    goto out;
  }
  if (id && !cJSON_IsString(id) && !cJSON_IsNumber(id)) {
    gw_send_error(g, NULL, MCPH_RPC_INVALID_REQUEST,
                  "a request's id is a string or a number", NULL);
    goto out;
  }
  if (params && !cJSON_IsObject(params)) {
    if (id) {
      gw_send_error(g, id, MCPH_RPC_INVALID_PARAMS, "params must be an object",
                    NULL);
    }
    goto out;
  }
  if (!id) {
    if (strcmp(method, "notifications/cancelled") == 0) {
      on_cancelled(g, params);
    }
    goto out; /* notifications/initialized and the others */
  }
  handle_request(g, method, id, params);
out:
  cJSON_Delete(msg);
}

/* ---- the gateway and its clients ---- */

gw_hub *gw_hub_new(cli *c, gw_backends *b) {
  gw_hub *hub = xcalloc(1, sizeof *hub);
  hub->c = c;
  hub->b = *b;
  *b = (gw_backends){0};
  hub->ready = xcalloc(hub->b.n, sizeof *hub->ready);
  hub->listing = xcalloc(hub->b.n, sizeof *hub->listing);
  /* The backends may ask the gateway's clients (gw_on_backend_request):
   * form and URL elicitation (a client that declared less is answered
   * for by the gateway), sampling, roots. */
  hub->caps = cJSON_CreateObject();
  cJSON *el = cJSON_AddObjectToObject(hub->caps, "elicitation");
  cJSON_AddObjectToObject(el, "form");
  cJSON_AddObjectToObject(el, "url");
  cJSON_AddObjectToObject(hub->caps, "sampling");
  if (!cli_option_value(c, "no-roots")) {
    cJSON_AddObjectToObject(hub->caps, "roots"); /* --no-roots: none */
  }
  /* A long-lived process: crashed backends are started again. */
  mcphost_set_option(cli_api(c), "keep", NULL, NULL);
  strbuf caps;
  sb_init(&caps);
  if (json_write(&caps, hub->caps) == 0) {
    mcphost_set_option(cli_api(c), "capabilities", sb_str(&caps), NULL);
  }
  sb_free(&caps);
  cli_on_notify(gw_on_notify, hub);
  cli_on_request(gw_on_backend_request, hub);
  cli_take_asks(gw_on_ask, gw_on_ask_end, hub);
  cli_on_state(gw_on_state, hub);
  gw_mrtr_init(hub);
  return hub;
}

void gw_hub_free(gw_hub *hub) {
  if (!hub) {
    return;
  }
  gw_mrtr_free(hub);
  while (hub->clients) {
    gw_client_free(hub->clients);
  }
  cli_on_notify(NULL, NULL);
  cli_on_request(NULL, NULL);
  cli_take_asks(NULL, NULL, NULL);
  cli_on_state(NULL, NULL);
  mcphost_set_option(cli_api(hub->c), "capabilities", NULL, NULL);
  cJSON_Delete(hub->caps);
  free(hub->ready);
  free(hub->listing);
  gw_backends_free(&hub->b);
  free(hub);
}

gw *gw_client_new(gw_hub *hub, gw_send_fn send, void *ud) {
  gw *g = xcalloc(1, sizeof *g);
  g->c = hub->c;
  g->hub = hub;
  g->send = send;
  g->send_ud = ud;
  g->next = hub->clients;
  hub->clients = g;
  return g;
}

/* Refuses every question waiting for the client's answer. */
static void refuse_asks(gw *g, const char *why) {
  while (g->asks) {
    gw_ask *a = g->asks;
    if (a->fwd) {
      /* A backend still waits: an elicitation is cancelled, the rest
       * fail. */
      cJSON *cancel = NULL;
      if (a->fwd_elicit) {
        cancel = cJSON_CreateObject();
        cJSON_AddStringToObject(cancel, "action", "cancel");
      }
      gw_respond(g->hub, a->fwd, cancel, MCPH_RPC_INTERNAL_ERROR, why, NULL);
      cJSON_Delete(cancel);
      gw_ask_unlink(g, a);
      continue;
    }
    uint64_t ask = a->ask;
    gw_ask_unlink(g, a);
    mcphost_ask_answer(cli_api(g->c), ask, 0, why, NULL);
  }
}

void gw_client_end_input(gw *g, const char *why, void (*drained)(void *ud)) {
  g->ending = true;
  g->drained = drained;
  /* Nobody is left to answer a question, or to listen. */
  refuse_asks(g, why);
  while (g->listens) {
    gw_listen *l = g->listens;
    g->listens = l->next;
    listen_end(g, l, false);
  }
  gw_mrtr_client_ended(g);
  check_done(g);
}

void gw_hub_connect(gw_hub *hub) {
  const char **names = xcalloc(hub->b.n + 1, sizeof *names);
  for (size_t k = 0; k < hub->b.n; k++) {
    names[k] = mcphost_server_name(cli_api(hub->c), hub->b.idx[k]);
  }
  mcphost_connect_servers(cli_api(hub->c), names, hub->b.n, 0, NULL, NULL);
  free(names);
}

void gw_hub_stop(gw_hub *hub, const char *why) {
  for (gw *g = hub->clients; g; g = g->next) {
    for (rq *r = g->reqs; r; r = r->next) {
      if (!r->cancelled) {
        send_own_error(g, r, MCPHOST_ECANCELED, "%s", why);
        r->cancelled = true; /* answered: nothing more is sent */
      }
    }
    /* Each cancel ends its request (freed) before it returns, and tells
     * the backend (notifications/cancelled). */
    for (rq *r = g->reqs; r;) {
      if (r->op) {
        mcphost_cancel_now(cli_api(g->c), r->op);
        r = g->reqs;
      } else {
        r = r->next;
      }
    }
  }
}

void gw_client_free(gw *g) {
  g->drained = NULL;
  gw_mrtr_client_gone(g);
  for (rq *r = g->reqs; r; r = r->next) {
    r->cancelled = true; /* nothing more is sent */
  }
  refuse_asks(g, "the gateway's client went away");
  while (g->listens) {
    gw_listen *l = g->listens;
    g->listens = l->next;
    listen_end(g, l, true);
  }
  /* Each cancel ends its request (and frees it) before it returns. */
  while (g->reqs) {
    rq *r = g->reqs;
    if (r->op) {
      mcphost_cancel_now(cli_api(g->c), r->op);
    } else {
      while (r->parts) {
        rq_part *part = r->parts;
        r->parts = part->next;
        if (part->op) { /* its `done` (cancelled) frees it */
          g->hub->listing[part->k]--;
          part->r = NULL;
          mcphost_cancel_now(cli_api(g->c), part->op);
        } else {
          free(part);
        }
      }
      gw_rq_free(r);
    }
  }
  for (gw **p = &g->hub->clients; *p; p = &(*p)->next) {
    if (*p == g) {
      *p = g->next;
      break;
    }
  }
  free(g);
}
