/* The OAuth plugin's entry and its auth provider ("mcph.auth/1").
 *
 * authorization(): the stored token of the server, if any, and a
 * refresh in the background when it expires soon (oauth_expiring).
 * challenge(): a 401 (or a 403 insufficient_scope) starts a flow on a
 * thread (or joins the one under way); the host holds the failed request
 * until the flow's result is set through "mcph.host.auth/1" (NULL when it
 * failed, and then the next 401 is final). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "env_ms.h"
#include "oauth.h"
#include "plugin_info.h"
#include "provider.h"

void oplugin_log(oplugin *pl, int level, const char *server, const char *fmt,
                 ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  pl->host->log(pl->host, level, server ? server : OAUTH_ID, line);
}

oserver *oplugin_server(oplugin *pl, const char *name, bool create) {
  for (oserver *s = pl->list; s; s = s->next) {
    if (strcmp(s->name, name) == 0) {
      return s;
    }
  }
  if (!create) {
    return NULL;
  }
  oserver *s = oauth_calloc(1, sizeof *s);
  s->name = oauth_strdup(name);
  s->next = pl->list;
  pl->list = s;
  return s;
}

int oplugin_store(oplugin *pl, oauth_store *st) {
  const char *dir = pl->host->get_path(pl->host, MCPH_PATH_STATE);
  if (!dir) {
    return -1;
  }
  strbuf p = {0};
  sb_printf(&p, "%s/credentials.json", dir);
  *st = (oauth_store){.host = pl->host, .sec = pl->secrets, .path = p.data};
  return 0;
}

/* --oauth-browser after `mcp login`, else the global --oauth-browser
 * (declared in the stub's provides list, so the host parses it without
 * initializing the plugin), else MCPHOST_OAUTH_BROWSER. */
static int browser_mode(oplugin *pl, bool *bad) {
  const char *v = pl->browser_flag;
  if ((!v || !*v) && pl->feat && pl->feat->option) {
    v = pl->feat->option(pl->host, OAUTH_BROWSER_OPTION);
  }
  if (!v || !*v) {
    v = getenv("MCPHOST_OAUTH_BROWSER");
  }
  *bad = false;
  if (!v || !*v || strcmp(v, "auto") == 0) {
    return BROWSER_AUTO;
  }
  if (strcmp(v, "print") == 0) {
    return BROWSER_PRINT;
  }
  if (strcmp(v, "follow") == 0) {
    return BROWSER_FOLLOW;
  }
  *bad = true;
  return BROWSER_AUTO;
}

char *oplugin_xaa_settings(void) {
  const char *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
  strbuf p = {0};
  if (x && *x) {
    sb_printf(&p, "%s/mcphost/settings.json", x);
  } else if (home) {
    sb_printf(&p, "%s/.config/mcphost/settings.json", home);
  } else {
    return NULL;
  }
  char *text_in = oauth_read_file(sb_str(&p), 1u << 20);
  sb_free(&p);
  cJSON *doc = text_in ? cJSON_Parse(text_in) : NULL;
  free(text_in);
  cJSON *idp = cJSON_GetObjectItemCaseSensitive(doc, "xaaIdp");
  char *text = cJSON_IsObject(idp) ? cJSON_PrintUnformatted(idp) : NULL;
  char *out = oauth_strdup(text);
  cJSON_free(text);
  cJSON_Delete(doc);
  return out;
}

/* A flow's browser mode, a bad one warned of. */
static int flow_browser_mode(oplugin *pl) {
  bool bad;
  int mode = browser_mode(pl, &bad);
  if (bad) {
    oplugin_log(pl, MCPH_LOG_WARN, NULL,
                "--oauth-browser (or MCPHOST_OAUTH_BROWSER) is not auto, "
                "print or follow; auto is used");
  }
  return mode;
}

