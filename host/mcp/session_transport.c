/* The session's transport events: messages in, the transport's end,
 * what it could not send, authorization, the legacy SSE fallback. */
#include <stdlib.h>
#include <string.h>

#include "mcp/host_auth.h"
#include "util.h"
#include "mcp/era.h"
#include "mcp/roots_settle.h"
#include "mcp/session_internal.h"

/* ---- transport callbacks ---- */

static void transport_ended(session *s);

static void trace_message(session *s, const char *json, size_t len) {
  if (s->h->verbosity >= 3)
    host_log(s->h, MCPH_LOG_TRACE, s->cfg->name, "<- %.*s",
             len > 2000 ? 2000 : (int)len, json);
}

static void on_message(void *ud, const char *json, size_t len) {
  session *s = ud;
  trace_message(s, json, len);
  rpc_receive(s->rpc, json, len);
}

/* The same, in a buffer the transport hands over (ABI 1.7): a large
 * result stays in it and is held once. */
static void on_message_owned(void *ud, char *json, size_t len) {
  session *s = ud;
  trace_message(s, json, len);
  rpc_receive_owned(s->rpc, json, len);
}

/* A new session under us (a reconnected legacy SSE stream): what was
 * pending will never be answered there; handshake again and send it once
 * more. ABI 1.6's event; before, on_error(MCPH_ESESSION). */
static void on_session_reset(void *ud, const char *message) {
  session *s = ud;
  message = message ? message : "the server started a new session";
  if (s->state != SESS_READY || s->reinitializing) {
    host_log(s->h, MCPH_LOG_WARN, s->cfg->name, "%s", message);
    return;
  }
  host_log(s->h, MCPH_LOG_INFO, s->cfg->name, "%s", message);
  rpc_retry_all(s->rpc, message);
  session_reinitialize(s);
}

/* A 401 or 403: the state shows needs-auth, and the auth provider, if
 * any, hears the challenge (host_auth.h). When it takes it up, requests
 * are held until it set a new value; the one that failed is sent once
 * more then (on_send_failed). */
static void on_auth_required(void *ud, const mcph_auth_challenge *ch) {
  session *s = ud;
  s->fail = FAIL_AUTH;
  host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
           "authorization required: HTTP %d%s%s", ch->status,
           ch->resource_metadata ? ", resource metadata " : "",
           ch->resource_metadata ? ch->resource_metadata : "");
  if (s->auth_pending)
    return; /* the provider is at it already */
  /* A value set inside the provider's challenge() (settled at once) is
   * used from the next request on; one that comes later gets the failed
   * request again. */
  s->auth_pending = true;
  bool taken = host_auth_challenge(s, ch);
  if (taken && s->auth_pending)
    rpc_hold(s->rpc, true);
  else
    s->auth_pending = false;
}

/* The transport ended on the 401 the provider took up, which has a new
 * value now: a new transport (which the provider's value goes to before
 * it starts) and a new initialize; what else was asked waits for it. */
static void on_auth_timer(void *ud) {
  session *s = ud;
  s->auth_timer = NULL;
  if (s->state != SESS_CONNECTING) {
    transport_ended(s);
    return;
  }
  host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
           "connecting again with the new authorization");
  if (s->init_id > 0) {
    s->auth_reconnecting = true; /* on_initialized lets this one go */
    rpc_fail(s->rpc, s->init_id, RPC_ERR_CLOSED, s->close_reason);
    s->auth_reconnecting = false;
  }
  host_auth_detach(s); /* session_connect attaches the new one */
  s->tf->destroy(s->t);
  s->t = NULL;
  s->transport_started = s->transport_closed = false;
  free(s->close_reason);
  s->close_reason = NULL;
  s->fail = FAIL_NONE;
  s->state = SESS_IDLE;
  session_connect(s, s->connect_timeout_ms);
  /* Held since the challenge: the new initialize goes out first. */
  if (s->transport_started && !s->transport_closed)
    rpc_hold(s->rpc, false);
}

void session_auth_settled(session *s, bool new_value) {
  if (!s->auth_pending)
    return;
  s->auth_pending = false;
  if (s->transport_closed) {
    if (new_value && !s->auth_reconnected && s->state == SESS_CONNECTING) {
      s->auth_reconnected = true;
      s->auth_timer = loop_timer_start(s->h->loop, 0, on_auth_timer, s);
      if (s->auth_timer)
        return;
    }
    transport_ended(s); /* held back by on_close */
    return;
  }
  if (!s->reinitializing && !s->roots_hold)
    rpc_hold(s->rpc, false);
}

static void on_error(void *ud, int code, const char *message) {
  session *s = ud;
  if (code == MCPH_ESESSION) {
    on_session_reset(ud, message);
    return;
  }
  /* An internal MCPH_E* number says nothing to a reader; MCPH_EPROTO is
   * what the server sent outside the protocol and was ignored (a banner
   * line on stdout, an empty WebSocket message), which -q keeps off a
   * person's screen. */
  host_log(s->h,
           code == MCPH_EPROTO && s->h->quiet ? MCPH_LOG_INFO : MCPH_LOG_WARN,
           s->cfg->name, "%s", message);
}

/* Only a type nobody gave is tried another way: one that was configured
 * is what the user wants, and its failure is the answer. */
static bool may_fall_back(const session *s) {
  return !s->legacy_sse && strcmp(s->cfg->type, "http") == 0 &&
         !cJSON_HasObjectItem(s->cfg->json, "type") &&
         s->state == SESS_CONNECTING && !s->reinitializing;
}

