/* Which project files may be trusted. A .mcp.json is read only when no
 * other user could have written it:
 *   - the file (after symbolic links) is owned by the user or root and is
 *     not writable by its group or by others;
 *   - its directory is owned by the user or root and not writable by its
 *     group or by others; a sticky directory others can write to (/tmp)
 *     holds a trusted file only when that file is the user's own;
 *   - every directory above is owned by the user or root and writable by
 *     others only when sticky and root's;
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

/* Opens a project file found by the walk, once, and checks it by the
 * rules above on the open file (fstat), so that what was checked is what
 * is read; every directory above it must be one nobody else could
 * replace (owned by the user or root, writable by others only when it is
 * sticky and root's, as /tmp). Returns 0 with *fd_out open (O_RDONLY,
 * O_CLOEXEC; the caller reads it, and reports what is not a regular
 * file, and closes it) or -1 for a dangling link (the caller's reader
 * reports it by path), 1 when it does not exist (nothing to say), -1
 * with `why` filled (a sentence naming the file and the reason). */
int trust_project_open(const char *path, const char *tree, int *fd_out,
                       char *why, size_t why_len);

/* trust_project_open without keeping the file open. */
int trust_project_file(const char *path, const char *tree, char *why,
                       size_t why_len);

#endif
