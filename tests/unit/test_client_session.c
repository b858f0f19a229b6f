/* The client API for a session (sdk/include/mcphost/client.h, "a
 * session", and the options a session sets again before each task):
 * every deadline and setting set, read back and put back to its default;
 * the files the configuration comes from; the configuration read again
 * until a server is used with it; the servers closed before the client
 * is freed; calls named under the name length limit in force. Through libmcphost.so.1 and the public header only, against
 * the demo server over a real pipe.
 *
 * usage: test_client_session DEMO_SERVER */
#include <mcphost/client.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "client_test.h"

static const char *demo;
static char home[] = "/tmp/test_client_session.XXXXXX";

static mcphost_client *deferred(int mode) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.loop_mode = mode;
  o.defer_config = 1;
  return client_made(&o);
}

static int64_t option(mcphost_client *c, const char *name) {
  int64_t v = -1;
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (mcphost_get_option(c, name, &v, &err) != MCPHOST_OK)
    fprintf(stderr, "  %s: %s\n", name, err.message);
  return v;
}

static void write_file(const char *path, const char *text) {
  CHECK(client_write_file(path, text) == 0);
}

/* A configuration file of the demo server under the name `n1`, and
 * `n2` too when not NULL. */
static void write_demo_config(const char *path, const char *n1,
                              const char *n2) {
  char text[8192];
  if (n2)
    snprintf(text, sizeof text,
             "{\"mcpServers\": {\"%s\": {\"command\": \"%s\"}, "
             "\"%s\": {\"command\": \"%s\"}}}",
             n1, demo, n2, demo);
  else
    snprintf(text, sizeof text,
             "{\"mcpServers\": {\"%s\": {\"command\": \"%s\"}}}", n1, demo);
  write_file(path, text);
}

static int load_file(mcphost_client *c, const char *path) {
  return client_load(c, NULL, path, NULL);
}

static int connect_demo(mcphost_client *c, const char *name,
                        mcphost_error *err) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CONNECT;
  rq.server = name;
  char *out = NULL;
  int rc = mcphost_run(c, &rq, &out, NULL, err);
  mcphost_free(out);
  return rc;
}

/* Each deadline alone, as the environment gives it: a number read
 * back; NULL the default again. */
