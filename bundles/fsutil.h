/* Small file-system helpers shared by both halves of the plugin: every
 * path is relative to a directory fd, and no link is followed. Any
 * thread. */
#ifndef MCPB_FSUTIL_H
#define MCPB_FSUTIL_H

#include <stddef.h>

/* Removes `name` under `dirfd` and everything in it (a file or a
 * directory tree), without following links. 0, or -1 with errno. */
int fs_remove_tree(int dirfd, const char *name);

/* Reads the regular file `name` under `dirfd` (no link followed), at most
 * `max` bytes. Returns a new NUL-terminated buffer (free with free()) and
 * its length in *len, or NULL with errno (EFBIG: larger than `max`). */
char *fs_read_at(int dirfd, const char *name, size_t max, size_t *len);

/* Reads the file at `path` (links followed: a file the user named), at
 * most `max` bytes. Returns a new buffer (free with free()) and its
 * length, or NULL with the reason in `err`. */
unsigned char *fs_read_path(const char *path, size_t max, size_t *len,
                            char *err, size_t n);

/* Replaces `name` under `dirfd` with `len` bytes of `data`, mode `mode`,
 * through a temporary file and rename(). 0, or -1 with errno. */
int fs_write_at(int dirfd, const char *name, const void *data, size_t len,
                unsigned mode);

#endif
