/* The gateway (serve.h) between its backends and its clients outside
 * the clients' requests: the permission asker (--allow, else the
 * client), what the backends push (to every client), a backend's own
 * requests (to the client that caused them) and the clients' answers.
 * serve_internal.h names what serve.c calls here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/client.h>
#include <mcphost/rpc.h>

#include "cli/frontend.h"
#include "gateway/serve.h"
#include "gateway/serve_internal.h"
#include "json_parse.h"
#include "util.h"

/* ---- the permission asker: --allow, else the client ---- */

/* The elicitation/create params that put permission question `q` to a
 * client: a form with one boolean, "allow". */
static cJSON *ask_params(const mcp_ask *q) {
  cJSON *p = cJSON_CreateObject();
  char *msg = xasprintf("Allow the tool %s of server \"%s\" (%s)? "
                        "Arguments: %s",
                        q->tool, q->server, q->reason, q->arguments_json);
  cJSON_AddStringToObject(p, "message", msg);
  free(msg);
  cJSON *schema = cJSON_AddObjectToObject(p, "requestedSchema");
  cJSON_AddStringToObject(schema, "type", "object");
  cJSON *allow = cJSON_AddObjectToObject(
      cJSON_AddObjectToObject(schema, "properties"), "allow");
  cJSON_AddStringToObject(allow, "type", "boolean");
  cJSON_AddStringToObject(allow, "title", "Allow this call");
  cJSON_AddItemToArray(cJSON_AddArrayToObject(schema, "required"),
                       cJSON_CreateString("allow"));
  return p;
}

void *gw_ask_start(void *ud, const mcp_ask *q, mcp_ask_answer_fn answer,
                   void *token) {
  rq *r = ud;
  gw *g = r->g;
  if (cli_allowed_by_option(g->c, q->tool)) {
    answer(token, true, "given by --allow");
    return NULL;
  }
  if (r->modern) { /* an input_required round (serve_mrtr.c) */
    cJSON *p = ask_params(q);
    void *handle = gw_mrtr_ask_permission(r, p, answer, token);
    cJSON_Delete(p);
    if (!handle) {
      answer(token, false,
             "the gateway's client cannot be asked (its request declared "
             "no elicitation form); allow the tool with a permission rule "
             "or --allow");
    }
    return handle;
  }
  if (!g->elicitation) {
    answer(token, false,
           "the gateway's client cannot be asked (it declared no "
           "elicitation); allow the tool with a permission rule or --allow");
    return NULL;
  }
  gw_ask *a = xcalloc(1, sizeof *a);
  a->g = g;
  a->id = ++g->next_id;
  a->req = cJSON_Duplicate(r->id, 1);
  a->answer = answer;
  a->token = token;
  a->next = g->asks;
  g->asks = a;
  cJSON *m = gw_msg_new();
  cJSON_AddNumberToObject(m, "id", a->id);
  cJSON_AddStringToObject(m, "method", "elicitation/create");
  cJSON_AddItemToObject(m, "params", ask_params(q));
  gw_send(g, m, r->id);
  return a;
}

void gw_ask_unlink(gw *g, gw_ask *a) {
  for (gw_ask **p = &g->asks; *p; p = &(*p)->next) {
    if (*p == a) {
      *p = a->next;
      break;
    }
  }
  cJSON_Delete(a->req);
  cJSON_Delete(a->fwd_id);
  free(a);
}

void gw_ask_cancel(void *ud, void *handle) {
  rq *r = ud;
  if (r->modern && gw_mrtr_ask_gone(r->g->hub, handle)) {
    return;
  }
  gw_ask_unlink(r->g, handle);
}

/* The client's answer to an elicitation/create of ours. */
void gw_on_client_answer(gw *g, const cJSON *msg) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  gw_ask *a = g->asks;
  while (a && !(cJSON_IsNumber(id) && id->valuedouble == a->id)) {
    a = a->next;
  }
  if (!a) {
    return; /* not ours, or cancelled since */
  }
  const cJSON *res = cJSON_GetObjectItemCaseSensitive(msg, "result");
  if (a->fwd_id) { /* a backend's request: its answer goes back */
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(msg, "error");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
    const char *why =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
    mcp_client_answer(cli_client(g->c), a->fwd_idx, a->fwd_id,
                      res ? cJSON_Duplicate(res, 1) : NULL,
                      cJSON_IsNumber(code) ? code->valueint
                                           : MCPH_RPC_INTERNAL_ERROR,
                      why ? why : "the gateway's client answered with an error",
                      cJSON_GetObjectItemCaseSensitive(e, "data"));
    gw_ask_unlink(g, a);
    return;
  }
  const char *action =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res, "action"));
  bool yes = action && strcmp(action, "accept") == 0 &&
             cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
                 cJSON_GetObjectItemCaseSensitive(res, "content"), "allow"));
  mcp_ask_answer_fn answer = a->answer;
  void *token = a->token;
  gw_ask_unlink(g, a);
  answer(token, yes,
         yes ? "allowed by the gateway's client"
             : "refused by the gateway's client");
}

