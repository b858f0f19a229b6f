/* What the plugin needs of OpenSSL: random values, SHA-256, base64url and
 * the JWS of a private_key_jwt client assertion (RFC 7523 §2.2). ES256 is
 * written as JWS wants it, the raw 64-byte R||S, not OpenSSL's DER. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include "oauth.h"

char *oauth_b64(const unsigned char *p, size_t len) {
  char *out = oauth_calloc(1, 4 * ((len + 2) / 3) + 1);
  EVP_EncodeBlock((unsigned char *)out, p, (int)len);
  return out;
}

char *oauth_b64url(const unsigned char *p, size_t len) {
  char *s = oauth_b64(p, len);
  size_t n = strlen(s);
  while (n && s[n - 1] == '=') {
    s[--n] = '\0';
  }
  for (char *c = s; *c; c++) {
    *c = *c == '+' ? '-' : *c == '/' ? '_' : *c;
  }
  return s;
}

char *oauth_random_b64url(size_t n) {
  unsigned char buf[64];
  if (n > sizeof buf || RAND_bytes(buf, (int)n) != 1) {
    return NULL;
  }
  return oauth_b64url(buf, n);
}

char *oauth_pkce_challenge(const char *verifier) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256((const unsigned char *)verifier, strlen(verifier), md);
  return oauth_b64url(md, sizeof md);
}

/* Signs `input` with `key`: a new base64url signature, or NULL. */
static char *sign(EVP_PKEY *key, bool es256, const char *input) {
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  unsigned char *der = NULL;
  char *out = NULL;
  size_t len = 0;
  ECDSA_SIG *sig = NULL;
  if (!md || EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) != 1 ||
      EVP_DigestSign(md, NULL, &len, (const unsigned char *)input,
                     strlen(input)) != 1) {
    goto out;
  }
  der = oauth_calloc(1, len);
  if (EVP_DigestSign(md, der, &len, (const unsigned char *)input,
                     strlen(input)) != 1) {
    goto out;
  }
  if (!es256) {
    out = oauth_b64url(der, len); /* RS256: PKCS#1 v1.5 as it is */
    goto out;
  }
  const unsigned char *p = der;
  sig = d2i_ECDSA_SIG(NULL, &p, (long)len);
  if (!sig) {
    goto out;
  }
  const BIGNUM *r = NULL, *s = NULL;
  ECDSA_SIG_get0(sig, &r, &s);
  unsigned char raw[64];
  if (BN_bn2binpad(r, raw, 32) != 32 || BN_bn2binpad(s, raw + 32, 32) != 32) {
    goto out;
  }
  out = oauth_b64url(raw, sizeof raw);
out:
  ECDSA_SIG_free(sig);
  free(der);
  EVP_MD_CTX_free(md);
  return out;
}

