#include "mcp/feature_plugins.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/host.h"
#include "core/host_ui.h"
#include "core/request.h"
#include "util.h"
#include "mcp/session.h" /* session_request */
#include "mcp/session_access.h"
#include "json_parse.h"
#include "json_write.h"

/* One slot per plugin, in search order, so a record's address is stable
 * (a request keeps its owner) while deferred plugins join later. */
typedef struct feature_rec {
  plugin *p;
  const mcph_feature *f; /* NULL: no feature (yet) */
  bool pending;          /* deferred (ABI 1.6): initialized when needed */
  /* Deferred, its provides list naming no feature: asked for one once
   * it is initialized for something else (its transport, source or
   * command), and then not again. */
  bool asked;
} feature_rec;

/* The layer's state in the host (h->features). */
typedef struct features_state {
  /* The sessions the features were told are connected (and not told
   * since that they went), in that order: a feature that joins late is
   * told of them first, as if it had been there all along. */
  session **up;
  size_t nup;
  feature_rec recs[]; /* one per plugin */
} features_state;

/* A server request handed to a plugin, answered the one way (request.h).
 * It lives until answered; if its session goes first, `s` becomes NULL
 * and the answer is dropped. */
typedef struct feature_request {
  mcph_request base; /* first: the handle the plugin answers */
  session *s;
  cJSON *id;
  struct feature_request *next; /* the session's unanswered list */
  /* A request the host itself asks (see features_local_request): the
   * answer goes here instead of to the server. */
  features_answer_fn local_done;
  void *local_ud;
  const feature_rec *rec; /* the feature answering it */
  bool pausing;   /* holds the session's deadlines (rpc_pause_deadlines) */
  bool cancelled; /* the server withdrew it: the answer is not sent */
} feature_request;

static const request_ops feature_request_ops;

/* mcph_server is the session itself, seen through an opaque type. */
static session *S(const mcph_server *server) { return (session *)server; }
static mcph_server *SRV(session *s) { return (mcph_server *)s; }

static features_state *state(const host *h) {
  return h->features;
}
static feature_rec *all(const host *h) {
  return h->features ? state(h)->recs : NULL;
}

static void take_feature(host *h, feature_rec *r) {
  r->pending = false;
  r->asked = true;
  const mcph_feature *f = plugin_extension(r->p, MCPH_EXT_FEATURE);
  if (!f) {
    return;
  }
  if (!MCPH_HAS(f, mcph_feature, on_server)) {
    host_log(h, MCPH_LOG_WARN, r->p->id,
             "feature extension too small (%u bytes); ignored",
             f->struct_size);
    return;
  }
  r->f = f;
  /* Joining after servers connected (a sleeping feature woken, one
   * initialized for something else): it is told of them now. The list
   * is read afresh at each step, since the feature may act on it. */
  features_state *st = state(h);
  for (size_t i = 0; st && i < st->nup && f->on_server; i++) {
    f->on_server(r->p->ctx, SRV(st->up[i]), MCPH_SERVER_CONNECTED);
  }
}

void features_collect(host *h) {
  h->features = xcalloc(1, sizeof(features_state) +
                               (h->reg.nplugins + 1) * sizeof(feature_rec));
  h->nfeatures = h->reg.nplugins;
  feature_rec *recs = all(h);
  for (size_t i = 0; i < h->reg.nplugins; i++) {
    plugin *p = h->reg.plugins[i];
    recs[i].p = p;
    if (!p->loaded)
      continue;
    if (!p->initialized) {
      /* Deferred: initialized before the first handshake needs it, when
       * its list names a feature. */
      recs[i].pending = plugin_offers(p, MCPH_EXT_FEATURE);
      continue;
    }
    take_feature(h, &recs[i]);
  }
}

/* A deferred feature that gives its capabilities without init (ABI
 * 1.7): its provides list while it sleeps, else NULL. */
static const mcph_provides *asleep(const feature_rec *r) {
  const mcph_provides *pr = r->p->provides;
  return r->pending && !r->p->initialized &&
                 MCPH_HAS(pr, mcph_provides, capabilities) && pr->capabilities
             ? pr
             : NULL;
}

/* Deferred feature plugins join before the first connection needs them,
 * unless they sleep until a server asks them something; one whose list
 * names no feature (the IDE's, which serves only its own servers) joins
 * once something else initialized it. */
static void features_ready(host *h) {
  feature_rec *recs = all(h);
  for (size_t i = 0; i < h->nfeatures; i++) {
    plugin *p = recs[i].p;
    if ((recs[i].pending && !asleep(&recs[i])) ||
        (!recs[i].asked && p->loaded && p->initialized && p->provides)) {
      take_feature(h, &recs[i]);
    }
  }
}

