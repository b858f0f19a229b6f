/* One authorization flow, start to end, on its own thread: the tokens
 * another process stored meanwhile, else a refresh (under the credential
 * file's lock, so that parallel runs refresh once and a rotated refresh
 * token is stored before its access token is used), else the full flow:
 * discovery, scope, client identity, then the grant (authorization code
 * with PKCE, client_credentials, or cross-app access), and the tokens
 * stored before they are handed out. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mcphost/abi.h>

#include "flow.h"

/* A refresh that failed for a passing reason (a 5xx, no answer) is
 * tried twice more, 2 s apart, as Claude Code does, within the phase's
 * deadline (the lock is held meanwhile). */
#define REFRESH_TRIES 3
#define REFRESH_RETRY_MS 2000

void put_str(cJSON *o, const char *k, const char *v) {
  cJSON_DeleteItemFromObjectCaseSensitive(o, k);
  if (v) {
    cJSON_AddStringToObject(o, k, v);
  }
}

/* Stores what a token response gave in the entry: the refresh token is
 * kept when none came (RFC 6749 §6), expiresAt left out when unknown. */
void put_tokens(cJSON *e, const oauth_tokens *t, const char *scope) {
  put_str(e, "accessToken", t->access);
  if (t->refresh) {
    put_str(e, "refreshToken", t->refresh);
  }
  cJSON_DeleteItemFromObjectCaseSensitive(e, "expiresAt");
  cJSON_DeleteItemFromObjectCaseSensitive(e, "issuedAt");
  if (t->expires_at) {
    cJSON_AddNumberToObject(e, "expiresAt", (double)t->expires_at);
    /* The lifetime, for the refresh margin (oauth_expiring). */
    cJSON_AddNumberToObject(e, "issuedAt", (double)t->issued_at);
  }
  put_str(e, "scope", t->scope ? t->scope : scope);
  if (t->id_token) {
    put_str(e, "idToken", t->id_token);
  }
}

static void drop_tokens(cJSON *e) {
  cJSON_DeleteItemFromObjectCaseSensitive(e, "accessToken");
  cJSON_DeleteItemFromObjectCaseSensitive(e, "refreshToken");
  cJSON_DeleteItemFromObjectCaseSensitive(e, "expiresAt");
  cJSON_DeleteItemFromObjectCaseSensitive(e, "issuedAt");
  cJSON_DeleteItemFromObjectCaseSensitive(e, "idToken");
}

/* Whether the last token request failed for a reason that may pass: a
 * 5xx or no answer at all. An OAuth error (4xx) is final. */
static bool transient(const oauth_flow *f) {
  return f->token_status == 0 || f->token_status >= 500;
}

/* Waits REFRESH_RETRY_MS before another try: false when the phase's
 * deadline would pass first, or mcphost is leaving. */
static bool pause_for_retry(oauth_flow *f) {
  int64_t end = oauth_now_ms() + REFRESH_RETRY_MS;
  if (end >= f->deadline_ms) {
    return false;
  }
  while (!atomic_load(&f->cancel) && oauth_now_ms() < end) {
    poll(NULL, 0, 100);
  }
  return !atomic_load(&f->cancel);
}

