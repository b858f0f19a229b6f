/*
 * The OAuth 2.1 auth provider for remote MCP servers (plugins/oauth).
 *
 * Life of an authorization: the host asks for a server's Authorization
 * value when its transport is created (plugin.c); the value comes from
 * the credential store (store.c). A 401 or 403 from the server hands the
 * plugin the parsed challenge; the plugin starts a flow on a worker
 * thread (worker.c), which refreshes, or discovers the authorization
 * server (discovery.c), finds the client's identity and runs the grant
 * (flow.c, grant.c) with blocking libcurl calls (net.c) and OpenSSL
 * (crypto.c), waits for the browser on the loopback callback
 * (callback.c), and stores the tokens before they are used. The result
 * is posted back to the loop, which sets it on the connection through
 * "mcph.host.auth/1"; the host then sends the request that failed once
 * more.
 *
 * Threads: a flow runs on its own thread and touches only its own
 * oauth_flow and the credential file (under flock); everything else is
 * on the loop.
 */
#ifndef MCPH_OAUTH_H
#define MCPH_OAUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <mcphost/mcphost.h>

#include "strbuf.h"

#define OAUTH_ID "mcphost.oauth"

/* Appends "&name=value" (no '&' when empty), both form-encoded, to a
 * growing string (strbuf.h). */
void ob_form(strbuf *b, const char *name, const char *value);

char *oauth_strdup(const char *s); /* NULL stays NULL; aborts on OOM */
char *oauth_strndup(const char *s, size_t n);
void *oauth_calloc(size_t n, size_t size);
int64_t oauth_now_ms(void); /* wall clock */

/* ---- crypto.c (OpenSSL) ---- */
/* base64url without padding of `len` bytes; a new string. */
char *oauth_b64url(const unsigned char *p, size_t len);
/* Standard base64 with padding; a new string. */
char *oauth_b64(const unsigned char *p, size_t len);
/* `n` random bytes as base64url: a new string, or NULL. */
char *oauth_random_b64url(size_t n);
/* The PKCE S256 challenge of `verifier`: a new string. */
char *oauth_pkce_challenge(const char *verifier);
/* A signed JWT client assertion (RFC 7523) with the PEM private key in
 * `key_pem`, alg "ES256" (raw R||S) or "RS256": iss = sub = client_id,
 * aud, iat, exp = iat + 300, a random jti. A new string, or NULL with the
 * reason in `why`. */
char *oauth_client_assertion(const char *key_pem, const char *alg,
                             const char *client_id, const char *aud, char *why,
                             size_t why_len);

/* The times of a JWT (its payload's "exp" and "iat", in ms; 0 when
 * absent): 0, or -1 when `jwt` is not three base64url parts with a JSON
 * object in the middle. The signature is not checked: an ID token is
 * the business of the servers it is presented to. */
int oauth_jwt_times(const char *jwt, int64_t *exp_ms, int64_t *iat_ms);
/* A stored entry's expiresAt and issuedAt from the ID token `jwt` (its
 * exp and iat; the token response's expires_in is the IdP access
 * token's): replaced when it has an exp, kept otherwise. 0, or -1 when
 * it is not a JWT. */
int oauth_jwt_entry_times(cJSON *e, const char *jwt);

/* ---- net.c (libcurl easy, blocking, on a flow's thread) ---- */
typedef struct oauth_resp {
  long status;
  char *body; /* NUL-terminated, may be empty */
  size_t body_len;
  char *location;         /* the resolved Location of a 3xx, or NULL */
  char *www_authenticate; /* or NULL */
} oauth_resp;
typedef struct oauth_req {
  const char *method; /* "GET" or "POST" */
  const char *url;
  const char *body; /* POST body, or NULL */
  const char *content_type;
  const char *authorization;    /* a header value, or NULL */
  const char *protocol_version; /* MCP-Protocol-Version, or NULL */
  int64_t deadline_ms;          /* wall clock; the request ends by then */
} oauth_req;
/* Performs one request; redirects are never followed. Returns 0 (any
 * HTTP status) or -1 with the reason (no secrets) in `why`. */
int oauth_http(const oauth_req *rq, oauth_resp *out, char *why, size_t why_len);
void oauth_resp_free(oauth_resp *r);
/* The body as a JSON object, or NULL. */
cJSON *oauth_resp_json(const oauth_resp *r);
/* Whether `url` may carry credentials: https, or http to a loopback host. */
bool oauth_url_secure(const char *url);
/* A query parameter of `url` (decoded), a new string or NULL. */
char *oauth_query_param(const char *url, const char *name);
/* Percent-decodes in place (form rules: '+' is a space). */
void oauth_form_decode(char *s);
/* The non-empty string `k` of object `o`: a new string, or NULL. */
char *oauth_json_str(const cJSON *o, const char *k);
/* A stored time in milliseconds (expiresAt, issuedAt; `x` a number),
 * held to +-2^61 ms (some 73 million years): a file's 1e300 is far in
 * the future, not a conversion out of range, and the difference of two
 * (at most 2^62) cannot overflow. */
