/* From a bundle's manifest to the command line that runs its server
 * (reference/mcpb.md §3, getMcpConfigForManifest, made literal):
 *
 * 1. server.mcp_config, with platform_overrides["linux"] applied: its
 *    command, args and env each replace the base's when given (env
 *    replaced whole, as the official library does).
 * 2. A user_config option marked required must have a value the user
 *    gave: a default does not count. Otherwise there is no command.
 * 3. Variables: ${__dirname} (the install directory), ${HOME},
 *    ${DESKTOP}, ${DOCUMENTS}, ${DOWNLOADS}, ${pathSeparator} and ${/},
 *    and ${user_config.KEY}: the user's value, else the default, whose
 *    own ${HOME}... are expanded first. Numbers as JSON writes them,
 *    booleans "true"/"false".
 * 4. Each string of command, args and env is substituted literally (no
 *    pattern characters, no second pass over a value); an unknown
 *    ${...} stays as it is. An argument that is exactly
 *    "${user_config.KEY}" with a list value becomes one argument per
 *    element; with an empty value the placeholder stays.
 *
 * Pure functions, any thread. */
#ifndef MCPB_SUBST_H
#define MCPB_SUBST_H

#include <cjson/cJSON.h>

typedef struct subst_dirs {
  const char *home, *desktop, *documents, *downloads;
} subst_dirs;

/* Fills `d` from $HOME and the XDG user directories' usual names
 * ($HOME/Desktop, ...). The strings live in `buf` (4 KiB at least). */
void subst_dirs_default(subst_dirs *d, char *buf, size_t n);

/* Returns {"command": ..., "args": [...], "env": {...}} (free with
 * cJSON_Delete), or NULL with the reason in `why` (the required option
 * that has no value, or a manifest without a command). `values` holds
 * the user's answers (may be NULL). */
cJSON *subst_server(const cJSON *manifest, const char *dirname,
                    const cJSON *values, const subst_dirs *dirs, char *why,
                    size_t n);

/* `value` as a ${user_config.KEY} string ("true", "42", "a"), or NULL for
 * a list. A new string. */
char *subst_scalar(const cJSON *value);

#endif