oauth_flow *oplugin_flow(oplugin *pl, oserver *s, flow_kind kind) {
  oauth_flow *f = oauth_calloc(1, sizeof *f);
  char why[512];
  if (!s->config_json || oauth_server_parse(&f->sv, s->name, s->config_json,
                                            why, sizeof why) != 0) {
    oplugin_log(pl, MCPH_LOG_ERROR, s->name, "server \"%s\": %s", s->name,
                s->config_json ? why : "no configuration");
    flow_free(f);
    return NULL;
  }
  if (oplugin_store(pl, &f->st) != 0) {
    oplugin_log(pl, MCPH_LOG_ERROR, s->name,
                "no state directory for the credential file");
    flow_free(f);
    return NULL;
  }
  f->browser = flow_browser_mode(pl);
  f->kind = kind;
  f->interactive = pl->feat && pl->feat->interactive(pl->host);
  f->sent_token = oauth_strdup(s->token);
  f->step_scope = oauth_strdup(s->scope);
  f->xaa_idp = f->sv.xaa ? oplugin_xaa_settings() : NULL;
  return f;
}

/* ---- flows on threads ---- */

typedef struct flow_job {
  job j;
  oplugin *pl;
  oauth_flow *f;
  mcph_run *idp_run; /* `mcp login --idp` */
} flow_job;

/* How long each network phase of a flow may take: 30 s, as Claude
 * Code's auth requests, or MCPHOST_OAUTH_TIMEOUT_MS. */
static int64_t phase_ms(void) {
  return (int64_t)env_ms("MCPHOST_OAUTH_TIMEOUT_MS", 30000, false, NULL);
}

static void flow_work(job *j) {
  flow_job *fj = (flow_job *)j;
  /* The deadline counts from the start of the work, not of the queue. */
  fj->f->phase_ms = phase_ms();
  fj->f->deadline_ms = oauth_now_ms() + fj->f->phase_ms;
  flow_run(fj->f);
}

static void set_value(oplugin *pl, oserver *s, const char *token) {
  char *copy = oauth_strdup(token); /* `token` may be s->token itself */
  free(s->token);
  free(s->value);
  s->token = copy;
  s->value = NULL;
  if (copy) {
    strbuf v = {0};
    sb_printf(&v, "Bearer %s", copy); /* not `token`: it may be freed */
    s->value = v.data;
  }
  mcph_error err;
  mcph_error_init(&err);
  if (pl->auth) {
    int rc = pl->auth->set_authorization(pl->host, s->name, s->value, &err);
    if (rc != MCPH_OK && rc != MCPH_ENOTFOUND) {
      oplugin_log(pl, MCPH_LOG_WARN, s->name, "%s", err.message);
    }
  }
}

static void flow_done(job *j) {
  flow_job *fj = (flow_job *)j;
  oplugin *pl = fj->pl;
  oauth_flow *f = fj->f;
  if (f->idp_only) {
    if (f->rc == MCPH_OK) {
      fprintf(stdout, "Logged in at the identity provider %s\n", f->sv.name);
    } else {
      oplugin_log(pl, MCPH_LOG_ERROR, NULL, "mcp login --idp: %s",
                  f->message[0] ? f->message : "the login failed");
    }
    pl->servers->finish(pl->host, fj->idp_run, f->rc == MCPH_OK ? 0 : 7);
    return;
  }
  oserver *s = oplugin_server(pl, f->sv.name, true);
  s->running = false;
  s->authorizations += f->authorizations;
  if (f->scope) {
    free(s->scope);
    s->scope = oauth_strdup(f->scope);
  }
  mcph_run *login = s->login;
  s->login = NULL;
  if (f->rc == MCPH_OK) {
    s->gave_up = false;
    s->unseen = true;
    set_value(pl, s, f->token);
    if (login) {
      fprintf(stdout, "Authorized server \"%s\"%s%s\n", s->name,
              f->scope ? " with scope " : "", f->scope ? f->scope : "");
      pl->servers->finish(pl->host, login, 0);
    }
    return;
  }
  if (f->kind == FLOW_REFRESH) {
    /* The 401 that may follow starts a full flow; a login waiting for
     * this refresh starts its own. */
    oauth_flow *lf = login ? oplugin_flow(pl, s, FLOW_LOGIN) : NULL;
    if (lf) {
      lf->interactive = true;
      s->login = login;
      if (oplugin_start_flow(pl, s, lf) == 0) {
        return;
      }
      s->login = NULL;
    }
    if (login) {
      pl->servers->finish(pl->host, login, 7);
    }
    return;
  }
  s->gave_up = true;
  oplugin_log(pl, MCPH_LOG_ERROR, s->name, "%s",
              f->message[0] ? f->message : "authorization failed");
  if (login) {
    pl->servers->finish(pl->host, login, 7);
    return;
  }
  set_value(pl, s, NULL); /* releases what the host held: it fails */
}

