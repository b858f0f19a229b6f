/*
 * The ws transport plugin: MCP over a WebSocket (subprotocol "mcp"), one
 * JSON-RPC message per text message, on libwebsockets 4.1.6 running in
 * the host's loop (ws_loop.c).
 *
 * Life of one transport, all on the host's loop thread:
 *
 *   create   validate the configuration (../common/remote_config.c, the
 *            URL by ws_url.c, "pingInterval"); no I/O
 *   start    run the headersHelper if there is one (its headers merged
 *            over "headers"), resolve a host name off the loop (ws_dns.c),
 *            then connect: TCP, TLS, the upgrade with the headers and the
 *            subprotocol, within "timeout" ms
 *   send     queue the message; it goes out once the connection is open,
 *            in 64 KiB fragments (ws_lws.c)
 *   receive  fragments reassembled up to maxMessageBytes; a bigger or a
 *            binary message is dropped and reported, the connection kept
 *   keepalive a ping every pingInterval ms from a host timer; no pong
 *            within the next interval ends the connection
 *   close    a close frame with code 1000, on_close(0) when the server
 *            answered or after WS_CLOSE_WAIT_MS
 *   destroy  everything stopped at once; the lws context and the libuv
 *            loop gone, no thread, no fd left
 *
 * Every call to the host goes through the event queue
 * (mcphost/helpers/event_queue.h), delivered from a zero-delay timer: never
 * from inside start(), send() or close(), nor from inside lws.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <mcphost/plugin.h>

#include "../common/www_auth.h"
#include "ws_proxy.h"
#include "ws_transport.h"

static const remote_url_rule ws_rule = {"ws or wss", ws_url_check};

/* ---- the end, and callbacks to the host ---- */

static void stop_timer(mcph_transport *t, mcph_timer **tm) {
  if (*tm) {
    t->host->timer_cancel(t->host, *tm);
    *tm = NULL;
  }
}

static void stop_timers(mcph_transport *t) {
  stop_timer(t, &t->connect_timer);
  stop_timer(t, &t->ping_timer);
  stop_timer(t, &t->pong_timer);
  stop_timer(t, &t->close_timer);
}

