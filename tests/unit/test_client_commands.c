/* The client API's share of a command's servers (sdk/include/mcphost/
 * client.h, "a command's servers"), through libmcphost.so.1 and the
 * public header only: the configuration's warnings about servers said
 * when asked (mcphost_config_report: one server's once, every server's
 * again), the servers' state changes reaching mcphost_options.on_state
 * in both loop modes, and what mcphost_server_state says of where a
 * server runs (local, mcp_session).
 *
 * usage: test_client_commands DEMO_SERVER */
#include <mcphost/client.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "client_test.h"

static const char *demo;

/* The library's log as the program gets it (on_log): its warnings, one
 * a line. */
static char logged[16384];

static void on_log(void *ud, int level, const char *source,
                   const char *message) {
  (void)ud;
  if (level != MCPHOST_LOG_WARN)
    return;
  size_t used = strlen(logged);
  snprintf(logged + used, sizeof logged - used, "[%s] %s\n",
           source ? source : "-", message);
}

/* How often `needle` is in the log. */
static int times_logged(const char *needle) {
  int n = 0;
  for (const char *at = logged; (at = strstr(at, needle)); at++)
    n++;
  return n;
}

/* A client of the servers "a" and "b", each with an entry that warns
 * (a key misspelt, a key mcphost does not read), and "demo". */
static mcphost_client *warned_client(int mode) {
  static char config[4096];
  snprintf(config, sizeof config,
           "{\"mcpServers\": {"
           "\"a\": {\"command\": \"%s\", \"argz\": []},"
           "\"b\": {\"command\": \"%s\", \"disabled\": true},"
           "\"demo\": {\"command\": \"%s\"}}}",
           demo, demo, demo);
  const char *configs[] = {config};
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.loop_mode = mode;
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1;
  o.on_log = on_log;
  logged[0] = '\0';
  return client_made(&o);
}

TEST(a_servers_warnings_are_said_when_asked) {
  mcphost_client *c = warned_client(MCPHOST_LOOP_CALLER);
  CHECK(c != NULL);
  if (!c)
    return;
  /* A warning about one server waits for what uses it. */
  CHECK(times_logged("unknown key \"argz\"") == 0);
  CHECK(times_logged("\"disabled\" is not read") == 0);
  mcphost_error err = MCPHOST_ERROR_INIT;
  /* One server's: those not said yet, once. */
  CHECK(mcphost_config_report(c, "a", 0, &err) == MCPHOST_OK);
  CHECK(times_logged("[a] ") == 1);
  CHECK_CONTAINS(logged, "server \"a\": unknown key \"argz\"");
  CHECK(times_logged("\"disabled\" is not read") == 0);
  CHECK(mcphost_config_report(c, "a", 0, &err) == MCPHOST_OK);
  CHECK(times_logged("unknown key \"argz\"") == 1);
  /* A name no warning is about says nothing. */
  CHECK(mcphost_config_report(c, "demo", 0, &err) == MCPHOST_OK);
  CHECK(mcphost_config_report(c, "nosuch", 0, &err) == MCPHOST_OK);
  CHECK(times_logged("[demo]") == 0 && times_logged("nosuch") == 0);
  /* Every server's, said before or not: what lists them all shows. */
  CHECK(mcphost_config_report(c, NULL, 0, &err) == MCPHOST_OK);
  CHECK(times_logged("unknown key \"argz\"") == 2);
  CHECK(times_logged("[b] ") == 1);
  CHECK_CONTAINS(logged, "server \"b\": \"disabled\" is not read");
  CHECK(mcphost_config_report(NULL, NULL, 0, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "needs a client");
  CHECK(mcphost_config_report(c, NULL, 4, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_config_report(c, "a", MCPHOST_REPORT_LOAD, &err) ==
        MCPHOST_EUSAGE);
  mcphost_client_free(c);
}

TEST(a_servers_warnings_from_another_thread) {
  mcphost_client *c = warned_client(MCPHOST_LOOP_THREAD);
  CHECK(c != NULL);
  if (!c)
    return;
  CHECK(mcphost_config_report(c, "b", 0, NULL) == MCPHOST_OK);
  CHECK(times_logged("[b] ") == 1);
  CHECK(times_logged("unknown key \"argz\"") == 0);
  mcphost_client_free(c);
}

/* What the hook saw: each call's server and whether it was connected
 * then (read inside the hook, as a program does). */
typedef struct seen {
  mcphost_client *c;
  int calls, connected;
  char server[64];
} seen;

static void on_state(void *ud, const char *server) {
  seen *s = ud;
  s->calls++;
  snprintf(s->server, sizeof s->server, "%s", server);
  size_t index = 0;
  mcphost_server_state st = MCPHOST_SERVER_STATE_INIT;
  if (s->c && mcphost_server_find(s->c, server, &index, NULL) == MCPHOST_OK &&
      mcphost_server_get(s->c, index, &st, NULL) == MCPHOST_OK && st.connected)
    s->connected++;
}

static void state_changes(int mode) {
  seen s = {0};
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.loop_mode = mode;
  const char *configs[] = {config_of("demo", demo, NULL)};
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1;
  o.on_state = on_state;
  o.ud = &s;
  mcphost_client *c = client_made(&o);
  CHECK(c != NULL);
  if (!c)
    return;
  s.c = c;
  mcphost_error err = MCPHOST_ERROR_INIT;
  size_t n = 0;
  CHECK(mcphost_connect_servers(c, NULL, 0, 0, &n, &err) == MCPHOST_OK);
  CHECK(n == 1);
  /* Connected: seen, and connected when seen. */
  CHECK(s.calls >= 1);
  CHECK(s.connected >= 1);
  CHECK_STR(s.server, "demo");
  /* A stdio server runs here, and holds no MCP session. */
  mcphost_server_state st = MCPHOST_SERVER_STATE_INIT;
  CHECK(mcphost_server_get(c, 0, &st, &err) == MCPHOST_OK);
  CHECK(st.connected == 1 && st.local == 1 && st.mcp_session == 0);
  /* Connected again: the connection went away and came up, seen. */
  int before = s.calls;
  CHECK(mcphost_connect_servers(c, NULL, 0, MCPHOST_CONNECT_AGAIN, &n, &err) ==
        MCPHOST_OK);
  CHECK(n == 1);
  CHECK(s.calls > before);
  mcphost_client_free(c);
}

TEST(state_changes_in_the_callers_loop) {
  state_changes(MCPHOST_LOOP_CALLER);
}

TEST(state_changes_on_the_librarys_thread) {
  state_changes(MCPHOST_LOOP_THREAD);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_client_commands DEMO_SERVER\n");
    return 2;
  }
  demo = argv[1];
  char home[] = "/tmp/test_client_commands.XXXXXX";
  if (client_home_make(home) != 0)
    return 2;
  static const test_case tests[] = {
      T(a_servers_warnings_are_said_when_asked),
      T(a_servers_warnings_from_another_thread),
      T(state_changes_in_the_callers_loop),
      T(state_changes_on_the_librarys_thread),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  client_home_remove(home);
  return rc;
}
