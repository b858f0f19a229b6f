/* The "mcph.host.config/1" service (ABI 1.6): the server sources read
 * again with the sources the application loaded them from
 * (host_set_config_sources). Loop thread. */
#ifndef MCPHOST_HOST_CONFIG_H
#define MCPHOST_HOST_CONFIG_H

#include <mcphost/mcphost.h>

#include "config_scopes.h"

struct host;

/* The sources the configuration was loaded from (copied; the strings
 * they point to must outlive the host), so it can be read again. */
void host_set_config_sources(struct host *h, const config_sources *o);

/* Prints the configuration's errors, warnings and (with -v) notes. */
void host_config_report(struct host *h);

const mcph_host_config *host_config_service(void);

#endif
