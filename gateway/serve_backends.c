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
#include "json_write.h"
#include "util.h"

/* ---- the permission asker: --allow, else the client ---- */

/* The elicitation/create params that put permission question `q` to a
 * client: a form with one boolean, "allow". */
static cJSON *ask_params(const mcphost_ask_info *q) {
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

/* A modern request's permission question, put as an input_required
 * round: the library's question `id` and the round's handle. */
typedef struct gw_perm {
  gw_hub *hub;
  uint64_t id;
  void *handle;
  struct gw_perm *next;
} gw_perm;

static void perm_unlink(gw_perm *p) {
  for (gw_perm **pp = &p->hub->perms; *pp; pp = &(*pp)->next) {
    if (*pp == p) {
      *pp = p->next;
      break;
    }
  }
  free(p);
}

/* The round's answer (gw_answer_fn): the library's question's. */
static void perm_answered(void *token, bool allowed, const char *why) {
  gw_perm *p = token;
  mcphost_ask_answer(cli_api(p->hub->c), p->id, allowed, why, NULL);
  perm_unlink(p);
}

/* Whether `r` runs operation `op`: the one being started is asked from
 * inside mcphost_start (a tool list known, the rule asks at once), before
 * it knows its id. */
static bool runs(const rq *r, int64_t op) {
  return op && (r->op == op || (r->starting && !r->op));
}

/* The request whose operation is `op`, or NULL. */
static rq *rq_of_op(gw_hub *hub, int64_t op) {
  for (gw *g = hub->clients; g && op; g = g->next) {
    for (rq *r = g->reqs; r; r = r->next) {
      if (runs(r, op)) {
        return r;
      }
    }
  }
  return NULL;
}

int gw_on_ask(void *ud, const mcphost_ask_info *q) {
  gw_hub *hub = ud;
  mcphost_client *api = cli_api(hub->c);
  rq *r = rq_of_op(hub, q->op);
  if (r && r->modern) { /* an input_required round (serve_mrtr.c) */
    gw_perm *pm = xcalloc(1, sizeof *pm);
    pm->hub = hub;
    pm->id = q->id;
    cJSON *p = ask_params(q);
    pm->handle = gw_mrtr_ask_permission(r, p, perm_answered, pm);
    cJSON_Delete(p);
    if (!pm->handle) {
      free(pm);
      mcphost_ask_answer(api, q->id, 0,
                         "the gateway's client cannot be asked (its request "
                         "declared no elicitation form); allow the tool with "
                         "a permission rule or --allow",
                         NULL);
    } else {
      pm->next = hub->perms;
      hub->perms = pm;
    }
    return 1;
  }
  gw *g = r ? r->g : NULL;
  if (!g || !g->elicitation) {
    mcphost_ask_answer(api, q->id, 0,
                       "the gateway's client cannot be asked (it declared no "
                       "elicitation); allow the tool with a permission rule "
                       "or --allow",
                       NULL);
    return 1;
  }
  gw_ask *a = xcalloc(1, sizeof *a);
  a->g = g;
  a->id = ++g->next_id;
  a->req = cJSON_Duplicate(r->id, 1);
  a->ask = q->id;
  a->next = g->asks;
  g->asks = a;
  cJSON *m = gw_msg_new();
  cJSON_AddNumberToObject(m, "id", a->id);
  cJSON_AddStringToObject(m, "method", "elicitation/create");
  cJSON_AddItemToObject(m, "params", ask_params(q));
  gw_send(g, m, r->id);
  return 1;
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

void gw_on_ask_end(void *ud, uint64_t id, int allowed, const char *why) {
  (void)allowed;
  (void)why;
  gw_hub *hub = ud;
  for (gw_perm *p = hub->perms; p; p = p->next) {
    if (p->id == id) {
      gw_mrtr_ask_gone(hub, p->handle);
      perm_unlink(p);
      return;
    }
  }
  for (gw *g = hub->clients; g; g = g->next) {
    for (gw_ask *a = g->asks; a; a = a->next) {
      if (a->ask == id && !a->fwd) {
        gw_ask_unlink(g, a);
        return;
      }
    }
  }
}

void gw_respond(gw_hub *hub, mcphost_server_request *req, const cJSON *result,
                int code, const char *why, const cJSON *data) {
  mcphost_client *api = cli_api(hub->c);
  strbuf text;
  sb_init(&text);
  if (result && json_write(&text, result) == 0) {
    mcphost_respond(api, req, sb_str(&text), 0, NULL, NULL);
  } else if (data && json_write(&text, data) == 0) {
    mcphost_respond_error(api, req, code, why, sb_str(&text), NULL);
  } else {
    mcphost_respond(api, req, NULL, code, why, NULL);
  }
  sb_free(&text);
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
  if (a->fwd) { /* a backend's request: its answer goes back */
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(msg, "error");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
    const char *why =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
    gw_respond(g->hub, a->fwd, res,
               cJSON_IsNumber(code) && code->valueint != 0
                   ? code->valueint
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
  uint64_t ask = a->ask;
  gw_ask_unlink(g, a);
  mcphost_ask_answer(cli_api(g->c), ask, yes,
                     yes ? "allowed by the gateway's client"
                         : "refused by the gateway's client",
                     NULL);
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
        r->op_idx == idx) {
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
      if (a->fwd && a->fwd_idx == idx && cJSON_Compare(a->fwd_id, rid, true)) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "requestId", a->id);
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(params, "reason");
        if (cJSON_IsString(why)) {
          cJSON_AddStringToObject(p, "reason", why->valuestring);
        }
        gw_send_notification(g, "notifications/cancelled", p, a->req);
        /* Freed: the library sends nothing for it now. */
        mcphost_respond(cli_api(hub->c), a->fwd, NULL, MCPH_RPC_INTERNAL_ERROR,
                        "cancelled by the server", NULL);
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
void gw_on_state(void *ud, const char *server) {
  gw_hub *hub = ud;
  long found = cli_find_server(hub->c, server);
  size_t idx = found < 0 ? 0 : (size_t)found;
  long k = found < 0 ? -1 : gw_backend_of(&hub->b, idx);
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
static rq *caller_of(gw_hub *hub, size_t idx, int64_t op) {
  rq *only = NULL;
  size_t n = 0;
  for (gw *g = hub->clients; g; g = g->next) {
    for (rq *r = g->reqs; r; r = r->next) {
      if (runs(r, op) && !r->cancelled) {
        return r;
      }
      if (!r->op || r->cancelled) {
        continue;
      }
      if (r->op_idx == idx) {
        only = r;
        n++;
      }
    }
  }
  return !op && n == 1 ? only : NULL;
}

/* A backend's request, as gw_on_backend_request is given it. */
static bool backend_request(gw_hub *hub, size_t idx, const char *method,
                            const cJSON *params, const cJSON *id, int64_t op,
                            mcphost_server_request *req);

int gw_on_backend_request(void *ud, const char *server, const char *method,
                          const char *params_json,
                          mcphost_server_request *req) {
  gw_hub *hub = ud;
  bool elicit = strcmp(method, "elicitation/create") == 0;
  bool roots = strcmp(method, "roots/list") == 0;
  bool sampling = strcmp(method, "sampling/createMessage") == 0;
  long found = cli_find_server(hub->c, server);
  mcphost_server_request_info info = MCPHOST_SERVER_REQUEST_INFO_INIT;
  if (found < 0 || gw_backend_of(&hub->b, (size_t)found) < 0 ||
      (!elicit && !roots && !sampling) ||
      mcphost_server_request_get(req, &info, NULL) != MCPHOST_OK) {
    return 0;
  }
  cJSON *params = json_parse(params_json, strlen(params_json), NULL);
  if (cJSON_IsObject(params) && !params->child) {
    cJSON_Delete(params); /* "{}" is a request without params */
    params = NULL;
  }
  cJSON *id = json_parse(info.id_json, strlen(info.id_json), NULL);
  bool took =
      backend_request(hub, (size_t)found, method, params, id, info.op, req);
  cJSON_Delete(params);
  cJSON_Delete(id);
  return took;
}

static bool backend_request(gw_hub *hub, size_t idx, const char *method,
                            const cJSON *params, const cJSON *id, int64_t op,
                            mcphost_server_request *req) {
  bool elicit = strcmp(method, "elicitation/create") == 0;
  bool roots = strcmp(method, "roots/list") == 0;
  /* A backend's roots are its connection's, shared by every client, and
   * a server asks for them on its own (server-everything 350 ms after
   * it started, others on list_changed) and keeps them: only a request
   * tied to a call gets that call's client's; one nothing ties, the
   * gateway's own, whatever call happens to run. */
  rq *r = roots && !op ? NULL : caller_of(hub, idx, op);
  /* A modern client is asked through an input_required round. */
  if (r && r->modern && gw_mrtr_ask(r, idx, method, params, id, req)) {
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
      gw_respond(hub, req, no, 0, NULL, NULL);
      cJSON_Delete(no);
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
  a->fwd = req;
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
