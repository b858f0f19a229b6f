/* Tool permissions: `permissions: {allow, ask, deny, default}` rules from
 * the enterprise, local, project and user settings, matched against a
 * tool's mcp__<server>__<tool> name.
 *
 * The decision, in order:
 *   1. a matching deny rule, from any scope: deny;
 *   2. a matching ask rule, from any scope: ask;
 *   3. a matching allow rule: allow, but only from a scope at least as
 *      high as every scope whose `default` is ask or deny, so a lower
 *      scope never loosens a higher one (enterprise is the highest);
 *   4. the strictest `default` of any scope; "allow" when none is set.
 * Rules from a project's .mcp.json govern only the tools of the servers
 * that same file defines, once they are approved: a file elsewhere on the
 * walk (a parent directory's) neither loosens nor tightens them. */
#ifndef MCPHOST_PERMISSIONS_H
#define MCPHOST_PERMISSIONS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "config/config.h"

typedef enum perm_kind { PERM_ALLOW, PERM_ASK, PERM_DENY } perm_kind;

typedef struct perm_rule {
  char *pattern; /* as written */
  perm_kind kind;
  config_scope scope;
  char *origin; /* "FILE: permissions.deny[0]" */
  char *file;   /* SCOPE_PROJECT: the .mcp.json it came from */
} perm_rule;

/* A project file's `default`. */
typedef struct perm_file_default {
  char *file;
  perm_kind kind;
  char *origin;
} perm_file_default;

typedef struct perm_rules {
  perm_rule *rules;
  size_t n;
  /* `default` per scope: set[s] says whether scope s gave one. The
   * project scope's are per file, in project_defaults. */
  bool set[SCOPE_PLUGIN + 1];
  perm_kind defaults[SCOPE_PLUGIN + 1];
  char *default_origin[SCOPE_PLUGIN + 1];
  perm_file_default *project_defaults;
  size_t nproject_defaults;
} perm_rules;

perm_rules *perm_rules_new(void);
void perm_rules_free(perm_rules *r); /* NULL is fine */

/* Reads one "permissions" object found in `src` at JSON path `where`.
 * Bad entries are errors recorded in `c` and cost only themselves. */
void perm_rules_load(perm_rules *r, config *c, const cJSON *permissions,
                     config_scope scope, const char *src, const char *where);

typedef struct perm_verdict {
  perm_kind kind;
  const perm_rule *rule;      /* the rule that decided; NULL: a default */
  const char *default_origin; /* when a default decided; NULL: built in */
} perm_verdict;

/* Decides for the tool `qualified` (mcp__server__tool) of server `sc`
 * (NULL when unknown). `r` may be NULL: everything is allowed. */
perm_verdict perm_decide(const perm_rules *r, const char *qualified,
                         const server_config *sc);

/* A sentence naming what decided, e.g. `deny rule "mcp__fs__*" (user
 * settings FILE: permissions.deny[0])`. New string. */
char *perm_describe(const perm_verdict *v);

/* Whether a rule pattern matches a qualified tool name: `*` matches any
 * run of characters; "mcp__server" alone means every tool of the server;
 * characters outside [A-Za-z0-9_-*] match as '_' (names are normalized). */
bool perm_pattern_match(const char *pattern, const char *qualified);

const char *perm_kind_name(perm_kind k);

#endif
