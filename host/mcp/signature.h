/* A tool's signature in one line, from its inputSchema, for people:
 *
 *   mcp__s__t(path: string, depth?: integer = 2, mode?: "a"|"b")
 *
 * Parameters in the schema's order; "?" marks one that is not required;
 * "= V" its default (JSON); a type is its JSON Schema type ("string",
 * "integer", "string|null" for a type array or "nullable"), an enum its
 * values joined by "|", an array "T[]" of its items' type, anyOf and
 * oneOf their alternatives joined by "|", an object with properties
 * "{a: T, b?: T}". The text is the schema's, not escaped: the front end
 * escapes it (text_escape.h) as any server text. Any thread. */
#ifndef MCPHOST_MCP_SIGNATURE_H
#define MCPHOST_MCP_SIGNATURE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/* Returns a new string: `name(params)` for `tool` (a tools/list item). */
char *mcp_tool_signature(const char *name, const cJSON *tool);

/* Returns a new string: the type of one parameter's `schema` as the
 * signature shows it ("any" for none). */
char *mcp_schema_type(const cJSON *schema);

/* Whether object `schema` lists `name` in its "required". */
bool mcp_schema_requires(const cJSON *schema, const char *name);

#endif