int flow_refresh(oauth_flow *f, cJSON *e, bool *dropped) {
  char *rt = oauth_json_str(e, "refreshToken");
  oauth_meta m = {.token_endpoint = oauth_json_str(e, "tokenEndpoint"),
                  .issuer = oauth_json_str(e, "issuer"),
                  .resource = oauth_json_str(e, "resource")};
  oauth_client c = {.id = oauth_json_str(e, "clientId"),
                    .secret = oauth_json_str(e, "clientSecret"),
                    .method = oauth_json_str(e, "clientMethod")};
  int ret = 0;
  if (!rt || !m.token_endpoint || !c.id) {
    goto out;
  }
  oauth_tokens t;
  char error[64];
  int tries = 0, rc;
  do {
    /* Client authentication adds to the form: a new one each time. */
    strbuf p = {0};
    ob_form(&p, "grant_type", "refresh_token");
    ob_form(&p, "refresh_token", rt);
    ob_form(&p, "resource", m.resource);
    rc = token_request(f, &m, &c, &p, &t, error, sizeof error);
    sb_free(&p);
    tries++;
  } while (rc != 0 && tries < REFRESH_TRIES && transient(f) &&
           pause_for_retry(f));
  if (rc == 0) {
    put_tokens(e, &t, NULL);
    f->token = oauth_strdup(t.access);
    tokens_free(&t);
    ret = 1;
  } else if (strcmp(error, "invalid_grant") == 0) {
    drop_tokens(e);
    *dropped = true;
  } else if (transient(f)) {
    char why[32] = "no answer";
    if (f->token_status) {
      snprintf(why, sizeof why, "HTTP %ld", f->token_status);
    }
    fprintf(stderr,
            "mcphost: server \"%s\": the token refresh failed %d time%s "
            "(%s); the stored tokens are kept\n",
            f->sv.name, tries, tries == 1 ? "" : "s", why);
  }
out:
  free(rt);
  meta_free(&m);
  client_free(&c);
  return ret;
}

static void store_failed(oauth_flow *f, int rc, const char *why) {
  if (rc == -1) {
    snprintf(f->message, sizeof f->message, "%s", why);
  }
}

typedef struct stored_ctx {
  oauth_flow *f;
  int ret;      /* as stored_or_refreshed's */
  bool dropped; /* the refresh token was dead */
  bool moved;   /* the server names another AS now: its tokens are void */
} stored_ctx;

/* Inside the lock: the file as it is now, so that a token another
 * process stored meanwhile is used instead of refreshing again. */
static int stored_fn(cJSON *doc, void *ud) {
  stored_ctx *c = ud;
  oauth_flow *f = c->f;
  cJSON *e = store_entry(doc, f->sv.key, false);
  char *tok = e ? oauth_json_str(e, "accessToken") : NULL;
  bool step_up = f->status == 403;
  if (tok && !step_up && !oauth_expiring(e) &&
      (!f->sent_token || strcmp(tok, f->sent_token) != 0)) {
    f->token = tok; /* another process (or an earlier flow) got one */
    c->ret = 1;
    return 0;
  }
  free(tok);
  if (e && c->moved) {
    drop_tokens(e); /* never spent at, or refreshed for, the new AS */
    return 1;
  }
  if (e && !step_up) {
    c->ret = flow_refresh(f, e, &c->dropped);
    return c->ret == 1 || c->dropped ? 1 : 0;
  }
  return 0;
}

/* Step 1 and 2: what is stored, or a refresh. 1: f->token set; 0: go on;
 * -1: the store failed. */
static int stored_or_refreshed(oauth_flow *f) {
  stored_ctx c = {.f = f};
  char why[512];
  if (f->kind == FLOW_CHALLENGE && f->status == 401 && f->sent_token) {
    /* A token refused: is it the server that changed its authorization
     * server (SEP-2352)? Then that AS's tokens and client are not used
     * again, and the full flow registers at the new one. Looked up
     * before the lock, which a network request should not hold. */
    cJSON *doc = store_read(&f->st, why, sizeof why);
    char *iss = oauth_json_str(store_entry(doc, f->sv.key, false), "issuer");
    cJSON_Delete(doc);
    f->deadline_ms = oauth_now_ms() + f->phase_ms;
    c.moved = iss && discover_as_moved(f, iss);
    if (c.moved) {
      fprintf(stderr,
              "mcphost: server \"%s\" names another authorization server "
              "now; authorizing there anew\n",
              f->sv.name);
    }
    free(iss);
  }
  int rc = store_update(&f->st, stored_fn, &c, why, sizeof why);
  if (rc != 0) {
    store_failed(f, rc, why);
    free(f->token);
    f->token = NULL;
    return -1; /* never use a token that was not stored */
  }
  if (c.dropped) {
    fprintf(stderr,
            "mcphost: server \"%s\": the refresh token was refused "
            "(invalid_grant); authorization is needed again\n",
            f->sv.name);
  }
  return c.ret;
}

