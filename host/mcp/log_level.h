/* The MCP logging levels: RFC 5424's eight names, as logging/setLevel,
 * notifications/message and a request's _meta logLevel spell them,
 * ranked "debug" 0 to "emergency" 7. The one table of them, for the
 * CLI's --log-level, the gateway's per-request levels and the sessions'
 * server log lines. Any thread. */
#ifndef MCPHOST_MCP_LOG_LEVEL_H
#define MCPHOST_MCP_LOG_LEVEL_H

#define MCP_LOG_LEVELS 8

/* The rank of `name`, 0 to 7; -1 for any other string and for NULL. */
int mcp_log_level_rank(const char *name);

/* The name of rank `rank` (static), or NULL outside 0 to 7. */
const char *mcp_log_level_name(int rank);

/* How loud mcphost shows a server's line of rank `rank` (MCPH_LOG_*):
 * debug as DEBUG, info and notice as INFO, warning as WARN, the rest as
 * ERROR. */
int mcp_log_level_shown(int rank);

#endif
