/*
 * naming_server — a hostile-by-design MCP server over stdio, for the
 * content-safety tests (tests/integration/test_content_safety.sh).
 *
 * Newline-delimited JSON-RPC 2.0 on stdin/stdout. It lists tools whose
 * names and descriptions carry zero-width, bidi, tag, private-use and
 * unassigned code points and invalid UTF-8; names too long for
 * mcp__server__tool; three names that normalize to the same string; a
 * 3000-character description; a 150,000-character result; results and
 * errors that carry tokens; results, an error and progress with terminal
 * escapes; text that NFKC would change; a long wordy description; one
 * that starts with blank lines.
 *
 * The host calls a tool by its sanitized name, so each tool also accepts
 * that form; every call answers "called <that name>", which tells the test
 * which tool was reached.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* getline */
#endif

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tool {
  const char *listed;  /* the name in tools/list, as raw bytes */
  const char *accepts; /* the same name once sanitized */
  const char *description;
} tool;

#define LONG_PREFIX                                                            \
  "search_repository_issues_by_label_and_milestone_with_full_text_and_"

static const tool tools[] = {
    {"zw\u200Bsp\u200Dace", "zwspace", "zero\u200Bwidth \uFEFFdescribed"},
    {"bidi\u202Eevil\u202C", "bidievil", "\u2066isolated\u2069 text"},
    {"pua\uE000x", "puax", "private \U000F0000use"},
    {"tag\U000E0068\U000E0069s", "tags", "tag characters hide text"},
    {"un\u0378assigned", "unassigned", "an unassigned code point"},
    {"bad\xC0\xAF"
     "name",
     "bad\uFFFD\uFFFDname", "invalid \xFF UTF-8"},
    {"\uFB01le_\uFF46\uFF49\uFF4E\uFF44", "file_find",
     "\uFF26ullwidth and \uFB01 ligature"},
    {LONG_PREFIX "more", LONG_PREFIX "more", "long name one"},
    {LONG_PREFIX "less", LONG_PREFIX "less", "long name two"},
    {"get_data", "get_data", "the plain one"},
    {"get.data", "get.data", "the dotted one"},
    {"get data", "get data", "the spaced one"},
    {"describe", "describe", NULL}, /* 3000 characters, made at start */
    {"big", "big", "returns 150,000 characters (or \"size\")"},
    {"token", "token", "returns a token in its result"},
    {"leak", "leak", "fails with tokens in its error message"},
    {"structured", "structured", "returns structuredContent"},
    /* Results, errors and progress that try to drive the terminal, and
     * text that sanitizing would change. */
    {"hostile", "hostile", "clears \x1b[2Jthe screen"},
    {"exact", "exact", "returns text NFKC would change"},
    {"badesc", "badesc", "fails with escapes in its error"},
    {"wordy", "wordy",
     "Reads a file from the project and returns its whole text, with the "
     "line numbers and the encoding it was read with, so that an editor "
     "can show it; large files are returned in pages of a thousand lines, "
     "and binary files are refused with an error naming their type and "
     "size, which the caller can show as it likes.\nSecond line."},
    /* As desktop-commander's: a newline and an indent before the text. */
    {"indented", "indented",
     "\n \t\n                        Reads a file in pages.\n\n"
     "                        Second line.\n"},
};
#define NTOOLS (sizeof tools / sizeof tools[0])

static char *long_description; /* 3000 x U+00E9 */
static const char *server_name = "naming-server"; /* argv[1] "long-info" */

/* What the hostile tool returns and says while it runs: a clear screen,
 * a window title, a one-byte CSI, a bell, a bidi override, a zero-width
 * space; newline and tab, which text keeps. */
#define HOSTILE_TEXT                                                           \
  "A\x1b[2JB\x1b]0;pwned\x07"                                                  \
  "C\xc2\x9b"                                                                  \
  "31mD\u202e"                                                                 \
  "E\u200b"                                                                    \
  "F\n\tG"
