/*
 * mcphost plugin ABI — the secrets service, "mcph.host.secrets/1" (ABI
 * 1.6).
 *
 * A plugin keeps small secrets (tokens, refresh tokens, client secrets)
 * with the host: each plugin has its own store, which no other plugin can
 * read, kept as files of mode 0600 in a directory of mode 0700 under the
 * per-user state directory ($XDG_STATE_HOME/mcphost/secrets/<plugin id>),
 * checked for owner and mode before every use. A value is replaced
 * whole: a reader never sees half of one.
 *
 * Keys: 1 to 100 bytes of [A-Za-z0-9._-], not starting with '.'.
 * Values: any bytes, at most MCPH_SECRET_MAX.
 *
 * Threads: everything [loop]. Strings returned are the host's, valid
 * until control returns to the loop (abi.h).
 */
#ifndef MCPHOST_SECRETS_H
#define MCPHOST_SECRETS_H

#include "abi.h"
#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_SERVICE_SECRETS "mcph.host.secrets/1"
#define MCPH_SECRET_MAX 65536

typedef struct mcph_host_secrets {
  uint32_t struct_size; /* sizeof(mcph_host_secrets) as the host built it */

  /* [loop] Stores `len` bytes of `value` under `key` for the calling
   * plugin. Returns MCPH_OK, or MCPH_EINVAL (bad key, too long),
   * MCPH_EIO (no state directory, or it failed its checks) with the
   * reason in `err` (may be NULL). */
  int (*set)(const mcph_host *host, const char *key, const char *value,
             size_t len, mcph_error *err);

  /* [loop] The calling plugin's value for `key` (NUL-terminated; its
   * length in *len, which may be NULL), or NULL with MCPH_ENOTFOUND (no
   * such key) or another code in `err`. */
  const char *(*get)(const mcph_host *host, const char *key, size_t *len,
                     mcph_error *err);

  /* [loop] Removes the calling plugin's `key`. MCPH_OK also when there was
   * none. */
  int (*remove)(const mcph_host *host, const char *key, mcph_error *err);
} mcph_host_secrets;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_SECRETS_H */
