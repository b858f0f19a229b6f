/* The client API's share of a command's servers (client.h, "a command's
 * servers"): the configuration's warnings about servers said when a
 * program lists them (core/host_config.h), and the program's hook for
 * the servers' state changes (mcp_client_on_state). On the loop, through
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

/* mcp_client_on_state's hook while the program has one: its server's
 * name for it. */
static void on_state(void *ud, size_t idx) {
  mcphost_client *c = ud;
  if (c->on_server_state)
    c->on_server_state(c->on_server_state_ud, host_cfg(c->h)->servers[idx].name,
                       idx);
}

typedef struct state_job {
  mcphost_client *c;
  mcphost_server_state_fn fn;
  void *ud;
} state_job;

static void state_on_loop(void *ud) {
  state_job *j = ud;
  j->c->on_server_state = j->fn;
  j->c->on_server_state_ud = j->ud;
  /* Without a hook the client calls none: a change costs nothing. */
  mcp_client_on_state(j->c->mc, j->fn ? on_state : NULL, j->fn ? j->c : NULL);
}

int mcphost_on_server_state(mcphost_client *c, mcphost_server_state_fn fn,
                            void *ud, mcphost_error *err) {
  api_clear_error(err);
  if (!c)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_on_server_state needs a client");
  state_job j = {.c = c, .fn = fn, .ud = ud};
  if (api_run_on_loop(c, state_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  return MCPHOST_OK;
}
