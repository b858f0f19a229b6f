/* Reading what discovery fetched (discovery.c) and what the token
 * endpoint answered (grant.c), without any network: meta.h. */
#include "meta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

/* The longest expires_in taken, in seconds. */
#define MAX_EXPIRES_IN (100.0 * 365 * 24 * 3600)

/* The origin ("http://h:p") and path without a trailing '/' of `url`, and
 * its query ("?a=b" or ""). 0 or -1. The origin of a WebSocket URL is its
 * HTTP one (ws: http, wss: https): the well-known documents of a ws server
 * are fetched over HTTP from the same host, and a resource named by either
 * scheme is the same origin. */
int meta_split_url(const char *url, char **origin, char **path, char **query) {
  CURLU *u = curl_url();
  char *full = NULL, *p = NULL, *q = NULL;
  int ret = -1;
  char *scheme = NULL;
  if (!u ||
      curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) !=
          CURLUE_OK ||
      curl_url_get(u, CURLUPART_PATH, &p, 0) != CURLUE_OK ||
      curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK) {
    goto out;
  }
  if (strcmp(scheme, "ws") == 0 || strcmp(scheme, "wss") == 0) {
    curl_url_set(u, CURLUPART_SCHEME, scheme[2] ? "https" : "http",
                 CURLU_NON_SUPPORT_SCHEME);
  }
  curl_url_get(u, CURLUPART_QUERY, &q, 0);
  curl_url_set(u, CURLUPART_PATH, "/", 0);
  curl_url_set(u, CURLUPART_QUERY, NULL, 0);
  curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0);
  if (curl_url_get(u, CURLUPART_URL, &full, 0) != CURLUE_OK) {
    goto out;
  }
  size_t n = strlen(full);
  *origin = oauth_strndup(full, n && full[n - 1] == '/' ? n - 1 : n);
  n = strlen(p);
  while (n && p[n - 1] == '/') {
    n--;
  }
  *path = oauth_strndup(p, n);
  strbuf qb = {0};
  if (q && *q) {
    sb_printf(&qb, "?%s", q);
  }
  *query = qb.data ? qb.data : oauth_strdup("");
  ret = 0;
out:
  curl_free(full);
  curl_free(scheme);
  curl_free(p);
  curl_free(q);
  curl_url_cleanup(u);
  return ret;
}

static char *join_array(const cJSON *a) {
  strbuf b = {0};
  const cJSON *it;
  cJSON_ArrayForEach(it, a) {
    if (cJSON_IsString(it) && it->valuestring[0]) {
      if (b.len) {
        sb_adds(&b, " ");
      }
      sb_adds(&b, it->valuestring);
    }
  }
  return b.data;
}

bool meta_lists(const oauth_meta *m, const char *field, const char *value,
                bool absent_ok) {
  const cJSON *a =
      m->as ? cJSON_GetObjectItemCaseSensitive(m->as, field) : NULL;
  if (!cJSON_IsArray(a)) {
    return absent_ok;
  }
  const cJSON *it;
  cJSON_ArrayForEach(it, a) {
    if (cJSON_IsString(it) && strcmp(it->valuestring, value) == 0) {
      return true;
    }
  }
  return false;
}

/* RFC 8707 resource check (TS SDK checkResourceAllowed): same origin, and
 * the server's path starts with the resource's path. */
static bool resource_allowed(const char *server, const char *resource) {
  char *so = NULL, *sp = NULL, *sq = NULL, *ro = NULL, *rp = NULL, *rq = NULL;
  bool ok = false;
  if (meta_split_url(server, &so, &sp, &sq) == 0 &&
      meta_split_url(resource, &ro, &rp, &rq) == 0 && strcmp(so, ro) == 0) {
    size_t n = strlen(rp);
    ok = strncmp(sp, rp, n) == 0 && (sp[n] == '\0' || sp[n] == '/');
  }
  free(so);
  free(sp);
  free(sq);
  free(ro);
  free(rp);
  free(rq);
  return ok;
}

