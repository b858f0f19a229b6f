/* The HTTP request headers of the 2026-07-28 era, worked out by the
 * session for each message (the transport sends them: transport.h's
 * send_headers), and the x-mcp-header rules for tool schemas:
 *
 *   MCP-Protocol-Version  = the message's _meta protocolVersion
 *   Mcp-Method            = its method (requests)
 *   Mcp-Name              = params.name (tools/call, prompts/get) or
 *                           params.uri (resources/read)
 *   Mcp-Param-{X}         = the tools/call argument whose schema says
 *                           "x-mcp-header": "X" (absent or null: none)
 *
 * A value is sent as is (a string; an integer in decimal; true/false)
 * unless it has a byte outside visible ASCII and space, leading or
 * trailing whitespace, or looks encoded already: then it is
 * "=?base64?<base64 of its UTF-8>?=". Loop thread only. */
#ifndef MCPHOST_MCP_ERA_HEADERS_H
#define MCPHOST_MCP_ERA_HEADERS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* A header value for `text` (`len` bytes), encoded as above: a new
 * string (free()). */
char *era_header_value(const char *text, size_t len);

/* Checks the x-mcp-header annotations of `tool` (a tools/list item):
 * false, with the reason in `why`, when one breaks the rules (not a
 * non-empty RFC 9110 token; not unique case-insensitively; not on a
 * string, integer or boolean property; reached otherwise than through
 * "properties"), and the tool must then be left out. On true, *map (may
 * be NULL on input) gets the tool's [[header, key, key...], ...] list,
 * or NULL when it has none (new array, owned by the caller). */
bool era_tool_headers(const cJSON *tool, cJSON **map, char *why, size_t n);

/* The headers of the message `msg` (a parsed request or notification):
 * a new NULL-terminated array of name, value, name, value ... strings
 * (free with era_headers_free), *count the number of pairs. `tools` is
 * the session's object of tool name -> era_tool_headers map (may be
 * NULL). NULL when the message has no method. */
char **era_message_headers(const cJSON *msg, const cJSON *tools, size_t *count);
void era_headers_free(char **headers);

#endif
