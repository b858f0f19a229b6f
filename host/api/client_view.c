/* The transitional accessors of client_view.h. */
#include "api/client_view.h"

#include "api/api_internal.h"

host *api_client_host(const mcphost_client *c) {
  return c->h;
}

mcp_client *api_client_mcp(const mcphost_client *c) {
  return c->mc;
}

void api_client_on_config_loaded(mcphost_client *c,
                                 host_config_loaded_fn loaded, void *ud) {
  c->config_hook = loaded;
  c->config_hook_ud = ud;
}

void api_client_sources(mcphost_client *c, const config_sources *o) {
  c->sources = o;
}

int api_client_run_until(mcphost_client *c, const bool *done) {
  const mcphost_client *was = api_enter_loop(c);
  int rc = host_run_until(c->h, done, 0);
  api_leave_loop(was);
  return rc;
}
