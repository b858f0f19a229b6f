/* The public API's pure helpers (sdk/include/mcphost/client.h, "names,
 * signatures, arguments, text shown, protocol data") through
 * libmcphost.so.1, as an embedding program calls them: this file
 * includes nothing but the public header. Each function with good input
 * and with bad (NULL, not JSON, the wrong JSON, unknown names), and
 * every failure with its status and a message naming what is wrong. */
#include <mcphost/client.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* A fresh error report, its message set to a marker the library must
 * overwrite (or clear). */
static mcphost_error fresh(void) {
  mcphost_error e = MCPHOST_ERROR_INIT;
  snprintf(e.message, sizeof e.message, "unset");
  return e;
}

TEST(name_assign_names_a_list) {
  const char *orig[] = {"echo", "get sum", NULL, "echo", "get_sum"};
  char **names = NULL;
  size_t prefix = 0;
  mcphost_error e = fresh();
  CHECK(mcphost_name_assign("my server", orig, 5, 0, &names, &prefix, &e) ==
        MCPHOST_OK);
  CHECK(e.code == MCPHOST_OK && e.message[0] == '\0');
  CHECK(prefix == strlen("mcp__my_server__"));
  CHECK_STR(names[0], "mcp__my_server__echo");
  /* "get_sum" is already normalized: it keeps the name, "get sum" is
   * hashed (the names.h order); the second "echo" likewise. */
  CHECK_STR(names[4], "mcp__my_server__get_sum");
  CHECK(names[1] && strncmp(names[1], "mcp__my_server__get_sum_", 24) == 0 &&
        strlen(names[1]) == 24 + 8);
  CHECK(names[2] == NULL);
  CHECK(names[3] && strcmp(names[3], names[0]) != 0 &&
        strncmp(names[3], "mcp__my_server__echo_", 21) == 0);
  mcphost_free(names); /* one allocation: nothing else to free */

  /* The same list in another order: the same names. */
  const char *rev[] = {"get_sum", "echo", NULL, "get sum", "echo"};
  char **again = NULL;
  CHECK(mcphost_name_assign("my server", rev, 5, 0, &again, NULL, NULL) ==
        MCPHOST_OK);
  CHECK_STR(again[0], "mcp__my_server__get_sum");
  CHECK_STR(again[1], "mcp__my_server__echo");
  mcphost_free(again);
}

TEST(name_assign_limits) {
  char longname[201];
  memset(longname, 'x', 200);
  longname[200] = '\0';
  const char *orig[] = {longname};
  char **names = NULL;
  CHECK(mcphost_name_assign("s", orig, 1, 0, &names, NULL, NULL) == MCPHOST_OK);
  CHECK(strlen(names[0]) == MCPHOST_NAME_LEN_DEFAULT);
  mcphost_free(names);
  CHECK(mcphost_name_assign("s", orig, 1, 100, &names, NULL, NULL) ==
        MCPHOST_OK);
  CHECK(strlen(names[0]) == 100);
  mcphost_free(names);
  /* Below 32 counts as 32: room for a cut server and tool. */
  CHECK(mcphost_name_assign("s", orig, 1, 5, &names, NULL, NULL) == MCPHOST_OK);
  CHECK(strlen(names[0]) == 32);
  mcphost_free(names);
  /* No items: a valid (empty) allocation. */
  CHECK(mcphost_name_assign("s", NULL, 0, 0, &names, NULL, NULL) == MCPHOST_OK);
  CHECK(names != NULL);
  mcphost_free(names);
}

TEST(name_assign_bad_input) {
  const char *orig[] = {"a"};
  char **names = NULL;
  mcphost_error e = fresh();
  CHECK(mcphost_name_assign(NULL, orig, 1, 0, &names, NULL, &e) ==
        MCPHOST_EUSAGE);
  CHECK(e.code == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "mcphost_name_assign needs a server");
  CHECK(names == NULL);
  e = fresh();
  CHECK(mcphost_name_assign("s", NULL, 1, 0, &names, NULL, &e) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "original names");
  CHECK(mcphost_name_assign("s", orig, 1, 0, NULL, NULL, NULL) ==
        MCPHOST_EUSAGE);
  /* An error report too small for its fields is left alone. */
  mcphost_error small = fresh();
  small.struct_size = 4;
  CHECK(mcphost_name_assign(NULL, orig, 1, 0, &names, NULL, &small) ==
        MCPHOST_EUSAGE);
  CHECK_STR(small.message, "unset");
}