TEST(deadlines_are_set_one_by_one) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "connect-timeout", "1500", &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "request-timeout", "2500", &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "tool-timeout", "3500", &err) == MCPHOST_OK);
  CHECK(option(c, "connect-timeout") == 1500);
  CHECK(option(c, "request-timeout") == 2500);
  CHECK(option(c, "tool-timeout") == 3500);
  CHECK(option(c, "timeout") == 3500);
  CHECK(mcphost_set_option(c, "request-timeout", NULL, &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "tool-timeout", NULL, &err) == MCPHOST_OK);
  CHECK(option(c, "request-timeout") == 60000);
  CHECK(option(c, "tool-timeout") == 600000);
  CHECK(option(c, "connect-timeout") == 1500);
  /* "timeout" still sets all three. */
  CHECK(mcphost_set_option(c, "timeout", "700", &err) == MCPHOST_OK);
  CHECK(option(c, "connect-timeout") == 700);
  CHECK(option(c, "request-timeout") == 700);
  CHECK(option(c, "tool-timeout") == 700);
  /* Refused, naming the option and the value; nothing changes. */
  CHECK(mcphost_set_option(c, "connect-timeout", NULL, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "option \"connect-timeout\" needs a positive "
                              "number of milliseconds");
  CHECK(mcphost_set_option(c, "tool-timeout", "0", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "not \"0\"");
  CHECK(mcphost_set_option(c, "request-timeout", "5s", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "option \"request-timeout\"");
  CHECK(option(c, "tool-timeout") == 700);
  mcphost_client_free(c);
}

TEST(settings_are_set_and_read_back) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "server-exit", "0", &err) == MCPHOST_OK);
  CHECK(option(c, "server-exit") == 0);
  CHECK(mcphost_set_option(c, "server-exit", "4000", &err) == MCPHOST_OK);
  CHECK(option(c, "server-exit") == 4000);
  CHECK(mcphost_set_option(c, "list-cache-ttl", "0", &err) == MCPHOST_OK);
  CHECK(option(c, "list-cache-ttl") == 0);
  CHECK(mcphost_set_option(c, "name-chars", "40", &err) == MCPHOST_OK);
  CHECK(option(c, "name-chars") == 40);
  CHECK(mcphost_set_option(c, "name-chars", "31", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "option \"name-chars\" needs a whole number "
                              "from 32 to 1024, not \"31\"");
  CHECK(mcphost_set_option(c, "server-exit", "-1", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "option \"server-exit\" needs a whole number, "
                              "not \"-1\"");
  CHECK(option(c, "name-chars") == 40);
  CHECK(option(c, "server-exit") == 4000);
  mcphost_client_free(c);
}

/* What a task turned on, the next turns off again. */
TEST(flags_and_lists_turn_off) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "keep", NULL, &err) == MCPHOST_OK);
  CHECK(option(c, "keep") == 1);
  CHECK(mcphost_set_option(c, "keep", "0", &err) == MCPHOST_OK);
  CHECK(option(c, "keep") == 0);
  CHECK(mcphost_set_option(c, "keep", "1", &err) == MCPHOST_OK);
  CHECK(option(c, "keep") == 1);
  CHECK(mcphost_set_option(c, "keep", "yes", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message,
                 "option \"keep\" takes no value, 1 or 0; not \"yes\"");
  CHECK(mcphost_set_option(c, "no-roots", NULL, &err) == MCPHOST_OK);
  CHECK(option(c, "no-roots") == 1);
  CHECK(mcphost_set_option(c, "root", home, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_set_option(c, "no-roots", "0", &err) == MCPHOST_OK);
  CHECK(option(c, "no-roots") == 0);
  /* A root given, then none: no-roots is allowed again. */
  CHECK(mcphost_set_option(c, "root", home, &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "no-roots", NULL, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "--root and --no-roots exclude each other");
  CHECK(mcphost_set_option(c, "root", NULL, &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "no-roots", NULL, &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "log-level", "debug", &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "log-level", NULL, &err) == MCPHOST_OK);
  mcphost_client_free(c);
}

/* --protocol modern refuses the demo server (legacy only); NULL puts
 * each entry's own back, and it connects. */
TEST(protocol_goes_back_to_each_entrys_own) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER);
  if (!c)
    return;
  char path[4200];
  snprintf(path, sizeof path, "%s/protocol.json", home);
  write_demo_config(path, "demo", NULL);
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "protocol", "modern", &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "protocol", NULL, &err) == MCPHOST_OK);
  CHECK(load_file(c, path) == MCPHOST_OK);
  CHECK(connect_demo(c, "demo", &err) == MCPHOST_OK);
  mcphost_client_free(c);
}

static bool listed(const char *json, const char *path) {
  char quoted[4600];
  snprintf(quoted, sizeof quoted, "\"%s\"", path);
  const char *at = strstr(json, quoted);
  return at && !strstr(at + 1, quoted); /* once */
}

/* The scopes' files, there or not, each once; the config given as a
 * file, not the one given as text. */