static void on_fallback_timer(void *ud) {
  session *s = ud;
  s->fallback_timer = NULL;
  if (s->state != SESS_CONNECTING)
    return; /* closed meanwhile */
  host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
           "not a streamable HTTP server (%s); trying the legacy SSE "
           "transport (GET on the same URL)",
           s->http_failure);
  host_auth_detach(s); /* session_connect attaches the new one */
  s->tf->destroy(s->t);
  s->t = NULL;
  s->transport_started = s->transport_closed = false;
  s->legacy_sse = true;
  s->state = SESS_IDLE;
  session_connect(s, s->connect_timeout_ms);
}

/* What a transport's end does to the session: its requests fail, and so
 * does the session unless it was being closed. */
static void transport_ended(session *s) {
  bool asked = s->state == SESS_CLOSING;
  rpc_fail_all(s->rpc, RPC_ERR_CLOSED, s->close_reason);
  roots_settle_end(s);
  session_between_fail_all(s, RPC_ERR_CLOSED, s->close_reason);
  if (asked) {
    session_set_state(s, s->error ? SESS_FAILED : SESS_CLOSED);
  } else {
    /* A transport that ended on a 401/403 (on_auth_required) needs
     * authorization, not another try. */
    session_fail(s, s->fail == FAIL_AUTH ? FAIL_AUTH : FAIL_UNREACHABLE, "%s",
                 s->close_reason);
  }
}

static void on_close(void *ud, int code, const char *reason) {
  session *s = ud;
  s->transport_closed = true;
  s->close_reason = xstrdup(reason && *reason ? reason : "closed");
  host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name, "transport closed (%d): %s",
           code, s->close_reason);
  if (s->auth_pending && s->state != SESS_CLOSING) {
    /* Ended on the challenge the auth provider took up (the sse stream's
     * GET, the ws upgrade): the session fails once it settled, so that
     * what the provider says (a login to run) comes first. */
    return;
  }
  if (era_transport_lost(s)) {
    return; /* the server exited on the probe: started once more */
  }
  transport_ended(s);
}

/* The transport dropped a message (over the size cap): fail the request
 * it answered now, if its first bytes say which. */
static void on_message_dropped(void *ud, int code, const char *message,
                               const char *head, size_t head_len,
                               size_t total) {
  session *s = ud;
  (void)code;
  (void)total;
  host_log(s->h, MCPH_LOG_WARN, s->cfg->name, "%s", message);
  rpc_fail_unusable(s->rpc, head, head_len, message);
}

/* A message the transport could not deliver. A request fails at once with
 * the transport's reason, rather than waiting for its deadline; an
 * expired session is re-initialized and the request sent once more. */
static void on_send_failed(void *ud, int code, const char *message,
                           const char *json, size_t len) {
  session *s = ud;
  int64_t id = rpc_id_of(json, len);
  host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name, "send failed (%d): %s", code,
           message);
  if (id < 0) {
    host_log(s->h, MCPH_LOG_WARN, s->cfg->name,
             "a notification was not delivered: %s", message);
    return;
  }
  if (code == MCPH_EAUTH)
    s->fail = FAIL_AUTH; /* kept for the state shown: needs-auth */
  if (code == MCPH_EAUTH && s->auth_pending && rpc_retry_auth(s->rpc, id))
    return; /* held until the auth provider settled */
  if (id == s->init_id && code == MCPH_ENOTSUP && may_fall_back(s)) {
    /* The http transport's word for a 4xx to initialize. The transport
     * is replaced from a timer, not from inside its own callback. */
    free(s->http_failure);
    s->http_failure = xstrdup(message);
    s->fallback_timer = loop_timer_start(s->h->loop, 0, on_fallback_timer, s);
    if (s->fallback_timer) {
      rpc_fail(s->rpc, id, RPC_ERR_TRANSPORT, message); /* ignored */
      return;
    }
  }
  if (id == s->probe_id && id > 0) {
    /* A 4xx without a modern answer (http): not a modern server. */
    s->probe_not_modern = code == MCPH_ENOTSUP;
    rpc_fail(s->rpc, id, RPC_ERR_TRANSPORT, message);
    return;
  }
  if (code == MCPH_ELOST && rpc_reissue(s->rpc, id) > 0) {
    host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
             "%s; sent again as a new request", message);
    return;
  }
  if (id == s->init_id) {
    /* The handshake failed: on_initialized (or on_reinitialized) fails
     * the session, or what was held, with this message. */
    rpc_fail(s->rpc, id, RPC_ERR_TRANSPORT, message);
    return;
  }
  if (code == MCPH_ESESSION && s->state == SESS_READY) {
    /* Hold first, so the retry waits for the new session. */
    rpc_hold(s->rpc, true);
    if (!rpc_retry(s->rpc, id)) { /* it was already sent twice */
      rpc_fail(s->rpc, id, RPC_ERR_TRANSPORT, message);
      if (!s->reinitializing)
        rpc_hold(s->rpc, false);
      return;
    }
    session_reinitialize(s);
    return;
  }
  rpc_fail(s->rpc, id, RPC_ERR_TRANSPORT, message);
}

mcph_transport_events session_transport_events(session *s) {
  return (mcph_transport_events){.struct_size = sizeof s->ev,
                                 .ud = s,
                                 .on_message = on_message,
                                 .on_error = on_error,
                                 .on_close = on_close,
                                 .on_send_failed = on_send_failed,
                                 .on_message_dropped = on_message_dropped,
                                 .on_session_reset = on_session_reset,
                                 .on_auth_required = on_auth_required,
                                 .on_message_owned = on_message_owned};
}
