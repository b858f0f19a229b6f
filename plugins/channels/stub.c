/* The channels plugin's stub (transports/common/plugin_stub.c, from
 * plugin_info.h). Without --channels no server can be admitted before
 * something wakes the plugin (a `channels` command, a channel message, a
 * permission question, `servers -v`), and each handshake declares
 * nothing: it sleeps. With --channels it must decide every server from
 * its first connection and may declare the capability: the
 * implementation is opened at the first handshake. */
#include "plugin_info.h"
#include "plugin_stub.h"

const char *stub_capabilities(const mcph_host *host, int *init_now) {
  const mcph_host_features *svc =
      host->get_service(host, MCPH_SERVICE_FEATURES);
  if (!MCPH_HAS(svc, mcph_host_features, option)) {
    *init_now = 1; /* the implementation says what it lacks */
    return NULL;
  }
  /* Given, the implementation answers (the policy, the capability). */
  const char *v = svc->option(host, "channels");
  *init_now = v != NULL && *v != '\0';
  return NULL;
}
