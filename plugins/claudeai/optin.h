/* Whether the claude.ai connectors are wanted: they are opt-in, with
 * ENABLE_CLAUDEAI_MCP_SERVERS=1 (true, yes, on) or "claudeAiConnectors":
 * true in the user's settings file (common/settings_paths.h); a falsy
 * ENABLE_CLAUDEAI_MCP_SERVERS (0, false, no, off, empty) wins over the
 * setting, and an enterprise managed-mcp.json turns them off, as in
 * Claude Code. Loop thread. */
#ifndef MCPHOST_CLAUDEAI_OPTIN_H
#define MCPHOST_CLAUDEAI_OPTIN_H

#include <stdbool.h>
#include <stddef.h>

/* True when wanted. When not, `why` says why when it is worth a line
 * with -v (enabled but overruled by the enterprise), else it is "". */
bool optin_enabled(const char *home, char *why, size_t size);

/* optin_env.c, shared with the stub (stub.c), no JSON parser in it. */
/* 1 for a truthy ENABLE_CLAUDEAI_MCP_SERVERS value, 0 falsy, -1 neither
 * (then the setting decides). */
int optin_env_word(const char *v);
/* False only when the connectors are surely not wanted: the variable is
 * falsy, or neither truthy nor set while the user's settings file does
 * not name "claudeAiConnectors" (read as bytes; optin_enabled parses). */
bool optin_maybe(const char *home);

#endif