/* Superscript, ligature, full-width, a ZWJ emoji, a combining accent, a
 * tag character, a soft hyphen, CRLF. */
#define EXACT_TEXT                                                             \
  "x\u00b2 \ufb01 \uff26\uff55\uff4c\uff4c \U0001F468\u200d\U0001F469 "        \
  "e\u0301 t\U000E0041 so\u00adft\r\n"

static void send_progress(const cJSON *params, const char *message) {
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(meta, "progressToken");
  if (!tok)
    return;
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  cJSON_AddStringToObject(m, "method", "notifications/progress");
  cJSON *p = cJSON_AddObjectToObject(m, "params");
  cJSON_AddItemToObject(p, "progressToken", cJSON_Duplicate(tok, 1));
  cJSON_AddNumberToObject(p, "progress", 1);
  cJSON_AddNumberToObject(p, "total", 2);
  cJSON_AddStringToObject(p, "message", message);
  char *s = cJSON_PrintUnformatted(m);
  fputs(s, stdout);
  fputc('\n', stdout);
  fflush(stdout);
  free(s);
  cJSON_Delete(m);
}

static void send_msg(cJSON *msg) {
  char *s = cJSON_PrintUnformatted(msg);
  fputs(s, stdout);
  fputc('\n', stdout);
  fflush(stdout);
  free(s);
  cJSON_Delete(msg);
}

static void respond(const cJSON *id, cJSON *result) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, 1));
  cJSON_AddItemToObject(m, "result", result);
  send_msg(m);
}

static void respond_error(const cJSON *id, int code, const char *message) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, 1));
  cJSON *e = cJSON_AddObjectToObject(m, "error");
  cJSON_AddNumberToObject(e, "code", code);
  cJSON_AddStringToObject(e, "message", message);
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

static cJSON *initialize_result(void) {
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "protocolVersion", "2025-11-25");
  cJSON *caps = cJSON_AddObjectToObject(r, "capabilities");
  cJSON_AddObjectToObject(caps, "tools");
  cJSON_AddObjectToObject(caps, "prompts");
  cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
  cJSON_AddStringToObject(info, "name", server_name);
  cJSON_AddStringToObject(info, "version", "0.1.0");
  return r;
}

static cJSON *tools_list(void) {
  cJSON *r = cJSON_CreateObject();
  cJSON *arr = cJSON_AddArrayToObject(r, "tools");
  for (size_t i = 0; i < NTOOLS; i++) {
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "name", tools[i].listed);
    cJSON_AddStringToObject(t, "description",
                            tools[i].description ? tools[i].description
                                                 : long_description);
    cJSON *schema = cJSON_AddObjectToObject(t, "inputSchema");
    cJSON_AddStringToObject(schema, "type", "object");
    cJSON_AddItemToArray(arr, t);
  }
  return r;
}

static cJSON *prompts_list(void) {
  cJSON *r = cJSON_CreateObject();
  cJSON *arr = cJSON_AddArrayToObject(r, "prompts");
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "name", "long_prompt");
  cJSON_AddStringToObject(p, "description", long_description);
  cJSON_AddItemToArray(arr, p);
  return r;
}

static cJSON *prompt_result(void) {
  cJSON *r = cJSON_CreateObject();
  cJSON *msgs = cJSON_AddArrayToObject(r, "messages");
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "role", "user");
  cJSON *c = cJSON_AddObjectToObject(m, "content");
  cJSON_AddStringToObject(c, "type", "text");
  cJSON_AddStringToObject(c, "text", "a prompt");
  cJSON_AddItemToArray(msgs, m);
  return r;
}

