/* How a failure reaches the user: the one map from what went wrong to the
 * exit code (README, --help), the "mcphost: ..." line on stderr, and,
 * under --json, an {"error": {...}} object on stdout for a script that
 * reads only stdout. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../redact.h"
#include "../util.h"
#include "cli.h"

/* MCP's "resource not found" (specification, resources). */
#define MCP_RESOURCE_NOT_FOUND (-32002)

static bool contains_nocase(const char *s, const char *word) {
  size_t n = strlen(word);
  for (; s && *s; s++) {
    size_t i = 0;
    while (i < n && s[i] &&
           tolower((unsigned char)s[i]) == (unsigned char)word[i])
      i++;
    if (i == n)
      return true;
  }
  return false;
}

/* A JSON-RPC error that says the named tool, prompt or resource does not
 * exist: -32602 "Tool x not found" (TypeScript SDK), "Unknown tool: x"
 * (Python SDK), or MCP's -32002. Another -32602 (bad arguments) is not. */
static bool names_missing_item(int code, const char *message,
                               const char *item) {
  if (code == MCP_RESOURCE_NOT_FOUND)
    return true;
  return code == RPC_INVALID_PARAMS && message &&
         (contains_nocase(message, "not found") ||
          contains_nocase(message, "unknown tool") ||
          contains_nocase(message, "unknown prompt")) &&
         (!item || strstr(message, item));
}

int cli_exit_code(const cli_failure *f) {
  if (f->mcph_status) {
    switch (f->mcph_status) {
    case MCPH_EINVAL: return EXIT_USAGE;
    case MCPH_ENOTFOUND: return EXIT_NOT_FOUND;
    case MCPH_EDENIED: return EXIT_DENIED;
    case MCPH_EAUTH: return EXIT_AUTH;
    case MCPH_ETIMEDOUT: return EXIT_TIMEOUT;
    default: return EXIT_SERVER;
    }
  }
  switch (f->status) {
  case RPC_OK: break;
  case RPC_ERR_REMOTE:
    return names_missing_item(f->rpc_code, f->message, f->item) ? EXIT_NOT_FOUND
                                                                : EXIT_PROTOCOL;
  case RPC_ERR_TIMEOUT: return EXIT_TIMEOUT;
  case RPC_ERR_CLOSED: return EXIT_SERVER;
  case RPC_ERR_CANCELLED: return EXIT_INTERRUPTED;
  case RPC_ERR_TRANSPORT:
    return f->s && f->s->fail == FAIL_AUTH ? EXIT_AUTH : EXIT_SERVER;
  case RPC_ERR_LOCAL: return EXIT_PROTOCOL;
  }
  if (!f->s)
    return EXIT_SERVER;
  switch (f->s->fail) {
  case FAIL_TIMEOUT: return EXIT_TIMEOUT;
  case FAIL_PROTOCOL: return EXIT_PROTOCOL;
  case FAIL_INTERRUPTED: return EXIT_INTERRUPTED;
  case FAIL_AUTH: return EXIT_AUTH;
  default: return EXIT_SERVER;
  }
}

int cli_exit_for_failure(const session *s) {
  return cli_exit_code(&(cli_failure){.s = s});
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
    char *text = cJSON_PrintUnformatted(o);
    if (text) {
      fputs(text, stdout);
      fputc('\n', stdout);
      cJSON_free(text);
    }
    cJSON_Delete(o);
  }
  free(c->error_message);
  free(c->error_server);
  c->error_message = c->error_server = NULL;
}
