/* The protocol era of a client session (era.h): the policy, the probe,
 * the modern connect and the _meta envelope. */
#include "mcp/era.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "mcp/era_cache.h"
#include "mcp/protocol.h"
#include "mcp/session.h"
#include "text_escape.h"

const char *era_name(mcp_era era) {
  switch (era) {
  case ERA_MODERN: return "modern";
  case ERA_LEGACY: return "legacy";
  case ERA_UNKNOWN: break;
  }
  return "unknown";
}

/* --protocol wins over the entry's key (the command line over files). */
static era_policy policy_of(const session *s) {
  era_policy pol = ERA_POLICY_AUTO;
  if (s->protocol_override && era_policy_parse(s->protocol_override, &pol)) {
    return pol;
  }
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(s->cfg->json, "protocol");
  if (cJSON_IsString(p) && era_policy_parse(p->valuestring, &pol)) {
    return pol;
  }
  return ERA_POLICY_AUTO;
}

/* Where a probe can be made in place: stdio, and a transport that sends
 * the modern request headers (streamable HTTP, which refuses a modern
 * request without them). The others (sse, ws) stay legacy. */
static bool probe_in_place(const session *s) {
  return strcmp(session_type(s), "stdio") == 0 ||
         (MCPH_HAS(s->tf, mcph_transport_factory, send_headers) &&
          s->tf->send_headers);
}

probe_verdict era_classify(const cJSON *result, const rpc_error *err,
                           const char **version) {
  *version = NULL;
  if (!err) {
    const cJSON *caps =
        cJSON_GetObjectItemCaseSensitive(result, "capabilities");
    const char *v = mcp_protocol_modern_pick(
        cJSON_GetObjectItemCaseSensitive(result, "supportedVersions"));
    if (v && (!caps || cJSON_IsObject(caps))) {
      *version = v;
      return PROBE_MODERN;
    }
    return PROBE_LEGACY; /* {} and the like: not a DiscoverResult */
  }
  if (err->status == RPC_ERR_REMOTE &&
      err->code == MCPH_RPC_UNSUPPORTED_PROTOCOL_VERSION) {
    const char *v = mcp_protocol_modern_pick(
        cJSON_GetObjectItemCaseSensitive(err->data, "supported"));
    if (v) {
      *version = v;
      return PROBE_RETRY;
    }
  }
  return PROBE_LEGACY;
}

