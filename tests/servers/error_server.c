/*
 * error_server — a stdio MCP server whose answers are JSON-RPC errors
 * carrying `data`, for the client API's tests (unit_client_messages).
 *
 * Newline-delimited JSON-RPC 2.0 on stdin/stdout. The data is written
 * as this file holds it, not through a JSON library, so a test can
 * compare what the client hands on with the bytes the server sent:
 *
 *   tools/call "refuse"   -32602 with ERROR_SERVER_DATA (a number no
 *                         double holds, an exponent, U+0000, UTF-8)
 *   elicit/needed         -32042 (URL elicitation required) with
 *                         ERROR_SERVER_ELICIT, data.elicitations
 *   bare/error            -32000 without data
 *   anything else         -32601 (server/discover included)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* getline */
#endif

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_server.h"

/* One answer: `body` is the text after the id ("result": ... or
 * "error": ...). */
static void answer(const cJSON *id, const char *body) {
  char *ids = cJSON_PrintUnformatted(id);
  printf("{\"jsonrpc\": \"2.0\", \"id\": %s, %s}\n", ids ? ids : "null", body);
  fflush(stdout);
  free(ids);
}

static void error_with(const cJSON *id, int code, const char *message,
                       const char *data) {
  char body[4096];
  snprintf(body, sizeof body,
           "\"error\": {\"code\": %d, \"message\": \"%s\"%s%s}", code, message,
           data ? ", \"data\": " : "", data ? data : "");
  answer(id, body);
}

static void handle(const cJSON *msg) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  if (!id || !method) {
    return; /* a notification, or an answer: nothing to say */
  }
  if (strcmp(method, "initialize") == 0) {
    answer(id, "\"result\": {\"protocolVersion\": \"2025-11-25\", "
               "\"capabilities\": {\"tools\": {}}, \"serverInfo\": "
               "{\"name\": \"mcphost-error-server\", \"version\": \"1\"}}");
  } else if (strcmp(method, "ping") == 0) {
    answer(id, "\"result\": {}");
  } else if (strcmp(method, "tools/list") == 0) {
    answer(id, "\"result\": {\"tools\": [{\"name\": \"refuse\", "
               "\"description\": \"Always refuses, saying why in data.\", "
               "\"inputSchema\": {\"type\": \"object\"}}]}");
  } else if (strcmp(method, "tools/call") == 0) {
    error_with(id, -32602, "refused", ERROR_SERVER_DATA);
  } else if (strcmp(method, "elicit/needed") == 0) {
    error_with(id, -32042, "URL elicitation required", ERROR_SERVER_ELICIT);
  } else if (strcmp(method, "bare/error") == 0) {
    error_with(id, -32000, "no data here", NULL);
  } else {
    error_with(id, -32601, "method not found", NULL);
  }
}

int main(void) {
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) >= 0) {
    cJSON *msg = cJSON_Parse(line);
    if (msg) {
      handle(msg);
    }
    cJSON_Delete(msg);
  }
  free(line);
  return 0;
}