void ws_end(mcph_transport *t, int code, const char *fmt, ...) {
  if (t->state == WS_ENDED) {
    return;
  }
  t->state = WS_ENDED;
  stop_timers(t);
  ws_in_stop(t);
  headers_helper_cancel(t->helper);
  t->helper = NULL;
  ws_dns_cancel(t->dns);
  t->dns = NULL;
  va_list ap;
  va_start(ap, fmt);
  mcph_evq_vpushf(&t->q, t->name, EV_CLOSE, code, fmt, ap);
  va_end(ap);
  if (t->wsi && !t->in_lws) {
    /* Gone from lws's side as soon as the loop runs. */
    lws_set_timeout(t->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    ws_loop_kick(&t->loop);
  }
}

/* Delivers the queue, in order (mcphost/helpers/event_queue.h). */
static void deliver(void *ud) {
  mcph_transport *t = ud;
  const mcph_transport_events *ev = t->ev;
  mcph_evq_item *it;
  while ((it = mcph_evq_pop(&t->q))) {
    switch (it->kind) {
    case EV_MESSAGE: ev->on_message(ev->ud, it->data, it->len); break;
    case EV_ERROR: ev->on_error(ev->ud, it->code, it->data); break;
    case EV_DROPPED:
      if (MCPH_HAS(ev, mcph_transport_events, on_message_dropped) &&
          ev->on_message_dropped) {
        ev->on_message_dropped(ev->ud, it->code, it->data,
                               it->json ? it->json : "", it->json_len,
                               it->total);
      } else {
        ev->on_error(ev->ud, it->code, it->data);
      }
      break;
    case EV_AUTH:
      if (MCPH_HAS(ev, mcph_transport_events, on_auth_required) &&
          ev->on_auth_required) {
        www_auth w;
        mcph_auth_challenge c;
        www_auth_parse(it->data, &w);
        www_auth_challenge(&w, it->code, t->cfg.display_url, it->data, &c);
        ev->on_auth_required(ev->ud, &c);
      }
      break;
    case EV_CLOSE: {
      int code = it->code;
      char *reason = it->data;
      it->data = NULL;
      mcph_evq_item_free(it);
      mcph_evq_clear(&t->q);
      /* The last call: the host may destroy the transport in it. */
      ev->on_close(ev->ud, code, reason ? reason : "closed");
      free(reason);
      return;
    }
    }
    mcph_evq_item_free(it);
  }
}

/* Whether a host call (a send, a ping) may write now, from here: the
 * connection open and nothing unsent inside lws. Asking lws for
 * WRITEABLE instead costs a message four epoll_ctl() calls inside libuv
 * (each change of lws's poll events is a uv_poll_start(), which deletes
 * the socket from libuv's epoll and adds it again) and a wait. */
static bool writable_now(const mcph_transport *t) {
  return t->wsi && !t->in_lws && t->state == WS_OPEN && !t->want_close &&
         !t->peer_close_code && !lws_partial_buffered(t->wsi);
}

/* The rest from lws's WRITEABLE callback. */
static void write_later(mcph_transport *t) {
  lws_callback_on_writable(t->wsi);
  /* Pumped at once: libuv applies the new poll events only inside
   * uv_run(). The kick's wake-up of lws (lws_cancel_service) is for
   * timers lws starts, which a wanted write does not. */
  ws_loop_pump(&t->loop);
}

/* After a write from a host call: a write that failed closes the
 * connection, as a -1 from WRITEABLE would (CLIENT_CLOSED says so); what
 * is left to write (queued, or kept by lws) goes from WRITEABLE. */
static void wrote(mcph_transport *t, bool failed) {
  if (failed) {
    lws_set_timeout(t->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    ws_loop_kick(&t->loop);
    return;
  }
  if (t->tx_head || t->want_ping || lws_partial_buffered(t->wsi)) {
    write_later(t);
  }
}

void ws_want_write(mcph_transport *t) {
  if (!t->wsi) {
    return;
  }
  if (t->in_lws) {
    lws_callback_on_writable(t->wsi);
    ws_loop_kick(&t->loop);
    return;
  }
  if (writable_now(t)) {
    wrote(t, ws_write_next(t, t->wsi) != 0);
  } else {
    write_later(t);
  }
}

/* ---- timers ---- */

static void on_connect_deadline(void *ud) {
  mcph_transport *t = ud;
  t->connect_timer = NULL;
  const char *what = t->state == WS_HELPER      ? "the headersHelper"
                     : t->state == WS_RESOLVING ? "resolving the host name"
                                                : "an answer to the upgrade";
  ws_end(t, MCPH_ETIMEDOUT,
         "no WebSocket connection to %s within %ld ms (waiting for %s)",
         t->cfg.display_url, t->cfg.timeout_ms, what);
}

static void on_pong_deadline(void *ud) {
  mcph_transport *t = ud;
  t->pong_timer = NULL;
  ws_end(t, MCPH_ECONNREFUSED,
         "the WebSocket connection to %s was lost: no answer to a ping "
         "within %llu ms",
         t->cfg.display_url, (unsigned long long)t->ping_ms);
}

static void on_ping(void *ud) {
  mcph_transport *t = ud;
  t->ping_timer = NULL;
  if (t->state != WS_OPEN) {
    return;
  }
  /* The deadline first: the ping goes out inside ws_want_write, and its
   * pong may come back in the same pump (which cancels the deadline). */
  if (!t->pong_timer &&
      t->host->timer_start(t->host, t->ping_ms, on_pong_deadline, t,
                           &t->pong_timer) != 0) {
    t->pong_timer = NULL;
  }
  if (t->host->timer_start(t->host, t->ping_ms, on_ping, t, &t->ping_timer)) {
    t->ping_timer = NULL;
  }
  t->want_ping = true;
  ws_want_write(t);
}

void ws_opened(mcph_transport *t) {
  if (t->state != WS_CONNECTING) {
    return;
  }
  t->state = WS_OPEN;
  stop_timer(t, &t->connect_timer);
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "WebSocket open to %s (%s)",
            t->cfg.display_url, t->address);
  if (t->ping_ms &&
      t->host->timer_start(t->host, t->ping_ms, on_ping, t, &t->ping_timer)) {
    t->ping_timer = NULL;
  }
  if (t->tx_head || t->want_close) {
    lws_callback_on_writable(t->wsi);
  }
  /* A ws:// connection's frames are read here (ws_in.c), from now on:
   * this is lws's CLIENT_ESTABLISHED. */
  ws_in_take(t);
}

/* ---- connecting ---- */

static void dial(mcph_transport *t, const char *address) {
  snprintf(t->address, sizeof t->address, "%s", address);
  mcph_error err;
  mcph_error_init(&err);
  ws_loop_tls tls = {.use_tls = t->url.tls,
                     .ca_file = t->cfg.ca_file,
                     .cert_file = t->cfg.cert_file,
                     .key_file = t->cfg.key_file,
                     .proxy = t->proxy};
  if (ws_loop_init(&t->loop, t->host, ws_protocols, t, &tls, &err) != 0) {
    t->loop_ok = true; /* half-made: destroy() frees it */
    ws_end(t, err.code, "cannot connect to %s: %s", t->cfg.display_url,
           err.message);
    return;
  }
  t->loop_ok = true;
  t->state = WS_CONNECTING;
  struct lws_client_connect_info ci;
  memset(&ci, 0, sizeof ci);
  ci.context = t->loop.ctx;
  ci.vhost = t->loop.vh;
  ci.address = t->address;
  ci.port = t->url.port;
  ci.path = t->url.path;
  /* Host header, SNI and the name the certificate must carry. No
   * Origin: this is no browser (and a server guarding against cross-site
   * WebSockets may refuse one it does not expect). */
  ci.host = t->url.host_header;
  ci.protocol = WS_SUBPROTOCOL;
  ci.local_protocol_name = WS_SUBPROTOCOL;
  ci.pwsi = &t->wsi;
  ci.opaque_user_data = t;
  if (t->url.tls) {
    ci.ssl_connection = LCCSCF_USE_SSL;
    if (t->cfg.insecure) {
      ci.ssl_connection |= LCCSCF_ALLOW_SELFSIGNED | LCCSCF_ALLOW_EXPIRED |
                           LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK |
                           LCCSCF_ALLOW_INSECURE;
    }
  }
  /* Keepalive is ours (host timers): lws's own would clobber a pending
   * close frame with its ping payload (4.1.6). */
  static const lws_retry_bo_t no_keepalive = {0};
  ci.retry_and_idle_policy = &no_keepalive;
  /* A failure may be reported (CONNECTION_ERROR) before this returns. */
  lws_client_connect_via_info(&ci);
  ws_loop_kick(&t->loop);
}

static void on_resolved(void *ud, int code, const char *address,
                        const char *why) {
  mcph_transport *t = ud;
  t->dns = NULL;
  if (code != 0) {
    ws_end(t, code,
           "the server at %s cannot be reached: cannot resolve "
           "\"%s\": %s",
           t->cfg.display_url, t->url.host, why);
    return;
  }
  dial(t, address);
}

static void resolve_and_dial(mcph_transport *t) {
  /* Through a proxy, the proxy resolves the name (CONNECT host:port). */
  if (t->url.literal || t->proxy) {
    dial(t, t->url.host);
    return;
  }
  t->state = WS_RESOLVING;
  if (!(t->dns = ws_dns_start(t->host, t->url.host, on_resolved, t))) {
    ws_end(t, MCPH_ENOMEM, "cannot resolve \"%s\": no thread or pipe",
           t->url.host);
  }
}

static void on_helper(void *ud, int code, const char *message, const char *out,
                      size_t len) {
  mcph_transport *t = ud;
  (void)len;
  t->helper = NULL;
  if (code != 0) {
    ws_end(t, code, "%s", message);
    return;
  }
  mcph_error err;
  mcph_error_init(&err);
  if (remote_config_merge_headers(&t->cfg, out, t->host, t->name, "ws", &err) !=
      0) {
    char why[1400];
    headers_helper_message(why, sizeof why, t->name, t->cfg.headers_helper,
                           err.message);
    ws_end(t, err.code, "%s", why);
    return;
  }
  resolve_and_dial(t);
}

/* ---- the transport functions ---- */

static int parse_ping(mcph_transport *t, const char *json, mcph_error *err) {
  cJSON *root = cJSON_Parse(json ? json : "");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "pingInterval");
  int rc = 0;
  t->ping_ms = WS_DEFAULT_PING_MS;
  if (v) {
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1;
    if (!(d >= 0 && d <= 86400000.0 && (double)(uint64_t)d == d)) {
      rc = mcph_error_set(err, MCPH_EINVAL,
                          "\"pingInterval\" must be a whole number of "
                          "milliseconds from 0 (no pings) to 86400000");
    } else {
      t->ping_ms = (uint64_t)d;
    }
  }
  cJSON_Delete(root);
  return rc;
}

