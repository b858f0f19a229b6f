/* Finding and merging the configuration scopes, highest priority first:
 *
 *   enterprise  SYSTEM/managed-mcp.json (servers), SYSTEM/managed-settings.json
 *               (policy, permissions); SYSTEM is /etc/mcphost or
 *               $MCPHOST_SYSTEM_CONFIG_DIR. While managed-mcp.json exists
 *               only its servers exist (exclusive mode), unless
 *               managed-settings.json says "managedMcpServersExclusive": false.
 *   local       projects["<project dir>"].mcpServers in the user settings
 *   project     .mcp.json in the working directory and each parent up to the
 *               repository root (a directory holding .git), $HOME, the
 *               file-system boundary or /, deeper files first; only files
 *               no other user could write (config_trust.h); servers need
 *               approval, bound to their entry (config_approval.h)
 *   user        mcpServers in $XDG_CONFIG_HOME/mcphost/settings.json
 *   dynamic     --server, --url, --mcp-config (--strict-mcp-config: only these)
 *   plugin      servers from plugins' server sources, named plugin:<id>:<name>
 *
 * A name defined in two scopes is the higher scope's, except that a
 * project server nobody approved never hides another scope's server.
 * After the policy (config_policy.h) each server has a state. As in
 * Claude Code, only servers that plugins provide are deduplicated: one
 * with the command or URL of an active server configured by hand (or of
 * another plugin's, earlier) is kept in the list as SERVER_SKIPPED, naming
 * the winner; servers configured by hand are never dropped. */
#ifndef MCPHOST_CONFIG_SCOPES_H
#define MCPHOST_CONFIG_SCOPES_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"

#define CONFIG_MANAGED_MCP "managed-mcp.json"
#define CONFIG_MANAGED_SETTINGS "managed-settings.json"
#define CONFIG_PROJECT_FILE ".mcp.json"

/* Receives one plugin's servers: {"mcpServers": {...}} text, borrowed. */
typedef void (*config_plugin_add_fn)(void *add_ud, const char *plugin_id,
                                     const char *json, size_t len);
/* Calls `add` for every server source of every loaded plugin. */
typedef void (*config_plugin_sources_fn)(void *ud, config_plugin_add_fn add,
                                         void *add_ud);

typedef struct config_sources {
  /* NULL: the defaults (getcwd, $HOME, the XDG path, the system dir). */
  const char *cwd;
  const char *home;
  const char *user_settings;
  const char *system_dir;
  /* Dynamic scope, in this order: --server specs, --url specs (of type
   * url_type, default "http"), --mcp-config FILEs or JSON texts. */
  const char *const *server_specs;
  size_t nserver_specs;
  const char *const *urls;
  size_t nurls;
  const char *url_type;
  const char *const *mcp_configs;
  size_t nmcp_configs;
  /* The documents of mcp_configs as config_check_dynamic read them
   * (borrowed, for this load only; NULL: read here): a file is read and
   * parsed once for the check and the load. */
  cJSON *const *mcp_docs;
  bool strict;          /* --strict-mcp-config */
  /* --approve-project: pending counts as approved, for the files of the
   * working directory's repository (or the working directory's own
   * .mcp.json outside a repository) */
  bool approve_project;
  config_plugin_sources_fn plugin_sources; /* NULL: none */
  void *plugin_ud;
  /* The program serves no in-process servers (the mcphost executable):
   * an entry of type "sdk" that the policy lets start is SERVER_INPROC,
   * listed with its reason and never started. */
  bool no_inproc;
} config_sources;

/* Every file the scopes use, resolved from config_sources. */
typedef struct config_paths {
  char *cwd;         /* absolute working directory */
  char *project_key; /* its real path: the key of projects{} */
  char *home;
  char *user_settings;
  char *system_dir;
  char *managed_mcp;
  char *managed_settings;
  char **project_files; /* .mcp.json candidates, deepest first */
  size_t nproject_files;
  char *repo_root; /* the nearest directory holding .git, or NULL */
  /* The files of the other scopes (user settings, managed files,
   * --mcp-config files): a project file must never be one of them. */
  char **scope_files;
  size_t nscope_files;
} config_paths;

/* The tree a project file may link into and --approve-project covers:
 * the repository root, else the file's own directory. New string. */
char *config_project_tree(const config_paths *p, const char *file);

void config_paths_init(config_paths *p, const config_sources *o);

/* 0 when the project file `file` (the one open on `fd`, or when `fd` is
 * -1 the one its path names) is not, by device and inode, a file of
 * another scope; else -1 with `why` naming both. A missing file is 0. */
int config_project_file_foreign(const config_paths *p, const char *file,
                                int fd, char *why, size_t why_len);
void config_paths_free(config_paths *p);

/* Loads every scope into `c` (which should be empty): servers in
 * priority order with their scope, state and reason; permission rules
 * in c->perms; problems in c->errors / warnings / notes. */
void config_load_scopes(config *c, const config_sources *o);

/* The servers given on the command line (--server, --url) parsed into
 * `c`, as the dynamic scope takes them; problems in c->errors. */
void config_add_command_line(config *c, const config_sources *o);
/* The --mcp-config argument `arg` (the `i`th, from 0): inline JSON or a
 * file. Returns its document (free with cJSON_Delete) or NULL with the
 * problem in c->errors; *src (when not NULL) gets a new string naming it
 * in messages. */
cJSON *config_read_mcp_config(config *c, const char *arg, size_t i,
                              char **src);
/* The servers a program gives itself (--server, --url, --transport's
 * type aside, and every --mcp-config) read alone into `c` (which should
 * be empty), by the parsers above: what is wrong with them is in
 * c->errors, to be said before anything else is loaded. `docs` (or
 * NULL) gets the --mcp-config documents (o->nmcp_configs of them, NULL
 * for one that could not be read; free with config_docs_free), for the
 * load that follows (config_sources.mcp_docs). */
void config_check_dynamic(config *c, const config_sources *o, cJSON ***docs);
void config_docs_free(cJSON **docs, size_t n);

/* The project server `name` as the walk finds it (the deepest trusted
 * file defining it), loaded into `c` (which should be empty) with the
 * policy applied: its state, and why. Returns it, or NULL (problems are
 * in c->errors / warnings). */
const server_config *config_load_project_server(config *c,
                                                const config_sources *o,
                                                const char *name);

/* Records what each server of `cfg` approved without a record of its
 * entry (a blanket setting, a name alone: bind_approval) was approved as
 * (config_approval.h), in the user settings of `o`'s paths, so that a
 * later change of the entry is noticed. 0, or -1 with `why` filled. */
int config_bind_approvals(const config *cfg, const config_sources *o,
                          char *why, size_t why_len);

#endif
