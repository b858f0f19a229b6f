/* Changing a JSON settings file safely: under an exclusive lock on its
 * directory (so concurrent writers serialize and none loses an entry),
 * read, change in memory, write a temporary file in the same directory,
 * fsync, rename over the original. Every key the change does not touch
 * stays. The file keeps its mode and owner; a new file gets `new_mode`.
 * A symbolic link is followed and stays a link. A file that is not valid
 * JSON is never rewritten. */
#ifndef MCPHOST_CONFIG_WRITE_H
#define MCPHOST_CONFIG_WRITE_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <sys/types.h>

/* Changes `doc` (a JSON object; {} for a new file). Returns 1 when it
 * changed something, 0 when there is nothing to write, or -1 with `why`
 * filled (nothing is written). */
typedef int (*config_edit_fn)(cJSON *doc, void *ud, char *why, size_t why_len);

/* Returns 1 written, 0 unchanged, -1 with `why` filled. Creates missing
 * parent directories (mode 0700). */
int config_edit_file(const char *path, mode_t new_mode, config_edit_fn fn,
                     void *ud, char *why, size_t why_len);

/* config_edit_file for a file only its owner may read: created 0600, and
 * an existing file's group and other bits cleared. */
int config_edit_private_file(const char *path, config_edit_fn fn, void *ud,
                             char *why, size_t why_len);

/* JSON text with two-space indentation and a final newline, the layout
 * Claude Code writes. New string; free with free(). */
char *config_json_text(const cJSON *doc);

#endif
