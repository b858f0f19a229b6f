/* Loading the configuration scopes for a command, and refusing to use a
 * server the configuration does not let start. */
#include <stdio.h>
#include <stdlib.h>

#include "../plugin_servers.h"
#include "cli.h"

void cli_load_config(cli *c) {
  config_sources o = c->sources;
  o.plugin_sources = plugin_servers_list;
  o.plugin_ud = c->h;
  config *cfg = &c->h->cfg;
  config_load_scopes(cfg, &o);
  for (size_t i = 0; i < cfg->nerrors; i++)
    fprintf(stderr, "mcphost: config error: %s\n", cfg->errors[i]);
  for (size_t i = 0; i < cfg->nwarnings; i++)
    fprintf(stderr, "mcphost: config warning: %s\n", cfg->warnings[i]);
  if (c->h->verbosity >= 1)
    for (size_t i = 0; i < cfg->nnotes; i++)
      fprintf(stderr, "mcphost: config: %s\n", cfg->notes[i]);
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
