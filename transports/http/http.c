/*
 * The http transport plugin: MCP "streamable HTTP" (revisions 2025-03-26,
 * 2025-06-18, 2025-11-25). Every message the host sends is one POST to
 * the server's URL; the reply is nothing (202), a JSON body, or an event
 * stream that may carry server requests and notifications before the
 * response. A standalone GET stream carries what belongs to no request.
 *
 * Life of one transport, all on the host's loop thread:
 *
 *   create   validate the configuration (config.c); no I/O
 *   start    nothing to dial: the first POST (initialize) connects
 *   send     one POST per message, concurrently, each on its own curl easy
 *            handle on a curl multi handle driven by the host loop
 *            (common/curl_loop.c); replies are queued for the host
 *            (events.c) and delivered from a zero-delay timer
 *   close    DELETE the session (2 s at most), drop everything running,
 *            then on_close(0) once
 *
 * The only MCP knowledge here: a message's id, whether it is a request, a
 * response or notifications/initialized (rpc_peek.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/plugin.h>
#include <mcphost/transport.h>

#include "../common/authorization.h"
#include "../common/url.h"
#include "http_status.h"
#include "http_transport.h"
#include "rpc_peek.h"

/* ---- sessions ---- */

void http_session_assigned(mcph_transport *t, const char *id) {
  if (t->session_id && strcmp(t->session_id, id) == 0)
    return;
  char *copy = strdup(id);
  if (!copy)
    return;
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "%s session id from %s",
            t->session_id ? "new" : "got a", t->cfg.display_url);
  free(t->session_id);
  t->session_id = copy;
}

void http_session_expired(mcph_transport *t, const char *sent) {
  /* Only the session the failed request carried: a new one may have been
   * assigned since (several requests can fail with the old one). */
  if (!t->session_id || !sent || strcmp(t->session_id, sent) != 0)
    return;
  mcph_logf(t->host, MCPH_LOG_INFO, t->name,
            "the server no longer knows our session (HTTP 404 from %s)",
            t->cfg.display_url);
  free(t->session_id);
  t->session_id = NULL;
  stream_stop(t);
}

void http_abort_all(mcph_transport *t) {
  while (t->head)
    exchange_free(t->head);
  t->hold = false;
  t->release_pending = false;
  if (t->hold_timer) {
    t->host->timer_cancel(t->host, t->hold_timer);
    t->hold_timer = NULL;
  }
}

/* ---- POST ---- */

/* The POST's deadline: connecting, the response headers and a JSON body.
 * An event stream that has begun is bounded by the host's own request
 * deadline instead: a long tool call streams progress for minutes. */
static void on_deadline(void *ud) {
  exchange *x = ud;
  mcph_transport *t = x->t;
  x->timer = NULL;
  if (x->established)
    return;
  exchange_stop(x);
  char msg[600];
  snprintf(msg, sizeof msg, "no response from %s within %ld ms",
           t->cfg.display_url, t->cfg.timeout_ms);
  hq_send_failed(x, MCPH_ETIMEDOUT, msg);
  if (x->opens_stream)
    stream_release_hold(t);
  exchange_free(x);
}

static int post_start(exchange *x) {
  mcph_transport *t = x->t;
  int rc = exchange_start(x);
  if (rc != 0)
    return rc;
  if (t->host->timer_start(t->host, (uint64_t)t->cfg.timeout_ms, on_deadline, x,
                           &x->timer) != 0)
    x->timer = NULL; /* curl's connect timeout still bounds connecting */
  return 0;
}

void http_post_release(exchange *x) {
  int rc = post_start(x);
  if (rc != 0) {
    hq_send_failed(x, rc, x->last_error);
    exchange_free(x);
  }
}

