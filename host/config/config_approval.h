/* What an approval of a project server binds: the entry as written (its
 * raw JSON: command, args, env, cwd, url, headers, roots, tls, every other
 * key, and so every ${VAR} it references), the file it came from, and
 * that file's "permissions" object (its rules may govern the server's
 * tools). The user settings keep, in the project's record, Claude Code's
 * list of names (enabledMcpjsonServers) and beside it, under a key Claude
 * Code does not use, what each name was approved as:
 *
 *   "approvedMcpjsonEntries": {
 *     "NAME": {"file": "/abs/.mcp.json", "sha256": "<hex>",
 *              "entry": {...}, "variables": [...], "permissions": {...}}
 *   }
 *
 * `entry` is kept to show what changed, with the values of env and
 * headers (often tokens) replaced by "sha256:<hex>" digests of name and
 * value: the record never holds them.
 *
 * An approved server whose entry or file no longer has that digest is
 * pending again, "changed since approval", with the difference. */
#ifndef MCPHOST_CONFIG_APPROVAL_H
#define MCPHOST_CONFIG_APPROVAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "util.h"

#define APPROVAL_KEY "approvedMcpjsonEntries"

/* The digest of an entry from `file`: lower-case hex SHA-256 of a
 * versioned text holding both (OpenSSL's libcrypto, opened on first use;
 * any thread). New string, or NULL when libcrypto cannot be loaded. */
char *approval_digest(const char *file, const cJSON *raw, const cJSON *perms);

/* NULL, or why no digest can be computed (a static sentence). */
const char *approval_unavailable(void);

/* Whether `record` (one value of approvedMcpjsonEntries) binds exactly
 * this entry from this file with these permission rules (`perms`: the
 * file's "permissions" object, or NULL); false when no digest can be
 * computed, so that nothing runs unchecked. */
bool approval_matches(const cJSON *record, const char *file, const cJSON *raw,
                      const cJSON *perms);

/* A new record for approvedMcpjsonEntries, or NULL when no digest can be
 * computed (approval_unavailable() says why). */
cJSON *approval_record(const char *file, const cJSON *raw, const cJSON *perms);

/* What the entry runs, for a person deciding: the command line or URL,
 * the env and header names (never their values), the ${VAR} references,
 * the cwd, roots, tls, headersHelper and oauth (its clientSecret as a
 * digest), what it reads (approval_reads()), the names of any other keys,
 * and the file's permission rules; parts joined by `sep` ("; " on one
 * line, "\n  " as a list). Text from the file is escaped
 * (text_escape.h). New string. */
char *approval_summary(const cJSON *raw, const cJSON *perms, const char *sep);

/* What changed between the approved record and the entry now, in the
 * same form ("command: a -> b; env: +X, -Y; keys removed: roots; ...").
 * New string. */
char *approval_diff(const cJSON *record, const char *file, const cJSON *raw,
                    const cJSON *perms);

/* The names of the variables an entry references, in order, each once:
 * a new array of strings. */
cJSON *approval_vars(const cJSON *raw);

/* What an entry reads beyond its own text, and the servers it talks to
 * besides its URL, when its configuration names them: a new array of
 * {"kind", "key", "value", "secret"}: kind "variable" (an environment
 * variable's name: oauth.clientSecretEnv), "file" (a path: the
 * oauth.privateKeyFile, tls.caFile, tls.certFile, tls.keyFile),
 * "authorization server" (oauth.authServerMetadataUrl) or "identity
 * provider" (oauth.xaa); key the entry's key; secret whether it hands
 * the user's secret or identity to the server, which project and plugin
 * servers may only where the user's settings allow it
 * (allowedServerSecrets, docs/config.md). The ${VAR} references are
 * approval_vars(). */
cJSON *approval_reads(const cJSON *raw);

/* One item of approval_reads() for a person: "reads variable NAME
 * (key)", "talks to authorization server URL (key)", escaped. New
 * string. */
char *approval_read_text(const cJSON *r);

/* Appends `w` to `b` as one shell word (quoted when it needs it), after a
 * space when `b` is not empty. */
void approval_add_word(strbuf *b, const char *w);

#endif