static void flow_cancel(job *j) {
  atomic_store(&((flow_job *)j)->f->cancel, 1);
}

static void flow_release(job *j) {
  flow_job *fj = (flow_job *)j;
  flow_free(fj->f);
  free(fj);
}

/* Runs `f` (taken, freed on failure too) on a job of its own; `idp_run`
 * is the `mcp login --idp` run it answers, or NULL. 0 or -1. */
static int start_flow_job(oplugin *pl, oauth_flow *f, mcph_run *idp_run) {
  flow_job *fj = oauth_calloc(1, sizeof *fj);
  fj->j = (job){.host = pl->host,
                .work = flow_work,
                .done = flow_done,
                .release = flow_release,
                .cancel = flow_cancel};
  fj->pl = pl;
  fj->f = f;
  fj->idp_run = idp_run;
  if (job_start(&pl->jobs, &fj->j) != 0) {
    flow_release(&fj->j);
    return -1;
  }
  return 0;
}

int oplugin_start_flow(oplugin *pl, oserver *s, oauth_flow *f) {
  if (start_flow_job(pl, f, NULL) != 0) {
    return -1;
  }
  s->running = true;
  return 0;
}

int oplugin_idp_login(oplugin *pl, mcph_run *run, const char *issuer,
                      mcph_error *err) {
  char *x = oplugin_xaa_settings();
  cJSON *j = x ? cJSON_Parse(x) : NULL;
  char *iss = oauth_json_str(j, "issuer");
  cJSON_Delete(j);
  int rc = MCPH_OK;
  if (!iss) {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "mcp login --idp: no identity provider configured: "
                        "set xaaIdp {issuer, clientId} in the user settings "
                        "(settings.json)");
  } else if (issuer && !same_issuer(issuer, iss)) {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "mcp login --idp: %s is not the configured identity "
                        "provider (xaaIdp.issuer is %s)",
                        issuer, iss);
  }
  oauth_flow *f = rc == MCPH_OK ? oauth_calloc(1, sizeof *f) : NULL;
  if (f && oplugin_store(pl, &f->st) != 0) {
    rc = mcph_error_set(err, MCPH_EIO, "no state directory");
  } else if (f) {
    f->idp_only = true;
    f->kind = FLOW_LOGIN;
    f->interactive = true; /* asked for by a person */
    f->browser = flow_browser_mode(pl);
    f->xaa_idp = x;
    x = NULL;
    f->sv.name = iss; /* for messages */
    iss = NULL;
    oauth_flow *started = f;
    f = NULL;
    if (start_flow_job(pl, started, run) != 0) {
      rc = mcph_error_set(err, MCPH_EIO, "cannot start the login");
    }
  }
  if (f) {
    flow_free(f);
  }
  free(x);
  free(iss);
  return rc;
}

/* ---- the provider ---- */