static int t_create(void *plugin_ctx, const mcph_transport_params *params,
                    mcph_transport **out, mcph_error *err) {
  const mcph_host *host = plugin_ctx;
  if (!MCPH_HAS(params, mcph_transport_params, events) || !params->events ||
      !MCPH_HAS(params->events, mcph_transport_events, on_close) ||
      !params->events->on_message || !params->events->on_close ||
      !params->events->on_error) {
    return mcph_error_set(err, MCPH_EABI,
                          "ws transport: incomplete transport params");
  }
  mcph_transport *t = calloc(1, sizeof *t);
  if (!t) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  t->host = host;
  t->ev = params->events;
  mcph_evq_init(&t->q, host, deliver, t);
  int rc = 0;
  char why[256];
  t->name = strdup(params->server_name ? params->server_name : "");
  if (!t->name) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto fail;
  }
  if ((rc = remote_config_parse(params->config_json, &ws_rule, host, t->name,
                                "ws", &t->cfg, err)) != 0 ||
      (rc = parse_ping(t, params->config_json, err)) != 0) {
    goto fail;
  }
  if (!ws_url_parse(t->cfg.url, &t->url, why, sizeof why)) {
    rc = mcph_error_set(err, MCPH_EINVAL, "\"url\": %s", why);
    goto fail;
  }
  /* "noProxy" (ws-ide): never through a proxy of the environment. */
  if (!t->cfg.no_proxy && !ws_proxy_for(&t->url, &t->proxy, why, sizeof why)) {
    rc = mcph_error_set(err, MCPH_EINVAL, "%s", why);
    goto fail;
  }
  size_t n = strlen(host->host_version ? host->host_version : "0") + 16;
  if (!(t->user_agent = malloc(n))) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto fail;
  }
  snprintf(t->user_agent, n, "mcphost/%s",
           host->host_version ? host->host_version : "0");
  if (t->cfg.insecure) {
    mcph_logf(host, MCPH_LOG_WARN, t->name,
              "TLS certificate verification is off for server \"%s\" "
              "(tls.insecure): anyone on the path can read and change its "
              "traffic",
              t->name);
  }
  *out = t;
  return 0;