void era_version_refused(const rpc_error *err, char *buf, size_t n) {
  char theirs[200] = "", ours[100] = "";
  size_t used = 0;
  const cJSON *v;
  const cJSON *offered =
      cJSON_GetObjectItemCaseSensitive(err->data, "supported");
  if (!cJSON_IsArray(offered)) {
    offered = NULL;
  }
  cJSON_ArrayForEach(v, offered) {
    if (!cJSON_IsString(v) || used >= sizeof theirs) {
      continue;
    }
    char *shown =
        text_escape(v->valuestring, strlen(v->valuestring),
                    TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
    int w = snprintf(theirs + used, sizeof theirs - used, "%s%.60s",
                     used ? ", " : "", shown ? shown : "?");
    free(shown);
    used = w < 0 ? sizeof theirs : used + (size_t)w;
  }
  used = 0;
  for (const char *const *p = mcp_protocol_modern_versions; *p; p++) {
    int w =
        snprintf(ours + used, sizeof ours - used, "%s%s", used ? ", " : "", *p);
    used = w < 0 || (size_t)w >= sizeof ours - used ? sizeof ours - 1
                                                    : used + (size_t)w;
  }
  char *msg = text_escape(err->message ? err->message : "",
                          err->message ? strlen(err->message) : 0,
                          TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  snprintf(buf, n, "%.200s; the server supports %s, mcphost speaks %s",
           msg && *msg ? msg : "unsupported protocol version",
           *theirs ? theirs : "no version it names", ours);
  free(msg);
}

cJSON *era_add_meta(session *s, cJSON *params) {
  if (s->era != ERA_MODERN) {
    return params;
  }
  if (!params) {
    params = cJSON_CreateObject();
  }
  cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
  if (!cJSON_IsObject(meta)) {
    cJSON_DeleteItemFromObjectCaseSensitive(params, "_meta");
    meta = cJSON_AddObjectToObject(params, "_meta");
  }
  static const char *const keys[] = {
      "io.modelcontextprotocol/protocolVersion",
      "io.modelcontextprotocol/clientCapabilities",
      "io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/logLevel"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    cJSON_DeleteItemFromObjectCaseSensitive(meta, keys[i]);
  }
  cJSON_AddStringToObject(meta, keys[0], s->protocol_version);
  cJSON_AddItemToObject(meta, keys[1], session_client_capabilities(s));
  cJSON *info = cJSON_AddObjectToObject(meta, keys[2]);
  cJSON_AddStringToObject(info, "name", "mcphost");
  cJSON_AddStringToObject(info, "version", MCPHOST_VERSION);
  if (s->log_level) {
    cJSON_AddStringToObject(meta, keys[3], s->log_level);
  }
  return params;
}

/* ---- the probe ---- */

static void send_probe(session *s, const char *version);

static void legacy(session *s, const char *why) {
  host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
           "not the 2026-07-28 protocol (%s): initialize", why);
  s->era = ERA_LEGACY;
  free(s->protocol_version);
  s->protocol_version = NULL;
  session_send_initialize(s);
}

/* A DiscoverResult: what the session keeps of the server. */
static void accept_discover(session *s, const cJSON *result,
                            const char *version) {
  const cJSON *caps = cJSON_GetObjectItemCaseSensitive(result, "capabilities");
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive(result, "_meta");
  const cJSON *info = cJSON_GetObjectItemCaseSensitive(
      meta, "io.modelcontextprotocol/serverInfo");
  if (!cJSON_IsObject(info)) {
    /* An earlier draft's shape, which the conformance mocks still send. */
    info = cJSON_GetObjectItemCaseSensitive(result, "serverInfo");
  }
  const cJSON *instr = cJSON_GetObjectItemCaseSensitive(result, "instructions");
  s->era = ERA_MODERN;
  free(s->protocol_version);
  s->protocol_version = xstrdup(version);
  cJSON_Delete(s->server_caps);
  s->server_caps =
      cJSON_IsObject(caps) ? cJSON_Duplicate(caps, 1) : cJSON_CreateObject();
  cJSON_Delete(s->server_info);
  s->server_info = cJSON_IsObject(info) ? cJSON_Duplicate(info, 1) : NULL;
  free(s->instructions);
  s->instructions = cJSON_IsString(instr) ? xstrdup(instr->valuestring) : NULL;
  if (MCPH_HAS(s->tf, mcph_transport_factory, set_protocol_version) &&
      s->tf->set_protocol_version) {
    s->tf->set_protocol_version(s->t, s->protocol_version);
  }
  if (policy_of(s) == ERA_POLICY_AUTO) {
    era_cache_put(s->h, s->cfg, ERA_MODERN, version, NULL);
  }
  session_ready(s);
  if (s->auto_reconnect && s->state == SESS_READY && s->listen_id == 0) {
    era_listen(s); /* a long-lived front end hears of changes */
  }
}

static void on_probe(void *ud, cJSON *result, const rpc_error *err,
                     bool *take) {
  (void)take;
  session *s = ud;
  s->probe_id = 0;
  if (s->probe_timer) {
    loop_timer_cancel(s->h->loop, s->probe_timer);
    s->probe_timer = NULL;
  }
  if (s->respawn_timer || s->state != SESS_CONNECTING) {
    return; /* the server exited on it (era_transport_lost), or closed */
  }
  bool pinned = policy_of(s) == ERA_POLICY_MODERN;
  if (err && err->status == RPC_ERR_CLOSED) {
    return; /* the transport's end fails the session with its reason */
  }
  if (err && err->status != RPC_ERR_REMOTE) {
    if (err->status == RPC_ERR_TRANSPORT && s->probe_not_modern && !pinned) {
      s->probe_not_modern = false;
      legacy(s, err->message);
    } else if (err->status == RPC_ERR_TRANSPORT && s->probe_not_modern) {
      session_fail(s, FAIL_PROTOCOL,
                   "server does not speak protocol %s (\"protocol\": "
                   "\"modern\"): server/discover got %s",
                   mcp_protocol_modern_latest(), err->message);
    } else if (err->status == RPC_ERR_TIMEOUT && !pinned &&
               strcmp(session_type(s), "stdio") == 0) {
      legacy(s, "no answer to server/discover in time");
    } else if (err->status == RPC_ERR_TIMEOUT) {
      session_fail(s, FAIL_TIMEOUT,
                   "server did not answer server/discover in time");
    } else {
      fail_kind k = err->status != RPC_ERR_TRANSPORT ? FAIL_INTERRUPTED
                    : s->fail == FAIL_AUTH           ? FAIL_AUTH
                                                     : FAIL_UNREACHABLE;
      session_fail(s, k, "%s", err->message);
    }
    return;
  }
  const char *version;
  switch (era_classify(result, err, &version)) {
  case PROBE_MODERN: accept_discover(s, result, version); return;
  case PROBE_RETRY:
    if (!s->probe_retried) {
      s->probe_retried = true;
      send_probe(s, version);
      return;
    }
    break;
  case PROBE_LEGACY: break;
  }
  char *text = err ? rpc_error_text(err->message, err->code)
                   : xstrdup("a result that is not a DiscoverResult");
  if (pinned) {
    session_fail(s, FAIL_PROTOCOL,
                 "server does not speak protocol %s (\"protocol\": "
                 "\"modern\"): server/discover got %s",
                 mcp_protocol_modern_latest(), text);
  } else {
    legacy(s, text);
  }
  free(text);
}

static void on_probe_timer(void *ud) {
  session *s = ud;
  s->probe_timer = NULL;
  if (s->probe_id > 0) {
    /* Failed here rather than by the engine's deadline, which would send
     * notifications/cancelled to a server that is not initialized yet;
     * a late answer is dropped as an unknown id. */
    rpc_fail(s->rpc, s->probe_id, RPC_ERR_TIMEOUT, "server/discover timed out");
  }
}

static void send_probe(session *s, const char *version) {
  s->era = ERA_MODERN; /* for the envelope */
  free(s->protocol_version);
  s->protocol_version = xstrdup(version);
  bool pinned = policy_of(s) == ERA_POLICY_MODERN;
  /* Only a stdio server's silence is era evidence (a legacy server that
   * ignores what comes before initialize); elsewhere it is a failure. */
  bool stdio = strcmp(session_type(s), "stdio") == 0;
  rpc_request_opts o = {
      .ud = s, .timeout_ms = pinned || !stdio ? session_connect_left_ms(s) : 0};
  int64_t id = rpc_request(s->rpc, "server/discover", era_add_meta(s, NULL), &o,
                           on_probe);
  if (id < 0) {
    if (s->transport_closed) {
      session_fail(s, FAIL_UNREACHABLE, "%s", s->close_reason);
    }
    return; /* as for initialize: on_close follows with the reason */
  }
  s->probe_id = id;
  if (!pinned && stdio) {
    /* At most half the connect deadline: initialize gets the rest. */
    uint64_t t = ERA_PROBE_TIMEOUT_MS;
    if (s->connect_timeout_ms && s->connect_timeout_ms / 2 < t) {
      t = s->connect_timeout_ms / 2 ? s->connect_timeout_ms / 2 : 1;
    }
    s->probe_timer = loop_timer_start(s->h->loop, t, on_probe_timer, s);
  }
}

void era_start(session *s) {
  era_policy pol = policy_of(s);
  s->probe_retried = false;
  s->era_from_cache = false;
  if (pol == ERA_POLICY_LEGACY || s->probe_respawned ||
      (pol == ERA_POLICY_AUTO && !probe_in_place(s))) {
    s->era = ERA_LEGACY;
    session_send_initialize(s);
    return;
  }
  if (pol == ERA_POLICY_MODERN && !probe_in_place(s)) {
    session_fail(s, FAIL_CONFIG,
                 "%s: server \"%s\": \"protocol\": \"modern\" is not "
                 "available over the %s transport",
                 s->cfg->source, s->cfg->name, session_type(s));
    return;
  }
  free(s->roots_quiet);
  s->roots_quiet = NULL;
  if (pol == ERA_POLICY_AUTO &&
      era_cache_get(s->h, s->cfg, NULL, &s->roots_quiet) == ERA_LEGACY) {
    host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
             "the initialize era, as found before: no probe");
    s->era = ERA_LEGACY;
    s->era_from_cache = true;
    session_send_initialize(s);
    return;
  }
  send_probe(s, mcp_protocol_modern_latest());
}

