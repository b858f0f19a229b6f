/* The accessors of frontend.h: a front end run as a command reads the
 * command line's context through them, not through struct cli. */
#include <stdarg.h>
#include <stdlib.h>

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

mcphost_client *cli_api(const cli *c) {
  return c->api;
}

int64_t cli_option_value(const cli *c, const char *name) {
  int64_t v = 0;
  if (mcphost_get_option(c->api, name, &v, NULL) != MCPHOST_OK)
    return 0;
  return v;
}

int cli_run_until(cli *c, const bool *done) {
  return host_run_until(c->h, done, 0);
}

void cli_log(cli *c, int level, const char *source, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *message = xvasprintf(fmt, ap);
  va_end(ap);
  mcphost_log(c->api, level, source, message, NULL);
  free(message);
}
