/* A client handle over a host the CLI made: see client_view.h. */
#include "api/client_view.h"

#include <stdlib.h>

#include "alloc.h"
#include "api/api_internal.h"

mcphost_client *api_view_new(host *h, mcp_client *mc) {
  mcphost_client *c = xcalloc(1, sizeof *c);
  c->mode = MCPHOST_LOOP_CALLER;
  c->view = true;
  c->h = h;
  c->mc = mc;
  c->next_id = 1;
  return c;
}

void api_view_free(mcphost_client *c) {
  free(c);
}

void api_view_sources(mcphost_client *c, const config_sources *o) {
  c->sources = o;
}
