/* mcphost serve: the gateway (docs/gateway.md), run by the CLI as its
 * command `serve`. What the CLI sees of the gateway; the gateway sees
 * of the CLI only cli/frontend.h (tests/integration/test_cli_headers.sh). */
#ifndef MCPHOST_GATEWAY_H
#define MCPHOST_GATEWAY_H

#include "cli/frontend.h"

/* serve_cmd.c: mcphost serve --stdio | --http HOST:PORT ... */
int cmd_serve(cli *c, int argc, char **argv);

#endif
