/* A tool's or prompt's declaration from a reference on the command line
 * (cli.h): the one way `tool`, `prompt`, `prompt --help` and `complete`
 * find what they show or use. */
#include <stdlib.h>

#include "cli/cli.h"

int cli_find_item(cli *c, const char *ref, mcp_op_kind kind, size_t *idx,
                  cJSON **item, mcp_error *find_err) {
  char *name = NULL;
  bool qualified;
  mcp_error err = {0};
  int rc;
  *item = NULL;
  if (find_err) {
    mcp_error_clear(find_err);
  }
  const char *what = kind == MCP_OP_FIND_TOOL ? "tool" : "prompt";
  if (mcp_client_resolve_ref(c->mc, ref, what, idx, &name, &qualified, &err) !=
      0) {
    rc = cli_fail(c, &err);
    goto out;
  }
  if ((rc = cli_check_startable(c, *idx)) != EXIT_OK) {
    goto out;
  }
  rc = cli_run(
      c,
      &(mcp_call){
          .kind = kind, .server = *idx, .name = name, .qualified = qualified},
      item, &err, NULL);
  if (rc != EXIT_OK && find_err) {
    mcp_error_move(find_err, &err);
  } else if (rc != EXIT_OK) {
    cli_fail(c, &err);
  }
out:
  mcp_error_clear(&err);
  free(name);
  return rc;
}
