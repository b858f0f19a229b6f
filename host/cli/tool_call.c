/* tools/call with the URL-elicitation layer: a server may answer a call
 * with JSON-RPC error -32042 (URL elicitation required), listing
 * elicitations the user must complete first. Each is handed to the feature
 * plugin that answers "elicitation/create" (as if the server had sent it);
 * when all were accepted the call is sent again, at most 3 times in all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../feature_plugins.h"
#include "../util.h"
#include "cli.h"

#define CALL_ATTEMPTS 3

typedef struct elicit_wait {
  size_t pending;
  bool done;
  bool all_accepted;
  char reason[300];
} elicit_wait;

static void on_elicited(void *ud, const cJSON *result, int code,
                        const char *message) {
  elicit_wait *w = ud;
  const char *action = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(result, "action"));
  if (!result || !action || strcmp(action, "accept") != 0) {
    if (w->all_accepted)
      snprintf(w->reason, sizeof w->reason, "%s",
               result ? (action ? action : "no action")
                      : (message ? message : "error"));
    w->all_accepted = false;
    (void)code;
  }
  if (--w->pending == 0)
    w->done = true;
}

/* Runs the elicitations of a -32042 error's data. Returns EXIT_OK when
 * every one was accepted. */
static int run_elicitations(cli *c, session *s, const cJSON *data, char *why,
                            size_t why_len) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(data, "elicitations");
  if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0) {
    snprintf(why, why_len,
             "server \"%s\" requires a URL elicitation but listed none",
             s->cfg->name);
    return EXIT_PROTOCOL;
  }
  elicit_wait w = {.pending = 1, .all_accepted = true};
  const cJSON *e;
  cJSON_ArrayForEach(e, list) {
    w.pending++;
    if (!features_local_request(s, "elicitation/create", e, on_elicited, &w)) {
      w.pending--;
      snprintf(why, why_len,
               "server \"%s\" requires a URL elicitation, and no plugin "
               "handles elicitation",
               s->cfg->name);
      return EXIT_PROTOCOL;
    }
  }
  if (--w.pending == 0)
    w.done = true;
  if (host_run_until(c->h, &w.done, 0) == -2)
    return EXIT_INTERRUPTED;
  if (!w.all_accepted) {
    snprintf(why, why_len,
             "server \"%s\" requires a URL elicitation, which was not "
             "completed (%s)",
             s->cfg->name, w.reason);
    return EXIT_PROTOCOL;
  }
  return EXIT_OK;
}

int cli_call_tool(cli *c, session *s, const char *tool, const cJSON *args,
                  cli_progress_fn progress, cJSON **result, char *why,
                  size_t why_len) {
  int rc = EXIT_PROTOCOL;
  for (int attempt = 1; attempt <= CALL_ATTEMPTS; attempt++) {
    cJSON *params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "name", tool);
    cJSON_AddItemToObject(params, "arguments",
                          args ? cJSON_Duplicate(args, 1) : cJSON_CreateObject());
    rc = cli_request(c, s, "tools/call", params, c->tool_timeout_ms, progress,
                     result, why, why_len);
    if (rc != EXIT_PROTOCOL ||
        c->last_error_code != MCPH_RPC_URL_ELICITATION_REQUIRED)
      return rc;
    if (attempt == CALL_ATTEMPTS)
      break;
    host_log(c->h, MCPH_LOG_INFO, s->cfg->name,
             "the call needs a URL elicitation first (attempt %d of %d)",
             attempt, CALL_ATTEMPTS);
    rc = run_elicitations(c, s, c->last_error_data, why, why_len);
    if (rc != EXIT_OK)
      return rc;
  }
  snprintf(why, why_len,
           "server \"%s\" still requires a URL elicitation after %d attempts",
           s->cfg->name, CALL_ATTEMPTS);
  return EXIT_PROTOCOL;
}
