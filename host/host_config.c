#include "host_config.h"

#include <stdio.h>

#include "host.h"

void host_set_config_sources(host *h, const config_sources *o) {
  h->cfg_sources = *o;
  h->have_cfg_sources = true;
}

void host_config_report(host *h) {
  const config *cfg = &h->cfg;
  for (size_t i = 0; i < cfg->nerrors; i++)
    fprintf(stderr, "mcphost: config error: %s\n", cfg->errors[i]);
  for (size_t i = 0; i < cfg->nwarnings; i++)
    fprintf(stderr, "mcphost: config warning: %s\n", cfg->warnings[i]);
  if (h->verbosity >= 1)
    for (size_t i = 0; i < cfg->nnotes; i++)
      fprintf(stderr, "mcphost: config: %s\n", cfg->notes[i]);
}

static int svc_reload(const mcph_host *api, mcph_error *err) {
  host *h = host_from_api(api);
  const plugin *caller = host_caller(api);
  if (!h->have_cfg_sources) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "the configuration was not loaded yet");
  }
  if (h->nsessions > 0) {
    /* Connections point into the configuration they were made with. */
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "%zu connection%s made with the current "
                          "configuration %s open: it is kept until they "
                          "end",
                          h->nsessions, h->nsessions == 1 ? "" : "s",
                          h->nsessions == 1 ? "is" : "are");
  }
  config_free(&h->cfg);
  config_init(&h->cfg);
  config_load_scopes(&h->cfg, &h->cfg_sources);
  host_log(h, MCPH_LOG_INFO, caller ? caller->id : NULL,
           "configuration read again: %zu server%s", h->cfg.nservers,
           h->cfg.nservers == 1 ? "" : "s");
  host_config_report(h);
  return MCPH_OK;
}

const mcph_host_config *host_config_service(void) {
  static const mcph_host_config svc = {
      .struct_size = sizeof svc,
      .reload = svc_reload,
  };
  return &svc;
}
