/* A tool's or prompt's declaration from a reference on the command line
 * (cli.h): the one way `tool`, `prompt`, `prompt --help` and `complete`
 * find what they show or use. */
#include <stdlib.h>

#include "cli/cli.h"

int cli_find_item(cli *c, const char *ref, int kind, const char **server,
                  cJSON **item, mcphost_error *find_err) {
  mcphost_error err = MCPHOST_ERROR_INIT;
  *item = NULL;
  *server = NULL;
  if (find_err) {
    *find_err = (mcphost_error)MCPHOST_ERROR_INIT;
  }
  const char *what = kind == MCPHOST_OP_FIND_TOOL ? "tool" : "prompt";
  if (mcphost_resolve_ref(c->api, ref, what, server, NULL, &err) !=
      MCPHOST_OK) {
    return cli_fail(c, &err);
  }
  int rc = cli_check_startable(c, (size_t)cli_find_server(c, *server));
  if (rc != EXIT_OK) {
    return rc;
  }
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = kind;
  rq.name = ref;
  rc = cli_run(c, &rq, item, &err, NULL);
  if (rc != EXIT_OK && find_err) {
    *find_err = err;
  } else if (rc != EXIT_OK) {
    cli_fail(c, &err);
  }
  return rc;
}
