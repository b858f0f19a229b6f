/* Fuzz target: what cross-app access's login reads from the identity
 * provider (plugins/oauth/idp.c): the OpenID Connect discovery document
 * (meta_read_oidc) and the ID token's times (oauth_jwt_times,
 * oauth_jwt_entry_times). The first byte picks the case:
 *  bits 0-1 = 0: the rest is the discovery document, for one of four
 *    issuers (bits 2-3), for a login (bit 4) or a token exchange. It is
 *    taken only with that issuer (up to a trailing '/'), the very token
 *    endpoint it names, https or loopback http, S256 listed for a login
 *    whose IdP does the code flow; offline_access is offered exactly
 *    when scopes_supported lists it. A refusal names the field at fault.
 *  bits 0-1 = 1: the rest is an ID token's claims, made into a JWT: it
 *    is read exactly when the claims are a JSON object; exp and iat are
 *    the claims' seconds in ms when in (0, 1e11), else 0; the stored
 *    entry gets expiresAt = exp, and issuedAt the iat when before exp,
 *    else the clock, never after a live token's expiry; without an exp
 *    the entry keeps its times.
 *  else: the rest is any text taken as an ID token: read only when it
 *    is three '.'-separated parts, the first not empty; the times in
 *    range and whole seconds. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_json.h"
#include "meta.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static const char *const issuers[] = {
    "https://idp.example.com",
    "https://idp.example.com/tenant/",
    "http://127.0.0.1:9000",
    "https://login.example/realms/a",
};

/* a and b equal but for one trailing '/' of either. */
static bool same_but_slash(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  la -= la && a[la - 1] == '/';
  lb -= lb && b[lb - 1] == '/';
  return la == lb && memcmp(a, b, la) == 0;
}

/* A member's string; an empty one counts as absent (oauth_json_str). */
static const char *str(const cJSON *doc, const char *k) {
  const char *s =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, k));
  return s && *s ? s : NULL;
}

static void discovery(cJSON *doc, const char *issuer, bool login) {
  oauth_meta m = {.as = doc};
  char msg[1024] = "";
  const char *iss = str(doc, "issuer"), *tep = str(doc, "token_endpoint");
  const cJSON *g =
      cJSON_GetObjectItemCaseSensitive(doc, "grant_types_supported");
  bool code = !cJSON_IsArray(g) || fuzz_json_lists(doc, "grant_types_supported",
                                                   "authorization_code");
  /* Which rule refuses first, in the order of the unit's promise. */
  const char *fault = NULL;
  if (!iss || !same_but_slash(iss, issuer)) {
    fault = "issuer";
  } else if (login && code &&
             !fuzz_json_lists(doc, "code_challenge_methods_supported",
                              "S256")) {
    fault = "S256";
  } else if (!tep || !oauth_url_secure(tep)) {
    fault = "token";
  }
  int rc = meta_read_oidc(&m, issuer, login, msg, sizeof msg);
  if (rc != 0) {
    fuzz_must(fault && strstr(msg, fault));
    meta_free(&m);
    return;
  }
  fuzz_must(!fault);
  fuzz_must(m.issuer && strcmp(m.issuer, iss) == 0);
  fuzz_must(m.token_endpoint && strcmp(m.token_endpoint, tep) == 0);
  const char *ae = str(doc, "authorization_endpoint");
  fuzz_must(ae ? m.authorization_endpoint &&
                     strcmp(m.authorization_endpoint, ae) == 0
               : !m.authorization_endpoint);
  fuzz_must(m.offline_access ==
            fuzz_json_lists(doc, "scopes_supported", "offline_access"));
  meta_free(&m);
}

/* The claims as the payload of a JWT with any header and signature. */
static void claims(const char *text, size_t len) {
  char *p = oauth_b64url((const unsigned char *)text, len);
  strbuf jwt;
  sb_init(&jwt);
  sb_printf(&jwt, "eyJhbGciOiJIUzI1NiJ9.%s.c2ln", p);
  free(p);
  cJSON *c = cJSON_ParseWithLength(text, len);
  int64_t exp, iat, want_exp = 0, want_iat = 0;
  int rc = oauth_jwt_times(sb_str(&jwt), &exp, &iat);
  fuzz_must((rc == 0) == cJSON_IsObject(c));
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(c, "exp");
  const cJSON *i = cJSON_GetObjectItemCaseSensitive(c, "iat");
  if (cJSON_IsNumber(x) && x->valuedouble > 0 && x->valuedouble < 1e11) {
    want_exp = (int64_t)x->valuedouble * 1000;
  }
  if (cJSON_IsNumber(i) && i->valuedouble > 0 && i->valuedouble < 1e11) {
    want_iat = (int64_t)i->valuedouble * 1000;
  }
  fuzz_must(rc != 0 || (exp == want_exp && iat == want_iat));
  /* The stored entry, with the times of an earlier token. */
  cJSON *e = cJSON_CreateObject();
  cJSON_AddNumberToObject(e, "expiresAt", 7000);
  cJSON_AddNumberToObject(e, "issuedAt", 5000);
  int64_t t0 = oauth_now_ms();
  fuzz_must(oauth_jwt_entry_times(e, sb_str(&jwt)) == rc);
  int64_t t1 = oauth_now_ms();
  const cJSON *ex = cJSON_GetObjectItemCaseSensitive(e, "expiresAt");
  const cJSON *is = cJSON_GetObjectItemCaseSensitive(e, "issuedAt");
  fuzz_must(cJSON_IsNumber(ex) && cJSON_IsNumber(is));
  if (rc != 0 || !want_exp) {
    fuzz_must(ex->valuedouble == 7000 && is->valuedouble == 5000);
  } else {
    fuzz_must(ex->valuedouble == (double)want_exp);
    if (want_iat && want_iat < want_exp) {
      fuzz_must(is->valuedouble == (double)want_iat);
    } else {
      fuzz_must(is->valuedouble >= (double)t0 && is->valuedouble <= (double)t1);
    }
    fuzz_must(want_exp <= t1 || is->valuedouble <= ex->valuedouble);
  }
  cJSON_Delete(e);
  cJSON_Delete(c);
  sb_free(&jwt);
}

/* Any text as an ID token. */
static void token(const char *text) {
  const char *a = strchr(text, '.');
  const char *b = a ? strchr(a + 1, '.') : NULL;
  bool shape = a && b && a != text && !strchr(b + 1, '.');
  int64_t exp, iat;
  int rc = oauth_jwt_times(text, &exp, &iat);
  fuzz_must(shape || rc != 0);
  fuzz_must(rc == 0 || (exp == 0 && iat == 0));
  fuzz_must(exp >= 0 && exp < (int64_t)1e14 && exp % 1000 == 0);
  fuzz_must(iat >= 0 && iat < (int64_t)1e14 && iat % 1000 == 0);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  unsigned flags = data[0];
  const char *rest = (const char *)data + 1;
  /* Text up to the first NUL, as a C string. */
  size_t n = strnlen(rest, len - 1);
  char *text = oauth_strndup(rest, n);
  switch (flags & 3) {
  case 0: {
    cJSON *doc = cJSON_ParseWithLength(rest, len - 1);
    if (cJSON_IsObject(doc)) { /* fetch_doc takes objects only */
      discovery(doc, issuers[(flags >> 2) & 3], flags & 16);
    } else {
      cJSON_Delete(doc);
    }
    break;
  }
  case 1: claims(text, n); break;
  default: token(text); break;
  }
  free(text);
  return 0;
}
