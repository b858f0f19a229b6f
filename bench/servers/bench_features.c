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
 *
 * BENCH_NAMES=intl also lists tools whose names and descriptions are
 * accented Latin, Japanese, Russian, Hindi and emoji, all already in NFKC
 * (a client's sanitizer clears them without normalizing); BENCH_NAMES=icu
 * lists those and one whose name is fullwidth letters, which only NFKC
 * turns into ASCII (mcphost once opened ICU for it; it normalizes with
 * its own tables now). They answer as echo does.
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

static void add_named(cJSON *tools, const char *name, const char *desc) {
  cJSON *tool = cJSON_CreateObject();
  cJSON_AddStringToObject(tool, "name", name);
  cJSON_AddStringToObject(tool, "description", desc);
  cJSON_AddItemToObject(tool, "inputSchema",
                        cJSON_Parse("{\"type\":\"object\"}"));
  cJSON_AddItemToArray(tools, tool);
}

/* The names of BENCH_NAMES (above), in UTF-8. */
static void add_names(cJSON *tools) {
  const char *names = getenv("BENCH_NAMES");
  if (names == NULL ||
      (strcmp(names, "intl") != 0 && strcmp(names, "icu") != 0))
    return;
  add_named(tools, "caf\xc3\xa9",
            "Cr\xc3\xa8me br\xc3\xbbl\xc3\xa9\x65, na\xc3\xafve.");
  add_named(tools, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
            "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae"
            "\xe3\x83\x84\xe3\x83\xbc\xe3\x83\xab\xe3\x81\xa7"
            "\xe3\x81\x99\xe3\x80\x82");
  add_named(tools, "\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
            "\xd0\xa0\xd1\x83\xd1\x81\xd1\x81\xd0\xba\xd0\xb8\xd0\xb9.");
  add_named(tools,
            "\xe0\xa4\xa8\xe0\xa4\xae\xe0\xa4\xb8\xe0\xa5\x8d"
            "\xe0\xa4\xa4\xe0\xa5\x87",
            "\xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\xa8\xe0\xa5\x8d"
            "\xe0\xa4\xa6\xe0\xa5\x80");
  add_named(tools, "emoji", "\xf0\x9f\x98\x80 \xf0\x9f\x91\x8d");
  if (strcmp(names, "icu") == 0) {
    /* "full" in fullwidth letters (U+FF46 U+FF55 U+FF4C U+FF4C). */
    add_named(tools, "\xef\xbd\x86\xef\xbd\x95\xef\xbd\x8c\xef\xbd\x8c",
              "Fullwidth letters, which NFKC makes ASCII.");
  }
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
    add_names(tools);
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
