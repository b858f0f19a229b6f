/* The session's lists, followed page by page; and over HTTP in
 * 2026-07-28 the tool list a call needs first, for its headers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "mcp/era.h"
#include "mcp/era_headers.h"
#include "mcp/session_internal.h"
#include "text_escape.h"

/* ---- pagination ---- */

/* A server that keeps handing out cursors is cut off here. */
#define LIST_MAX_PAGES 10000

typedef struct list_op {
  session *s;
  char *method, *key, *cursor;
  cJSON *items;
  uint64_t timeout_ms;
  unsigned pages;
  session_list_fn done;
  void *ud;
} list_op;

static void list_finish(list_op *op, const char *error) {
  cJSON *items = error ? NULL : op->items;
  if (error)
    cJSON_Delete(op->items);
  op->done(op->ud, op->s, items, error);
  free(op->method);
  free(op->key);
  free(op->cursor);
  free(op);
}

static void list_next(list_op *op);

/* 2026-07-28 over HTTP: a tool whose x-mcp-header annotations break the
 * rules is left out, with a warning naming it; the others' are kept for the
 * Mcp-Param-* headers of their calls. */
static bool keep_tool(session *s, const cJSON *tool) {
  char why[300];
  cJSON *map = NULL;
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tool, "name"));
  if (!name) {
    return true; /* the list's own checks refuse it */
  }
  if (!s->tool_headers) {
    s->tool_headers = cJSON_CreateObject();
  }
  cJSON_DeleteItemFromObjectCaseSensitive(s->tool_headers, name);
  if (!era_tool_headers(tool, &map, why, sizeof why)) {
    char *shown = text_escape(name, strlen(name), TEXT_ESCAPE_NEWLINES, NULL);
    host_log(s->h, MCPH_LOG_WARN, s->cfg->name,
             "tool \"%s\" left out: %s", shown ? shown : "?", why);
    free(shown);
    /* A call to it is refused with the reason (session_request). */
    cJSON_AddStringToObject(s->tool_headers, name, why);
    return false;
  }
  cJSON_AddItemToObject(s->tool_headers, name,
                        map ? map : cJSON_CreateArray());
  return true;
}

/* ---- tools/call over HTTP in 2026-07-28: the tools listed first ---- */

/* A call's Mcp-Param-* headers come from its tool's schema: a call made
 * before any tools/list of this connection waits (held) for one. */
typedef struct prelist_op {
  session *s;
  unsigned page;
} prelist_op;

static void prelist_done(session *s) {
  s->prelisting = false;
  if (!s->tool_headers) {
    s->tool_headers = cJSON_CreateObject();
  }
  if (!s->reinitializing && !s->auth_pending && !s->roots_hold) {
    rpc_hold(s->rpc, false);
  }
}

static void on_prelist(void *ud, cJSON *result, const rpc_error *err,
                       bool *take) {
  (void)take;
  prelist_op *op = ud;
  session *s = op->s;
  unsigned page = op->page;
  free(op);
  const cJSON *tools = cJSON_GetObjectItemCaseSensitive(result, "tools"), *t;
  if (err || !cJSON_IsArray(tools)) {
    prelist_done(s); /* the call goes without its parameter headers */
    return;
  }
  if (page == 0) {
    cJSON_Delete(s->tool_headers);
    s->tool_headers = NULL;
  }
  cJSON_ArrayForEach(t, tools) {
    keep_tool(s, t);
  }
  const char *next = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(result, "nextCursor"));
  if (next && *next && page < 100) {
    session_prelist(s, next, page + 1);
    return;
  }
  prelist_done(s);
}

void session_prelist(session *s, const char *cursor, unsigned page) {
  cJSON *params = cJSON_CreateObject();
  if (cursor) {
    cJSON_AddStringToObject(params, "cursor", cursor);
  }
  prelist_op *op = xmalloc(sizeof *op);
  *op = (prelist_op){.s = s, .page = page};
  rpc_request_opts o = {.timeout_ms = s->connect_timeout_ms, .ud = op,
                        .urgent = true};
  if (rpc_request(s->rpc, "tools/list", era_add_meta(s, params), &o,
                  on_prelist) < 0) {
    free(op);
    prelist_done(s);
  }
}