/* ---- what the backends push, to every client ---- */

/* To a modern client: on each listen that asked for it, tagged. */
static void tell_listens(gw *g, const char *method, const cJSON *params) {
  for (gw_listen *l = g->listens; l; l = l->next) {
    if (gw_modern_listen_wants(l->filter, method, params)) {
      gw_send_notification(g, method, gw_modern_tagged(params, l->id), l->id);
    }
  }
}

/* A backend's log message, to a modern client: on each of its requests
 * running on that backend whose logLevel it reaches. */
static void tell_request_logs(gw *g, size_t idx, const char *method,
                              const cJSON *params) {
  if (strcmp(method, "notifications/message") != 0) {
    return;
  }
  int level = mcphost_log_level_rank(
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "level")));
  for (rq *r = g->reqs; r; r = r->next) {
    if (r->log_level >= 0 && level >= r->log_level && r->op && !r->cancelled &&
        mcp_op_server(r->op) == idx) {
      gw_send_notification(g, method, cJSON_Duplicate(params, 1), r->id);
    }
  }
}

static void tell_lists_changed(gw *g) {
  static const char *const kinds[] = {"notifications/tools/list_changed",
                                      "notifications/resources/list_changed",
                                      "notifications/prompts/list_changed"};
  for (size_t i = 0; i < 3; i++) {
    if (g->modern) {
      tell_listens(g, kinds[i], NULL);
    } else if (g->listed & gw_list_bit(kinds[i])) {
      gw_send_notification(g, kinds[i], NULL, NULL);
    }
  }
}

/* A backend cancelled a request of its own it had forwarded: the client
 * asked is told, with its id (its answer, if it comes, is dropped). */
static void on_backend_cancelled(gw_hub *hub, size_t idx, const cJSON *params) {
  const cJSON *rid = cJSON_GetObjectItemCaseSensitive(params, "requestId");
  if (rid && gw_mrtr_withdrawn(hub, idx, rid)) {
    return; /* it waited in a parked operation */
  }
  for (gw *g = hub->clients; g && rid; g = g->next) {
    for (gw_ask *a = g->asks; a; a = a->next) {
      if (a->fwd_id && a->fwd_idx == idx &&
          cJSON_Compare(a->fwd_id, rid, true)) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "requestId", a->id);
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(params, "reason");
        if (cJSON_IsString(why)) {
          cJSON_AddStringToObject(p, "reason", why->valuestring);
        }
        gw_send_notification(g, "notifications/cancelled", p, a->req);
        gw_ask_unlink(g, a);
        return;
      }
    }
  }
}

void gw_on_notify(void *ud, const char *server, const char *method,
                  const char *params_json) {
  gw_hub *hub = ud;
  long found = cli_find_server(hub->c, server);
  if (found < 0 || gw_backend_of(&hub->b, (size_t)found) < 0) {
    return;
  }
  size_t idx = (size_t)found;
  bool cancelled = strcmp(method, "notifications/cancelled") == 0;
  bool changed = strstr(method, "/list_changed") &&
                 strncmp(method, "notifications/roots/", 20) != 0;
  bool pass = strcmp(method, "notifications/message") == 0 ||
              strcmp(method, "notifications/resources/updated") == 0;
  if (!cancelled && !changed && !pass) {
    return; /* not parsed for nothing */
  }
  cJSON *params = json_parse(params_json, strlen(params_json), NULL);
  if (cancelled) {
    on_backend_cancelled(hub, idx, params);
    cJSON_Delete(params);
    return;
  }
  for (gw *g = hub->clients; g; g = g->next) {
    if (g->modern) {
      tell_listens(g, method, params);
      tell_request_logs(g, idx, method, params);
    } else if (g->initialized && (pass || (g->listed & gw_list_bit(method)))) {
      gw_send_notification(
          g, method, pass && params ? cJSON_Duplicate(params, 1) : NULL, NULL);
    }
  }
  cJSON_Delete(params);
}

