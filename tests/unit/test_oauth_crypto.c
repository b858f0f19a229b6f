/* The OAuth plugin's pieces that need no network: PKCE S256 (RFC 7636
 * appendix B), base64url, the private_key_jwt client assertion (ES256
 * as raw R||S, RS256) checked with OpenSSL's verifier, scope union, and
 * the times of an ID token (a JWT's exp and iat); common/sha256.c, the
 * credential key's digest, against FIPS 180-4's examples and OpenSSL. */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <openssl/sha.h>

#include "check.h"
#include "oauth.h"
#include "sha256.h"

TEST(test_oauth_pkce_matches_rfc7636_appendix_b) {
  char *c = oauth_pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
  CHECK_STR(c, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  free(c);
}

TEST(test_oauth_base64url_has_no_padding_and_url_alphabet) {
  const unsigned char b[] = {0xfb, 0xff, 0xfe};
  char *s = oauth_b64url(b, sizeof b);
  CHECK_STR(s, "-__-");
  free(s);
  s = oauth_b64url((const unsigned char *)"a", 1);
  CHECK_STR(s, "YQ");
  free(s);
}

static char *pem_of(EVP_PKEY *k) {
  BIO *b = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL);
  char *p = NULL;
  long n = BIO_get_mem_data(b, &p);
  char *out = oauth_strndup(p, (size_t)n);
  BIO_free(b);
  return out;
}

static unsigned char *b64url_decode(const char *s, size_t *len) {
  size_t n = strlen(s);
  char *t = calloc(1, n + 4);
  for (size_t i = 0; i < n; i++) {
    t[i] = s[i] == '-' ? '+' : s[i] == '_' ? '/' : s[i];
  }
  while (n % 4) {
    t[n++] = '=';
  }
  unsigned char *out = calloc(1, n);
  int got = EVP_DecodeBlock(out, (unsigned char *)t, (int)n);
  *len = (size_t)got - (t[n - 1] == '=') - (t[n - 2] == '=');
  free(t);
  return out;
}

/* Verifies jwt's signature with `k`; ES256 turns R||S back into DER. */
static bool verifies(const char *jwt, EVP_PKEY *k, bool es256) {
  const char *dot = strrchr(jwt, '.');
  size_t slen;
  unsigned char *sig = b64url_decode(dot + 1, &slen);
  unsigned char *der = NULL;
  int derlen = (int)slen;
  if (es256) {
    if (slen != 64) {
      free(sig);
      return false;
    }
    ECDSA_SIG *e = ECDSA_SIG_new();
    ECDSA_SIG_set0(e, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL));
    derlen = i2d_ECDSA_SIG(e, &der);
    ECDSA_SIG_free(e);
  }
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  bool ok =
      EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, k) == 1 &&
      EVP_DigestVerify(md, es256 ? der : sig, (size_t)derlen,
                       (const unsigned char *)jwt, (size_t)(dot - jwt)) == 1;
  EVP_MD_CTX_free(md);
  OPENSSL_free(der);
  free(sig);
  return ok;
}

static void check_claims(const char *jwt, const char *alg) {
  const char *d1 = strchr(jwt, '.');
  char *h64 = oauth_strndup(jwt, (size_t)(d1 - jwt));
  const char *d2 = strchr(d1 + 1, '.');
  char *c64 = oauth_strndup(d1 + 1, (size_t)(d2 - d1 - 1));
  size_t n;
  unsigned char *h = b64url_decode(h64, &n);
  cJSON *hj = cJSON_ParseWithLength((const char *)h, n);
  unsigned char *c = b64url_decode(c64, &n);
  cJSON *cj = cJSON_ParseWithLength((const char *)c, n);
  CHECK_STR(cJSON_GetObjectItem(hj, "alg")->valuestring, alg);
  CHECK_STR(cJSON_GetObjectItem(cj, "iss")->valuestring, "client-1");
  CHECK_STR(cJSON_GetObjectItem(cj, "sub")->valuestring, "client-1");
  CHECK_STR(cJSON_GetObjectItem(cj, "aud")->valuestring, "https://as.example");
  CHECK(cJSON_GetObjectItem(cj, "exp")->valuedouble -
            cJSON_GetObjectItem(cj, "iat")->valuedouble ==
        300);
  CHECK(cJSON_IsString(cJSON_GetObjectItem(cj, "jti")));
  cJSON_Delete(hj);
  cJSON_Delete(cj);
  free(h);
  free(c);
  free(h64);
  free(c64);
}

TEST(test_oauth_es256_assertion_is_raw_r_s_and_verifies) {
  EVP_PKEY *k = EVP_EC_gen("P-256");
  char *pem = pem_of(k), why[256] = "";
  char *jwt = oauth_client_assertion(pem, "ES256", "client-1",
                                     "https://as.example", why, sizeof why);
  CHECK(jwt != NULL);
  check_claims(jwt, "ES256");
  CHECK(verifies(jwt, k, true));
  free(jwt);
  free(pem);
  EVP_PKEY_free(k);
}

TEST(test_oauth_rs256_assertion_verifies) {
  EVP_PKEY *k = EVP_RSA_gen(2048);
  char *pem = pem_of(k), why[256] = "";
  char *jwt = oauth_client_assertion(pem, "RS256", "client-1",
                                     "https://as.example", why, sizeof why);
  CHECK(jwt != NULL);
  check_claims(jwt, "RS256");
  CHECK(verifies(jwt, k, false));
  free(jwt);
  /* An EC key for RS256 is refused, with the reason. */
  EVP_PKEY *ec = EVP_EC_gen("P-256");
  char *ecpem = pem_of(ec);
  CHECK(oauth_client_assertion(ecpem, "RS256", "c", "a", why, sizeof why) ==
        NULL);
  CHECK(strstr(why, "not an RSA key") != NULL);
  free(ecpem);
  free(pem);
  EVP_PKEY_free(ec);
  EVP_PKEY_free(k);
}

