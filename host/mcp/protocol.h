/* The MCP protocol versions mcphost speaks: two tables, newest first.
 * The initialize era's (legacy): the newest is the one initialize asks
 * for; any of them is accepted back. The stateless era's (modern,
 * era.h): the newest is the one every request's _meta names; a server
 * offers its list in server/discover or in a -32022 error, and the first
 * of ours it lists is used. Constant data: any thread. */
#ifndef MCPHOST_MCP_PROTOCOL_H
#define MCPHOST_MCP_PROTOCOL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "config/era_policy.h"

/* The versions, newest first, NULL-terminated. */
extern const char *const mcp_protocol_versions[];

/* The version initialize asks for (the table's first). */
const char *mcp_protocol_latest(void);
/* Whether a server's answer `v` is one of the table's. */
bool mcp_protocol_supported(const char *v);
/* "2025-11-25, 2025-06-18, ..." for messages, into `buf` (`n` bytes,
 * always NUL-terminated; cut when too small). */
void mcp_protocol_list(char *buf, size_t n);

/* era_policy, era_policy_parse: config/era_policy.h. */

/* The modern versions, newest first, NULL-terminated. */
extern const char *const mcp_protocol_modern_versions[];
/* The modern version a request asks for by default (the first). */
const char *mcp_protocol_modern_latest(void);
/* Whether `v` is one of the modern versions. */
bool mcp_protocol_modern_supported(const char *v);
/* The first of our modern versions that the JSON array `offered` (of
 * strings) holds, or NULL (not an array, or none in common). Static. */
const char *mcp_protocol_modern_pick(const cJSON *offered);

#endif