static void post_done(exchange *x, CURLcode rc) {
  mcph_transport *t = x->t;
  const char *url = t->cfg.display_url;
  long st = exchange_status(x);
  char why[1200];
  if (x->opens_stream) {
    /* Like the TypeScript SDK: the GET stream follows the server's
     * acceptance of notifications/initialized. */
    if (rc == CURLE_OK && st >= 200 && st < 300)
      stream_open(t);
    else
      stream_release_hold(t);
  }
  if (x->abort_code) {
    if (x->abort_code == MCPH_ETOOBIG)
      snprintf(why, sizeof why,
               "the response from %s exceeds the %zu-byte message limit; "
               "dropped",
               url, t->cfg.max_message_bytes);
    else
      snprintf(why, sizeof why, "out of memory reading the response from %s",
               url);
    if (x->abort_code == MCPH_ETOOBIG)
      hq_dropped(t, MCPH_ETOOBIG, why, x->body ? x->body : "",
                 x->body_len < SSE_DROP_HEAD_MAX ? x->body_len
                                                 : SSE_DROP_HEAD_MAX,
                 x->body_total);
    else
      hq_error(t, x->abort_code, "%s", why);
    hq_send_failed(x, x->abort_code, why);
    exchange_free(x);
    return;
  }
  if (x->stateless && !x->established && rc != CURLE_OK && st >= 200 &&
      st < 300 && x->req_id) {
    /* A JSON reply cut short: as lost as a broken event stream. */
    snprintf(why, sizeof why, "%s", http_client_curl_error(rc, x->errbuf));
    char lost[1400];
    snprintf(lost, sizeof lost,
             "the response from %s broke before it was whole (%s)", url, why);
    hq_send_failed(x, MCPH_ELOST, lost);
    exchange_free(x);
    return;
  }
  if (x->established) {
    /* An event stream: its messages went out as they came. */
    /* stream_post_ended() names the URL. */
    if (rc != CURLE_OK)
      snprintf(why, sizeof why, "%s", http_client_curl_error(rc, x->errbuf));
    else
      snprintf(why, sizeof why, "the server ended it");
    if (x->stateless) {
      /* No resumption in 2026-07-28: the request is lost, and the host
       * sends it again as a new one. */
      if (x->req_id && !x->answered) {
        char lost[1400];
        snprintf(lost, sizeof lost,
                 "the response stream from %s broke before the response "
                 "(%s)",
                 url, why);
        hq_send_failed(x, MCPH_ELOST, lost);
      }
      exchange_free(x);
      return;
    }
    stream_post_ended(x, why);
    return;
  }
  if (rc != CURLE_OK) {
    int code = exchange_describe_curl(x, rc, why, sizeof why);
    hq_send_failed(x, code, why);
    exchange_free(x);
    return;
  }
  if (st >= 200 && st < 300) {
    if (x->mode == BODY_JSON && x->body_len > 0) {
      char *body = x->body;
      size_t len = x->body_len;
      x->body = NULL;
      x->body_len = x->body_cap = 0;
      stream_deliver_take(x, body, len);
    }
    if (x->req_id && !x->answered) {
      snprintf(why, sizeof why,
               "HTTP %ld from %s carried no response to the request "
               "(Content-Type \"%s\")",
               st, url, x->ctype);
      hq_send_failed(x, MCPH_EPROTO, why);
    }
    exchange_free(x);
    return;
  }
  if (st == 404 && x->session) {
    http_session_expired(t, x->session);
    snprintf(why, sizeof why, "session expired (HTTP 404 from %s)", url);
    hq_send_failed(x, MCPH_ESESSION, why);
    exchange_free(x);
    return;
  }
  if (x->stateless && st >= 400 && st < 500 && !http_status_is_auth(st)) {
    /* 2026-07-28: a 4xx carries the JSON-RPC error that answers the
     * request (-32022, -32020, -32601, ...); one without it is no modern
     * server's answer (the host falls back to initialize). */
    rpc_peek pk;
    if (x->req_id && x->body && rpc_peek_object(x->body, x->body_len, &pk) &&
        pk.has_error && pk.id &&
        rpc_same_id(pk.id, pk.id_len, x->req_id, x->req_id_len)) {
      char *body = x->body;
      size_t len = x->body_len;
      x->body = NULL;
      x->body_len = x->body_cap = 0;
      stream_deliver_take(x, body, len);
      exchange_free(x);
      return;
    }
    exchange_describe_status(x, why, sizeof why);
    hq_send_failed(x, MCPH_ENOTSUP, why);
    exchange_free(x);
    return;
  }
  int code = exchange_describe_status(x, why, sizeof why);
  if (http_status_is_auth(st)) {
    hq_auth_required(x);
  } else if (x->initialize && st >= 400 && st < 500 && st != 408 && st != 429) {
    /* The URL does not take MCP POSTs (404, 405, 400, ...): perhaps a
     * legacy SSE server, which the host may try (the spec's backwards
     * compatibility). An authorization or rate answer is not that. */
    code = MCPH_ENOTSUP;
  }
  hq_send_failed(x, code, why);
  exchange_free(x);
}

