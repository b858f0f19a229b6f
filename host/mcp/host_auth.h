/* Authorization for remote servers, host side (ABI 1.6): asks the auth
 * providers ("mcph.auth/1") for a connection's Authorization value, hands
 * them 401/403 challenges, and offers "mcph.host.auth/1". Keeps the list
 * of connections whose transports were created, so the service can find
 * one by server name. Loop thread. */
#ifndef MCPHOST_MCP_HOST_AUTH_H
#define MCPHOST_MCP_HOST_AUTH_H

#include <stdbool.h>

#include <mcphost/mcphost.h>

struct session;
struct host;

/* A session's transport was created (not started yet): registers it and
 * sets the first provider's Authorization value on it, if any. When none
 * gives one and a provider says the server needs an authorization this
 * run cannot get (needs_auth, auth.h), returns false with its reason in
 * `why` (`why_len` bytes): the session fails without contacting it. */
bool host_auth_attach(struct session *s, char *why, size_t why_len);
/* The session's transport is going away. */
void host_auth_detach(struct session *s);
/* Hands a 401/403 challenge to the session's provider. Returns true when
 * the provider took it up: it sets a new value (or NULL when it could
 * not get one) through the service, and when it does so after its
 * challenge() returned, the session holds what failed until then and
 * sends it once more (session_auth_settled). */
bool host_auth_challenge(struct session *s, const mcph_auth_challenge *ch);
/* The service table. */
const mcph_host_auth *host_auth_service(void);
/* Frees the host's list (host_free). */
void host_auth_free(struct host *h);

#endif