static void call_tool(const cJSON *id, const cJSON *params) {
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  const tool *t = NULL;
  for (size_t i = 0; name && i < NTOOLS && !t; i++)
    if (strcmp(name, tools[i].accepts) == 0 ||
        strcmp(name, tools[i].listed) == 0)
      t = &tools[i];
  if (!t) {
    char msg[300];
    snprintf(msg, sizeof msg, "Unknown tool: %s", name ? name : "(none)");
    respond_error(id, -32602, msg);
    return;
  }
  if (strcmp(t->accepts, "big") == 0) {
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(args, "size");
    size_t n = cJSON_IsNumber(size) && size->valuedouble >= 0
                   ? (size_t)size->valuedouble
                   : 150000;
    char *text = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
      text[i] = (char)('a' + i % 26);
    text[n] = '\0';
    respond(id, text_result(text));
    free(text);
    return;
  }
  if (strcmp(t->accepts, "token") == 0) {
    cJSON *r = text_result("{\"access_token\":\"secret123\"}");
    cJSON *meta = cJSON_AddObjectToObject(r, "_meta");
    cJSON_AddStringToObject(meta, "access_token", "secret123");
    respond(id, r);
    return;
  }
  if (strcmp(t->accepts, "leak") == 0) {
    respond_error(id, -32000,
                  "upstream said {\"refresh_token\":\"rt-secret-456\"}; "
                  "Authorization: Bearer abc-secret-789");
    return;
  }
  if (strcmp(t->accepts, "hostile") == 0) {
    send_progress(params, "step \x1b[2J\x1b]0;pwned\x07one");
    respond(id, text_result(HOSTILE_TEXT));
    return;
  }
  if (strcmp(t->accepts, "exact") == 0) {
    /* The same text as a resource too: read results keep it as well. */
    cJSON *r = text_result(EXACT_TEXT);
    cJSON *block = cJSON_CreateObject();
    cJSON_AddStringToObject(block, "type", "resource");
    cJSON *res = cJSON_AddObjectToObject(block, "resource");
    cJSON_AddStringToObject(res, "uri", "file:///exact.txt");
    cJSON_AddStringToObject(res, "text", EXACT_TEXT);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(r, "content"), block);
    respond(id, r);
    return;
  }
  if (strcmp(t->accepts, "badesc") == 0) {
    respond_error(id, -32000, "bad \x1b[31mred\x1b[0m \u202eright-to-left");
    return;
  }
  if (strcmp(t->accepts, "structured") == 0) {
    cJSON *r = text_result("{\"answer\":42}");
    cJSON *sc = cJSON_AddObjectToObject(r, "structuredContent");
    cJSON_AddNumberToObject(sc, "answer", 42);
    respond(id, r);
    return;
  }
  char text[400];
  snprintf(text, sizeof text, "called %s", t->accepts);
  respond(id, text_result(text));
}

static void handle(const char *line, size_t len) {
  cJSON *msg = cJSON_ParseWithLength(line, len);
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  if (!method || !id) { /* notifications and answers need nothing */
    cJSON_Delete(msg);
    return;
  }
  if (strcmp(method, "initialize") == 0)
    respond(id, initialize_result());
  else if (strcmp(method, "ping") == 0)
    respond(id, cJSON_CreateObject());
  else if (strcmp(method, "tools/list") == 0)
    respond(id, tools_list());
  else if (strcmp(method, "tools/call") == 0)
    call_tool(id, params);
  else if (strcmp(method, "prompts/list") == 0)
    respond(id, prompts_list());
  else if (strcmp(method, "prompts/get") == 0)
    respond(id, prompt_result());
  else
    respond_error(id, -32601, "Method not found");
  cJSON_Delete(msg);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "long-info") == 0)
    server_name = "a-server-implementation-with-a-long-name";
  long_description = malloc(3000 * 2 + 1);
  for (size_t i = 0; i < 3000; i++)
    memcpy(long_description + 2 * i, "\u00E9", 2);
  long_description[3000 * 2] = '\0';
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, stdin)) >= 0) {
    size_t len = (size_t)n;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
      len--;
    if (len)
      handle(line, len);
  }
  free(line);
  free(long_description);
  return 0;
}
