#include "mcp/session.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backoff.h"
#include "mcp/feature_plugins.h"
#include "mcp/host_auth.h"
#include "util.h"
#include "mcp/era.h"
#include "mcp/era_headers.h"
#include "mcp/log_level.h"
#include "mcp/mrtr.h"
#include "mcp/protocol.h"
#include "mcp/roots_settle.h"
#include "safety/json_parse.h"
#include "safety/json_write.h"
#include "safety/redact.h"
#include "safety/sanitize.h"
#include "text_escape.h"
#include "trusted_fs.h"

static void schedule_reconnect(session *s);

static void set_state(session *s, session_state st) {
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

static void transport_ended(session *s);
static void between_fail_all(session *s, rpc_status status,
                             const char *message);

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
    set_state(s, SESS_CLOSING); /* becomes FAILED when the transport ends */
    return;
  }
  set_state(s, SESS_FAILED);
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

/* ---- transport callbacks ---- */

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

static void reinitialize(session *s);

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
  reinitialize(s);
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
  between_fail_all(s, RPC_ERR_CLOSED, s->close_reason);
  if (asked) {
    set_state(s, s->error ? SESS_FAILED : SESS_CLOSED);
  } else {
    /* A transport that ended on a 401/403 (on_auth_required) needs
     * authorization, not another try. */
    fail(s, s->fail == FAIL_AUTH ? FAIL_AUTH : FAIL_UNREACHABLE, "%s",
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
    reinitialize(s);
    return;
  }
  rpc_fail(s->rpc, id, RPC_ERR_TRANSPORT, message);
}

/* ---- JSON-RPC plumbing ---- */

static int rpc_send(void *ud, const char *json, size_t len, char *why,
                    size_t why_len) {
  session *s = ud;
  if (!s->transport_started || s->transport_closed) {
    snprintf(why, why_len, "not connected");
    return MCPH_ECLOSED;
  }
  if (s->h->verbosity >= 3)
    host_log(s->h, MCPH_LOG_TRACE, s->cfg->name, "-> %.*s",
             len > 2000 ? 2000 : (int)len, json);
  mcph_error err;
  mcph_error_init(&err);
  int rc;
  if (s->era == ERA_MODERN &&
      MCPH_HAS(s->tf, mcph_transport_factory, send_headers) &&
      s->tf->send_headers) {
    /* 2026-07-28 over HTTP: the headers each message carries. */
    cJSON *msg = json_parse(json, len, NULL);
    size_t n = 0;
    char **hdrs = era_message_headers(msg, s->tool_headers, &n);
    cJSON_Delete(msg);
    rc = s->tf->send_headers(s->t, json, len, (const char *const *)hdrs, n,
                             &err);
    era_headers_free(hdrs);
  } else {
    rc = s->tf->send(s->t, json, len, &err);
  }
  if (rc != 0)
    snprintf(why, why_len, "%s", err.message[0] ? err.message : "send failed");
  return rc;
}

/* roots/list: the roots this server was given (roots.h). */
static cJSON *roots_result(session *s) {
  cJSON *res = cJSON_CreateObject();
  cJSON_AddItemToObject(res, "roots",
                        s->roots ? cJSON_Duplicate(s->roots, 1)
                                 : cJSON_CreateArray());
  return res;
}

/* The request a legacy server's own request belongs to: MCP ties them
 * only by the transport (an HTTP response stream) or by the request's
 * progressToken sent back in _meta; 0 when nothing ties it. */
static int64_t request_origin(session *s, const cJSON *params) {
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(meta, "progressToken");
  return tok ? rpc_origin_of_token(s->rpc, tok) : 0;
}