static void on_respawn(void *ud) {
  session *s = ud;
  s->respawn_timer = NULL;
  if (s->state != SESS_CONNECTING) {
    return;
  }
  session_respawn(s);
}

bool era_transport_lost(session *s) {
  if (s->probe_id <= 0 || s->probe_respawned ||
      policy_of(s) == ERA_POLICY_MODERN ||
      strcmp(session_type(s), "stdio") != 0 || s->state != SESS_CONNECTING) {
    return false;
  }
  host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
           "the server exited on server/discover (%s); starting it once "
           "more for initialize",
           s->close_reason ? s->close_reason : "closed");
  s->probe_respawned = true;
  /* Replaced from a timer: never destroyed inside its own callback. */
  s->respawn_timer = loop_timer_start(s->h->loop, 0, on_respawn, s);
  rpc_fail(s->rpc, s->probe_id, RPC_ERR_CLOSED, "server exited");
  return s->respawn_timer != NULL;
}

bool era_initialize_refused(session *s, const rpc_error *err) {
  const char *version;
  if (policy_of(s) != ERA_POLICY_AUTO || !err ||
      era_classify(NULL, err, &version) != PROBE_RETRY || s->probe_retried) {
    return false;
  }
  host_log(s->h, MCPH_LOG_INFO, s->cfg->name,
           "initialize refused for protocol %s: server/discover instead",
           version);
  era_cache_put(s->h, s->cfg, ERA_UNKNOWN, NULL, NULL);
  s->era_from_cache = false;
  s->probe_retried = true;
  send_probe(s, version);
  return true;
}