char *oauth_client_assertion(const char *key_pem, const char *alg,
                             const char *client_id, const char *aud, char *why,
                             size_t why_len) {
  bool es256 = strcmp(alg, "ES256") == 0;
  if (!es256 && strcmp(alg, "RS256") != 0) {
    snprintf(why, why_len, "signing algorithm \"%s\" is not ES256 or RS256",
             alg);
    return NULL;
  }
  BIO *bio = BIO_new_mem_buf(key_pem, -1);
  EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
  BIO_free(bio);
  if (!key) {
    snprintf(why, why_len, "the private key is not a PEM private key");
    return NULL;
  }
  int id = EVP_PKEY_get_base_id(key);
  if ((es256 && id != EVP_PKEY_EC) || (!es256 && id != EVP_PKEY_RSA)) {
    snprintf(why, why_len, "the private key is not an %s key",
             es256 ? "EC P-256" : "RSA");
    EVP_PKEY_free(key);
    return NULL;
  }
  char *jti = oauth_random_b64url(16);
  cJSON *h = cJSON_CreateObject();
  cJSON_AddStringToObject(h, "alg", alg);
  cJSON_AddStringToObject(h, "typ", "JWT");
  cJSON *c = cJSON_CreateObject();
  long now = (long)time(NULL);
  cJSON_AddStringToObject(c, "iss", client_id);
  cJSON_AddStringToObject(c, "sub", client_id);
  cJSON_AddStringToObject(c, "aud", aud);
  cJSON_AddNumberToObject(c, "iat", (double)now);
  cJSON_AddNumberToObject(c, "exp", (double)(now + 300));
  cJSON_AddStringToObject(c, "jti", jti ? jti : "");
  char *ht = cJSON_PrintUnformatted(h), *ct = cJSON_PrintUnformatted(c);
  char *h64 = oauth_b64url((const unsigned char *)ht, strlen(ht));
  char *c64 = oauth_b64url((const unsigned char *)ct, strlen(ct));
  strbuf in = {0};
  sb_printf(&in, "%s.%s", h64, c64);
  char *sig = sign(key, es256, sb_str(&in));
  char *jwt = NULL;
  if (sig) {
    strbuf j = {0};
    sb_printf(&j, "%s.%s", sb_str(&in), sig);
    jwt = j.data;
  } else {
    snprintf(why, why_len, "signing the client assertion failed");
  }
  free(sig);
  sb_free(&in);
  free(h64);
  free(c64);
  cJSON_free(ht);
  cJSON_free(ct);
  cJSON_Delete(h);
  cJSON_Delete(c);
  free(jti);
  EVP_PKEY_free(key);
  return jwt;
}

int oauth_jwt_times(const char *jwt, int64_t *exp_ms, int64_t *iat_ms) {
  *exp_ms = *iat_ms = 0;
  const char *a = jwt ? strchr(jwt, '.') : NULL;
  const char *b = a ? strchr(a + 1, '.') : NULL;
  if (!a || !b || a == jwt || strchr(b + 1, '.')) {
    return -1;
  }
  /* base64url to base64 with its padding, for EVP_DecodeBlock. */
  size_t n = (size_t)(b - a - 1);
  char *s = oauth_calloc(1, n + 4);
  for (size_t i = 0; i < n; i++) {
    char c = a[1 + i];
    s[i] = c == '-' ? '+' : c == '_' ? '/' : c;
  }
  while (n % 4) {
    s[n++] = '=';
  }
  unsigned char *raw = oauth_calloc(1, n / 4 * 3 + 1);
  int len = EVP_DecodeBlock(raw, (const unsigned char *)s, (int)n);
  free(s);
  cJSON *c =
      len > 0 ? cJSON_ParseWithLength((const char *)raw, (size_t)len) : NULL;
  free(raw);
  if (!cJSON_IsObject(c)) {
    cJSON_Delete(c);
    return -1;
  }
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(c, "exp");
  const cJSON *i = cJSON_GetObjectItemCaseSensitive(c, "iat");
  if (cJSON_IsNumber(x) && x->valuedouble > 0 && x->valuedouble < 1e11) {
    *exp_ms = (int64_t)x->valuedouble * 1000;
  }
  if (cJSON_IsNumber(i) && i->valuedouble > 0 && i->valuedouble < 1e11) {
    *iat_ms = (int64_t)i->valuedouble * 1000;
  }
  cJSON_Delete(c);
  return 0;
}

int oauth_jwt_entry_times(cJSON *e, const char *jwt) {
  int64_t exp, iat;
  if (oauth_jwt_times(jwt, &exp, &iat) != 0) {
    return -1;
  }
  if (exp) {
    cJSON_DeleteItemFromObjectCaseSensitive(e, "expiresAt");
    cJSON_DeleteItemFromObjectCaseSensitive(e, "issuedAt");
    cJSON_AddNumberToObject(e, "expiresAt", (double)exp);
    cJSON_AddNumberToObject(e, "issuedAt",
                            (double)(iat && iat < exp ? iat : oauth_now_ms()));
  }
  return 0;
}