static void on_request(void *ud, const char *method, const cJSON *params,
                       const cJSON *id) {
  session *s = ud;
  if (strcmp(method, "ping") == 0) {
    rpc_respond(s->rpc, id, cJSON_CreateObject());
  } else if (s->on_request &&
             s->on_request(s->on_request_ud, s, method, params, id,
                           request_origin(s, params))) {
    /* the front end answers it (session_answer) */
  } else if (strcmp(method, "roots/list") == 0 && s->roots_declared) {
    rpc_respond(s->rpc, id, roots_result(s));
    roots_settle_asked(s);
  } else if (features_request(s, method, params, id)) {
    /* a feature plugin answers it */
  } else {
    host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
             "server asked for unsupported method %s", method);
    rpc_respond_error(s->rpc, id, MCPH_RPC_METHOD_NOT_FOUND,
                      "Method not found");
  }
}

void session_answer(session *s, const cJSON *id, cJSON *result, int code,
                    const char *message, const cJSON *data) {
  if (mrtr_answer(s, id, result, code, message)) {
    cJSON_Delete(result); /* an input offered to the front end */
    return;
  }
  /* A modern server sends no requests of its own: an answer that is no
   * offer's (one withdrawn, answered late) is nobody's. */
  if (!s->rpc || s->transport_closed || s->era == ERA_MODERN) {
    cJSON_Delete(result);
    return;
  }
  if (result) {
    rpc_respond(s->rpc, id, result);
  } else {
    rpc_respond_error_data(s->rpc, id, code, message,
                           data ? cJSON_Duplicate(data, 1) : NULL);
  }
}

/* The server's log file, <logs>/<name>.log (mode 0600), opened on first
 * use in the checked log directory (trusted_fs.h), never through a link;
 * <name> is the server name made a file name as for NAME.stderr.log. A directory or file
 * that fails the checks is said once, and the lines go to stderr only. */
static FILE *server_log_file(session *s) {
  if (s->server_log || s->server_log_failed) {
    return s->server_log;
  }
  s->server_log_failed = true;
  const char *dir = s->h->paths[MCPH_PATH_LOGS];
  if (!dir) {
    return NULL; /* no home: no files */
  }
  char why[PATH_MAX + 128];
  int dfd = trusted_fs_open_dir(dir, TRUSTED_FS_CREATE, why, sizeof why);
  if (dfd < 0) {
    host_log(s->h, MCPH_LOG_WARN, s->cfg->name,
             "not writing the server's log file: %s", why);
    return NULL;
  }
  char base[128];
  trusted_fs_file_name(s->cfg->name, base, sizeof base - 8);
  strcat(base, ".log");
  int fd = trusted_fs_open_file(dfd, dir, base, O_WRONLY | O_CREAT | O_APPEND,
                                0600, why, sizeof why);
  close(dfd);
  if (fd >= 0) {
    s->server_log = fdopen(fd, "a");
  }
  if (!s->server_log) {
    if (fd >= 0) {
      close(fd);
    } else {
      host_log(s->h, MCPH_LOG_WARN, s->cfg->name,
               "not writing the server's log file: %s", why);
    }
    return NULL;
  }
  s->server_log_failed = false;
  return s->server_log;
}

/* One server log message as one line of its file: controls, newlines
 * included, shown as escapes (text_escape.h), so that a server cannot
 * forge lines or reach a terminal that shows the file; no secrets. */
static void server_log_line(session *s, const char *level, const char *text) {
  FILE *f = server_log_file(s);
  if (!f) {
    return;
  }
  time_t now = time(NULL);
  struct tm tm;
  char stamp[32];
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", gmtime_r(&now, &tm));
  fprintf(f, "%sZ %s %s\n", stamp, level, text);
  fflush(f);
}

/* `s` redacted and escaped for one log line; free with free(). */
static char *log_text(const char *s) {
  char *clean = redact(s);
  char *line = text_escape(clean, strlen(clean), TEXT_ESCAPE_NEWLINES, NULL);
  free(clean);
  return line ? line : xstrdup("(out of memory)");
}

