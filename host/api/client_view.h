/* Transitional, for the mcphost executable only: the library's host and
 * MCP client behind a client of the public API (sdk/include/mcphost/
 * client.h), for the commands not yet written against the API, and the
 * CLI's own step after each configuration load. This header goes when
 * the last command is ported (docs/architecture.md, "The public headers
 * of the client library"). Not exported by libmcphost.so.1. */
#ifndef MCPHOST_CLIENT_VIEW_H
#define MCPHOST_CLIENT_VIEW_H

#include <mcphost/client.h>

#include "core/host.h"
#include "core/host_config.h"
#include "mcp/calls.h"
#include "mcp/client.h"

/* The client's host and MCP client, borrowed for its life. */
host *api_client_host(const mcphost_client *c);
mcp_client *api_client_mcp(const mcphost_client *c);
/* host_run_until on the client's loop as its loop thread (an operation
 * started there begins without waking the loop): 0 once *done, -2 when
 * the host was interrupted (a signal, host_interrupt), until the
 * interruption is the client's. */
int api_client_run_until(mcphost_client *c, const bool *done);
/* Runs loaded(ud, cfg) after mcphost_load_config loads the scopes and
 * after each reload, before the report (the CLI binds approvals there).
 * Before mcphost_load_config. */
void api_client_on_config_loaded(mcphost_client *c,
                                 host_config_loaded_fn loaded, void *ud);
/* The sources (the command line's) the configuration functions take
 * their files from (mcphost_config_*) before or without a load; `o` must
 * outlive the client. */
void api_client_sources(mcphost_client *c, const config_sources *o);

#endif