static void delete_done(exchange *x, CURLcode rc) {
  mcph_transport *t = x->t;
  char why[600];
  if (rc != CURLE_OK)
    exchange_describe_curl(x, rc, why, sizeof why);
  else
    snprintf(why, sizeof why, "HTTP %ld", exchange_status(x));
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "DELETE of the session: %s", why);
  exchange_free(x);
  hq_close(t, 0, "closed");
}

/* A redirect answer: follows it within the origin (true: the transfer
 * was started again), or notes in x why not for the failure report. */
static bool follow_redirect(exchange *x, const char *location) {
  mcph_transport *t = x->t;
  const char *from = x->url ? x->url : t->cfg.url;
  if (!url_redirect_check(from, location, x->redirects, x->redirect_refused,
                          sizeof x->redirect_refused)) {
    return false;
  }
  char *to = strdup(location);
  if (!to) {
    snprintf(x->redirect_refused, sizeof x->redirect_refused,
             "out of memory following a redirect");
    return false;
  }
  free(x->url);
  x->url = to;
  x->redirects++;
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
            "following a redirect (HTTP %ld) within the origin of %s",
            exchange_status(x), t->cfg.display_url);
  int rc = x->kind == X_POST ? post_start(x) : exchange_start(x);
  if (rc != 0) {
    snprintf(x->redirect_refused, sizeof x->redirect_refused, "%.200s",
             x->last_error);
    return false;
  }
  return true;
}

void http_unreachable(exchange *x, CURLcode rc) {
  mcph_transport *t = x->t;
  int code = http_client_code_for_curl(rc);
  const char *what = http_client_curl_error(rc, x->errbuf);
  char reason[1200], own[1400];
  snprintf(reason, sizeof reason, "the server at %s cannot be reached: %s",
           t->cfg.display_url, what);
  if (x->kind == X_RESUME) {
    snprintf(own, sizeof own,
             "the event stream broke before the response arrived, and %s",
             reason);
  } else {
    snprintf(own, sizeof own, "%s", reason);
  }
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "%s", own);
  if (x->kind == X_POST || x->kind == X_RESUME) {
    hq_send_failed(x, code, own);
  }
  exchange_free(x);
  /* Every other request in flight fails now, with the same reason, rather
   * than one deadline or backoff after another; then the transport ends,
   * and the host's next use connects again. */
  for (exchange *o = t->head; o; o = o->next) {
    if ((o->kind == X_POST || o->kind == X_RESUME) && o->msg) {
      hq_send_failed(o, code, reason);
    }
  }
  http_abort_all(t);
  if (t->state == T_RUNNING) {
    t->state = T_CLOSING;
  }
  hq_close(t, code, reason);
}

void http_done(void *ud, CURL *easy, CURLcode rc) {
  exchange *x = ud;
  mcph_transport *t = x->t;
  char *location = NULL;
  if (rc == CURLE_OK && url_is_redirect(exchange_status(x))) {
    char *loc = NULL;
    curl_easy_getinfo(easy, CURLINFO_REDIRECT_URL, &loc);
    location = loc ? strdup(loc) : NULL;
  }
  /* The handle is out of the multi handle already. */
  curl_easy_cleanup(easy);
  x->easy = NULL;
  curl_slist_free_all(x->hdrs);
  x->hdrs = NULL;
  if (x->timer) {
    t->host->timer_cancel(t->host, x->timer);
    x->timer = NULL;
  }
  if (rc == CURLE_OK && url_is_redirect(exchange_status(x))) {
    bool followed = follow_redirect(x, location);
    free(location);
    if (followed) {
      return;
    }
  }
  if (rc != CURLE_OK && !x->established && http_client_unreachable(rc) &&
      x->kind != X_DELETE && t->state == T_RUNNING) {
    if (x->kind == X_STREAM || (x->kind == X_POST && x->opens_stream)) {
      stream_release_hold(t);
    }
    http_unreachable(x, rc);
    return;
  }
  switch (x->kind) {
  case X_POST: post_done(x, rc); break;
  case X_STREAM:
  case X_RESUME: stream_done(x, rc); break;
  case X_DELETE: delete_done(x, rc); break;
  }
}