static bool names(const char *const *list, const char *method) {
  for (; list && *list; list++) {
    size_t n = strlen(*list);
    if (n && (*list)[n - 1] == '*' ? strncmp(*list, method, n - 1) == 0
                                   : strcmp(*list, method) == 0)
      return true;
  }
  return false;
}

/* A sleeping feature whose provides list names `method` (a request when
 * `request`, else a notification) is initialized before it is routed. */
static void wake_for(host *h, const char *method, bool request) {
  feature_rec *recs = all(h);
  for (size_t i = 0; i < h->nfeatures; i++) {
    const mcph_provides *pr = asleep(&recs[i]);
    if (pr && names(request ? pr->requests : pr->notifications, method)) {
      take_feature(h, &recs[i]);
    }
  }
}

void features_free(host *h) {
  if (h->features) {
    free(state(h)->up);
  }
  free(h->features);
  h->features = NULL;
  h->nfeatures = 0;
}

static const feature_rec *recs(const host *h) {
  return all(h);
}

/* `s` is no longer among the connected sessions. */
static void forget_up(host *h, const session *s) {
  features_state *st = state(h);
  for (size_t i = 0; st && i < st->nup; i++) {
    if (st->up[i] == s) {
      memmove(&st->up[i], &st->up[i + 1], (st->nup - i - 1) * sizeof *st->up);
      st->nup--;
      return;
    }
  }
}

void features_add_capabilities(host *h, cJSON *caps) {
  features_ready(h);
  for (size_t i = 0; i < h->nfeatures; i++) {
    feature_rec *r = &all(h)[i];
    const mcph_provides *pr = asleep(r);
    const char *text = NULL;
    if (pr) {
      int init_now = 0;
      text = pr->capabilities(&r->p->handle.api, &init_now);
      if (init_now) {
        take_feature(h, r);
        pr = NULL;
      }
    }
    if (!pr) {
      if (!r->f || !r->f->capabilities)
        continue;
      text = r->f->capabilities(r->p->ctx);
    }
    if (!text)
      continue;
    cJSON *add = json_parse_str(text);
    if (!cJSON_IsObject(add)) {
      host_log(h, MCPH_LOG_WARN, r->p->id,
               "its capabilities are not a JSON object; ignored");
      cJSON_Delete(add);
      continue;
    }
    while (add->child) {
      cJSON *item = cJSON_DetachItemViaPointer(add, add->child);
      if (cJSON_GetObjectItemCaseSensitive(caps, item->string))
        cJSON_Delete(item);
      else
        cJSON_AddItemToObject(caps, item->string, item);
    }
    cJSON_Delete(add);
  }
}

/* Hands `method` to the first feature that answers it, with a new request
 * record (answered through the service; `done` set for the host's own
 * requests). Returns false when no feature answers it. */
static bool dispatch(session *s, const char *method, const cJSON *params,
                     const cJSON *id, features_answer_fn done, void *ud) {
  host *h = session_host(s);
  wake_for(h, method, true);
  for (size_t i = 0; i < h->nfeatures; i++) {
    const feature_rec *r = &recs(h)[i];
    if (!r->f || !r->f->on_request || !names(r->f->requests, method))
      continue;
    feature_request *req = xcalloc(1, sizeof *req);
    req->base = (mcph_request){&feature_request_ops, r->p};
    req->s = s;
    req->id = id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull();
    req->local_done = done;
    req->local_ud = ud;
    req->rec = r;
    /* The server waits for this answer, maybe for a person: its own
     * requests in flight are not late meanwhile. */
    if (!done) {
      req->pausing = true;
      rpc_pause_deadlines(session_rpc(s));
    }
    req->next = *session_feature_requests(s);
    *session_feature_requests(s) = req;
    char *text = params ? json_print(params) : NULL;
    mcph_error err;
    mcph_error_init(&err);
    int rc = r->f->on_request(r->p->ctx, SRV(s), method, text ? text : "{}",
                              &req->base, &err);
    cJSON_free(text);
    if (rc != 0)
      request_respond_error(&h->self.api, &req->base, MCPH_RPC_INTERNAL_ERROR,
                            err.message[0] ? err.message : "request failed",
                            NULL, NULL);
    return true;
  }
  return false;
}

bool features_request(session *s, const char *method, const cJSON *params,
                      const cJSON *id) {
  return dispatch(s, method, params, id, NULL, NULL);
}

bool features_local_request(session *s, const char *method,
                            const cJSON *params, features_answer_fn done,
                            void *ud) {
  return dispatch(s, method, params, NULL, done, ud);
}

