/* The client API's servers: status and connecting (sdk/include/mcphost/
 * client.h): mcphost_server_find, mcphost_server_status and
 * mcphost_connect_servers, through libmcphost.so.1 and the public header
 * only, in a home and a project of their own: a server that connects
 * (the demo server over a real pipe), one whose serverInfo holds what a
 * double or a C string cannot (a Python server written here), one that
 * fails, a pending project server, a disabled one and a denied one; in
 * both loop modes.
 *
 * usage: test_client_status DEMO_SERVER */
#include <mcphost/client.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "client_test.h"

static const char *demo;
static char exact[4200]; /* the Python server's file */

/* A server whose serverInfo a double and a C string would change. */
static const char exact_server[] =
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    if 'id' not in m or 'method' not in m:\n"
    "        continue\n"
    "    if m['method'] == 'initialize':\n"
    "        r = ('{\"protocolVersion\":\"2025-06-18\",\"capabilities\":'\n"
    "             '{\"tools\":{}},\"serverInfo\":{\"name\":\"exact\",'\n"
    "             '\"version\":\"1\",\"build\":12345678901234567890,'\n"
    "             '\"tag\":\"a\\\\u0000b\"}}')\n"
    "        out = '{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}' % (\n"
    "            json.dumps(m['id']), r)\n"
    "    else:\n"
    "        out = json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'error':\n"
    "                          {'code': -32601, 'message': 'no'}})\n"
    "    sys.stdout.write(out + '\\n')\n"
    "    sys.stdout.flush()\n";

static mcphost_client *client(int mode) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.loop_mode = mode;
  return client_made(&o);
}

/* Server `name`'s status (a new string, or NULL with the error said). */
static char *status_of(mcphost_client *c, const char *name, unsigned flags) {
  char *json = NULL;
  size_t len = 0;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_server_status(c, name, flags, &json, &len, &err);
  if (rc != MCPHOST_OK) {
    fprintf(stderr, "  status %s: %s\n", name ? name : "(all)", err.message);
    return NULL;
  }
  CHECK(strlen(json) == len);
  return json;
}

TEST(each_server_says_what_the_configuration_lets_it_do) {
  mcphost_client *c = client(MCPHOST_LOOP_CALLER);
  CHECK(c != NULL);
  if (!c)
    return;
  char *s = status_of(c, "demo", 0);
  CHECK_CONTAINS(s, "\"name\":\"demo\",\"type\":\"stdio\",\"scope\":\"user\"");
  CHECK_CONTAINS(s, "\"state\":\"active\"");
  CHECK_CONTAINS(s, "\"startable\":true");
  /* Never used: idle, and not connected as a server failure. */
  CHECK_CONTAINS(s, "\"connection\":\"idle\"");
  char code[64];
  snprintf(code, sizeof code, "\"code\":%d", MCPHOST_ESERVER);
  CHECK_CONTAINS(s, code);
  CHECK(strstr(s, "serverInfo") == NULL);
  mcphost_free(s);
  s = status_of(c, "proj", 0);
  CHECK_CONTAINS(s, "\"scope\":\"project\"");
  CHECK_CONTAINS(s, "\"state\":\"pending\"");
  CHECK_CONTAINS(s, "\"reason\":\"project server from");
  CHECK_CONTAINS(s, "\"startable\":false");
  mcphost_free(s);
  s = status_of(c, "off", 0);
  CHECK_CONTAINS(s, "\"state\":\"disabled\"");
  CHECK_CONTAINS(s, "\"reason\":\"disabled in disabledMcpServers");
  mcphost_free(s);
  s = status_of(c, "blocked", 0);
  CHECK_CONTAINS(s, "\"state\":\"denied\"");
  CHECK_CONTAINS(s, "\"reason\":\"denied by deniedMcpServers entry");
  mcphost_free(s);
  /* The same without JSON. */
  size_t i_demo = 0, i_proj = 0;
  CHECK(mcphost_server_find(c, "demo", &i_demo, NULL) == MCPHOST_OK);
  CHECK(mcphost_server_find(c, "proj", &i_proj, NULL) == MCPHOST_OK);
  mcphost_server_state ss = MCPHOST_SERVER_STATE_INIT;
  CHECK(mcphost_server_get(c, i_demo, &ss, NULL) == MCPHOST_OK);
  CHECK(ss.startable == 1 && ss.used == 0 && ss.connected == 0);
  CHECK(ss.code == MCPHOST_ESERVER);
  CHECK_STR(ss.type, "stdio");
  CHECK(ss.caps == 0); /* nothing declared before a connect */
  CHECK(mcphost_server_get(c, i_proj, &ss, NULL) == MCPHOST_OK);
  CHECK(ss.startable == 0);
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_server_get(c, mcphost_server_count(c), &ss, &err) ==
        MCPHOST_ENOTFOUND);
  ss.struct_size = 4;
  CHECK(mcphost_server_get(c, i_demo, &ss, &err) == MCPHOST_EABI);
  /* Every server, in mcphost_server_name's order. */
  s = status_of(c, NULL, 0);
  CHECK(s && s[0] == '[');
  const char *at = s;
  for (size_t i = 0; i < mcphost_server_count(c) && at; i++) {
    char name[300];
    snprintf(name, sizeof name, "{\"name\":\"%s\"", mcphost_server_name(c, i));
    at = strstr(at, name);
    CHECK(at != NULL);
  }
  mcphost_free(s);
  mcphost_client_free(c);
}

