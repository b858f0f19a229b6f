/* Discovery (reference oauth.md §1 steps 3-5): the protected resource
 * metadata (RFC 9728) from the challenge's resource_metadata, else the
 * path-based then the root well-known URL; its resource must be the
 * server's; then the authorization server's metadata (RFC 8414, then
 * OpenID Connect Discovery, path-aware), whose issuer must be the one it
 * was found for and which must offer S256. A server without any PRM is a
 * 2025-03-26 server: its origin is the authorization server, with the
 * default endpoints when it has no metadata either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "flow.h"

/* MCP-Protocol-Version on discovery when no session said which it uses
 * (mcp login): the newest the host speaks at initialize. */
#define PROTOCOL_VERSION "2025-11-25"

/* The origin ("http://h:p") and path without a trailing '/' of `url`, and
 * its query ("?a=b" or ""). 0 or -1. The origin of a WebSocket URL is its
 * HTTP one (ws: http, wss: https): the well-known documents of a ws server
 * are fetched over HTTP from the same host, and a resource named by either
 * scheme is the same origin. */
static int split_url(const char *url, char **origin, char **path,
                     char **query) {
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
  obuf qb = {0};
  if (q && *q) {
    ob_printf(&qb, "?%s", q);
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
  obuf b = {0};
  const cJSON *it;
  cJSON_ArrayForEach(it, a) {
    if (cJSON_IsString(it) && it->valuestring[0]) {
      if (b.len) {
        ob_puts(&b, " ");
      }
      ob_puts(&b, it->valuestring);
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

/* GET a metadata document. 1: found (*doc set); 0: a 4xx (or 502, as the
 * TS SDK: try the next); -1: an error (f->message). */
static int fetch_doc(oauth_flow *f, const char *url, bool next_on_502,
                     cJSON **doc) {
  oauth_req rq = {.method = "GET",
                  .url = url,
                  .protocol_version = f->protocol_version ? f->protocol_version
                                                          : PROTOCOL_VERSION,
                  .deadline_ms = f->deadline_ms};
  oauth_resp r;
  char why[512];
  if (oauth_http(&rq, &r, why, sizeof why) != 0) {
    snprintf(f->message, sizeof f->message, "discovery: %s", why);
    return -1;
  }
  int ret;
  if (r.status >= 200 && r.status < 300) {
    *doc = oauth_resp_json(&r);
    ret = 1;
    if (!*doc) {
      snprintf(f->message, sizeof f->message,
               "discovery: %s did not answer a JSON object", url);
      ret = -1;
    }
  } else if ((r.status >= 400 && r.status < 500) ||
             (next_on_502 && r.status == 502)) {
    ret = 0;
  } else {
    snprintf(f->message, sizeof f->message, "discovery: %s answered HTTP %ld",
             url, r.status);
    ret = -1;
  }
  oauth_resp_free(&r);
  return ret;
}

/* RFC 8707 resource check (TS SDK checkResourceAllowed): same origin, and
 * the server's path starts with the resource's path. */
static bool resource_allowed(const char *server, const char *resource) {
  char *so = NULL, *sp = NULL, *sq = NULL, *ro = NULL, *rp = NULL, *rq = NULL;
  bool ok = false;
  if (split_url(server, &so, &sp, &sq) == 0 &&
      split_url(resource, &ro, &rp, &rq) == 0 && strcmp(so, ro) == 0) {
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

/* The server URL without fragment and trailing '/'. */
static char *canonical(const char *url) {
  size_t n = strcspn(url, "#");
  while (n && url[n - 1] == '/') {
    n--;
  }
  return oauth_strndup(url, n);
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

static int find_prm(oauth_flow *f, const char *o, const char *p, const char *q,
                    cJSON **prm) {
  char *cand[3] = {0};
  int n = 0;
  if (f->ch_resource_metadata) {
    cand[n++] = oauth_strdup(f->ch_resource_metadata);
  } else {
    obuf b = {0};
    if (*p) {
      ob_printf(&b, "%s/.well-known/oauth-protected-resource%s%s", o, p, q);
      cand[n++] = b.data;
      b = (obuf){0};
    }
    ob_printf(&b, "%s/.well-known/oauth-protected-resource", o);
    cand[n++] = b.data;
  }
  int got = 0;
  for (int i = 0; i < n && got == 0; i++) {
    got = fetch_doc(f, cand[i], false, prm);
  }
  for (int i = 0; i < n; i++) {
    free(cand[i]);
  }
  return got;
}

static int find_as(oauth_flow *f, const char *as_url, cJSON **doc) {
  if (f->sv.as_metadata_url) {
    return fetch_doc(f, f->sv.as_metadata_url, false, doc);
  }
  char *ao = NULL, *ap = NULL, *aq = NULL;
  if (split_url(as_url, &ao, &ap, &aq) != 0) {
    snprintf(f->message, sizeof f->message,
             "discovery: the authorization server URL %s is not a URL", as_url);
    return -1;
  }
  char *cand[3] = {0};
  int n = 0;
  obuf b = {0};
  if (*ap) {
    ob_printf(&b, "%s/.well-known/oauth-authorization-server%s", ao, ap);
    cand[n++] = b.data, b = (obuf){0};
    ob_printf(&b, "%s/.well-known/openid-configuration%s", ao, ap);
    cand[n++] = b.data, b = (obuf){0};
    ob_printf(&b, "%s%s/.well-known/openid-configuration", ao, ap);
    cand[n++] = b.data, b = (obuf){0};
  } else {
    ob_printf(&b, "%s/.well-known/oauth-authorization-server", ao);
    cand[n++] = b.data, b = (obuf){0};
    ob_printf(&b, "%s/.well-known/openid-configuration", ao);
    cand[n++] = b.data, b = (obuf){0};
  }
  int got = 0;
  for (int i = 0; i < n && got == 0; i++) {
    got = fetch_doc(f, cand[i], true, doc);
  }
  for (int i = 0; i < n; i++) {
    free(cand[i]);
  }
  free(ao);
  free(ap);
  free(aq);
  return got;
}

static char *endpoint(const cJSON *as, const char *k, const char *base,
                      const char *def) {
  char *v = oauth_json_str(as, k);
  if (v || !def) {
    return v;
  }
  obuf b = {0};
  ob_printf(&b, "%s%s", base, def);
  return b.data;
}

int discover(oauth_flow *f, oauth_meta *m) {
  *m = (oauth_meta){0};
  char *o = NULL, *p = NULL, *q = NULL, *as_url = NULL;
  cJSON *prm = NULL;
  int ret = -1;
  if (split_url(f->sv.url, &o, &p, &q) != 0) {
    snprintf(f->message, sizeof f->message, "the server URL is not a URL");
    goto out;
  }
  int got = find_prm(f, o, p, q, &prm);
  if (got < 0) {
    goto out;
  }
  if (got == 0) {
    /* No PRM anywhere: a 2025-03-26 server, its origin the AS. */
    m->legacy = true;
    m->resource = canonical(f->sv.url);
    as_url = oauth_strdup(o);
  } else {
    m->resource = oauth_json_str(prm, "resource");
    if (!m->resource) {
      snprintf(f->message, sizeof f->message,
               "the protected resource metadata has no \"resource\"");
      goto out;
    }
    if (!resource_allowed(f->sv.url, m->resource)) {
      snprintf(f->message, sizeof f->message,
               "the protected resource metadata is for another resource "
               "(\"resource\" is not this server's URL): refused before "
               "any authorization request");
      goto out;
    }
    const cJSON *list =
        cJSON_GetObjectItemCaseSensitive(prm, "authorization_servers");
    const cJSON *first =
        cJSON_IsArray(list) ? cJSON_GetArrayItem(list, 0) : NULL;
    as_url = cJSON_IsString(first) ? oauth_strdup(first->valuestring)
                                   : oauth_strdup(o);
    m->prm_scopes =
        join_array(cJSON_GetObjectItemCaseSensitive(prm, "scopes_supported"));
  }
  got = find_as(f, as_url, &m->as);
  if (got < 0) {
    goto out;
  }
  if (got == 0 && !m->legacy && f->sv.as_metadata_url) {
    snprintf(f->message, sizeof f->message,
             "oauth.authServerMetadataUrl: no metadata there");
    goto out;
  }
  if (m->as) {
    m->issuer = oauth_json_str(m->as, "issuer");
    /* RFC 8414 §3.3; not in legacy mode, where conformance 0.1.16's
     * backcompat fixture has another issuer (reference oauth.md §9). */
    if (!m->legacy && !f->sv.as_metadata_url &&
        (!m->issuer || !same_issuer(m->issuer, as_url))) {
      snprintf(f->message, sizeof f->message,
               "the authorization server metadata's issuer is not %s, the "
               "server it was fetched for: refused (RFC 8414 §3.3)",
               as_url);
      goto out;
    }
    if (!m->legacy &&
        !meta_lists(m, "code_challenge_methods_supported", "S256", false)) {
      const cJSON *g =
          cJSON_GetObjectItemCaseSensitive(m->as, "grant_types_supported");
      bool code = !cJSON_IsArray(g) || meta_lists(m, "grant_types_supported",
                                                  "authorization_code", true);
      if (code && strcmp(f->sv.grant, "authorization_code") == 0 &&
          !f->sv.xaa) {
        snprintf(f->message, sizeof f->message,
                 "the authorization server %s does not offer PKCE with "
                 "S256 (code_challenge_methods_supported): refused",
                 as_url);
        goto out;
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
  split_url(as_url, &ao, &ap, &aq);
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
    snprintf(f->message, sizeof f->message,
             "the authorization server metadata names no token_endpoint");
    goto out;
  }
  if (!oauth_url_secure(m->token_endpoint)) {
    snprintf(f->message, sizeof f->message,
             "the token endpoint is not https (nor loopback http): refused");
    goto out;
  }
  ret = 0;
out:
  cJSON_Delete(prm);
  free(o);
  free(p);
  free(q);
  free(as_url);
  return ret;
}

bool discover_as_moved(oauth_flow *f, const char *issuer) {
  char *o = NULL, *p = NULL, *q = NULL;
  cJSON *prm = NULL;
  bool moved = false;
  if (!issuer || f->sv.as_metadata_url ||
      split_url(f->sv.url, &o, &p, &q) != 0) {
    goto out;
  }
  if (find_prm(f, o, p, q, &prm) == 1) {
    const cJSON *list =
        cJSON_GetObjectItemCaseSensitive(prm, "authorization_servers");
    const cJSON *first =
        cJSON_IsArray(list) ? cJSON_GetArrayItem(list, 0) : NULL;
    moved = cJSON_IsString(first) && !same_issuer(first->valuestring, issuer);
  }
  f->message[0] = '\0'; /* a failed look is no failure of the flow */
out:
  cJSON_Delete(prm);
  free(o);
  free(p);
  free(q);
  return moved;
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