void features_notify(session *s, const char *method, const cJSON *params) {
  host *h = session_host(s);
  wake_for(h, method, false);
  for (size_t i = 0; i < h->nfeatures; i++) {
    const feature_rec *r = &recs(h)[i];
    if (!r->f || !r->f->on_notification ||
        !names(r->f->notifications, method))
      continue;
    char *text = params ? json_print(params) : NULL;
    r->f->on_notification(r->p->ctx, SRV(s), method, text ? text : "{}");
    cJSON_free(text);
    return;
  }
}

void features_server_event(session *s, int event) {
  host *h = session_host(s);
  if (event != MCPH_SERVER_CONNECTED) {
    forget_up(h, s);
  }
  features_ready(h);
  for (size_t i = 0; i < h->nfeatures; i++) {
    const feature_rec *r = &recs(h)[i];
    if (!r->f)
      continue;
    /* An event a plugin's ABI did not have yet is not sent to it. */
    if (event == MCPH_SERVER_FAILED && r->p->abi_minor < 5)
      continue;
    if (r->f->on_server)
      r->f->on_server(r->p->ctx, SRV(s), event);
  }
  /* After the features were told: one that joins from here on is told
   * of it when it joins. */
  features_state *st = state(h);
  if (event == MCPH_SERVER_CONNECTED && st) {
    forget_up(h, s);
    st->up = xrealloc(st->up, (st->nup + 1) * sizeof *st->up);
    st->up[st->nup++] = s;
  }
}

void features_describe(session *s, features_note_fn note, void *ud) {
  host *h = session_host(s);
  /* A sleeping feature may have something to say about the server (why
   * channels skip it): describing is a use that wakes it. */
  for (size_t i = 0; i < h->nfeatures; i++) {
    if (asleep(&all(h)[i])) {
      take_feature(h, &all(h)[i]);
    }
  }
  for (size_t i = 0; i < h->nfeatures; i++) {
    const feature_rec *r = &recs(h)[i];
    if (!r->f || !MCPH_HAS(r->f, mcph_feature, describe) || !r->f->describe)
      continue;
    const char *line = r->f->describe(r->p->ctx, SRV(s));
    if (line && *line)
      note(ud, r->p->id, line);
  }
}

void features_connection_lost(session *s) {
  for (feature_request *req = *session_feature_requests(s); req;
       req = req->next) {
    if (req->pausing)
      rpc_resume_deadlines(session_rpc(s));
    req->pausing = false;
    req->s = NULL; /* its answer has nobody to go to */
  }
  *session_feature_requests(s) = NULL;
}

/* The feature stops working on `req`; its answer is not sent. */
static void withdraw(session *s, feature_request *req) {
  req->cancelled = true;
  if (req->pausing) /* the server no longer waits for it */
    rpc_resume_deadlines(session_rpc(s));
  req->pausing = false;
  const mcph_feature *f = req->rec->f;
  if (MCPH_HAS(f, mcph_feature, on_cancelled) && f->on_cancelled)
    f->on_cancelled(req->rec->p->ctx, SRV(s), &req->base);
}

void features_cancelled(session *s, const cJSON *params) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(params, "requestId");
  if (!id)
    return;
  for (feature_request *req = *session_feature_requests(s); req;
       req = req->next) {
    if (req->local_done || req->cancelled || !cJSON_Compare(req->id, id, 1))
      continue;
    withdraw(s, req);
    return;
  }
}

void features_local_cancel(session *s, features_answer_fn done, void *ud) {
  for (feature_request *req = *session_feature_requests(s); req;
       req = req->next) {
    if (req->local_done == done && req->local_ud == ud && !req->cancelled) {
      withdraw(s, req);
      return;
    }
  }
}

void features_session_gone(session *s) {
  forget_up(session_host(s), s);
  for (feature_request *r = *session_feature_requests(s); r; r = r->next)
    r->s = NULL;
  *session_feature_requests(s) = NULL;
}

/* ---- the service ---- */

/* Unlinks and frees a request once answered. */
static void request_done(feature_request *req) {
  if (req->s && req->pausing)
    rpc_resume_deadlines(session_rpc(req->s));
  if (req->s) {
    for (feature_request **pp = session_feature_requests(req->s); *pp;
         pp = &(*pp)->next)
      if (*pp == req) {
        *pp = req->next;
        break;
      }
  }
  cJSON_Delete(req->id);
  free(req);
}

/* The answer goes to the server (or to the host's own asker), unless the
 * server went away or withdrew the request. */
