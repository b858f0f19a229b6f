/* The plugin's commands: `mcphost mcp login NAME`, `mcp logout NAME`
 * (revoking at the authorization server when it offers RFC 7009) and
 * `mcp auth-status [NAME] [--json]` (never a token); `mcp login --idp`
 * and `mcp logout --idp` for the login at cross-app access's identity
 * provider (idp.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "provider.h"
#include "text_escape.h"

static void out_text(FILE *f, const char *s) {
  char *e =
      text_escape(s ? s : "", strlen(s ? s : ""), TEXT_ESCAPE_INVISIBLE, NULL);
  fputs(e ? e : "", f);
  free(e);
}

/* ---- mcp login ---- */

static int login_start(void *ctx, mcph_run *run, int argc,
                       const char *const *argv, int global_json,
                       mcph_error *err) {
  oplugin *pl = ctx;
  (void)global_json;
  const char *name = NULL;
  bool idp = false;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--oauth-browser=", 16) == 0) {
      pl->browser_flag = argv[i] + 16;
    } else if (strcmp(argv[i], "--idp") == 0) {
      idp = true;
    } else if (argv[i][0] == '-' || name) {
      return mcph_error_set(err, MCPH_EINVAL,
                            "usage: mcphost mcp login NAME|--idp [ISSUER] "
                            "[--oauth-browser=auto|print|follow]");
    } else {
      name = argv[i];
    }
  }
  if (idp) {
    return oplugin_idp_login(pl, run, name, err);
  }
  if (!name) {
    return mcph_error_set(err, MCPH_EINVAL, "usage: mcphost mcp login NAME");
  }
  oserver *s = oplugin_server(pl, name, true);
  s->login = run;
  /* Connecting hands the plugin the server's configuration
   * (authorization()), which starts the flow below. */
  int rc = pl->servers->connect(pl->host, name, 0, err);
  if (rc != MCPH_OK) {
    s->login = NULL;
    return rc;
  }
  if (!s->config_json) {
    s->login = NULL;
    return mcph_error_set(err, MCPH_EINVAL,
                          "server \"%s\" is not a remote (http, sse or ws) "
                          "server: it has no OAuth",
                          name);
  }
  if (s->running) {
    return MCPH_OK; /* a refresh under way: its end ends the login too */
  }
  oauth_flow *f = oplugin_flow(pl, s, FLOW_LOGIN);
  if (!f) {
    s->login = NULL;
    return mcph_error_set(err, MCPH_EINVAL,
                          "server \"%s\": bad oauth "
                          "configuration",
                          name);
  }
  f->interactive = true; /* asked for by a person */
  if (oplugin_start_flow(pl, s, f) != 0) {
    s->login = NULL;
    return mcph_error_set(err, MCPH_EIO, "cannot start the login");
  }
  return MCPH_OK;
}

/* ---- mcp logout ---- */

typedef struct logout_job {
  job j;
  oplugin *pl;
  mcph_run *run;
  char *name; /* the server, or with `idp` the issuer (NULL: every one) */
  bool all, idp;
  oauth_store st;
  int found, revoked;
  char message[512];
} logout_job;

static void revoke(const cJSON *e, const char *token, const char *hint,
                   int *revoked) {
  const cJSON *ep = cJSON_GetObjectItemCaseSensitive(e, "revocationEndpoint");
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "clientId");
  if (!token || !cJSON_IsString(ep) || !oauth_url_secure(ep->valuestring)) {
    return;
  }
  strbuf b = {0};
  ob_form(&b, "token", token);
  ob_form(&b, "token_type_hint", hint);
  if (cJSON_IsString(id)) {
    ob_form(&b, "client_id", id->valuestring);
  }
  oauth_req rq = {.method = "POST",
                  .url = ep->valuestring,
                  .body = sb_str(&b),
                  .content_type = "application/x-www-form-urlencoded",
                  .deadline_ms = oauth_now_ms() + 10000};
  oauth_resp r;
  char why[256];
  if (oauth_http(&rq, &r, why, sizeof why) == 0 && r.status == 200) {
    (*revoked)++;
  }
  oauth_resp_free(&r);
  sb_free(&b);
}

