/* Loading the configuration scopes for a command, and refusing to use a
 * server the configuration does not let start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin_servers.h"
#include "../util.h"
#include "cli.h"
#include "mcp_edit.h"

void cli_load_scopes(cli *c, config *cfg) {
  config_sources o = c->sources;
  o.plugin_sources = plugin_servers_list;
  o.plugin_ud = c->h;
  config_load_scopes(cfg, &o);
}

/* Approvals given without a record of what they approve (a blanket
 * setting, a name alone) are bound now to what the servers run, so that
 * a later change of the entry is noticed (config_approval.h). */
static void bind_approvals(cli *c, const config *cfg) {
  size_t n = 0;
  edit_choice *items = xcalloc(cfg->nservers + 1, sizeof *items);
  for (size_t i = 0; i < cfg->nservers; i++) {
    const server_config *s = &cfg->servers[i];
    if (s->bind_approval)
      items[n++] = (edit_choice){.name = s->name,
                                 .file = s->source,
                                 .raw = s->raw,
                                 .perms = s->file_perms};
  }
  if (n) {
    config_paths P;
    config_paths_init(&P, &c->sources);
    char why[1024];
    if (edit_project_choice(P.user_settings, P.project_key, CHOICE_APPROVE,
                            items, n, why, sizeof why) < 0)
      fprintf(stderr,
              "mcphost: config warning: could not record what the "
              "approval binds: %s\n",
              why);
    config_paths_free(&P);
  }
  free(items);
}

void cli_load_config(cli *c) {
  config *cfg = &c->h->cfg;
  cli_load_scopes(c, cfg);
  bind_approvals(c, cfg);
  /* Messages quote names, paths and commands from config files: one
   * line each, escaped (cli_esc). */
  for (size_t i = 0; i < cfg->nerrors; i++)
    fprintf(stderr, "mcphost: config error: %s\n", cli_esc(c, cfg->errors[i]));
  for (size_t i = 0; i < cfg->nwarnings; i++)
    fprintf(stderr, "mcphost: config warning: %s\n",
            cli_esc(c, cfg->warnings[i]));
  if (c->h->verbosity >= 1)
    for (size_t i = 0; i < cfg->nnotes; i++)
      fprintf(stderr, "mcphost: config: %s\n", cli_esc(c, cfg->notes[i]));
}

int cli_check_startable(cli *c, size_t idx) {
  const server_config *sc = &c->h->cfg.servers[idx];
  if (sc->state == SERVER_ACTIVE)
    return EXIT_OK;
  fprintf(stderr, "mcphost: server \"%s\" (%s scope) is %s: %s\n",
          cli_esc(c, sc->name), config_scope_name(sc->scope),
          server_state_name(sc),
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
                cli_esc(c, s->name), config_scope_name(s->scope),
                cli_esc(c, s->reason ? s->reason : "a duplicate"));
        break;
      }
    }
  }
  config_free(&cfg);
}
