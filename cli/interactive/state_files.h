/* The CLI's own files in the per-user state directory
 * ($XDG_STATE_HOME/mcphost, 0700): the shell's history and the names
 * completion uses. Opened through trusted_fs (owner and mode checked, no
 * link followed). Main thread. */
#ifndef MCPHOST_CLI_STATE_FILES_H
#define MCPHOST_CLI_STATE_FILES_H

#include <mcphost/client.h>
#include <stddef.h>

/* Opens `name` in the state directory with `oflags` (O_CREAT makes the
 * directory too; files are 0600): a file of the directory, or
 * "SUB/FILE", a file of its directory SUB (0700 too). Returns the fd or
 * -1 with the reason in `why`. The directory is the client's
 * (mcphost_path, MCPHOST_PATH_STATE). */
int state_file_open(mcphost_client *c, const char *name, int oflags, char *why,
                    size_t why_len);
/* The whole file as a new string (its length in *len, may be NULL), or
 * NULL when it is missing or cannot be read. */
char *state_file_read(mcphost_client *c, const char *name, size_t *len);
/* Replaces the file with `data` (a new file renamed over it: never half
 * written). Returns 0, or -1 with the reason in `why`. */
int state_file_write(mcphost_client *c, const char *name, const char *data,
                     size_t len, char *why, size_t why_len);

#endif
