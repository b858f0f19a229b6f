/* The "mcph.host.config/1" service (ABI 1.6): the server sources read
 * again with the sources the application loaded them from
 * (host_set_config_sources). Loop thread. */
#ifndef MCPHOST_HOST_CONFIG_H
#define MCPHOST_HOST_CONFIG_H

#include <mcphost/mcphost.h>

#include "config/config_scopes.h"

struct host;

/* What the application does with each configuration it loaded, before
 * it is reported (the CLI binds approvals): `ud` as given. */
typedef void (*host_config_loaded_fn)(void *ud, const config *cfg);

/* The sources the configuration was loaded from (copied; the strings
 * they point to must outlive the host), so it can be read again; after a
 * reload `loaded` (may be NULL) runs with `ud`, then the report. */
void host_set_config_sources(struct host *h, const config_sources *o,
                             host_config_loaded_fn loaded, void *ud);

/* Prints the configuration's errors, its warnings about no one server
 * and (with -v) notes, one line each: they quote names, paths and
 * commands from config files, so escaped (text_escape.h, as the CLI
 * escapes). A warning about one server waits for what uses it. */
void host_config_report(struct host *h);
/* The warnings about server `name` not shown yet, shown: when it is
 * first used (mcp/client.h makes its connection), so once in a process
 * (a session: with the first command that uses it). */
void host_config_report_server(struct host *h, const char *name);
/* Every warning about a server, shown: for what lists the servers
 * (servers, mcp list). */
void host_config_report_servers(struct host *h);

/* `o` with the loaded plugins' server sources (mcph.server-source/1)
 * added: what a front end gives config_load_scopes and
 * host_set_config_sources. The strings stay `o`'s. */
config_sources host_config_with_plugin_sources(struct host *h,
                                               const config_sources *o);

const mcph_host_config *host_config_service(void);
/* The service's reload, for a front end (the session process reads its
 * configuration again when a file changed): the same checks, refusals
 * and report. MCPH_OK or the error, with the reason in `err`. */
int host_config_reload(struct host *h, mcph_error *err);

#endif
