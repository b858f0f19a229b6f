/*
 * mcphost plugin ABI — the server-source extension, id
 * "mcph.server-source/1" (ABI 1.3).
 *
 * A plugin that contributes MCP servers (installed bundles, a company
 * catalogue, ...) returns this table from get_extension. Whenever the
 * host loads its configuration it calls list_servers, and the plugin
 * hands over its servers as JSON text in the shape of a .mcp.json file:
 *
 *   {"mcpServers": {"NAME": {"command": "...", "args": [...]}, ...}}
 *
 * The host names each one "plugin:<plugin id>:<NAME>", so it never
 * clashes with a server someone wrote by hand, and treats it like any
 * other configured server: the same checks, ${VAR} expansion, the
 * enterprise allow and deny lists, duplicate detection. Plugin-provided
 * servers have the lowest priority of all scopes and need no approval.
 */
#ifndef MCPHOST_SERVER_SOURCE_H
#define MCPHOST_SERVER_SOURCE_H

#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_EXT_SERVER_SOURCE "mcph.server-source/1"

/* [loop] Host callback handed to list_servers (the 1.3 way, kept for 1.x
 * plugins; since 1.6 a thin wrapper over the path respond() takes, see
 * `list`). `json` is {"mcpServers": {...}} text, `len` bytes (need not
 * be NUL-terminated), borrowed for the call: the host copies what it
 * keeps. Call it zero or more times, only from inside list_servers, on
 * the loop thread. */
typedef void (*mcph_server_source_emit_fn)(void *emit_ud, const char *json,
                                           size_t len);

typedef struct mcph_server_source {
  uint32_t struct_size; /* sizeof(mcph_server_source) */

  /* For people, e.g. "installed MCPB bundles"; static, may be NULL. */
  const char *description;

  /* [loop] Lists the plugin's servers now, through `emit`. Must
   * not block on the network: list what is known locally. It runs while
   * the host reads its configuration: "mcph.host.config/1" reload is
   * refused from inside it (MCPH_EINVAL), and what "mcph.host.servers/1"
   * lists then is the configuration being built, incomplete: do not
   * rely on it. Returns 0, or a negative
   * MCPH_E* code with `err` filled; what was emitted before an error is
   * still used, and the message is reported naming the plugin. */
  int (*list_servers)(void *plugin_ctx, mcph_server_source_emit_fn emit,
                      void *emit_ud, mcph_error *err);

  /* ---- ABI 1.6 ---- (may be NULL; the host prefers it to list_servers,
   * which may then be NULL too) */
  /* [loop] Lists the plugin's servers now, answering `req` the one way
   * (abi.h, "Answering a pending request"): respond(host, req,
   * "{\"mcpServers\": {...}}", err) of "mcph.host.features/1", once,
   * before returning (the configuration is read at once: `req` is dead
   * when list returns, answered or not). No answer is no servers.
   * respond_error(host, req, code, message) reports the message, naming
   * the plugin, as an error return does. Returns 0, or a negative MCPH_E*
   * code with `err` filled: what was answered before is still used. */
  int (*list)(void *plugin_ctx, mcph_request *req, mcph_error *err);
} mcph_server_source;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_SERVER_SOURCE_H */
