/* mcphost serve: a backend's questions to a 2026-07-28 client, as
 * input_required rounds (docs/gateway.md, "Questions to a modern
 * client").
 *
 * Life of a parked operation: a backend asks (elicitation/create,
 * roots/list, sampling/createMessage; a legacy backend's own request or
 * a modern backend's inputRequests, which the client library offers the
 * same way, mcp/mrtr.h) while a modern client's tools/call, prompts/get
 * or resources/read runs on it, and that request declared the
 * capability. The operation leaves its client for a park of the hub: a
 * client of its own (`hold`) that keeps the operation's answer should it
 * end meanwhile, the backend's requests, and a requestState token
 * (serve_mrtr_state.c). The client's request is answered input_required
 * with the backend's requests as inputRequests. Its retry (the same
 * method and params, inputResponses and the token, under a new id, from
 * any client: over HTTP each POST is a client of its own) answers the
 * backend's requests and takes the operation back under its id; a
 * backend that asks again makes another round. A retry that does not
 * come in time, the client's cancel of its last request, or the end of
 * a stdio client's input ends the park: the backend's requests are
 * answered as declined (an elicitation "cancel", the others an error)
 * and the operation is cancelled. Loop thread only. */
#include <stdlib.h>
#include <string.h>

#include <mcphost/rpc.h>

#include "env_ms.h"
#include "gateway/serve_internal.h"
#include "util.h"

/* Bounds: operations parked for one client (a stdio client; an HTTP
 * POST's client holds one at most), and in all; a backend's requests
 * kept for one round. Beyond them a backend's request is answered as
 * for a client without the capability. */
#define PARKS_PER_CLIENT 16
#define PARKS_MAX 256
#define INPUTS_MAX 8
/* How long a retry may take (MCPHOST_SERVE_INPUT_MS overrides it). */
#define PARK_MS 60000

/* One request of a backend, waiting for the client's answer. */
typedef struct gw_input {
  char *key;                   /* its inputRequests key */
  size_t idx;                  /* the backend's config index */
  cJSON *id;                   /* its id on that backend (owned) */
  mcphost_server_request *req; /* the request to answer */
  cJSON *request; /* {method, params}, as inputRequests has it (owned) */
  bool elicit;    /* elicitation/create: refused as "cancel" */
  bool asked;     /* in the round the client holds */
  /* A permission rule's "ask" of the gateway's own (no backend request):
   * the client's form answer allows the call or not. */
  gw_answer_fn permission;
  void *permission_token;
  struct gw_input *next;
} gw_input;

typedef struct gw_park {
  gw_hub *hub;
  gw *hold;       /* the operation's client while parked */
  rq *r;          /* the operation; NULL once it ended */
  gw *owner;      /* the client last answered input_required, while it lives */
  cJSON *last_id; /* that answer's id (owned) */
  unsigned char nonce[GW_STATE_NONCE];
  char *state;    /* the requestState handed out */
  cJSON *outcome; /* the answer of an operation that ended parked */
  gw_input *inputs;
  mcphost_timer *timer;
  /* What every retry must repeat (owned): the operation's method and
   * params, kept should the operation end while parked. */
  char *method;
  cJSON *params;
  struct gw_park *next;
} gw_park;

static const char *const META = "_meta";

void gw_mrtr_init(gw_hub *hub) {
  hub->park_ms = env_ms("MCPHOST_SERVE_INPUT_MS", PARK_MS, false, NULL);
  hub->state_keyed = gw_state_key(hub->state_key) == 0;
}

/* The params a retry must repeat: without _meta and the round's. */
static cJSON *plain_params(const cJSON *params) {
  cJSON *p = params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject();
  cJSON_DeleteItemFromObjectCaseSensitive(p, META);
  cJSON_DeleteItemFromObjectCaseSensitive(p, "inputResponses");
  cJSON_DeleteItemFromObjectCaseSensitive(p, "requestState");
  return p;
}