TEST(config_files_are_listed_once) {
  char project[4200], file[4300], here[4096];
  snprintf(project, sizeof project, "%s/project", home);
  mkdir(project, 0700);
  snprintf(file, sizeof file, "%s/given.json", home);
  write_demo_config(file, "demo", NULL);
  CHECK(getcwd(here, sizeof here) != NULL);
  CHECK(chdir(project) == 0);
  mcphost_client *c = deferred(MCPHOST_LOOP_THREAD);
  if (!c)
    return;
  char *json = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_config_files(c, &json, NULL, &err) == MCPHOST_ESTATE);
  CHECK_CONTAINS(err.message, "not loaded yet");
  CHECK(json == NULL);
  const char *configs[] = {file, "{\"mcpServers\": {}}"};
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  s.configs = configs;
  s.nconfigs = 2;
  CHECK(mcphost_load_config(c, &s, &err) == MCPHOST_OK);
  size_t len = 0;
  CHECK(mcphost_config_files(c, &json, &len, &err) == MCPHOST_OK);
  if (json) {
    char p[4400];
    CHECK(len == strlen(json));
    CHECK(json[0] == '[');
    CHECK(listed(json, file));
    snprintf(p, sizeof p, "%s/.mcp.json", project);
    CHECK(listed(json, p));
    snprintf(p, sizeof p, "%s/system/managed-mcp.json", home);
    CHECK(listed(json, p));
    CHECK(strstr(json, "mcpServers") == NULL);
  }
  mcphost_free(json);
  mcphost_client_free(c);
  CHECK(chdir(here) == 0);
}

/* Read again while no server was used with it: the new servers named;
 * once one was, refused and kept. */
TEST(configuration_reads_again_until_a_server_is_used) {
  char path[4200];
  snprintf(path, sizeof path, "%s/reload.json", home);
  write_demo_config(path, "one", NULL);
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER);
  if (!c)
    return;
  CHECK(mcphost_reload_config(c, &err) == MCPHOST_ESTATE);
  CHECK_CONTAINS(err.message, "not loaded yet");
  CHECK(load_file(c, path) == MCPHOST_OK);
  CHECK(mcphost_server_count(c) == 1);
  write_demo_config(path, "one", "two");
  CHECK(mcphost_reload_config(c, &err) == MCPHOST_OK);
  CHECK(mcphost_server_count(c) == 2);
  CHECK_STR(mcphost_server_name(c, 1), "two");
  CHECK(mcphost_config_errors(c) == 0);
  write_file(path, "{\"mcpServers\": {\"one\": {\"command\": \"\"}}}");
  CHECK(mcphost_reload_config(c, &err) == MCPHOST_OK);
  CHECK(mcphost_config_errors(c) == 1);
  write_demo_config(path, "one", "two");
  CHECK(mcphost_reload_config(c, &err) == MCPHOST_OK);
  CHECK(connect_demo(c, "two", &err) == MCPHOST_OK);
  write_demo_config(path, "three", NULL);
  CHECK(mcphost_reload_config(c, &err) == MCPHOST_ESTATE);
  CHECK_CONTAINS(err.message, "current configuration");
  CHECK(mcphost_server_count(c) == 2);
  CHECK_STR(mcphost_server_name(c, 0), "one");
  mcphost_client_free(c);
}

/* Closed before the client is freed: not connected any more, no new
 * operation; freeing it after is fine. */
static void shutdown_closes(int mode) {
  char path[4200];
  snprintf(path, sizeof path, "%s/shutdown.json", home);
  write_demo_config(path, "demo", NULL);
  mcphost_client *c = deferred(mode);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(load_file(c, path) == MCPHOST_OK);
  CHECK(connect_demo(c, "demo", &err) == MCPHOST_OK);
  mcphost_server_state st = MCPHOST_SERVER_STATE_INIT;
  CHECK(mcphost_server_get(c, 0, &st, &err) == MCPHOST_OK);
  CHECK(st.connected == 1);
  mcphost_client_shutdown(c);
  CHECK(mcphost_server_get(c, 0, &st, &err) == MCPHOST_OK);
  CHECK(st.connected == 0);
  char *json = NULL;
  CHECK(mcphost_server_status(c, "demo", 0, &json, NULL, &err) == MCPHOST_OK);
  CHECK(json && !strstr(json, "\"connected\""));
  mcphost_free(json);
  CHECK(connect_demo(c, "demo", &err) == MCPHOST_ECANCELED);
  CHECK_CONTAINS(err.message, "the client is closing");
  mcphost_client_shutdown(c); /* twice is fine */
  mcphost_client_free(c);
}