void era_legacy_ready(session *s) {
  if (policy_of(s) == ERA_POLICY_AUTO && !s->era_from_cache &&
      probe_in_place(s)) {
    if (s->roots_hold) {
      s->era_unsaved = true; /* with the roots verdict (era_roots_quiet) */
      return;
    }
    era_cache_put(s->h, s->cfg, ERA_LEGACY, s->protocol_version,
                  s->roots_quiet);
  }
}

void era_roots_quiet(session *s, const char *who) {
  s->era_unsaved = false;
  if (policy_of(s) != ERA_POLICY_AUTO || !probe_in_place(s) ||
      s->era != ERA_LEGACY) {
    return; /* no verdict is kept to keep it beside */
  }
  char *keep = who ? xstrdup(who) : NULL;
  free(s->roots_quiet);
  s->roots_quiet = keep;
  era_cache_put(s->h, s->cfg, ERA_LEGACY, s->protocol_version, keep);
}

/* ---- subscriptions/listen ---- */

typedef struct listen_op {
  session *s;
  int64_t id;
} listen_op;

/* The wait before listening again, and how long a stream must have
 * lasted for the wait to start over. */
#define LISTEN_DELAY_MS 1000u
#define LISTEN_DELAY_MAX_MS 30000u
#define LISTEN_LASTED_MS 30000u

static void on_listen_timer(void *ud) {
  session *s = ud;
  s->listen_timer = NULL;
  era_listen(s);
}

static void on_listen_end(void *ud, cJSON *result, const rpc_error *err,
                          bool *take) {
  (void)result;
  (void)take;
  listen_op *op = ud;
  session *s = op->s;
  bool ours = op->id == s->listen_id;
  free(op);
  if (!ours) {
    return; /* one we ended ourselves */
  }
  s->listen_id = 0;
  if (s->state != SESS_READY || s->era != ERA_MODERN || s->listen_timer) {
    return;
  }
  /* Ended by the server, or the stream was lost: listen again, later
   * each time while the streams keep ending at once. */
  bool lasted = loop_now_ms() - s->listen_since >= LISTEN_LASTED_MS;
  if (lasted || s->listen_delay_ms == 0) {
    s->listen_delay_ms = LISTEN_DELAY_MS;
  } else if (s->listen_delay_ms < LISTEN_DELAY_MAX_MS) {
    s->listen_delay_ms = s->listen_delay_ms * 2 > LISTEN_DELAY_MAX_MS
                             ? LISTEN_DELAY_MAX_MS
                             : s->listen_delay_ms * 2;
  }
  host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
           "the subscriptions/listen stream ended (%s); listening again in "
           "%u s",
           err ? err->message : "by the server", s->listen_delay_ms / 1000);
  s->listen_timer =
      loop_timer_start(s->h->loop, s->listen_delay_ms, on_listen_timer, s);
}

