/* What serve.c, serve_backends.c and serve_mrtr.c share of the gateway
 * (serve.h): a client's requests in flight, the questions put to it, the
 * hub. Loop thread only. */
#ifndef MCPHOST_CLI_SERVE_INTERNAL_H
#define MCPHOST_CLI_SERVE_INTERNAL_H

#include "gateway/serve.h"

struct gw_park;

/* The answer to a permission question, exactly once. */
typedef void (*gw_answer_fn)(void *token, bool allowed, const char *why);

/* One request of the client in flight. */
typedef struct rq {
  gw *g;
  cJSON *id;      /* owned */
  cJSON *token;   /* the client's progressToken, or NULL (owned) */
  int64_t op;     /* the single operation (mcphost_start's id), while it
                     runs */
  size_t op_idx;  /* ... its backend's config index */
  bool cancelled; /* by notifications/cancelled: not answered */
  bool resource;  /* "not found" is MCPH_RPC_RESOURCE_NOT_FOUND */
  bool cut;       /* a result whose text is cut as `call` cuts it */
  bool starting;  /* inside mcphost_start */
  bool finished;  /* answered while starting: freed by the starter */
  bool modern;    /* a 2026-07-28 request: its result says so */
  bool cacheable; /* ... and carries the cache hints (lists, reads) */
  int log_level;  /* ... and the logging it asked for, or -1 */
  /* ... what its clientCapabilities say it may be asked (form and URL
   * elicitation, roots, sampling), and, for tools/call, prompts/get and
   * resources/read, its method and params without _meta, inputResponses
   * and requestState (owned): a backend's question becomes an
   * input_required round (serve_mrtr.c). */
  bool ask_form, ask_url, ask_roots, ask_sampling;
  char *mrtr_method;
  cJSON *mrtr_params;
  struct gw_park *park; /* while it waits for the client's retry */
  unsigned long seq;    /* its place among every client's requests */
  /* A list gathered from every backend. */
  const char *kind;
  size_t pending;
  cJSON *items;          /* owned */
  struct rq_part *parts; /* the backends' lists in flight */
  /* A list the gateway makes for itself (a URI it has not seen): the
   * request waiting for it, with its method and params (owned). */
  struct rq *then;
  char *then_method;
  cJSON *then_params;
  /* initialize: waiting for the backends (with --passthrough, the one)
   * whose capabilities make the gateway's, `pending` of them. */
  struct rq_wait **waits;
  size_t nwaits;
  cJSON *init; /* its params (owned) */
  struct rq *next;
} rq;

/* initialize: one backend connecting (MCPHOST_OP_CONNECT). */
typedef struct rq_wait {
  rq *r;         /* NULL once its client went away: its `done` frees it */
  int64_t op;    /* mcphost_start's id while it runs, else 0 */
  bool starting; /* inside mcphost_start: freed by the starter */
  bool finished; /* ... and it ended there */
} rq_wait;

/* A list's part: one backend's, an operation of the public API. */
typedef struct rq_part {
  rq *r; /* NULL once its client went away: its `done` frees it */
  size_t k;
  int64_t op;    /* mcphost_start's id while it runs, else 0 */
  bool starting; /* start_list's own hold, not freed */
  struct rq_part *next;
} rq_part;

/* A question put to the client (elicitation/create): a permission asked
 * by the pipeline (`answer`), or a backend's own request forwarded
 * (`fwd`). */
typedef struct gw_ask {
  gw *g;
  double id;
  cJSON *req;   /* the client's request it is asked for (owned), or NULL */
  uint64_t ask; /* the permission question's (mcphost_ask_info.id) */
  /* A backend's request forwarded: its config index, its id (owned),
   * the request to answer. */
  size_t fwd_idx;
  cJSON *fwd_id;
  mcphost_server_request *fwd;
  bool fwd_elicit; /* an elicitation/create: refused as "cancel" */
  struct gw_ask *next;
} gw_ask;

/* A modern client's subscriptions/listen: open until cancelled or the
 * end of the client's input. */
