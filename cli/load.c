/* Loading the configuration scopes for a command, and refusing to use a
 * server the configuration does not let start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/host_config.h"
#include "util.h"

static config_sources scope_sources(cli *c) {
  return host_config_with_plugin_sources(c->h, &c->sources);
}

void cli_load_scopes(cli *c, config *cfg) {
  config_sources o = scope_sources(c);
  config_load_scopes(cfg, &o);
}

/* Approvals given without a record of what they approve (a blanket
 * setting, a name alone) are bound now to what the servers run, so that
 * a later change of the entry is noticed (config_approval.h). */
static void bind_approvals(void *ud, const config *cfg) {
  cli *c = ud;
  char why[1024];
  if (config_bind_approvals(cfg, &c->sources, why, sizeof why) < 0)
    fprintf(stderr,
            "mcphost: config warning: could not record what the "
            "approval binds: %s\n",
            why);
}

void cli_load_config(cli *c) {
  config *cfg = host_cfg_edit(c->h);
  cli_load_scopes(c, cfg);
  /* Kept, so mcph.host.config/1 can read them again; a reload binds
   * approvals and reports as this first load does. */
  config_sources o = scope_sources(c);
  host_set_config_sources(c->h, &o, bind_approvals, c);
  bind_approvals(c, cfg);
  host_config_report(c->h);
}

int cli_check_startable(cli *c, size_t idx) {
  const server_config *sc = &host_cfg(c->h)->servers[idx];
  if (sc->state == SERVER_ACTIVE)
    return EXIT_OK;
  fprintf(stderr, "mcphost: server \"%s\" (%s scope) is %s: %s\n",
          cli_esc(c, sc->name), config_server_scope(sc), server_state_name(sc),
          cli_esc(c, sc->reason ? sc->reason : "not allowed to start"));
  return EXIT_DENIED;
}

void cli_warn_skipped(cli *c, const char *const *names, size_t n) {
  config cfg;
  config_init(&cfg);
  cli_load_scopes(c, &cfg);
  for (size_t i = 0; i < cfg.nservers; i++) {
    const server_config *s = &cfg.servers[i];
    if (s->state != SERVER_SKIPPED)
      continue;
    for (size_t k = 0; k < n; k++) {
      if (strcmp(names[k], s->name) == 0 ||
          (s->winner && strcmp(names[k], s->winner) == 0)) {
        fprintf(stderr,
                "mcphost: warning: MCP server \"%s\" (%s scope) is skipped: "
                "%s\n",
                cli_esc(c, s->name), config_server_scope(s),
                cli_esc(c, s->reason ? s->reason : "a duplicate"));
        break;
      }
    }
  }
  config_free(&cfg);
}
