/* The MCP client's layer as the core sees it (core/host.h, host_hooks):
 * the feature plugins' and auth providers' host side and the client's
 * hold on the configuration, which the core reaches without naming them
 * (it sits below; host/layers.txt). */
#include <string.h>

#include "mcp/client_internal.h"
#include "mcp/feature_plugins.h"
#include "mcp/host_auth.h"

static void plugins_loaded(host *h) {
  features_collect(h);
}

static const void *service(host *h, const char *id) {
  (void)h;
  if (strcmp(id, MCPH_SERVICE_FEATURES) == 0) {
    return features_service();
  }
  if (strcmp(id, MCPH_SERVICE_AUTH) == 0) {
    return host_auth_service();
  }
  return NULL;
}

static bool holds_config(const host *h) {
  return h->client && mcp_client_holds_config(h->client);
}

static void release(host *h) {
  features_free(h);
  host_auth_free(h);
}

void mcp_client_set_host_hooks(host *h) {
  static const host_hooks hooks = {
      .plugins_loaded = plugins_loaded,
      .service = service,
      .holds_config = holds_config,
      .free = release,
  };
  h->hooks = &hooks;
}
