/* Fuzz target: a server's sampling/createMessage and the hook's answer
 * (plugins/sampling/answer.c). The first byte picks the unit, the rest
 * (to the first NUL) is its text.
 *  even: the request's params made into the hook's input
 *    (sampling_hook_input). Refused exactly when they are not an object
 *    with a "messages" array; else an object whose first member is
 *    "server", the server's name, and then every member of the params
 *    but "server", in order, with the same value: the same number of
 *    messages, each with the same content blocks. (Judged on cJSON's
 *    trees: what cJSON loses, this cannot see: a number beyond the double
 *    range is written as null, a string is cut at U+0000.)
 *  odd: the hook's output as a CreateMessageResult
 *    (sampling_check_answer): taken only as an object with a role of the
 *    two, content blocks with a string type, a string model and no
 *    stopReason or a string one, and then as that very object; a refusal
 *    names the first member at fault. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_json.h"
#include "sampling.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

#define SERVER "srv \"one\"\xc3\xa9"

static const cJSON *get(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

static void request(const char *text) {
  char *out = sampling_hook_input(SERVER, text);
  cJSON *params = cJSON_Parse(text);
  const cJSON *messages = get(params, "messages");
  if (!cJSON_IsObject(params) || !cJSON_IsArray(messages)) {
    fuzz_must(out == NULL);
    cJSON_Delete(params);
    return;
  }
  fuzz_must(out != NULL);
  cJSON *in = cJSON_Parse(out);
  fuzz_must(cJSON_IsObject(in) && in->child && in->child->string &&
            strcmp(in->child->string, "server") == 0);
  fuzz_must(cJSON_IsString(in->child) &&
            strcmp(in->child->valuestring, SERVER) == 0);
  /* The rest: the params without their "server" members. */
  const cJSON *p = params->child, *q = in->child->next;
  for (; p; p = p->next) {
    if (strcmp(p->string, "server") == 0) {
      continue;
    }
    fuzz_must(q && strcmp(q->string, p->string) == 0 && fuzz_json_same(p, q));
    q = q->next;
  }
  fuzz_must(q == NULL);
  /* Said plainly: the messages, and each one's content blocks. */
  const cJSON *m = get(in, "messages"), *a, *b;
  fuzz_must(cJSON_GetArraySize(m) == cJSON_GetArraySize(messages));
  for (a = messages->child, b = m->child; a && b; a = a->next, b = b->next) {
    fuzz_must(cJSON_GetArraySize(get(a, "content")) ==
              cJSON_GetArraySize(get(b, "content")));
  }
  cJSON_Delete(in);
  cJSON_Delete(params);
  free(out);
}

static bool block(const cJSON *b) {
  return cJSON_IsObject(b) && cJSON_IsString(get(b, "type"));
}

static void answer(const char *text) {
  char why[400] = "";
  cJSON *r = sampling_check_answer(text, why, sizeof why);
  cJSON *doc = cJSON_Parse(text);
  const char *role = cJSON_GetStringValue(get(doc, "role"));
  const cJSON *content = get(doc, "content"), *stop = get(doc, "stopReason");
  bool blocks = block(content);
  if (cJSON_IsArray(content)) {
    blocks = content->child != NULL;
    for (const cJSON *b = content->child; b; b = b->next) {
      blocks = blocks && block(b);
    }
  }
  const char *fault = NULL;
  if (!text[strspn(text, " \t\r\n")]) {
    fault = "nothing";
  } else if (!doc) {
    fault = "not JSON";
  } else if (!cJSON_IsObject(doc)) {
    fault = "object";
  } else if (!role ||
             (strcmp(role, "assistant") != 0 && strcmp(role, "user") != 0)) {
    fault = "\"role\"";
  } else if (!blocks) {
    fault = "\"content\"";
  } else if (!cJSON_IsString(get(doc, "model"))) {
    fault = "\"model\"";
  } else if (stop && !cJSON_IsString(stop)) {
    fault = "\"stopReason\"";
  }
  if (fault) {
    fuzz_must(!r && strstr(why, fault));
  } else {
    fuzz_must(r && fuzz_json_same(r, doc));
  }
  cJSON_Delete(r);
  cJSON_Delete(doc);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  size_t n = strnlen((const char *)data + 1, len - 1);
  char *text = malloc(n + 1);
  memcpy(text, data + 1, n);
  text[n] = '\0';
  if (data[0] & 1) {
    answer(text);
  } else {
    request(text);
  }
  free(text);
  return 0;
}
