/* Fuzz target: the OAuth metadata readers (plugins/oauth/meta.h). The
 * first byte picks the document and the server it is for; the rest is
 * the document's JSON.
 *  PRM (bit 0 clear): accepted only for a resource of the server's own
 *    origin whose path is a prefix of the server's, with an authorization
 *    server URL; the scopes are the non-empty ones listed; a refusal
 *    says why.
 *  AS metadata (bit 0 set; bit 1: legacy, bit 2: an explicit metadata
 *    URL, bit 3: cross-app access; not an object: no metadata): accepted
 *    only with an issuer that is the AS's (unless legacy or explicit), a
 *    token endpoint that is https or loopback http, and S256 offered to
 *    an authorization code flow that needs PKCE. Nothing leaks. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_json.h"
#include "meta.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static const char *const servers[] = {
    "https://mcp.example.com/mcp",
    "http://127.0.0.1:8080/",
    "wss://h.example/ws/?x=1",
    "https://a.example/tenant/one/mcp#frag",
};

static void prm(const cJSON *doc, const char *server, size_t len) {
  oauth_meta m = {0};
  char *as_url = NULL, msg[1024] = "";
  int rc = meta_read_prm(doc, server, &m, &as_url, msg, sizeof msg);
  if (rc != 0) {
    if (!msg[0] || as_url) {
      abort();
    }
    meta_free(&m);
    return;
  }
  char *so, *sp, *sq, *ro, *rp, *rq;
  if (!m.resource || !as_url || meta_split_url(server, &so, &sp, &sq) != 0) {
    abort();
  }
  if (meta_split_url(m.resource, &ro, &rp, &rq) != 0 || strcmp(so, ro) != 0 ||
      strncmp(sp, rp, strlen(rp)) != 0) {
    abort();
  }
  /* The scopes: the non-empty strings of scopes_supported, one space
   * between two. */
  char *want = calloc(1, len + 1);
  const cJSON *it;
  cJSON_ArrayForEach(
      it, cJSON_GetObjectItemCaseSensitive(doc, "scopes_supported")) {
    if (cJSON_IsString(it) && it->valuestring[0]) {
      strcat(strcat(want, want[0] ? " " : ""), it->valuestring);
    }
  }
  if (strcmp(m.prm_scopes ? m.prm_scopes : "", want) != 0) {
    abort();
  }
  free(want);
  free(so), free(sp), free(sq), free(ro), free(rp), free(rq);
  free(as_url);
  meta_free(&m);
}

static void as(cJSON *doc, const char *as_url, unsigned flags) {
  oauth_meta m = {.as = cJSON_IsObject(doc) ? doc : NULL, .legacy = flags & 2};
  if (!m.as) {
    cJSON_Delete(doc);
  }
  meta_checks k = {.explicit_as = flags & 4,
                   .grant =
                       flags & 16 ? "client_credentials" : "authorization_code",
                   .xaa = flags & 8};
  char msg[1024] = "";
  int rc = meta_read_as(&m, as_url, &k, msg, sizeof msg);
  if (rc != 0) {
    if (!msg[0]) {
      abort();
    }
    meta_free(&m);
    return;
  }
  if (!m.issuer || !m.token_endpoint || !oauth_url_secure(m.token_endpoint)) {
    abort();
  }
  if (m.as && !m.legacy && !k.explicit_as && !same_issuer(m.issuer, as_url)) {
    abort();
  }
  const cJSON *g =
      m.as ? cJSON_GetObjectItemCaseSensitive(m.as, "grant_types_supported")
           : NULL;
  bool code =
      !cJSON_IsArray(g) ||
      fuzz_json_lists(m.as, "grant_types_supported", "authorization_code");
  if (m.as && !m.legacy && !k.xaa &&
      strcmp(k.grant, "authorization_code") == 0 && code &&
      !fuzz_json_lists(m.as, "code_challenge_methods_supported", "S256")) {
    abort();
  }
  meta_free(&m);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  unsigned flags = data[0];
  const char *server = servers[(flags >> 5) % 4];
  cJSON *doc = cJSON_ParseWithLength((const char *)data + 1, len - 1);
  if (flags & 1) {
    as(doc, server, flags);
    return 0;
  }
  if (cJSON_IsObject(doc)) {
    prm(doc, server, len);
  }
  cJSON_Delete(doc);
  return 0;
}