/* A backend that came or went: its items did too. */
void gw_on_state(void *ud, size_t idx) {
  gw_hub *hub = ud;
  long k = gw_backend_of(&hub->b, idx);
  if (k < 0) {
    return;
  }
  bool ready = gw_state(hub->c, idx).connected != 0;
  /* A list in flight answers with what is there now. */
  if (ready == hub->ready[k] || hub->listing[k]) {
    return;
  }
  hub->ready[k] = ready;
  for (gw *g = hub->clients; g; g = g->next) {
    if (g->initialized || g->modern) {
      tell_lists_changed(g);
    }
  }
}

/* ---- a backend's own requests, to the client that caused them ---- */

/* The client request a backend's request on backend `idx` belongs to:
 * the one running `op` when the backend tied it to one; else the only
 * request running an operation on that backend, and NULL when there are
 * several (asking one of them would put another client's question to it
 * and its answer to the backend as the other's) or none. */
static rq *caller_of(gw_hub *hub, size_t idx, const mcp_op *op) {
  rq *only = NULL;
  size_t n = 0;
  for (gw *g = hub->clients; g; g = g->next) {
    for (rq *r = g->reqs; r; r = r->next) {
      if (!r->op || r->cancelled) {
        continue;
      }
      if (op && r->op == op) {
        return r;
      }
      if (mcp_op_server(r->op) == idx) {
        only = r;
        n++;
      }
    }
  }
  return !op && n == 1 ? only : NULL;
}

bool gw_on_backend_request(void *ud, size_t idx, const char *method,
                           const cJSON *params, const cJSON *id,
                           const mcp_op *op) {
  gw_hub *hub = ud;
  bool elicit = strcmp(method, "elicitation/create") == 0;
  bool roots = strcmp(method, "roots/list") == 0;
  bool sampling = strcmp(method, "sampling/createMessage") == 0;
  if (gw_backend_of(&hub->b, idx) < 0 || (!elicit && !roots && !sampling)) {
    return false;
  }
  /* A backend's roots are its connection's, shared by every client, and
   * a server asks for them on its own (server-everything 350 ms after
   * it started, others on list_changed) and keeps them: only a request
   * tied to a call gets that call's client's; one nothing ties, the
   * gateway's own, whatever call happens to run. */
  rq *r = roots && !op ? NULL : caller_of(hub, idx, op);
  /* A modern client is asked through an input_required round. */
  if (r && r->modern && gw_mrtr_ask(r, idx, method, params, id)) {
    return true;
  }
  gw *g = r && !r->park ? r->g : NULL;
  const char *mode =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "mode"));
  bool url = mode && strcmp(mode, "url") == 0;
  bool can = g && g->initialized &&
             (elicit  ? (url ? g->elicit_url : g->elicitation)
              : roots ? g->roots
                      : g->sampling);
  if (!can) {
    if (elicit) { /* nobody to ask: the gateway declines */
      cJSON *no = cJSON_CreateObject();
      cJSON_AddStringToObject(no, "action", "decline");
      mcp_client_answer(cli_client(hub->c), idx, id, no, 0, NULL, NULL);
      return true;
    }
    return false; /* the gateway's roots; its own sampling, if any */
  }
  gw_ask *a = xcalloc(1, sizeof *a);
  a->g = g;
  a->id = ++g->next_id;
  a->req = cJSON_Duplicate(r->id, 1);
  a->fwd_idx = idx;
  a->fwd_id = cJSON_Duplicate(id, 1);
  a->fwd_elicit = elicit;
  a->next = g->asks;
  g->asks = a;
  cJSON *m = gw_msg_new();
  cJSON_AddNumberToObject(m, "id", a->id);
  cJSON_AddStringToObject(m, "method", method);
  if (params) {
    cJSON *copy = cJSON_Duplicate(params, 1);
    /* A 2026-07-28 backend's URL elicitation has no elicitationId, which
     * an initialize-era client needs: one of the gateway's own. */
    if (url && !cJSON_IsString(
                   cJSON_GetObjectItemCaseSensitive(copy, "elicitationId"))) {
      char eid[48];
      snprintf(eid, sizeof eid, "mcphost-gateway-%lld", (long long)a->id);
      cJSON_AddStringToObject(copy, "elicitationId", eid);
    }
    cJSON_AddItemToObject(m, "params", copy);
  }
  gw_send(g, m, r->id);
  return true;
}