static const char *authorization(void *ctx, const char *server,
                                 const char *config_json) {
  oplugin *pl = ctx;
  job_reap(&pl->jobs);
  cJSON *cfg = cJSON_Parse(config_json);
  bool remote = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cfg, "url"));
  cJSON_Delete(cfg);
  if (!remote) {
    return NULL;
  }
  oserver *s = oplugin_server(pl, server, true);
  free(s->config_json);
  s->config_json = oauth_strdup(config_json);
  oauth_server sv;
  char why[512];
  if (oauth_server_parse(&sv, server, config_json, why, sizeof why) != 0) {
    oplugin_log(pl, MCPH_LOG_ERROR, server, "server \"%s\": %s", server, why);
    s->gave_up = true;
    return NULL;
  }
  oauth_store st;
  cJSON *doc = NULL;
  if (oplugin_store(pl, &st) == 0) {
    /* No lock: the file is only ever replaced whole. */
    doc = store_read(&st, why, sizeof why);
    if (!doc) {
      oplugin_log(pl, MCPH_LOG_ERROR, server, "%s", why);
    }
    free(st.path);
  }
  cJSON *e = doc ? store_entry(doc, sv.key, false) : NULL;
  const cJSON *at = cJSON_GetObjectItemCaseSensitive(e, "accessToken");
  const cJSON *rt = cJSON_GetObjectItemCaseSensitive(e, "refreshToken");
  free(s->value);
  free(s->token);
  s->value = s->token = NULL;
  if (cJSON_IsString(at) && at->valuestring[0]) {
    s->token = oauth_strdup(at->valuestring);
    strbuf v = {0};
    sb_printf(&v, "Bearer %s", at->valuestring);
    s->value = v.data;
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(e, "scope");
    if (cJSON_IsString(sc) && !s->scope) {
      s->scope = oauth_strdup(sc->valuestring);
    }
    if (oauth_expiring(e) && cJSON_IsString(rt) && !s->running) {
      oauth_flow *f = oplugin_flow(pl, s, FLOW_REFRESH);
      if (f && oplugin_start_flow(pl, s, f) != 0) {
        oplugin_log(pl, MCPH_LOG_WARN, server, "cannot start a refresh");
      }
    }
  }
  cJSON_Delete(doc);
  oauth_server_free(&sv);
  return s->value;
}

static void resend(void *ud) {
  oplugin *pl = ((void **)ud)[0];
  char *name = ((void **)ud)[1];
  oserver *s = oplugin_server(pl, name, false);
  if (s) {
    set_value(pl, s, s->token);
  }
  free(name);
  free(ud);
}

static int challenge(void *ctx, const char *server,
                     const mcph_auth_challenge *ch) {
  oplugin *pl = ctx;
  job_reap(&pl->jobs);
  oserver *s = oplugin_server(pl, server, false);
  if (!s || !s->config_json) {
    return MCPH_ENOTSUP;
  }
  bool step_up = ch->status == 403 && ch->error &&
                 strcmp(ch->error, "insufficient_scope") == 0;
  if (ch->status == 403 && !step_up) {
    return MCPH_ENOTSUP; /* a plain 403 is a refusal, not a question */
  }
  if (s->running) {
    return MCPH_OK; /* the flow under way settles it */
  }
  if (!step_up && s->unseen && s->token) {
    /* A value set after this request went out: try it. */
    s->unseen = false;
    void **ud = oauth_calloc(2, sizeof *ud);
    ud[0] = pl;
    ud[1] = oauth_strdup(server);
    if (pl->host->post(pl->host, resend, ud) == 0) {
      return MCPH_OK;
    }
    free(ud[1]);
    free(ud);
  }
  s->unseen = false;
  if (s->gave_up) {
    return MCPH_ENOTSUP;
  }
  if (s->authorizations >= OAUTH_MAX_AUTHORIZATIONS) {
    oplugin_log(pl, MCPH_LOG_ERROR, server,
                "server \"%s\" still refuses after %d authorizations; giving "
                "up",
                server, s->authorizations);
    s->gave_up = true;
    return MCPH_ENOTSUP;
  }
  oauth_flow *f = oplugin_flow(pl, s, FLOW_CHALLENGE);
  if (!f) {
    s->gave_up = true;
    return MCPH_ENOTSUP;
  }
  f->status = ch->status;
  f->ch_scope = oauth_strdup(ch->scope);
  f->ch_error = oauth_strdup(ch->error);
  f->ch_resource_metadata = oauth_strdup(ch->resource_metadata);
  const char *state =
      pl->servers ? pl->servers->state(pl->host, server, NULL) : NULL;
  f->at_connect = state && strcmp(state, "connecting") == 0;
  if (MCPH_HAS(ch, mcph_auth_challenge, protocol_version)) {
    f->protocol_version = oauth_strdup(ch->protocol_version);
  }
  if (oplugin_start_flow(pl, s, f) != 0) {
    return MCPH_ENOTSUP;
  }
  return MCPH_OK;
}

