/* The era verdicts kept across runs (era.h): one file per server,
 * <state>/protocol/<name>.json (mode 0600 in a private directory, opened
 * through trusted_fs.h, never through a link), holding
 *   {"config": "fnv1a64:<hex>", "era": "legacy"|"modern",
 *    "version": "2025-11-25", "rootsQuiet": "<name>\n<version>"}
 * (rootsQuiet: the serverInfo of a legacy server that asked no
 * roots/list when told initialized, roots_settle.h) where config is a hash of
 * the entry as run (fnv.h: no cryptography, so no libcrypto to load). A verdict
 * holds only while the server's entry (after ${VAR} expansion) is the one it
 * was found for: any change to the entry invalidates it. What cannot be read or
 * written is said at debug level and costs only the probe. Loop thread only. */
#ifndef MCPHOST_MCP_ERA_CACHE_H
#define MCPHOST_MCP_ERA_CACHE_H

#include "config/config.h"
#include "core/host.h"
#include "mcp/era.h"

/* The cached era of `cfg`, or ERA_UNKNOWN (none, another entry's, or
 * unreadable); *version and *roots_quiet (each may be NULL) get the
 * version it spoke and its rootsQuiet (new strings, free(); NULL when
 * none). */
mcp_era era_cache_get(host *h, const server_config *cfg, char **version,
                      char **roots_quiet);
/* Records `era` (ERA_UNKNOWN: forgets it) for `cfg`, with `roots_quiet`
 * (NULL: none). */
void era_cache_put(host *h, const server_config *cfg, mcp_era era,
                   const char *version, const char *roots_quiet);

#endif
