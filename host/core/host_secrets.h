/* The "mcph.host.secrets/1" service (ABI 1.6): one store per plugin, as
 * files of mode 0600 in $STATE/secrets/<plugin id>/ (mode 0700), every
 * directory and file checked by common/trusted_fs.h. set, get and remove
 * on the loop (host_secrets.c); update, the locked read-modify-write, on
 * any thread (host_secrets_update.c). */
#ifndef MCPHOST_HOST_SECRETS_H
#define MCPHOST_HOST_SECRETS_H

#include <mcphost/mcphost.h>

#include <stdbool.h>

const mcph_host_secrets *host_secrets_service(void);

/* Whether `key` is a valid key (1 to 100 bytes of [A-Za-z0-9._-], not
 * starting with '.'). Any thread. */
bool host_secrets_key_ok(const char *key);

/* Opens the directory of `key` for the plugin `api` was handed to: its
 * own store, or with MCPH_SECRET_SHARED in `flags` the per-user state
 * directory; created 0700 when `create`. Returns a directory fd, or a
 * negative MCPH_E* code with the reason in `err` (may be NULL; ENOTFOUND
 * when it does not exist and not `create`); *path gets its name (a new
 * string, also on errors after the key check). Any thread: it reads only
 * what is fixed once the host started. */
int host_secrets_open_dir(const mcph_host *api, const char *key, unsigned flags,
                          bool create, char **path, mcph_error *err);

/* The service's update (secrets.h). Any thread. */
int host_secrets_update(const mcph_host *api, const char *key, unsigned flags,
                        mcph_secret_update_cb cb, void *ud, mcph_error *err);

#endif