TEST(model_visible) {
  CHECK(mcphost_name_model_visible("ws-ide", "getDiagnostics") == 1);
  CHECK(mcphost_name_model_visible("sse-ide", "executeCode") == 1);
  CHECK(mcphost_name_model_visible("ws-ide", "openFile") == 0);
  CHECK(mcphost_name_model_visible("stdio", "openFile") == 1);
  CHECK(mcphost_name_model_visible(NULL, "openFile") == 1);
  CHECK(mcphost_name_model_visible("ws-ide", NULL) == 0);
}

static const char tool[] =
    "{\"name\": \"t\", \"inputSchema\": {\"type\": \"object\", "
    "\"properties\": {\"path\": {\"type\": \"string\"}, \"depth\": "
    "{\"type\": \"integer\", \"default\": 2}, \"mode\": {\"enum\": [\"a\", "
    "\"b\"]}}, \"required\": [\"path\"]}}";

TEST(signature) {
  char *sig = NULL;
  mcphost_error e = fresh();
  CHECK(mcphost_tool_signature("mcp__s__t", tool, strlen(tool), &sig, &e) ==
        MCPHOST_OK);
  CHECK_STR(sig, "mcp__s__t(path: string, depth?: integer = 2, mode?: "
                 "\"a\"|\"b\")");
  CHECK(e.message[0] == '\0');
  mcphost_free(sig);
  const char bare[] = "{\"name\": \"t\"}";
  sig = NULL;
  CHECK(mcphost_tool_signature("t", bare, strlen(bare), &sig, NULL) ==
        MCPHOST_OK);
  CHECK_STR(sig, "t()");
  mcphost_free(sig);
}

