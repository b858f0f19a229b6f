/* Cross-app access's login at the identity provider (SEP-990, as Claude
 * Code's `claude mcp xaa login`): the user settings' xaaIdp names one IdP
 * for every "xaa": true server, and one login there (the OpenID Connect
 * code flow with PKCE, in the browser as a server's login, on the same
 * loopback callback) gives the ID token that each server's token
 * exchange then spends without a person. The ID token and the refresh
 * token are kept in credentials.json under mcpXaaIdp["<issuer>|<client
 * id>"], read and renewed under the store's lock, so that parallel runs
 * renew once; an ID token that expires within the refresh margin
 * (oauth_expiring, on the ID token's own exp) is renewed with the
 * refresh token first. An idTokenFile (an ID token got elsewhere) wins
 * over the login. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flow.h"

typedef struct idp_cfg {
  char *issuer, *client_id, *client_secret, *token_endpoint, *file;
  int port;  /* xaaIdp.callbackPort, or 0: random */
  char *key; /* "<issuer>|<client id>" */
} idp_cfg;

static void cfg_free(idp_cfg *c) {
  free(c->issuer);
  free(c->client_id);
  free(c->client_secret);
  free(c->token_endpoint);
  free(c->file);
  free(c->key);
}

/* The xaaIdp settings; `login`: what a login needs (issuer, clientId).
 * 0 or -1 with f->message. */
static int cfg_read(oauth_flow *f, bool login, idp_cfg *c) {
  *c = (idp_cfg){0};
  cJSON *j = f->xaa_idp ? cJSON_Parse(f->xaa_idp) : NULL;
  c->issuer = oauth_json_str(j, "issuer");
  c->client_id = oauth_json_str(j, "clientId");
  c->client_secret = oauth_json_str(j, "clientSecret");
  c->token_endpoint = oauth_json_str(j, "tokenEndpoint");
  c->file = login ? NULL : oauth_json_str(j, "idTokenFile");
  const cJSON *port = cJSON_GetObjectItemCaseSensitive(j, "callbackPort");
  int ret = -1;
  if (port && (!cJSON_IsNumber(port) || port->valuedouble < 1 ||
               port->valuedouble > 65535)) {
    snprintf(f->message, sizeof f->message,
             "xaaIdp.callbackPort must be a port (1-65535)");
  } else if (!c->client_id || (!c->issuer && !(c->file && c->token_endpoint))) {
    snprintf(f->message, sizeof f->message,
             "cross-app access needs the user settings key xaaIdp with the "
             "identity provider's issuer and clientId (settings.json)");
  } else {
    c->port = port ? (int)port->valuedouble : 0;
    if (c->issuer) {
      size_t n = strlen(c->issuer);
      while (n > 1 && c->issuer[n - 1] == '/') {
        n--;
      }
      strbuf k = {0};
      sb_printf(&k, "%.*s|%s", (int)n, c->issuer, c->client_id);
      c->key = k.data;
    }
    ret = 0;
  }
  cJSON_Delete(j);
  return ret;
}

typedef struct save_ctx {
  const idp_cfg *c;
  const oauth_meta *m;
  const oauth_client *cl;
  const oauth_tokens *t;
} save_ctx;

static int save_fn(cJSON *doc, void *ud) {
  save_ctx *x = ud;
  cJSON *all = cJSON_GetObjectItemCaseSensitive(doc, "mcpXaaIdp");
  cJSON_DeleteItemFromObjectCaseSensitive(all, x->c->key); /* all anew */
  cJSON *e = store_idp_entry(doc, x->c->key, true);
  if (!e) {
    return -1;
  }
  put_str(e, "issuer", x->m->issuer);
  put_str(e, "clientId", x->cl->id);
  put_str(e, "clientSecret", x->cl->secret);
  put_str(e, "clientMethod", pick_auth_method(x->m, x->cl));
  put_str(e, "tokenEndpoint", x->m->token_endpoint);
  put_str(e, "revocationEndpoint", x->m->revocation_endpoint);
  put_tokens(e, x->t, NULL);
  oauth_jwt_entry_times(e, x->t->id_token);
  return 1;
}

/* A login at the IdP: discovery, the authorization request in the
 * browser (or followed), the code for tokens, stored before use. */