/* RFC 8693 at the IdP: the ID token `idt` for an ID-JAG (a new string
 * in *jag), for the server of discovery `m`. 0 or -1 with f->message. */
static int exchange(oauth_flow *f, const oauth_meta *m, const cJSON *idp,
                    char *tep, char *iss, const char *idt, const char *scope,
                    char **jag) {
  char *cid = oauth_json_str(idp, "clientId");
  char *csec = oauth_json_str(idp, "clientSecret");
  oauth_meta im = {.token_endpoint = tep, .issuer = iss};
  oauth_client ic = {.id = cid,
                     .secret = csec,
                     .method = csec ? "client_secret_post" : "none"};
  strbuf p = {0};
  ob_form(&p, "grant_type", "urn:ietf:params:oauth:grant-type:token-exchange");
  ob_form(&p, "requested_token_type",
          "urn:ietf:params:oauth:token-type:id-jag");
  ob_form(&p, "audience", m->issuer);
  ob_form(&p, "resource", m->resource);
  if (scope) {
    ob_form(&p, "scope", scope);
  }
  ob_form(&p, "subject_token", idt);
  ob_form(&p, "subject_token_type",
          "urn:ietf:params:oauth:token-type:id_token");
  oauth_tokens t;
  char error[64];
  int rc = token_request(f, &im, &ic, &p, &t, error, sizeof error);
  sb_free(&p);
  free(cid);
  free(csec);
  if (rc != 0) {
    char msg[sizeof f->message];
    memcpy(msg, f->message, sizeof msg);
    snprintf(f->message, sizeof f->message, "the identity provider: %.900s",
             msg);
    return -1;
  }
  *jag = t.access;
  t.access = NULL;
  tokens_free(&t);
  return 0;
}

/* SEP-990: the IdP's ID token exchanged for an ID-JAG at the IdP, then
 * the ID-JAG for an access token at the MCP server's AS (jwt-bearer). */
static int xaa(oauth_flow *f, const oauth_meta *m, const oauth_client *c,
               const char *scope, oauth_tokens *t) {
  cJSON *idp = f->xaa_idp ? cJSON_Parse(f->xaa_idp) : NULL;
  char *tep = NULL, *iss = NULL, *idt = NULL, *jag = NULL;
  bool stored;
  int ret = -1;
  for (int round = 0;; round++) {
    if (idp_id_token(f, &idt, &tep, &iss, &stored) != 0) {
      goto out;
    }
    if (exchange(f, m, idp, tep, iss, idt, scope, &jag) == 0) {
      break;
    }
    if (!stored || round > 0 || f->token_status < 400 ||
        f->token_status >= 500) {
      goto out;
    }
    /* The IdP refused the ID token of its own login (revoked, or ended
     * early): forgotten, and renewed (or logged in anew) once, as Claude
     * Code drops it on a 4xx. */
    idp_forget_id_token(f, idt);
    free(idt);
    free(tep);
    free(iss);
    idt = tep = iss = NULL;
  }
  strbuf p = {0};
  ob_form(&p, "grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer");
  ob_form(&p, "assertion", jag);
  char error[64];
  ret = token_request(f, m, c, &p, t, error, sizeof error);
  sb_free(&p);
out:
  cJSON_Delete(idp);
  free(tep);
  free(iss);
  free(idt);
  free(jag);
  return ret;
}

static char *pick_scope(oauth_flow *f, const oauth_meta *m) {
  char *s;
  if (f->sv.scopes) {
    s = oauth_strdup(f->sv.scopes);
  } else if (f->status == 403) {
    s = scope_union(f->step_scope, f->ch_scope);
  } else if (f->ch_scope) {
    s = oauth_strdup(f->ch_scope);
  } else {
    s = oauth_strdup(m->prm_scopes);
  }
  /* SEP-2207: offline_access only when the AS lists it; our registration
   * always asks for the refresh_token grant. */
  bool code = strcmp(f->sv.grant, "authorization_code") == 0 && !f->sv.xaa;
  if (code && m->offline_access && !oauth_has_scope(s, "offline_access", 14)) {
    char *u = scope_union(s, "offline_access");
    free(s);
    s = u;
  }
  return s;
}

