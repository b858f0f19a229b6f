/*
 * elicit_server — a stdio MCP server that asks the client things, for
 * tests/integration/test_elicitation.sh.
 *
 * Newline-delimited JSON-RPC 2.0 on stdin/stdout. It sends
 * "elicitation/create" whether or not the client declared the capability
 * (on purpose: the tests check what a client without it answers). Tools:
 *
 *   ask {params, exit_after_ms, stall_ms}
 *                       sends elicitation/create with `params` as given
 *                       (broken schemas included) and answers with what
 *                       came back: "result <json>" or "error <code>
 *                       <message>", stall_ms after it came; with
 *                       exit_after_ms it exits that long after asking
 *                       instead (a server that goes away); with
 *                       ELICIT_SERVER_ID_PREFIX set, its request's id is
 *                       the string "<prefix><n>"
 *   two {params}        sends two elicitation/create at once, then
 *                       answers with both results, one per line
 *   url {url, id}       a URL-mode elicitation; after an "accept" it sends
 *                       notifications/elicitation/complete for `id`, and
 *                       one for an id it never used
 *   caps                the capabilities the client declared, as JSON
 *   withdraw {params, after_ms, wait_ms}
 *                       sends elicitation/create, withdraws it with
 *                       notifications/cancelled after `after_ms`, then
 *                       waits `wait_ms` for an answer it should no longer
 *                       get: "no answer" or "answered <json>"
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* getline */
#endif

#include <cjson/cJSON.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cJSON *client_caps;
static int next_id = 1;

static void send_msg(cJSON *msg) {
  char *s = cJSON_PrintUnformatted(msg);
  fputs(s, stdout);
  fputc('\n', stdout);
  fflush(stdout);
  free(s);
  cJSON_Delete(msg);
}

static cJSON *message(void) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  return m;
}

static void respond(const cJSON *id, cJSON *result) {
  cJSON *m = message();
  cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, 1));
  cJSON_AddItemToObject(m, "result", result);
  send_msg(m);
}

static void respond_error(const cJSON *id, int code, const char *text) {
  cJSON *m = message();
  cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, 1));
  cJSON *e = cJSON_AddObjectToObject(m, "error");
  cJSON_AddNumberToObject(e, "code", code);
  cJSON_AddStringToObject(e, "message", text);
  send_msg(m);
}

static void notify(const char *method, cJSON *params) {
  cJSON *m = message();
  cJSON_AddStringToObject(m, "method", method);
  cJSON_AddItemToObject(m, "params", params);
  send_msg(m);
}

static cJSON *text_result(const char *text) {
  cJSON *r = cJSON_CreateObject();
  cJSON *content = cJSON_AddArrayToObject(r, "content");
  cJSON *block = cJSON_CreateObject();
  cJSON_AddStringToObject(block, "type", "text");
  cJSON_AddStringToObject(block, "text", text);
  cJSON_AddItemToArray(content, block);
  return r;
}

static void handle(cJSON *msg);

/* Sends a request and reads messages until its answer; the client's own
 * requests meanwhile are handled. Returns the answer (result or error
 * member, detached) and sets *is_error; NULL when stdin closed. */
static cJSON *request(const char *method, cJSON *params, int *is_error) {
  int id = next_id++;
  cJSON *m = message();
  /* ELICIT_SERVER_ID_PREFIX: ask's ids are strings, "<prefix><n>" (ids
   * that look like a client's own). */
  const char *prefix = getenv("ELICIT_SERVER_ID_PREFIX");
  char sid[128];
  snprintf(sid, sizeof sid, "%s%d", prefix ? prefix : "", id);
  if (prefix) {
    cJSON_AddStringToObject(m, "id", sid);
  } else {
    cJSON_AddNumberToObject(m, "id", id);
  }
  cJSON_AddStringToObject(m, "method", method);
  cJSON_AddItemToObject(m, "params", params);
  send_msg(m);
  char *line = NULL;
  size_t cap = 0;
  cJSON *answer = NULL;
  while (!answer && getline(&line, &cap, stdin) >= 0) {
    cJSON *in = cJSON_Parse(line);
    const cJSON *rid = cJSON_GetObjectItemCaseSensitive(in, "id");
    if (cJSON_GetObjectItemCaseSensitive(in, "method")) {
      handle(in);
    } else if (prefix
                   ? cJSON_IsString(rid) && strcmp(rid->valuestring, sid) == 0
                   : cJSON_IsNumber(rid) && rid->valueint == id) {
      *is_error = cJSON_HasObjectItem(in, "error");
      answer = cJSON_DetachItemFromObjectCaseSensitive(
          in, *is_error ? "error" : "result");
    }
    cJSON_Delete(in);
  }
  free(line);
  return answer;
}

