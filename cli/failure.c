/* How a failure reaches the user: the one map from what went wrong to the
 * exit code (README, --help), the "mcphost: ..." line on stderr, and,
 * under --json, an {"error": {...}} object on stdout for a script that
 * reads only stdout. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util.h"
#include "suggest.h"
#include "json_write.h"
#include "redact.h"

int cli_exit_for_api(int code) {
  switch (code) {
  case MCPHOST_OK: return EXIT_OK;
  case MCPHOST_EUSAGE: return EXIT_USAGE;
  case MCPHOST_EPROTOCOL: return EXIT_PROTOCOL;
  case MCPHOST_ETIMEDOUT: return EXIT_TIMEOUT;
  case MCPHOST_ENOTFOUND: return EXIT_NOT_FOUND;
  case MCPHOST_EAUTH: return EXIT_AUTH;
  case MCPHOST_EDENIED: return EXIT_DENIED;
  case MCPHOST_ECANCELED: return EXIT_INTERRUPTED;
  }
  return EXIT_SERVER;
}

int cli_exit_for_signal(int rc, int signal_number) {
  if (signal_number > 0 && (rc == EXIT_OK || rc == EXIT_INTERRUPTED))
    return 128 + signal_number;
  return rc;
}

void cli_error(cli *c, const char *server, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  strbuf b;
  sb_init(&b);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  out_error("%s", sb_str(&b));
  if (!c->error_message) { /* the first is the cause; the rest follow */
    c->error_message = sb_take(&b);
    c->error_server = server ? xstrdup(server) : NULL;
  } else {
    sb_free(&b);
  }
}

int cli_unknown(cli *c, const char *prefix, const char *word,
                const char *const *names, size_t n, const char *tail) {
  strbuf hint;
  sb_init(&hint);
  mcp_suggest(&hint, word, names, n);
  cli_error(c, NULL, "%s \"%s\"%s%s", prefix, word, sb_str(&hint), tail);
  sb_free(&hint);
  return EXIT_USAGE;
}

static const char *generic_message(int rc) {
  switch (rc) {
  case EXIT_USAGE: return "usage error";
  case EXIT_SERVER: return "a server failed";
  case EXIT_PROTOCOL: return "protocol error";
  case EXIT_TIMEOUT: return "a deadline passed";
  case EXIT_NOT_FOUND: return "not found";
  case EXIT_AUTH: return "the server needs authorization";
  case EXIT_DENIED: return "refused";
  case EXIT_TRUNCATED: return "a text result was cut";
  case EXIT_OUTPUT: return "the output could not be written";
  default: return "interrupted";
  }
}

void cli_finish(cli *c, int rc) {
  if (c->json && rc != EXIT_OK && !c->result_printed) {
    cJSON *o = cJSON_CreateObject();
    cJSON *e = cJSON_AddObjectToObject(o, "error");
    cJSON_AddNumberToObject(e, "code", rc);
    /* A message can quote a server or an HTTP peer: no secrets. JSON
     * escapes what a terminal must not obey. */
    char *safe =
        redact(c->error_message ? c->error_message : generic_message(rc));
    cJSON_AddStringToObject(e, "message", safe);
    free(safe);
    if (c->error_server)
      cJSON_AddStringToObject(e, "server", c->error_server);
    else
      cJSON_AddNullToObject(e, "server");
    char *text = json_print(o);
    if (text) {
      fputs(text, stdout);
      fputc('\n', stdout);
      cJSON_free(text);
    }
    cJSON_Delete(o);
  }
  free(c->error_message);
  free(c->error_server);
  free(c->error_long);
  c->error_message = c->error_server = c->error_long = NULL;
}
