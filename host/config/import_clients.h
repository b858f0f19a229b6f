/* Other MCP clients' server lists (Cursor, Windsurf, VS Code, Codex) in
 * the mcpServers shape of Claude Code, for an import (mcphost_import_read,
 * which reads Claude Desktop's and Claude Code's in config_import.c).
 * Main thread. */
#ifndef MCPHOST_CONFIG_IMPORT_CLIENTS_H
#define MCPHOST_CONFIG_IMPORT_CLIENTS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

typedef struct import_source {
  cJSON *servers; /* {NAME: entry}, in the mcpServers shape */
  cJSON *skipped; /* [{"name": N, "why": sentence}] */
  cJSON *notes;   /* [sentence]: what was translated or left out */
} import_source;

/* Whether `client` is one of cursor, windsurf, vscode, codex. */
bool import_client_known(const char *client);
/* Where `client` keeps its servers (a new string). */
char *import_client_path(const char *client);
/* Reads `path` as `client` writes it into `out` (free with
 * import_source_free). Returns 0, or -1 with *why (a new sentence that
 * names the file, and for Codex's TOML the line). */
int import_client_read(const char *client, const char *path, import_source *out,
                       char **why);
void import_source_free(import_source *s);
/* For a client that passes "${" on as text (Claude Desktop): the fields
 * of `entry` mcphost expands (command, url, args, env, headers) written
 * so that they reach the server as they are (expand_quote), with a note
 * in `notes` for each naming server `server`, the field and `client` (as
 * a person knows it). */
void import_keep_text(cJSON *notes, const char *client, const char *server,
                      cJSON *entry);

/* ---- config_import.c ---- */

/* Whether `client` is one of those above, claude-desktop or
 * claude-code. */
bool import_known(const char *client);
/* Reads the servers of `client` from `from` (NULL: where it keeps them)
 * into a new report (*out): {"client", "file", "servers": {NAME: entry}
 * (those that pass the loader's checks), "rejected": [sentence] (those
 * that do not), "skipped": [{"name", "why"}] (what mcphost cannot run),
 * "notes": [sentence]}; for claude-code also "project": {"key",
 * "servers", "enabledMcpjsonServers", "disabledMcpjsonServers"}, the
 * record of the project `project_key`. Returns 0; -1 for an unknown
 * client, -2 for a file that cannot be read, with *why (new). */
int import_read(const char *client, const char *from, const char *project_key,
                cJSON **out, char **why);

#endif
