/*
 * The demo server's catalogue: five tools, one resource and one resource
 * template, one prompt. Tests and the README assert on the exact texts
 * produced here, so change them together.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nanosleep */
#endif

#include "demo-server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A 1x1 opaque red PNG (69 bytes). */
static const char tiny_png_base64[] =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3"
    "A0FDAAAAAElFTkSuQmCC";

static const char readme_text[] =
    "mcphost demo readme\n"
    "\n"
    "This text is served by mcphost-demo-server, the small MCP server that\n"
    "the mcphost README, tests and benchmarks talk to.\n"
    "Tools: echo, add, slow, image, fail.\n"
    "Resources: demo://readme and the template demo://item/{id}.\n"
    "Prompts: greet.\n";

#define ITEM_URI_PREFIX "demo://item/"

static const cJSON *get(const cJSON *object, const char *key) {
  /* cJSON returns NULL for a NULL object, which stands for "no params". */
  return cJSON_GetObjectItemCaseSensitive(object, key);
}

static cJSON *text_result(const char *text, bool is_error) {
  cJSON *result = cJSON_CreateObject();
  cJSON *content = cJSON_AddArrayToObject(result, "content");
  cJSON *item = cJSON_CreateObject();
  cJSON_AddStringToObject(item, "type", "text");
  cJSON_AddStringToObject(item, "text", text);
  cJSON_AddItemToArray(content, item);
  if (is_error)
    cJSON_AddTrueToObject(result, "isError");
  return result;
}

/* Takes ownership of text. */
static cJSON *text_result_take(char *text, bool is_error) {
  cJSON *result = text_result(text, is_error);
  free(text);
  return result;
}

/* ---- lists ------------------------------------------------------------ */

/* A cursor is the decimal index of the first item of the next page. */
static bool parse_cursor(const char *s, size_t total, size_t *start) {
  if (*s < '0' || *s > '9')
    return false;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || v >= total)
    return false;
  *start = (size_t)v;
  return true;
}

static cJSON *paginate(const struct server *srv, const cJSON *params,
                       const cJSON *items, const char *key,
                       struct rpc_error *err) {
  size_t total = (size_t)cJSON_GetArraySize(items);
  size_t start = 0;
  const cJSON *cursor = get(params, "cursor");
  if (cursor != NULL && !cJSON_IsNull(cursor) &&
      (!cJSON_IsString(cursor) ||
       !parse_cursor(cursor->valuestring, total, &start)))
    return rpc_fail(err, RPC_INVALID_PARAMS, "Invalid cursor");

  size_t end = total;
  if (srv->page_size > 0 && total - start > srv->page_size)
    end = start + srv->page_size;

  cJSON *result = cJSON_CreateObject();
  cJSON *page = cJSON_AddArrayToObject(result, key);
  /* Indexing is quadratic, and the lists hold a handful of items. */
  for (size_t i = start; i < end; i++)
    cJSON_AddItemToArray(
        page, cJSON_Duplicate(cJSON_GetArrayItem(items, (int)i), true));
  if (end < total) {
    char next[32];
    snprintf(next, sizeof next, "%zu", end);
    cJSON_AddStringToObject(result, "nextCursor", next);
  }
  return result;
}

/* ---- tools ------------------------------------------------------------ */

/* `args` is the arguments object or NULL; `params` the whole request
 * params, for _meta. */
typedef cJSON *(*tool_fn)(struct server *srv, const char *tool,
                          const cJSON *args, const cJSON *params,
                          struct rpc_error *err);

static cJSON *bad_argument(struct rpc_error *err, const char *tool,
                           const char *name, const char *expected) {
  return rpc_fail(err, RPC_INVALID_PARAMS,
                  "Invalid arguments for tool %s: '%s' must be %s", tool, name,
                  expected);
}

/* Reads an optional integer argument in [min, max] into *out, which keeps
 * its default when the argument is absent. */
static bool int_argument(const cJSON *args, const char *tool, const char *name,
                         long min, long max, long *out, struct rpc_error *err) {
  const cJSON *v = get(args, name);
  if (v == NULL)
    return true;
  /* Range first: converting an out-of-range double to long is undefined. */
  if (cJSON_IsNumber(v) && v->valuedouble >= (double)min &&
      v->valuedouble <= (double)max &&
      (double)(long)v->valuedouble == v->valuedouble) {
    *out = (long)v->valuedouble;
    return true;
  }
  char *expected = demo_printf("an integer from %ld to %ld", min, max);
  bad_argument(err, tool, name, expected);
  free(expected);
  return false;
}

