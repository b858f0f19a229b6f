#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "config/config.h"
#include "config/config_write.h"

static void load(config *c, const char *text) {
  config_init(c);
  config_load_text(c, text, strlen(text), "test.json");
}

TEST(test_stdio_server_is_loaded_with_default_type) {
  config c;
  load(&c, "{\"mcpServers\":{\"demo\":{\"command\":\"demo\",\"args\":[\"-x\"]}}}");
  CHECK(c.nservers == 1 && c.nerrors == 0);
  CHECK_STR(c.servers[0].name, "demo");
  CHECK_STR(c.servers[0].type, "stdio");
  CHECK_STR(c.servers[0].source, "test.json");
  config_free(&c);
}

TEST(test_url_without_type_is_http) {
  config c;
  load(&c, "{\"mcpServers\":{\"r\":{\"url\":\"http://127.0.0.1:1/mcp\"}}}");
  CHECK(c.nservers == 1);
  CHECK_STR(c.servers[0].type, "http");
  config_free(&c);
}

TEST(test_invalid_json_names_file_and_line) {
  config c;
  load(&c, "{\n\"mcpServers\": {\n  \"a\": {\"command\": \"x\",}\n}}");
  CHECK(c.nservers == 0 && c.nerrors == 1);
  CHECK_CONTAINS(c.errors[0], "test.json: invalid JSON near line 3");
  config_free(&c);
}

TEST(test_text_after_the_document_is_refused) {
  /* Taken as the first object alone, a rewrite would drop the rest. */
  config c;
  load(&c, "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}},\n"
           "  \"theme\": \"dark\"}");
  CHECK(c.nservers == 0 && c.nerrors == 1);
  CHECK_CONTAINS(c.errors[0], "test.json: invalid JSON near line 1, column 40: "
                              "text after the end of the document");
  config_free(&c);
  load(&c, "{\"mcpServers\": {}} \r\n\t ");
  CHECK(c.nerrors == 0);
  config_free(&c);
}

TEST(test_written_json_keeps_every_number) {
  /* 1e400 reads as infinity (cJSON writes null); cJSON writes the last
   * one with 15 digits, another number. */
  cJSON *doc =
      cJSON_Parse("{\"k\": [1e400, -1e400, 2.5, 345678901234586079]}");
  char *text = config_json_text(doc);
  cJSON *again = cJSON_Parse(text);
  const cJSON *k = cJSON_GetObjectItem(again, "k");
  CHECK(cJSON_GetArraySize(k) == 4);
  CHECK(cJSON_GetArrayItem(k, 0)->valuedouble > 1e308);
  CHECK(cJSON_GetArrayItem(k, 1)->valuedouble < -1e308);
  CHECK(cJSON_GetArrayItem(k, 2)->valuedouble == 2.5);
  /* Not rounded to 15 digits. */
  CHECK(cJSON_GetArrayItem(k, 3)->valuedouble ==
        cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "k"), 3)->valuedouble);
  cJSON_Delete(again);
  free(text);
  cJSON_Delete(doc);
}

TEST(test_a_name_given_twice_counts_once) {
  config c;
  config_init(&c);
  const char *t = "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, "
                  "\"a\": {\"command\": \"y\"}}}";
  CHECK(config_load_text(&c, t, strlen(t), "test.json") == 1);
  CHECK(c.nservers == 1 && c.nwarnings == 1);
  CHECK_CONTAINS(c.warnings[0], "server \"a\" ignored: already defined");
  config_free(&c);
}

TEST(test_top_level_must_be_an_object) {
  config c;
  load(&c, "[1,2]");
  CHECK(c.nerrors == 1);
  CHECK_CONTAINS(c.errors[0], "top level must be a JSON object");
  config_free(&c);
}

TEST(test_mcpservers_of_wrong_type_is_an_error) {
  config c;
  load(&c, "{\"mcpServers\": []}");
  CHECK(c.nerrors == 1);
  CHECK_CONTAINS(c.errors[0], "test.json: \"mcpServers\" must be an object");
  config_free(&c);
}

TEST(test_bad_entry_costs_only_that_entry) {
  config c;
  load(&c, "{\"mcpServers\":{"
           "\"good\":{\"command\":\"a\"},"
           "\"notobj\":5,"
           "\"badtype\":{\"type\":7,\"command\":\"a\"},"
           "\"nocmd\":{\"args\":[]},"
           "\"emptycmd\":{\"command\":\"\"},"
           "\"cmdnum\":{\"type\":\"stdio\",\"command\":3},"
           "\"also\":{\"command\":\"b\"}}}");
  CHECK(c.nservers == 2);
  CHECK_STR(c.servers[0].name, "good");
  CHECK_STR(c.servers[1].name, "also");
  CHECK(c.nerrors == 5);
  CHECK_CONTAINS(c.errors[0], "server \"notobj\": must be an object");
  CHECK_CONTAINS(c.errors[1], "server \"badtype\": \"type\" must be a string");
  CHECK_CONTAINS(c.errors[2], "server \"nocmd\": needs \"command\"");
  CHECK_CONTAINS(c.errors[3], "server \"emptycmd\": \"command\" must be a non-empty string");
  CHECK_CONTAINS(c.errors[4], "server \"cmdnum\": \"command\"");
  config_free(&c);
}

