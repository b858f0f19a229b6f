/* One authorization flow, run on its own thread (worker.c), and the parts
 * it is made of. Everything here is blocking; nothing touches the host
 * table. */
#ifndef MCPH_OAUTH_FLOW_H
#define MCPH_OAUTH_FLOW_H

#include <stdatomic.h>

#include "oauth.h"

enum oauth_browser { BROWSER_AUTO, BROWSER_PRINT, BROWSER_FOLLOW };

typedef enum flow_kind {
  FLOW_CHALLENGE, /* a 401/403 during a run */
  FLOW_LOGIN,     /* mcphost mcp login NAME */
  FLOW_REFRESH    /* proactive: the token expires soon (oauth_expiring) */
} flow_kind;

typedef struct oauth_flow {
  /* Input, set on the loop before the thread starts. */
  oauth_server sv;
  oauth_store st;
  flow_kind kind;
  int browser;      /* enum oauth_browser */
  bool interactive; /* a person at the terminal may approve */
  int status;       /* the challenge's HTTP status, or 0 */
  char *ch_scope, *ch_error, *ch_resource_metadata;
  char *sent_token; /* the access token the server refused, or NULL */
  char *step_scope; /* the scopes asked for before, for a step-up */
  char *xaa_idp;    /* the xaaIdp settings as JSON text, or NULL */
  bool idp_only;    /* `mcp login --idp`: the IdP login, no server */
  /* The session's MCP protocol version (the challenge's), sent on
   * discovery requests; NULL: the newest (discovery.c). */
  char *protocol_version;
  bool at_connect;     /* the 401 came while the connection was being made */
  _Atomic int cancel;  /* set by the loop at exit: stop waiting */
  int64_t phase_ms;    /* how long each network phase may take */
  int64_t deadline_ms; /* the current phase's end (wall clock) */
  /* Output, read on the loop after the thread posted. */
  int rc;             /* MCPH_OK or MCPH_E* */
  char *token;        /* the access token */
  char *scope;        /* what was asked for */
  int authorizations; /* authorization requests made */
  /* The last token request's HTTP status; 0: no answer (a network
   * error, the deadline); -1: not sent (the client's own failure). */
  long token_status;
  char message[1024]; /* why it failed; never a secret */
} oauth_flow;

/* What discovery found. */
typedef struct oauth_meta {
  char *resource; /* RFC 8707 resource */
  char *issuer;   /* the authorization server's issuer (or URL) */
  char *authorization_endpoint, *token_endpoint, *registration_endpoint;
  char *revocation_endpoint;
  char *prm_scopes; /* PRM scopes_supported, space separated, or NULL */
  cJSON *as;        /* the AS metadata, or NULL (legacy fallback) */
  bool legacy;      /* no PRM: a 2025-03-26 server */
  bool cimd;        /* client_id_metadata_document_supported */
  bool iss_supported;
  bool offline_access; /* AS scopes_supported lists it */
} oauth_meta;

/* discovery.c: PRM, AS metadata, the resource and issuer checks. 0 or -1
 * with f->message. */
int discover(oauth_flow *f, oauth_meta *m);
void meta_free(oauth_meta *m);
/* Whether the protected resource metadata names an authorization server
 * other than `issuer` now (SEP-2352: the server moved to another AS);
 * false when it cannot tell (no PRM, a failed request). Blocking. */
bool discover_as_moved(oauth_flow *f, const char *issuer);
/* Issuer identifiers equal but for one trailing '/' (RFC 8414 §3.3, as
 * the TS SDK compares them). */
bool same_issuer(const char *a, const char *b);
/* Whether the AS metadata lists `value` in array `field` (true when the
 * list is absent and `absent_ok`). */
bool meta_lists(const oauth_meta *m, const char *field, const char *value,
                bool absent_ok);

/* The client's identity at one authorization server. */
typedef struct oauth_client {
  char *id, *secret, *method; /* method: token_endpoint_auth_method */
  char *redirect_uri;
  char *kind; /* "static", "cimd", "dcr" */
} oauth_client;
void client_free(oauth_client *c);

