/* The accessors of frontend.h: a front end run as a command reads the
 * command line's context through them, not through struct cli. */
#include "api/client_view.h"
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

int cli_run_until(cli *c, const bool *done) {
  /* As the client's loop thread: what a front end starts from its
   * callbacks begins on the loop as the API's callers' do. */
  return api_client_run_until(c->api, done);
}