TEST(test_oauth_scope_union_keeps_order_without_duplicates) {
  char *u = scope_union("mcp:basic", "mcp:basic mcp:write");
  CHECK_STR(u, "mcp:basic mcp:write");
  free(u);
  u = scope_union(NULL, " a  b ");
  CHECK_STR(u, "a b");
  free(u);
  CHECK(scope_union(NULL, "") == NULL);
}

TEST(test_oauth_query_param_is_decoded) {
  char *v = oauth_query_param("http://l/cb?state=a%2Bb&code=x+y#f", "code");
  CHECK_STR(v, "x y");
  free(v);
  v = oauth_query_param("http://l/cb?state=a%2Bb&code=x", "state");
  CHECK_STR(v, "a+b");
  free(v);
  CHECK(oauth_query_param("http://l/cb?codes=1", "code") == NULL);
}

/* A JWT of header {"alg":"none"} and payload `claims`. */
static char *jwt_of(const char *claims) {
  char *h = oauth_b64url((const unsigned char *)"{\"alg\":\"none\"}", 15);
  char *c = oauth_b64url((const unsigned char *)claims, strlen(claims));
  strbuf b = {0};
  sb_printf(&b, "%s.%s.sig", h, c);
  free(h);
  free(c);
  return b.data;
}

TEST(test_oauth_jwt_times_read_exp_and_iat) {
  int64_t exp, iat;
  /* Payload lengths 1, 2 and 0 mod 3: every padding case of base64url. */
  const char *claims[] = {"{\"exp\":2000000000,\"iat\":1999999000}",
                          "{\"exp\":2000000000, \"iat\":1999999000}",
                          "{\"exp\":2000000000,  \"iat\":1999999000}"};
  for (size_t i = 0; i < 3; i++) {
    char *j = jwt_of(claims[i]);
    CHECK(oauth_jwt_times(j, &exp, &iat) == 0);
    CHECK(exp == 2000000000000LL);
    CHECK(iat == 1999999000000LL);
    free(j);
  }
  char *j = jwt_of("{\"sub\":\"a\"}");
  CHECK(oauth_jwt_times(j, &exp, &iat) == 0);
  CHECK(exp == 0 && iat == 0); /* no exp: unknown, not 0 ms */
  free(j);
  j = jwt_of("[1]");
  CHECK(oauth_jwt_times(j, &exp, &iat) == -1); /* not an object */
  free(j);
  CHECK(oauth_jwt_times("abc", &exp, &iat) == -1);
  CHECK(oauth_jwt_times("a.b", &exp, &iat) == -1);
  CHECK(oauth_jwt_times("a.b.c.d", &exp, &iat) == -1);
  CHECK(oauth_jwt_times(".e30.x", &exp, &iat) == -1);
  CHECK(oauth_jwt_times("x.!!!.y", &exp, &iat) == -1);
}

/* The examples of FIPS 180-4 (NIST's SHA256.pdf): one block, two
 * blocks, a million 'a'; and the empty message. */
TEST(test_sha256_fips_180_4_examples) {
  char hex[65];
  sha256_hex("abc", 3, hex);
  CHECK_STR(hex,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  sha256_hex(two, strlen(two), hex);
  CHECK_STR(hex,
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  sha256_hex("", 0, hex);
  CHECK_STR(hex,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  char *a = malloc(1000000);
  memset(a, 'a', 1000000);
  sha256_hex(a, 1000000, hex);
  CHECK_STR(hex,
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free(a);
}

/* The same digest as OpenSSL's for every length around the padding's
 * edges (55, 56, 63, 64 bytes...) and for a credential key's JSON, so
 * that credentials stored before are still found. */
TEST(test_sha256_equals_openssl) {
  unsigned char buf[300], ours[SHA256_LEN], theirs[SHA256_DIGEST_LENGTH];
  for (size_t i = 0; i < sizeof buf; i++) {
    buf[i] = (unsigned char)(i * 131 + 7);
  }
  for (size_t n = 0; n <= sizeof buf; n++) {
    sha256(buf, n, ours);
    SHA256(buf, n, theirs);
    CHECK(memcmp(ours, theirs, sizeof ours) == 0);
  }
  const char *key = "{\"type\":\"http\",\"url\":\"http://127.0.0.1:8080/mcp\","
                    "\"headers\":{}}";
  sha256((const unsigned char *)key, strlen(key), ours);
  SHA256((const unsigned char *)key, strlen(key), theirs);
  CHECK(memcmp(ours, theirs, sizeof ours) == 0);
}

RUN(T(test_oauth_pkce_matches_rfc7636_appendix_b),
    T(test_oauth_base64url_has_no_padding_and_url_alphabet),
    T(test_oauth_es256_assertion_is_raw_r_s_and_verifies),
    T(test_oauth_rs256_assertion_verifies),
    T(test_oauth_scope_union_keeps_order_without_duplicates),
    T(test_oauth_query_param_is_decoded),
    T(test_oauth_jwt_times_read_exp_and_iat),
    T(test_sha256_fips_180_4_examples), T(test_sha256_equals_openssl))
