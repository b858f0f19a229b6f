/* mcphost ping SERVER...: each server's round trip for an MCP "ping",
 * measured after it is connected (the connection's own time is not the
 * round trip). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int cmd_ping(cli *c, int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "mcphost: usage: mcphost ping SERVER...\n");
    return EXIT_USAGE;
  }
  size_t n = (size_t)argc - 1;
  size_t *idx = xcalloc(n, sizeof *idx);
  cJSON *out = c->json ? cJSON_CreateArray() : NULL;
  int rc = EXIT_OK;
  for (size_t i = 0; i < n; i++) {
    long k = cli_find_server(c, argv[i + 1]);
    if (k < 0) {
      rc = cli_no_server(c, argv[i + 1]);
      goto out;
    }
    if ((rc = cli_check_startable(c, (size_t)k)) != EXIT_OK) {
      goto out;
    }
    idx[i] = (size_t)k;
  }
  cli_connect(c, idx, n);
  for (size_t i = 0; i < n; i++) {
    const char *name = mcphost_server_name(c->api, idx[i]);
    cJSON *result = NULL;
    mcphost_error err = MCPHOST_ERROR_INIT;
    mcphost_request rq = cli_request(MCPHOST_OP_REQUEST, name, "ping", NULL, 0);
    double start = now_ms();
    int one = cli_run(c, &rq, &result, &err, NULL);
    double ms = now_ms() - start;
    cJSON_Delete(result);
    if (one != EXIT_OK) {
      cli_fail(c, &err);
      rc = rc == EXIT_OK ? one : rc;
      continue;
    }
    if (out) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "server", name);
      cJSON_AddNumberToObject(o, "ms", (double)(long long)(ms * 1000) / 1000);
      cJSON_AddItemToArray(out, o);
    } else {
      printf("%s: %.3f ms\n", cli_esc(c, name), ms);
    }
  }
  if (out) {
    out_json(out);
    c->result_printed = true;
  }
out:
  cJSON_Delete(out);
  free(idx);
  return rc;
}
