#include "proxy.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"
#include "plugin_info.h"
#include <mcphost/helpers/pass.h>

/* How many sent messages are remembered with their token: far more than
 * are ever in flight on one connection. An older one that gets a 401 is
 * taken to have carried the current token (so it is never retried twice). */
#define SENT_MAX 64

typedef struct sent {
  uint64_t hash; /* FNV-1a of the message: no copy of its text is kept */
  size_t len;
  char *auth; /* the Authorization it went out with, or NULL */
  bool retry; /* it was the one retry of its message */
} sent;

/* A message to send once more, from a timer (never from inside the http
 * transport's own callback), with the 401 to report if that fails. */
typedef struct resend {
  char *json;
  size_t len;
  char *message;
  struct resend *next;
} resend;

/* A 401's challenge held back until it is known whether the message is
 * retried (then the host never hears of it). */
typedef struct held {
  bool set;
  int status;
  char *f[8]; /* url, www_authenticate, scheme, realm, scope, error,
                 error_description, resource_metadata */
} held;

struct mcph_transport {
  const proxy_shared *sh; /* the plugin's */
  mcph_pass pass;    /* the http transport and the host's events */
  char *server;
  char *auth; /* the Authorization set on the inner transport, or NULL */
  sent sent[SENT_MAX];
  size_t next_sent;
  held held;
  mcph_timer *held_timer;
  resend *resends;
  mcph_timer *resend_timer;
  bool closed;
};

