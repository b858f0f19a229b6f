/* The claude.ai plugin's stub (transports/common/plugin_stub.c, from
 * plugin_info.h): the implementation is opened only when one of the
 * things it provides is needed: a listing while the connectors may be
 * wanted (the opt-in variable or setting, below), a claudeai-proxy
 * server, a remote server's authorization. */
#include <stdlib.h>

#include "optin.h"
#include "plugin_stub.h"

/* What optin_maybe reads: the variable, and the user settings file
 * (settings_user_file). */
const char *const stub_reads[] = {"env:ENABLE_CLAUDEAI_MCP_SERVERS",
                                  "path:$XDG_CONFIG_HOME/mcphost/settings.json"
                                  "|~/.config/mcphost/settings.json",
                                  NULL};

int stub_has_servers(const mcph_host *host) {
  (void)host;
  const char *h = getenv("HOME");
  return optin_maybe(h && h[0] == '/' ? h : NULL);
}