/* "result <json>" or "error <code> <message>". */
static char *describe(cJSON *answer, int is_error) {
  char *text;
  if (!answer)
    return strdup("no answer");
  if (is_error) {
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(answer, "code");
    const char *msg = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(answer, "message"));
    if (asprintf(&text, "error %d %s",
                 cJSON_IsNumber(code) ? code->valueint : 0, msg ? msg : "") < 0)
      abort();
    return text;
  }
  char *json = cJSON_PrintUnformatted(answer);
  if (asprintf(&text, "result %s", json) < 0)
    abort();
  free(json);
  return text;
}

static void send_request(int id, const char *method, cJSON *params) {
  cJSON *m = message();
  cJSON_AddNumberToObject(m, "id", id);
  cJSON_AddStringToObject(m, "method", method);
  cJSON_AddItemToObject(m, "params", params);
  send_msg(m);
}

static void tool_ask(const cJSON *id, const cJSON *args) {
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(args, "params");
  const cJSON *exit_after =
      cJSON_GetObjectItemCaseSensitive(args, "exit_after_ms");
  if (cJSON_IsNumber(exit_after)) {
    send_request(next_id++, "elicitation/create",
                 params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
    usleep((useconds_t)exit_after->valueint * 1000u);
    exit(0);
  }
  int is_error = 0;
  cJSON *answer = request(
      "elicitation/create",
      params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject(), &is_error);
  const cJSON *stall = cJSON_GetObjectItemCaseSensitive(args, "stall_ms");
  if (cJSON_IsNumber(stall))
    usleep((useconds_t)stall->valueint * 1000u);
  char *text = describe(answer, is_error);
  respond(id, text_result(text));
  free(text);
  cJSON_Delete(answer);
}

static void tool_two(const cJSON *id, const cJSON *args) {
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(args, "params");
  int first = next_id;
  next_id += 2;
  for (int i = 0; i < 2; i++)
    send_request(first + i, "elicitation/create",
                 params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
  char *text[2] = {NULL, NULL};
  char *line = NULL;
  size_t cap = 0;
  while ((!text[0] || !text[1]) && getline(&line, &cap, stdin) >= 0) {
    cJSON *in = cJSON_Parse(line);
    const cJSON *rid = cJSON_GetObjectItemCaseSensitive(in, "id");
    if (cJSON_GetObjectItemCaseSensitive(in, "method")) {
      handle(in);
    } else if (cJSON_IsNumber(rid) && rid->valueint >= first &&
               rid->valueint < first + 2) {
      int is_error = cJSON_HasObjectItem(in, "error");
      char **slot = rid->valueint == first ? &text[0] : &text[1];
      free(*slot); /* answered twice: the last wins */
      *slot = describe(
          cJSON_GetObjectItemCaseSensitive(in, is_error ? "error" : "result"),
          is_error);
    }
    cJSON_Delete(in);
  }
  free(line);
  char *both;
  if (asprintf(&both, "%s\n%s", text[0] ? text[0] : "no answer",
               text[1] ? text[1] : "no answer") < 0)
    abort();
  respond(id, text_result(both));
  free(both);
  free(text[0]);
  free(text[1]);
}

static void tool_url(const cJSON *id, const cJSON *args) {
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "url"));
  const char *eid =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "id"));
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "mode", "url");
  cJSON_AddStringToObject(p, "message", "Sign in to continue.");
  cJSON_AddStringToObject(p, "url", url ? url : "https://example.com/");
  cJSON_AddStringToObject(p, "elicitationId", eid ? eid : "e-1");
  int is_error = 0;
  cJSON *answer = request("elicitation/create", p, &is_error);
  const char *action =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "action"));
  if (!is_error && action && strcmp(action, "accept") == 0) {
    cJSON *np = cJSON_CreateObject();
    cJSON_AddStringToObject(np, "elicitationId", "never-issued");
    notify("notifications/elicitation/complete", np);
    np = cJSON_CreateObject();
    cJSON_AddStringToObject(np, "elicitationId", eid ? eid : "e-1");
    notify("notifications/elicitation/complete", np);
  }
  char *text = describe(answer, is_error);
  respond(id, text_result(text));
  free(text);
  cJSON_Delete(answer);
}