bool same_issuer(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la && a[la - 1] == '/') {
    la--;
  }
  if (lb && b[lb - 1] == '/') {
    lb--;
  }
  return la == lb && strncmp(a, b, la) == 0;
}

static char *endpoint(const cJSON *as, const char *k, const char *base,
                      const char *def) {
  char *v = oauth_json_str(as, k);
  if (v || !def) {
    return v;
  }
  strbuf b = {0};
  sb_printf(&b, "%s%s", base, def);
  return b.data;
}

int meta_read_prm(const cJSON *prm, const char *server_url, oauth_meta *m,
                  char **as_url, char *msg, size_t n) {
  m->resource = oauth_json_str(prm, "resource");
  if (!m->resource) {
    snprintf(msg, n, "the protected resource metadata has no \"resource\"");
    return -1;
  }
  if (!resource_allowed(server_url, m->resource)) {
    snprintf(msg, n,
             "the protected resource metadata is for another resource "
             "(\"resource\" is not this server's URL): refused before "
             "any authorization request");
    return -1;
  }
  const cJSON *list =
      cJSON_GetObjectItemCaseSensitive(prm, "authorization_servers");
  const cJSON *first = cJSON_IsArray(list) ? cJSON_GetArrayItem(list, 0) : NULL;
  if (cJSON_IsString(first)) {
    *as_url = oauth_strdup(first->valuestring);
  } else {
    char *o = NULL, *p = NULL, *q = NULL;
    if (meta_split_url(server_url, &o, &p, &q) != 0) {
      snprintf(msg, n, "the server URL is not a URL");
      return -1;
    }
    *as_url = o;
    free(p);
    free(q);
  }
  m->prm_scopes =
      join_array(cJSON_GetObjectItemCaseSensitive(prm, "scopes_supported"));
  return 0;
}

int meta_read_as(oauth_meta *m, const char *as_url, const meta_checks *k,
                 char *msg, size_t n) {
  if (m->as) {
    m->issuer = oauth_json_str(m->as, "issuer");
    /* RFC 8414 §3.3; not in legacy mode, where conformance 0.1.16's
     * backcompat fixture has another issuer (reference oauth.md §9). */
    if (!m->legacy && !k->explicit_as &&
        (!m->issuer || !same_issuer(m->issuer, as_url))) {
      snprintf(msg, n,
               "the authorization server metadata's issuer is not %s, the "
               "server it was fetched for: refused (RFC 8414 §3.3)",
               as_url);
      return -1;
    }
    if (!m->legacy &&
        !meta_lists(m, "code_challenge_methods_supported", "S256", false)) {
      const cJSON *g =
          cJSON_GetObjectItemCaseSensitive(m->as, "grant_types_supported");
      bool code = !cJSON_IsArray(g) || meta_lists(m, "grant_types_supported",
                                                  "authorization_code", true);
      if (code && strcmp(k->grant, "authorization_code") == 0 && !k->xaa) {
        snprintf(msg, n,
                 "the authorization server %s does not offer PKCE with "
                 "S256 (code_challenge_methods_supported): refused",
                 as_url);
        return -1;
      }
    }
    m->cimd = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        m->as, "client_id_metadata_document_supported"));
    m->iss_supported = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        m->as, "authorization_response_iss_parameter_supported"));
    m->offline_access =
        meta_lists(m, "scopes_supported", "offline_access", false);
  }
  if (!m->issuer) {
    m->issuer = oauth_strdup(as_url);
  }
  /* Without metadata, the default endpoints relative to the AS. */
  char *ao = NULL, *ap = NULL, *aq = NULL;
  meta_split_url(as_url, &ao, &ap, &aq);
  const char *base = ao ? ao : as_url;
  m->authorization_endpoint = endpoint(m->as, "authorization_endpoint", base,
                                       m->as ? NULL : "/authorize");
  m->token_endpoint =
      endpoint(m->as, "token_endpoint", base, m->as ? NULL : "/token");
  m->registration_endpoint = endpoint(m->as, "registration_endpoint", base,
                                      m->as ? NULL : "/register");
  m->revocation_endpoint = endpoint(m->as, "revocation_endpoint", base, NULL);
  free(ao);
  free(ap);
  free(aq);
  if (!m->token_endpoint) {
    snprintf(msg, n,
             "the authorization server metadata names no token_endpoint");
    return -1;
  }
  if (!oauth_url_secure(m->token_endpoint)) {
    snprintf(msg, n,
             "the token endpoint is not https (nor loopback http): refused");
    return -1;
  }
  return 0;
}

