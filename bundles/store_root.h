/* Where the bundles directory is (store.h), apart so that the plugin's
 * stub (stub.c) can tell whether any bundle is installed without the
 * store's code. */
#ifndef MCPB_STORE_ROOT_H
#define MCPB_STORE_ROOT_H

#include <stddef.h>

/* $XDG_DATA_HOME/mcphost/bundles, else $HOME/.local/share/mcphost/bundles,
 * into `root` (`n` bytes). 0, or -1 when neither variable is an absolute
 * path. */
int store_root(char *root, size_t n);

#endif
