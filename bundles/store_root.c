#include "store_root.h"

#include <stdio.h>
#include <stdlib.h>

int store_root(char *root, size_t n) {
  const char *data = getenv("XDG_DATA_HOME");
  const char *home = getenv("HOME");
  if (data && data[0] == '/') {
    snprintf(root, n, "%s/mcphost/bundles", data);
  } else if (home && home[0] == '/') {
    snprintf(root, n, "%s/.local/share/mcphost/bundles", home);
  } else {
    return -1;
  }
  return 0;
}
