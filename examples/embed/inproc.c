/* inproc [--config FILE]: an in-process server. It registers a server
 * "calc" that lives in this program, with one tool, add ({"a": number,
 * "b": number} -> the sum as text), loads a configuration holding
 * {"mcpServers": {"calc": {"type": "sdk"}}} plus the servers of FILE
 * (a file or JSON text) when given, prints every server's tools one per
 * line as SERVER/TOOL, then calls calc/add with {"a": 2, "b": 3} and
 * prints the result's text, 5.
 *
 * The server is a JSON-RPC message handler: the library hands it each
 * message the client sends, and it answers with mcphost_inproc_send. A
 * real server reads messages with a JSON parser; this one reads the few
 * fields it needs with member() below, to stay one file.
 *
 * Build: cc inproc.c $(pkg-config --cflags --libs libmcphost) -o inproc */
#include <mcphost/client.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- just enough JSON ---- */

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
    p++;
  }
  return p;
}

/* The end of the JSON value that starts at p. */
static const char *skip_value(const char *p) {
  int depth = 0;
  do {
    if (*p == '"') {
      for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1]) {
          p++;
        }
      }
    } else if (*p == '{' || *p == '[') {
      depth++;
    } else if (*p == '}' || *p == ']') {
      depth--;
    } else if (depth == 0) { /* a number, true, false, null */
      while (*p && !strchr(",}] \t\r\n", *p)) {
        p++;
      }
      return p;
    }
    if (*p) {
      p++;
    }
  } while (*p && depth > 0);
  return p;
}

/* The value of `key` in the object at `obj`, or NULL. */
static const char *member(const char *obj, const char *key) {
  if (!obj || *(obj = skip_space(obj)) != '{') {
    return NULL;
  }
  size_t n = strlen(key);
  const char *p = skip_space(obj + 1);
  while (*p == '"') {
    const char *name = p + 1;
    p = skip_space(skip_value(p));
    if (*p != ':') {
      return NULL;
    }
    p = skip_space(p + 1);
    if (strncmp(name, key, n) == 0 && name[n] == '"') {
      return p;
    }
    p = skip_space(skip_value(p));
    if (*p == ',') {
      p = skip_space(p + 1);
    }
  }
  return NULL;
}

/* Whether the value at v is the string `s`. */
static int is_string(const char *v, const char *s) {
  size_t n = strlen(s);
  return v && v[0] == '"' && strncmp(v + 1, s, n) == 0 && v[n + 1] == '"';
}

/* ---- the server ---- */

static void answer(mcphost_inproc *srv, const char *id, size_t id_len,
                   const char *result) {
  char msg[1024];
  int n = snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":%.*s,%s}",
                   (int)id_len, id, result);
  mcphost_inproc_send(srv, msg, (size_t)n, NULL);
}

static const char tools[] =
    "\"result\":{\"tools\":[{\"name\":\"add\",\"description\":\"Adds two "
    "numbers\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"a\":{"
    "\"type\":\"number\"},\"b\":{\"type\":\"number\"}},\"required\":[\"a\","
    "\"b\"]}}]}";

/* One message from the client. `json` is not NUL-terminated. */
static void on_message(void *ud, mcphost_inproc *srv, const char *json,
                       size_t len) {
  (void)ud;
  char *msg = malloc(len + 1);
  if (!msg) {
    return;
  }
  memcpy(msg, json, len);
  msg[len] = '\0';
  const char *method = member(msg, "method");
  const char *id = member(msg, "id");
  if (method && id) { /* a request: answer it; notifications need none */
    size_t id_len = (size_t)(skip_value(id) - id);
    const char *args = member(member(msg, "params"), "arguments");
    const char *a = member(args, "a"), *b = member(args, "b");
    char result[256];
    if (is_string(method, "initialize")) {
      answer(srv, id, id_len,
             "\"result\":{\"protocolVersion\":\"2025-06-18\","
             "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":"
             "\"calc\",\"version\":\"1.0\"}}");
    } else if (is_string(method, "tools/list")) {
      answer(srv, id, id_len, tools);
    } else if (is_string(method, "tools/call") && a && b) {
      snprintf(result, sizeof result,
               "\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
               "\"%g\"}]}",
               strtod(a, NULL) + strtod(b, NULL));
      answer(srv, id, id_len, result);
    } else if (is_string(method, "tools/call")) {
      answer(srv, id, id_len,
             "\"error\":{\"code\":-32602,\"message\":\"add takes a and b\"}");
    } else { /* every other request, server/discover among them */
      answer(srv, id, id_len,
             "\"error\":{\"code\":-32601,\"message\":\"Method not found\"}");
    }
  }
  free(msg);
}

