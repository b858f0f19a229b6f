/* ${VAR} and ${VAR:-default} in a server's command, args, env values, url
 * and header values, expanded when the configuration is loaded and never
 * written back. As in Claude Code, a variable that is set (even empty) is
 * used, the default applies only when it is unset, and an unset variable
 * without a default stays as written, with a warning naming the server
 * and the field. A default may itself hold ${...}. "${:-TEXT}" names no
 * variable and is always TEXT, as in Claude Code: "${:-$}{VAR}" is the
 * text "${VAR}" in both, which is how mcp import keeps text that another
 * client passes on as it is. */
#ifndef MCPHOST_CONFIG_EXPAND_H
#define MCPHOST_CONFIG_EXPAND_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "config/config.h"

/* Looks a variable up; returns NULL when unset. The default is getenv. */
typedef const char *(*expand_lookup_fn)(void *ud, const char *name);

/* Called once per unset variable without a default, with its name. */
typedef void (*expand_missing_fn)(void *ud, const char *name);

/* Returns a new string: `in` with every ${...} expanded. */
char *expand_vars(const char *in, expand_lookup_fn lookup, void *lookup_ud,
                  expand_missing_fn missing, void *missing_ud);

/* `text` written so that expand_vars gives it back as it is: each "$"
 * before "{" as "${:-$}". A new string. */
char *expand_quote(const char *text);

/* What a scope the user did not write (project, plugin) may expand. */
typedef struct expand_rules {
  /* allowedEnvVars: whether `var` may be expanded; NULL: every variable.
   * A refused variable counts as unset (its default applies), with a
   * warning naming `allowed_origin`. */
  bool (*allowed)(void *ud, const char *var);
  void *allowed_ud;
  const char *allowed_origin;
  /* The scheme and host of "url" must not depend on the environment: a
   * reference that would change them refuses the entry. */
  bool guard_url;
} expand_rules;

/* Expands the fields of one server entry in place; warnings go to `c`
 * naming `src`, the server and the JSON path (`where` is the entry's).
 * `rules` may be NULL (the user's own scopes: no limits). Returns 0, or
 * -1 with an error recorded: the entry must not be used. */
int config_expand_entry(config *c, const char *src, const char *where,
                        const char *name, cJSON *entry,
                        const expand_rules *rules);

#endif