/* ---- the transport functions ---- */

static int t_create(void *plugin_ctx, const mcph_transport_params *params,
                    mcph_transport **out, mcph_error *err) {
  plugin *pl = plugin_ctx;
  if (!MCPH_HAS(params, mcph_transport_params, events) || !params->events ||
      !MCPH_HAS(params->events, mcph_transport_events, on_close) ||
      !params->events->on_message || !params->events->on_close)
    return mcph_error_set(err, MCPH_EABI,
                          "http transport: incomplete transport params");
  mcph_transport *t = calloc(1, sizeof *t);
  if (!t)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  t->pl = pl;
  t->host = pl->host;
  t->ev = params->events;
  t->name = strdup(params->server_name ? params->server_name : "");
  hq_init(t);
  int rc = t->name ? remote_config_parse(params->config_json, &url_http_rule, t->host, t->name,
                                         "http", &t->cfg, err)
                   : mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  if (rc != 0)
    goto fail;
  size_t n = strlen(t->host->host_version ? t->host->host_version : "") + 16;
  if (!(t->user_agent = malloc(n)) || !(t->cl = curl_loop_new(t->host))) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto fail;
  }
  snprintf(t->user_agent, n, "mcphost/%s",
           t->host->host_version ? t->host->host_version : "0");
  if (t->cfg.insecure)
    mcph_logf(t->host, MCPH_LOG_WARN, t->name,
              "TLS certificate verification is off for server \"%s\" "
              "(tls.insecure): anyone on the path can read and change its "
              "traffic",
              t->name);
  *out = t;
  return 0;
fail:
  remote_config_free(&t->cfg);
  free(t->user_agent);
  free(t->name);
  free(t);
  return rc;
}

/* The headersHelper finished: its headers merged, the held POSTs go. */
static void on_helper(void *ud, int code, const char *message,
                      const char *out, size_t len) {
  mcph_transport *t = ud;
  (void)len;
  t->helper = NULL;
  mcph_error err;
  mcph_error_init(&err);
  if (code == 0 && remote_config_merge_headers(&t->cfg, out, t->host, t->name,
                                               "http", &err) == 0) {
    stream_release_hold(t);
    return;
  }
  char why[1400];
  if (code != 0)
    snprintf(why, sizeof why, "%s", message);
  else
    headers_helper_message(why, sizeof why, t->name, t->cfg.headers_helper,
                           err.message);
  http_abort_all(t);
  if (t->state == T_RUNNING)
    t->state = T_CLOSING;
  hq_close(t, code ? code : err.code, why);
}

static int t_start(mcph_transport *t, mcph_error *err) {
  if (t->state != T_NEW)
    return mcph_error_set(err, MCPH_EINVAL, "already started");
  if (t->cfg.headers_helper) {
    /* Every POST waits for the helper's headers (released as after the
     * standalone stream opened, streams.c). */
    int rc = headers_helper_start(t->host, t->name, t->cfg.display_url,
                                  t->cfg.headers_helper, on_helper, t,
                                  &t->helper, err);
    if (rc != 0)
      return rc;
    t->hold = true;
  }
  t->state = T_RUNNING;
  return 0;
}

static void on_hold_timeout(void *ud) {
  mcph_transport *t = ud;
  t->hold_timer = NULL;
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
            "the standalone event stream is not open after %u ms; sending "
            "anyway",
            HOLD_MAX_MS);
  stream_release_hold(t);
}

static int t_send(mcph_transport *t, const char *json, size_t len,
                  mcph_error *err) {
  if (t->state != T_RUNNING)
    return mcph_error_set(err, MCPH_ECLOSED, "the server connection is closed");
  if (!json || len == 0)
    return mcph_error_set(err, MCPH_EINVAL, "empty message");
  if (len > t->cfg.max_message_bytes)
    return mcph_error_set(err, MCPH_ETOOBIG,
                          "message of %zu bytes exceeds the %zu-byte limit",
                          len, t->cfg.max_message_bytes);
  exchange *x = exchange_new(t, X_POST, json, len);
  if (!x)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  if (x->opens_stream) {
    /* A (re-)initialized session: a new standalone stream follows this
     * POST; later POSTs wait for it (see streams.c). */
    stream_stop(t);
    if (!t->hold) {
      t->hold = true;
      if (t->host->timer_start(t->host, HOLD_MAX_MS, on_hold_timeout, t,
                               &t->hold_timer) != 0) {
        t->hold_timer = NULL;
        t->hold = false;
      }
    }
  } else if (t->hold) {
    x->held = true;
    return 0;
  }
  int rc = post_start(x);
  if (rc != 0) {
    mcph_error_set(err, rc, "%s", x->last_error);
    if (x->opens_stream)
      stream_release_hold(t);
    exchange_free(x);
    return rc;
  }
  return 0;
}