typedef struct gw_listen {
  cJSON *id;     /* the listen request's (owned) */
  cJSON *filter; /* what it honours (owned) */
  /* The backend subscriptions of its URIs, held (serve_listen.c). */
  struct gw_sub **subs;
  size_t nsubs;
  struct gw_listen *next;
} gw_listen;

struct gw_hub {
  cli *c;
  gw_backends b;
  bool *ready;       /* per backend: ready when the clients last heard */
  unsigned *listing; /* per backend: list parts in flight */
  gw *clients;
  /* What the backends are told the gateway answers (owned): their own
   * requests go to the client whose call caused them. */
  cJSON *caps;
  unsigned long next_seq; /* orders the requests of every client */
  /* The URIs subscribed to at the backends for the listens
   * (serve_listen.c). */
  struct gw_sub *subs;
  /* Operations waiting for a modern client's retry (serve_mrtr.c). */
  struct gw_park *parks;
  size_t nparks;
  unsigned long next_input; /* names the inputRequests */
  uint64_t park_ms;         /* how long a retry may take */
  unsigned char state_key[GW_STATE_KEY];
  bool state_keyed; /* state_key was drawn */
  /* A modern request's permission questions, put as input_required
   * rounds (serve_backends.c). */
  struct gw_perm *perms;
};

struct gw {
  cli *c;
  gw_hub *hub;
  bool initialized;
  bool initializing; /* its initialize waits for the backends */
  /* The kinds of list it was answered (gw_list_bit): a change is told
   * only to a client that listed that kind; its first list is no
   * change (backends connecting are not one). */
  unsigned listed;
  /* It read a URI no list had shown: the backends' resources were
   * listed for it, once. */
  bool resources_looked;
  bool modern; /* speaks 2026-07-28 (no initialize): asked nothing */
  gw_listen *listens;
  bool elicitation; /* the client declared form elicitation */
  bool elicit_url;  /* ... and URL mode */
  bool roots;       /* the client declared roots */
  bool sampling;    /* the client declared sampling */
  rq *reqs;
  gw_ask *asks;
  double next_id;
  gw_send_fn send;
  void *send_ud;
  /* gw_client_end_input: told once nothing is in flight. */
  void (*drained)(void *ud);
  bool ending;
  size_t parked;  /* operations parked for its retry */
  bool no_method; /* sending its own "no such method" (gw_client_no_method) */
  gw *next;
};

/* ---- serve.c, for serve_mrtr.c and serve_backends.c ---- */

/* Sends `msg` (taken) to `g`; `req` as for gw_send_fn. */
void gw_send(gw *g, cJSON *msg, const cJSON *req);
/* Notification `method` with `params` (taken, may be NULL) to `g`. */
void gw_send_notification(gw *g, const char *method, cJSON *params,
                          const cJSON *req);
/* A JSON-RPC error answering `id` to `g` (gw_msg_error). */
void gw_send_error(gw *g, const cJSON *id, int code, const char *message,
                   cJSON *data);
/* Frees a request that runs nothing (unlinked from its client's). */
void gw_rq_free(rq *r);
/* Moves `r` from its client's requests to `to`'s; the one it left is
 * told when that emptied it (gw_client_end_input). */
void gw_rq_move(rq *r, gw *to);

/* ---- serve_listen.c: a modern client's subscriptions/listen ---- */

/* Opens a listen of `g` for request `id` (`params` borrowed): its filter,
 * the URIs subscribed to at their backends, linked into g->listens.
 * NULL with `why` (invalid params) when the filter is missing, names too
 * many URIs, or `g` holds too many listens. */
gw_listen *gw_listen_open(gw *g, const cJSON *id, const cJSON *params,
                          char *why, size_t why_len);
/* Frees listen `l` (unlinked by the caller): a URI no other listen names
 * is unsubscribed from at its backend. */
void gw_listen_free(gw_hub *hub, gw_listen *l);

/* ---- serve_mrtr.c: a backend's questions, to a modern client ---- */

/* The hub's parked operations: none yet; the timeout from
 * MCPHOST_SERVE_INPUT_MS. */
void gw_mrtr_init(gw_hub *hub);
/* Ends every parked operation (gw_hub_free). */
void gw_mrtr_free(gw_hub *hub);
/* Modern request `r` (`method`, `params`): what it may be asked, and
 * for the methods that may answer input_required, what a retry must
 * repeat. */
