/* call CONFIG SERVER/TOOL [JSON]: connects to the server of CONFIG (a
 * file or JSON text, {"mcpServers": {...}}), calls the tool with the
 * arguments JSON (default {}) and prints the text of the result. The
 * exit status is `mcphost call`'s: 0, 1 when the tool reported an error,
 * 2 a bad argument, 3 the server failed, 4 a protocol error, 5 a
 * timeout, 6 not found, 7 authorization, 8 denied, 130 cancelled.
 *
 * Build: cc call.c $(pkg-config --cflags --libs libmcphost) -o call */
#include <mcphost/client.h>

#include <stdio.h>
#include <stdlib.h>

/* mcphost call's exit status for a status code. */
static int exit_status(int code) {
  switch (code) {
  case MCPHOST_OK: return 0;
  case MCPHOST_EUSAGE: return 2;
  case MCPHOST_EPROTOCOL: return 4;
  case MCPHOST_ETIMEDOUT: return 5;
  case MCPHOST_ENOTFOUND: return 6;
  case MCPHOST_EAUTH: return 7;
  case MCPHOST_EDENIED: return 8;
  case MCPHOST_ECANCELED: return 130;
  default: return 3;
  }
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: call CONFIG SERVER/TOOL [JSON]\n");
    return 2;
  }
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {argv[1]};
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1; /* the servers of CONFIG only */
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_client_new(&o, &c, &err);
  if (rc == MCPHOST_OK) {
    mcphost_request rq = MCPHOST_REQUEST_INIT;
    rq.kind = MCPHOST_OP_CALL_TOOL;
    rq.name = argv[2]; /* SERVER/TOOL or mcp__SERVER__TOOL */
    rq.arguments = argc == 4 ? argv[3] : NULL;
    char *result = NULL;
    size_t len = 0;
    rc = mcphost_run(c, &rq, &result, &len, &err);
    if (rc == MCPHOST_OK) {
      char *text = NULL;
      size_t text_len = 0;
      int is_error = 0;
      rc = mcphost_result_text(result, len, &text, &text_len, &is_error, &err);
      if (rc == MCPHOST_OK) {
        fwrite(text, 1, text_len, stdout);
        mcphost_free(text);
      }
      if (is_error) {
        fprintf(stderr, "call: tool \"%s\" reported an error\n", argv[2]);
      }
      mcphost_free(result);
      mcphost_client_free(c);
      return rc != MCPHOST_OK ? exit_status(rc) : is_error ? 1 : 0;
    }
    mcphost_client_free(c);
  }
  fprintf(stderr, "call: %s\n", err.message);
  return exit_status(rc);
}
