/* `mcphost --version`. */
#ifndef MCPHOST_CLI_VERSION_H
#define MCPHOST_CLI_VERSION_H

#include <stdio.h>

#include <mcphost/client.h>

/* Writes "mcphost VERSION (plugin ABI M.N)" to `out`. With verbosity > 0,
 * one fact per line instead: the version, the plugin ABI, then every
 * plugin directory the client `api` searches, in search order, each with
 * where it came from (--plugin-dir, MCPHOST_PLUGIN_PATH, built-in). */
void cli_print_version(FILE *out, mcphost_client *api, int verbosity);

#endif
