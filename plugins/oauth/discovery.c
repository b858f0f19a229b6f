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

#include "flow.h"
#include "meta.h"

/* MCP-Protocol-Version on discovery when no session said which it uses
 * (mcp login): the newest the host speaks at initialize. */
#define PROTOCOL_VERSION "2025-11-25"

/* The server URL without fragment and trailing '/'. */
static char *canonical(const char *url) {
  size_t n = strcspn(url, "#");
  while (n && url[n - 1] == '/') {
    n--;
  }
  return oauth_strndup(url, n);
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

static int find_prm(oauth_flow *f, const char *o, const char *p, const char *q,
                    cJSON **prm) {
  char *cand[3] = {0};
  int n = 0;
  if (f->ch_resource_metadata) {
    cand[n++] = oauth_strdup(f->ch_resource_metadata);
  } else {
    strbuf b = {0};
    if (*p) {
      sb_printf(&b, "%s/.well-known/oauth-protected-resource%s%s", o, p, q);
      cand[n++] = b.data;
      b = (strbuf){0};
    }
    sb_printf(&b, "%s/.well-known/oauth-protected-resource", o);
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
  if (meta_split_url(as_url, &ao, &ap, &aq) != 0) {
    snprintf(f->message, sizeof f->message,
             "discovery: the authorization server URL %s is not a URL", as_url);
    return -1;
  }
  char *cand[3] = {0};
  int n = 0;
  strbuf b = {0};
  if (*ap) {
    sb_printf(&b, "%s/.well-known/oauth-authorization-server%s", ao, ap);
    cand[n++] = b.data, b = (strbuf){0};
    sb_printf(&b, "%s/.well-known/openid-configuration%s", ao, ap);
    cand[n++] = b.data, b = (strbuf){0};
    sb_printf(&b, "%s%s/.well-known/openid-configuration", ao, ap);
    cand[n++] = b.data, b = (strbuf){0};
  } else {
    sb_printf(&b, "%s/.well-known/oauth-authorization-server", ao);
    cand[n++] = b.data, b = (strbuf){0};
    sb_printf(&b, "%s/.well-known/openid-configuration", ao);
    cand[n++] = b.data, b = (strbuf){0};
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

int discover(oauth_flow *f, oauth_meta *m) {
  *m = (oauth_meta){0};
  char *o = NULL, *p = NULL, *q = NULL, *as_url = NULL;
  cJSON *prm = NULL;
  int ret = -1;
  if (meta_split_url(f->sv.url, &o, &p, &q) != 0) {
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
    if (meta_read_prm(prm, f->sv.url, m, &as_url, f->message,
                      sizeof f->message) != 0) {
      goto out;
    }
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
  meta_checks k = {.explicit_as = f->sv.as_metadata_url != NULL,
                   .grant = f->sv.grant,
                   .xaa = f->sv.xaa};
  if (meta_read_as(m, as_url, &k, f->message, sizeof f->message) != 0) {
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
      meta_split_url(f->sv.url, &o, &p, &q) != 0) {
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

int discover_oidc(oauth_flow *f, const char *issuer, bool login,
                  oauth_meta *m) {
  *m = (oauth_meta){0};
  if (!oauth_url_secure(issuer)) {
    snprintf(f->message, sizeof f->message,
             "xaaIdp.issuer %.200s is not https (nor loopback http): "
             "refused",
             issuer);
    return -1;
  }
  /* OpenID Connect Discovery 1.0 §4: the well-known path appended to
   * the issuer, path and all. */
  size_t n = strlen(issuer);
  while (n && issuer[n - 1] == '/') {
    n--;
  }
  strbuf u = {0};
  sb_printf(&u, "%.*s/.well-known/openid-configuration", (int)n, issuer);
  int got = fetch_doc(f, sb_str(&u), false, &m->as);
  if (got == 0) {
    snprintf(f->message, sizeof f->message,
             "the identity provider has no %.300s (OpenID Connect "
             "Discovery)",
             sb_str(&u));
  }
  sb_free(&u);
  if (got != 1) {
    return -1;
  }
  return meta_read_oidc(m, issuer, login, f->message, sizeof f->message);
}