typedef struct forget_ctx {
  oauth_flow *f;
  const char *issuer;
} forget_ctx;

static int forget_fn(cJSON *doc, void *ud) {
  forget_ctx *c = ud;
  cJSON *e = store_entry(doc, c->f->sv.key, false);
  cJSON *cl = e ? cJSON_GetObjectItemCaseSensitive(e, "clients") : NULL;
  if (!cl || !cJSON_GetObjectItemCaseSensitive(cl, c->issuer)) {
    return 0;
  }
  cJSON_DeleteItemFromObjectCaseSensitive(cl, c->issuer);
  return 1;
}

static void forget_registration(oauth_flow *f, const char *issuer) {
  forget_ctx c = {f, issuer};
  char why[512];
  store_failed(f, store_update(&f->st, forget_fn, &c, why, sizeof why), why);
}

/* What a completed grant stores, in one update. */
typedef struct save_ctx {
  oauth_flow *f;
  const oauth_meta *m;
  const oauth_client *c;
  const oauth_tokens *t;
  cJSON *regs;
  const char *scope;
} save_ctx;

static int save_fn(cJSON *doc, void *ud) {
  save_ctx *x = ud;
  oauth_flow *f = x->f;
  cJSON *e = store_entry(doc, f->sv.key, true);
  if (!e) {
    snprintf(f->message, sizeof f->message, "%s: no mcpOAuth object",
             f->st.path);
    return -1;
  }
  put_str(e, "serverName", f->sv.name);
  put_str(e, "serverUrl", f->sv.url);
  put_str(e, "issuer", x->m->issuer);
  put_str(e, "resource", x->m->resource);
  put_str(e, "tokenEndpoint", x->m->token_endpoint);
  put_str(e, "revocationEndpoint", x->m->revocation_endpoint);
  put_str(e, "clientId", x->c->id);
  put_str(e, "clientSecret", x->c->secret);
  put_str(e, "clientMethod", pick_auth_method(x->m, x->c));
  put_str(e, "clientKind", x->c->kind);
  cJSON *rc = cJSON_GetObjectItemCaseSensitive(x->regs, "clients");
  if (rc) {
    cJSON_DeleteItemFromObjectCaseSensitive(e, "clients");
    cJSON_AddItemToObject(e, "clients", cJSON_Duplicate(rc, true));
  }
  drop_tokens(e);
  put_tokens(e, x->t, x->scope);
  return 1;
}

/* 0: tokens stored; -1: failed (f->message); -2: the registration was
 * refused (invalid_client) and forgotten: worth one more try. */