fail:
  remote_config_free(&t->cfg);
  ws_url_free(&t->url);
  free(t->proxy);
  free(t->name);
  free(t);
  return rc;
}

static int t_start(mcph_transport *t, mcph_error *err) {
  if (t->state != WS_NEW) {
    return mcph_error_set(err, MCPH_EINVAL, "already started");
  }
  if (t->host->timer_start(t->host, (uint64_t)t->cfg.timeout_ms,
                           on_connect_deadline, t, &t->connect_timer) != 0) {
    return mcph_error_set(err, MCPH_ENOMEM, "cannot start a timer");
  }
  if (t->cfg.headers_helper) {
    int rc = headers_helper_start(t->host, t->name, t->cfg.display_url,
                                  t->cfg.headers_helper, on_helper, t,
                                  &t->helper, err);
    if (rc != 0) {
      stop_timer(t, &t->connect_timer);
      return rc;
    }
    t->state = WS_HELPER;
    return 0;
  }
  /* A failure found at once is queued (ws_end): on_close never comes
   * from inside start(). */
  resolve_and_dial(t);
  return 0;
}

static int t_send(mcph_transport *t, const char *json, size_t len,
                  mcph_error *err) {
  if (t->state == WS_CLOSING || t->state == WS_ENDED) {
    return mcph_error_set(err, MCPH_ECLOSED, "the server connection is closed");
  }
  if (!json || len == 0) {
    return mcph_error_set(err, MCPH_EINVAL, "empty message");
  }
  if (len > t->cfg.max_message_bytes) {
    return mcph_error_set(err, MCPH_ETOOBIG,
                          "message of %zu bytes exceeds the %zu-byte limit",
                          len, t->cfg.max_message_bytes);
  }
  bool failed;
  if (writable_now(t) && ws_send_now(t, json, len, &failed)) {
    wrote(t, failed);
    return 0;
  }
  /* malloc, not calloc (which never reuses glibc's thread cache): a
   * message queued. */
  ws_msg *m = malloc(sizeof *m);
  unsigned char *buf = m ? malloc(LWS_PRE + len) : NULL;
  if (!buf) {
    free(m);
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  *m = (ws_msg){.buf = buf, .len = len};
  memcpy(m->buf + LWS_PRE, json, len);
  if (t->tx_tail) {
    t->tx_tail->next = m;
  } else {
    t->tx_head = m;
  }
  t->tx_tail = m;
  if (t->state == WS_OPEN) {
    ws_want_write(t);
  }
  return 0;
}

static void on_close_deadline(void *ud) {
  mcph_transport *t = ud;
  t->close_timer = NULL;
  ws_end(t, 0, "closed (the server did not answer the close frame)");
}

static void t_close(mcph_transport *t) {
  if (t->state == WS_CLOSING || t->state == WS_ENDED) {
    return;
  }
  if (t->state != WS_OPEN || !t->wsi) {
    ws_end(t, 0, "closed");
    return;
  }
  t->state = WS_CLOSING;
  stop_timer(t, &t->ping_timer);
  stop_timer(t, &t->pong_timer);
  ws_tx_free_all(t);
  t->want_close = true;
  t->want_ping = false;
  /* Not written at once (ws_want_write): the close goes out from the
   * next pump, after this returns, as it always did. */
  lws_callback_on_writable(t->wsi);
  ws_loop_kick(&t->loop);
  if (t->host->timer_start(t->host, WS_CLOSE_WAIT_MS, on_close_deadline, t,
                           &t->close_timer) != 0) {
    t->close_timer = NULL;
  }
}

static void t_destroy(mcph_transport *t) {
  if (!t) {
    return;
  }
  t->dying = true;
  stop_timers(t);
  headers_helper_cancel(t->helper);
  ws_dns_cancel(t->dns);
  mcph_evq_clear(&t->q);
  ws_in_stop(t); /* unwatched before lws closes the socket */
  if (t->loop_ok) {
    ws_loop_destroy(&t->loop);
  }
  ws_tx_free_all(t);
  remote_config_free(&t->cfg);
  ws_url_free(&t->url);
  ws_rx_free(&t->rx);
  free(t->proxy);
  free(t->authorization);
  free(t->user_agent);
  free(t->name);
  free(t);
}

/* The host's Authorization value (an auth provider's) replaces a
 * configured Authorization header from the next connection on: a
 * WebSocket sends headers once, in its upgrade. */
static int t_set_authorization(mcph_transport *t, const char *value) {
  char *copy = NULL;
  if (value) {
    if (!remote_config_header_value_ok(value)) {
      return MCPH_EINVAL;
    }
    if (!(copy = strdup(value))) {
      return MCPH_ENOMEM;
    }
  }
  free(t->authorization);
  t->authorization = copy;
  return MCPH_OK;
}

/* ---- the plugin ---- */

static const char *const ws_types[] = {PLUGIN_TYPES, NULL};
static const mcph_transport_type_info ws_info[] = {PLUGIN_TYPE_INFO,
                                                   {0, NULL, 0}};

static const mcph_transport_factory ws_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = ws_types,
    .create = t_create,
    .start = t_start,
    .send = t_send,
    .close = t_close,
    .destroy = t_destroy,
    .session_id = NULL,
    .set_protocol_version = NULL,
    .set_authorization = t_set_authorization,
    .type_info = ws_info,
};

static int plugin_init(const mcph_host *host, void **plugin_ctx,
                       mcph_error *err) {
  if (!MCPH_HAS(host, mcph_host, timer_cancel) ||
      host->abi_major != MCPH_ABI_MAJOR || !host->log || !host->fd_watch ||
      !host->fd_update || !host->fd_unwatch || !host->timer_start ||
      !host->timer_cancel) {
    return mcph_error_set(err, MCPH_EABI,
                          "ws transport: the host table lacks services this "
                          "plugin needs (ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  ws_loop_log_to(host);
  *plugin_ctx = (void *)host;
  return 0;
}

static const void *plugin_get_extension(void *plugin_ctx, const char *id) {
  (void)plugin_ctx;
  return id && strcmp(id, MCPH_EXT_TRANSPORT) == 0 ? &ws_factory : NULL;
}

/* lws keeps its log function for the process: back to its own before
 * this library can go away. */
static void plugin_deinit(void *plugin_ctx) {
  (void)plugin_ctx;
  ws_loop_log_to(NULL);
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
