/* The elicitation plugin's stub (transports/common/plugin_stub.c, from
 * plugin_info.h): the implementation is opened only when a server sends
 * elicitation/create or its completion notice; the capability each
 * handshake declares comes from here, read off --elicitation. */
#include "plugin_info.h"
#include "plugin_stub.h"

const char *stub_capabilities(const mcph_host *host, int *init_now) {
  const mcph_host_features *svc =
      host->get_service(host, MCPH_SERVICE_FEATURES);
  if (!MCPH_HAS(svc, mcph_host_features, option)) {
    *init_now = 1; /* the implementation says what it lacks */
    return NULL;
  }
  const char *v = svc->option(host, "elicitation");
  const char *hook;
  /* Not given: ask a person, or decline without one; both declare it. */
  int kind = v && *v ? elicit_policy_word(v, &hook) : POLICY_ASK;
  /* An unknown value is the implementation's to warn of. */
  *init_now = kind < 0;
  return kind == POLICY_OFF || kind < 0 ? NULL : ELICIT_CAPS;
}
