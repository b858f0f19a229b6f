/*
 * The sse transport plugin: MCP's legacy HTTP+SSE transport (protocol
 * revision 2024-11-05), config types "sse" and "sse-ide".
 *
 * The server's messages come on one long GET event stream (stream.c);
 * the client's go as POSTs to the URL the stream's `endpoint` event names
 * (post.c). libcurl runs on the host loop through ../common/curl_loop.c.
 *
 * The host is told things only from the loop: curl callbacks and start,
 * send and close queue notes, and a zero-delay timer (or a finished
 * transfer) delivers them in order. So the host never re-enters the
 * transport from inside itself, and curl is never re-entered from inside
 * one of its callbacks (where curl_multi_* calls fail).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/plugin.h>

#include "sse_transport.h"

#include "../common/authorization.h"
#include "../common/headers_helper.h"
#include "../common/url.h"
#include "../common/www_auth.h"

typedef struct plugin {
  const mcph_host *host;
} plugin;

static void cancel(mcph_transport *t, mcph_timer **tm) {
  if (*tm) {
    t->host->timer_cancel(t->host, *tm);
    *tm = NULL;
  }
}

/* ---- notes ---- */

static void on_notes(void *ud) {
  sse_deliver_notes(ud);
}

bool sse_note(mcph_transport *t, enum note_kind kind, int code, char *data,
              size_t len, char *json, size_t json_len) {
  return mcph_evq_push(&t->notes, t->name, (int)kind, code, data, len, json,
                  json_len, 0);
}

bool sse_notef(mcph_transport *t, enum note_kind kind, int code,
               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bool ok = mcph_evq_vpushf(&t->notes, t->name, (int)kind, code, fmt, ap);
  va_end(ap);
  return ok;
}

void sse_auth_required(mcph_transport *t, long status, const char *url,
                       const char *www) {
  if (!MCPH_HAS(t->ev, mcph_transport_events, on_auth_required) ||
      !t->ev->on_auth_required) {
    return; /* an older host learns of it from the failure */
  }
  char *shown = strdup(url), *value = www ? strdup(www) : NULL;
  if (!shown || (www && !value)) {
    free(shown);
    free(value);
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "out of memory: an authorization challenge was lost");
    return;
  }
  /* After what came before it, and before the failure that follows. */
  if (sse_note(t, NOTE_AUTH, (int)status, value, value ? strlen(value) : 0,
               shown, strlen(shown))) {
    sse_deliver_notes(t);
  }
}

static void deliver_auth(mcph_transport *t, const mcph_evq_item *n) {
  www_auth w;
  mcph_auth_challenge ch;
  www_auth_parse(n->data, &w);
  www_auth_challenge(&w, n->code, n->json, n->data, &ch);
  t->ev->on_auth_required(t->ev->ud, &ch);
}

void sse_send_failed(mcph_transport *t, int code, const char *msg,
                     const char *json, size_t len) {
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "%s", msg);
  if (t->on_send_failed) {
    t->on_send_failed(t->ev->ud, code, msg, json, len);
  } else if (t->ev->on_error) {
    t->ev->on_error(t->ev->ud, code, msg); /* a host of ABI 1.0 */
  }
}

void sse_deliver_notes(mcph_transport *t) {
  mcph_evq_cancel(&t->notes); /* delivering now */
  mcph_evq_item *n;
  while (t->state == T_RUNNING && (n = mcph_evq_pop(&t->notes)) != NULL) {
    const char *text = n->data ? n->data : "out of memory";
    switch ((enum note_kind)n->kind) {
    case NOTE_MESSAGE:
      stream_on_event_delivered(t);
      if (t->state == T_RUNNING) {
        t->ev->on_message(t->ev->ud, n->data, n->len);
      }
      break;
    case NOTE_ENDPOINT: stream_on_endpoint(t, n->data, n->len); break;
    case NOTE_STREAM_UP: stream_on_up(t); break;
    case NOTE_ERROR:
      t->host->log(t->host, MCPH_LOG_DEBUG, t->name, text);
      if (t->ev->on_error) {
        t->ev->on_error(t->ev->ud, n->code, text);
      }
      break;
    case NOTE_SEND_FAILED:
      sse_send_failed(t, n->code, text, n->json, n->json_len);
      break;
    case NOTE_AUTH: deliver_auth(t, n); break;
    }
    mcph_evq_item_free(n);
  }
}

