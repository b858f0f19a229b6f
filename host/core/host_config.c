#include "core/host_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/host.h"
#include "core/plugin_servers.h"
#include "text_escape.h"

config_sources host_config_with_plugin_sources(host *h,
                                               const config_sources *o) {
  config_sources with = *o;
  with.plugin_sources = plugin_servers_list;
  with.plugin_ud = h;
  return with;
}

void host_set_config_sources(host *h, const config_sources *o,
                             host_config_loaded_fn loaded, void *ud) {
  h->cfg_sources = *o;
  h->have_cfg_sources = true;
  h->cfg_loaded = loaded;
  h->cfg_loaded_ud = ud;
}

/* `source`: the server the entry is about, or NULL. */
static void report(host *h, int level, const char *source, const char *what,
                   const char *text) {
  unsigned flags = TEXT_ESCAPE_NEWLINES | sanitize_escape_flags(h->sanitize);
  char *safe = text_escape(text, strlen(text), flags, NULL);
  if (!safe) {
    abort(); /* out of memory, as xmalloc */
  }
  if (!host_log_sink(h, level, source, safe)) {
    fprintf(stderr, "mcphost: %s: %s\n", what, safe);
  }
  free(safe);
}

/* The warnings about no one server, or with `servers` those about
 * server `name` (NULL: any server), shown; with `once`, only those not
 * shown yet. */
static void report_warnings(host *h, bool servers, const char *name,
                            bool once) {
  config *cfg = &h->cfg;
  for (size_t i = 0; i < cfg->nwarnings; i++) {
    const char *about = cfg->warning_servers[i];
    bool wanted =
        servers ? about && (!name || strcmp(about, name) == 0) : about == NULL;
    if (wanted && !(once && cfg->warning_said[i])) {
      cfg->warning_said[i] = true;
      report(h, MCPH_LOG_WARN, about, "config warning", cfg->warnings[i]);
    }
  }
}

void host_config_report_server(host *h, const char *name) {
  report_warnings(h, true, name, true);
}

void host_config_report_servers(host *h) {
  report_warnings(h, true, NULL, false);
}

void host_config_report(host *h) {
  const config *cfg = &h->cfg;
  for (size_t i = 0; i < cfg->nerrors; i++) {
    report(h, MCPH_LOG_ERROR, NULL, "config error", cfg->errors[i]);
  }
  report_warnings(h, false, NULL, false);
  if (h->verbosity >= 1) {
    for (size_t i = 0; i < cfg->nnotes; i++) {
      report(h, MCPH_LOG_INFO, NULL, "config", cfg->notes[i]);
    }
  }
}

static int svc_reload(const mcph_host *api, mcph_error *err) {
  host *h = host_from_api(api);
  const plugin *caller = host_caller(api);
  if (h->listing_servers) {
    /* A server source asked from inside its own listing: the
     * configuration it would replace is the one being built. */
    return mcph_error_set(err, MCPH_EINVAL,
                          "the configuration cannot be read again from "
                          "inside a server source's listing");
  }
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
  if (h->hooks && h->hooks->holds_config(h)) {
    /* Its per-server slots are indexed by the current configuration. */
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "the MCP client holds state for the servers of "
                          "the current configuration: it is kept until "
                          "the client ends");
  }
  config_free(&h->cfg);
  config_init(&h->cfg);
  config_load_scopes(&h->cfg, &h->cfg_sources);
  if (h->cfg_loaded) {
    h->cfg_loaded(h->cfg_loaded_ud, &h->cfg);
  }
  host_log(h, MCPH_LOG_INFO, caller ? caller->id : NULL,
           "configuration read again: %zu server%s", h->cfg.nservers,
           h->cfg.nservers == 1 ? "" : "s");
  host_config_report(h);
  return MCPH_OK;
}

int host_config_reload(host *h, mcph_error *err) {
  return svc_reload(&h->self.api, err);
}

const mcph_host_config *host_config_service(void) {
  static const mcph_host_config svc = {
      .struct_size = sizeof svc,
      .reload = svc_reload,
  };
  return &svc;
}
