/* The session's requests: the capability each needs, the wrapper every
 * one goes through (the circuit breaker), 2026-07-28's input_required
 * rounds and corrections, cancelling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "mcp/era.h"
#include "mcp/jsonrpc.h"
#include "mcp/mrtr.h"
#include "mcp/protocol.h"
#include "mcp/session_internal.h"
#include "json_parse.h"
#include "safety/sanitize.h"

bool session_has_capability(const session *s, const char *cap) {
  return s->server_caps &&
         cJSON_GetObjectItemCaseSensitive(s->server_caps, cap) != NULL;
}

/* The capability a method needs, or NULL when none is needed. */
const char *session_needed_capability(const char *method) {
  static const struct {
    const char *prefix, *cap;
  } map[] = {{"tools/", "tools"},
             {"resources/", "resources"},
             {"prompts/", "prompts"},
             {"completion/", "completions"},
             {"logging/", "logging"},
             {"tasks/", "tasks"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (str_starts(method, map[i].prefix))
      return map[i].cap;
  return NULL;
}

/* 2026-07-28: a request that may answer input_required (tools/call,
 * prompts/get, resources/read) keeps what it sent, to send it again
 * with the inputs (mrtr.h); any request may be corrected and sent again
 * (-32022, -32020). Allocated only for a server of that era. */
typedef struct req_again {
  char *method;
  cJSON *params;
  rpc_request_opts opts;
  unsigned rounds;
  char *state;         /* the last requestState, byte for byte, or NULL */
  loop_timer *pace;    /* a round with requestState only waits a little */
  cJSON *responses;    /* the inputs for the next round (paced) */
  mrtr_gathering *gathering; /* the inputs of this round, being gathered */
  struct req_wrap *next;     /* in s->between_rounds */
  bool mrtr;           /* the method may answer input_required */
  bool corrected;      /* sent again once after -32022 or -32020 */
} req_again;

/* Every request goes through this wrapper so the session can count
 * consecutive failures (the circuit breaker). Small: a batch keeps
 * 2,000 of them at once. */
typedef struct req_wrap {
  session *s;
  rpc_done_fn done;
  rpc_progress_fn on_progress;
  void *ud;
  req_again *again;  /* 2026-07-28 only, else NULL */
  bool empty_result; /* a subscribe made part of the listen stream */
} req_wrap;

static void wrap_free(req_wrap *w) {
  if (w->again) {
    free(w->again->method);
    cJSON_Delete(w->again->params);
    free(w->again->state);
    cJSON_Delete(w->again->responses);
    free(w->again);
  }
  free(w);
}

static void wrapped_progress(void *ud, const cJSON *params) {
  req_wrap *w = ud;
  w->on_progress(w->ud, params);
}

static void wrapped_done(void *ud, cJSON *result, const rpc_error *err,
                         bool *take);

/* Between two rounds (gathering or paced), nothing is in flight for the
 * request: the session keeps it in between_rounds for session_cancel. */
static void between_enter(req_wrap *w) {
  w->again->next = w->s->between_rounds;
  w->s->between_rounds = w;
}

static void between_leave(req_wrap *w) {
  for (req_wrap **pp = &w->s->between_rounds; *pp; pp = &(*pp)->again->next) {
    if (*pp == w) {
      *pp = w->again->next;
      break;
    }
  }
  w->again->next = NULL;
}

/* Ends a request between rounds with `err`: the pause or the gathering
 * stops (its inputs dismissed), nothing more is sent. */
static void between_end(req_wrap *w, const rpc_error *err) {
  between_leave(w);
  if (w->again->pace) {
    loop_timer_cancel(w->s->h->loop, w->again->pace);
    w->again->pace = NULL;
  }
  if (w->again->gathering) {
    mrtr_withdraw(w->again->gathering);
  }
  bool take = false;
  w->done(w->ud, NULL, err, &take);
  wrap_free(w);
}

/* The connection is gone: so are the rounds still to be sent. */
void session_between_fail_all(session *s, rpc_status status,
                              const char *message) {
  while (s->between_rounds) {
    rpc_error e = {.status = status, .message = message};
    between_end(s->between_rounds, &e);
  }
}

void session_cancel(session *s, int64_t id, const char *reason) {
  for (req_wrap *w = s->between_rounds; w; w = w->again->next) {
    if (w->again->opts.origin == id) {
      char msg[256];
      snprintf(msg, sizeof msg, "%s cancelled: %s", w->again->method,
               reason ? reason : "by the user");
      rpc_error e = {.status = RPC_ERR_CANCELLED, .message = msg};
      between_end(w, &e);
      return;
    }
  }
  rpc_cancel(s->rpc, id, reason);
}

/* The request again, as a new request with a new id: the same method and
 * params with the inputs and the requestState of the last round. */
static void mrtr_resend(req_wrap *w, cJSON *responses) {
  session *s = w->s;
  cJSON *params = cJSON_Duplicate(w->again->params, 1);
  if (responses) {
    cJSON_AddItemToObject(params, "inputResponses", responses);
  }
  if (w->again->state) {
    cJSON_AddStringToObject(params, "requestState", w->again->state);
  }
  params = era_add_meta(s, params);
  rpc_request_opts o = w->again->opts;
  o.ud = w;
  int64_t id = rpc_request(s->rpc, w->again->method, params, &o, wrapped_done);
  if (id < 0) {
    rpc_error e = {.status = RPC_ERR_LOCAL,
                   .message = "the request could not be sent again with "
                              "the input the server asked for"};
    bool take = false;
    w->done(w->ud, NULL, &e, &take);
    wrap_free(w);
  }
}

static void on_pace(void *ud) {
  req_wrap *w = ud;
  w->again->pace = NULL;
  between_leave(w);
  cJSON *r = w->again->responses;
  w->again->responses = NULL;
  mrtr_resend(w, r);
}

static void mrtr_fail(req_wrap *w, const char *why) {
  char msg[700];
  snprintf(msg, sizeof msg, "server \"%s\" asked for input (%s): %s",
           w->s->cfg->name, w->again->method, why);
  rpc_error e = {.status = RPC_ERR_LOCAL, .message = msg};
  bool take = false;
  w->done(w->ud, NULL, &e, &take);
  wrap_free(w);
}

static void on_inputs(void *ud, cJSON *responses, const char *error) {
  req_wrap *w = ud;
  between_leave(w);
  if (!responses) {
    mrtr_fail(w, error);
    return;
  }
  mrtr_resend(w, responses);
}

/* A modern result: complete (or none said: legacy-shaped), or the
 * inputs the server needs first. Returns true when it is taken here. */
static bool modern_result(req_wrap *w, const cJSON *result) {
  const cJSON *rt = cJSON_GetObjectItemCaseSensitive(result, "resultType");
  const char *type = cJSON_GetStringValue(rt);
  if (!rt || (type && strcmp(type, "complete") == 0)) {
    return false;
  }
  if (!type || strcmp(type, "input_required") != 0 || !w->again->mrtr) {
    char why[200];
    snprintf(why, sizeof why, "a result of resultType %.60s%s%s",
             type ? "\"" : "", type ? type : "that is not a string",
             type ? "\", which mcphost does not know" : "");
    mrtr_fail(w, why);
    return true;
  }
  if (++w->again->rounds > MRTR_MAX_ROUNDS) {
    mrtr_fail(w, "still input_required after 10 rounds");
    return true;
  }
  const cJSON *state = cJSON_GetObjectItemCaseSensitive(result, "requestState");
  free(w->again->state);
  w->again->state = cJSON_IsString(state) ? xstrdup(state->valuestring) : NULL;
  const cJSON *reqs = cJSON_GetObjectItemCaseSensitive(result, "inputRequests");
  if (!cJSON_IsObject(reqs) || !reqs->child) {
    if (!w->again->state) {
      mrtr_fail(w, "input_required with neither inputRequests nor "
                   "requestState");
      return true;
    }
    /* Only requestState (load shedding, say): again, after a pause. */
    w->again->pace = loop_timer_start(w->s->h->loop, 250, on_pace, w);
    if (!w->again->pace) {
      mrtr_resend(w, NULL);
    } else {
      between_enter(w);
    }
    return true;
  }
  between_enter(w);
  mrtr_gather(w->s, reqs, w->again->opts.origin, on_inputs, w,
              &w->again->gathering);
  return true;
}

/* -32022 naming a version of ours: the request again at that version;
 * -32020 on tools/call over HTTP: its tool's schema listed again (for
 * its Mcp-Param-* headers), then the call once more. Returns true when
 * the request was sent again. */
static bool modern_error(req_wrap *w, const rpc_error *err) {
  session *s = w->s;
  if (err->code == MCPH_RPC_UNSUPPORTED_PROTOCOL_VERSION) {
    const char *v = mcp_protocol_modern_pick(
        cJSON_GetObjectItemCaseSensitive(err->data, "supported"));
    if (!v) {
      return false;
    }
    host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
             "%s: protocol version refused; sent again at %s", w->again->method,
             v);
    free(s->protocol_version);
    s->protocol_version = xstrdup(v);
  } else if (err->code == MCPH_RPC_HEADER_MISMATCH &&
             strcmp(w->again->method, "tools/call") == 0 &&
             MCPH_HAS(s->tf, mcph_transport_factory, send_headers) &&
             s->tf->send_headers) {
    host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
             "tools/call: the server says its headers do not match; "
             "listing the tools again and sending it once more");
    cJSON_Delete(s->tool_headers);
    s->tool_headers = NULL;
    if (!s->prelisting) {
      s->prelisting = true;
      rpc_hold(s->rpc, true);
      session_prelist(s, NULL, 0);
    }
  } else {
    return false;
  }
  w->again->corrected = true;
  w->again->rounds = 0;
  free(w->again->state);
  w->again->state = NULL;
  mrtr_resend(w, NULL);
  return true;
}

