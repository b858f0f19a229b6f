/* The elicitation plugin's file in the plugin directory: its entry says
 * what it provides (the feature answering elicitation/create and showing
 * notifications/elicitation/complete, its options) and names the
 * implementation, which the host opens from its implementation directory
 * only when a server sends one of them (mcph_provides.capabilities, ABI
 * 1.7): the capability each handshake declares comes from here, read off
 * --elicitation. */
#include <mcphost/mcphost.h>

#include "plugin_info.h"

static const char *stub_capabilities(const mcph_host *host, int *init_now) {
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

static const char *const stub_requests[] = {ELICIT_REQUEST, NULL};
static const char *const stub_notifications[] = {ELICIT_NOTIFICATION, NULL};
static const char *const stub_extensions[] = {MCPH_EXT_FEATURE, NULL};
static const mcph_option stub_option_list[] = {ELICIT_OPTIONS};
static const mcph_options stub_options = {
    .struct_size = sizeof(mcph_options),
    .options = stub_option_list,
    .count = sizeof stub_option_list / sizeof stub_option_list[0],
};

static const mcph_provides stub_provides = {
    .struct_size = sizeof(mcph_provides),
    .requests = stub_requests,
    .notifications = stub_notifications,
    .extensions = stub_extensions,
    .implementation = "feature-elicitation.so",
    .options = &stub_options,
    .capabilities = stub_capabilities,
};

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = ELICIT_ID,
    .name = ELICIT_NAME,
    .version = ELICIT_VERSION,
    .description = ELICIT_DESCRIPTION,
    .init = NULL,
    .get_extension = NULL,
    .deinit = NULL,
    .provides = &stub_provides,
};
