/* mcphost serve: the requestState the gateway hands a 2026-07-28 client
 * with an input_required result (serve.h). A token is 16 random bytes
 * (the parked operation's handle) and their HMAC-SHA256 under a key the
 * gateway draws when it starts, in base64url: 64 characters that only
 * this gateway process can have made. It says nothing of the operation:
 * serve_mrtr.c keeps that, and a token it no longer holds (used, expired
 * or cancelled) is refused there. Loop thread only. */
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/opensslv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base64.h"
#include "gateway/serve.h"
#include "util.h"

/* libcrypto is opened when the first token is made, not linked: a
 * gateway whose clients are never asked anything does not pay for
 * mapping it (as host/config/config_approval.c does). Never closed. */
#define STATE_STR_(x) #x
#define STATE_STR(x) STATE_STR_(x)
#define STATE_CRYPTO "libcrypto.so." STATE_STR(OPENSSL_VERSION_MAJOR)

static struct {
  __typeof__(HMAC) *hmac;
  __typeof__(EVP_sha256) *sha256;
  __typeof__(CRYPTO_memcmp) *memcmp;
} lib;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void lib_open(void) {
  void *h = dlopen(STATE_CRYPTO, RTLD_NOW | RTLD_LOCAL);
  if (h) {
    lib.hmac = (__typeof__(lib.hmac))dlsym(h, "HMAC");
    lib.sha256 = (__typeof__(lib.sha256))dlsym(h, "EVP_sha256");
    lib.memcmp = (__typeof__(lib.memcmp))dlsym(h, "CRYPTO_memcmp");
  }
}

#define STATE_MAC 32
#define STATE_RAW (GW_STATE_NONCE + STATE_MAC)

int gw_state_key(unsigned char key[GW_STATE_KEY]) {
  return getrandom(key, GW_STATE_KEY, 0) == GW_STATE_KEY ? 0 : -1;
}

/* The MAC of `nonce`, the purpose's name first: a key never signs
 * anything else. */
static bool state_mac(const unsigned char *key,
                      const unsigned char nonce[GW_STATE_NONCE],
                      unsigned char mac[STATE_MAC]) {
  pthread_once(&lib_once, lib_open);
  if (!lib.hmac || !lib.sha256 || !lib.memcmp) {
    return false;
  }
  static const char purpose[] = "mcphost-gateway-requestState-1";
  unsigned char in[sizeof purpose + GW_STATE_NONCE];
  memcpy(in, purpose, sizeof purpose);
  memcpy(in + sizeof purpose, nonce, GW_STATE_NONCE);
  unsigned int len = 0;
  return lib.hmac(lib.sha256(), key, GW_STATE_KEY, in, sizeof in, mac, &len) !=
             NULL &&
         len == STATE_MAC;
}

char *gw_state_make(const unsigned char key[GW_STATE_KEY],
                    unsigned char nonce[GW_STATE_NONCE]) {
  unsigned char raw[STATE_RAW];
  if (getrandom(nonce, GW_STATE_NONCE, 0) != GW_STATE_NONCE ||
      !state_mac(key, nonce, raw + GW_STATE_NONCE)) {
    return NULL;
  }
  memcpy(raw, nonce, GW_STATE_NONCE);
  char *s = base64_encode(raw, sizeof raw); /* 48 bytes: no padding */
  if (!s) {
    return NULL; /* out of memory: no round (the caller declines) */
  }
  for (char *p = s; *p; p++) {
    *p = *p == '+' ? '-' : *p == '/' ? '_' : *p;
  }
  return s;
}

bool gw_state_check(const unsigned char key[GW_STATE_KEY], const char *token,
                    unsigned char nonce[GW_STATE_NONCE]) {
  /* Exactly what gw_state_make writes: 64 base64url characters. */
  if (!token || strlen(token) != 64 ||
      strspn(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                    "0123456789-_") != 64) {
    return false;
  }
  size_t n = 0;
  unsigned char *raw = base64_decode(token, &n);
  unsigned char mac[STATE_MAC];
  bool ok = raw && n == STATE_RAW && state_mac(key, raw, mac) &&
            lib.memcmp(mac, raw + GW_STATE_NONCE, STATE_MAC) == 0;
  if (ok) {
    memcpy(nonce, raw, GW_STATE_NONCE);
  }
  free(raw);
  return ok;
}
