#include "settings_paths.h"

#include <stdio.h>
#include <stdlib.h>

char *settings_user_file(const char *home) {
  const char *x = getenv("XDG_CONFIG_HOME");
  char *path = NULL;
  int n = x && x[0] == '/' ? asprintf(&path, "%s/mcphost/settings.json", x)
                           : asprintf(&path, "%s/.config/mcphost/settings.json",
                                      home ? home : "");
  return n < 0 ? NULL : path;
}

const char *settings_system_dir(void) {
  const char *sys = getenv("MCPHOST_SYSTEM_CONFIG_DIR");
  return sys && *sys ? sys : "/etc/mcphost";
}
