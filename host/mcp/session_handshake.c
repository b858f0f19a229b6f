/* The session's initialize handshake, and the same again when the
 * server forgot the session. */
#include <stdio.h>
#include <stdlib.h>

#include "mcp/feature_plugins.h"
#include "util.h"
#include "mcp/era.h"
#include "mcp/protocol.h"
#include "mcp/roots_settle.h"
#include "mcp/session_internal.h"

/* ---- handshake ---- */


static const char *accept_initialize(session *s, const cJSON *result,
                                     char *why, size_t why_len);

static void on_set_level(void *ud, cJSON *result, const rpc_error *err,
                         bool *take) {
  (void)ud;
  (void)result;
  (void)take;
  (void)err; /* nothing to do either way; -vvv shows the exchange */
}

static void on_initialized(void *ud, cJSON *result, const rpc_error *err,
                           bool *take) {
  (void)take;
  session *s = ud;
  s->init_id = 0;
  if (s->fallback_timer || s->auth_reconnecting)
    return; /* on_fallback_timer or on_auth_timer connects again */
  if (err && err->status == RPC_ERR_TRANSPORT) {
    session_fail(s, s->fail == FAIL_AUTH ? FAIL_AUTH : FAIL_UNREACHABLE, "%s",
                 err->message);
    return;
  }
  if (err) {
    if (err->status == RPC_ERR_TIMEOUT) {
      session_fail(s, FAIL_TIMEOUT, "server did not answer initialize in time");
    } else if (err->status == RPC_ERR_CLOSED) {
      session_fail(s, s->fail == FAIL_AUTH ? FAIL_AUTH : FAIL_UNREACHABLE, "%s",
                   s->close_reason ? s->close_reason : err->message);
    } else if (err->status == RPC_ERR_REMOTE) {
      if (era_initialize_refused(s, err)) {
        return; /* a modern-only server: server/discover instead */
      }
      char *text = rpc_error_text(err->message, err->code);
      session_fail(s, FAIL_PROTOCOL, "initialize failed: %s", text);
      free(text);
    } else {
      session_fail(s, FAIL_INTERRUPTED, "%s", err->message);
    }
    return;
  }
  char why[300];
  const char *bad = accept_initialize(s, result, why, sizeof why);
  if (bad) {
    session_fail(s, FAIL_PROTOCOL, "%s", bad);
    return;
  }
  s->connected_ms = loop_now_ms();
  if (s->log_level && session_has_capability(s, "logging")) {
    /* Fire and forget: a server that refuses says so in a log line. */
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "level", s->log_level);
    rpc_request_opts lo = {.timeout_ms = s->connect_timeout_ms};
    rpc_request(s->rpc, "logging/setLevel", p, &lo, on_set_level);
  }
  /* The hold first: a verdict found now is written with the roots
   * verdict its ping brings, once (era_legacy_ready). */
  roots_settle_start(s);
  era_legacy_ready(s);
  session_set_state(s, SESS_READY);
}

/* Checks an initialize result and keeps what the server declared.
 * Returns NULL or the reason it is unacceptable. */
static const char *accept_initialize(session *s, const cJSON *result,
                                     char *why, size_t why_len) {
  const cJSON *pv = cJSON_GetObjectItemCaseSensitive(result, "protocolVersion");
  if (!cJSON_IsString(pv))
    return "initialize result has no protocolVersion";
  if (!mcp_protocol_supported(pv->valuestring)) {
    char versions[128];
    mcp_protocol_list(versions, sizeof versions);
    snprintf(why, why_len,
             "server chose protocol version \"%.64s\", which mcphost does "
             "not support (supported: %s)",
             pv->valuestring, versions);
    return why;
  }
  const cJSON *caps = cJSON_GetObjectItemCaseSensitive(result, "capabilities");
  if (caps && !cJSON_IsObject(caps))
    return "initialize result: capabilities is not an object";
  free(s->protocol_version);
  s->protocol_version = xstrdup(pv->valuestring);
  cJSON_Delete(s->server_caps);
  s->server_caps = caps ? cJSON_Duplicate(caps, 1) : cJSON_CreateObject();
  const cJSON *info = cJSON_GetObjectItemCaseSensitive(result, "serverInfo");
  cJSON_Delete(s->server_info);
  s->server_info = cJSON_IsObject(info) ? cJSON_Duplicate(info, 1) : NULL;
  const cJSON *instr = cJSON_GetObjectItemCaseSensitive(result, "instructions");
  free(s->instructions);
  s->instructions = cJSON_IsString(instr) ? xstrdup(instr->valuestring) : NULL;
  if (MCPH_HAS(s->tf, mcph_transport_factory, set_protocol_version) &&
      s->tf->set_protocol_version)
    s->tf->set_protocol_version(s->t, s->protocol_version);
  rpc_notify(s->rpc, "notifications/initialized", NULL);
  return NULL;
}