/* ---- the end ---- */

static void on_close_timer(void *ud) {
  mcph_transport *t = ud;
  t->close_timer = NULL;
  t->ev->on_close(t->ev->ud, t->close_code,
                  t->close_reason ? t->close_reason : "out of memory");
}

void sse_finish(mcph_transport *t, int code, const char *fmt, ...) {
  if (t->state != T_RUNNING) {
    return;
  }
  t->state = T_CLOSED;
  char reason[1536];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  t->close_code = code;
  t->close_reason = strdup(reason);
  /* A headersHelper still running would open the stream after the end. */
  headers_helper_cancel(t->helper);
  t->helper = NULL;
  stream_stop(t);
  post_stop(t);
  mcph_evq_clear(&t->notes);
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "transport ended: %s", reason);
  if (t->host->timer_start(t->host, 0, on_close_timer, t, &t->close_timer) !=
      0) {
    /* No timer, no deferral: telling the host now beats never. */
    on_close_timer(t);
  }
}

/* ---- the transport functions ---- */

static void t_destroy(mcph_transport *t);

static int t_create(void *plugin_ctx, const mcph_transport_params *params,
                    mcph_transport **out, mcph_error *err) {
  plugin *pl = plugin_ctx;
  if (!MCPH_HAS(params, mcph_transport_params, events) || !params->events ||
      !MCPH_HAS(params->events, mcph_transport_events, on_close) ||
      !params->events->on_message || !params->events->on_close) {
    return mcph_error_set(err, MCPH_EABI,
                          "sse transport: incomplete transport params");
  }
  mcph_transport *t = calloc(1, sizeof *t);
  if (!t) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  t->host = pl->host;
  t->ev = params->events;
  if (MCPH_HAS(t->ev, mcph_transport_events, on_send_failed)) {
    t->on_send_failed = t->ev->on_send_failed; /* may be NULL too */
  }
  t->name = strdup(params->server_name ? params->server_name : "");
  const char *version = pl->host->host_version ? pl->host->host_version : "0";
  size_t ua_len = strlen(version) + sizeof "mcphost/";
  t->user_agent = malloc(ua_len);
  if (t->user_agent) {
    snprintf(t->user_agent, ua_len, "mcphost/%s", version);
  }
  mcph_evq_init(&t->notes, t->host, on_notes, t);
  int rc = t->name && t->user_agent
               ? remote_config_parse(params->config_json, &url_http_rule, t->host, t->name,
                                     "sse", &t->cfg, err)
               : mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  if (rc != 0) {
    t_destroy(t);
    return rc;
  }
  *out = t;
  return 0;
}

/* The headersHelper finished: its headers merged, the stream opens. */
static void on_helper(void *ud, int code, const char *message,
                      const char *out, size_t len) {
  mcph_transport *t = ud;
  (void)len;
  t->helper = NULL;
  mcph_error err;
  mcph_error_init(&err);
  if (code != 0) {
    sse_finish(t, code, "%s", message);
  } else if (remote_config_merge_headers(&t->cfg, out, t->host, t->name,
                                         "sse", &err) != 0) {
    char why[1400];
    headers_helper_message(why, sizeof why, t->name, t->cfg.headers_helper,
                           err.message);
    sse_finish(t, err.code, "%s", why);
  } else if (stream_start(t, &err) != 0) {
    sse_finish(t, err.code, "%s", err.message);
  }
}