TEST(signature_bad_input) {
  char *sig = NULL;
  mcphost_error e = fresh();
  CHECK(mcphost_tool_signature("t", "{\"name\": ", 9, &sig, &e) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "the tool is not JSON");
  CHECK(sig == NULL);
  e = fresh();
  CHECK(mcphost_tool_signature("t", "[1]", 3, &sig, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "must be a JSON object");
  e = fresh();
  CHECK(mcphost_tool_signature("t", NULL, 0, &sig, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "the tool is missing");
  CHECK(mcphost_tool_signature(NULL, tool, strlen(tool), &sig, NULL) ==
        MCPHOST_EUSAGE);
  /* `len` bounds the text: a valid object cut short is not JSON. */
  CHECK(mcphost_tool_signature("t", tool, 10, &sig, NULL) == MCPHOST_EUSAGE);
  CHECK(sig == NULL);
}

TEST(schema_type) {
  const char *schema = strstr(tool, "{\"type\": \"object\"");
  size_t len = strlen(schema) - 1; /* without the tool's closing brace */
  char *type = NULL;
  int required = -1;
  CHECK(mcphost_schema_type(schema, len, "path", &type, &required, NULL) ==
        MCPHOST_OK);
  CHECK_STR(type, "string");
  CHECK(required == 1);
  mcphost_free(type);
  CHECK(mcphost_schema_type(schema, len, "depth", &type, &required, NULL) ==
        MCPHOST_OK);
  CHECK_STR(type, "integer");
  CHECK(required == 0);
  mcphost_free(type);
  CHECK(mcphost_schema_type(schema, len, "nope", &type, &required, NULL) ==
        MCPHOST_OK);
  CHECK_STR(type, "any");
  CHECK(required == 0);
  mcphost_free(type);
  const char arr[] = "{\"type\": \"array\", \"items\": {\"type\": \"number\"}}";
  CHECK(mcphost_schema_type(arr, strlen(arr), NULL, &type, NULL, NULL) ==
        MCPHOST_OK);
  CHECK_STR(type, "number[]");
  mcphost_free(type);
  mcphost_error e = fresh();
  type = NULL;
  CHECK(mcphost_schema_type("{", 1, NULL, &type, NULL, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "the schema is not JSON");
  CHECK(type == NULL);
  CHECK(mcphost_schema_type(arr, strlen(arr), NULL, NULL, NULL, NULL) ==
        MCPHOST_EUSAGE);
}

TEST(args_parse) {
  const char *words[] = {"a=007", "b:=[1, 2]", "c.d=x",
                         "n:=12345678901234567890"};
  char *json = NULL;
  mcphost_error e = fresh();
  CHECK(mcphost_args_parse(4, words, 0, &json, &e) == MCPHOST_OK);
  CHECK_STR(json, "[{\"key\":\"a\",\"text\":\"007\"},{\"key\":\"b\",\"json\":"
                  "[1,2]},{\"key\":\"c.d\",\"text\":\"x\"},{\"key\":\"n\","
                  "\"json\":12345678901234567890}]");
  CHECK(e.message[0] == '\0');
  mcphost_free(json);
  CHECK(mcphost_args_parse(0, NULL, 0, &json, NULL) == MCPHOST_OK);
  CHECK_STR(json, "[]");
  mcphost_free(json);
}

TEST(args_parse_bad_input) {
  char *json = NULL;
  mcphost_error e = fresh();
  const char *noeq[] = {"a=1", "novalue"};
  CHECK(mcphost_args_parse(2, noeq, 0, &json, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "novalue");
  CHECK(json == NULL);
  e = fresh();
  const char *badjson[] = {"b:=[1,"};
  CHECK(mcphost_args_parse(1, badjson, 0, &json, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "b");
  e = fresh();
  const char *nofile[] = {"k=@/nonexistent/mcphost-api-names"};
  CHECK(mcphost_args_parse(1, nofile, 0, &json, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "/nonexistent/mcphost-api-names");
  e = fresh();
  const char *in[] = {"k=@-"};
  CHECK(mcphost_args_parse(1, in, 0, &json, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "stdin");
  e = fresh();
  const char *hole[] = {"a=1", NULL};
  CHECK(mcphost_args_parse(2, hole, 0, &json, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "argument word 2 is missing");
  CHECK(mcphost_args_parse(-1, hole, 0, &json, NULL) == MCPHOST_EUSAGE);
  CHECK(mcphost_args_parse(1, hole, 0, NULL, NULL) == MCPHOST_EUSAGE);
  CHECK(json == NULL);
}

TEST(args_text) {
  char path[] = "/tmp/mcphost-api-names-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK(write(fd, "{\"x\": 1}", 8) == 8);
  close(fd);
  char at[64];
  snprintf(at, sizeof at, "@%s", path);
  char *text = NULL;
  CHECK(mcphost_args_text("--args", at, 0, &text, NULL) == MCPHOST_OK);
  CHECK_STR(text, "{\"x\": 1}");
  mcphost_free(text);
  CHECK(mcphost_args_text("--args", "plain", 0, &text, NULL) == MCPHOST_OK);
  CHECK_STR(text, "plain");
  mcphost_free(text);
  unlink(path);
  mcphost_error e = fresh();
  text = NULL;
  CHECK(mcphost_args_text("--args", at, 0, &text, &e) == MCPHOST_EUSAGE);
  CHECK(strncmp(e.message, "--args", 6) == 0);
  CHECK_CONTAINS(e.message, path);
  CHECK(text == NULL);
  CHECK(mcphost_args_text("--args", NULL, 0, &text, NULL) == MCPHOST_EUSAGE);
}

static const char schema[] =
    "{\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\"}, "
    "\"s\": {\"type\": \"string\"}}, \"required\": [\"n\"]}";

/* mcphost_args_build of `schema` with the words `w` (n of them). */
static int build(const char *const *w, int n, const char *base, unsigned flags,
                 char **out, mcphost_error *e) {
  char *words = NULL;
  if (mcphost_args_parse(n, w, 0, &words, NULL) != MCPHOST_OK) {
    return -100;
  }
  int rc = mcphost_args_build(schema, base, words, flags, out, e);
  mcphost_free(words);
  return rc;
}

TEST(args_build) {
  char *args = NULL;
  const char *w[] = {"n=5", "s=007"};
  CHECK(build(w, 2, NULL, 0, &args, NULL) == MCPHOST_OK);
  CHECK_STR(args, "{\"n\":5,\"s\":\"007\"}");
  mcphost_free(args);
  const char *w2[] = {"s=x"};
  CHECK(build(w2, 1, "{\"n\": 12345678901234567890}", 0, &args, NULL) ==
        MCPHOST_OK);
  CHECK_STR(args, "{\"n\":12345678901234567890,\"s\":\"x\"}");
  mcphost_free(args);
  /* No schema: JSON when the text is JSON, else a string. */
  const char *w3[] = {"a=1", "b=x"};
  char *words = NULL;
  CHECK(mcphost_args_parse(2, w3, 0, &words, NULL) == MCPHOST_OK);
  CHECK(mcphost_args_build(NULL, NULL, words, 0, &args, NULL) == MCPHOST_OK);
  CHECK_STR(args, "{\"a\":1,\"b\":\"x\"}");
  mcphost_free(args);
  mcphost_free(words);
  CHECK(mcphost_args_build(NULL, NULL, NULL, 0, &args, NULL) == MCPHOST_OK);
  CHECK_STR(args, "{}");
  mcphost_free(args);
}

TEST(args_build_bad_input) {
  char *args = NULL;
  mcphost_error e = fresh();
  const char *bad[] = {"n=abc"};
  CHECK(build(bad, 1, NULL, 0, &args, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "parameter \"n\" takes integer");
  CHECK(args == NULL);
  /* Lenient: the text goes as the rule without a schema has it. */
  CHECK(build(bad, 1, NULL, MCPHOST_ARGS_LENIENT, &args, NULL) == MCPHOST_OK);
  CHECK_STR(args, "{\"n\":\"abc\"}");
  mcphost_free(args);
  args = NULL;
  e = fresh();
  const char *missing[] = {"s=x"};
  CHECK(build(missing, 1, NULL, 0, &args, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "\"n\"");
  e = fresh();
  const char *unknown[] = {"n=1", "nn=2"};
  CHECK(build(unknown, 2, NULL, 0, &args, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "nn");
  e = fresh();
  CHECK(mcphost_args_build(schema, "[1]", NULL, 0, &args, &e) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "the arguments must be a JSON object");
  e = fresh();
  CHECK(mcphost_args_build("{oops", NULL, NULL, 0, &args, &e) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "the schema is not JSON");
  e = fresh();
  CHECK(mcphost_args_build(schema, NULL, "{}", 0, &args, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "the words must be a JSON array");
  CHECK(mcphost_args_build(schema, NULL, NULL, 0, NULL, NULL) ==
        MCPHOST_EUSAGE);
  CHECK(args == NULL);
}

TEST(log_levels) {
  CHECK(mcphost_log_level_rank("debug") == 0);
  CHECK(mcphost_log_level_rank("warning") == 3);
  CHECK(mcphost_log_level_rank("emergency") == 7);
  CHECK(mcphost_log_level_rank("loud") == -1);
  CHECK(mcphost_log_level_rank("Debug") == -1);
  CHECK(mcphost_log_level_rank(NULL) == -1);
  for (int i = 0; i < MCPHOST_LOG_LEVELS; i++) {
    CHECK(mcphost_log_level_rank(mcphost_log_level_name(i)) == i);
  }
  CHECK(mcphost_log_level_name(-1) == NULL);
  CHECK(mcphost_log_level_name(MCPHOST_LOG_LEVELS) == NULL);
}

TEST(protocol_versions) {
  CHECK_STR(mcphost_protocol_version(MCPHOST_ERA_LEGACY, 0), "2025-11-25");
  CHECK_STR(mcphost_protocol_version(MCPHOST_ERA_MODERN, 0), "2026-07-28");
  size_t n = 0;
  const char *v;
  while ((v = mcphost_protocol_version(MCPHOST_ERA_LEGACY, n))) {
    CHECK(mcphost_protocol_supported(MCPHOST_ERA_LEGACY, v) == 1);
    CHECK(mcphost_protocol_supported(MCPHOST_ERA_MODERN, v) == 0);
    n++;
  }
  CHECK(n >= 4);
  CHECK_STR(mcphost_protocol_version(MCPHOST_ERA_LEGACY, n - 1), "2024-11-05");
  CHECK(mcphost_protocol_supported(MCPHOST_ERA_MODERN, "2026-07-28") == 1);
  CHECK(mcphost_protocol_supported(MCPHOST_ERA_LEGACY, "2026-07-28") == 0);
  CHECK(mcphost_protocol_supported(MCPHOST_ERA_LEGACY, "2025-11-2") == 0);
  CHECK(mcphost_protocol_supported(MCPHOST_ERA_LEGACY, NULL) == 0);
  CHECK(mcphost_protocol_version(7, 0) == NULL);
  CHECK(mcphost_protocol_supported(-1, "2025-11-25") == 0);
}

TEST(sanitize_modes) {
  CHECK(mcphost_sanitize_mode("full") == MCPHOST_SANITIZE_FULL);
  CHECK(mcphost_sanitize_mode("display") == MCPHOST_SANITIZE_DISPLAY);
  CHECK(mcphost_sanitize_mode("off") == MCPHOST_SANITIZE_OFF);
  CHECK(mcphost_sanitize_mode("default") == MCPHOST_EUSAGE);
  CHECK(mcphost_sanitize_mode("FULL") == MCPHOST_EUSAGE);
  CHECK(mcphost_sanitize_mode(NULL) == MCPHOST_EUSAGE);
}

TEST(display_text) {
  const char text[] = "a\x1b[31mb\nc\xe2\x80\x8b"
                      "d\0e";
  size_t len = sizeof text - 1, out_len = 0;
  char *out = NULL;
  CHECK(mcphost_display_text(text, len, MCPHOST_SANITIZE_DEFAULT, 0, &out,
                             &out_len, NULL) == MCPHOST_OK);
  CHECK_STR(out, "a<U+001B>[31mb\nc<U+200B>d<U+0000>e");
  CHECK(out_len == strlen(out));
  mcphost_free(out);
  CHECK(mcphost_display_text(text, len, MCPHOST_SANITIZE_DISPLAY,
                             MCPHOST_DISPLAY_NEWLINES, &out, NULL,
                             NULL) == MCPHOST_OK);
  CHECK_STR(out, "a<U+001B>[31mb<U+000A>c<U+200B>d<U+0000>e");
  mcphost_free(out);
  /* off: controls only; the zero-width space passes. */
  CHECK(mcphost_display_text(text, len, MCPHOST_SANITIZE_OFF, 0, &out, NULL,
                             NULL) == MCPHOST_OK);
  CHECK_STR(out, "a<U+001B>[31mb\nc\xe2\x80\x8b"
                 "d<U+0000>e");
  mcphost_free(out);
  CHECK(mcphost_display_text("\xff", 1, MCPHOST_SANITIZE_FULL, 0, &out, NULL,
                             NULL) == MCPHOST_OK);
  CHECK_STR(out, "<0xFF>");
  mcphost_free(out);
  CHECK(mcphost_display_text(NULL, 0, MCPHOST_SANITIZE_FULL, 0, &out, NULL,
                             NULL) == MCPHOST_OK);
  CHECK_STR(out, "");
  mcphost_free(out);
}

TEST(display_text_bad_input) {
  char *out = NULL;
  mcphost_error e = fresh();
  CHECK(mcphost_display_text("x", 1, 9, 0, &out, NULL, &e) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(e.message, "not 9");
  CHECK(out == NULL);
  CHECK(mcphost_display_text("x", 1, -1, 0, &out, NULL, NULL) ==
        MCPHOST_EUSAGE);
  CHECK(mcphost_display_text(NULL, 3, 0, 0, &out, NULL, NULL) ==
        MCPHOST_EUSAGE);
  CHECK(mcphost_display_text("x", 1, 0, 0, NULL, NULL, NULL) == MCPHOST_EUSAGE);
  CHECK(out == NULL);
}

TEST(unicode_version) {
  const char *icu = NULL;
  const char *uv = mcphost_unicode_version(&icu);
  CHECK(uv && uv[0] >= '1' && uv[0] <= '9' && strchr(uv, '.'));
  CHECK(icu && icu[0] >= '1' && icu[0] <= '9' && strchr(icu, '.'));
  CHECK(mcphost_unicode_version(NULL) == uv);
}

int main(void) {
  static const test_case tests[] = {
      T(name_assign_names_a_list),
      T(name_assign_limits),
      T(name_assign_bad_input),
      T(model_visible),
      T(signature),
      T(signature_bad_input),
      T(schema_type),
      T(args_parse),
      T(args_parse_bad_input),
      T(args_text),
      T(args_build),
      T(args_build_bad_input),
      T(log_levels),
      T(protocol_versions),
      T(sanitize_modes),
      T(display_text),
      T(display_text_bad_input),
      T(unicode_version),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0]);
}
