/*
 * bench-demo-server: the C demo server (examples/demo-server), unchanged,
 * plus one tool for the benchmarks: big(bytes) returns one text block of
 * that many bytes, the same text as bench/servers/ts-server.mjs. A large
 * result from a small request, so that a client's cost for the answer is
 * not mixed with its cost for sending a large request.
 *
 * demo-features.c is compiled with features_lookup renamed to
 * demo_features_lookup (bench/CMakeLists.txt); this file's features_lookup
 * answers tools/call big itself, adds big to tools/list, and hands every
 * other method to the demo's handlers.
 */
#include <stdlib.h>
#include <string.h>

#include "demo-server.h"

method_fn demo_features_lookup(const char *method);

/* The same line as ts-server.mjs: it has characters JSON must escape, as
 * real text does. */
static const char line[] =
    "The quick brown fox jumps over the lazy dog; \"quoted\", tab\there.\n";

static const char big_schema[] =
    "{\"type\":\"object\",\"properties\":{\"bytes\":{\"type\":\"integer\","
    "\"minimum\":0,\"maximum\":268435456}},\"required\":[\"bytes\"]}";

static cJSON *tools_call(struct server *srv, const cJSON *params,
                         struct rpc_error *err) {
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
  if (!cJSON_IsString(name) || strcmp(name->valuestring, "big") != 0)
    return demo_features_lookup("tools/call")(srv, params, err);
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(args, "bytes");
  if (!cJSON_IsNumber(bytes) || bytes->valuedouble < 0 ||
      bytes->valuedouble > 268435456.0)
    return rpc_fail(err, RPC_INVALID_PARAMS,
                    "Invalid arguments for tool big: 'bytes' must be an "
                    "integer from 0 to 268435456");
  size_t n = (size_t)bytes->valuedouble, ll = sizeof line - 1;
  char *text = malloc(n + 1);
  if (!text)
    abort();
  for (size_t i = 0; i < n; i += ll)
    memcpy(text + i, line, n - i < ll ? n - i : ll);
  text[n] = '\0';
  cJSON *result = cJSON_CreateObject();
  cJSON *content = cJSON_AddArrayToObject(result, "content");
  cJSON *block = cJSON_CreateObject();
  cJSON_AddStringToObject(block, "type", "text");
  cJSON_AddStringToObject(block, "text", text);
  free(text);
  cJSON_AddItemToArray(content, block);
  return result;
}

static cJSON *tools_list(struct server *srv, const cJSON *params,
                         struct rpc_error *err) {
  cJSON *result = demo_features_lookup("tools/list")(srv, params, err);
  cJSON *tools = cJSON_GetObjectItemCaseSensitive(result, "tools");
  if (cJSON_IsArray(tools) &&
      !cJSON_GetObjectItemCaseSensitive(result, "nextCursor")) {
    cJSON *big = cJSON_CreateObject();
    cJSON_AddStringToObject(big, "name", "big");
    cJSON_AddStringToObject(big, "description",
                            "Return one text block of `bytes` bytes.");
    cJSON_AddItemToObject(big, "inputSchema", cJSON_Parse(big_schema));
    cJSON_AddItemToArray(tools, big);
  }
  return result;
}

method_fn features_lookup(const char *method) {
  if (strcmp(method, "tools/call") == 0)
    return tools_call;
  if (strcmp(method, "tools/list") == 0)
    return tools_list;
  return demo_features_lookup(method);
}
