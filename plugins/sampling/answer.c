/* The hook's input and checking its answer; see sampling.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sampling.h"

static bool content_block(const cJSON *b) {
  return cJSON_IsObject(b) &&
         cJSON_IsString(cJSON_GetObjectItemCaseSensitive(b, "type"));
}

cJSON *sampling_check_answer(const char *output, char *why, size_t n) {
  const char *rest = output + strspn(output, " \t\r\n");
  if (!*rest) {
    snprintf(why, n, "it printed nothing");
    return NULL;
  }
  cJSON *r = cJSON_Parse(output);
  if (!r) {
    snprintf(why, n, "its output is not JSON: %.200s", output);
    return NULL;
  }
  const char *role =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "role"));
  const cJSON *content = cJSON_GetObjectItemCaseSensitive(r, "content");
  const cJSON *model = cJSON_GetObjectItemCaseSensitive(r, "model");
  const cJSON *stop = cJSON_GetObjectItemCaseSensitive(r, "stopReason");
  bool blocks = content_block(content);
  if (cJSON_IsArray(content)) {
    const cJSON *b;
    blocks = cJSON_GetArraySize(content) > 0;
    cJSON_ArrayForEach(b, content) {
      blocks = blocks && content_block(b);
    }
  }
  if (!cJSON_IsObject(r)) {
    snprintf(why, n, "its output is not a JSON object");
  } else if (!role ||
             (strcmp(role, "assistant") != 0 && strcmp(role, "user") != 0)) {
    snprintf(why, n, "\"role\" must be \"assistant\" or \"user\"");
  } else if (!blocks) {
    snprintf(why, n,
             "\"content\" must be a content block (an object with a "
             "\"type\") or a non-empty array of them");
  } else if (!cJSON_IsString(model)) {
    snprintf(why, n, "\"model\" must be a string (the model that answered)");
  } else if (stop && !cJSON_IsString(stop)) {
    snprintf(why, n, "\"stopReason\" must be a string");
  } else {
    return r;
  }
  cJSON_Delete(r);
  return NULL;
}

char *sampling_hook_input(const char *server, const char *params_json) {
  cJSON *params = cJSON_Parse(params_json);
  if (!cJSON_IsObject(params) ||
      !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(params, "messages"))) {
    cJSON_Delete(params);
    return NULL;
  }
  cJSON *in = cJSON_CreateObject();
  cJSON_AddStringToObject(in, "server", server);
  const cJSON *it;
  cJSON_ArrayForEach(it, params) {
    if (strcmp(it->string, "server") != 0) {
      cJSON_AddItemToObject(in, it->string, cJSON_Duplicate(it, 1));
    }
  }
  char *text = cJSON_PrintUnformatted(in);
  cJSON_Delete(in);
  cJSON_Delete(params);
  return text;
}
