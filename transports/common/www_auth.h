/* WWW-Authenticate (RFC 9110 §11.6.1) read into the parts a client acts
 * on: the first challenge's scheme and its realm, scope, error,
 * error_description and resource_metadata parameters (RFC 6750, RFC
 * 9728), for mcph_auth_challenge. Bounded: each part is cut at
 * WWW_AUTH_PART_MAX - 1 bytes; malformed input yields what was read
 * before the fault. Pure, any thread. */
#ifndef MCPHOST_WWW_AUTH_H
#define MCPHOST_WWW_AUTH_H

#include <mcphost/transport.h>

#define WWW_AUTH_PART_MAX 512

typedef struct www_auth {
  char scheme[64];
  char realm[WWW_AUTH_PART_MAX];
  char scope[WWW_AUTH_PART_MAX];
  char error[WWW_AUTH_PART_MAX];
  char error_description[WWW_AUTH_PART_MAX];
  char resource_metadata[WWW_AUTH_PART_MAX];
} www_auth;

/* Parses `value` (may be NULL) into *out. */
void www_auth_parse(const char *value, www_auth *out);

/* Fills *ch from `w` (NULL for parts that are empty); the strings point
 * into `w`, `value` and `url`. */
void www_auth_challenge(const www_auth *w, int status, const char *url,
                        const char *value, mcph_auth_challenge *ch);

#endif
