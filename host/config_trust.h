/* Which project files may be trusted. A .mcp.json is read only when no
 * other user could have written it:
 *   - the file (after symbolic links) is owned by the user or root and is
 *     not writable by its group or by others;
 *   - its directory is owned by the user or root and not writable by its
 *     group or by others; a sticky directory others can write to (/tmp)
 *     holds a trusted file only when that file is the user's own;
 *   - group write counts only for a group other than the user's private
 *     group (its primary group, named like it, with no other member: the
 *     umask-002 scheme, where every checkout is group-writable);
 *   - a symbolic link must stay inside the project tree (the repository
 *     root, or the file's own directory outside a repository): a project
 *     file must never be another scope's file (the user settings) in
 *     disguise. The same rule holds when mcphost writes a project file.
 * A refused file is skipped with a warning naming it; its servers and
 * permission rules are not read. */
#ifndef MCPHOST_CONFIG_TRUST_H
#define MCPHOST_CONFIG_TRUST_H

#include <stdbool.h>
#include <stddef.h>

/* Whether `path` is `dir` or lies below it (both absolute, resolved). */
bool trust_path_within(const char *path, const char *dir);

/* Checks that `path`, when it is a symbolic link, resolves inside `tree`.
 * Returns 0 (not a link, or a link inside), 1 (path does not exist), or
 * -1 with `why` filled. */
int trust_project_link(const char *path, const char *tree, char *why,
                       size_t why_len);

/* Checks a project file found by the walk, by the rules above. Returns 0
 * when it may be read, 1 when it does not exist (nothing to say), -1 with
 * `why` filled (a sentence naming the file and the reason). */
int trust_project_file(const char *path, const char *tree, char *why,
                       size_t why_len);

#endif
