/* `mcphost bundle pack DIR OUT`: a ZIP of DIR as the official packer
 * makes it (reference/mcpb.md §1): file entries only, '/' separators,
 * deflate, Unix modes 0755/0644, the official default excludes and the
 * directory's .mcpbignore (gitignore patterns without negation). The
 * manifest is validated first; a symbolic link is stored as a copy of
 * its target, as the official packer does, when the target is inside
 * DIR, and refused otherwise. Blocking; any thread. */
#ifndef MCPB_PACK_H
#define MCPB_PACK_H

#include <stddef.h>

/* Returns 0 with the number of files in *files, or -1 with the reason in
 * `err`. */
int pack_dir(const char *dir, const char *out, size_t *files, char *err,
             size_t n);

#endif
