/* mcphost serve: the gateway, one MCP server in front of the configured
 * ones (docs/gateway.md). serve.c owns the requests in flight, the
 * methods and what is forwarded; serve_channel.c the JSON-RPC lines on
 * stdin and stdout; serve_items.c turns a backend's items into the
 * gateway's (names, descriptions, the IDE rule) and finds the backend of
 * a name or URI. Loop thread only. */
#ifndef MCPHOST_CLI_SERVE_H
#define MCPHOST_CLI_SERVE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "core/loop.h"
#include "core/util.h"

/* The backends the gateway fronts and how it names their items. */
typedef struct gw_backends {
  cli *c;
  size_t *idx; /* config indexes (owned) */
  size_t n;
  /* --passthrough: one backend, its names as they are. */
  bool passthrough;
  /* Per backend: the resources and template prefixes last listed (for
   * resources/read), owned. */
  cJSON **resources;
} gw_backends;

/* The list kinds the gateway aggregates: "tools", "resources",
 * "resourceTemplates", "prompts". */
/* Appends server `k`'s (a backend's position) items of `kind` from a
 * list result `listed` to `out`, as the gateway's client sees them:
 * tools and prompts named mcp__<server>__<item> (name_assign, as `tools`
 * prints) unless passthrough, descriptions cut to the limit, IDE tools a
 * model may not see left out. Resources are remembered for
 * gw_resource_server. */
void gw_items_add(gw_backends *b, size_t k, const char *kind,
                  const cJSON *listed, cJSON *out);
/* The backend position of config index `idx`, or -1 when it is not one
 * of the gateway's. */
long gw_backend_of(const gw_backends *b, size_t idx);
/* The backend (position) that serves `uri`: the one that listed it, else
 * one whose template's literal prefix it starts with, else the only
 * backend that declared resources; -1. */
long gw_resource_server(const gw_backends *b, const char *uri);
void gw_backends_free(gw_backends *b);

/* serve_channel.c: the channel to the client, JSON-RPC lines on stdin
 * and stdout. The caller fills c, on_line, on_eof and ud. */
typedef struct gw_chan {
  cli *c;
  /* A line (without its newline), borrowed for the call. */
  void (*on_line)(void *ud, const char *line, size_t len);
  /* The input ended, or the output failed (`broken`): once. */
  void (*on_eof)(void *ud);
  void *ud;
  strbuf in, out; /* unparsed input; output the client has not taken */
  size_t out_off;
  loop_watch *in_watch, *out_watch;
  int out_flags; /* stdout's flags before O_NONBLOCK, or -1 */
  bool eof;      /* stdin ended */
  bool broken;   /* stdout failed: the client is gone */
} gw_chan;
/* Starts reading stdin on the loop (a regular file is read at once). */
void gw_chan_open(gw_chan *ch);
/* Sends `msg` (taken) as one line; dropped when the channel is broken. */
void gw_chan_send(gw_chan *ch, cJSON *msg);
/* Stops reading, writes what waits (blocking), restores stdout. */
void gw_chan_close(gw_chan *ch);
/* A new message with "jsonrpc": "2.0", to fill and send. */
cJSON *gw_msg_new(void);

#endif