static int answer_result(mcph_request *base, cJSON *result, mcph_error *err) {
  (void)err;
  feature_request *req = (feature_request *)base;
  if (req->local_done) {
    req->local_done(req->local_ud, result, 0, NULL);
    cJSON_Delete(result);
  } else if (req->s && session_is_ready(req->s) && !req->cancelled)
    rpc_respond(session_rpc(req->s), req->id, result);
  else
    cJSON_Delete(result); /* the server is gone: nobody to answer */
  request_done(req);
  return MCPH_OK;
}

static void answer_error(mcph_request *base, int code, const char *message,
                         cJSON *data) {
  feature_request *req = (feature_request *)base;
  if (req->local_done)
    req->local_done(req->local_ud, NULL, code, message);
  else if (req->s && session_is_ready(req->s) && !req->cancelled) {
    rpc_respond_error_data(session_rpc(req->s), req->id, code, message, data);
    data = NULL;
  }
  cJSON_Delete(data);
  request_done(req);
}

static const request_ops feature_request_ops = {answer_result, answer_error};

static int svc_respond(const mcph_host *api, mcph_request *req,
                       const char *result_json, mcph_error *err) {
  return request_respond(api, req, result_json, err);
}

static int svc_respond_error_data(const mcph_host *api, mcph_request *req,
                                  int code, const char *message,
                                  const char *data_json, mcph_error *err) {
  return request_respond_error(api, req, code, message, data_json, err);
}

static int svc_respond_error(const mcph_host *api, mcph_request *req, int code,
                             const char *message) {
  return request_respond_error(api, req, code, message, NULL, NULL);
}

/* A copy under the one rule for returned strings (abi.h): the entry it
 * names may go with a reload within the same turn. */
static const char *svc_server_name(const mcph_host *api,
                                   const mcph_server *server) {
  return host_returned(host_from_api(api), xstrdup(session_name(S(server))));
}

/* JSON text of `j` ("{}" when NULL), under the rule for returned
 * strings: valid until control returns to the loop. */
static const char *returned_json(const mcph_host *api, const cJSON *j) {
  return host_returned(host_from_api(api), j ? json_print(j) : xstrdup("{}"));
}

static const char *svc_server_capabilities(const mcph_host *api,
                                           const mcph_server *server) {
  return returned_json(api, session_server_caps(S(server)));
}

static const char *svc_server_info(const mcph_host *api,
                                   const mcph_server *server) {
  return returned_json(api, session_server_info(S(server)));
}

static const char *svc_protocol_version(const mcph_host *api,
                                        const mcph_server *server) {
  const char *v = session_protocol_version(S(server));
  return v ? host_returned(host_from_api(api), xstrdup(v)) : NULL;
}

static int svc_notify(const mcph_host *api, mcph_server *server,
                      const char *method, const char *params_json,
                      mcph_error *err) {
  (void)api;
  session *s = S(server);
  if (!session_is_ready(s))
    return mcph_error_set(err, MCPH_ECLOSED, "server \"%s\" is not connected",
                          session_name(s));
  cJSON *params = params_json ? json_parse_str(params_json) : NULL;
  if (params_json && !params)
    return mcph_error_set(err, MCPH_EINVAL, "params are not valid JSON");
  return rpc_notify(session_rpc(s), method, params) < 0
             ? mcph_error_set(err, MCPH_EIO, "cannot send %s", method)
             : MCPH_OK;
}

typedef struct plugin_call {
  mcph_result_cb cb;
  void *ud;
  unsigned abi_minor; /* the caller's: what its mcph_error holds */
} plugin_call;

/* The error struct as a plugin of `abi_minor` knows it (the minor gates
 * fields the host fills in): before 1.6 it ends at `message`, and the
 * host writes nothing past that struct_size. */
static void error_for_minor(mcph_error *e, unsigned abi_minor) {
  mcph_error_init(e);
  if (abi_minor < 6) {
    e->struct_size = (uint32_t)offsetof(mcph_error, rpc_code);
  }
}

static void on_plugin_result(void *ud, cJSON *result, const rpc_error *err,
                             bool *take) {
  (void)take;
  plugin_call *pc = ud;
  if (err) {
    mcph_error e;
    error_for_minor(&e, pc->abi_minor);
    mcph_error_set(&e,
                   err->status == RPC_ERR_TIMEOUT ? MCPH_ETIMEDOUT
                   : err->status == RPC_ERR_REMOTE ? MCPH_EPROTO
                                                   : MCPH_ECLOSED,
                   "%s", err->message);
    /* ABI 1.6: the peer's JSON-RPC code and data come with it, for a
     * plugin whose struct has them. */
    char *data = NULL;
    if (err->status == RPC_ERR_REMOTE && MCPH_HAS(&e, mcph_error, rpc_data)) {
      e.rpc_code = err->code;
      data = err->data ? json_print(err->data) : NULL;
      e.rpc_data = data;
    }
    pc->cb(pc->ud, NULL, &e);
    cJSON_free(data);
  } else {
    char *text = json_print(result);
    pc->cb(pc->ud, text ? text : "{}", NULL);
    cJSON_free(text);
  }
  free(pc);
}

