/* What a tools/list item says about itself, read from its JSON: for the
 * client library (host/mcp/tasks.c) and the front ends that print a
 * listing (cli/commands.c) alike. Any thread. */
#ifndef MCPHOST_COMMON_MCP_TOOL_H
#define MCPHOST_COMMON_MCP_TOOL_H

#include <cjson/cJSON.h>

/* A tools/list item's execution.taskSupport: "required", "optional" or
 * "forbidden" (also for a missing or unknown value). Static strings. */
const char *mcp_tool_task_support(const cJSON *tool);

#endif