/* NULL, or why a tools/call must not be sent (its tool was left out). */
const char *session_call_refused(session *s, const char *method,
                                 const cJSON *params) {
  if (s->era != ERA_MODERN || strcmp(method, "tools/call") != 0 ||
      !MCPH_HAS(s->tf, mcph_transport_factory, send_headers) ||
      !s->tf->send_headers) {
    return NULL;
  }
  if (!s->tool_headers) {
    if (!s->prelisting) {
      s->prelisting = true;
      rpc_hold(s->rpc, true);
      session_prelist(s, NULL, 0);
    }
    return NULL;
  }
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  return name ? cJSON_GetStringValue(
                    cJSON_GetObjectItemCaseSensitive(s->tool_headers, name))
              : NULL;
}

static void on_page(void *ud, cJSON *result, const rpc_error *err, bool *take) {
  (void)take;
  list_op *op = ud;
  if (err && err->status == RPC_ERR_REMOTE &&
      err->code == MCPH_RPC_METHOD_NOT_FOUND && !op->cursor) {
    /* A server that does not know the list method has none of those (a
     * "resources" server without templates/list, typically). */
    host_log(op->s->h, MCPH_LOG_DEBUG, op->s->cfg->name,
             "%s: method not found; taken as an empty list", op->method);
    list_finish(op, NULL);
    return;
  }
  if (err) {
    char msg[600];
    snprintf(msg, sizeof msg, "%s: %s", op->method, err->message);
    list_finish(op, msg);
    return;
  }
  cJSON *arr = cJSON_GetObjectItemCaseSensitive(result, op->key);
  if (!cJSON_IsArray(arr)) {
    char msg[300];
    snprintf(msg, sizeof msg, "%s: result has no \"%s\" array", op->method,
             op->key);
    list_finish(op, msg);
    return;
  }
  /* Only where headers are sent (HTTP) do x-mcp-header rules apply. */
  bool headers = op->s->era == ERA_MODERN &&
                 MCPH_HAS(op->s->tf, mcph_transport_factory, send_headers) &&
                 op->s->tf->send_headers &&
                 strcmp(op->method, "tools/list") == 0;
  if (headers && !op->cursor) {
    cJSON_Delete(op->s->tool_headers);
    op->s->tool_headers = cJSON_CreateObject();
  }
  if (op->s->era == ERA_MODERN && strcmp(op->method, "tools/list") == 0) {
    /* The cache hint: fresh for ttlMs (absent or negative: 0). */
    const cJSON *ttl = cJSON_GetObjectItemCaseSensitive(result, "ttlMs");
    /* The range test first, so that the cast is defined (1e400 is an
     * infinity: for ever). */
    double ms = cJSON_IsNumber(ttl) ? ttl->valuedouble : 0;
    int64_t t = ms >= 9.2e18 ? INT64_MAX : ms > 0 ? (int64_t)ms : 0;
    if (!op->cursor || t < op->s->tools_ttl_ms) {
      op->s->tools_ttl_ms = t;
    }
  }
  while (arr->child) {
    cJSON *item = cJSON_DetachItemViaPointer(arr, arr->child);
    if (headers && !keep_tool(op->s, item)) {
      cJSON_Delete(item);
      continue;
    }
    cJSON_AddItemToArray(op->items, item);
  }
  const cJSON *next = cJSON_GetObjectItemCaseSensitive(result, "nextCursor");
  if (!cJSON_IsString(next) || next->valuestring[0] == '\0') {
    list_finish(op, NULL);
    return;
  }
  if ((op->cursor && strcmp(op->cursor, next->valuestring) == 0) ||
      ++op->pages >= LIST_MAX_PAGES) {
    list_finish(op, "server keeps returning the same or endless cursors");
    return;
  }
  free(op->cursor);
  op->cursor = xstrdup(next->valuestring);
  list_next(op);
}

static void list_next(list_op *op) {
  cJSON *params = NULL;
  if (op->cursor) {
    params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "cursor", op->cursor);
  }
  char why[512];
  rpc_request_opts o = {.timeout_ms = op->timeout_ms, .ud = op};
  if (session_request(op->s, op->method, params, &o, on_page, why,
                      sizeof why) < 0)
    list_finish(op, why);
}

int session_list(session *s, const char *method, const char *key,
                 uint64_t timeout_ms, session_list_fn done, void *ud) {
  const char *cap = session_needed_capability(method);
  if (s->state == SESS_READY && cap && !session_has_capability(s, cap)) {
    /* What a server does not offer is an empty list, as `prompts` shows
     * it, not an error. */
    done(ud, s, cJSON_CreateArray(), NULL);
    return 0;
  }
  list_op *op = xcalloc(1, sizeof *op);
  op->s = s;
  op->method = xstrdup(method);
  op->key = xstrdup(key);
  op->items = cJSON_CreateArray();
  op->timeout_ms = timeout_ms;
  op->done = done;
  op->ud = ud;
  list_next(op);
  return 0;
}
