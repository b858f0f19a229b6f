/* The bundle plugin's stub (transports/common/plugin_stub.c, from
 * plugin_info.h): the implementation is opened for the bundle command,
 * or to list installed bundles when the store exists (below). */
#include <errno.h>
#include <sys/stat.h>

#include "plugin_stub.h"
#include "store_root.h"

/* The store's directory (store_root). */
const char *const stub_reads[] = {
    "path:$XDG_DATA_HOME/mcphost/bundles|~/.local/share/mcphost/bundles", NULL};

int stub_has_servers(const mcph_host *host) {
  (void)host;
  char root[4096];
  struct stat st;
  return store_root(root, sizeof root) < 0 || stat(root, &st) == 0 ||
         errno != ENOENT;
}
