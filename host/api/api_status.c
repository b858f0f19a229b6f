/* The client API's servers: status and connecting (client.h): a
 * configured server found by name, each server's health as JSON text
 * (the configuration's verdict and the connection's state, mcp/client.h's
 * mcp_server_status), and a set of servers connected at once through the
 * client's queue (mcp_client_connect). On the loop, through
 * api_run_on_loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "json_write.h"
#include "url_redact.h"
#include "util.h"

/* ---- finding a server ---- */

int api_find_server(mcphost_client *c, const char *name, size_t *idx,
                    mcphost_error *err) {
  long i = mcp_client_find_server(c->mc, name);
  if (i >= 0) {
    *idx = (size_t)i;
    return MCPHOST_OK;
  }
  strbuf hint;
  sb_init(&hint);
  mcp_client_suggest_servers(c->mc, name, &hint);
  api_fail(err, MCPHOST_ENOTFOUND, 0, NULL,
           "no server named \"%s\" is configured%s", name, sb_str(&hint));
  sb_free(&hint);
  return MCPHOST_ENOTFOUND;
}

typedef struct find_job {
  mcphost_client *c;
  const char *name;
  size_t idx;
  mcphost_error *err;
  int rc;
} find_job;

static void find_on_loop(void *ud) {
  find_job *j = ud;
  j->rc = api_find_server(j->c, j->name, &j->idx, j->err);
}

int mcphost_server_find(mcphost_client *c, const char *name, size_t *index,
                        mcphost_error *err) {
  api_clear_error(err);
  if (!c || !name)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_server_find needs a client and a name");
  find_job j = {.c = c, .name = name, .err = err};
  if (api_run_on_loop(c, find_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  if (j.rc == MCPHOST_OK && index)
    *index = j.idx;
  return j.rc;
}

/* ---- status ---- */

static void note_json(void *ud, const char *plugin_id, const char *line) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "plugin", plugin_id);
  cJSON_AddStringToObject(o, "note", line);
  cJSON_AddItemToArray(ud, o);
}

/* Server `idx`'s status (client.h, mcphost_server_status). */
static cJSON *status_json(mcphost_client *c, size_t idx, unsigned flags) {
  const server_config *sc = &host_cfg(c->h)->servers[idx];
  mcp_server_status st;
  mcp_client_status(c->mc, idx, &st);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", sc->name);
  cJSON_AddStringToObject(o, "type", sc->type);
  cJSON_AddStringToObject(o, "scope", config_server_scope(sc));
  cJSON_AddStringToObject(o, "source", sc->source);
  cJSON_AddStringToObject(o, "state", server_state_name(sc));
  if (sc->reason)
    cJSON_AddStringToObject(o, "reason", sc->reason);
  cJSON_AddBoolToObject(o, "startable", sc->state == SERVER_ACTIVE);
  cJSON_AddStringToObject(o, "connection", st.state);
  cJSON_AddStringToObject(o, "transport", st.type ? st.type : sc->type);
  if (!st.ready) {
    if (st.error)
      cJSON_AddStringToObject(o, "error", st.error);
    cJSON_AddNumberToObject(
        o, "code",
        api_status_of_kind(st.failure ? st.failure : MCP_ERR_SERVER));
  } else {
    cJSON_AddNumberToObject(o, "code", MCPHOST_OK);
  }
  if (st.ready) {
    if (st.protocol_version)
      cJSON_AddStringToObject(o, "protocolVersion", st.protocol_version);
    cJSON_AddStringToObject(o, "era", st.era);
    if (st.server_info)
      cJSON_AddItemToObject(o, "serverInfo",
                            cJSON_Duplicate(st.server_info, 1));
  }
  if (st.ready && !(flags & MCPHOST_STATUS_BRIEF)) {
    if (st.capabilities)
      cJSON_AddItemToObject(o, "capabilities",
                            cJSON_Duplicate(st.capabilities, 1));
    if (st.instructions)
      cJSON_AddStringToObject(o, "instructions", st.instructions);
  }
  /* A claude.ai connector runs through Anthropic's proxy: the URL of the
   * server behind it is what says which one it is. */
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sc->json, "url"));
  char *up = sc->scope_label && url ? url_redacted(url) : NULL;
  if (up)
    cJSON_AddStringToObject(o, "upstream", up);
  free(up);
  if (flags & MCPHOST_STATUS_NOTES)
    mcp_client_describe(c->mc, idx, note_json,
                        cJSON_AddArrayToObject(o, "notes"));
  return o;
}