/* The needs-auth cache (needs_auth.c): a server that a run with nobody
 * to sign in found unauthorized within 15 minutes is not contacted by
 * another such run. A run that can authorize without a person (follow
 * mode, client_credentials, cross-app access) or with one always tries. */
static const char *needs_auth(void *ctx, const char *server,
                              const char *config_json) {
  oplugin *pl = ctx;
  oserver *s = oplugin_server(pl, server, false);
  bool bad;
  if (!s || s->token || (pl->feat && pl->feat->interactive(pl->host)) ||
      browser_mode(pl, &bad) == BROWSER_FOLLOW) {
    return NULL;
  }
  /* Headers of its own (an API key, a headersHelper): the user signs in
   * another way, which the cache knows nothing of. */
  cJSON *cfg = cJSON_Parse(config_json);
  bool own = cJSON_HasObjectItem(cfg, "headers") ||
             cJSON_HasObjectItem(cfg, "headersHelper");
  cJSON_Delete(cfg);
  oauth_server sv;
  char why[512];
  if (own ||
      oauth_server_parse(&sv, server, config_json, why, sizeof why) != 0) {
    return NULL; /* (a bad one: authorization() said why) */
  }
  bool person = strcmp(sv.grant, "authorization_code") == 0 && !sv.xaa;
  oauth_store st = {0};
  bool cached =
      person && oplugin_store(pl, &st) == 0 && needs_auth_cached(&st, sv.key);
  free(st.path);
  oauth_server_free(&sv);
  if (!cached) {
    return NULL;
  }
  snprintf(pl->reason, sizeof pl->reason,
           "server \"%s\" is not authorized yet; run `mcphost mcp login %s` "
           "(a run found so within 15 minutes: not contacted)",
           server, server);
  return pl->reason;
}

static const mcph_auth_provider provider = {
    .struct_size = sizeof provider,
    .authorization = authorization,
    .challenge = challenge,
    .needs_auth = needs_auth,
};

static int init(const mcph_host *host, void **ctx, mcph_error *err) {
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    return mcph_error_set(err, MCPH_EIO, "libcurl could not be initialized");
  }
  oplugin *pl = oauth_calloc(1, sizeof *pl);
  pl->host = host;
  pl->auth = host->get_service(host, MCPH_SERVICE_AUTH);
  pl->feat = host->get_service(host, MCPH_SERVICE_FEATURES);
  pl->servers = host->get_service(host, MCPH_SERVICE_SERVERS);
  pl->secrets = host->get_service(host, MCPH_SERVICE_SECRETS);
  *ctx = pl;
  return MCPH_OK;
}

static const void *get_extension(void *ctx, const char *id) {
  (void)ctx;
  if (strcmp(id, MCPH_EXT_AUTH) == 0) {
    return &provider;
  }
  if (strcmp(id, MCPH_EXT_COMMAND) == 0) {
    return &oauth_commands;
  }
  return NULL;
}

static void deinit(void *ctx) {
  oplugin *pl = ctx;
  job_join_all(&pl->jobs);
  while (pl->list) {
    oserver *s = pl->list;
    pl->list = s->next;
    free(s->name);
    free(s->config_json);
    free(s->value);
    free(s->token);
    free(s->scope);
    free(s);
  }
  free(pl);
}

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = PLUGIN_NAME,
    .version = PLUGIN_VERSION,
    .description = PLUGIN_DESCRIPTION,
    .init = init,
    .get_extension = get_extension,
    .deinit = deinit,
};
