/* Server configuration: the {"mcpServers": {NAME: {...}}} files used by
 * Claude Code and Claude Desktop, and servers given on the command line.
 * A bad entry costs that entry only; every problem is recorded with the
 * file, the server and the field. */
#ifndef MCPHOST_CONFIG_H
#define MCPHOST_CONFIG_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "mcp_name.h"

/* Where a server came from, highest priority first: on a name clash the
 * scope listed first wins (see config_scopes.h). */
typedef enum config_scope {
  SCOPE_ENTERPRISE, /* managed-mcp.json in the system directory */
  SCOPE_LOCAL,      /* the user's private servers for this project */
  SCOPE_PROJECT,    /* .mcp.json here and in the parent directories */
  SCOPE_USER,       /* the user's settings file */
  SCOPE_DYNAMIC,    /* --mcp-config, --server, --url */
  SCOPE_PLUGIN,     /* contributed by a plugin's server source */
  SCOPE_BUNDLE      /* an installed MCPB bundle (bundles/ is its source) */
} config_scope;
#define SCOPE_LAST SCOPE_BUNDLE

/* Servers a plugin contributed (SCOPE_PLUGIN, SCOPE_BUNDLE). */
#define SCOPE_IS_PROVIDED(s) ((s) == SCOPE_PLUGIN || (s) == SCOPE_BUNDLE)

/* The names of the claude.ai connectors (config_scopes.c), and no
 * other server's. */
#define CONFIG_CLAUDEAI_PREFIX MCP_NAME_CLAUDEAI_PREFIX

/* Whether a server may be started. Only SERVER_ACTIVE ones ever are;
 * the others are listed with `reason`. */
typedef enum server_state {
  SERVER_ACTIVE,   /* usable (a project server: approved) */
  SERVER_PENDING,  /* a project server nobody approved or rejected yet */
  SERVER_REJECTED, /* a project server the user rejected */
  SERVER_DENIED,   /* refused by the allow/deny policy */
  SERVER_DISABLED, /* listed in disabledMcpServers */
  SERVER_SKIPPED,  /* a plugin's server with the command or URL of another */
  SERVER_INPROC    /* "type": "sdk" in a program that serves no in-process
                      servers (config_sources.no_inproc: the mcphost
                      executable): the program that embeds mcphost
                      serves it */
} server_state;

typedef struct server_config {
  char *name;
  char *type;   /* "stdio", "http", ... */
  char *source; /* the file it came from, or "command line" */
  cJSON *json;  /* the entry with ${VAR} expanded: what is run (owned) */
  /* ---- scopes and policy ---- */
  config_scope scope;
  server_state state;
  char *reason; /* why it is not started; NULL when active */
  cJSON *raw;   /* the entry as written, before expansion (owned) */
  char *winner; /* SERVER_SKIPPED: the name of the server it duplicates */
  /* A project server whose entry changed since its approval: what
   * changed (config_approval.h), else NULL. */
  char *changes;
  /* A project server approved by a blanket or a name-only approval that
   * is not yet bound to its entry: the caller records the binding
   * (config_bind_approvals) so that a later change is noticed. */
  bool bind_approval;
  /* A project server: the "permissions" object of its file, which an
   * approval binds too (config_approval.h); NULL when none. Owned. */
  cJSON *file_perms;
  /* A plugin's server shown under a scope of its own (the claude.ai
   * connectors: "claudeai", config_scopes.c); static, NULL otherwise. */
  const char *scope_label;
} server_config;

struct perm_rules; /* permissions.h */

typedef struct config {
  server_config *servers; /* in priority order */
  size_t nservers;
  char **errors; /* one line each, naming file, server and field */
  size_t nerrors;
  char **warnings;
  size_t nwarnings;
  /* For each warning, the server it is about (config_warn_server), or
   * NULL: the configuration as a whole. Shown with what uses that server
   * (host_config.h). Owned. */
  char **warning_servers;
  bool *warning_said; /* shown already, by host_config.h */
  char **notes; /* details worth a line with -v (shadowed names, ...) */
  size_t nnotes;
  struct perm_rules *perms; /* tool permission rules; NULL: none loaded */
  cJSON *managed; /* the enterprise managed settings document, or NULL */
} config;

void config_init(config *c);
void config_free(config *c);

/* Reads one file. `required`: a missing file is an error (a --config
 * argument) rather than silently nothing (.mcp.json). Returns the number
 * of servers added; problems go to c->errors / c->warnings. */
int config_load_file(config *c, const char *path, bool required);

/* Parses a config document held in memory; `source` names it in
 * messages. */
int config_load_text(config *c, const char *text, size_t len,
                     const char *source);

/* Adds a stdio server from a command line "[NAME=]COMMAND [ARG...]",
 * split like a shell does (single and double quotes, backslash), without
 * any expansion. Returns 0 or -1 with an error recorded. */
int config_add_command(config *c, const char *spec);

/* Adds a remote server from "[NAME=]URL" with the given transport type
 * (e.g. "http", "sse"), or NULL: "ws" for a ws:// or wss:// URL, else
 * "http", inferred as for a config entry
 * without "type" (the entry gets no "type" key, so the session may fall
 * back to sse). NAME defaults to the URL's host. Returns 0 or -1 with an
 * error recorded. */
int config_add_url(config *c, const char *spec, const char *type);

const server_config *config_find(const config *c, const char *name);

/* The scope a server is shown under: its scope_label, else its scope's
 * name. Static. */
const char *config_server_scope(const server_config *s);

/* ---- building blocks for the scope loader (config_scopes.c) ---- */

/* Record one message; each names its file, server and JSON path. */
void config_error(config *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void config_warn(config *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void config_note(config *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A warning about server `server` alone. */
void config_warn_server(config *c, const char *server, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Frees the members of one server. */
void config_server_free(server_config *s);

/* Reads and parses a JSON file whose top level must be an object.
 * Returns the document (caller frees), or NULL: the file is missing (an
 * error only when `required`) or bad (an error naming the file is
 * recorded). Refuses what is not a regular file (a directory, a FIFO: a
 * read would block), dangling symlinks, and files over 16 MiB. */
cJSON *config_read_json(config *c, const char *path, bool required);
/* As config_read_json from the file open on `fd` (closed here), which
 * `path` names in messages. */
cJSON *config_read_json_fd(config *c, int fd, const char *path);
/* As config_read_json for text in memory (json_parse_why); `src` names
 * it in messages. */
cJSON *config_parse_json(config *c, const char *text, size_t len,
                         const char *src);

/* Checks one server entry. `where` is its JSON path for messages (e.g.
 * `mcpServers.demo`). Returns its type, or NULL with an error recorded.
 * The transport checks the rest of the entry when it is created. */
const char *config_check_entry(config *c, const char *src, const char *where,
                               const char *name, const cJSON *e);

/* Appends a server without any name check; takes `json`. Scope is
 * dynamic and state active until the caller sets them. */
/* Whether `type` is one of the IDE transports (ws-ide, sse-ide). */
bool config_type_is_ide(const char *type);

server_config *config_append(config *c, const char *name, const char *type,
                             const char *src, cJSON *json);

/* Returns a new string: the JSON path `prefix` followed by `key`, as
 * prefix.key, or prefix["key"] when `key` is not a plain identifier. */
char *config_path_join(const char *prefix, const char *key);

const char *config_scope_name(config_scope s);
/* "pending", "approved" (an active project server), "active", ... */
const char *server_state_name(const server_config *s);

#endif