static cJSON *tool_echo(struct server *srv, const char *tool, const cJSON *args,
                        const cJSON *params, struct rpc_error *err) {
  (void)srv;
  (void)params;
  const cJSON *message = get(args, "message");
  if (!cJSON_IsString(message))
    return bad_argument(err, tool, "message", "a string");
  return text_result_take(demo_printf("Echo: %s", message->valuestring), false);
}

/* The shortest of %.15g..%.17g that reads back as the same double, as
 * cJSON prints numbers: 5 prints "5", 0.1 prints "0.1", 0.1 + 0.2 prints
 * "0.30000000000000004". */
static void format_number(char *buf, size_t size, double d) {
  for (int precision = 15; precision <= 17; precision++) {
    snprintf(buf, size, "%.*g", precision, d);
    if (strtod(buf, NULL) == d)
      return;
  }
}

static cJSON *tool_add(struct server *srv, const char *tool, const cJSON *args,
                       const cJSON *params, struct rpc_error *err) {
  (void)srv;
  (void)params;
  const cJSON *a = get(args, "a");
  const cJSON *b = get(args, "b");
  if (!cJSON_IsNumber(a))
    return bad_argument(err, tool, "a", "a number");
  if (!cJSON_IsNumber(b))
    return bad_argument(err, tool, "b", "a number");
  char sum[64];
  format_number(sum, sizeof sum, a->valuedouble + b->valuedouble);
  return text_result(sum, false);
}

static void sleep_ms(long ms) {
  struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
    ;
}

/* Blocks the whole server while it sleeps: this is a demo, and the host
 * must cope with a server that answers late. */
static cJSON *tool_slow(struct server *srv, const char *tool, const cJSON *args,
                        const cJSON *params, struct rpc_error *err) {
  long steps = 3;
  long delay_ms = 100;
  if (!int_argument(args, tool, "steps", 0, 1000, &steps, err) ||
      !int_argument(args, tool, "delay_ms", 0, 60000, &delay_ms, err))
    return NULL;

  const cJSON *token = get(get(params, "_meta"), "progressToken");
  bool report = cJSON_IsString(token) || cJSON_IsNumber(token);
  for (long i = 1; i <= steps && !srv->write_failed; i++) {
    sleep_ms(delay_ms);
    if (!report)
      continue;
    cJSON *progress = cJSON_CreateObject();
    cJSON_AddItemToObject(progress, "progressToken",
                          cJSON_Duplicate(token, true));
    cJSON_AddNumberToObject(progress, "progress", (double)i);
    cJSON_AddNumberToObject(progress, "total", (double)steps);
    char message[32];
    snprintf(message, sizeof message, "step %ld", i);
    cJSON_AddStringToObject(progress, "message", message);
    rpc_notify(srv, "notifications/progress", progress);
  }
  return text_result_take(demo_printf("done after %ld steps", steps), false);
}

static cJSON *tool_image(struct server *srv, const char *tool,
                         const cJSON *args, const cJSON *params,
                         struct rpc_error *err) {
  (void)srv;
  (void)tool;
  (void)args;
  (void)params;
  (void)err;
  cJSON *result = cJSON_CreateObject();
  cJSON *content = cJSON_AddArrayToObject(result, "content");
  cJSON *image = cJSON_CreateObject();
  cJSON_AddStringToObject(image, "type", "image");
  cJSON_AddStringToObject(image, "data", tiny_png_base64);
  cJSON_AddStringToObject(image, "mimeType", "image/png");
  cJSON_AddItemToArray(content, image);
  return result;
}

static cJSON *tool_fail(struct server *srv, const char *tool, const cJSON *args,
                        const cJSON *params, struct rpc_error *err) {
  (void)srv;
  (void)params;
  const cJSON *reason = get(args, "reason");
  if (reason != NULL && !cJSON_IsString(reason))
    return bad_argument(err, tool, "reason", "a string");
  return text_result_take(demo_printf("failed: %s", reason != NULL
                                                        ? reason->valuestring
                                                        : "on purpose"),
                          true);
}

static const struct tool {
  const char *name;
  const char *description;
  const char *input_schema; /* JSON */
  tool_fn call;
} tools[] = {
    {"echo", "Echo a message back, prefixed with \"Echo: \".",
     "{\"type\":\"object\","
     "\"properties\":{\"message\":{\"type\":\"string\","
     "\"description\":\"The text to echo.\"}},"
     "\"required\":[\"message\"]}",
     tool_echo},
    {"add", "Add two numbers.",
     "{\"type\":\"object\","
     "\"properties\":{\"a\":{\"type\":\"number\"},\"b\":{\"type\":\"number\"}},"
     "\"required\":[\"a\",\"b\"]}",
     tool_add},
    {"slow",
     "Take a number of steps, sleeping between them; reports progress when "
     "the request carries a progress token.",
     "{\"type\":\"object\","
     "\"properties\":{"
     "\"steps\":{\"type\":\"integer\",\"default\":3,\"minimum\":0,"
     "\"maximum\":1000},"
     "\"delay_ms\":{\"type\":\"integer\",\"default\":100,\"minimum\":0,"
     "\"maximum\":60000}},"
     "\"required\":[]}",
     tool_slow},
    {"image", "Return a 1x1 PNG image.",
     "{\"type\":\"object\",\"properties\":{},\"required\":[]}", tool_image},
    {"fail", "Fail on purpose: the result has isError set.",
     "{\"type\":\"object\","
     "\"properties\":{\"reason\":{\"type\":\"string\"}},"
     "\"required\":[]}",
     tool_fail},
};

