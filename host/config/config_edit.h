/* Editing the configuration scopes (the client API's mcphost_config_*,
 * which `mcphost mcp` uses): which file and JSON object a scope's
 * servers live in, and the locked, atomic edits on them (config_write.h).
 *
 *   local    USER_SETTINGS: projects["<project dir>"].mcpServers
 *   user     USER_SETTINGS: mcpServers
 *   project  ./.mcp.json: mcpServers
 * Approval choices live in USER_SETTINGS: projects["<project dir>"]. */
#ifndef MCPHOST_CONFIG_EDIT_H
#define MCPHOST_CONFIG_EDIT_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "config/config_scopes.h"

/* A writable scope: where its servers are. */
typedef struct edit_target {
  config_scope scope; /* SCOPE_LOCAL, SCOPE_USER or SCOPE_PROJECT */
  char *file;
  char *record;  /* projects{} key for local scope, else NULL */
  char *tree;    /* project scope: the tree the file must stay in */
  char *foreign; /* project scope: why the file is refused, or NULL */
} edit_target;

/* Parses "local", "user", "project"; false for anything else. */
bool edit_parse_scope(const char *s, config_scope *out);
void edit_target_init(edit_target *t, config_scope scope,
                      const config_paths *p);
void edit_target_free(edit_target *t);
/* "local config (FILE)" and the like, for messages. New string. */
char *edit_target_text(const edit_target *t);

/* Server names that `mcp add` accepts, as Claude Code: [A-Za-z0-9_-]. */
bool edit_valid_name(const char *name);

/* Adds the servers of `servers` (an object NAME -> entry) to the target.
 * A name that exists with an identical entry is skipped; with `rename`,
 * one that exists with another entry is added as NAME_1, NAME_2, ...;
 * without, it is an error and nothing is written. Fills `added` and
 * `skipped` (arrays of names, as written) when not NULL. A new file is
 * mode 0600 when an entry holds env or headers (or for the settings
 * file), else 0644. Returns 1 written, 0 nothing to do, -1 with `why`. */
int edit_add_servers(const edit_target *t, const cJSON *servers, bool rename,
                     cJSON *added, cJSON *skipped, char *why, size_t why_len);

/* Adds the servers of `servers` as an import does: an entry whose
 * content (defaults aside: "type": "stdio" beside a command, empty args
 * and env) is there already, under its name or a renamed copy (NAME_1,
 * ...), is skipped; a name taken by another entry gets NAME_1, ... Fills
 * `added` and `skipped` (arrays of names as written). Returns as
 * edit_add_servers. */
int edit_import_servers(const edit_target *t, const cJSON *servers,
                        cJSON *added, cJSON *skipped, char *why,
                        size_t why_len);

/* Adding to or removing from a project file is refused when it is a
 * symbolic link that leaves the project tree (config_trust.h). */

/* Removes a server. Returns 1 removed, 0 not there, -1 with `why`. */
int edit_remove_server(const edit_target *t, const char *name, char *why,
                       size_t why_len);

/* The target's servers object as the file holds it now, read without a
 * lock (a new object; {} without any, or when a project file links out
 * of its tree). */
cJSON *edit_servers(const edit_target *t);

/* One project server as the walk found it: what an approval binds. */
typedef struct edit_choice {
  const char *name;
  const char *file;   /* the .mcp.json it came from; NULL for reject */
  const cJSON *raw;   /* its entry as written; NULL for reject */
  const cJSON *perms; /* its file's "permissions", or NULL */
} edit_choice;

/* Project choices, in the user settings' record of project `key`:
 * approve moves names to enabledMcpjsonServers and records what each was
 * approved as in approvedMcpjsonEntries (config_approval.h), reject moves
 * them to disabledMcpjsonServers and forgets the record, reset clears
 * both lists, the records and enableAllProjectMcpServers. Returns 1
 * written, 0 unchanged, -1 with `why`. */
typedef enum { CHOICE_APPROVE, CHOICE_REJECT, CHOICE_RESET } choice_kind;
int edit_project_choice(const char *settings, const char *key, choice_kind kind,
                        const edit_choice *items, size_t n, char *why,
                        size_t why_len);

#endif
