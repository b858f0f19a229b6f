/* The IDE plugin's stub (transports/common/plugin_stub.c, from
 * plugin_info.h): the implementation is opened only when one of the
 * things it provides is needed: a transport of its types, the command,
 * or a listing while the run asks for the IDE (below). */
#include "ide.h"
#include "plugin_stub.h"

/* What ide_wanted reads besides the --ide option. */
const char *const stub_reads[] = {"env:CLAUDE_CODE_SSE_PORT",
                                  "env:CLAUDE_CODE_AUTO_CONNECT_IDE", NULL};

int stub_has_servers(const mcph_host *host) {
  const mcph_host_features *svc =
      host->get_service(host, MCPH_SERVICE_FEATURES);
  bool explicit_ask;
  return ide_wanted(host,
                    MCPH_HAS(svc, mcph_host_features, option) ? svc : NULL,
                    &explicit_ask);
}
