/* The gateway's requestState tokens (gateway/serve_mrtr_state.c,
 * compiled in): made and checked, and no token, rather than a crash,
 * when base64_encode runs out of memory (linked with
 * --wrap=base64_encode). */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gateway/serve.h"

char *__real_base64_encode(const void *in, size_t len);
char *__wrap_base64_encode(const void *in, size_t len);

static bool encode_fails;

char *__wrap_base64_encode(const void *in, size_t len) {
  return encode_fails ? NULL : __real_base64_encode(in, len);
}

TEST(test_a_token_made_is_64_characters_and_checks) {
  unsigned char key[GW_STATE_KEY], nonce[GW_STATE_NONCE];
  unsigned char back[GW_STATE_NONCE];
  CHECK(gw_state_key(key) == 0);
  char *t = gw_state_make(key, nonce);
  CHECK(t && strlen(t) == 64);
  CHECK(t && gw_state_check(key, t, back));
  CHECK(memcmp(nonce, back, sizeof nonce) == 0);
  free(t);
}

TEST(test_no_memory_for_the_base64_text_is_no_token) {
  unsigned char key[GW_STATE_KEY], nonce[GW_STATE_NONCE];
  CHECK(gw_state_key(key) == 0);
  encode_fails = true;
  char *t = gw_state_make(key, nonce);
  encode_fails = false;
  CHECK(t == NULL);
  free(t);
}

RUN(T(test_a_token_made_is_64_characters_and_checks),
    T(test_no_memory_for_the_base64_text_is_no_token))
