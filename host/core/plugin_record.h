/* A plugin as the plugin listings show it (`mcphost plugins --json`,
 * mcphost_plugins_json, the report of `mcphost plugin check`). */
#ifndef MCPHOST_PLUGIN_RECORD_H
#define MCPHOST_PLUGIN_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/plugins.h"

/* {file, status, id, name, version, description, abi, transports
 * [{type, active, shadowedBy}], serverSource, permissionDecider, warning
 * or error}; new object. A deferred plugin is described from its
 * provides list, not woken. */
cJSON *plugin_record_json(const registry *r, plugin *p);

/* Whether p is a server source, and its description (NULL: none given):
 * a deferred plugin's provides list may say it without waking it. */
bool plugin_server_source(plugin *p, const char **description);

/* Whether `dir` is a directory that can be searched; else false with the
 * reason in `why`. */
bool plugin_dir_usable(const char *dir, char *why, size_t why_len);

#endif