static void wrapped_done(void *ud, cJSON *result, const rpc_error *err,
                         bool *take) {
  req_wrap *w = ud;
  session *s = w->s;
  bool counts = err && (err->status == RPC_ERR_TIMEOUT ||
                        err->status == RPC_ERR_TRANSPORT);
  if (err && err->status == RPC_ERR_REMOTE && s->era == ERA_MODERN &&
      w->again && w->again->method && !w->again->corrected &&
      modern_error(w, err)) {
    return;
  }
  if (!err && s->era == ERA_MODERN && w->again) {
    /* A result passed on as text (json_raw.h) is parsed only when its
     * resultType is other than "complete". */
    cJSON *tree = NULL;
    if (cJSON_IsRaw(result) && result->valuestring &&
        rpc_raw_has(result, RPC_RAW_TYPE_OTHER)) {
      tree = json_parse_str(result->valuestring);
    }
    bool taken = modern_result(w, tree ? tree : result);
    cJSON_Delete(tree);
    if (taken) {
      s->consecutive_errors = 0;
      return;
    }
  }
  if (w->empty_result && !err) {
    cJSON *empty = cJSON_CreateObject();
    bool t = false;
    w->done(w->ud, empty, NULL, &t);
    if (!t) {
      cJSON_Delete(empty);
    }
  } else if (err && err->status == RPC_ERR_REMOTE &&
             err->code == MCPH_RPC_UNSUPPORTED_PROTOCOL_VERSION &&
             s->era == ERA_MODERN) {
    /* Nothing to correct to: the error says which versions each side
     * speaks. */
    char msg[600];
    era_version_refused(err, msg, sizeof msg);
    rpc_error e = *err;
    e.message = msg;
    w->done(w->ud, result, &e, take);
  } else {
    w->done(w->ud, result, err, take);
  }
  wrap_free(w);
  if (!counts) {
    if (!err || err->status == RPC_ERR_REMOTE)
      s->consecutive_errors = 0;
    return;
  }
  if (++s->consecutive_errors >= BREAKER_ERRORS && s->state == SESS_READY) {
    s->tripped = true;
    /* Refused authorization stays that (needs-auth), not unreachable. */
    session_fail(s, s->fail == FAIL_AUTH ? FAIL_AUTH : FAIL_UNREACHABLE,
                 "server unavailable: %u requests in a row failed (last: %s)",
                 s->consecutive_errors, err->message);
    host_log(s->h, MCPH_LOG_WARN, s->cfg->name, "%s; closing the connection",
             s->error);
  }
}