/* A header the host gives: a token name, a value of visible ASCII and
 * spaces (the host encodes the rest). */
static bool header_ok(const char *name, const char *value) {
  if (!name || !value || !*name) {
    return false;
  }
  for (const char *p = name; *p; p++) {
    if (*p <= 0x20 || *p >= 0x7f || strchr("()<>@,;:\\\"/[]?={}", *p)) {
      return false;
    }
  }
  for (const char *p = value; *p; p++) {
    if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
      return false;
    }
  }
  return true;
}

/* Cancelling in 2026-07-28 is closing the request's response stream. */
static void cancel_stateless(mcph_transport *t, const char *json, size_t len) {
  rpc_peek pk, pp;
  if (!rpc_peek_object(json, len, &pk) || !pk.params ||
      !rpc_peek_object(pk.params, pk.params_len, &pp) || !pp.request_id) {
    return;
  }
  for (exchange *x = t->head; x; x = x->next) {
    if (x->kind == X_POST && x->req_id &&
        rpc_same_id(x->req_id, x->req_id_len, pp.request_id,
                    pp.request_id_len)) {
      mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
                "closing the response stream of request %.*s (cancelled)",
                (int)pp.request_id_len, pp.request_id);
      exchange_free(x);
      return;
    }
  }
}

static int t_send_headers(mcph_transport *t, const char *json, size_t len,
                          const char *const *headers, size_t nheaders,
                          mcph_error *err) {
  if (t->state != T_RUNNING)
    return mcph_error_set(err, MCPH_ECLOSED, "the server connection is closed");
  if (!json || len == 0)
    return mcph_error_set(err, MCPH_EINVAL, "empty message");
  if (len > t->cfg.max_message_bytes)
    return mcph_error_set(err, MCPH_ETOOBIG,
                          "message of %zu bytes exceeds the %zu-byte limit",
                          len, t->cfg.max_message_bytes);
  for (size_t i = 0; i < nheaders; i++) {
    if (!header_ok(headers[2 * i], headers[2 * i + 1]))
      return mcph_error_set(err, MCPH_EINVAL,
                            "not a header the transport can send: %.64s",
                            headers[2 * i] ? headers[2 * i] : "(null)");
  }
  rpc_peek pk;
  static const char cancelled[] = "\"notifications/cancelled\"";
  if (rpc_peek_object(json, len, &pk) && !pk.id && pk.method &&
      pk.method_len == sizeof cancelled - 1 &&
      memcmp(pk.method, cancelled, pk.method_len) == 0) {
    cancel_stateless(t, json, len);
    return 0;
  }
  exchange *x = exchange_new(t, X_POST, json, len);
  if (!x)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  x->stateless = true;
  x->opens_stream = false;
  x->extra = calloc(nheaders + 1, sizeof *x->extra);
  bool ok = x->extra != NULL;
  for (size_t i = 0; ok && i < nheaders; i++) {
    size_t n = strlen(headers[2 * i]) + strlen(headers[2 * i + 1]) + 3;
    /* "Name;" is libcurl's way to send a header with an empty value
     * ("Name:" would remove it). */
    const char *v = headers[2 * i + 1];
    if ((x->extra[i] = malloc(n)) != NULL)
      snprintf(x->extra[i], n, *v ? "%s: %s" : "%s;%s", headers[2 * i], v);
    else
      ok = false;
  }
  if (!ok) {
    exchange_free(x);
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  if (t->hold) { /* the headersHelper is still running */
    x->held = true;
    return 0;
  }
  int rc = post_start(x);
  if (rc != 0) {
    mcph_error_set(err, rc, "%s", x->last_error);
    exchange_free(x);
    return rc;
  }
  return 0;
}

static void t_close(mcph_transport *t) {
  if (t->state != T_RUNNING)
    return;
  t->state = T_CLOSING;
  http_abort_all(t);
  if (t->session_id) {
    /* Tell the server the session is over; 405 (not supported) or any
     * failure is fine, and DELETE_TIMEOUT_MS bounds it. */
    exchange *x = exchange_new(t, X_DELETE, NULL, 0);
    if (x && exchange_start(x) == 0)
      return; /* delete_done() queues on_close */
    exchange_free(x);
  }
  hq_close(t, 0, "closed");
}

static void t_destroy(mcph_transport *t) {
  if (!t)
    return;
  headers_helper_cancel(t->helper);
  http_abort_all(t);
  hq_free(t);
  curl_loop_free(t->cl);
  remote_config_free(&t->cfg);
  free(t->session_id);
  free(t->protocol_version);
  free(t->authorization);
  free(t->user_agent);
  free(t->name);
  free(t);
}

static const char *t_session_id(mcph_transport *t) {
  return t->session_id;
}

static void t_set_protocol_version(mcph_transport *t, const char *version) {
  size_t n = version ? strlen(version) : 0;
  bool ok = n > 0 && n <= 64;
  for (size_t i = 0; ok && i < n; i++)
    ok = version[i] > 0x20 && version[i] < 0x7f;
  if (!ok) {
    mcph_logf(t->host, MCPH_LOG_WARN, t->name,
              "ignoring an invalid protocol version for the "
              "MCP-Protocol-Version header");
    return;
  }
  char *copy = strdup(version);
  if (!copy)
    return;
  free(t->protocol_version);
  t->protocol_version = copy;
}

/* The host's Authorization value (an auth provider's token) replaces a
 * configured Authorization header for the exchanges started from now. */
static int t_set_authorization(mcph_transport *t, const char *value) {
  return authorization_set(&t->authorization, value);
}

/* ---- the plugin ---- */

static const char *const http_types[] = {PLUGIN_TYPES, NULL};
static const mcph_transport_type_info http_info[] = {PLUGIN_TYPE_INFO,
                                                     {0, NULL, 0}};

static const mcph_transport_factory http_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = http_types,
    .create = t_create,
    .start = t_start,
    .send = t_send,
    .close = t_close,
    .destroy = t_destroy,
    .session_id = t_session_id,
    .set_protocol_version = t_set_protocol_version,
    .set_authorization = t_set_authorization,
    .type_info = http_info,
    .send_headers = t_send_headers,
};