/* ---- the client ---- */

/* Prints SERVER/TOOL for each tool of `server`. */
static int print_tools(mcphost_client *c, const char *server,
                       mcphost_error *err) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_LIST;
  rq.server = server;
  rq.name = "tools";
  char *list = NULL;
  int rc = mcphost_run(c, &rq, &list, NULL, err);
  if (rc != MCPHOST_OK) {
    return rc;
  }
  const char *tool = member(list, "tools"); /* {"tools": [...]} */
  for (tool = tool ? skip_space(tool + 1) : ""; *tool == '{';) {
    const char *name = member(tool, "name");
    if (name && *name == '"') {
      printf("%s/%.*s\n", server, (int)(skip_value(name) - name - 2), name + 1);
    }
    tool = skip_space(skip_value(tool));
    tool = skip_space(*tool == ',' ? tool + 1 : tool);
  }
  mcphost_free(list);
  return MCPHOST_OK;
}

int main(int argc, char **argv) {
  if (argc != 1 && (argc != 3 || strcmp(argv[1], "--config") != 0)) {
    fprintf(stderr, "usage: inproc [--config FILE]\n");
    return 2;
  }
  const char *configs[] = {"{\"mcpServers\": {\"calc\": {\"type\": \"sdk\"}}}",
                           argc == 3 ? argv[2] : NULL};
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.configs = configs;
  o.nconfigs = argc == 3 ? 2 : 1;
  o.strict = 1; /* these servers only */
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_client_new(&o, &c, &err);
  if (rc != MCPHOST_OK) {
    fprintf(stderr, "inproc: %s\n", err.message);
    return 1;
  }
  /* Before the first operation that needs it: nothing connects until
   * then. The client frees it (mcphost_client_free). */
  mcphost_inproc_callbacks cb = MCPHOST_INPROC_CALLBACKS_INIT;
  cb.on_message = on_message;
  mcphost_inproc *calc = NULL;
  rc = mcphost_inproc_register(c, "calc", &cb, &calc, &err);
  for (size_t i = 0; rc == MCPHOST_OK && i < mcphost_server_count(c); i++) {
    rc = print_tools(c, mcphost_server_name(c, i), &err);
  }
  if (rc == MCPHOST_OK) {
    mcphost_request rq = MCPHOST_REQUEST_INIT;
    rq.kind = MCPHOST_OP_CALL_TOOL;
    rq.name = "calc/add";
    rq.arguments = "{\"a\": 2, \"b\": 3}";
    char *result = NULL, *text = NULL;
    size_t len = 0, text_len = 0;
    rc = mcphost_run(c, &rq, &result, &len, &err);
    if (rc == MCPHOST_OK) {
      rc = mcphost_result_text(result, len, &text, &text_len, NULL, &err);
    }
    if (rc == MCPHOST_OK) {
      printf("%.*s\n", (int)text_len, text);
    }
    mcphost_free(text);
    mcphost_free(result);
  }
  if (rc != MCPHOST_OK) {
    fprintf(stderr, "inproc: %s\n", err.message);
  }
  mcphost_client_free(c);
  return rc == MCPHOST_OK ? 0 : 1;
}
