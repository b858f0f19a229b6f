#include <stdlib.h>
#include <string.h>

#include "ide.h"

static bool env_true(const char *name) {
  const char *v = getenv(name);
  return v && (strcmp(v, "true") == 0 || strcmp(v, "1") == 0);
}

bool ide_wanted(const mcph_host *host, const mcph_host_features *svc,
                bool *explicit_ask) {
  const char *opt = svc ? svc->option(host, IDE_OPTION) : NULL;
  const char *port = getenv("CLAUDE_CODE_SSE_PORT");
  /* "" for --ide; MCPHOST_OPTION_IDE=0 or false turns it off. */
  bool asked = opt && strcmp(opt, "0") != 0 && strcmp(opt, "false") != 0;
  *explicit_ask = asked || (port && *port);
  return *explicit_ask || env_true("CLAUDE_CODE_AUTO_CONNECT_IDE");
}