static const char *str(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Inside the lock: revokes and forgets each entry of the server. */
static int logout_fn(cJSON *doc, void *ud) {
  logout_job *lj = ud;
  cJSON *all = cJSON_GetObjectItemCaseSensitive(doc, "mcpOAuth");
  for (cJSON *e = all ? all->child : NULL, *next; e; e = next) {
    next = e->next;
    const char *sn = str(e, "serverName");
    if (!sn || strcmp(sn, lj->name) != 0) {
      continue;
    }
    lj->found++;
    /* RFC 7009: the refresh token first, which ends the grant. */
    revoke(e, str(e, "refreshToken"), "refresh_token", &lj->revoked);
    revoke(e, str(e, "accessToken"), "access_token", &lj->revoked);
    if (lj->all) {
      cJSON_DetachItemViaPointer(all, e);
      cJSON_Delete(e);
    } else {
      cJSON_DeleteItemFromObjectCaseSensitive(e, "accessToken");
      cJSON_DeleteItemFromObjectCaseSensitive(e, "refreshToken");
      cJSON_DeleteItemFromObjectCaseSensitive(e, "expiresAt");
      cJSON_DeleteItemFromObjectCaseSensitive(e, "issuedAt");
    }
  }
  return lj->found ? 1 : 0;
}

/* Inside the lock: revokes and forgets the identity provider logins. */
static int logout_idp_fn(cJSON *doc, void *ud) {
  logout_job *lj = ud;
  cJSON *all = cJSON_GetObjectItemCaseSensitive(doc, "mcpXaaIdp");
  for (cJSON *e = all ? all->child : NULL, *next; e; e = next) {
    next = e->next;
    const char *iss = str(e, "issuer");
    if (lj->name && (!iss || !same_issuer(iss, lj->name))) {
      continue;
    }
    lj->found++;
    revoke(e, str(e, "refreshToken"), "refresh_token", &lj->revoked);
    cJSON_DetachItemViaPointer(all, e);
    cJSON_Delete(e);
  }
  return lj->found ? 1 : 0;
}

static void logout_work(job *j) {
  logout_job *lj = (logout_job *)j;
  char why[512];
  if (store_update(&lj->st, lj->idp ? logout_idp_fn : logout_fn, lj, why,
                   sizeof why) != 0) {
    snprintf(lj->message, sizeof lj->message, "%s", why);
  }
}

static void logout_done(job *j) {
  logout_job *lj = (logout_job *)j;
  int rc = 0;
  if (lj->message[0]) {
    oplugin_log(lj->pl, MCPH_LOG_ERROR, NULL, "mcp logout: %s", lj->message);
    rc = 3;
  } else if (lj->idp) {
    printf("%s\n", !lj->found    ? "No identity provider login stored"
                   : lj->revoked ? "Logged out of the identity provider "
                                   "(refresh token revoked)"
                                 : "Logged out of the identity provider");
  } else if (!lj->found) {
    fputs("No credentials stored for server \"", stdout);
    out_text(stdout, lj->name);
    fputs("\"\n", stdout);
  } else {
    fputs("Logged out of server \"", stdout);
    out_text(stdout, lj->name);
    printf("\"%s\n", lj->revoked ? " (tokens revoked)" : "");
  }
  lj->pl->servers->finish(lj->pl->host, lj->run, rc);
}

static void logout_release(job *j) {
  logout_job *lj = (logout_job *)j;
  free(lj->name);
  free(lj->st.path);
  free(lj);
}

static int logout_start(void *ctx, mcph_run *run, int argc,
                        const char *const *argv, int global_json,
                        mcph_error *err) {
  oplugin *pl = ctx;
  (void)global_json;
  const char *name = NULL;
  bool all = false, idp = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--all") == 0) {
      all = true;
    } else if (strcmp(argv[i], "--idp") == 0) {
      idp = true;
    } else if (argv[i][0] == '-' || name) {
      return mcph_error_set(err, MCPH_EINVAL,
                            "usage: mcphost mcp logout NAME [--all] | "
                            "--idp [ISSUER]");
    } else {
      name = argv[i];
    }
  }
  if (!name && !idp) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "usage: mcphost mcp logout NAME [--all]");
  }
  logout_job *lj = oauth_calloc(1, sizeof *lj);
  if (oplugin_store(pl, &lj->st) != 0) {
    free(lj);
    return mcph_error_set(err, MCPH_EIO, "no state directory");
  }
  lj->j = (job){.host = pl->host,
                .work = logout_work,
                .done = logout_done,
                .release = logout_release};
  lj->pl = pl;
  lj->run = run;
  lj->name = oauth_strdup(name);
  lj->all = all;
  lj->idp = idp;
  if (job_start(&pl->jobs, &lj->j) != 0) {
    logout_release(&lj->j);
    return mcph_error_set(err, MCPH_EIO, "cannot start the logout");
  }
  return MCPH_OK;
}

/* ---- mcp auth-status ---- */

static void when(int64_t ms, char *out, size_t len) {
  time_t t = (time_t)(ms / 1000);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The state of stored entry `e` whose token is `tok_key`: whether there
 * is one, refreshable, its expiry. */
static void add_state(cJSON *o, const cJSON *e, const char *tok_key,
                      int64_t now) {
  cJSON_AddBoolToObject(o, "token", str(e, tok_key) != NULL);
  cJSON_AddBoolToObject(o, "refreshable", str(e, "refreshToken") != NULL);
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, "expiresAt");
  if (cJSON_IsNumber(x)) {
    char w[32];
    when(oauth_json_ms(x), w, sizeof w);
    cJSON_AddStringToObject(o, "expiresAt", w);
    cJSON_AddBoolToObject(o, "expired", oauth_json_ms(x) <= now);
  }
}

