/*
 * Transport types "ws-ide" and "sse-ide": an IDE's MCP server on this
 * machine, reached over the "ws" or "sse" transport of whichever plugin
 * serves that type (mcph.host.transports/1; no code of theirs is linked
 * here).
 *
 * Life of one transport: create() checks the entry ({"url", "authToken",
 * "ideName", "ideRunningInWindows"}), builds the inner entry {"url",
 * "headers": {"X-Claude-Code-Ide-Authorization": token}, "noProxy":
 * true} (no header without a token; no proxy of the environment) and creates
 * the inner transport; every other call is passed to the inner transport, and
 * every event it reports is passed to the host (common/mcph_pass.h),
 * except on_auth_required: an IDE has no OAuth, so a refused token ends as the
 * failure the inner transport reports next, never as an authorization flow.
 *
 * Only 127.0.0.1 is accepted: a lockfile (or an entry) naming another
 * address would send the token elsewhere.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "sock_owner.h"
#include <mcphost/helpers/pass.h>

#include "ide.h"
#include "ide_util.h"

#define IDE_AUTH_HEADER "X-Claude-Code-Ide-Authorization"

struct mcph_transport {
  ide_plugin *pl;
  mcph_transport *next; /* in pl->live */
  char *server;
  mcph_pass pass; /* the inner transport and the host's events */
};

bool ide_transport_serves(const ide_plugin *pl, const char *server) {
  for (const mcph_transport *t = pl->live; t; t = t->next) {
    if (server && strcmp(t->server, server) == 0) {
      return true;
    }
  }
  return false;
}

/* ---- events from the inner transport ---- */

/* Every event is passed up as it came (mcph_pass.h) but this one. */
static void ev_auth_required(void *ud, const mcph_auth_challenge *ch) {
  mcph_transport *t = ((mcph_pass *)ud)->owner;
  mcph_logf(t->pl->host, MCPH_LOG_WARN, t->server,
            "the IDE refused the connection (HTTP %d): its lockfile's "
            "authToken does not match, or the IDE wants one",
            ch ? ch->status : 0);
}

/* ---- the entry ---- */

/* `url` is SCHEME://127.0.0.1:PORT with an optional path of printable
 * characters; *port_out is PORT. */
static bool local_url(const char *url, const char *scheme, unsigned *port_out) {
  size_t n = strlen(scheme);
  if (strncmp(url, scheme, n) != 0 || strncmp(url + n, "://127.0.0.1:", 13)) {
    return false;
  }
  const char *p = url + n + 13;
  long port = 0;
  size_t digits = 0;
  while (*p >= '0' && *p <= '9' && digits < 6) {
    port = port * 10 + (*p++ - '0');
    digits++;
  }
  if (digits == 0 || port < 1 || port > 65535 || (*p && *p != '/')) {
    return false;
  }
  for (; *p; p++) {
    if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f || *p == '@') {
      return false;
    }
  }
  *port_out = (unsigned)port;
  return true;
}

/* The token goes only to a port the user's own process listens on: after
 * a crash and a reboot the lockfile's port may be another user's, who
 * would receive the token and play the IDE. Returns true, or false with
 * err set. */
static bool listener_is_ours(unsigned port, mcph_error *err) {
  uid_t uid = (uid_t)-1;
  char why[160] = "";
  int n = sock_owner_listener(port, geteuid(), &uid, why, sizeof why);
  if (n < 0) {
    mcph_error_set(err, MCPH_EDENIED,
                   "not sending the IDE's token to 127.0.0.1:%u: cannot "
                   "tell who listens there (%s)",
                   port, why);
    return false;
  }
  if (n > 0 && uid != geteuid()) {
    mcph_error_set(err, MCPH_EDENIED,
                   "not sending the IDE's token to 127.0.0.1:%u: that port "
                   "is another user's (uid %u), not your IDE's",
                   port, (unsigned)uid);
    return false;
  }
  return true;
}

