/* Loading the configuration scopes for a command, and refusing to use a
 * server the configuration does not let start. */
#include <stdio.h>
#include <stdlib.h>

#include "../host_config.h"
#include "../plugin_servers.h"
#include "cli.h"

void cli_load_config(cli *c) {
  config_sources o = c->sources;
  o.plugin_sources = plugin_servers_list;
  o.plugin_ud = c->h;
  config_load_scopes(&c->h->cfg, &o);
  /* Kept, so mcph.host.config/1 can read them again. */
  host_set_config_sources(c->h, &o);
  host_config_report(c->h);
}

int cli_check_startable(const cli *c, size_t idx) {
  const server_config *sc = &c->h->cfg.servers[idx];
  if (sc->state == SERVER_ACTIVE)
    return EXIT_OK;
  fprintf(stderr, "mcphost: server \"%s\" (%s scope) is %s: %s\n", sc->name,
          config_scope_name(sc->scope), server_state_name(sc),
          sc->reason ? sc->reason : "not allowed to start");
  return EXIT_DENIED;
}