void gw_mrtr_request(rq *r, const char *method, const cJSON *params);
/* A backend's request (`method`, `params`, its `id` on backend `idx`;
 * borrowed) for the operation of modern request `r`: answered to the
 * client as an input_required round (or kept for the next one). False
 * when it cannot be (`r` is not a modern call, its request did not
 * declare the capability, the bounds are reached): the caller answers as
 * for a client without it. */
bool gw_mrtr_ask(rq *r, size_t idx, const char *method, const cJSON *params,
                 const cJSON *id, mcphost_server_request *req);
/* A permission rule's "ask" for modern request `r`: its form
 * (elicitation/create `params`, borrowed) put to the client the same way,
 * `answer(token, …)` called with the client's choice, or as refused when
 * the park ends unanswered. The handle for gw_mrtr_ask_gone, or NULL
 * when `r` cannot be asked. */
void *gw_mrtr_ask_permission(rq *r, const cJSON *params, gw_answer_fn answer,
                             void *token);
/* The pipeline withdrew the ask `handle`: true when it was one of
 * gw_mrtr_ask_permission's, now dropped unanswered. */
bool gw_mrtr_ask_gone(gw_hub *hub, void *handle);
/* A modern request `r` of `g` (`method`, `params`) with requestState or
 * inputResponses: the retry of a parked operation, which resumes under
 * `r`'s id (`r` freed), or refused with -32602. False when it carries
 * neither (`r` is an ordinary request). */
bool gw_mrtr_resume(gw *g, rq *r, const char *method, const cJSON *params);
/* Backend `idx` cancelled its request `id`: true when it waited in a
 * parked operation, now dropped (a retry need not answer it). */
bool gw_mrtr_withdrawn(gw_hub *hub, size_t idx, const cJSON *id);
/* notifications/cancelled from `g` for request `id`: true when that was
 * the last request of an operation parked for `g`, now ended. */
bool gw_mrtr_cancelled(gw *g, const cJSON *id);
/* Parked `r` is being freed (its operation ended): its park keeps the
 * answer for the retry. */
void gw_mrtr_rq_gone(rq *r);
/* `g` sends nothing more: the operations parked for it end. */
void gw_mrtr_client_ended(gw *g);
/* `g` is being freed: the operations parked for it stay (an HTTP
 * client's retry comes on another connection) but are no longer its. */
void gw_mrtr_client_gone(gw *g);

/* ---- serve_backends.c, for serve.c ---- */

/* A permission question of the client library's (mcphost_ask_fn, through
 * cli_take_asks; `ud` the hub) is put to the client whose request's
 * operation asks (an elicitation form, or an input_required round), else
 * refused; --allow answered before it comes. */
int gw_on_ask(void *ud, const mcphost_ask_info *q);
/* A question settled without the client's answer (mcphost_ask_end_fn):
 * dropped. */
void gw_on_ask_end(void *ud, uint64_t id, int allowed, const char *why);
/* Drops question `a` of `g` (unlinked and freed). */
void gw_ask_unlink(gw *g, gw_ask *a);
/* The client's answer `msg` to an elicitation/create of the gateway's. */
void gw_on_client_answer(gw *g, const cJSON *msg);
/* A backend's notification (mcphost_notify_fn, through cli_on_notify;
 * `ud` the hub). */
void gw_on_notify(void *ud, const char *server, const char *method,
                  const char *params_json);
/* The client library's hooks (`ud` the hub): a backend that came or
 * went; a backend's own request (mcphost_request_fn, through
 * cli_on_request). */
void gw_on_state(void *ud, const char *server);
int gw_on_backend_request(void *ud, const char *server, const char *method,
                          const char *params_json, mcphost_server_request *req);
/* Answers backend request `req` with `result` (borrowed), or when it is
 * NULL with the JSON-RPC error `code`, `why` and `data` (borrowed, may be
 * NULL). */
void gw_respond(gw_hub *hub, mcphost_server_request *req, const cJSON *result,
                int code, const char *why, const cJSON *data);

#endif