static int num_arg(const cJSON *args, const char *name, int fallback) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, name);
  return cJSON_IsNumber(v) ? v->valueint : fallback;
}

/* stdin is unbuffered (main), so poll() sees every byte not yet read. */
static void tool_withdraw(const cJSON *id, const cJSON *args) {
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(args, "params");
  int rid = next_id++;
  send_request(rid, "elicitation/create",
               params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
  usleep((useconds_t)num_arg(args, "after_ms", 200) * 1000u);
  cJSON *np = cJSON_CreateObject();
  cJSON_AddNumberToObject(np, "requestId", rid);
  cJSON_AddStringToObject(np, "reason", "no longer needed");
  notify("notifications/cancelled", np);
  char *text = NULL, *line = NULL;
  size_t cap = 0;
  struct pollfd pfd = {.fd = 0, .events = POLLIN};
  while (!text && poll(&pfd, 1, num_arg(args, "wait_ms", 2000)) > 0 &&
         getline(&line, &cap, stdin) >= 0) {
    cJSON *in = cJSON_Parse(line);
    const cJSON *aid = cJSON_GetObjectItemCaseSensitive(in, "id");
    if (cJSON_IsNumber(aid) && aid->valueint == rid &&
        !cJSON_GetObjectItemCaseSensitive(in, "method")) {
      char *json = cJSON_PrintUnformatted(in);
      if (asprintf(&text, "answered %s", json) < 0)
        abort();
      free(json);
    }
    cJSON_Delete(in);
  }
  free(line);
  respond(id, text_result(text ? text : "no answer"));
  free(text);
}

static void call_tool(const cJSON *id, const cJSON *params) {
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  if (name && strcmp(name, "ask") == 0) {
    tool_ask(id, args);
  } else if (name && strcmp(name, "two") == 0) {
    tool_two(id, args);
  } else if (name && strcmp(name, "url") == 0) {
    tool_url(id, args);
  } else if (name && strcmp(name, "withdraw") == 0) {
    tool_withdraw(id, args);
  } else if (name && strcmp(name, "caps") == 0) {
    char *caps = cJSON_PrintUnformatted(client_caps);
    respond(id, text_result(caps ? caps : "{}"));
    free(caps);
  } else {
    respond_error(id, -32602, "Unknown tool");
  }
}

static cJSON *tool(const char *name, const char *description) {
  cJSON *t = cJSON_CreateObject();
  cJSON_AddStringToObject(t, "name", name);
  cJSON_AddStringToObject(t, "description", description);
  cJSON *schema = cJSON_AddObjectToObject(t, "inputSchema");
  cJSON_AddStringToObject(schema, "type", "object");
  return t;
}

static void handle(cJSON *msg) {
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  if (!method || !id)
    return; /* notifications need nothing */
  if (strcmp(method, "initialize") == 0) {
    cJSON_Delete(client_caps);
    client_caps = cJSON_Duplicate(
        cJSON_GetObjectItemCaseSensitive(params, "capabilities"), 1);
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "protocolVersion", "2025-11-25");
    cJSON_AddObjectToObject(cJSON_AddObjectToObject(r, "capabilities"),
                            "tools");
    cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
    cJSON_AddStringToObject(info, "name", "elicit-server");
    cJSON_AddStringToObject(info, "version", "0.1.0");
    respond(id, r);
  } else if (strcmp(method, "ping") == 0) {
    respond(id, cJSON_CreateObject());
  } else if (strcmp(method, "tools/list") == 0) {
    cJSON *r = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(r, "tools");
    cJSON_AddItemToArray(arr, tool("ask", "elicitation/create with params"));
    cJSON_AddItemToArray(arr, tool("two", "two elicitations at once"));
    cJSON_AddItemToArray(arr, tool("url", "a URL-mode elicitation"));
    cJSON_AddItemToArray(arr, tool("caps", "the client's capabilities"));
    cJSON_AddItemToArray(arr, tool("withdraw", "an elicitation withdrawn"));
    respond(id, r);
  } else if (strcmp(method, "tools/call") == 0) {
    call_tool(id, params);
  } else {
    respond_error(id, -32601, "Method not found");
  }
}

int main(void) {
  setvbuf(stdin, NULL, _IONBF, 0);
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) >= 0) {
    cJSON *msg = cJSON_Parse(line);
    if (msg)
      handle(msg);
    cJSON_Delete(msg);
  }
  free(line);
  cJSON_Delete(client_caps);
  return 0;
}