static int plugin_init(const mcph_host *host, void **plugin_ctx,
                       mcph_error *err) {
  if (!MCPH_HAS(host, mcph_host, timer_cancel) ||
      host->abi_major != MCPH_ABI_MAJOR || !host->log || !host->fd_watch ||
      !host->fd_update || !host->fd_unwatch || !host->timer_start ||
      !host->timer_cancel)
    return mcph_error_set(err, MCPH_EABI,
                          "http transport: the host table lacks services "
                          "this plugin needs (ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  /* CURLOPT_PROTOCOLS_STR and friends need libcurl 7.85. */
  const curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
  if (!v || v->version_num < 0x075500)
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "http transport: needs libcurl 7.85 or later, "
                          "found %s",
                          v ? v->version : "none");
  /* The one place curl's process-wide state is set up; reference counted
   * by curl, so other curl plugins may do the same. */
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    return mcph_error_set(err, MCPH_EIO,
                          "http transport: cannot "
                          "initialize libcurl");
  plugin *pl = calloc(1, sizeof *pl);
  if (!pl) {
    curl_global_cleanup();
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  pl->host = host;
  *plugin_ctx = pl;
  return 0;
}

static const void *plugin_get_extension(void *plugin_ctx, const char *id) {
  (void)plugin_ctx;
  return id && strcmp(id, MCPH_EXT_TRANSPORT) == 0 ? &http_factory : NULL;
}

static void plugin_deinit(void *plugin_ctx) {
  if (plugin_ctx) {
    free(plugin_ctx);
    curl_global_cleanup();
  }
}

/* The one exported symbol. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = PLUGIN_NAME,
    .version = PLUGIN_VERSION,
    .description = PLUGIN_DESCRIPTION,
    .init = plugin_init,
    .get_extension = plugin_get_extension,
    .deinit = plugin_deinit,
};
