/* The accessors of frontend.h: a front end run as a command reads the
 * command line's context through them, not through struct cli. */
#include <stdarg.h>
#include <stdlib.h>

#include "cli/cli.h"

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

int cli_run_until(cli *c, const int *done) {
  /* As the client's loop thread: what a front end starts from its
   * callbacks begins on the loop as the API's callers' do. */
  return mcphost_run_interruptible(c->api, done, 0) == MCPHOST_ECANCELED ? -2
                                                                         : 0;
}

void cli_log(cli *c, int level, const char *source, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *message = xvasprintf(fmt, ap);
  va_end(ap);
  mcphost_log(c->api, level, source, message, NULL);
  free(message);
}