cJSON *session_client_capabilities(session *s) {
  cJSON *caps = cJSON_CreateObject();
  /* A front end that answers roots/list itself declares roots in
   * extra_caps; without its answer the session gives its own (none). */
  bool front_end_roots =
      cJSON_GetObjectItemCaseSensitive(s->extra_caps, "roots") != NULL;
  s->roots_declared = s->roots != NULL || front_end_roots;
  if (s->roots) {
    /* listChanged: session_set_roots tells the server of a new set. A
     * modern server asks for them in each request's input_required, so
     * there is nothing to tell it. */
    cJSON *roots = cJSON_AddObjectToObject(caps, "roots");
    if (s->era != ERA_MODERN) {
      cJSON_AddBoolToObject(roots, "listChanged", true);
    }
  }
  for (const cJSON *c = s->extra_caps ? s->extra_caps->child : NULL; c;
       c = c->next) {
    if (!cJSON_GetObjectItemCaseSensitive(caps, c->string)) {
      cJSON_AddItemToObject(caps, c->string, cJSON_Duplicate(c, 1));
    }
  }
  features_add_capabilities(s->h, caps);
  return caps;
}

static cJSON *initialize_params(session *s) {
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "protocolVersion", mcp_protocol_latest());
  cJSON_AddItemToObject(p, "capabilities", session_client_capabilities(s));
  cJSON *info = cJSON_AddObjectToObject(p, "clientInfo");
  cJSON_AddStringToObject(info, "name", "mcphost");
  cJSON_AddStringToObject(info, "version", MCPHOST_VERSION);
  return p;
}

/* The server forgot our session (HTTP 404 on a request with a session
 * id): run the handshake again while the failed requests are held, then
 * send them once more. */
static void on_reinitialized(void *ud, cJSON *result, const rpc_error *err,
                             bool *take) {
  (void)take;
  session *s = ud;
  s->init_id = 0;
  s->reinitializing = false;
  char why[300];
  const char *bad = err ? err->message : accept_initialize(s, result, why,
                                                           sizeof why);
  if (bad) {
    char msg[600];
    snprintf(msg, sizeof msg,
             "the server's session expired and re-initializing failed: %s",
             bad);
    rpc_fail_held(s->rpc, RPC_ERR_TRANSPORT, msg);
    rpc_hold(s->rpc, false);
    return;
  }
  s->reinit_count++;
  host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
           "session expired; re-initialized and resending");
  rpc_hold(s->rpc, false);
}

void session_reinitialize(session *s) {
  if (s->reinitializing)
    return;
  s->reinitializing = true;
  rpc_request_opts o = {.timeout_ms = s->connect_timeout_ms, .ud = s,
                        .urgent = true};
  int64_t id = rpc_request(s->rpc, "initialize", initialize_params(s), &o,
                           on_reinitialized);
  if (id > 0) {
    s->init_id = id;
  } else {
    s->reinitializing = false;
    rpc_fail_held(s->rpc, RPC_ERR_TRANSPORT,
                  "the server's session expired and initialize could not be "
                  "sent again");
    rpc_hold(s->rpc, false);
  }
}

void session_send_initialize(session *s) {
  /* The connect deadline covers the whole connect: what a probe before
   * it took is not given again. */
  uint64_t left = session_connect_left_ms(s);
  if (left && left < s->connect_timeout_ms) {
    host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
             "initialize gets the %llu ms left of the %llu ms connect "
             "deadline",
             (unsigned long long)left,
             (unsigned long long)s->connect_timeout_ms);
  }
  rpc_request_opts o = {.timeout_ms = left, .ud = s};
  int64_t id = rpc_request(s->rpc, "initialize", initialize_params(s), &o,
                           on_initialized);
  if (id > 0)
    s->init_id = id;
  else if (s->transport_closed)
    session_fail(s, FAIL_UNREACHABLE, "%s", s->close_reason);
  /* Otherwise a failed send means the transport is ending: its on_close
   * follows with the real reason (a process that could not start, say). */
}
