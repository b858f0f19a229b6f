/* The "mcph.host.servers/1" service (command.h): plugins start and keep
 * the client's connections, ask their state and read the managed
 * policy; a plugin command says it finished. */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "mcp/client_internal.h"

static mcp_client *C(const mcph_host *api) {
  return host_from_api(api)->client;
}

static size_t svc_count(const mcph_host *api) {
  return C(api)->h->cfg.nservers;
}

/* Strings returned follow the one rule of abi.h: copies, valid until
 * control returns to the loop, so a reload within the same turn cannot
 * pull them away. */
static const char *returned(const mcph_host *api, const char *s) {
  return s ? host_returned(host_from_api(api), xstrdup(s)) : NULL;
}

static const char *svc_name(const mcph_host *api, size_t i) {
  const config *cfg = &C(api)->h->cfg;
  return i < cfg->nservers ? returned(api, cfg->servers[i].name) : NULL;
}

/* The index of the configured entry named exactly `name`; -1 when none
 * (plugins name servers as configured, never in the mcp__ form). */
static long find_exact(const mcp_client *mc, const char *name) {
  const server_config *sc = name ? config_find(&mc->h->cfg, name) : NULL;
  return sc ? (long)(sc - mc->h->cfg.servers) : -1;
}

static int svc_connect(const mcph_host *api, const char *name, unsigned flags,
                       mcph_error *err) {
  mcp_client *mc = C(api);
  if (mc->shut) {
    return mcph_error_set(err, MCPH_ECLOSED, "the host is shutting down");
  }
  long i = find_exact(mc, name);
  if (i < 0) {
    return mcph_error_set(err, MCPH_ENOTFOUND,
                          "no server named \"%s\" is configured",
                          name ? name : "");
  }
  const server_config *sc = &mc->h->cfg.servers[i];
  if (sc->state != SERVER_ACTIVE) {
    return mcph_error_set(err, MCPH_EDENIED, "server \"%s\" is %s: %s",
                          sc->name, server_state_name(sc),
                          sc->reason ? sc->reason : "not allowed to start");
  }
  session *s = mcp_client_session(mc, (size_t)i);
  if (flags & MCPH_CONNECT_KEEP) {
    s->auto_reconnect = true;
  }
  if (s->state == SESS_IDLE) {
    mcp_client_queue_connect(mc, (size_t)i);
  } else if ((s->state == SESS_FAILED || s->state == SESS_CLOSED) &&
             !session_will_reconnect(s)) {
    session_restart(s);
  }
  return MCPH_OK;
}

static const char *svc_state(const mcph_host *api, const char *name,
                             const char **why) {
  mcp_client *mc = C(api);
  long i = find_exact(mc, name);
  if (why) {
    *why = NULL;
  }
  if (i < 0) {
    return NULL;
  }
  const server_config *sc = &mc->h->cfg.servers[i];
  if (sc->state != SERVER_ACTIVE) {
    if (why) {
      *why = returned(api, sc->reason);
    }
    return server_state_name(sc);
  }
  session *s = mcp_client_peek(mc, (size_t)i);
  if (!s || s->state == SESS_IDLE) {
    return "not connected";
  }
  if (why) {
    *why = returned(api, s->error);
  }
  return session_state_name(s);
}

static const char *svc_policy(const mcph_host *api, const char *key) {
  mcp_client *mc = C(api);
  const cJSON *v =
      key ? cJSON_GetObjectItemCaseSensitive(mc->h->cfg.managed, key) : NULL;
  if (!v) {
    return NULL;
  }
  char *text = cJSON_PrintUnformatted(v);
  return text ? host_returned(mc->h, text) : NULL;
}

/* Scoped to the plugin (ABI 1.6 tables): only the plugin whose command
 * `run` is may end it, and only once; anything else is logged and
 * ignored, so one plugin's finish never ends another's work. */
static void svc_finish(const mcph_host *api, mcph_run *run, int exit_code) {
  const plugin *caller = host_caller(api);
  host *h = host_from_api(api);
  if (!run) {
    host_log(h, MCPH_LOG_WARN, caller ? caller->id : NULL,
             "finish() without a run; ignored");
    return;
  }
  if (caller && run->owner && caller != run->owner) {
    host_log(h, MCPH_LOG_WARN, caller->id,
             "finish() of a command of plugin %s, not its own; ignored",
             run->owner->id ? run->owner->id : "?");
    return;
  }
  if (run->done) {
    host_log(h, MCPH_LOG_WARN, caller ? caller->id : NULL,
             "finish() of a command that has already finished; ignored");
    return;
  }
  run->done = true;
  run->rc = exit_code;
  if (run->on_finish) {
    run->on_finish(run->ud);
  }
}

static const mcph_host_servers servers_service = {
    .struct_size = sizeof servers_service,
    .count = svc_count,
    .name = svc_name,
    .connect = svc_connect,
    .state = svc_state,
    .policy = svc_policy,
    .finish = svc_finish,
};

void mcp_client_offer_servers_service(mcp_client *mc) {
  mc->h->client = mc;
  mc->h->servers_service = &servers_service;
}
