/* The MCP client session of one server (session.h): its state and
 * failures, connecting, closing, reconnecting, freeing. The other parts
 * are named in session_internal.h. */
#include "mcp/session.h"

#include <stdio.h>
#include <stdlib.h>

#include "backoff.h"
#include "mcp/feature_plugins.h"
#include "mcp/host_auth.h"
#include "util.h"
#include "mcp/era.h"
#include "mcp/mrtr.h"
#include "mcp/roots_settle.h"
#include "mcp/session_internal.h"
#include "json_write.h"

static void schedule_reconnect(session *s);

void session_set_state(session *s, session_state st) {
  if (s->state == st)
    return;
  bool was_ready = s->state == SESS_READY;
  s->state = st;
  if (st == SESS_READY) {
    s->ever_ready = true;
    s->reconnect_attempts = 0;
    s->consecutive_errors = 0;
  }
  if (st == SESS_FAILED)
    schedule_reconnect(s);
  if (st == SESS_READY)
    features_server_event(s, MCPH_SERVER_CONNECTED);
  else if (was_ready)
    features_server_event(s, MCPH_SERVER_DISCONNECTED);
  if (st == SESS_FAILED && !s->reconnect_timer)
    features_server_event(s, MCPH_SERVER_FAILED); /* for good */
  if (st != SESS_READY && st != SESS_CONNECTING)
    features_connection_lost(s);
  if (s->on_state)
    s->on_state(s->on_state_ud, s);
}

