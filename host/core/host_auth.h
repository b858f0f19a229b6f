/* Authorization for remote servers, host side (ABI 1.6): asks the auth
 * providers ("mcph.auth/1") for a connection's Authorization value, hands
 * them 401/403 challenges, and offers "mcph.host.auth/1". Keeps the list
 * of connections whose transports were created, so the service can find
 * one by server name. Loop thread. */
#ifndef MCPHOST_HOST_AUTH_H
#define MCPHOST_HOST_AUTH_H

#include <mcphost/mcphost.h>

struct session;
struct host;

/* A session's transport was created (not started yet): registers it and
 * sets the first provider's Authorization value on it, if any. */
void host_auth_attach(struct session *s);
/* The session's transport is going away. */
void host_auth_detach(struct session *s);
/* Hands a 401/403 challenge to the session's provider. */
void host_auth_challenge(struct session *s, const mcph_auth_challenge *ch);
/* The service table. */
const mcph_host_auth *host_auth_service(void);
/* Frees the host's list (host_free). */
void host_auth_free(struct host *h);

#endif
