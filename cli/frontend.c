/* The accessors of frontend.h: a front end run as a command reads the
 * command line's context through them, not through struct cli. */
#include "cli/cli.h"

host *cli_host(const cli *c) {
  return c->h;
}

mcp_client *cli_client(const cli *c) {
  return c->mc;
}

const limits *cli_limits(const cli *c) {
  return &c->lim;
}