static cJSON *tools_list(struct server *srv, const cJSON *params,
                         struct rpc_error *err) {
  return paginate(srv, params, srv->tools, "tools", err);
}

static cJSON *tools_call(struct server *srv, const cJSON *params,
                         struct rpc_error *err) {
  const cJSON *name = get(params, "name");
  if (!cJSON_IsString(name))
    return rpc_fail(err, RPC_INVALID_PARAMS,
                    "Invalid params: 'name' must be a string");
  const cJSON *args = get(params, "arguments");
  if (cJSON_IsNull(args))
    args = NULL;
  if (args != NULL && !cJSON_IsObject(args))
    return rpc_fail(err, RPC_INVALID_PARAMS,
                    "Invalid params: 'arguments' must be an object");
  for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
    if (strcmp(tools[i].name, name->valuestring) == 0)
      return tools[i].call(srv, tools[i].name, args, params, err);
  return rpc_fail(err, RPC_INVALID_PARAMS, "Unknown tool: %s",
                  name->valuestring);
}

/* ---- resources -------------------------------------------------------- */

static cJSON *resources_list(struct server *srv, const cJSON *params,
                             struct rpc_error *err) {
  return paginate(srv, params, srv->resources, "resources", err);
}

static cJSON *resources_templates_list(struct server *srv, const cJSON *params,
                                       struct rpc_error *err) {
  return paginate(srv, params, srv->templates, "resourceTemplates", err);
}

static cJSON *resources_read(struct server *srv, const cJSON *params,
                             struct rpc_error *err) {
  (void)srv;
  const cJSON *uri = get(params, "uri");
  if (!cJSON_IsString(uri))
    return rpc_fail(err, RPC_INVALID_PARAMS,
                    "Invalid params: 'uri' must be a string");
  const char *u = uri->valuestring;
  const size_t prefix_len = sizeof ITEM_URI_PREFIX - 1;
  char *text;
  if (strcmp(u, "demo://readme") == 0) {
    text = demo_printf("%s", readme_text);
  } else if (strncmp(u, ITEM_URI_PREFIX, prefix_len) == 0 &&
             u[prefix_len] != '\0') {
    text = demo_printf("item %s", u + prefix_len);
  } else {
    rpc_fail(err, MCP_RESOURCE_NOT_FOUND, "Resource not found: %s", u);
    err->data = cJSON_CreateObject();
    cJSON_AddStringToObject(err->data, "uri", u);
    return NULL;
  }

  cJSON *result = cJSON_CreateObject();
  cJSON *contents = cJSON_AddArrayToObject(result, "contents");
  cJSON *content = cJSON_CreateObject();
  cJSON_AddStringToObject(content, "uri", u);
  cJSON_AddStringToObject(content, "mimeType", "text/plain");
  cJSON_AddStringToObject(content, "text", text);
  cJSON_AddItemToArray(contents, content);
  free(text);
  return result;
}

/* ---- prompts ---------------------------------------------------------- */

static cJSON *prompts_list(struct server *srv, const cJSON *params,
                           struct rpc_error *err) {
  return paginate(srv, params, srv->prompts, "prompts", err);
}

