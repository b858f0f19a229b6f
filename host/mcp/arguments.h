/* A tool's arguments from a command line's words, by its inputSchema:
 * the one rule for `call`, `batch` (and the shell and the gateway), so
 * they cannot drift apart.
 *
 *   KEY=VALUE     the text, coerced by the parameter's schema: a string
 *                 parameter keeps it as it is (id=007 -> "007", true ->
 *                 "true"); integer, number, boolean and null parsed and
 *                 checked; an array or object is JSON; anyOf, oneOf and
 *                 type arrays tried in order; "nullable" takes null.
 *                 Without a schema for KEY: JSON when the text parses as
 *                 JSON, else a string (the rule before schemas).
 *   KEY:=JSON     always JSON, whatever the schema says.
 *   KEY=@FILE     the file's content as the text (KEY:=@FILE as JSON);
 *                 @- reads stdin where the front end allows it.
 *   a.b=1         a dotted key sets a member of a nested object (unless
 *                 the schema has a parameter named "a.b" itself).
 *
 * Words are parsed first (mcp_args_parse_words: syntax and files, before
 * anything connects), then, once the tool is found, coerced and checked
 * by its schema (mcp_args_build, mcp_args_check; calls.c does both for
 * MCP_OP_CALL_TOOL). Any thread; no I/O but the files a word names. */
#ifndef MCPHOST_MCP_ARGUMENTS_H
#define MCPHOST_MCP_ARGUMENTS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "mcp/error.h"

/* mcp_args_parse_words flags. */
#define MCP_ARGS_STDIN 1u /* "@-" reads stdin (else it is refused) */
/* mcp_args_build flags. */
#define MCP_ARGS_LENIENT 2u /* a text the schema cannot take goes by the
                               rule without a schema (--no-validate) */

/* Parses `words` into a new JSON array (*out, caller frees) of
 * {"key": K, "text": T} (to coerce) or {"key": K, "json": V} (as is).
 * Returns 0, or -1 with `err` set (MCP_ERR_USAGE, naming the word). */
int mcp_args_parse_words(int n, char *const *words, unsigned flags,
                         cJSON **out, mcp_error *err);

/* The text of a value: `v` itself, or for "@FILE" the file's content
 * ("@-" stdin, with MCP_ARGS_STDIN). A new string, or NULL with `err` set
 * (MCP_ERR_USAGE, beginning with `what`, e.g. "--args", and naming the
 * file and the reason). */
char *mcp_args_value_text(const char *what, const char *v, unsigned flags,
                          mcp_error *err);

/* Builds the arguments: a copy of `base` (an object, or NULL for {})
 * with each parsed word set, coerced by `schema` (the tool's inputSchema,
 * or NULL for the rule without one; `flags`: MCP_ARGS_LENIENT). Returns 0 with *out (caller frees),
 * or -1 with *why (a new sentence naming the parameter). */
int mcp_args_build(const cJSON *schema, const cJSON *base, const cJSON *words,
                   unsigned flags, cJSON **out, char **why);

/* Checks `args` against `schema`: required parameters missing, keys the
 * schema does not know (when it lists its properties, unless its
 * additionalProperties is true or a schema), values of the wrong type or outside an enum, nested objects
 * and array items likewise. Returns 0, or -1 with *why (a new sentence
 * naming the parameter, with "did you mean" for an unknown key). */
int mcp_args_check(const cJSON *schema, const cJSON *args, char **why);

#endif