static int login(oauth_flow *f, const idp_cfg *c, char **id_token,
                 char **token_endpoint) {
  oauth_meta m = {0};
  oauth_client cl = {0};
  oauth_tokens t = {0};
  char *code = NULL, *verifier = NULL;
  char error[64], why[512];
  int fd = -1, port = c->port, ret = -1;
  if (!c->issuer) {
    snprintf(f->message, sizeof f->message,
             "a login at the identity provider needs xaaIdp.issuer");
    goto out;
  }
  if (discover_oidc(f, c->issuer, true, &m) != 0) {
    goto out;
  }
  fd = callback_listen(f, port, &port);
  if (fd < 0) {
    goto out;
  }
  cl = (oauth_client){.id = oauth_strdup(c->client_id),
                      .secret = oauth_strdup(c->client_secret),
                      .redirect_uri = redirect_uri(port),
                      .kind = oauth_strdup("static")};
  /* A refresh token only where the IdP offers one (OIDC Core §11). */
  const char *scope = m.offline_access ? "openid offline_access" : "openid";
  if (authorize(f, &m, &cl, scope, fd, &code, &verifier) != 0) {
    goto out;
  }
  strbuf p = {0};
  ob_form(&p, "grant_type", "authorization_code");
  ob_form(&p, "code", code);
  ob_form(&p, "redirect_uri", cl.redirect_uri);
  ob_form(&p, "code_verifier", verifier);
  int rc = token_request(f, &m, &cl, &p, &t, error, sizeof error);
  sb_free(&p);
  if (rc != 0) {
    goto out;
  }
  int64_t exp, iat;
  if (!t.id_token || oauth_jwt_times(t.id_token, &exp, &iat) != 0) {
    snprintf(f->message, sizeof f->message,
             "the identity provider's token response has %s",
             t.id_token ? "an id_token that is not a JWT" : "no id_token");
    goto out;
  }
  save_ctx sc = {c, &m, &cl, &t};
  rc = store_update(&f->st, save_fn, &sc, why, sizeof why);
  if (rc != 0) {
    snprintf(f->message, sizeof f->message, "%s",
             rc == -1 ? why : "the identity provider login was not stored");
    goto out;
  }
  *id_token = oauth_strdup(t.id_token);
  *token_endpoint = oauth_strdup(m.token_endpoint);
  ret = 0;
out:
  if (fd >= 0) {
    close(fd);
  }
  meta_free(&m);
  client_free(&cl);
  tokens_free(&t);
  free(code);
  free(verifier);
  return ret;
}

typedef struct stored_ctx {
  oauth_flow *f;
  const idp_cfg *c;
  char *id_token, *token_endpoint;
  bool dropped, no_id_token;
} stored_ctx;

/* Inside the lock: the stored ID token while it is fresh, else one
 * renewed with the refresh token (stored before use), else nothing. */
static int stored_fn(cJSON *doc, void *ud) {
  stored_ctx *x = ud;
  cJSON *e = store_idp_entry(doc, x->c->key, false);
  char *idt = e ? oauth_json_str(e, "idToken") : NULL;
  x->token_endpoint = e ? oauth_json_str(e, "tokenEndpoint") : NULL;
  const cJSON *xp = cJSON_GetObjectItemCaseSensitive(e, "expiresAt");
  bool valid =
      idt && cJSON_IsNumber(xp) && oauth_json_ms(xp) > oauth_now_ms();
  /* Kept while it has not expired, for when no refresh can be made or
   * one fails for a passing reason (flow_refresh said so). */
  x->id_token = valid ? idt : NULL;
  if (!valid) {
    free(idt);
  }
  if ((valid && !oauth_expiring(e)) || !e ||
      !cJSON_GetObjectItemCaseSensitive(e, "refreshToken")) {
    return 0;
  }
  /* A refresh that brings no ID token leaves none. */
  cJSON_DeleteItemFromObjectCaseSensitive(e, "idToken");
  int r = flow_refresh(x->f, e, &x->dropped);
  free(x->f->token); /* the IdP's access token: not the server's */
  x->f->token = NULL;
  if (r == 1 || x->dropped) {
    free(x->id_token);
    x->id_token = NULL;
  }
  if (r == 1) {
    x->id_token = oauth_json_str(e, "idToken");
    if (!x->id_token || oauth_jwt_entry_times(e, x->id_token) != 0) {
      free(x->id_token);
      x->id_token = NULL;
      x->no_id_token = true;
      cJSON_DeleteItemFromObjectCaseSensitive(e, "idToken");
    }
  }
  return r == 1 || x->dropped ? 1 : 0;
}

