/* Slips in a server entry's keys: a key mcphost does not read that is
 * close to one it does ("arg" for "args"), and "disabled" (Cline's and
 * Windsurf's key, which neither Claude Code nor mcphost reads: the server
 * would start). Only warnings: unknown keys stay in the entry and go to
 * the transport, and Claude Code's own keys are known. */
#ifndef MCPHOST_CONFIG_CONFIG_KEYS_H
#define MCPHOST_CONFIG_CONFIG_KEYS_H

#include <cjson/cJSON.h>

#include "config/config.h"

/* Adds a warning to `c` for each such key of entry `e` (server `name` of
 * type `type`, at JSON path `where` in `src`). */
void config_warn_entry_keys(config *c, const char *src, const char *where,
                            const char *name, const char *type, const cJSON *e);

#endif
