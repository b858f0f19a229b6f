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
 * Errors, the same for every function (the reason in `err`, which may be
 * NULL; the code is returned either way):
 *   MCPH_EINVAL   a bad key, a NULL value with a length, or a call through
 *                 the host's own table instead of the plugin's;
 *   MCPH_ETOOBIG  a value over MCPH_SECRET_MAX (set), or a stored file
 *                 over it (get: someone else wrote it);
 *   MCPH_ENOTFOUND  get: no such key for this plugin;
 *   MCPH_EIO      no per-user state directory (no home), a store or file
 *                 that failed its owner and mode checks (named in the
 *                 message), or a read or write that failed.
 * Nothing is ever logged with a value in it.
 *
 * Threads: everything [loop]. The string get returns is the host's,
 * valid until control returns to the loop (abi.h): copy it, and clear
 * your copy when done.
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

  /* [loop] Stores `len` bytes of `value` (borrowed) under `key` for the
   * calling plugin, replacing any value whole. Returns MCPH_OK, or
   * MCPH_EINVAL, MCPH_ETOOBIG or MCPH_EIO (above); on an error the old
   * value, if any, is kept. */
  int (*set)(const mcph_host *host, const char *key, const char *value,
             size_t len, mcph_error *err);

  /* [loop] The calling plugin's value for `key` (NUL-terminated, which
   * a value with NUL bytes makes misleading: use *len; `len` may be
   * NULL), or NULL with MCPH_ENOTFOUND (no such key) or another code
   * (above) in `err`. */
  const char *(*get)(const mcph_host *host, const char *key, size_t *len,
                     mcph_error *err);

  /* [loop] Removes the calling plugin's `key`. MCPH_OK also when there was
   * none; else MCPH_EINVAL or MCPH_EIO (above). */
  int (*remove)(const mcph_host *host, const char *key, mcph_error *err);
} mcph_host_secrets;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_SECRETS_H */