/* The inner transport's entry, or NULL with err set. */
static char *inner_entry(const char *config_json, bool ws, mcph_error *err) {
  const char *type = ws ? "ws-ide" : "sse-ide";
  const char *scheme = ws ? "ws" : "http";
  cJSON *cfg = cJSON_Parse(config_json ? config_json : "");
  char *text = NULL;
  if (!cJSON_IsObject(cfg)) {
    mcph_error_set(err, MCPH_EINVAL, "the %s entry is not a JSON object", type);
    goto out;
  }
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cfg, "url"));
  unsigned port = 0;
  if (!url || !local_url(url, scheme, &port)) {
    mcph_error_set(err, MCPH_EINVAL,
                   "field \"url\" must be %s://127.0.0.1:PORT[/PATH]: an "
                   "IDE connection is to this machine only",
                   scheme);
    goto out;
  }
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(cfg, "authToken");
  if (tok && !cJSON_IsNull(tok) &&
      (!cJSON_IsString(tok) || tok->valuestring[0] == '\0' ||
       strpbrk(tok->valuestring, "\r\n") != NULL)) {
    mcph_error_set(err, MCPH_EINVAL,
                   "field \"authToken\" must be a non-empty string of one "
                   "line");
    goto out;
  }
  if (cJSON_GetObjectItemCaseSensitive(cfg, "headers")) {
    mcph_error_set(err, MCPH_EINVAL,
                   "field \"headers\" is not taken by %s: the IDE gets only "
                   "its authToken",
                   type);
    goto out;
  }
  if (cJSON_IsString(tok) && !listener_is_ours(port, err)) {
    goto out;
  }
  cJSON *inner = cJSON_CreateObject();
  cJSON_AddStringToObject(inner, "url", url);
  /* The token is for the IDE on 127.0.0.1: never for a proxy. */
  cJSON_AddBoolToObject(inner, "noProxy", 1);
  if (cJSON_IsString(tok)) {
    cJSON *h = cJSON_AddObjectToObject(inner, "headers");
    cJSON_AddStringToObject(h, IDE_AUTH_HEADER, tok->valuestring);
  }
  text = cJSON_PrintUnformatted(inner);
  cJSON_Delete(inner);
  if (!text) {
    abort();
  }
out:
  cJSON_Delete(cfg);
  return text;
}

static int t_create(void *ctx, const mcph_transport_params *params,
                    mcph_transport **out, mcph_error *err) {
  ide_plugin *pl = ctx;
  bool ws = params->type && strcmp(params->type, "ws-ide") == 0;
  const char *under = ws ? "ws" : "sse";
  if (!pl->transports) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "this host cannot compose transports "
                          "(" MCPH_SERVICE_TRANSPORTS ")");
  }
  char *entry = inner_entry(params->config_json, ws, err);
  if (!entry) {
    return err->code ? err->code : MCPH_EINVAL;
  }
  mcph_transport *t = xcalloc(1, sizeof *t);
  t->pl = pl;
  t->server = xstrdup(params->server_name);
  mcph_pass_init(&t->pass, params->events, t);
  t->pass.down.on_auth_required = ev_auth_required;
  mcph_error ie;
  mcph_error_init(&ie);
  int rc = mcph_pass_create(&t->pass, pl->transports, pl->host, under,
                       params->server_name, entry, &ie);
  free(entry);
  if (rc != MCPH_OK) {
    if (rc == MCPH_ENOTFOUND) {
      mcph_error_set(err, MCPH_ENOTFOUND,
                     "type %s needs the \"%s\" transport, which no plugin "
                     "here serves (%s)",
                     params->type, under, ie.message);
    } else {
      mcph_error_set(err, rc, "%s", ie.message);
    }
    free(t->server);
    free(t);
    return rc;
  }
  t->next = pl->live;
  pl->live = t;
  *out = t;
  return MCPH_OK;
}

static int t_start(mcph_transport *t, mcph_error *err) {
  return mcph_pass_start(&t->pass, err);
}

static int t_send(mcph_transport *t, const char *json, size_t len,
                  mcph_error *err) {
  return mcph_pass_send(&t->pass, json, len, err);
}

static void t_close(mcph_transport *t) {
  mcph_pass_close(&t->pass);
}

static void t_destroy(mcph_transport *t) {
  mcph_pass_destroy(&t->pass);
  for (mcph_transport **pp = &t->pl->live; *pp; pp = &(*pp)->next) {
    if (*pp == t) {
      *pp = t->next;
      break;
    }
  }
  free(t->server);
  free(t);
}

static const char *t_session_id(mcph_transport *t) {
  return mcph_pass_session_id(&t->pass);
}

static void t_set_protocol_version(mcph_transport *t, const char *version) {
  mcph_pass_set_protocol_version(&t->pass, version);
}

static const char *const types[] = {PLUGIN_TYPES, NULL};

static const mcph_transport_type_info type_info[] = {
    PLUGIN_TYPE_INFO,
    {sizeof(mcph_transport_type_info), NULL, 0},
};

const mcph_transport_factory ide_transport_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = types,
    .create = t_create,
    .start = t_start,
    .send = t_send,
    .close = t_close,
    .destroy = t_destroy,
    .session_id = t_session_id,
    .set_protocol_version = t_set_protocol_version,
    .set_authorization = NULL, /* no OAuth for an IDE */
    .type_info = type_info,
};
