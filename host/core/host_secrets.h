/* The "mcph.host.secrets/1" service (ABI 1.6): one store per plugin, as
 * files of mode 0600 in $STATE/secrets/<plugin id>/ (mode 0700), every
 * directory and file checked by common/trusted_fs.h. Loop thread. */
#ifndef MCPHOST_HOST_SECRETS_H
#define MCPHOST_HOST_SECRETS_H

#include <mcphost/mcphost.h>

const mcph_host_secrets *host_secrets_service(void);

#endif
