/* Loading the configuration scopes for a command, and refusing to use a
 * server the configuration does not let start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util.h"

/* c->sources (the command line's), with the struct_size the client API
 * checks. */
static mcphost_config_sources api_sources(const cli *c) {
  mcphost_config_sources s = c->sources;
  s.struct_size =
      ((mcphost_config_sources)MCPHOST_CONFIG_SOURCES_INIT).struct_size;
  return s;
}

void cli_set_sources(cli *c) {
  mcphost_config_sources s = api_sources(c);
  mcphost_set_config_sources(c->api, &s, NULL);
}

cJSON *cli_load_preview(cli *c) {
  mcphost_config_sources s = api_sources(c);
  char *text = NULL;
  mcphost_config_preview(c->api, &s, &text, NULL);
  return cli_api_json(text);
}

/* c->sources through the client API (mcphost_load_config), which reports
 * as it loads and binds approvals given without a record of what they
 * approve to what the servers run, on each load and reload, so that a
 * later change of the entry is noticed (config_approval.h). */
static int load_sources(cli *c, bool check, mcphost_error *err) {
  mcphost_config_sources s = api_sources(c);
  s.no_check = !check;
  s.bind_approvals = 1;
  return mcphost_load_config(c->api, &s, err);
}

void cli_load_config(cli *c) {
  load_sources(c, false, NULL);
}

int cli_load_checked(cli *c) {
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = load_sources(c, true, &err);
  if (rc == MCPHOST_ESTATE) {
    mcphost_config_report(c->api, NULL, MCPHOST_REPORT_LOAD,
                          NULL); /* loaded when the session started */
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
  cJSON *servers = cli_load_preview(c);
  const cJSON *s;
  cJSON_ArrayForEach(s, servers) {
    const char *state =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "state"));
    if (!state || strcmp(state, "skipped") != 0)
      continue;
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "name"));
    const char *winner =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "winner"));
    const char *reason =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "reason"));
    for (size_t k = 0; name && k < n; k++) {
      if (strcmp(names[k], name) == 0 ||
          (winner && strcmp(names[k], winner) == 0)) {
        fprintf(
            stderr,
            "mcphost: warning: MCP server \"%s\" (%s scope) is skipped: "
            "%s\n",
            cli_esc(c, name),
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "scope")),
            cli_esc(c, reason ? reason : "a duplicate"));
        break;
      }
    }
  }
  cJSON_Delete(servers);
}