static int full_flow(oauth_flow *f) {
  oauth_meta m;
  oauth_client c = {0};
  oauth_tokens t = {0};
  char *code = NULL, *verifier = NULL, *scope = NULL;
  cJSON *regs = cJSON_CreateObject(); /* registrations made here */
  cJSON *doc = NULL;
  char why[512];
  int listen_fd = -1, ret = -1;
  char error[64] = "";
  bool cc = strcmp(f->sv.grant, "client_credentials") == 0;
  bool person = !cc && !f->sv.xaa;
  m = (oauth_meta){0};
  if (person && f->browser != BROWSER_FOLLOW && !f->interactive) {
    /* Before any request: nobody could finish what it would start. */
    snprintf(f->message, sizeof f->message,
             "server \"%s\" is not authorized yet; run `mcphost mcp login "
             "%s`",
             f->sv.name, f->sv.name);
    if (f->at_connect) {
      needs_auth_mark(&f->st, f->sv.key, true); /* Claude Code's rule */
    }
    goto out;
  }
  if (discover(f, &m) != 0) {
    goto out;
  }
  scope = pick_scope(f, &m);
  free(f->scope);
  f->scope = oauth_strdup(scope);
  /* The registrations kept so far, to reuse one. */
  doc = store_read(&f->st, why, sizeof why);
  if (!doc) {
    snprintf(f->message, sizeof f->message, "%s", why);
    goto out;
  }
  cJSON *kept = store_entry(doc, f->sv.key, false);
  cJSON *kc = kept ? cJSON_GetObjectItemCaseSensitive(kept, "clients") : NULL;
  if (kc) {
    cJSON_AddItemToObject(regs, "clients", cJSON_Duplicate(kc, true));
  }
  cJSON_Delete(doc);
  doc = NULL;
  int port = f->sv.callback_port;
  if (person) {
    listen_fd = callback_listen(f, port, &port);
    if (listen_fd < 0) {
      goto out;
    }
  }
  if (client_identity(f, &m, regs, scope, port, &c) != 0) {
    goto out;
  }
  strbuf p = {0};
  if (cc) {
    ob_form(&p, "grant_type", "client_credentials");
    ob_form(&p, "resource", m.resource);
    if (scope) {
      ob_form(&p, "scope", scope);
    }
    ret = token_request(f, &m, &c, &p, &t, error, sizeof error);
  } else if (f->sv.xaa) {
    ret = xaa(f, &m, &c, scope, &t);
  } else if (authorize(f, &m, &c, scope, listen_fd, &code, &verifier) == 0) {
    ob_form(&p, "grant_type", "authorization_code");
    ob_form(&p, "code", code);
    ob_form(&p, "redirect_uri", c.redirect_uri);
    ob_form(&p, "code_verifier", verifier);
    ob_form(&p, "resource", m.resource);
    ret = token_request(f, &m, &c, &p, &t, error, sizeof error);
  }
  sb_free(&p);
  bool dcr = c.kind && strcmp(c.kind, "dcr") == 0;
  if (ret != 0 && dcr &&
      (strcmp(error, "invalid_client") == 0 ||
       strcmp(error, "unauthorized_client") == 0)) {
    /* The server forgot our registration: register anew, once. */
    forget_registration(f, m.issuer);
    ret = -2;
  }
  if (ret != 0) {
    goto out;
  }
  save_ctx sc = {f, &m, &c, &t, regs, scope};
  int src = store_update(&f->st, save_fn, &sc, why, sizeof why);
  store_failed(f, src, why);
  ret = src == 0 ? 0 : -1;
  if (ret == 0) {
    f->token = oauth_strdup(t.access); /* stored before it is used */
    needs_auth_mark(&f->st, f->sv.key, false);
  }
out:
  if (listen_fd >= 0) {
    close(listen_fd);
  }
  cJSON_Delete(doc);
  cJSON_Delete(regs);
  meta_free(&m);
  client_free(&c);
  tokens_free(&t);
  free(code);
  free(verifier);
  free(scope);
  return ret;
}

void flow_run(oauth_flow *f) {
  f->rc = MCPH_EAUTH;
  if (f->idp_only) {
    f->rc = idp_login(f) == 0 ? MCPH_OK : MCPH_EAUTH;
    return;
  }
  int got = f->kind == FLOW_LOGIN ? 0 : stored_or_refreshed(f);
  if (got == 1) {
    f->rc = MCPH_OK;
    return;
  }
  if (got < 0 || f->kind == FLOW_REFRESH) {
    return;
  }
  int rc = full_flow(f);
  if (rc == -2) {
    rc = full_flow(f);
  }
  if (rc == 0) {
    f->rc = MCPH_OK;
  }
}

void flow_free(oauth_flow *f) {
  oauth_server_free(&f->sv);
  free(f->st.path);
  free(f->ch_scope);
  free(f->ch_error);
  free(f->ch_resource_metadata);
  free(f->sent_token);
  free(f->step_scope);
  free(f->xaa_idp);
  free(f->protocol_version);
  free(f->token);
  free(f->scope);
  free(f);
}
