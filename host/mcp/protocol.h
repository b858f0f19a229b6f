/* The MCP protocol versions mcphost speaks: one table, newest first. The
 * newest is the one initialize asks for; any of them is accepted back.
 * Constant data: any thread. */
#ifndef MCPHOST_MCP_PROTOCOL_H
#define MCPHOST_MCP_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

/* The versions, newest first, NULL-terminated. */
extern const char *const mcp_protocol_versions[];

/* The version initialize asks for (the table's first). */
const char *mcp_protocol_latest(void);
/* Whether a server's answer `v` is one of the table's. */
bool mcp_protocol_supported(const char *v);
/* "2025-11-25, 2025-06-18, ..." for messages, into `buf` (`n` bytes,
 * always NUL-terminated; cut when too small). */
void mcp_protocol_list(char *buf, size_t n);

#endif
