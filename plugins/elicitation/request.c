/* An elicitation/create's members read into an elicitation; see
 * elicit.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elicit.h"

/* Whether the server speaks a revision without elicitationId (2026-07-28
 * and later: the version strings are dates, so they compare as text). */
static bool url_id_optional(const elicitation *e) {
  const mcph_host_features *svc = e->pl->svc;
  if (!MCPH_HAS(svc, mcph_host_features, protocol_version) || !e->server) {
    return false;
  }
  const char *v = svc->protocol_version(e->pl->host, e->server);
  return v && strlen(v) == 10 && strcmp(v, "2026-07-28") >= 0;
}

int elicit_read_request(elicitation *e, const cJSON *params, char *why,
                        size_t n) {
  const cJSON *mode = cJSON_GetObjectItemCaseSensitive(params, "mode");
  const cJSON *message = cJSON_GetObjectItemCaseSensitive(params, "message");
  if (!cJSON_IsObject(params)) {
    snprintf(why, n, "elicitation/create needs params");
    return -1;
  }
  if (mode && !cJSON_IsString(mode)) {
    snprintf(why, n, "\"mode\" must be \"form\" or \"url\"");
    return -1;
  }
  if (message && !cJSON_IsString(message)) {
    snprintf(why, n, "\"message\" must be a string");
    return -1;
  }
  e->message = xstrdup(message ? message->valuestring : "");
  /* A request without "mode" is a form (2025-06-18 and earlier). */
  if (!mode || strcmp(mode->valuestring, "form") == 0) {
    const cJSON *schema =
        cJSON_GetObjectItemCaseSensitive(params, "requestedSchema");
    if (!schema) {
      snprintf(why, n, "form mode needs \"requestedSchema\"");
      return -1;
    }
    char reason[400];
    if (schema_parse(schema, &e->form, reason, sizeof reason) != 0) {
      snprintf(why, n, "invalid requestedSchema: %s", reason);
      return -1;
    }
    e->schema = cJSON_Duplicate(schema, true);
    if (!e->schema)
      abort();
    return 0;
  }
  if (strcmp(mode->valuestring, "url") != 0) {
    snprintf(why, n, "unknown mode \"%.40s\" (\"form\" or \"url\")",
             mode->valuestring);
    return -1;
  }
  e->url_mode = true;
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "url"));
  const cJSON *id_item =
      cJSON_GetObjectItemCaseSensitive(params, "elicitationId");
  const char *id = cJSON_GetStringValue(id_item);
  if (!url) {
    snprintf(why, n, "url mode needs a \"url\" string");
    return -1;
  }
  /* 2026-07-28 has no elicitationId (the URL comes in an input_required
   * round, whose retry tells the outcome); the earlier revisions need it
   * for notifications/elicitation/complete. */
  if (id_item ? !id : !url_id_optional(e)) {
    snprintf(why, n, "url mode needs an \"elicitationId\" string");
    return -1;
  }
  e->url = xstrdup(url);
  e->elicitation_id = id ? xstrdup(id) : NULL;
  return 0;
}
