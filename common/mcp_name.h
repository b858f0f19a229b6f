/* A name as it appears in mcp__SERVER__TOOL, by Claude Code's rule: each
 * character (each code point of the UTF-8 text) outside [A-Za-z0-9_-]
 * becomes "_"; for a claude.ai connector ("claude.ai <name>") repeated
 * "_" are then collapsed into one and a leading or trailing "_" is
 * trimmed, so "claude.ai Foo (beta)" is claude_ai_Foo_beta. For the
 * host's names (host/mcp/names.c) and the claudeai plugin's unique
 * connector names. Any thread. */
#ifndef MCPHOST_COMMON_MCP_NAME_H
#define MCPHOST_COMMON_MCP_NAME_H

/* The prefix of a claude.ai connector's server name. */
#define MCP_NAME_CLAUDEAI_PREFIX "claude.ai "

#include <stdbool.h>
#include <stddef.h>

/* Whether `c` is kept as it is in a name: [A-Za-z0-9_-]. */
bool mcp_name_char(unsigned char c);

/* A new string (xmalloc; never NULL). */
char *mcp_name_normalize(const char *s);

/* The same written at `out`, which has room for strlen(s) + 1 bytes (a
 * name never grows); returns its length. */
size_t mcp_name_normalize_to(const char *s, char *out);

#endif