static cJSON *prompts_get(struct server *srv, const cJSON *params,
                          struct rpc_error *err) {
  (void)srv;
  const cJSON *name = get(params, "name");
  if (!cJSON_IsString(name))
    return rpc_fail(err, RPC_INVALID_PARAMS,
                    "Invalid params: 'name' must be a string");
  if (strcmp(name->valuestring, "greet") != 0)
    return rpc_fail(err, RPC_INVALID_PARAMS, "Unknown prompt: %s",
                    name->valuestring);
  const cJSON *args = get(params, "arguments");
  if (args != NULL && !cJSON_IsNull(args) && !cJSON_IsObject(args))
    return rpc_fail(err, RPC_INVALID_PARAMS,
                    "Invalid params: 'arguments' must be an object");
  const cJSON *who = get(args, "name");
  const cJSON *style = get(args, "style");
  if (who == NULL)
    return rpc_fail(err, RPC_INVALID_PARAMS, "Missing required argument: name");
  if (!cJSON_IsString(who))
    return rpc_fail(err, RPC_INVALID_PARAMS,
                    "Invalid argument: 'name' must be a string");
  if (style != NULL && !cJSON_IsString(style))
    return rpc_fail(err, RPC_INVALID_PARAMS,
                    "Invalid argument: 'style' must be a string");

  char *text = demo_printf("Say hello to %s in a %s way.", who->valuestring,
                           style != NULL ? style->valuestring : "friendly");
  cJSON *result = cJSON_CreateObject();
  cJSON_AddStringToObject(result, "description", "Greet someone by name.");
  cJSON *messages = cJSON_AddArrayToObject(result, "messages");
  cJSON *message = cJSON_CreateObject();
  cJSON_AddStringToObject(message, "role", "user");
  cJSON *content = cJSON_AddObjectToObject(message, "content");
  cJSON_AddStringToObject(content, "type", "text");
  cJSON_AddStringToObject(content, "text", text);
  cJSON_AddItemToArray(messages, message);
  free(text);
  return result;
}

/* ---- catalogue -------------------------------------------------------- */

static cJSON *prompt_argument(const char *name, const char *description,
                              bool required) {
  cJSON *arg = cJSON_CreateObject();
  cJSON_AddStringToObject(arg, "name", name);
  cJSON_AddStringToObject(arg, "description", description);
  cJSON_AddBoolToObject(arg, "required", required);
  return arg;
}

void features_init(struct server *srv) {
  srv->tools = cJSON_CreateArray();
  for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
    cJSON *schema = cJSON_Parse(tools[i].input_schema);
    if (schema == NULL) {
      /* A typo in the table above: fail loudly, not with a null schema. */
      fprintf(stderr, "demo-server: bad input schema for tool %s\n",
              tools[i].name);
      abort();
    }
    cJSON *tool = cJSON_CreateObject();
    cJSON_AddStringToObject(tool, "name", tools[i].name);
    cJSON_AddStringToObject(tool, "description", tools[i].description);
    cJSON_AddItemToObject(tool, "inputSchema", schema);
    cJSON_AddItemToArray(srv->tools, tool);
  }

  srv->resources = cJSON_CreateArray();
  cJSON *readme = cJSON_CreateObject();
  cJSON_AddStringToObject(readme, "uri", "demo://readme");
  cJSON_AddStringToObject(readme, "name", "readme");
  cJSON_AddStringToObject(readme, "description",
                          "A short text about the demo server.");
  cJSON_AddStringToObject(readme, "mimeType", "text/plain");
  cJSON_AddItemToArray(srv->resources, readme);

  srv->templates = cJSON_CreateArray();
  cJSON *item = cJSON_CreateObject();
  cJSON_AddStringToObject(item, "uriTemplate", ITEM_URI_PREFIX "{id}");
  cJSON_AddStringToObject(item, "name", "item");
  cJSON_AddStringToObject(item, "description",
                          "An item by id; its text is \"item <id>\".");
  cJSON_AddStringToObject(item, "mimeType", "text/plain");
  cJSON_AddItemToArray(srv->templates, item);

  srv->prompts = cJSON_CreateArray();
  cJSON *greet = cJSON_CreateObject();
  cJSON_AddStringToObject(greet, "name", "greet");
  cJSON_AddStringToObject(greet, "description", "Greet someone by name.");
  cJSON *args = cJSON_AddArrayToObject(greet, "arguments");
  cJSON_AddItemToArray(args, prompt_argument("name", "Who to greet.", true));
  cJSON_AddItemToArray(
      args, prompt_argument("style", "How to greet them (default: friendly).",
                            false));
  cJSON_AddItemToArray(srv->prompts, greet);
}

void features_free(struct server *srv) {
  cJSON_Delete(srv->tools);
  cJSON_Delete(srv->resources);
  cJSON_Delete(srv->templates);
  cJSON_Delete(srv->prompts);
  srv->tools = srv->resources = srv->templates = srv->prompts = NULL;
}

method_fn features_lookup(const char *method) {
  static const struct {
    const char *name;
    method_fn fn;
  } methods[] = {
      {"tools/list", tools_list},
      {"tools/call", tools_call},
      {"resources/list", resources_list},
      {"resources/templates/list", resources_templates_list},
      {"resources/read", resources_read},
      {"prompts/list", prompts_list},
      {"prompts/get", prompts_get},
  };
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (strcmp(methods[i].name, method) == 0)
      return methods[i].fn;
  return NULL;
}
