/* Transitional, for the mcphost executable only: a client handle of the
 * public API (sdk/include/mcphost/client.h) over a host and an MCP client
 * the CLI made itself, so that a command already written against the API
 * and one not yet ported share one host. It goes when the CLI makes its
 * client with mcphost_client_new (docs/architecture.md, "The public
 * headers of the client library"). Not exported by libmcphost.so.1. */
#ifndef MCPHOST_CLIENT_VIEW_H
#define MCPHOST_CLIENT_VIEW_H

#include <mcphost/client.h>

#include "core/host.h"
#include "mcp/client.h"

/* A handle over h and mc, owning neither; the caller's loop mode
 * (MCPHOST_LOOP_CALLER). Freed with api_view_free, before h and mc. */
mcphost_client *api_view_new(host *h, mcp_client *mc);
void api_view_free(mcphost_client *c);
/* The sources (the command line's) the configuration functions of the
 * view take their files from (mcphost_config_*); `o` must outlive it. */
void api_view_sources(mcphost_client *c, const config_sources *o);

#endif
