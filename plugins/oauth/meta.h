/* The parts of discovery and of the token grant that read documents:
 * the protected resource metadata (RFC 9728), the authorization server
 * metadata (RFC 8414) and the token response (RFC 6749 §5), each a JSON
 * object already fetched. No network; pure but for the clock
 * (expires_at); any thread. */
#ifndef MCPH_OAUTH_META_H
#define MCPH_OAUTH_META_H

#include <stdbool.h>
#include <stddef.h>

#include "flow.h"

/* The origin ("http://h:p") and path without a trailing '/' of `url`, and
 * its query ("?a=b" or ""): new strings. 0 or -1. The origin of a
 * WebSocket URL is its HTTP one (ws: http, wss: https). */
int meta_split_url(const char *url, char **origin, char **path, char **query);

/* The PRM `prm` of the server at `server_url`: m->resource (which must be
 * the server's) and m->prm_scopes; *as_url the authorization server (a
 * new string: the first of authorization_servers, else the server's
 * origin). 0, or -1 with the reason in `msg`. */
int meta_read_prm(const cJSON *prm, const char *server_url, oauth_meta *m,
                  char **as_url, char *msg, size_t n);

/* What the flow asks of the AS metadata. */
typedef struct meta_checks {
  bool explicit_as;  /* oauth.authServerMetadataUrl: no issuer check */
  const char *grant; /* the configured grant, e.g. "authorization_code" */
  bool xaa;          /* cross-app access: no PKCE needed */
} meta_checks;

/* The rest of *m from m->as (the AS metadata, or NULL: none, the default
 * endpoints of `as_url`) and m->legacy: issuer, endpoints and flags; the
 * issuer must be `as_url`'s and S256 offered (RFC 8414 §3.3, OAuth 2.1),
 * the token endpoint https or loopback http. 0, or -1 with `msg`. */
int meta_read_as(oauth_meta *m, const char *as_url, const meta_checks *k,
                 char *msg, size_t n);

/* The identity provider's OpenID Connect discovery document in m->as
 * (discover_oidc): meta_read_as for `issuer` and the code flow, PKCE
 * S256 needed for a `login` (cross-app access's token exchange needs
 * none). 0, or -1 with `msg`. */
int meta_read_oidc(oauth_meta *m, const char *issuer, bool login, char *msg,
                   size_t n);

/* The token endpoint's answer: HTTP `status` and its body `j` (NULL: not
 * a JSON object). On success the tokens in *tok and 0; else -1 with the
 * OAuth error (a dead refresh token's other names as "invalid_grant") in
 * `error` when there is one, and the reason in `msg`, never a secret. */
int token_response_read(long status, const cJSON *j, oauth_tokens *tok,
                        char *error, size_t error_len, char *msg, size_t n);

#endif
