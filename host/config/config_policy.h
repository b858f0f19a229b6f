/* Which configured servers may start: the allow and deny lists
 * (allowedMcpServers / deniedMcpServers), disabledMcpServers, reserved
 * names, the approval of project servers, and duplicates by content.
 *
 * Policy entries are Claude Code's objects — {"serverName": "github"},
 * {"serverCommand": ["npx", "-y", "pkg"]}, {"serverUrl":
 * "https://mcp.example.com/..."} with `*` wildcards — or a plain string,
 * a server name. `*` is a
 * wildcard in names and URLs; a command matches the exact array
 * [command, args...]. The deny list wins over everything; no allow list
 * allows all; an empty allow list allows none. */
#ifndef MCPHOST_CONFIG_POLICY_H
#define MCPHOST_CONFIG_POLICY_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "config/config.h"

typedef enum { PE_NAME, PE_COMMAND, PE_URL } policy_kind;

typedef struct policy_entry {
  policy_kind kind;
  char *pattern;  /* PE_NAME, PE_URL */
  cJSON *command; /* PE_COMMAND: array of strings (owned) */
  config_scope scope;
  char *origin; /* "FILE: deniedMcpServers[2]" */
  char *text;   /* the entry as JSON, for messages */
} policy_entry;

typedef struct name_list {
  char **names;
  char **origins;
  size_t n;
} name_list;

typedef struct config_policy {
  policy_entry *allow, *deny;
  size_t nallow, ndeny;
  bool allow_set[SCOPE_LAST + 1]; /* which scopes gave an allow list */
  char *allow_origin[SCOPE_LAST + 1];
  bool managed_only;  /* allowManagedMcpServersOnly: only enterprise allows */
  char *fail_closed;  /* the enterprise policy is unreadable: why */
  name_list disabled; /* disabledMcpServers */
  name_list approved; /* enabledMcpjsonServers of this project's record */
  /* enabledMcpjsonServers at the top level of the user or enterprise
   * settings: a name approved in every repository. */
  name_list approved_everywhere;
  name_list rejected;       /* disabledMcpjsonServers */
  cJSON *bound;             /* the record's approvedMcpjsonEntries; owned */
  char *approve_all_origin; /* enableAllProjectMcpServers: where; NULL */
  /* The project files --approve-project (or the env variable) covers:
   * those of the working directory's repository; approve_cli: given. */
  name_list approve_cli_files;
  bool approve_cli;
  /* allowedEnvVars of the user settings and of the enterprise settings:
   * what project and plugin servers may expand (each given list must
   * allow a variable). */
  name_list env_allowed[2];
  bool env_allowed_set[2];
  char *env_allowed_origin;
  /* allowedServerSecrets of the user settings [0] and of the enterprise
   * settings [1], as checked by policy_load_secrets (owned), and where
   * each was given: what project and plugin servers may read of the
   * user's secrets (approval_reads() "secret" items). */
  cJSON *secrets_allowed[2];
  char *secrets_origin[2];
  char *home; /* for "~/" in allowedServerSecrets files */
} config_policy;

void policy_init(config_policy *p);
void policy_free(config_policy *p);

/* Reads an allowedMcpServers (`allow`) or deniedMcpServers list found in
 * `src` at `where`. A bad entry is an error and costs that entry. */
void policy_load_list(config_policy *p, config *c, const cJSON *list,
                      bool allow, config_scope scope, const char *src,
                      const char *where);

/* Appends a name and where it was given (copies both). */
void policy_names_add(name_list *l, const char *name, const char *origin);

/* Reads a list of names into `l`: server names (disabledMcpServers,
 * ...) or, with `what` "variable", allowedEnvVars patterns. */
void policy_load_names(name_list *l, config *c, const cJSON *list,
                       const char *what, const char *src, const char *where);

/* Sets s->state and s->reason from the policy: denied, disabled, and for
 * project servers rejected, approved or pending (config_approval.h: an
 * approval holds only for the entry it was given to). Warnings about
 * blanket approvals go to `c`. */
void policy_apply(const config_policy *p, config *c, server_config *s);

/* Whether allowedEnvVars lets project and plugin servers expand `var`. */
bool policy_env_allowed(const config_policy *p, const char *var);

/* Reads an allowedServerSecrets object found in `src` at `where` (`k`: 0
 * the user settings, 1 the enterprise settings): {"SERVER": {"envVars":
 * [names, `*` wildcards], "files": [absolute or "~/" paths], "xaa":
 * true}}. A bad part is an error and allows nothing. */
void policy_load_secrets(config_policy *p, config *c, const cJSON *v, size_t k,
                         const char *src, const char *where);

/* Where the settings let server `name` read `r` (an approval_reads()
 * item): "FILE: allowedServerSecrets.NAME.files", or NULL when they do
 * not. */
const char *policy_secret_allowed(const config_policy *p, const char *name,
                                  const cJSON *r);

/* Why a name cannot be used in `scope`, or NULL when it can. Names that
 * start with "plugin:" belong to plugin-provided servers. */
const char *policy_reserved(const char *name, config_scope scope);

/* The content signature used to find duplicates: "stdio:" + the JSON
 * array [command, args...], or "url:" + the URL (the inner URL when it
 * is a proxy URL carrying `mcp_url=`). NULL for other types. New string. */
char *policy_signature(const server_config *s);

/* Whether a URL pattern with `*` wildcards matches `url`. */
bool policy_url_match(const char *pattern, const char *url);

#endif