static int t_start(mcph_transport *t, mcph_error *err) {
  if (t->state != T_NEW) {
    return mcph_error_set(err, MCPH_EINVAL, "already started");
  }
  if (!(t->loop = curl_loop_new(t->host))) {
    return mcph_error_set(err, MCPH_ENOMEM,
                          "cannot connect to %s: libcurl failed to start",
                          t->cfg.display_url);
  }
  if (t->cfg.insecure) {
    mcph_logf(t->host, MCPH_LOG_WARN, t->name,
              "TLS certificate verification is off for server \"%s\" "
              "(tls.insecure): anyone on the path to %s can read and change "
              "its traffic",
              t->name, t->cfg.display_url);
  }
  if (t->cfg.headers_helper) {
    /* The stream opens with the helper's headers; messages sent before
     * wait for its endpoint as always. */
    int rc = headers_helper_start(t->host, t->name, t->cfg.display_url,
                                  t->cfg.headers_helper, on_helper, t,
                                  &t->helper, err);
    if (rc != 0) {
      curl_loop_free(t->loop);
      t->loop = NULL;
      return rc;
    }
    t->state = T_RUNNING;
    return 0;
  }
  int rc = stream_start(t, err);
  if (rc != 0) {
    stream_free(t);
    curl_loop_free(t->loop);
    t->loop = NULL;
    return rc;
  }
  t->state = T_RUNNING;
  return 0;
}

static int t_send(mcph_transport *t, const char *json, size_t len,
                  mcph_error *err) {
  if (t->state != T_RUNNING) {
    return mcph_error_set(err, MCPH_ECLOSED, "the server connection is closed");
  }
  if (!json || len == 0) {
    return mcph_error_set(err, MCPH_EINVAL, "an empty message");
  }
  if (post_enqueue(t, json, len) != 0) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  return 0;
}

static void t_close(mcph_transport *t) {
  /* Nothing is flushed: legacy SSE has no session to end, and what is
   * still queued could only reach a server we are leaving. */
  sse_finish(t, 0, "closed");
}

static void t_destroy(mcph_transport *t) {
  if (!t) {
    return;
  }
  headers_helper_cancel(t->helper);
  stream_free(t);
  post_stop(t);
  mcph_evq_clear(&t->notes);
  cancel(t, &t->close_timer);
  curl_loop_free(t->loop);
  remote_config_free(&t->cfg);
  free(t->protocol_version);
  free(t->authorization);
  free(t->close_reason);
  free(t->user_agent);
  free(t->name);
  free(t);
}

static const char *t_session_id(mcph_transport *t) {
  return t->session_id;
}

static void t_set_protocol_version(mcph_transport *t, const char *version) {
  char *v = version ? strdup(version) : NULL;
  if (version && !v) {
    return; /* keep the old one; the header is advisory here */
  }
  free(t->protocol_version);
  t->protocol_version = v;
}

/* The host's Authorization value (an auth provider's token), for the
 * POSTs and event-stream GETs started from now (authorization.h). */
static int t_set_authorization(mcph_transport *t, const char *value) {
  return authorization_set(&t->authorization, value);
}

/* ---- the plugin ---- */

static const char *const sse_types[] = {PLUGIN_TYPES, NULL};
static const mcph_transport_type_info sse_info[] = {PLUGIN_TYPE_INFO,
                                                    {0, NULL, 0}};

static const mcph_transport_factory sse_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = sse_types,
    .create = t_create,
    .start = t_start,
    .send = t_send,
    .close = t_close,
    .destroy = t_destroy,
    .session_id = t_session_id,
    .set_protocol_version = t_set_protocol_version,
    .set_authorization = t_set_authorization,
    .type_info = sse_info,
};

static int plugin_init(const mcph_host *host, void **plugin_ctx,
                       mcph_error *err) {
  if (!MCPH_HAS(host, mcph_host, now_ms) || host->abi_major != MCPH_ABI_MAJOR ||
      !host->log || !host->fd_watch || !host->fd_update || !host->fd_unwatch ||
      !host->timer_start || !host->timer_cancel) {
    return mcph_error_set(err, MCPH_EABI,
                          "sse transport: the host table lacks services "
                          "this plugin needs (ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  /* libcurl's one global: reference-counted, so the http transport (or
   * anyone else in the process) may init it too. */
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    return mcph_error_set(err, MCPH_EIO,
                          "sse transport: libcurl failed "
                          "to initialize");
  }
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
  return id && strcmp(id, MCPH_EXT_TRANSPORT) == 0 ? &sse_factory : NULL;
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