static bool same(const char *a, const char *b) {
  return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* Sets `value` (NULL: none) on the inner transport when it is not what
 * it has. */
static int use_auth(mcph_transport *t, const char *value) {
  if (same(value, t->auth)) {
    return MCPH_OK;
  }
  const mcph_transport_factory *f = t->pass.f;
  int rc = f->set_authorization ? f->set_authorization(t->pass.inner, value)
                                : MCPH_ENOTSUP;
  if (rc == MCPH_OK) {
    creds_wipe_free(t->auth);
    t->auth = value ? strdup(value) : NULL;
  }
  return rc;
}

static void remember(mcph_transport *t, const char *json, size_t len,
                     bool retry) {
  sent *s = &t->sent[t->next_sent];
  t->next_sent = (t->next_sent + 1) % SENT_MAX;
  creds_wipe_free(s->auth);
  s->hash = fnv1a64(json, len);
  s->len = len;
  s->auth = t->auth ? strdup(t->auth) : NULL;
  s->retry = retry;
}

/* The latest record of this message, or NULL. */
static sent *find_sent(mcph_transport *t, const char *json, size_t len) {
  uint64_t h = fnv1a64(json, len);
  for (size_t k = 1; k <= SENT_MAX; k++) {
    sent *s = &t->sent[(t->next_sent + SENT_MAX - k) % SENT_MAX];
    if (s->len == len && s->hash == h && s->len) {
      return s;
    }
  }
  return NULL;
}

static void held_clear(held *h) {
  for (size_t i = 0; i < 8; i++) {
    free(h->f[i]);
    h->f[i] = NULL;
  }
  h->set = false;
}

static void held_forward(mcph_transport *t) {
  if (!t->held.set) {
    return;
  }
  held *h = &t->held;
  mcph_auth_challenge ch = {.struct_size = sizeof ch,
                            .status = h->status,
                            .url = h->f[0],
                            .www_authenticate = h->f[1],
                            .scheme = h->f[2],
                            .realm = h->f[3],
                            .scope = h->f[4],
                            .error = h->f[5],
                            .error_description = h->f[6],
                            .resource_metadata = h->f[7]};
  mcph_pass_up_auth_required(&t->pass, &ch);
  held_clear(h);
}

/* A 401 of the event stream alone has no message behind it: it goes up
 * once the http transport's callbacks of this turn are over. */
static void on_held_timer(void *ud) {
  mcph_transport *t = ud;
  t->held_timer = NULL;
  held_forward(t);
}

static void on_auth_required(void *ud, const mcph_auth_challenge *ch) {
  mcph_transport *t = ((mcph_pass *)ud)->owner;
  if (t->closed) {
    return;
  }
  held_forward(t); /* an earlier one not taken up by a message */
  held *h = &t->held;
  const char *v[8] = {ch->url,
                      ch->www_authenticate,
                      ch->scheme,
                      ch->realm,
                      ch->scope,
                      ch->error,
                      ch->error_description,
                      ch->resource_metadata};
  h->status = ch->status;
  for (size_t i = 0; i < 8; i++) {
    h->f[i] = v[i] ? strdup(v[i]) : NULL;
  }
  h->set = true;
  if (ch->status != 401) {
    held_forward(t); /* 403 is not the token's staleness */
    return;
  }
  if (!t->held_timer &&
      t->sh->host->timer_start(t->sh->host, 0, on_held_timer, t,
                               &t->held_timer) != MCPH_OK) {
    t->held_timer = NULL;
    held_forward(t);
  }
}

static void fail_up(mcph_transport *t, const char *message, const char *json,
                    size_t len) {
  held_forward(t);
  char line[1024];
  snprintf(line, sizeof line,
           "%s; run `claude` to refresh your claude.ai login", message);
  mcph_pass_up_send_failed(&t->pass, MCPH_EAUTH, line, json, len);
}

static void on_resend_timer(void *ud) {
  mcph_transport *t = ud;
  t->resend_timer = NULL;
  while (t->resends && !t->closed) {
    resend *r = t->resends;
    t->resends = r->next;
    remember(t, r->json, r->len, true);
    mcph_error err;
    mcph_error_init(&err);
    if (mcph_pass_send(&t->pass, r->json, r->len, &err) != MCPH_OK) {
      fail_up(t, r->message, r->json, r->len); /* the 401 it answers */
    }
    free(r->json);
    free(r->message);
    free(r);
  }
}

/* The 401 rule. True when the message is sent once more. */
static bool retry_401(mcph_transport *t, const char *message, const char *json,
                      size_t len) {
  sent *s = find_sent(t, json, len);
  const char *carried = s ? s->auth : t->auth;
  if (s && s->retry) {
    return false; /* once only */
  }
  creds_refresh(t->sh->creds);
  const char *stored = t->sh->creds->bearer;
  if (!stored || same(stored, carried)) {
    return false;
  }
  if (use_auth(t, stored) != MCPH_OK) {
    return false;
  }
  resend *r = calloc(1, sizeof *r);
  if (!r || !(r->json = malloc(len ? len : 1)) ||
      !(r->message = strdup(message ? message : "HTTP 401"))) {
    if (r) {
      free(r->json);
    }
    free(r);
    return false;
  }
  memcpy(r->json, json, len);
  r->len = len;
  resend **pp = &t->resends;
  while (*pp) {
    pp = &(*pp)->next;
  }
  *pp = r;
  if (!t->resend_timer &&
      t->sh->host->timer_start(t->sh->host, 0, on_resend_timer, t,
                               &t->resend_timer) != MCPH_OK) {
    t->resend_timer = NULL;
    *pp = NULL;
    free(r->json);
    free(r->message);
    free(r);
    return false;
  }
  mcph_logf(t->sh->host, MCPH_LOG_DEBUG, t->server,
            "HTTP 401: the claude.ai token changed on disk; sending once more");
  return true;
}

static void on_send_failed(void *ud, int code, const char *message,
                           const char *json, size_t len) {
  mcph_transport *t = ((mcph_pass *)ud)->owner;
  if (t->closed) {
    return;
  }
  if (code == MCPH_EAUTH && t->held.set && t->held.status == 401) {
    if (retry_401(t, message, json, len)) {
      held_clear(&t->held);
      return;
    }
    fail_up(t, message ? message : "HTTP 401", json, len);
    return;
  }
  held_forward(t);
  mcph_pass_up_send_failed(ud, code, message, json, len);
}

/* The other events pass up as they came (mcph_pass.h). */
static void on_close(void *ud, int code, const char *reason) {
  mcph_transport *t = ((mcph_pass *)ud)->owner;
  held_forward(t);
  t->closed = true;
  mcph_pass_up_close(ud, code, reason);
}

/* The id as one path segment: RFC 3986 unreserved characters kept, every
 * other byte %XX. A new string or NULL. */
static char *segment(const char *id) {
  static const char hex[] = "0123456789ABCDEF";
  size_t n = strlen(id);
  char *out = malloc(3 * n + 1), *o = out;
  for (const unsigned char *p = (const unsigned char *)id; out && *p; p++) {
    bool keep = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
                (*p >= '0' && *p <= '9') || strchr("-._~", *p);
    if (keep) {
      *o++ = (char)*p;
    } else {
      *o++ = '%';
      *o++ = hex[*p >> 4];
      *o++ = hex[*p & 15];
    }
  }
  if (out) {
    *o = '\0';
  }
  return out;
}

static const char *proxy_base(void) {
  const char *b = getenv("MCPHOST_CLAUDEAI_PROXY_URL");
  return b && *b ? b : "https://mcp-proxy.anthropic.com";
}

/* The http transport's configuration: the proxy URL of connector `id`
 * and the run's session header. A new string, or NULL with `err`. */
static char *inner_config(const proxy_shared *g, const char *server,
                          const char *id, mcph_error *err) {
  const char *base = proxy_base();
  if (strncmp(base, "https://", 8) != 0 && strncmp(base, "http://", 7) != 0) {
    mcph_error_set(err, MCPH_EINVAL,
                   "server \"%s\": MCPHOST_CLAUDEAI_PROXY_URL must be an "
                   "http:// or https:// URL",
                   server);
    return NULL;
  }
  size_t blen = strlen(base);
  while (blen && base[blen - 1] == '/') {
    blen--;
  }
  char *seg = segment(id);
  size_t n = blen + (seg ? strlen(seg) : 0) + sizeof "/v1/mcp/";
  char *url = seg ? malloc(n) : NULL;
  cJSON *cfg = cJSON_CreateObject();
  char *text = NULL;
  if (url && cfg) {
    snprintf(url, n, "%.*s/v1/mcp/%s", (int)blen, base, seg);
    cJSON_AddStringToObject(cfg, "url", url);
    cJSON *h = cJSON_AddObjectToObject(cfg, "headers");
    cJSON_AddStringToObject(h, "X-Mcp-Client-Session-Id", g->session_id);
    text = cJSON_PrintUnformatted(cfg);
  }
  if (!text) {
    mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  cJSON_Delete(cfg);
  free(url);
  free(seg);
  return text;
}

static int p_create(void *ctx, const mcph_transport_params *p,
                    mcph_transport **out, mcph_error *err) {
  const proxy_shared *g = proxy_shared_of(ctx);
  const mcph_host_transports *svc =
      g->host->get_service(g->host, MCPH_SERVICE_TRANSPORTS);
  if (!svc) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "server \"%s\": the host cannot create the http "
                          "transport (no %s)",
                          p->server_name, MCPH_SERVICE_TRANSPORTS);
  }
  cJSON *cfg = cJSON_Parse(p->config_json);
  const char *id =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cfg, "id"));
  if (!id || !*id) {
    cJSON_Delete(cfg);
    return mcph_error_set(err, MCPH_EINVAL,
                          "server \"%s\": \"id\" (the claude.ai connector's "
                          "id) must be a non-empty string",
                          p->server_name);
  }
  char *text = inner_config(g, p->server_name, id, err);
  cJSON_Delete(cfg);
  if (!text) {
    return err ? err->code : MCPH_EINVAL;
  }
  mcph_transport *t = calloc(1, sizeof *t);
  if (!t || !(t->server = strdup(p->server_name ? p->server_name : "?"))) {
    free(t);
    cJSON_free(text);
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  t->sh = g;
  mcph_pass_init(&t->pass, p->events, t);
  t->pass.down.on_close = on_close;
  t->pass.down.on_send_failed = on_send_failed;
  t->pass.down.on_auth_required = on_auth_required;
  int rc =
      mcph_pass_create(&t->pass, svc, g->host, "http", p->server_name, text, err);
  cJSON_free(text);
  if (rc == MCPH_OK &&
      (!MCPH_HAS(t->pass.f, mcph_transport_factory, set_authorization) ||
       !t->pass.f->set_authorization)) {
    mcph_pass_destroy(&t->pass);
    rc = mcph_error_set(err, MCPH_ENOTSUP,
                        "server \"%s\": the http transport takes no "
                        "Authorization value",
                        p->server_name);
  }
  if (rc != MCPH_OK) {
    free(t->server);
    free(t);
    return rc;
  }
  *out = t;
  return MCPH_OK;
}

