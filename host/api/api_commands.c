/* The client API's share of a command's servers (client.h, "a command's
 * servers"): the configuration's warnings about servers said when a
 * program lists them (core/host_config.h). On the loop, through
 * api_run_on_loop. */
#include "api/api_internal.h"
#include "core/host_config.h"

typedef struct report_job {
  mcphost_client *c;
  const char *server;
  unsigned flags;
} report_job;

static void report_on_loop(void *ud) {
  report_job *j = ud;
  if (j->flags & MCPHOST_REPORT_LOAD) {
    if (j->c->config_loaded)
      host_config_report(j->c->h);
  } else if (j->server) {
    host_config_report_server(j->c->h, j->server);
  } else {
    host_config_report_servers(j->c->h);
  }
}

int mcphost_config_report(mcphost_client *c, const char *server, unsigned flags,
                          mcphost_error *err) {
  api_clear_error(err);
  if (!c)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_config_report needs a client");
  if ((flags & ~MCPHOST_REPORT_LOAD) ||
      ((flags & MCPHOST_REPORT_LOAD) && server))
    return api_fail(err, MCPHOST_EUSAGE, 0, server,
                    "mcphost_config_report: flags %#x%s", flags,
                    server ? " with a server" : "");
  report_job j = {.c = c, .server = server, .flags = flags};
  if (api_run_on_loop(c, report_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  return MCPHOST_OK;
}