static int status_start(void *ctx, mcph_run *run, int argc,
                        const char *const *argv, int global_json,
                        mcph_error *err) {
  oplugin *pl = ctx;
  const char *name = NULL;
  bool json = global_json != 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (argv[i][0] == '-' || name) {
      return mcph_error_set(err, MCPH_EINVAL,
                            "usage: mcphost mcp auth-status [NAME] [--json]");
    } else {
      name = argv[i];
    }
  }
  oauth_store st;
  if (oplugin_store(pl, &st) != 0) {
    return mcph_error_set(err, MCPH_EIO, "no state directory");
  }
  char why[512];
  cJSON *doc = store_read(&st, why, sizeof why);
  free(st.path);
  if (!doc) {
    return mcph_error_set(err, MCPH_EIO, "%s", why);
  }
  cJSON *out = cJSON_CreateArray();
  cJSON *all = cJSON_GetObjectItemCaseSensitive(doc, "mcpOAuth");
  int64_t now = oauth_now_ms();
  const cJSON *e;
  cJSON_ArrayForEach(e, all) {
    const char *sn = str(e, "serverName");
    if (!sn || (name && strcmp(sn, name) != 0)) {
      continue;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "server", sn);
    if (str(e, "serverUrl")) {
      cJSON_AddStringToObject(o, "url", str(e, "serverUrl"));
    }
    add_state(o, e, "accessToken", now);
    static const char *const keys[][2] = {{"scope", "scope"},
                                          {"clientId", "clientId"},
                                          {"issuer", "authorizationServer"}};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
      if (str(e, keys[k][0])) {
        cJSON_AddStringToObject(o, keys[k][1], str(e, keys[k][0]));
      }
    }
    cJSON_AddItemToArray(out, o);
  }
  /* The cross-app access logins (idp.c), with every server's. */
  cJSON *idps =
      name ? NULL : cJSON_GetObjectItemCaseSensitive(doc, "mcpXaaIdp");
  cJSON_ArrayForEach(e, idps) {
    if (!str(e, "issuer")) {
      continue;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "identityProvider", str(e, "issuer"));
    add_state(o, e, "idToken", now);
    if (str(e, "clientId")) {
      cJSON_AddStringToObject(o, "clientId", str(e, "clientId"));
    }
    cJSON_AddItemToArray(out, o);
  }
  int rc = 0;
  if (json) {
    char *t = cJSON_PrintUnformatted(out);
    printf("%s\n", t ? t : "[]");
    cJSON_free(t);
  } else if (cJSON_GetArraySize(out) == 0) {
    printf("No stored OAuth credentials%s%s\n", name ? " for " : "",
           name ? name : "");
    rc = name ? 6 : 0;
  } else {
    const cJSON *o;
    cJSON_ArrayForEach(o, out) {
      bool tok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "token"));
      bool expd = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "expired"));
      bool rf =
          cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "refreshable"));
      if (str(o, "identityProvider")) {
        fputs("identity provider ", stdout);
        out_text(stdout, str(o, "identityProvider"));
      } else {
        out_text(stdout, str(o, "server"));
      }
      printf(": %s", !tok   ? "needs-auth"
                     : expd ? (rf ? "expired (refreshable)" : "expired")
                            : "authenticated");
      if (str(o, "expiresAt")) {
        printf(", expires %s", str(o, "expiresAt"));
      }
      static const char *const show[][2] = {{"scope", "scopes"},
                                            {"clientId", "client"},
                                            {"authorizationServer", "AS"}};
      for (size_t k = 0; k < sizeof show / sizeof show[0]; k++) {
        if (str(o, show[k][0])) {
          printf(", %s ", show[k][1]);
          out_text(stdout, str(o, show[k][0]));
        }
      }
      fputs("\n", stdout);
    }
  }
  cJSON_Delete(out);
  cJSON_Delete(doc);
  pl->servers->finish(pl->host, run, rc);
  return MCPH_OK;
}

static const mcph_command list[] = {
    {sizeof(mcph_command), "mcp login",
     "mcp login NAME|--idp [ISSUER] [--oauth-browser=auto|print|follow]",
     "authorize mcphost at a remote server (OAuth), or log in at the "
     "cross-app access identity provider",
     login_start, NULL},
    {sizeof(mcph_command), "mcp logout",
     "mcp logout NAME [--all] | --idp [ISSUER]",
     "revoke and remove a server's OAuth tokens, or the identity provider "
     "login",
     logout_start, NULL},
    {sizeof(mcph_command), "mcp auth-status", "mcp auth-status [NAME] [--json]",
     "OAuth state per server (never the token)", status_start, NULL},
};

const mcph_commands oauth_commands = {
    .struct_size = sizeof(mcph_commands),
    .commands = list,
    .count = sizeof list / sizeof list[0],
};
