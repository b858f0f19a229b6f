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
   * provider and then to the configuration's headers. `config_json` is
   * the server's configuration (borrowed). The string is the plugin's,
   * valid until the next call. Must not block. */
  const char *(*authorization)(void *plugin_ctx, const char *server,
                               const char *config_json);

  /* [loop] The server answered 401 or 403 (`challenge` borrowed for the
   * call). Return MCPH_OK when the provider takes it up (it may call
   * set_authorization of the service, now or later), or MCPH_ENOTSUP.
   * May be NULL. */
  int (*challenge)(void *plugin_ctx, const char *server,
                   const mcph_auth_challenge *challenge);
} mcph_auth_provider;

/* The host service: get_service(MCPH_SERVICE_AUTH). */
typedef struct mcph_host_auth {
  uint32_t struct_size; /* sizeof(mcph_host_auth) as the host built it */

  /* [loop] Sets the Authorization value `value` (NULL: back to the
   * configuration's) on the connection to the configured server
   * `server`, for the requests sent from now on. Only an auth provider
   * may, and only the server's own provider when one gave its value
   * (else MCPH_EDENIED). Returns MCPH_OK;
   * MCPH_ENOTFOUND when the server has no connection, MCPH_ENOTSUP when
   * its transport cannot take one, MCPH_EINVAL for a value that cannot be
   * a header; the reason in `err` (may be NULL). */
  int (*set_authorization)(const mcph_host *host, const char *server,
                           const char *value, mcph_error *err);
} mcph_host_auth;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_AUTH_H */