static void on_notification(void *ud, const char *method,
                            const cJSON *params) {
  session *s = ud;
  if (strcmp(method, "notifications/message") == 0) {
    const cJSON *lvl = cJSON_GetObjectItemCaseSensitive(params, "level");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(params, "data");
    const cJSON *logger = cJSON_GetObjectItemCaseSensitive(params, "logger");
    char *json = cJSON_IsString(data) ? NULL : json_print(data);
    const char *raw = json ? json : cJSON_GetStringValue(data);
    char *msg = log_text(raw ? raw : "");
    char *lname = log_text(cJSON_IsString(logger) ? logger->valuestring : "");
    int rank = mcp_log_level_rank(cJSON_GetStringValue(lvl));
    const char *known = mcp_log_level_name(rank);
    int level = mcp_log_level_shown(rank);
    server_log_line(s, known ? known : "info", msg);
    /* A server's own log lines show with -v, however loud, labelled with
     * the server's own level: they are its news, not mcphost's. */
    if (level < MCPH_LOG_INFO) {
      level = MCPH_LOG_INFO;
    }
    host_log_labeled(s->h, level, known ? known : "info", s->cfg->name,
                     "server log%s%s: %s", *lname ? " " : "", lname, msg);
    free(msg);
    free(lname);
    cJSON_free(json);
  } else if (str_starts(method, "notifications/") &&
             strstr(method, "/list_changed")) {
    host_log(s->h, MCPH_LOG_INFO, s->cfg->name, "%s", method);
  } else {
    host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name, "notification %s", method);
  }
  if (strcmp(method, "notifications/cancelled") == 0)
    features_cancelled(s, params);
  if (strcmp(method, "notifications/tools/list_changed") == 0 &&
      !s->prelisting) {
    cJSON_Delete(s->tool_headers); /* the schemas are listed again */
    s->tool_headers = NULL;
  }
  features_notify(s, method, params);
  if (s->on_notify)
    s->on_notify(s->on_notify_ud, s, method, params);
}

/* The server -> host direction: every message is sanitized here, by
 * what it is (sanitize.h), before the session, the host or a plugin
 * sees it. A response is what its request said (rpc_request_opts.kind);
 * what a server pushes names things or, for a channel, reaches a model. */
static void on_inbound(void *ud, cJSON *msg, int kind) {
  session *s = ud;
  sanitize_kind k = SANITIZE_NAMES;
  if (kind >= 0) {
    k = (sanitize_kind)kind;
  } else {
    const char *m =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
    if (m && (strcmp(m, "notifications/claude/channel") == 0 ||
              strcmp(m, "sampling/createMessage") == 0)) {
      k = SANITIZE_MODEL;
    }
  }
  sanitize_message(msg, s->h->sanitize, k);
}

static void on_rpc_warning(void *ud, const char *message) {
  session *s = ud;
  host_log(s->h, MCPH_LOG_WARN, s->cfg->name, "%s", message);
}