/* Records the first failure; later ones are consequences of it. */
static void vfail(session *s, fail_kind kind, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static void vfail(session *s, fail_kind kind, const char *fmt, va_list ap) {
  if (!s->error) {
    strbuf b;
    sb_init(&b);
    sb_vprintf(&b, fmt, ap);
    if (s->legacy_sse && s->http_failure && !s->ever_ready)
      sb_printf(&b,
                " (as legacy SSE; as streamable HTTP: %s). Neither "
                "transport answers at this URL: is it the server's MCP "
                "endpoint (often /mcp, or /sse for SSE servers)?",
                s->http_failure);
    s->error = sb_take(&b);
    s->fail = kind;
  }
  if (s->transport_started && !s->transport_closed) {
    s->tf->close(s->t);
    /* It becomes FAILED when the transport ends. */
    session_set_state(s, SESS_CLOSING);
    return;
  }
  session_set_state(s, SESS_FAILED);
}

static void fail(session *s, fail_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(session *s, fail_kind kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(s, kind, fmt, ap);
  va_end(ap);
}

const char *session_state_name(const session *s) {
  switch (s->state) {
  case SESS_IDLE: return "pending";
  case SESS_CONNECTING: return "connecting";
  case SESS_READY: return "connected";
  case SESS_FAILED:
    if (s->reconnect_timer)
      return "reconnecting"; /* lost; the next attempt is due (error: why) */
    return s->fail == FAIL_AUTH ? "needs-auth" : "failed";
  case SESS_CLOSING:
  case SESS_CLOSED:
    if (s->error)
      return s->fail == FAIL_AUTH ? "needs-auth" : "failed";
    return s->state == SESS_CLOSING ? "closing" : "closed";
  }
  return "?";
}

bool session_is_settled(const session *s) {
  return s->state == SESS_READY || s->state == SESS_FAILED ||
         s->state == SESS_CLOSED || (s->state == SESS_CLOSING && s->error);
}

session *session_new(host *h, const server_config *cfg) {
  session *s = xcalloc(1, sizeof *s);
  s->h = h;
  h->nsessions++; /* it points into h->cfg (host_config.c) */
  s->cfg = cfg;
  s->ev = session_transport_events(s);
  rpc_handlers rh = session_rpc_handlers(s);
  s->rpc = rpc_new(h->loop, &rh);
  s->tools_ttl_ms = -1;
  return s;
}

/* Why no plugin serves `type`: the search path and any refused plugins. */
static void fail_no_plugin(session *s) {
  strbuf b;
  sb_init(&b);
  char *dirs = registry_dirs_text(&s->h->reg);
  sb_printf(&b, "no plugin serves transport type \"%s\" (plugins looked for "
                "in: %s)",
            session_type(s), dirs);
  free(dirs);
  for (size_t i = 0; i < s->h->reg.nplugins; i++) {
    const plugin *p = s->h->reg.plugins[i];
    if (!p->loaded)
      sb_printf(&b, "; refused %s: %s", p->path, p->error);
  }
  fail(s, FAIL_CONFIG, "%s", sb_str(&b));
  sb_free(&b);
}

const char *session_type(const session *s) {
  return s->legacy_sse ? "sse" : s->cfg->type;
}

const char *session_mcp_session_id(const session *s) {
  if (!s->t || !s->tf->session_id) {
    return NULL;
  }
  const char *id = s->tf->session_id(s->t);
  return id && *id ? id : NULL;
}

void session_connect(session *s, uint64_t timeout_ms) {
  if (s->state != SESS_IDLE)
    return;
  s->connect_started_ms = loop_now_ms();
  session_set_state(s, SESS_CONNECTING);
  if (s->cfg->state != SERVER_ACTIVE) {
    /* Pending, rejected, denied or disabled: never started, whoever asks
     * (the commands check first; this is the last line). */
    fail(s, FAIL_CONFIG, "server is %s: %s", server_state_name(s->cfg),
         s->cfg->reason ? s->cfg->reason : "not allowed to start");
    return;
  }
  const type_binding *tb = registry_find_type(&s->h->reg, session_type(s));
  if (!tb) {
    fail_no_plugin(s);
    return;
  }
  mcph_error err;
  mcph_error_init(&err);
  s->tf = plugin_transport(tb->winner, &err);
  if (!s->tf) {
    fail(s, FAIL_CONFIG, "%s: server \"%s\": %s", s->cfg->source, s->cfg->name,
         err.message);
    return;
  }
  char *json = json_print(s->cfg->json);
  mcph_transport_params params = {.struct_size = sizeof params,
                                  .type = session_type(s),
                                  .server_name = s->cfg->name,
                                  .config_json = json,
                                  .events = &s->ev};
  int rc = s->tf->create(tb->winner->ctx, &params, &s->t, &err);
  free(json);
  if (rc != 0) {
    s->t = NULL;
    fail(s, FAIL_CONFIG, "%s: server \"%s\": %s", s->cfg->source, s->cfg->name,
         err.message[0] ? err.message : "invalid configuration");
    return;
  }
  char why[1024];
  if (!host_auth_attach(s, why, sizeof why)) {
    fail(s, FAIL_AUTH, "%s", why);
    return;
  }
  rc = s->tf->start(s->t, &err);
  if (rc != 0) {
    fail(s, rc == MCPH_EINVAL ? FAIL_CONFIG : FAIL_UNREACHABLE, "%s",
         err.message[0] ? err.message : "cannot start the transport");
    return;
  }
  s->transport_started = true;
  s->connect_timeout_ms = timeout_ms;
  era_start(s);
}

uint64_t session_connect_left_ms(const session *s) {
  if (!s->connect_timeout_ms) {
    return 0;
  }
  uint64_t spent = loop_now_ms() - s->connect_started_ms;
  return spent < s->connect_timeout_ms ? s->connect_timeout_ms - spent : 1;
}

void session_ready(session *s) {
  s->connected_ms = loop_now_ms();
  session_set_state(s, SESS_READY);
}

void session_fail(session *s, fail_kind kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(s, kind, fmt, ap);
  va_end(ap);
}

void session_respawn(session *s) {
  host_auth_detach(s); /* session_connect attaches the new one */
  s->tf->destroy(s->t);
  s->t = NULL;
  s->transport_started = s->transport_closed = false;
  free(s->close_reason);
  s->close_reason = NULL;
  s->state = SESS_IDLE;
  /* The same connect, started again: its deadline stays. */
  uint64_t started = s->connect_started_ms;
  session_connect(s, s->connect_timeout_ms);
  s->connect_started_ms = started;
}

void session_close(session *s) {
  if (s->transport_started && !s->transport_closed) {
    if (s->state != SESS_CLOSING) {
      session_set_state(s, SESS_CLOSING);
      s->tf->close(s->t);
    }
    return;
  }
  if (s->state != SESS_FAILED)
    session_set_state(s, s->error ? SESS_FAILED : SESS_CLOSED);
}

void session_hurry(session *s) {
  if (s->transport_started && !s->transport_closed &&
      s->state == SESS_CLOSING) {
    s->tf->close(s->t);
  }
}

/* ---- reconnecting ---- */

static void on_reconnect_timer(void *ud) {
  session *s = ud;
  s->reconnect_timer = NULL;
  if (s->state == SESS_FAILED)
    session_restart(s);
}

/* Only a connection that worked and then broke is retried by itself: a
 * server that never started would only make a command wait. */
static void schedule_reconnect(session *s) {
  if (!s->auto_reconnect || !s->ever_ready || s->fail != FAIL_UNREACHABLE ||
      s->tripped || s->reconnect_timer ||
      s->reconnect_attempts >= BACKOFF_MAX_ATTEMPTS)
    return;
  uint64_t delay = backoff_delay(BACKOFF_FIRST_MS, s->reconnect_attempts);
  s->reconnect_attempts++;
  host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
           "connection lost (%s); reconnecting in %llu ms (attempt %u of %u)",
           s->error ? s->error : "?", (unsigned long long)delay,
           s->reconnect_attempts, BACKOFF_MAX_ATTEMPTS);
  s->reconnect_timer = loop_timer_start(s->h->loop, delay, on_reconnect_timer, s);
}

bool session_will_reconnect(const session *s) {
  return s->reconnect_timer != NULL;
}

void session_restart(session *s) {
  if (s->state != SESS_FAILED && s->state != SESS_CLOSED)
    return;
  if (s->reconnect_timer) {
    loop_timer_cancel(s->h->loop, s->reconnect_timer);
    s->reconnect_timer = NULL;
  }
  rpc_fail_all(s->rpc, RPC_ERR_CLOSED, "connection restarted");
  roots_settle_end(s);
  session_between_fail_all(s, RPC_ERR_CLOSED, "connection restarted");
  host_auth_detach(s);
  if (s->t)
    s->tf->destroy(s->t);
  s->t = NULL;
  s->transport_started = s->transport_closed = false;
  free(s->error);
  free(s->close_reason);
  s->error = s->close_reason = NULL;
  s->fail = FAIL_NONE;
  s->init_id = 0;
  s->reinitializing = false;
  era_reset(s);
  s->probe_respawned = false;
  s->era = ERA_UNKNOWN;
  s->consecutive_errors = 0;
  s->tripped = false;
  s->state = SESS_IDLE;
  session_connect(s, s->connect_timeout_ms);
}

void session_free(session *s) {
  if (!s)
    return;
  s->h->nsessions--;
  if (s->reconnect_timer)
    loop_timer_cancel(s->h->loop, s->reconnect_timer);
  if (s->fallback_timer)
    loop_timer_cancel(s->h->loop, s->fallback_timer);
  if (s->auth_timer)
    loop_timer_cancel(s->h->loop, s->auth_timer);
  if (s->roots_timer)
    loop_timer_cancel(s->h->loop, s->roots_timer);
  era_reset(s);
  free(s->protocol_override);
  free(s->http_failure);
  session_between_fail_all(s, RPC_ERR_CLOSED, "the session is closed");
  rpc_free(s->rpc);
  host_auth_detach(s);
  if (s->t)
    s->tf->destroy(s->t);
  cJSON_Delete(s->server_caps);
  cJSON_Delete(s->server_info);
  cJSON_Delete(s->roots);
  cJSON_Delete(s->extra_caps);
  cJSON_Delete(s->tool_headers);
  cJSON_Delete(s->listen_uris);
  if (s->server_log)
    fclose(s->server_log);
  features_session_gone(s);
  mrtr_session_gone(s);
  free(s->caps_text);
  free(s->log_level);
  free(s->instructions);
  free(s->protocol_version);
  free(s->roots_quiet);
  free(s->error);
  free(s->close_reason);
  free(s);
}
