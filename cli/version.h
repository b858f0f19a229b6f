/* `mcphost --version`. */
#ifndef MCPHOST_CLI_VERSION_H
#define MCPHOST_CLI_VERSION_H

#include <stddef.h>
#include <stdio.h>

#include "core/host.h"

/* Writes "mcphost VERSION (plugin ABI M.N)" to `out`. With verbosity > 0,
 * one fact per line instead: the version, the plugin ABI, then every
 * plugin directory `h` searches, in search order, each with where it came
 * from (--plugin-dir, MCPHOST_PLUGIN_PATH, built-in). `plugin_dirs` are
 * the --plugin-dir values given, borrowed for the call. */
void cli_print_version(FILE *out, const host *h, int verbosity,
                       const char *const *plugin_dirs, size_t nplugin_dirs);

#endif