TEST(shutdown_closes_the_servers_on_the_callers_loop) {
  shutdown_closes(MCPHOST_LOOP_CALLER);
}

TEST(shutdown_closes_the_servers_on_the_clients_thread) {
  shutdown_closes(MCPHOST_LOOP_THREAD);
}

/* One call's mcp__ name under one "name-chars", then another: the
 * names a call is resolved by (the last reference, the server's part of
 * mcp__ names, the tool a name found) are those of the limit in force. A
 * server name of 60 bytes is whole under 200 and cut under 40. */
static char *assigned(const char *server, size_t max_len) {
  const char *one[] = {"echo"};
  char **names = NULL;
  CHECK(mcphost_name_assign(server, one, 1, max_len, &names, NULL, NULL) ==
        MCPHOST_OK);
  char *name = names && names[0] ? strdup(names[0]) : NULL;
  mcphost_free(names);
  return name;
}

static int call_named(mcphost_client *c, const char *name, char **out,
                      mcphost_error *err) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = name;
  rq.arguments = "{\"message\": \"hi\"}";
  return mcphost_run(c, &rq, out, NULL, err);
}

TEST(names_follow_the_limit_of_their_length) {
  const char *server =
      "a_server_whose_name_is_long_enough_to_be_cut_at_forty_bytes";
  char cfg[256];
  snprintf(cfg, sizeof cfg, "%s/names.json", home);
  write_demo_config(cfg, server, NULL);
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER);
  if (!c)
    return;
  CHECK(load_file(c, cfg) == 0);
  char *whole = assigned(server, 200), *cut = assigned(server, 40);
  CHECK(whole && cut && strcmp(whole, cut) != 0);
  mcphost_error err = MCPHOST_ERROR_INIT;
  char *out = NULL;
  CHECK(mcphost_set_option(c, "name-chars", "200", &err) == MCPHOST_OK);
  CHECK(call_named(c, whole, &out, &err) == MCPHOST_OK);
  CHECK_CONTAINS(out, "Echo: hi");
  mcphost_free(out);
  out = NULL;
  CHECK(mcphost_set_option(c, "name-chars", "40", &err) == MCPHOST_OK);
  CHECK(call_named(c, cut, &out, &err) == MCPHOST_OK);
  CHECK_CONTAINS(out, "Echo: hi");
  mcphost_free(out);
  out = NULL;
  /* The name of the other limit is no longer one of its tools. */
  CHECK(call_named(c, whole, &out, &err) != MCPHOST_OK);
  mcphost_free(out);
  out = NULL;
  CHECK(mcphost_set_option(c, "name-chars", "200", &err) == MCPHOST_OK);
  CHECK(call_named(c, cut, &out, &err) != MCPHOST_OK);
  mcphost_free(out);
  out = NULL;
  CHECK(call_named(c, whole, &out, &err) == MCPHOST_OK);
  CHECK_CONTAINS(out, "Echo: hi");
  mcphost_free(out);
  free(whole);
  free(cut);
  mcphost_client_free(c);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_client_session DEMO_SERVER\n");
    return 2;
  }
  demo = argv[1];
  if (client_home_make(home) != 0)
    return 2;
  mcphost_client_shutdown(NULL);
  static const test_case tests[] = {
      T(deadlines_are_set_one_by_one),
      T(settings_are_set_and_read_back),
      T(flags_and_lists_turn_off),
      T(protocol_goes_back_to_each_entrys_own),
      T(config_files_are_listed_once),
      T(configuration_reads_again_until_a_server_is_used),
      T(shutdown_closes_the_servers_on_the_callers_loop),
      T(shutdown_closes_the_servers_on_the_clients_thread),
      T(names_follow_the_limit_of_their_length),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  client_home_remove(home);
  return rc;
}