TEST(a_name_not_configured_is_an_error_naming_it) {
  mcphost_client *c = client(MCPHOST_LOOP_CALLER);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  size_t i = 99;
  CHECK(mcphost_server_find(c, "demo", &i, &err) == MCPHOST_OK);
  CHECK_STR(mcphost_server_name(c, i), "demo");
  CHECK(mcphost_server_find(c, "dem0", &i, &err) == MCPHOST_ENOTFOUND);
  CHECK_STR(err.message, "no server named \"dem0\" is configured (did you "
                         "mean \"demo\"?)");
  char *json = (char *)"untouched";
  CHECK(mcphost_server_status(c, "dem0", 0, &json, NULL, &err) ==
        MCPHOST_ENOTFOUND);
  CHECK(json == NULL);
  CHECK_CONTAINS(err.message, "\"dem0\"");
  /* Nothing connects when one name is not configured. */
  const char *names[] = {"demo", "nosuch"};
  size_t n = 7;
  CHECK(mcphost_connect_servers(c, names, 2, 0, &n, &err) == MCPHOST_ENOTFOUND);
  CHECK(n == 0);
  CHECK_CONTAINS(err.message, "no server named \"nosuch\" is configured");
  char *s = status_of(c, "demo", 0);
  CHECK_CONTAINS(s, "\"connection\":\"idle\"");
  mcphost_free(s);
  CHECK(mcphost_server_find(c, NULL, &i, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_server_status(c, NULL, 0x80, &json, NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK(mcphost_connect_servers(c, NULL, 0, 0x80, NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK(mcphost_connect_servers(c, NULL, 1, 0, NULL, &err) == MCPHOST_EUSAGE);
  mcphost_client_free(c);
}

/* Every server that may start, connected at once: a failure is a
 * status. */
static void connect_all(int mode) {
  mcphost_client *c = client(mode);
  if (!c)
    return;
  size_t n = 0;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_connect_servers(c, NULL, 0, 0, &n, &err) == MCPHOST_OK);
  CHECK(n == 2); /* demo and exact; broken fails */
  char *s = status_of(c, "demo", MCPHOST_STATUS_NOTES);
  CHECK_CONTAINS(s, "\"connection\":\"connected\",\"transport\":\"stdio\"");
  CHECK_CONTAINS(s, "\"code\":0,\"protocolVersion\":\"");
  CHECK_CONTAINS(s, "\"era\":\"");
  CHECK_CONTAINS(s, "\"serverInfo\":{\"name\":\"");
  CHECK_CONTAINS(s, "\"capabilities\":{");
  CHECK_CONTAINS(s, "\"notes\":[");
  CHECK(strstr(s, "\"error\"") == NULL);
  mcphost_free(s);
  /* Brief: who and which protocol, not the capabilities. */
  s = status_of(c, "demo", MCPHOST_STATUS_BRIEF);
  CHECK_CONTAINS(s, "\"serverInfo\":{\"name\":\"");
  CHECK_CONTAINS(s, "\"protocolVersion\":\"");
  CHECK(strstr(s, "\"capabilities\"") == NULL);
  CHECK(strstr(s, "\"notes\"") == NULL);
  mcphost_free(s);
  size_t i_demo = 0, i_broken = 0;
  mcphost_server_find(c, "demo", &i_demo, NULL);
  mcphost_server_find(c, "broken", &i_broken, NULL);
  mcphost_server_state ss = MCPHOST_SERVER_STATE_INIT;
  CHECK(mcphost_server_get(c, i_demo, &ss, NULL) == MCPHOST_OK);
  CHECK(ss.used == 1 && ss.connected == 1 && ss.code == MCPHOST_OK);
  /* What the demo server declares: tools, resources, prompts, logging. */
  CHECK(ss.caps == (MCPHOST_CAP_TOOLS | MCPHOST_CAP_RESOURCES |
                    MCPHOST_CAP_PROMPTS | MCPHOST_CAP_LOGGING));
  CHECK(mcphost_server_get(c, i_broken, &ss, NULL) == MCPHOST_OK);
  CHECK(ss.used == 1 && ss.connected == 0 && ss.code != MCPHOST_OK);
  CHECK(ss.caps == 0);
  /* serverInfo as the server sent it. */
  s = status_of(c, "exact", 0);
  CHECK_CONTAINS(s, "\"serverInfo\":{\"name\":\"exact\",\"version\":\"1\","
                    "\"build\":12345678901234567890,\"tag\":\"a\\u0000b\"}");
  CHECK_CONTAINS(s, "\"protocolVersion\":\"2025-06-18\",\"era\":\"legacy\"");
  mcphost_free(s);
  s = status_of(c, "broken", 0);
  CHECK_CONTAINS(s, "\"connection\":\"failed\"");
  CHECK_CONTAINS(s, "\"error\":\"");
  CHECK_CONTAINS(s, "/nonexistent/server");
  CHECK(strstr(s, "\"code\":0") == NULL);
  mcphost_free(s);
  /* Those the configuration does not let start are not tried. */
  s = status_of(c, "proj", 0);
  CHECK_CONTAINS(s, "\"connection\":\"idle\"");
  mcphost_free(s);
  /* Only the unused: the connected ones are left as they are. */
  const char *names[] = {"demo", "exact"};
  n = 9;
  CHECK(mcphost_connect_servers(c, names, 2, MCPHOST_CONNECT_UNUSED, &n,
                                &err) == MCPHOST_OK);
  CHECK(n == 0);
  /* Again: closed and connected anew. */
  CHECK(mcphost_connect_servers(c, names, 1, MCPHOST_CONNECT_AGAIN, &n, &err) ==
        MCPHOST_OK);
  CHECK(n == 1);
  s = status_of(c, "demo", 0);
  CHECK_CONTAINS(s, "\"connection\":\"connected\"");
  mcphost_free(s);
  /* A server named that may not start: its status, not an error. */
  const char *pending[] = {"proj"};
  CHECK(mcphost_connect_servers(c, pending, 1, 0, &n, &err) == MCPHOST_OK);
  CHECK(n == 0);
  s = status_of(c, "proj", 0);
  CHECK_CONTAINS(s, "\"connection\":\"failed\"");
  CHECK_CONTAINS(s, "\"error\":\"server is pending: ");
  mcphost_free(s);
  mcphost_client_free(c);
}

TEST(connect_all_in_the_callers_loop) {
  connect_all(MCPHOST_LOOP_CALLER);
}

TEST(connect_all_on_the_librarys_thread) {
  connect_all(MCPHOST_LOOP_THREAD);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(2);
  }
  fputs(text, f);
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_client_status DEMO_SERVER\n");
    return 2;
  }
  /* The test runs in a project directory of its own. */
  static char demo_path[4096];
  if (!realpath(argv[1], demo_path))
    return 2;
  demo = demo_path;
  char home[] = "/tmp/test_client_status.XXXXXX";
  if (client_home_make(home) != 0)
    return 2;
  char path[4400], text[8192];
  snprintf(exact, sizeof exact, "%s/exact_server.py", home);
  write_file(exact, exact_server);
  snprintf(path, sizeof path, "%s/config/mcphost/settings.json", home);
  snprintf(text, sizeof text,
           "{\"mcpServers\": {"
           "\"demo\": {\"command\": \"%s\"},"
           "\"exact\": {\"command\": \"python3\", \"args\": [\"%s\"]},"
           "\"broken\": {\"command\": \"/nonexistent/server\"},"
           "\"off\": {\"command\": \"%s\"},"
           "\"blocked\": {\"command\": \"%s\"}},"
           "\"disabledMcpServers\": [\"off\"],"
           "\"deniedMcpServers\": [{\"serverName\": \"blocked\"}]}",
           demo, exact, demo, demo);
  write_file(path, text);
  /* A project of its own, whose server waits for approval. */
  snprintf(path, sizeof path, "%s/project", home);
  mkdir(path, 0700);
  if (chdir(path) != 0)
    return 2;
  snprintf(text, sizeof text,
           "{\"mcpServers\": {\"proj\": {\"command\": \"%s\"}}}", demo);
  write_file(".mcp.json", text);
  static const test_case tests[] = {
      T(each_server_says_what_the_configuration_lets_it_do),
      T(a_name_not_configured_is_an_error_naming_it),
      T(connect_all_in_the_callers_loop),
      T(connect_all_on_the_librarys_thread),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  if (chdir("/") != 0)
    rc = 2;
  client_home_remove(home);
  return rc;
}