/* grant.c: token endpoint requests. `params` is the grant's form body;
 * client authentication is added. On success the tokens are in *tok.
 * Returns 0, or -1 with f->message and the OAuth error in `error`. */
typedef struct oauth_tokens {
  char *access, *refresh, *scope;
  char *id_token;     /* OpenID Connect's, or NULL */
  int64_t expires_at; /* ms; 0 = unknown */
  int64_t issued_at;  /* ms, when they came (set with expires_at) */
} oauth_tokens;
int token_request(oauth_flow *f, const oauth_meta *m, const oauth_client *c,
                  strbuf *params, oauth_tokens *tok, char *error,
                  size_t error_len);
void tokens_free(oauth_tokens *t);
/* Picks the client's token endpoint auth method (reference §2.1). */
const char *pick_auth_method(const oauth_meta *m, const oauth_client *c);

/* The loopback redirect URI of `port`: a new string. */
char *redirect_uri(int port);
/* identity.c: pre-registered, CIMD or DCR; 0 or -1 with f->message. */
int client_identity(oauth_flow *f, const oauth_meta *m, cJSON *entry,
                    const char *scope, int port, oauth_client *c);

/* authorize.c: the authorization request and its response, PKCE, state,
 * iss; fills `code` and `verifier` (new strings). 0 or -1. */
int authorize(oauth_flow *f, const oauth_meta *m, const oauth_client *c,
              const char *scope, int listen_fd, char **code, char **verifier);
/* callback.c: the loopback listener on 127.0.0.1 (port 0: random). The
 * fd, or -1 with f->message; *port is the port bound. */
int callback_listen(oauth_flow *f, int port, int *bound);
/* Waits for the callback (and, with `paste`, a pasted URL on stdin) up
 * to `wait_ms`: the first whose state is `expect_state` (others are
 * refused, and the wait goes on), as a new string (path and query, or
 * the full pasted URL), or NULL with f->message. */
char *callback_wait(oauth_flow *f, int fd, bool paste, int64_t wait_ms,
                    const char *expect_state);

/* discovery.c: OpenID Connect Discovery of `issuer` (its
 * /.well-known/openid-configuration), whose issuer must be `issuer`;
 * with `login`, S256 must be offered. 0 or -1 with f->message. */
int discover_oidc(oauth_flow *f, const char *issuer, bool login, oauth_meta *m);

/* flow.c: a refresh with the refresh token of a stored entry (its
 * tokenEndpoint, clientId, clientSecret, clientMethod, resource), the
 * tokens stored in it. 1: done (f->token set), 0: not possible or
 * failed, with `dropped` set when the refresh token was dead. Called
 * with the lock held. */
int flow_refresh(oauth_flow *f, cJSON *e, bool *dropped);
/* Sets (or, with NULL, removes) the string `k` of `o`. */
void put_str(cJSON *o, const char *k, const char *v);
/* Stores a token response in a stored entry: accessToken, refreshToken
 * (kept when none came), expiresAt and issuedAt (left out when unknown),
 * scope (`scope` when the response had none), idToken when one came. */
void put_tokens(cJSON *e, const oauth_tokens *t, const char *scope);

/* idp.c: cross-app access's login at the identity provider of the user
 * settings' xaaIdp (f->xaa_idp). idp_id_token: the ID token for the
 * token exchange (idTokenFile's; else the stored login's, renewed by its
 * refresh token when it expires within the refresh margin; else a login
 * when a person can answer or in follow mode) and the IdP's token
 * endpoint, new strings; *stored: it came from the stored login.
 * idp_login: a new login, stored. 0 or -1 with
 * f->message. */
int idp_id_token(oauth_flow *f, char **id_token, char **token_endpoint,
                 char **issuer, bool *stored);
/* Forgets the stored login's ID token when it is still `id_token` (the
 * refresh token stays, to renew it). */
void idp_forget_id_token(oauth_flow *f, const char *id_token);
int idp_login(oauth_flow *f);

/* flow.c: the whole flow. */
void flow_run(oauth_flow *f);
void flow_free(oauth_flow *f);

#endif