int64_t session_request(session *s, const char *method, cJSON *params,
                        const rpc_request_opts *opts, rpc_done_fn done,
                        char *why, size_t why_len) {
  if (s->state != SESS_READY) {
    snprintf(why, why_len, "server \"%s\" is not connected%s%s", s->cfg->name,
             s->error ? ": " : "", s->error ? s->error : "");
    cJSON_Delete(params);
    return -1;
  }
  const char *cap = session_needed_capability(method);
  if (cap && !session_has_capability(s, cap)) {
    snprintf(why, why_len,
             "server \"%s\" does not support %s (it declared no \"%s\" "
             "capability)",
             s->cfg->name, method, cap);
    cJSON_Delete(params);
    return -1;
  }
  const char *refused = s->state == SESS_READY
                            ? session_call_refused(s, method, params)
                            : NULL;
  if (refused) {
    snprintf(why, why_len,
             "server \"%s\": the tool was left out of its list: %s",
             s->cfg->name, refused);
    cJSON_Delete(params);
    return -1;
  }
  if (s->era == ERA_MODERN && strcmp(method, "ping") == 0) {
    /* No ping in 2026-07-28: server/discover is the round trip every
     * modern server answers. */
    method = "server/discover";
  }
  /* Looked up only where it is read: not on every call. */
  const char *uri = s->era == ERA_MODERN
                        ? cJSON_GetStringValue(
                              cJSON_GetObjectItemCaseSensitive(params, "uri"))
                        : NULL;
  bool subscribed = false;
  if (s->era == ERA_MODERN && uri &&
      (strcmp(method, "resources/subscribe") == 0 ||
       strcmp(method, "resources/unsubscribe") == 0)) {
    /* No resources/subscribe in 2026-07-28: the resource joins (or
     * leaves) the listen stream, and the request's round trip is a
     * server/discover, so the caller hears that the server is there. */
    era_subscribe(s, uri, strcmp(method, "resources/subscribe") == 0);
    cJSON_Delete(params);
    params = NULL;
    method = "server/discover";
    subscribed = true;
  }
  req_wrap *w = xmalloc(sizeof *w);
  *w = (req_wrap){.s = s, .done = done,
                  .on_progress = opts ? opts->on_progress : NULL,
                  .ud = opts ? opts->ud : NULL,
                  .empty_result = subscribed};
  req_again *a = NULL;
  if (s->era == ERA_MODERN) {
    a = w->again = xcalloc(1, sizeof *a);
  }
  if (a && strcmp(method, "subscriptions/listen") != 0) {
    /* Kept to send it again: input_required (tools/call, prompts/get,
     * resources/read only), or a -32022 or -32020 to correct. */
    a->method = xstrdup(method);
    a->params = params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject();
    a->mrtr = strcmp(method, "tools/call") == 0 ||
              strcmp(method, "prompts/get") == 0 ||
              strcmp(method, "resources/read") == 0;
  }
  params = era_add_meta(s, params);
  rpc_request_opts o = opts ? *opts : (rpc_request_opts){0};
  o.ud = w;
  o.on_progress = w->on_progress ? wrapped_progress : NULL;
  /* A result kept as sent may come raw in any valid UTF-8 (json_raw.h). */
  o.raw_utf8 =
      o.raw_result && !sanitize_is_full(s->h->sanitize, (sanitize_kind)o.kind);
  if (a) {
    a->opts = o;
  }
  int64_t id = rpc_request(s->rpc, method, params, &o, wrapped_done);
  if (a) {
    /* Each round sent again is still cancelled by this first id. */
    a->opts.origin = id;
  }
  if (id < 0) {
    wrap_free(w);
    snprintf(why, why_len, "cannot send %s to server \"%s\"", method,
             s->cfg->name);
  }
  return id;
}