typedef struct status_job {
  mcphost_client *c;
  const char *name;
  unsigned flags;
  mcphost_error *err;
  int rc;
  cJSON *out;
} status_job;

static void status_on_loop(void *ud) {
  status_job *j = ud;
  if (j->name) {
    size_t idx;
    j->rc = api_find_server(j->c, j->name, &idx, j->err);
    if (j->rc == MCPHOST_OK)
      j->out = status_json(j->c, idx, j->flags);
    return;
  }
  j->out = cJSON_CreateArray();
  for (size_t i = 0; i < host_cfg(j->c->h)->nservers; i++)
    cJSON_AddItemToArray(j->out, status_json(j->c, i, j->flags));
}

int mcphost_server_status(mcphost_client *c, const char *name, unsigned flags,
                          char **json, size_t *len, mcphost_error *err) {
  api_clear_error(err);
  if (json)
    *json = NULL;
  if (!c || !json)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_server_status needs a client and a place for "
                    "the result");
  unsigned known = MCPHOST_STATUS_NOTES | MCPHOST_STATUS_BRIEF;
  if (flags & ~known)
    return api_fail(err, MCPHOST_EUSAGE, 0, name,
                    "mcphost_server_status: unknown flags 0x%x",
                    flags & ~known);
  status_job j = {.c = c, .name = name, .flags = flags, .err = err};
  if (api_run_on_loop(c, status_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  if (j.rc != MCPHOST_OK)
    return j.rc;
  strbuf b;
  sb_init(&b);
  int wrote = json_write(&b, j.out);
  cJSON_Delete(j.out);
  if (wrote != 0) {
    sb_free(&b);
    return api_fail(err, MCPHOST_ENOMEM, 0, name, "cannot write the status");
  }
  if (len)
    *len = b.len;
  *json = sb_take(&b);
  return MCPHOST_OK;
}

typedef struct get_job {
  mcphost_client *c;
  size_t idx;
  mcphost_server_state *out;
  int rc;
} get_job;

static void get_on_loop(void *ud) {
  get_job *j = ud;
  const config *cfg = host_cfg(j->c->h);
  if (j->idx >= cfg->nservers) {
    j->rc = MCPHOST_ENOTFOUND;
    return;
  }
  mcp_server_status st;
  bool used = mcp_client_status(j->c->mc, j->idx, &st);
  mcphost_server_state *o = j->out;
  o->startable = cfg->servers[j->idx].state == SERVER_ACTIVE;
  if (API_HAS(o, mcphost_server_state, used))
    o->used = used;
  if (API_HAS(o, mcphost_server_state, connected))
    o->connected = st.ready;
  if (API_HAS(o, mcphost_server_state, code))
    o->code =
        st.ready ? MCPHOST_OK
                 : api_status_of_kind(st.failure ? st.failure : MCP_ERR_SERVER);
  if (API_HAS(o, mcphost_server_state, type))
    o->type = cfg->servers[j->idx].type;
  if (API_HAS(o, mcphost_server_state, caps)) {
    static const struct {
      const char *name;
      uint32_t bit;
    } caps[] = {{"tools", MCPHOST_CAP_TOOLS},
                {"resources", MCPHOST_CAP_RESOURCES},
                {"prompts", MCPHOST_CAP_PROMPTS},
                {"completions", MCPHOST_CAP_COMPLETIONS},
                {"logging", MCPHOST_CAP_LOGGING}};
    o->caps = 0;
    for (size_t k = 0; st.ready && k < sizeof caps / sizeof *caps; k++) {
      if (mcp_client_has_capability(j->c->mc, j->idx, caps[k].name))
        o->caps |= caps[k].bit;
    }
  }
  if (API_HAS(o, mcphost_server_state, local))
    o->local = registry_type_is_local(host_registry(j->c->h),
                                      cfg->servers[j->idx].type);
  if (API_HAS(o, mcphost_server_state, mcp_session))
    o->mcp_session = mcp_client_session_id(j->c->mc, j->idx) != NULL;
}

int mcphost_server_get(mcphost_client *c, size_t index,
                       mcphost_server_state *out, mcphost_error *err) {
  api_clear_error(err);
  if (!c || !out)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_server_get needs a client and a place for the "
                    "state");
  if (!API_HAS(out, mcphost_server_state, startable))
    return api_fail(err, MCPHOST_EABI, 0, NULL,
                    "mcphost_server_state.struct_size %u is too small",
                    (unsigned)out->struct_size);
  get_job j = {.c = c, .idx = index, .out = out};
  if (api_run_on_loop(c, get_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  if (j.rc != MCPHOST_OK)
    return api_fail(err, j.rc, 0, NULL, "no server %zu: %zu configured", index,
                    mcphost_server_count(c));
  return MCPHOST_OK;
}

/* ---- connecting ---- */

typedef struct connect_job {
  mcphost_client *c;
  const char *const *names;
  size_t n;
  unsigned flags;
  mcphost_error *err;
  int rc;
  size_t connected;
} connect_job;

static void connect_on_loop(void *ud) {
  connect_job *j = ud;
  mcphost_client *c = j->c;
  const config *cfg = host_cfg(c->h);
  size_t n = j->names ? j->n : cfg->nservers;
  size_t *idx = xcalloc(n ? n : 1, sizeof *idx), k = 0;
  for (size_t i = 0; i < n; i++) {
    size_t x = i;
    if (j->names) {
      j->rc = api_find_server(c, j->names[i] ? j->names[i] : "", &x, j->err);
      if (j->rc != MCPHOST_OK) {
        free(idx);
        return;
      }
    } else if (cfg->servers[i].state != SERVER_ACTIVE) {
      continue;
    }
    if (!(j->flags & MCPHOST_CONNECT_UNUSED) || !mcp_client_peek(c->mc, x))
      idx[k++] = x;
  }
  if (j->flags & MCPHOST_CONNECT_AGAIN)
    for (size_t i = 0; i < k; i++)
      mcp_client_reconnect(c->mc, idx[i]);
  /* The loop runs here until each is settled (nested in a loop thread's
   * turn, or the caller's own). */
  const mcphost_client *was = api_enter_loop(c);
  j->connected = mcp_client_connect(c->mc, idx, k);
  api_leave_loop(was);
  free(idx);
}

int mcphost_connect_servers(mcphost_client *c, const char *const *names,
                            size_t n, unsigned flags, size_t *nconnected,
                            mcphost_error *err) {
  api_clear_error(err);
  if (nconnected)
    *nconnected = 0;
  unsigned known = MCPHOST_CONNECT_UNUSED | MCPHOST_CONNECT_AGAIN;
  if (!c || (!names && n))
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_connect_servers needs a client (and names "
                    "when n > 0)");
  if (flags & ~known)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_connect_servers: unknown flags 0x%x",
                    flags & ~known);
  if (api_on_loop_thread(c))
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_connect_servers waits for the loop: not from "
                    "its thread (a callback); use mcphost_start there");
  connect_job j = {.c = c, .names = names, .n = n, .flags = flags, .err = err};
  if (api_run_on_loop(c, connect_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  if (j.rc == MCPHOST_OK && nconnected)
    *nconnected = j.connected;
  return j.rc;
}