static int p_start(mcph_transport *t, mcph_error *err) {
  return mcph_pass_start(&t->pass, err);
}

static int p_send(mcph_transport *t, const char *json, size_t len,
                  mcph_error *err) {
  /* Per request: the token on disk now (read again only when the file
   * changed; another connection may have read the change first). */
  creds_refresh(t->sh->creds);
  if (t->sh->creds->bearer) {
    use_auth(t, t->sh->creds->bearer);
  }
  remember(t, json, len, false);
  return mcph_pass_send(&t->pass, json, len, err);
}

static void p_close(mcph_transport *t) {
  mcph_pass_close(&t->pass);
}

static void p_destroy(mcph_transport *t) {
  if (t->held_timer) {
    t->sh->host->timer_cancel(t->sh->host, t->held_timer);
  }
  if (t->resend_timer) {
    t->sh->host->timer_cancel(t->sh->host, t->resend_timer);
  }
  mcph_pass_destroy(&t->pass);
  while (t->resends) {
    resend *r = t->resends;
    t->resends = r->next;
    free(r->json);
    free(r->message);
    free(r);
  }
  for (size_t i = 0; i < SENT_MAX; i++) {
    creds_wipe_free(t->sent[i].auth);
  }
  held_clear(&t->held);
  creds_wipe_free(t->auth);
  free(t->server);
  free(t);
}

static const char *p_session_id(mcph_transport *t) {
  return mcph_pass_session_id(&t->pass);
}

static void p_set_protocol_version(mcph_transport *t, const char *version) {
  mcph_pass_set_protocol_version(&t->pass, version);
}

static int p_set_authorization(mcph_transport *t, const char *value) {
  return use_auth(t, value);
}

static const char *const types[] = {"claudeai-proxy", NULL};
static const mcph_transport_type_info type_info[] = {
    PLUGIN_TYPE_INFO, {sizeof(mcph_transport_type_info), NULL, 0}};

const mcph_transport_factory proxy_factory = {
    .struct_size = sizeof proxy_factory,
    .types = types,
    .create = p_create,
    .start = p_start,
    .send = p_send,
    .close = p_close,
    .destroy = p_destroy,
    .session_id = p_session_id,
    .set_protocol_version = p_set_protocol_version,
    .set_authorization = p_set_authorization,
    .type_info = type_info,
};
