/*
 * mcphost plugin ABI — authorization for remote servers (ABI 1.6).
 *
 * An auth provider (an OAuth plugin, a token from a keyring) offers the
 * extension "mcph.auth/1". Before a server's transport starts, the host
 * asks the providers in search order for the server's Authorization
 * value; the first that gives one is that server's provider, and the
 * host hands the value to the transport (set_authorization, transport.h).
 * When the server answers 401 or 403, the transport reports the parsed
 * challenge (mcph_auth_challenge) and the host hands it to that provider
 * (or, when none gave a value, to each provider in search order until one
 * takes it up), which may fetch a new value and give it with the service
 * "mcph.host.auth/1".
 *
 * After a sign-in (the provider got a token later: a browser flow, a
 * refresh), the provider:
 *   - returns the new value from `authorization` from then on: every
 *     connection made afterwards (a reconnection, the next command) asks
 *     again, so nothing else is needed for them;
 *   - gives it to a connection that is open now with set_authorization
 *     of "mcph.host.auth/1": the requests it sends afterwards carry it.
 *     MCPH_ENOTFOUND means there is none (the value then only matters
 *     to the next one, through `authorization`).
 * The host does not resend a request that was refused: it failed with
 * MCPH_EAUTH (exit code 7), and the server shows "needs-auth" until a
 * connection succeeds; retrying is the caller's choice (run the command
 * again; a plugin connects again with "mcph.host.servers/1").
 *
 * Threads: everything [loop].
 */
#ifndef MCPHOST_AUTH_H
#define MCPHOST_AUTH_H

#include "abi.h"
#include "host.h"
#include "transport.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_EXT_AUTH "mcph.auth/1"
#define MCPH_SERVICE_AUTH "mcph.host.auth/1"

typedef struct mcph_auth_provider {
  uint32_t struct_size; /* sizeof(mcph_auth_provider) */

  /* [loop] The Authorization header value for the configured server
   * `server` (e.g. "Bearer abc"), or NULL to leave it to the next
   * provider and then to the configuration's headers. Asked each time a
   * connection's transport was created, before it starts, and only for
   * transports that take a value (set_authorization); `config_json` is
   * the server's configuration (borrowed). The string is the plugin's,
   * valid until the next call. Must not block (no network, no prompt):
   * answer NULL and start a sign-in from `challenge` instead. Required:
   * a provider without it is not used. */
  const char *(*authorization)(void *plugin_ctx, const char *server,
                               const char *config_json);

  /* [loop] The server answered 401 or 403 (`challenge` borrowed for the
   * call), on a request or on an event stream. Runs inside the
   * transport's on_auth_required: the provider may call set_authorization
   * of the service from here (the transport takes it at once) or later,
   * after a sign-in. Return MCPH_OK when the provider takes it up, or
   * MCPH_ENOTSUP. Must not block. May be NULL. */
  int (*challenge)(void *plugin_ctx, const char *server,
                   const mcph_auth_challenge *challenge);

  /* ---- ABI 1.6, appended ---- */
  /* [loop] May be NULL. Asked when no provider gave a value for the
   * server (after `authorization`), before its transport starts: a
   * reason when this provider already knows that the server needs an
   * authorization this run cannot get (a recent run found it so, and no
   * person can sign in now), or NULL. With a reason the host does not
   * contact the server: the connection fails as needing authorization
   * (MCPH_EAUTH, exit 7, "needs-auth") with it. The string is the
   * plugin's, valid until the next call. Must not block. */
  const char *(*needs_auth)(void *plugin_ctx, const char *server,
                            const char *config_json);
} mcph_auth_provider;

/* The host service: get_service(MCPH_SERVICE_AUTH). */
typedef struct mcph_host_auth {
  uint32_t struct_size; /* sizeof(mcph_host_auth) as the host built it */

  /* [loop] Sets the Authorization value `value` (borrowed; NULL: back to
   * the configuration's) on the connection to the configured server
   * `server`, for the requests sent from now on. Only an auth provider
   * may, and only the server's own provider when one gave its value
   * (else MCPH_EDENIED); when none did, any provider may. Callable from
   * inside the provider's `challenge`. Returns MCPH_OK; MCPH_ENOTFOUND
   * when the server has no connection now; MCPH_ENOTSUP when its
   * transport takes no value (stdio, or a transport without
   * set_authorization: nothing was changed); MCPH_EINVAL for a value that
   * cannot be a header (the old one stays); the reason in `err` (may be
   * NULL). */
  int (*set_authorization)(const mcph_host *host, const char *server,
                           const char *value, mcph_error *err);
} mcph_host_auth;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_AUTH_H */