static void on_rpc_debug(void *ud, const char *message) {
  session *s = ud;
  host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name, "%s", message);
}

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
    fail(s, s->fail == FAIL_AUTH ? FAIL_AUTH : FAIL_UNREACHABLE, "%s",
         err->message);
    return;
  }
  if (err) {
    if (err->status == RPC_ERR_TIMEOUT) {
      fail(s, FAIL_TIMEOUT, "server did not answer initialize in time");
    } else if (err->status == RPC_ERR_CLOSED) {
      fail(s, s->fail == FAIL_AUTH ? FAIL_AUTH : FAIL_UNREACHABLE, "%s",
           s->close_reason ? s->close_reason : err->message);
    } else if (err->status == RPC_ERR_REMOTE) {
      if (era_initialize_refused(s, err)) {
        return; /* a modern-only server: server/discover instead */
      }
      char *text = rpc_error_text(err->message, err->code);
      fail(s, FAIL_PROTOCOL, "initialize failed: %s", text);
      free(text);
    } else {
      fail(s, FAIL_INTERRUPTED, "%s", err->message);
    }
    return;
  }
  char why[300];
  const char *bad = accept_initialize(s, result, why, sizeof why);
  if (bad) {
    fail(s, FAIL_PROTOCOL, "%s", bad);
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
  era_legacy_ready(s);
  roots_settle_start(s);
  set_state(s, SESS_READY);
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

static void reinitialize(session *s) {
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

session *session_new(host *h, const server_config *cfg) {
  session *s = xcalloc(1, sizeof *s);
  s->h = h;
  h->nsessions++; /* it points into h->cfg (host_config.c) */
  s->cfg = cfg;
  s->ev = (mcph_transport_events){.struct_size = sizeof s->ev,
                                  .ud = s,
                                  .on_message = on_message,
                                  .on_error = on_error,
                                  .on_close = on_close,
                                  .on_send_failed = on_send_failed,
                                  .on_message_dropped = on_message_dropped,
                                  .on_session_reset = on_session_reset,
                                  .on_auth_required = on_auth_required,
                                  .on_message_owned = on_message_owned};
  rpc_handlers rh = {.ud = s,
                     .send = rpc_send,
                     .on_request = on_request,
                     .on_notification = on_notification,
                     .on_warning = on_rpc_warning,
                     .on_debug = on_rpc_debug,
                     .inbound = on_inbound};
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
  set_state(s, SESS_CONNECTING);
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
    fail(s, FAIL_UNREACHABLE, "%s", s->close_reason);
  /* Otherwise a failed send means the transport is ending: its on_close
   * follows with the real reason (a process that could not start, say). */
}

void session_ready(session *s) {
  s->connected_ms = loop_now_ms();
  set_state(s, SESS_READY);
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
      set_state(s, SESS_CLOSING);
      s->tf->close(s->t);
    }
    return;
  }
  if (s->state != SESS_FAILED)
    set_state(s, s->error ? SESS_FAILED : SESS_CLOSED);
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
  between_fail_all(s, RPC_ERR_CLOSED, "connection restarted");
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
  between_fail_all(s, RPC_ERR_CLOSED, "the session is closed");
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
  free(s->error);
  free(s->close_reason);
  free(s);
}

bool session_has_capability(const session *s, const char *cap) {
  return s->server_caps &&
         cJSON_GetObjectItemCaseSensitive(s->server_caps, cap) != NULL;
}