static bool cap_flag(const session *s, const char *cap, const char *flag) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(s->server_caps, cap);
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, flag));
}

/* The experimental capabilities both sides declared, as {"name": {}}, or
 * NULL: their notifications (claude/channel's, say) can only come on a
 * listen stream, so the filter asks for them under the capability's own
 * path (notifications.experimental). A server that does not know the key
 * ignores it (the TS SDK v2 drops unknown filter keys). */
static cJSON *shared_experimental(session *s) {
  const cJSON *theirs = cJSON_GetObjectItemCaseSensitive(
      s->server_caps, "experimental");
  if (!cJSON_IsObject(theirs) || !theirs->child) {
    return NULL;
  }
  cJSON *caps = session_client_capabilities(s);
  const cJSON *ours = cJSON_GetObjectItemCaseSensitive(caps, "experimental");
  cJSON *both = NULL;
  const cJSON *c;
  cJSON_ArrayForEach(c, ours) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(theirs, c->string);
    if (cJSON_IsObject(t) || cJSON_IsTrue(t)) {
      if (!both) {
        both = cJSON_CreateObject();
      }
      cJSON_AddItemToObject(both, c->string, cJSON_CreateObject());
    }
  }
  cJSON_Delete(caps);
  return both;
}

void era_listen(session *s) {
  if (s->era != ERA_MODERN || s->state != SESS_READY) {
    return;
  }
  if (s->listen_id > 0) {
    int64_t old = s->listen_id;
    s->listen_id = 0;
    rpc_cancel(s->rpc, old, "the subscriptions changed");
  }
  cJSON *params = cJSON_CreateObject();
  cJSON *n = cJSON_AddObjectToObject(params, "notifications");
  if (cap_flag(s, "tools", "listChanged")) {
    cJSON_AddBoolToObject(n, "toolsListChanged", true);
  }
  if (cap_flag(s, "prompts", "listChanged")) {
    cJSON_AddBoolToObject(n, "promptsListChanged", true);
  }
  if (cap_flag(s, "resources", "listChanged")) {
    cJSON_AddBoolToObject(n, "resourcesListChanged", true);
  }
  if (s->listen_uris && cJSON_GetArraySize(s->listen_uris) > 0) {
    cJSON_AddItemToObject(n, "resourceSubscriptions",
                          cJSON_Duplicate(s->listen_uris, 1));
  }
  cJSON *exp = shared_experimental(s);
  if (exp) {
    cJSON_AddItemToObject(n, "experimental", exp);
  }
  if (!n->child) {
    cJSON_Delete(params);
    return; /* nothing to hear of */
  }
  listen_op *op = xmalloc(sizeof *op);
  *op = (listen_op){.s = s, .id = 0};
  rpc_request_opts o = {.ud = op}; /* no deadline: it lasts */
  int64_t id = rpc_request(s->rpc, "subscriptions/listen",
                           era_add_meta(s, params), &o, on_listen_end);
  if (id < 0) {
    free(op);
    return;
  }
  op->id = id;
  s->listen_id = id;
  s->listen_since = loop_now_ms();
}

void era_subscribe(session *s, const char *uri, bool on) {
  if (!s->listen_uris) {
    s->listen_uris = cJSON_CreateArray();
  }
  int i = 0;
  const cJSON *u;
  cJSON_ArrayForEach(u, s->listen_uris) {
    if (cJSON_IsString(u) && strcmp(u->valuestring, uri) == 0) {
      break;
    }
    i++;
  }
  if (on && !u) {
    cJSON_AddItemToArray(s->listen_uris, cJSON_CreateString(uri));
  } else if (!on && u) {
    cJSON_DeleteItemFromArray(s->listen_uris, i);
  } else {
    return;
  }
  era_listen(s);
}

void era_reset(session *s) {
  if (s->listen_timer) {
    loop_timer_cancel(s->h->loop, s->listen_timer);
    s->listen_timer = NULL;
  }
  s->listen_id = 0;
  if (s->probe_timer) {
    loop_timer_cancel(s->h->loop, s->probe_timer);
    s->probe_timer = NULL;
  }
  if (s->respawn_timer) {
    loop_timer_cancel(s->h->loop, s->respawn_timer);
    s->respawn_timer = NULL;
  }
  s->probe_id = 0;
}