void gw_mrtr_request(rq *r, const char *method, const cJSON *params) {
  const cJSON *caps = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(params, META),
      "io.modelcontextprotocol/clientCapabilities");
  const cJSON *el = cJSON_GetObjectItemCaseSensitive(caps, "elicitation");
  /* Form mode: an empty object, or one with "form" (as at initialize). */
  r->ask_form = cJSON_IsObject(el) &&
                (!el->child || cJSON_GetObjectItemCaseSensitive(el, "form"));
  r->ask_url = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(el, "url"));
  r->ask_roots =
      cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(caps, "roots"));
  r->ask_sampling =
      cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(caps, "sampling"));
  if (strcmp(method, "tools/call") == 0 || strcmp(method, "prompts/get") == 0 ||
      strcmp(method, "resources/read") == 0) {
    free(r->mrtr_method);
    cJSON_Delete(r->mrtr_params);
    r->mrtr_method = xstrdup(method);
    r->mrtr_params = plain_params(params);
  }
}

/* ---- the backend's requests ---- */

/* Answers `in` with the client's `response` (borrowed), or, when NULL,
 * as declined: an elicitation "cancel", the others the error `why`. */
static void input_answer(gw_hub *hub, gw_input *in, const cJSON *response,
                         const char *why) {
  if (in->permission) {
    const char *action = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(response, "action"));
    bool yes =
        action && strcmp(action, "accept") == 0 &&
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(response, "content"), "allow"));
    in->permission(in->permission_token, yes,
                   yes        ? "allowed by the gateway's client"
                   : response ? "refused by the gateway's client"
                              : why);
    return;
  }
  cJSON *res = response ? cJSON_Duplicate(response, 1) : NULL;
  if (!res && in->elicit) {
    res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "action", "cancel");
  }
  gw_respond(hub, in->req, res, MCPH_RPC_INTERNAL_ERROR, why, NULL);
  cJSON_Delete(res);
}

static void input_free(gw_input *in) {
  free(in->key);
  cJSON_Delete(in->id);
  cJSON_Delete(in->request);
  free(in);
}

static size_t input_count(const gw_park *p) {
  size_t n = 0;
  for (const gw_input *in = p->inputs; in; in = in->next) {
    n++;
  }
  return n;
}

static gw_input *input_add(gw_park *p, size_t idx, const char *method,
                           const cJSON *params, const cJSON *id,
                           mcphost_server_request *req) {
  gw_input *in = xcalloc(1, sizeof *in);
  bool elicit = strcmp(method, "elicitation/create") == 0;
  in->key = xasprintf("%s-%lu",
                      elicit                              ? "elicitation"
                      : strcmp(method, "roots/list") == 0 ? "roots"
                                                          : "sampling",
                      ++p->hub->next_input);
  in->idx = idx;
  in->id = cJSON_Duplicate(id, 1);
  in->req = req;
  in->request = cJSON_CreateObject();
  cJSON_AddStringToObject(in->request, "method", method);
  if (params) {
    cJSON *copy = cJSON_Duplicate(params, 1);
    /* The backend's request's own _meta is not the client's business. */
    cJSON_DeleteItemFromObjectCaseSensitive(copy, META);
    cJSON_AddItemToObject(in->request, "params", copy);
  }
  in->elicit = elicit;
  gw_input **tail = &p->inputs;
  while (*tail) {
    tail = &(*tail)->next;
  }
  *tail = in;
  return in;
}

/* ---- parks ---- */

/* The hold's send: only the operation's answer is kept. */
static void hold_send(void *ud, cJSON *msg, const cJSON *req) {
  (void)req;
  gw_park *p = ud;
  if (!cJSON_GetObjectItemCaseSensitive(msg, "method")) {
    cJSON_Delete(p->outcome);
    p->outcome = msg;
    return;
  }
  cJSON_Delete(msg); /* its progress and logs: nobody to take them */
}

static void park_expired(void *ud);