/* The capability a method needs, or NULL when none is needed. */
static const char *needed_capability(const char *method) {
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

/* Every request goes through this wrapper so the session can count
 * consecutive failures (the circuit breaker). */
typedef struct req_wrap {
  session *s;
  rpc_done_fn done;
  rpc_progress_fn on_progress;
  void *ud;
  /* 2026-07-28: a request that may answer input_required (tools/call,
   * prompts/get, resources/read) keeps what it sent, to send it again
   * with the inputs (mrtr.h). */
  char *method;
  cJSON *params;
  rpc_request_opts opts;
  unsigned rounds;
  char *state;         /* the last requestState, byte for byte, or NULL */
  loop_timer *pace;    /* a round with requestState only waits a little */
  cJSON *responses;    /* the inputs for the next round (paced) */
  mrtr_gathering *gathering; /* the inputs of this round, being gathered */
  struct req_wrap *next;     /* in s->between_rounds */
  bool empty_result;   /* a subscribe made part of the listen stream */
  bool mrtr;           /* the method may answer input_required */
  bool corrected;      /* sent again once after -32022 or -32020 */
} req_wrap;

static void prelist(session *s, const char *cursor, unsigned page);

static void wrap_free(req_wrap *w) {
  free(w->method);
  cJSON_Delete(w->params);
  free(w->state);
  cJSON_Delete(w->responses);
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
  w->next = w->s->between_rounds;
  w->s->between_rounds = w;
}

static void between_leave(req_wrap *w) {
  for (req_wrap **pp = &w->s->between_rounds; *pp; pp = &(*pp)->next) {
    if (*pp == w) {
      *pp = w->next;
      break;
    }
  }
  w->next = NULL;
}

/* Ends a request between rounds with `err`: the pause or the gathering
 * stops (its inputs dismissed), nothing more is sent. */
static void between_end(req_wrap *w, const rpc_error *err) {
  between_leave(w);
  if (w->pace) {
    loop_timer_cancel(w->s->h->loop, w->pace);
    w->pace = NULL;
  }
  if (w->gathering) {
    mrtr_withdraw(w->gathering);
  }
  bool take = false;
  w->done(w->ud, NULL, err, &take);
  wrap_free(w);
}

/* The connection is gone: so are the rounds still to be sent. */
static void between_fail_all(session *s, rpc_status status,
                             const char *message) {
  while (s->between_rounds) {
    rpc_error e = {.status = status, .message = message};
    between_end(s->between_rounds, &e);
  }
}

void session_cancel(session *s, int64_t id, const char *reason) {
  for (req_wrap *w = s->between_rounds; w; w = w->next) {
    if (w->opts.origin == id) {
      char msg[256];
      snprintf(msg, sizeof msg, "%s cancelled: %s", w->method,
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
  cJSON *params = cJSON_Duplicate(w->params, 1);
  if (responses) {
    cJSON_AddItemToObject(params, "inputResponses", responses);
  }
  if (w->state) {
    cJSON_AddStringToObject(params, "requestState", w->state);
  }
  params = era_add_meta(s, params);
  rpc_request_opts o = w->opts;
  o.ud = w;
  int64_t id = rpc_request(s->rpc, w->method, params, &o, wrapped_done);
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
  w->pace = NULL;
  between_leave(w);
  cJSON *r = w->responses;
  w->responses = NULL;
  mrtr_resend(w, r);
}

static void mrtr_fail(req_wrap *w, const char *why) {
  char msg[700];
  snprintf(msg, sizeof msg, "server \"%s\" asked for input (%s): %s",
           w->s->cfg->name, w->method, why);
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

/* Whether the minified JSON text of a result (json_raw.h) has a
 * "resultType" member, at any depth, whose value is not "complete": only
 * then may modern_result need its tree. Inside a string a quote is
 * escaped, so `"resultType":` is always a key. */
static bool raw_result_type_other(const char *text) {
  static const char key[] = "\"resultType\":";
  for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
    if (strncmp(p + sizeof key - 1, "\"complete\"", 10) != 0) {
      return true;
    }
  }
  return false;
}

/* A modern result: complete (or none said: legacy-shaped), or the
 * inputs the server needs first. Returns true when it is taken here. */
static bool modern_result(req_wrap *w, const cJSON *result) {
  const cJSON *rt = cJSON_GetObjectItemCaseSensitive(result, "resultType");
  const char *type = cJSON_GetStringValue(rt);
  if (!rt || (type && strcmp(type, "complete") == 0)) {
    return false;
  }
  if (!type || strcmp(type, "input_required") != 0 || !w->mrtr) {
    char why[200];
    snprintf(why, sizeof why, "a result of resultType %.60s%s%s",
             type ? "\"" : "", type ? type : "that is not a string",
             type ? "\", which mcphost does not know" : "");
    mrtr_fail(w, why);
    return true;
  }
  if (++w->rounds > MRTR_MAX_ROUNDS) {
    mrtr_fail(w, "still input_required after 10 rounds");
    return true;
  }
  const cJSON *state = cJSON_GetObjectItemCaseSensitive(result, "requestState");
  free(w->state);
  w->state = cJSON_IsString(state) ? xstrdup(state->valuestring) : NULL;
  const cJSON *reqs = cJSON_GetObjectItemCaseSensitive(result, "inputRequests");
  if (!cJSON_IsObject(reqs) || !reqs->child) {
    if (!w->state) {
      mrtr_fail(w, "input_required with neither inputRequests nor "
                   "requestState");
      return true;
    }
    /* Only requestState (load shedding, say): again, after a pause. */
    w->pace = loop_timer_start(w->s->h->loop, 250, on_pace, w);
    if (!w->pace) {
      mrtr_resend(w, NULL);
    } else {
      between_enter(w);
    }
    return true;
  }
  between_enter(w);
  mrtr_gather(w->s, reqs, w->opts.origin, on_inputs, w, &w->gathering);
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
             "%s: protocol version refused; sent again at %s", w->method, v);
    free(s->protocol_version);
    s->protocol_version = xstrdup(v);
  } else if (err->code == MCPH_RPC_HEADER_MISMATCH &&
             strcmp(w->method, "tools/call") == 0 &&
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
      prelist(s, NULL, 0);
    }
  } else {
    return false;
  }
  w->corrected = true;
  w->rounds = 0;
  free(w->state);
  w->state = NULL;
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
      w->method && !w->corrected && modern_error(w, err)) {
    return;
  }
  if (!err && s->era == ERA_MODERN) {
    /* A result passed on as text (json_raw.h) is parsed only when its
     * resultType may be other than "complete". */
    cJSON *tree = NULL;
    if (cJSON_IsRaw(result) && result->valuestring &&
        raw_result_type_other(result->valuestring)) {
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
    fail(s, s->fail == FAIL_AUTH ? FAIL_AUTH : FAIL_UNREACHABLE,
         "server unavailable: %u requests in a row failed (last: %s)",
         s->consecutive_errors, err->message);
    host_log(s->h, MCPH_LOG_WARN, s->cfg->name, "%s; closing the connection",
             s->error);
  }
}

static const char *call_refused(session *s, const char *method,
                                const cJSON *params);

int64_t session_request(session *s, const char *method, cJSON *params,
                        const rpc_request_opts *opts, rpc_done_fn done,
                        char *why, size_t why_len) {
  if (s->state != SESS_READY) {
    snprintf(why, why_len, "server \"%s\" is not connected%s%s", s->cfg->name,
             s->error ? ": " : "", s->error ? s->error : "");
    cJSON_Delete(params);
    return -1;
  }
  const char *cap = needed_capability(method);
  if (cap && !session_has_capability(s, cap)) {
    snprintf(why, why_len,
             "server \"%s\" does not support %s (it declared no \"%s\" "
             "capability)",
             s->cfg->name, method, cap);
    cJSON_Delete(params);
    return -1;
  }
  const char *refused = s->state == SESS_READY
                            ? call_refused(s, method, params)
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
  const char *uri = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(params, "uri"));
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
  if (s->era == ERA_MODERN && strcmp(method, "subscriptions/listen") != 0) {
    /* Kept to send it again: input_required (tools/call, prompts/get,
     * resources/read only), or a -32022 or -32020 to correct. */
    w->method = xstrdup(method);
    w->params = params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject();
    w->mrtr = strcmp(method, "tools/call") == 0 ||
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
  w->opts = o;
  int64_t id = rpc_request(s->rpc, method, params, &o, wrapped_done);
  /* Each round sent again is still cancelled by this first id. */
  w->opts.origin = id;
  if (id < 0) {
    wrap_free(w);
    snprintf(why, why_len, "cannot send %s to server \"%s\"", method,
             s->cfg->name);
  }
  return id;
}

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
static void prelist(session *s, const char *cursor, unsigned page);

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
    prelist(s, next, page + 1);
    return;
  }
  prelist_done(s);
}

static void prelist(session *s, const char *cursor, unsigned page) {
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
static const char *call_refused(session *s, const char *method,
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
      prelist(s, NULL, 0);
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
  const char *cap = needed_capability(method);
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

int session_set_roots(session *s, cJSON *roots) {
  if (roots && !cJSON_IsArray(roots)) {
    cJSON_Delete(roots);
    return -1;
  }
  bool same = (!roots && !s->roots) ||
              (roots && s->roots && cJSON_Compare(roots, s->roots, true));
  cJSON_Delete(s->roots);
  s->roots = roots;
  if (same || s->state != SESS_READY || s->era == ERA_MODERN)
    return 0; /* modern: each request declares what it has */
  if (!s->roots_declared)
    return 1;
  /* A server asks roots/list again; an empty set is a set too. */
  rpc_notify(s->rpc, "notifications/roots/list_changed", NULL);
  return 0;
}
