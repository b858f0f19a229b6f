/* Tool and prompt names as the model sees them: mcp__<server>__<tool>,
 * each part normalized to [A-Za-z0-9_-], the whole within a length limit
 * (64 by default: the model APIs' limit), deterministic and without
 * collisions among one server's tools.
 *
 * How a server's list is named (name_assign):
 *   - the server part is the normalized server name; one longer than
 *     (max_len - 7) / 2 is cut and given a hash: "<prefix>_<8 hex>";
 *   - a tool whose "mcp__<server>__<normalized tool>" fits keeps it;
 *   - a tool whose name does not fit is cut and given a hash of its
 *     original name: "mcp__<server>__<prefix>_<8 hex>";
 *   - when two tools would get the same name, the first in this order
 *     keeps it and the others get a hashed form as above: tools whose
 *     original name is already normalized, then the others; within each,
 *     by original name (bytes), then by position in the list. A hashed
 *     form already taken is rehashed (deterministically) until free.
 * The same list gives the same names in every run, whatever its order. */
#ifndef MCPHOST_NAMES_H
#define MCPHOST_NAMES_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* Returns a new string: `s` with every byte outside [A-Za-z0-9_-]
 * replaced by '_' (a multi-byte UTF-8 character becomes one '_'); a
 * claude.ai connector's name with repeated '_' collapsed and none at
 * either end, as Claude Code names it (mcp_name.h). */
char *name_normalize(const char *s);

/* Returns a new string: the server part of names for `server`, within
 * the limit implied by `max_len` (the whole name's limit). */
char *name_server_part(const char *server, size_t max_len);

/* The same in `buf` when the server's name is shorter than NAME_PART_BUF
 * bytes (nearly always: no allocation on every call), else in a new
 * string: *part says where (free it when it is not `buf`). Returns its
 * length. */
#define NAME_PART_BUF 128
size_t name_server_part_buf(const char *server, size_t max_len,
                            char buf[NAME_PART_BUF], char **part);

/* Names one server's items (tools or prompts): `originals[i]` is the
 * i-th item's name as the server gave it, or NULL for an item without a
 * name. Returns an array of `n` new strings "mcp__<server>__<item>" (NULL
 * where the original was NULL); free with name_list_free. */
char **name_assign(const char *server, const char *const *originals, size_t n,
                   size_t max_len);
void name_list_free(char **names, size_t n);

/* name_assign over a JSON array of items with a string "name" each (as
 * tools/list and prompts/list return them). *n gets the array's size. */
char **name_assign_items(const char *server, const cJSON *items, size_t max_len,
                         size_t *n);

/* The item of `items` that the reference `want` means: `want` is what
 * follows "mcp__<server part>__" in a qualified reference, and matches
 * the item whose assigned name ends with it; failing that, an item whose
 * original name is exactly `want`. Borrowed from `items`; NULL if none. */
const cJSON *name_find_item(const char *server, const cJSON *items,
                            size_t max_len, const char *want);

/* The default limit of a whole name: the model APIs' limit. */
#define NAME_MAX_LEN 64

/* Returns a new string: the name name_assign gives `tool` when it is the
 * server's only item, under the default limit. */
char *name_qualify(const char *server, const char *tool);

/* Whether a model may see `tool` of a server of transport `type`: as in
 * Claude Code, of an IDE (ws-ide, sse-ide) only getDiagnostics and
 * executeCode; the IDE's other tools (openFile, openDiff, ...) are the
 * host's to call. Every other server's tools are all visible. */
bool name_tool_model_visible(const char *type, const char *tool);

/* Splits a user-given tool reference into server and tool parts. Accepts
 * "mcp__server__tool" (the tool part may itself contain "__") and
 * "server/tool". Returns false when `ref` has neither shape. The parts are
 * new strings. `*qualified` tells which shape it was: a qualified tool part
 * is normalized and must be matched against the server's tool list. */
bool name_parse(const char *ref, char **server, char **tool, bool *qualified);

#endif