int64_t oauth_json_ms(const cJSON *x);
/* Joins scopes a and b (space separated): a new string of a's then b's
 * that a lacks; NULL when both are empty. */
char *scope_union(const char *a, const char *b);
/* Whether the space-separated `list` holds the scope w[0..n). */
bool oauth_has_scope(const char *list, const char *w, size_t n);
/* A whole file of at most `max` bytes: a new string, or NULL. */
char *oauth_read_file(const char *path, size_t max);

/* ---- store.c: $XDG_STATE_HOME/mcphost/credentials.json ---- */
/* The credential document, kept by the host's secrets service (its
 * shared document "credentials.json"). Any thread: a flow's keeps a copy
 * filled on the loop. */
typedef struct oauth_store {
  const mcph_host *host;        /* the plugin's table */
  const mcph_host_secrets *sec; /* its secrets service */
  char *path;                   /* the file, for messages */
} oauth_store;
/* What store_update runs on the document: 1 to write it as changed, 0
 * to leave it as it is, -1 when it failed (with its own message). */
typedef int (*store_fn)(cJSON *doc, void *ud);
/* Runs fn on the document under the lock (the service waits up to 30 s
 * for another holder): the file read inside the lock (an empty document
 * when there is none; a corrupt one read as empty, and kept aside as
 * credentials.json.corrupt-<time> when anything is written), then what
 * fn changed written whole. fn may block (a refresh). Returns 0, -1 when
 * the store failed (why: a refused file is named), -2 when fn did. */
int store_update(oauth_store *st, store_fn fn, void *ud, char *why,
                 size_t why_len);
/* A copy of the document read without the lock (never half of one), for
 * the loop; NULL with `why` as above. */
cJSON *store_read(oauth_store *st, char *why, size_t why_len);
/* The entry of `key` in doc.mcpOAuth (created when `create`). */
cJSON *store_entry(cJSON *doc, const char *key, bool create);
/* The login at an identity provider for cross-app access: the entry of
 * "<issuer>|<clientId>" in doc.mcpXaaIdp (created when `create`). */
cJSON *store_idp_entry(cJSON *doc, const char *key, bool create);
/* Whether the access token of a stored entry is due for a refresh: it
 * expires within min(5 minutes, a quarter of its lifetime) (expiresAt,
 * and issuedAt for the lifetime; 5 minutes when that is unknown), so
 * that a token of 2 minutes is used for 90 s, not refreshed at every
 * run. False when its expiry is unknown (a 401 says it then). */
bool oauth_expiring(const cJSON *entry);

/* ---- needs_auth.c: the needs-auth cache (15 minutes) ---- */
#define NEEDS_AUTH_TTL_MS (15 * 60 * 1000)
/* Records (`on`) or forgets that the server of credential key
 * `server_key` needs an authorization no one could give. Any thread
 * (takes the cache's lock); a failure costs the cache only. */
void needs_auth_mark(oauth_store *st, const char *server_key, bool on);
/* Whether a run recorded so within the last 15 minutes. Loop (no lock). */
bool needs_auth_cached(oauth_store *st, const char *server_key);

/* ---- the server a flow is for ---- */
typedef struct oauth_server {
  char *name;
  char *type;
  char *url;
  char *key;             /* "<name>|<hash16>" */
  char *client_id;       /* oauth.clientId */
  char *client_secret;   /* oauth.clientSecret or $clientSecretEnv */
  char *scopes;          /* oauth.scopes */
  char *metadata_url;    /* oauth.clientMetadataUrl (CIMD) */
  char *grant;           /* "authorization_code" | "client_credentials" */
  char *auth_method;     /* oauth.tokenEndpointAuth */
  char *key_file;        /* oauth.privateKeyFile */
  char *alg;             /* oauth.signingAlgorithm (ES256) */
  char *as_metadata_url; /* oauth.authServerMetadataUrl */
  bool xaa;
  int callback_port; /* 0: random */
  bool has_oauth;    /* the entry had an "oauth" object */
} oauth_server;
/* The server's credential key (key.c): "<name>|" and 16 hex digits of
 * SHA-256 over the compact JSON {"type","url","headers"} of its
 * configuration `cfg`; a new string, or NULL without a url. */
char *oauth_server_key(const char *name, const cJSON *cfg);
/* Reads the server's configuration JSON: 0, or -1 with `why` naming the
 * field. */
int oauth_server_parse(oauth_server *sv, const char *name,
                       const char *config_json, char *why, size_t why_len);
void oauth_server_free(oauth_server *sv);

#endif
