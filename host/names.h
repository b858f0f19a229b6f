/* Tool and prompt names as the model sees them: mcp__<server>__<tool>,
 * each part normalized to [A-Za-z0-9_-]. */
#ifndef MCPHOST_NAMES_H
#define MCPHOST_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Returns a new string: `s` with every byte outside [A-Za-z0-9_-]
 * replaced by '_' (a multi-byte UTF-8 character becomes one '_'). */
char *name_normalize(const char *s);

/* Returns a new string "mcp__<server>__<tool>" (both parts normalized). */
char *name_qualify(const char *server, const char *tool);

/* Splits a user-given tool reference into server and tool parts. Accepts
 * "mcp__server__tool" (the tool part may itself contain "__") and
 * "server/tool". Returns false when `ref` has neither shape. The parts are
 * new strings. `*qualified` tells which shape it was: a qualified tool part
 * is normalized and must be matched against the server's tool list. */
bool name_parse(const char *ref, char **server, char **tool, bool *qualified);

#endif
