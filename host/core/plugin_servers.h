/* Servers that plugins contribute through the server-source extension
 * ("mcph.server-source/1", sdk/include/mcphost/server_source.h). */
#ifndef MCPHOST_PLUGIN_SERVERS_H
#define MCPHOST_PLUGIN_SERVERS_H

#include "config/config_scopes.h"

/* A config_plugin_sources_fn: `ud` is the host. Calls each loaded
 * plugin's list_servers in search order; its failures are recorded as
 * config errors naming the plugin. */
void plugin_servers_list(void *ud, config_plugin_add_fn add, void *add_ud);

#endif
