/* Loading the configuration scopes for a command, and refusing to use a
 * server the configuration does not let start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/client_view.h"
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

/* c->sources through the client API (mcphost_load_config), which binds
 * approvals (here, on each load and reload) and reports as it loads. */
static int load_sources(cli *c, bool check, mcphost_error *err) {
  const config_sources *o = &c->sources;
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  s.server_specs = o->server_specs;
  s.nserver_specs = o->nserver_specs;
  s.urls = o->urls;
  s.nurls = o->nurls;
  s.url_type = o->url_type;
  s.configs = o->mcp_configs;
  s.nconfigs = o->nmcp_configs;
  s.strict = o->strict;
  s.approve_project = o->approve_project;
  s.no_inproc = o->no_inproc;
  s.no_check = !check;
  if (!c->shared)
    api_client_on_config_loaded(c->api, bind_approvals, c);
  return mcphost_load_config(c->api, &s, err);
}

void cli_load_config(cli *c) {
  load_sources(c, false, NULL);
}

int cli_load_checked(cli *c) {
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = load_sources(c, true, &err);
  if (rc == MCPHOST_ESTATE) {
    host_config_report(c->h); /* loaded when the session started */
    return EXIT_OK;
  }
  if (rc != MCPHOST_EUSAGE)
    return EXIT_OK;
  /* One line each: a source's error, escaped, or the transport's. */
  static const char tag[] = "config error: ";
  const size_t ntag = sizeof tag - 1;
  for (char *line = err.message; *line;) {
    char *next = strstr(line + 1, "\nconfig error: ");
    if (next)
      *next = '\0';
    if (strncmp(line, tag, ntag) == 0)
      cli_error(c, NULL, "config error: %s", cli_esc(c, line + ntag));
    else
      cli_error(c, NULL, "%s", line);
    line = next ? next + 1 : line + strlen(line);
  }
  return EXIT_USAGE;
}

int cli_check_startable(cli *c, size_t idx) {
  /* The configuration's verdict, as its status says it. */
  mcphost_server_state ss = MCPHOST_SERVER_STATE_INIT;
  if (mcphost_server_get(c->api, idx, &ss, NULL) != MCPHOST_OK || ss.startable)
    return EXIT_OK; /* and the library refuses what may not start */
  cJSON *st = cli_server_status(c, mcphost_server_name(c->api, idx),
                                MCPHOST_STATUS_BRIEF);
  if (!st) {
    return EXIT_OK;
  }
  const char *reason =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "reason"));
  fprintf(stderr, "mcphost: server \"%s\" (%s scope) is %s: %s\n",
          cli_esc(c, cJSON_GetStringValue(
                         cJSON_GetObjectItemCaseSensitive(st, "name"))),
          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "scope")),
          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "state")),
          cli_esc(c, reason ? reason : "not allowed to start"));
  cJSON_Delete(st);
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