static void owner_set(gw_park *p, gw *g, const cJSON *id) {
  if (p->owner) {
    p->owner->parked--;
  }
  p->owner = g;
  g->parked++;
  cJSON_Delete(p->last_id);
  p->last_id = cJSON_Duplicate(id, 1);
}

/* Ends `p`: what the backend still waits for is declined with `why`, the
 * operation (if it still runs) cancelled, `p` freed. */
static void park_end(gw_park *p, const char *why) {
  gw_hub *hub = p->hub;
  for (gw_park **pp = &hub->parks; *pp; pp = &(*pp)->next) {
    if (*pp == p) {
      *pp = p->next;
      break;
    }
  }
  hub->nparks--;
  if (p->timer) {
    mcphost_timer_cancel(cli_api(hub->c), p->timer);
  }
  if (p->owner) {
    p->owner->parked--;
  }
  while (p->inputs) {
    gw_input *in = p->inputs;
    p->inputs = in->next;
    input_answer(hub, in, NULL, why);
    input_free(in);
  }
  /* Its one request, if still there, is cancelled without an answer. */
  gw_client_free(p->hold);
  cJSON_Delete(p->last_id);
  cJSON_Delete(p->outcome);
  free(p->method);
  cJSON_Delete(p->params);
  free(p->state);
  free(p);
}

static void park_expired(void *ud) {
  gw_park *p = ud;
  p->timer = NULL;
  park_end(p, "the gateway's client did not retry its request in time");
}

/* A new round: a new token, the timer started again, and the client's
 * request `p->last_id` answered input_required with the backend's
 * requests not asked yet. False when no token could be made. */
static bool park_round(gw_park *p, gw *to) {
  char *state = gw_state_make(p->hub->state_key, p->nonce);
  if (!state || !p->hub->state_keyed) {
    free(state);
    return false;
  }
  free(p->state);
  p->state = state;
  mcphost_client *api = cli_api(p->hub->c);
  if (p->timer) {
    mcphost_timer_cancel(api, p->timer);
  }
  p->timer = mcphost_timer_start(api, p->hub->park_ms, park_expired, p);
  cJSON *res = cJSON_CreateObject();
  cJSON_AddStringToObject(res, "resultType", "input_required");
  cJSON *reqs = cJSON_AddObjectToObject(res, "inputRequests");
  for (gw_input *in = p->inputs; in; in = in->next) {
    if (!in->asked) {
      in->asked = true;
      cJSON_AddItemToObject(reqs, in->key, cJSON_Duplicate(in->request, 1));
    }
  }
  cJSON_AddStringToObject(res, "requestState", p->state);
  gw_modern_result(res, false);
  cJSON *m = gw_msg_new();
  cJSON_AddItemToObject(m, "id", cJSON_Duplicate(p->last_id, 1));
  cJSON_AddItemToObject(m, "result", res);
  gw_send(to, m, p->last_id);
  return true;
}

/* Parks `r` (or adds to its park) with one more input; NULL when it
 * cannot be asked. */
static gw_input *park_input(rq *r, size_t idx, const char *method,
                            const cJSON *params, const cJSON *id,
                            mcphost_server_request *req) {
  const char *mode =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "mode"));
  bool can = strcmp(method, "elicitation/create") == 0
                 ? (mode && strcmp(mode, "url") == 0 ? r->ask_url : r->ask_form)
             : strcmp(method, "roots/list") == 0 ? r->ask_roots
                                                 : r->ask_sampling;
  if (!can || !r->mrtr_method) {
    return NULL;
  }
  gw_park *p = r->park;
  if (p) { /* asked while parked: in the next round */
    if (input_count(p) >= INPUTS_MAX) {
      return NULL;
    }
    return input_add(p, idx, method, params, id, req);
  }
  gw *g = r->g;
  gw_hub *hub = g->hub;
  if (g->ending || hub->nparks >= PARKS_MAX || g->parked >= PARKS_PER_CLIENT) {
    return NULL;
  }
  p = xcalloc(1, sizeof *p);
  p->hub = hub;
  p->r = r;
  gw_input *in = input_add(p, idx, method, params, id, req);
  owner_set(p, g, r->id);
  if (!park_round(p, g)) {
    g->parked--;
    input_free(p->inputs);
    cJSON_Delete(p->last_id);
    free(p);
    return NULL;
  }
  p->method = xstrdup(r->mrtr_method);
  p->params = cJSON_Duplicate(r->mrtr_params, 1);
  p->hold = gw_client_new(hub, hold_send, p);
  p->next = hub->parks;
  hub->parks = p;
  hub->nparks++;
  r->park = p;
  gw_rq_move(r, p->hold); /* last: it may tell `g` it has drained */
  return in;
}

