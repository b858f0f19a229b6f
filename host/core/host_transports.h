/* The "mcph.host.transports/1" service (ABI 1.6): a transport of any
 * registered type, created for a plugin that builds its own on it.
 * Loop thread. */
#ifndef MCPHOST_HOST_TRANSPORTS_H
#define MCPHOST_HOST_TRANSPORTS_H

#include <mcphost/mcphost.h>

const mcph_host_transports *host_transports_service(void);

#endif