int meta_read_oidc(oauth_meta *m, const char *issuer, bool login, char *msg,
                   size_t n) {
  meta_checks k = {.grant = "authorization_code", .xaa = !login};
  return meta_read_as(m, issuer, &k, msg, n);
}

void tokens_free(oauth_tokens *t) {
  free(t->access);
  free(t->refresh);
  free(t->scope);
  free(t->id_token);
  *t = (oauth_tokens){0};
}

void meta_free(oauth_meta *m) {
  free(m->resource);
  free(m->issuer);
  free(m->authorization_endpoint);
  free(m->token_endpoint);
  free(m->registration_endpoint);
  free(m->revocation_endpoint);
  free(m->prm_scopes);
  cJSON_Delete(m->as);
  *m = (oauth_meta){0};
}

int token_response_read(long status, const cJSON *j, oauth_tokens *tok,
                        char *error, size_t error_len, char *msg, size_t n) {
  *tok = (oauth_tokens){0};
  error[0] = '\0';
  char *err = j ? oauth_json_str(j, "error") : NULL;
  tok->access = j ? oauth_json_str(j, "access_token") : NULL;
  if (status != 200 || !tok->access) {
    if (err) {
      /* Slack's names of a dead refresh token. */
      const char *e = strcmp(err, "invalid_refresh_token") == 0 ||
                              strcmp(err, "expired_refresh_token") == 0 ||
                              strcmp(err, "token_expired") == 0
                          ? "invalid_grant"
                          : err;
      snprintf(error, error_len, "%s", e);
      /* error_description may echo what was sent: not shown. */
      snprintf(msg, n, "the token endpoint answered HTTP %ld, error \"%.64s\"",
               status, e);
    } else {
      snprintf(msg, n,
               "the token endpoint answered HTTP %ld without an access token",
               status);
    }
    free(err);
    goto bad;
  }
  free(err);
  const cJSON *tt = cJSON_GetObjectItemCaseSensitive(j, "token_type");
  if (cJSON_IsString(tt) && strcasecmp(tt->valuestring, "bearer") != 0 &&
      strcasecmp(tt->valuestring, "N_A") != 0) {
    snprintf(msg, n,
             "the token endpoint gave a token of type \"%.32s\", not Bearer",
             tt->valuestring);
    goto bad;
  }
  tok->refresh = oauth_json_str(j, "refresh_token");
  tok->scope = oauth_json_str(j, "scope");
  tok->id_token = oauth_json_str(j, "id_token");
  const cJSON *ei = cJSON_GetObjectItemCaseSensitive(j, "expires_in");
  double secs = cJSON_IsNumber(ei)   ? ei->valuedouble
                : cJSON_IsString(ei) ? strtod(ei->valuestring, NULL)
                                     : 0;
  if (secs > 0) {
    /* A century is forever here; more (1e300) would overflow. */
    if (secs > MAX_EXPIRES_IN) {
      secs = MAX_EXPIRES_IN;
    }
    tok->issued_at = oauth_now_ms();
    tok->expires_at = tok->issued_at + (int64_t)(secs * 1000);
  }
  return 0;
bad:
  tokens_free(tok);
  return -1;
}