bool gw_mrtr_ask(rq *r, size_t idx, const char *method, const cJSON *params,
                 const cJSON *id, mcphost_server_request *req) {
  return park_input(r, idx, method, params, id, req) != NULL;
}

void *gw_mrtr_ask_permission(rq *r, const cJSON *params, gw_answer_fn answer,
                             void *token) {
  /* The input is made before it is marked as a permission's: a round
   * answered at once cannot reach it unmarked (park_round only sends). */
  gw_input *in = park_input(r, 0, "elicitation/create", params, NULL, NULL);
  if (in) {
    in->permission = answer;
    in->permission_token = token;
  }
  return in;
}

bool gw_mrtr_ask_gone(gw_hub *hub, void *handle) {
  for (gw_park *p = hub->parks; p; p = p->next) {
    for (gw_input **pp = &p->inputs; *pp; pp = &(*pp)->next) {
      if (*pp == handle) {
        gw_input *in = *pp;
        *pp = in->next;
        input_free(in);
        return true;
      }
    }
  }
  return false;
}

void gw_mrtr_rq_gone(rq *r) {
  r->park->r = NULL;
  r->park = NULL;
}

/* The park `token` names, when this gateway made it and still holds it:
 * compared byte for byte. */
static gw_park *park_of(gw_hub *hub, const cJSON *token) {
  unsigned char nonce[GW_STATE_NONCE];
  if (!token || !cJSON_IsString(token) || !hub->state_keyed ||
      !gw_state_check(hub->state_key, token->valuestring, nonce)) {
    return NULL;
  }
  for (gw_park *p = hub->parks; p; p = p->next) {
    if (memcmp(p->nonce, nonce, sizeof nonce) == 0 &&
        strcmp(p->state, token->valuestring) == 0) {
      return p;
    }
  }
  return NULL;
}

/* Why the retry `params` cannot resume `p`, or NULL; `*key` names a
 * missing input's key. */
static const char *retry_fault(const gw_park *p, const char *method,
                               const cJSON *params, const char **key) {
  cJSON *plain = plain_params(params);
  bool same =
      strcmp(method, p->method) == 0 && cJSON_Compare(plain, p->params, true);
  cJSON_Delete(plain);
  if (!same) {
    return "the retry's method and params must be those of the request "
           "answered input_required";
  }
  const cJSON *got = cJSON_GetObjectItemCaseSensitive(params, "inputResponses");
  for (const gw_input *in = p->inputs; in; in = in->next) {
    if (in->asked &&
        !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(got, in->key))) {
      *key = in->key;
      return "inputResponses has no object for an input it was asked";
    }
  }
  return NULL;
}