int idp_id_token(oauth_flow *f, char **id_token, char **token_endpoint,
                 char **issuer, bool *stored) {
  idp_cfg c;
  oauth_meta m = {0};
  stored_ctx x = {.f = f, .c = &c};
  char why[512];
  int ret = -1;
  *id_token = *token_endpoint = *issuer = NULL;
  *stored = false;
  if (cfg_read(f, false, &c) != 0) {
    goto out;
  }
  *issuer = oauth_strdup(c.issuer);
  if (c.file) {
    *id_token = oauth_read_file(c.file, 16384);
    for (size_t n = *id_token ? strlen(*id_token) : 0;
         n && strchr("\r\n ", (*id_token)[n - 1]);) {
      (*id_token)[--n] = '\0'; /* a file written by echo ends in a newline */
    }
    if (!*id_token) {
      snprintf(f->message, sizeof f->message,
               "xaaIdp.idTokenFile %.200s cannot be read", c.file);
      goto out;
    }
    if (c.token_endpoint) {
      *token_endpoint = oauth_strdup(c.token_endpoint);
    } else if (discover_oidc(f, c.issuer, false, &m) == 0) {
      *token_endpoint = oauth_strdup(m.token_endpoint);
    }
    ret = *token_endpoint ? 0 : -1;
    goto out;
  }
  int rc = store_update(&f->st, stored_fn, &x, why, sizeof why);
  if (rc != 0) {
    snprintf(f->message, sizeof f->message, "%s", rc == -1 ? why : "");
    goto out;
  }
  if (x.id_token && x.token_endpoint) {
    *id_token = x.id_token;
    *token_endpoint = x.token_endpoint;
    x.id_token = x.token_endpoint = NULL;
    *stored = true;
    ret = 0;
    goto out;
  }
  if (!f->interactive && f->browser != BROWSER_FOLLOW) {
    snprintf(f->message, sizeof f->message,
             "cross-app access: %s at the identity provider %.200s; run "
             "`mcphost mcp login --idp`",
             x.dropped       ? "the refresh token was refused (invalid_grant)"
             : x.no_id_token ? "the refresh gave no new ID token"
                             : "no login",
             c.issuer);
    goto out;
  }
  ret = login(f, &c, id_token, token_endpoint);
out:
  free(x.id_token);
  free(x.token_endpoint);
  meta_free(&m);
  cfg_free(&c);
  return ret;
}

typedef struct forget_ctx {
  const char *key, *id_token;
} forget_ctx;

static int forget_fn(cJSON *doc, void *ud) {
  forget_ctx *x = ud;
  cJSON *e = store_idp_entry(doc, x->key, false);
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "idToken");
  if (!cJSON_IsString(t) || strcmp(t->valuestring, x->id_token) != 0) {
    return 0; /* another run renewed it meanwhile */
  }
  cJSON_DeleteItemFromObjectCaseSensitive(e, "idToken");
  cJSON_DeleteItemFromObjectCaseSensitive(e, "expiresAt");
  cJSON_DeleteItemFromObjectCaseSensitive(e, "issuedAt");
  return 1;
}

void idp_forget_id_token(oauth_flow *f, const char *id_token) {
  idp_cfg c;
  char why[512];
  if (cfg_read(f, false, &c) == 0 && c.key) {
    forget_ctx x = {c.key, id_token};
    store_update(&f->st, forget_fn, &x, why, sizeof why);
  }
  cfg_free(&c);
}

int idp_login(oauth_flow *f) {
  idp_cfg c;
  char *idt = NULL, *tep = NULL;
  int ret = -1;
  if (cfg_read(f, true, &c) == 0) {
    ret = login(f, &c, &idt, &tep);
  }
  free(idt);
  free(tep);
  cfg_free(&c);
  return ret;
}