static int svc_request(const mcph_host *api, mcph_server *server,
                       const char *method, const char *params_json,
                       uint64_t timeout_ms, mcph_result_cb cb, void *ud,
                       mcph_error *err) {
  session *s = S(server);
  cJSON *params = params_json ? json_parse_str(params_json) : NULL;
  if (params_json && !params)
    return mcph_error_set(err, MCPH_EINVAL, "params are not valid JSON");
  const plugin *caller = host_caller(api);
  plugin_call *pc = xmalloc(sizeof *pc);
  *pc = (plugin_call){cb, ud, caller ? caller->abi_minor : MCPH_ABI_MINOR};
  rpc_request_opts o = {.timeout_ms = timeout_ms ? timeout_ms : 60000,
                        .ud = pc};
  char why[400];
  if (session_request(s, method, params, &o, on_plugin_result, why,
                      sizeof why) < 0) {
    free(pc);
    return mcph_error_set(err, MCPH_ECLOSED, "%s", why);
  }
  return MCPH_OK;
}

/* Whether plugin `p` declared the option `name` (MCPH_EXT_OPTIONS). */
static bool declares(plugin *p, const char *name) {
  const mcph_options *o = plugin_options(p);
  if (!o) {
    return false;
  }
  for (size_t i = 0; i < o->count; i++) {
    const mcph_option *d = mcph_options_at(o, i);
    if (d->name && strcmp(d->name, name) == 0) {
      return true;
    }
  }
  return false;
}

/* The command line wins; then MCPHOST_OPTION_<NAME> from the environment
 * (upper case, '-' as '_'), convenient for CI and services. Since ABI
 * 1.6 the option is the caller's: a plugin built for 1.6 or later reads
 * only the options it declared. */
static const char *svc_option(const mcph_host *api, const char *name) {
  host *h = host_from_api(api);
  plugin *caller = host_caller(api);
  if (!name) {
    return NULL;
  }
  if (caller && caller->abi_minor >= 6) {
    if (!declares(caller, name)) {
      host_log(h, MCPH_LOG_DEBUG, caller->id,
               "reads option --%s, which it did not declare: unset for it",
               name);
      return NULL;
    }
    host_log(h, MCPH_LOG_DEBUG, caller->id, "reads option --%s", name);
  }
  for (size_t i = 0; i < h->noptions; i++)
    if (strcmp(h->options[i].name, name) == 0)
      return h->options[i].value;
  char var[128] = "MCPHOST_OPTION_";
  size_t n = strlen(var);
  for (const char *p = name; *p && n + 1 < sizeof var; p++)
    var[n++] = *p == '-' ? '_' : (char)((*p >= 'a' && *p <= 'z') ? *p - 32 : *p);
  var[n] = '\0';
  return getenv(var);
}

static int svc_in_call(const mcph_host *api, const mcph_request *base) {
  (void)api;
  if (!base || base->ops != &feature_request_ops)
    return 0; /* not a server request */
  const feature_request *req = (const feature_request *)base;
  if (req->local_done)
    return 1; /* an input_required round: the call's own */
  static const char *const calls[] = {"tools/call",
                                      "prompts/get",
                                      "resources/read",
                                      "completion/complete",
                                      "tasks/get",
                                      "tasks/result",
                                      NULL};
  return req->s && rpc_pending_of(session_rpc(req->s), calls) > 0;
}

/* The UI service's answer (ui.h: the one way to ask); this table keeps
 * the function for the 1.x plugins that ask here. */
static int svc_interactive(const mcph_host *api) {
  return host_ui_service()->interactive(api);
}

const mcph_host_features *features_service(void) {
  static const mcph_host_features svc = {
      .struct_size = sizeof svc,
      .respond = svc_respond,
      .respond_error = svc_respond_error,
      .server_name = svc_server_name,
      .server_capabilities = svc_server_capabilities,
      .notify = svc_notify,
      .request = svc_request,
      .option = svc_option,
      .interactive = svc_interactive,
      .server_info = svc_server_info,
      .protocol_version = svc_protocol_version,
      .respond_error_data = svc_respond_error_data,
      .in_call = svc_in_call,
  };
  return &svc;
}