bool gw_mrtr_resume(gw *g, rq *r, const char *method, const cJSON *params) {
  const cJSON *token = cJSON_GetObjectItemCaseSensitive(params, "requestState");
  if (!token && !cJSON_GetObjectItemCaseSensitive(params, "inputResponses")) {
    return false;
  }
  gw_hub *hub = g->hub;
  gw_park *p = park_of(hub, token);
  const char *key = NULL;
  const char *why = p ? retry_fault(p, method, params, &key)
                      : "requestState failed verification: the gateway did "
                        "not issue it, or it was used, expired or cancelled";
  if (why) {
    cJSON *data = NULL;
    if (key) {
      data = cJSON_CreateObject();
      cJSON_AddStringToObject(data, "inputResponse", key);
    }
    gw_send_error(g, r->id, MCPH_RPC_INVALID_PARAMS, why, data);
    gw_rq_free(r);
    return true;
  }
  /* The round is answered: its inputs go to the backends. */
  const cJSON *got = cJSON_GetObjectItemCaseSensitive(params, "inputResponses");
  for (gw_input **pp = &p->inputs; *pp;) {
    gw_input *in = *pp;
    if (!in->asked) {
      pp = &in->next;
      continue;
    }
    *pp = in->next;
    input_answer(hub, in, cJSON_GetObjectItemCaseSensitive(got, in->key), NULL);
    input_free(in);
  }
  rq *op = p->r;
  if (!op) { /* it ended while parked: its answer, under the new id */
    cJSON *m = p->outcome;
    p->outcome = NULL;
    if (m) {
      cJSON_ReplaceItemInObjectCaseSensitive(m, "id",
                                             cJSON_Duplicate(r->id, 1));
      gw_send(g, m, r->id);
    } else {
      gw_send_error(g, r->id, MCPH_RPC_INTERNAL_ERROR,
                    "the operation ended without an answer", NULL);
    }
    gw_rq_free(r);
    park_end(p, "the operation ended");
    return true;
  }
  /* The operation goes on as the retry: its id, token, logging, what it
   * may be asked. */
  cJSON *swap = op->id;
  op->id = r->id;
  r->id = swap;
  swap = op->token;
  op->token = r->token;
  r->token = swap;
  op->log_level = r->log_level;
  op->seq = r->seq;
  op->ask_form = r->ask_form;
  op->ask_url = r->ask_url;
  op->ask_roots = r->ask_roots;
  op->ask_sampling = r->ask_sampling;
  gw_rq_free(r);
  owner_set(p, g, op->id);
  if (p->inputs && park_round(p, g)) {
    return true; /* it had asked more meanwhile: the next round */
  }
  op->park = NULL;
  p->r = NULL;
  gw_rq_move(op, g);
  park_end(p, "the gateway could not ask its client again");
  return true;
}

bool gw_mrtr_withdrawn(gw_hub *hub, size_t idx, const cJSON *id) {
  for (gw_park *p = hub->parks; p; p = p->next) {
    for (gw_input **pp = &p->inputs; *pp; pp = &(*pp)->next) {
      gw_input *in = *pp;
      if (in->req && in->idx == idx && cJSON_Compare(in->id, id, true)) {
        *pp = in->next;
        /* Freed: the library sends nothing for it now. */
        mcphost_respond(cli_api(hub->c), in->req, NULL, MCPH_RPC_INTERNAL_ERROR,
                        "cancelled by the server", NULL);
        input_free(in);
        return true;
      }
    }
  }
  return false;
}

bool gw_mrtr_cancelled(gw *g, const cJSON *id) {
  for (gw_park *p = g->hub->parks; p; p = p->next) {
    if (p->owner == g && cJSON_Compare(p->last_id, id, true)) {
      park_end(p, "the gateway's client cancelled its request");
      return true;
    }
  }
  return false;
}

void gw_mrtr_client_ended(gw *g) {
  gw_park **pp = &g->hub->parks;
  while (*pp) {
    if ((*pp)->owner == g) {
      park_end(*pp, "the gateway's client closed its input");
    } else {
      pp = &(*pp)->next;
    }
  }
}

void gw_mrtr_client_gone(gw *g) {
  for (gw_park *p = g->hub->parks; p; p = p->next) {
    if (p->owner == g) {
      p->owner = NULL;
      g->parked--;
    }
  }
}

void gw_mrtr_free(gw_hub *hub) {
  while (hub->parks) {
    park_end(hub->parks, "the gateway is ending");
  }
}