TEST(test_first_definition_of_a_name_wins_with_a_warning) {
  config c;
  config_init(&c);
  const char *a = "{\"mcpServers\":{\"s\":{\"command\":\"first\"}}}";
  const char *b = "{\"mcpServers\":{\"s\":{\"command\":\"second\"}}}";
  config_load_text(&c, a, strlen(a), "a.json");
  config_load_text(&c, b, strlen(b), "b.json");
  CHECK(c.nservers == 1);
  CHECK_STR(cJSON_GetObjectItem(c.servers[0].json, "command")->valuestring, "first");
  CHECK(c.nwarnings == 1);
  CHECK_CONTAINS(c.warnings[0], "b.json: server \"s\" ignored: already defined in a.json");
  config_free(&c);
}

TEST(test_missing_optional_file_is_silent_required_is_an_error) {
  config c;
  config_init(&c);
  CHECK(config_load_file(&c, "/nonexistent/.mcp.json", false) == 0);
  CHECK(c.nerrors == 0);
  config_load_file(&c, "/nonexistent/x.json", true);
  CHECK(c.nerrors == 1);
  CHECK_CONTAINS(c.errors[0], "/nonexistent/x.json: cannot open");
  config_free(&c);
}

TEST(test_directory_is_not_a_config_file) {
  config c;
  config_init(&c);
  config_load_file(&c, "/tmp", true);
  CHECK(c.nerrors == 1);
  CHECK_CONTAINS(c.errors[0], "/tmp: is a directory");
  config_free(&c);
}

TEST(test_command_line_server_is_split_like_a_shell) {
  config c;
  config_init(&c);
  CHECK(config_add_command(&c, "every=node 'my dir/s.js' \"a b\" c\\ d") == 0);
  CHECK(c.nservers == 1);
  CHECK_STR(c.servers[0].name, "every");
  const cJSON *j = c.servers[0].json;
  CHECK_STR(cJSON_GetObjectItem(j, "command")->valuestring, "node");
  const cJSON *args = cJSON_GetObjectItem(j, "args");
  CHECK(cJSON_GetArraySize(args) == 3);
  CHECK_STR(cJSON_GetArrayItem(args, 0)->valuestring, "my dir/s.js");
  CHECK_STR(cJSON_GetArrayItem(args, 1)->valuestring, "a b");
  CHECK_STR(cJSON_GetArrayItem(args, 2)->valuestring, "c d");
  config_free(&c);
}

TEST(test_command_line_server_name_defaults_to_command_basename) {
  config c;
  config_init(&c);
  CHECK(config_add_command(&c, "/usr/bin/demo --flag=1") == 0);
  CHECK_STR(c.servers[0].name, "demo");
  CHECK_STR(cJSON_GetArrayItem(cJSON_GetObjectItem(c.servers[0].json, "args"), 0)->valuestring,
            "--flag=1");
  config_free(&c);
}

TEST(test_command_line_server_errors) {
  config c;
  config_init(&c);
  CHECK(config_add_command(&c, "x='unterminated") < 0);
  CHECK(config_add_command(&c, "   ") < 0);
  CHECK(c.nerrors == 2);
  CHECK_CONTAINS(c.errors[0], "unterminated quote");
  CHECK_CONTAINS(c.errors[1], "no command given");
  config_free(&c);
}

RUN(T(test_stdio_server_is_loaded_with_default_type),
    T(test_url_without_type_is_http), T(test_invalid_json_names_file_and_line),
    T(test_text_after_the_document_is_refused),
    T(test_a_name_given_twice_counts_once),
    T(test_written_json_keeps_every_number),
    T(test_top_level_must_be_an_object),
    T(test_mcpservers_of_wrong_type_is_an_error),
    T(test_bad_entry_costs_only_that_entry),
    T(test_first_definition_of_a_name_wins_with_a_warning),
    T(test_missing_optional_file_is_silent_required_is_an_error),
    T(test_directory_is_not_a_config_file),
    T(test_command_line_server_is_split_like_a_shell),
    T(test_command_line_server_name_defaults_to_command_basename),
    T(test_command_line_server_errors))
