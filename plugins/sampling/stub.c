/* The sampling plugin's stub (transports/common/plugin_stub.c, from
 * plugin_info.h): the implementation is opened only when a server sends
 * sampling/createMessage; the capability each handshake declares comes from
 * here, read off --sampling. */
#include "plugin_info.h"
#include "plugin_stub.h"

const char *stub_capabilities(const mcph_host *host, int *init_now) {
  const mcph_host_features *svc =
      host->get_service(host, MCPH_SERVICE_FEATURES);
  if (!MCPH_HAS(svc, mcph_host_features, option)) {
    *init_now = 1; /* the implementation says what it lacks */
    return NULL;
  }
  int unknown;
  const char *hook =
      sampling_policy_word(svc->option(host, "sampling"), &unknown);
  /* An unknown value is the implementation's to warn of. */
  *init_now = unknown;
  return hook ? SAMPLING_CAPS : NULL;
}
