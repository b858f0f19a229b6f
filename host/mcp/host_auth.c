#include "mcp/host_auth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/host.h"
#include "util.h"
#include "mcp/protocol.h"
#include "mcp/session.h" /* session_auth_settled */
#include "mcp/session_access.h"

/* A connection with a created transport, and the provider that gave its
 * Authorization value (NULL: none did). */
typedef struct auth_conn {
  session *s;
  plugin *provider;
  struct auth_conn *next;
} auth_conn;

static auth_conn **head(host *h) {
  return (auth_conn **)&h->auth;
}

static const mcph_auth_provider *provider_of(plugin *p) {
  const mcph_auth_provider *a = plugin_extension(p, MCPH_EXT_AUTH);
  return a && MCPH_HAS(a, mcph_auth_provider, challenge) && a->authorization
             ? a
             : NULL;
}

/* Whether the session's transport takes an Authorization value. */
static bool takes_authorization(const session *s) {
  const mcph_transport_factory *tf = session_transport_factory(s);
  return MCPH_HAS(tf, mcph_transport_factory, set_authorization) &&
         tf->set_authorization;
}

static int set_on(session *s, const char *value, mcph_error *err) {
  if (!takes_authorization(s)) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "the %s transport of server \"%s\" takes no "
                          "Authorization value",
                          session_config(s)->type, session_name(s));
  }
  int rc = session_transport_factory(s)->set_authorization(
      session_transport(s), value);
  if (rc != MCPH_OK) {
    return mcph_error_set(err, rc,
                          "server \"%s\": the Authorization value was "
                          "refused (%s)",
                          session_name(s), mcph_status_name(rc));
  }
  return MCPH_OK;
}

bool host_auth_attach(session *s, char *why, size_t why_len) {
  host *h = session_host(s);
  auth_conn *c = xcalloc(1, sizeof *c);
  c->s = s;
  c->next = *head(h);
  *head(h) = c;
  if (!takes_authorization(s)) {
    return true; /* stdio and older transports: nothing to ask for */
  }
  char *cfg_text = NULL;
  for (size_t i = 0; i < h->reg.nplugins; i++) {
    plugin *p = h->reg.plugins[i];
    const mcph_auth_provider *a = provider_of(p);
    if (!a) {
      continue;
    }
    if (!cfg_text) {
      cfg_text = cJSON_PrintUnformatted(session_config(s)->json);
    }
    const char *value =
        a->authorization(p->ctx, session_name(s), cfg_text ? cfg_text : "{}");
    if (!value) {
      continue;
    }
    mcph_error err;
    mcph_error_init(&err);
    if (set_on(s, value, &err) != MCPH_OK) {
      host_log(h, MCPH_LOG_WARN, p->id, "%s", err.message);
      continue;
    }
    c->provider = p;
    host_log(h, MCPH_LOG_DEBUG, session_name(s),
             "Authorization from the auth provider %s", p->id);
    break;
  }
  bool go = true;
  for (size_t i = 0; !c->provider && go && i < h->reg.nplugins; i++) {
    plugin *p = h->reg.plugins[i];
    const mcph_auth_provider *a = provider_of(p);
    if (!a || !MCPH_HAS(a, mcph_auth_provider, needs_auth) || !a->needs_auth) {
      continue;
    }
    const char *reason =
        a->needs_auth(p->ctx, session_name(s), cfg_text ? cfg_text : "{}");
    if (reason) {
      snprintf(why, why_len, "%s", reason);
      go = false;
    }
  }
  cJSON_free(cfg_text);
  return go;
}

void host_auth_detach(session *s) {
  for (auth_conn **pp = head(session_host(s)); *pp; pp = &(*pp)->next) {
    if ((*pp)->s == s) {
      auth_conn *c = *pp;
      *pp = c->next;
      free(c);
      return;
    }
  }
}

static auth_conn *find(host *h, const session *s) {
  for (auth_conn *c = *head(h); c; c = c->next) {
    if (c->s == s) {
      return c;
    }
  }
  return NULL;
}

bool host_auth_challenge(session *s, const mcph_auth_challenge *in) {
  host *h = session_host(s);
  auth_conn *c = find(h, s);
  /* The transport's challenge, whatever size it was built with, and the
   * session's protocol version (auth providers send it on discovery). */
  mcph_auth_challenge full = {0};
  memcpy(&full, in,
         in->struct_size < sizeof full ? in->struct_size : sizeof full);
  full.struct_size = sizeof full;
  const char *version = session_protocol_version(s);
  full.protocol_version = version ? version : mcp_protocol_latest();
  const mcph_auth_challenge *ch = &full;
  /* The provider that gave the value hears it; when none did, each
   * provider in search order until one takes it up (a claude.ai
   * connector's provider declines an OAuth server's 401, and so on). */
  for (size_t i = 0; i < h->reg.nplugins; i++) {
    plugin *p = c && c->provider ? c->provider : h->reg.plugins[i];
    const mcph_auth_provider *a = provider_of(p);
    if (a && a->challenge &&
        a->challenge(p->ctx, session_name(s), ch) == MCPH_OK) {
      if (c)
        c->provider = p;
      host_log(h, MCPH_LOG_DEBUG, session_name(s),
               "the auth provider %s takes up the HTTP %d", p->id, ch->status);
      return true;
    }
    if (c && c->provider)
      break;
  }
  return false;
}

static int svc_set_authorization(const mcph_host *api, const char *server,
                                 const char *value, mcph_error *err) {
  host *h = host_from_api(api);
  plugin *caller = host_caller(api);
  /* Credentials are the auth providers' business, and a server's are
   * its own provider's. */
  if (!caller || !provider_of(caller)) {
    return mcph_error_set(err, MCPH_EDENIED,
                          "%s is not an auth provider (mcph.auth/1)",
                          caller ? caller->id : "the host");
  }
  for (auth_conn *c = *head(h); server && c; c = c->next) {
    if (strcmp(session_name(c->s), server) == 0 && session_transport(c->s)) {
      if (c->provider && c->provider != caller) {
        return mcph_error_set(err, MCPH_EDENIED,
                              "server \"%s\" has its Authorization from %s",
                              server, c->provider->id);
      }
      int rc = set_on(c->s, value, err);
      session_auth_settled(c->s, value && rc == MCPH_OK);
      return rc;
    }
  }
  return mcph_error_set(err, MCPH_ENOTFOUND, "server \"%s\" has no connection",
                        server ? server : "(null)");
}

const mcph_host_auth *host_auth_service(void) {
  static const mcph_host_auth svc = {
      .struct_size = sizeof svc,
      .set_authorization = svc_set_authorization,
  };
  return &svc;
}

void host_auth_free(host *h) {
  while (*head(h)) {
    auth_conn *c = *head(h);
    *head(h) = c->next;
    free(c);
  }
}
