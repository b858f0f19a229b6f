/* The client API for a front end (sdk/include/mcphost/client.h, "a front
 * end"): a client made without its configuration, its options set, the
 * configuration loaded after; the program's own descriptors, timers and
 * posts on the client's loop, run with mcphost_run_until. Through
 * libmcphost.so.1 and the public header only, against the demo server
 * over a real pipe and the ABI 1.8 fixture plugin's options.
 *
 * usage: test_client_frontend DEMO_SERVER FIXTURE_PLUGINS_DIR */
#include <mcphost/client.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "client_test.h"

static const char *demo, *plugins;

static mcphost_client *deferred(int mode, const char *plugin_dir) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.loop_mode = mode;
  o.defer_config = 1;
  const char *dirs[] = {plugin_dir};
  if (plugin_dir) {
    o.plugin_dirs = dirs;
    o.nplugin_dirs = 1;
  }
  return client_made(&o);
}

/* The demo server given as the CLI's --server, alone. */
static int load_demo(mcphost_client *c, mcphost_error *err) {
  char spec[4096];
  snprintf(spec, sizeof spec, "demo=%s", demo);
  return client_load(c, spec, NULL, err);
}

static int connect_result(mcphost_client *c, char **out) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CONNECT;
  rq.server = "demo";
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_run(c, &rq, out, NULL, &err);
  if (rc != MCPHOST_OK)
    fprintf(stderr, "  connect: %s\n", err.message);
  return rc;
}

TEST(defer_config_takes_no_configuration_of_the_options) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {"{\"mcpServers\": {}}"};
  o.configs = configs;
  o.nconfigs = 1;
  o.defer_config = 1;
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_client_new(&o, &c, &err) == MCPHOST_EUSAGE);
  CHECK(c == NULL);
  CHECK_CONTAINS(err.message, "mcphost_load_config");
}

/* Nothing is loaded until mcphost_load_config; a bad source given there
 * is the caller's error, every one said, and nothing is loaded; the good
 * one loads once. */
TEST(configuration_loads_when_the_front_end_says) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER, NULL);
  CHECK(c != NULL);
  if (!c)
    return;
  CHECK(mcphost_server_count(c) == 0);
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  const char *bad[] = {"{\"mcpServers\": ", "/nonexistent/mcp.json"};
  s.configs = bad;
  s.nconfigs = 2;
  s.strict = 1;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_load_config(c, &s, &err) == MCPHOST_EUSAGE);
  CHECK(strncmp(err.message, "config error: --mcp-config argument 1", 37) == 0);
  CHECK_CONTAINS(err.message, "\nconfig error: ");
  CHECK_CONTAINS(err.message, "/nonexistent/mcp.json");
  CHECK(mcphost_server_count(c) == 0);

  mcphost_config_sources t = MCPHOST_CONFIG_SOURCES_INIT;
  const char *urls[] = {"http://127.0.0.1:9/mcp"};
  t.urls = urls;
  t.nurls = 1;
  t.url_type = "carrier-pigeon";
  CHECK(mcphost_load_config(c, &t, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "--transport \"carrier-pigeon\"");

  CHECK(load_demo(c, &err) == MCPHOST_OK);
  CHECK(mcphost_server_count(c) == 1);
  CHECK_STR(mcphost_server_name(c, 0), "demo");
  CHECK(mcphost_config_errors(c) == 0);
  CHECK(load_demo(c, &err) == MCPHOST_ESTATE);
  CHECK(mcphost_load_config(c, &s, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "/nonexistent/mcp.json");
  char *out = NULL;
  CHECK(connect_result(c, &out) == MCPHOST_OK);
  CHECK_CONTAINS(out, "\"serverInfo\":{\"name\":\"mcphost-demo\"");
  mcphost_free(out);
  mcphost_client_free(c);
}

/* A bad entry of a scope costs that entry alone: counted, not fatal. */
TEST(a_bad_entry_is_counted_not_fatal) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER, NULL);
  if (!c)
    return;
  char text[4096];
  snprintf(text, sizeof text,
           "{\"mcpServers\": {\"demo\": {\"command\": \"%s\"}, \"bad\": "
           "{\"type\": \"stdio\"}}}",
           demo);
  const char *configs[] = {text};
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  s.configs = configs;
  s.nconfigs = 1;
  s.strict = 1;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_load_config(c, &s, &err) == MCPHOST_OK);
  CHECK(mcphost_config_errors(c) == 1);
  CHECK(mcphost_server_count(c) == 1);
  CHECK_STR(mcphost_server_name(c, 0), "demo");
  mcphost_client_free(c);
}

/* no_check: a source that cannot be read is a configuration error like
 * a bad entry's, and the rest loads. */
TEST(unchecked_sources_load_around_a_bad_one) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER, NULL);
  if (!c)
    return;
  char spec[4096];
  snprintf(spec, sizeof spec, "demo=%s", demo);
  const char *specs[] = {spec};
  const char *configs[] = {"/nonexistent/mcp.json"};
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  s.server_specs = specs;
  s.nserver_specs = 1;
  s.configs = configs;
  s.nconfigs = 1;
  s.strict = 1;
  s.no_check = 1;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_load_config(c, &s, &err) == MCPHOST_OK);
  CHECK(mcphost_config_errors(c) == 1);
  CHECK(mcphost_server_count(c) == 1);
  mcphost_client_free(c);
}

/* In MCPHOST_LOOP_THREAD mode the thread starts with the configuration. */
TEST(own_thread_starts_with_the_configuration) {
  mcphost_client *c = deferred(MCPHOST_LOOP_THREAD, NULL);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "timeout", "20000", &err) == MCPHOST_OK);
  CHECK(load_demo(c, &err) == MCPHOST_OK);
  char *out = NULL;
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = "demo/echo";
  rq.arguments = "{\"message\": \"deferred\"}";
  CHECK(mcphost_run(c, &rq, &out, NULL, &err) == MCPHOST_OK);
  CHECK_STR(out,
            "{\"content\":[{\"type\":\"text\",\"text\":\"Echo: deferred\"}]}");
  mcphost_free(out);
  /* After the load, from another thread than the loop's. */
  CHECK(mcphost_set_option(c, "log-level", "debug", &err) == MCPHOST_OK);
  mcphost_client_free(c);
}

TEST(options_refuse_bad_values_naming_them) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER, NULL);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "timeout", "soon", &err) == MCPHOST_EUSAGE);
  CHECK_STR(err.message,
            "--timeout needs a positive number of milliseconds, not \"soon\"");
  CHECK(mcphost_set_option(c, "protocol", "future", &err) == MCPHOST_EUSAGE);
  CHECK_STR(err.message,
            "--protocol must be auto, modern or legacy; not \"future\"");
  CHECK(mcphost_set_option(c, "log-level", "loud", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "--log-level must be one of debug, ");
  CHECK(mcphost_set_option(c, "sanitize", "some", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "\"some\"");
  CHECK(mcphost_set_option(c, "verbose", "4", &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_set_option(c, "root", "/nonexistent/dir", &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "--root /nonexistent/dir: ");
  CHECK(mcphost_set_option(c, "root", ".", &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "no-roots", NULL, &err) == MCPHOST_EUSAGE);
  CHECK_STR(err.message, "--root and --no-roots exclude each other");
  CHECK(mcphost_set_option(c, "frobnicate", "1", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "no option named \"frobnicate\"");
  /* Read back: nothing set yet, then what was set. */
  int64_t v = -1;
  CHECK(mcphost_get_option(c, "sanitize", &v, &err) == MCPHOST_OK);
  CHECK(v == MCPHOST_SANITIZE_DEFAULT);
  CHECK(mcphost_get_option(c, "quiet", &v, &err) == MCPHOST_OK && v == 0);
  CHECK(mcphost_set_option(c, "quiet", NULL, &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "sanitize", "display", &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "verbose", "2", &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "timeout", "20000", &err) == MCPHOST_OK);
  CHECK(mcphost_get_option(c, "sanitize", &v, &err) == MCPHOST_OK);
  CHECK(v == MCPHOST_SANITIZE_DISPLAY);
  CHECK(mcphost_get_option(c, "verbose", &v, &err) == MCPHOST_OK && v == 2);
  CHECK(mcphost_get_option(c, "quiet", &v, &err) == MCPHOST_OK && v == 1);
  CHECK(mcphost_get_option(c, "no-roots", &v, &err) == MCPHOST_OK && v == 0);
  CHECK(mcphost_get_option(c, "timeout", &v, &err) == MCPHOST_OK);
  CHECK(v == 20000);
  CHECK(mcphost_get_option(c, "protocol", &v, &err) == MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, "no option \"protocol\" to read");
  CHECK(mcphost_get_option(c, "verbose", NULL, &err) == MCPHOST_EUSAGE);
  mcphost_client_free(c);
}

/* --protocol modern over every entry: the demo server speaks the legacy
 * era only, so its connect fails saying so; without the option it
 * connects. */
static int connect_error(mcphost_client *c, mcphost_error *err) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CONNECT;
  rq.server = "demo";
  char *out = NULL;
  int rc = mcphost_run(c, &rq, &out, NULL, err);
  mcphost_free(out);
  return rc;
}

TEST(the_protocol_option_reaches_the_connection) {
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER, NULL);
  if (!c)
    return;
  CHECK(load_demo(c, &err) == MCPHOST_OK);
  CHECK(connect_error(c, &err) == MCPHOST_OK);
  mcphost_client_free(c);
  c = deferred(MCPHOST_LOOP_CALLER, NULL);
  if (!c)
    return;
  CHECK(mcphost_set_option(c, "protocol", "modern", &err) == MCPHOST_OK);
  CHECK(load_demo(c, &err) == MCPHOST_OK);
  CHECK(connect_error(c, &err) != MCPHOST_OK);
  CHECK_CONTAINS(err.message, "server does not speak protocol 2026-07-28");
  mcphost_client_free(c);
}

/* The options a plugin declares: listed with their placeholders (the
 * 1.8 fixture's elements are larger than 1.7's), and set by name. */
TEST(plugin_options_are_listed_and_set) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/v1.8", plugins);
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER, dir);
  if (!c)
    return;
  mcphost_option_info a = MCPHOST_OPTION_INFO_INIT, b = a;
  bool found_a = false, found_b = false;
  mcphost_option_info it = MCPHOST_OPTION_INFO_INIT;
  size_t i = 0;
  for (; mcphost_plugin_option(c, i, &it) == MCPHOST_OK; i++) {
    if (strcmp(it.name, "eighteen-a") == 0 && !found_a) {
      a = it;
      found_a = true;
    }
    if (strcmp(it.name, "eighteen-b") == 0 && !found_b) {
      b = it;
      found_b = true;
    }
  }
  CHECK(mcphost_plugin_option(c, i, &it) == MCPHOST_ENOTFOUND);
  CHECK(found_a && found_b);
  if (found_a && found_b) {
    CHECK_STR(a.arg, "VALUE");
    CHECK_STR(a.help, "an option of the ABI 1.8 fixture");
    CHECK_STR(a.plugin, "test.v1_8");
    CHECK(b.arg == NULL);
    CHECK_STR(b.help, "a flag of the ABI 1.8 fixture");
  }
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "eighteen-a", NULL, &err) == MCPHOST_EUSAGE);
  CHECK_STR(err.message, "option \"eighteen-a\" needs a value");
  CHECK(mcphost_set_option(c, "eighteen-a", "x", &err) == MCPHOST_OK);
  CHECK(mcphost_set_option(c, "eighteen-b", NULL, &err) == MCPHOST_OK);
  mcphost_client_free(c);
}

/* ---- the program's own descriptors, timers and posts ---- */

typedef struct loop_state {
  mcphost_client *c;
  mcphost_watch *w;
  int fd;
  char got[16];
  size_t ngot;
  int done;
  int fired, cancelled_fired, posted;
} loop_state;

static void on_readable(void *ud, int fd, unsigned events) {
  loop_state *s = ud;
  if (events & MCPHOST_FD_READ) {
    ssize_t n = read(fd, s->got + s->ngot, sizeof s->got - 1 - s->ngot);
    if (n > 0)
      s->ngot += (size_t)n;
  }
  if (s->ngot >= 2) {
    mcphost_unwatch(s->c, s->w); /* from inside its own callback */
    s->w = NULL;
    s->done = 1;
  }
}

static void on_timer(void *ud) {
  loop_state *s = ud;
  s->fired++;
  (void)!write(s->fd, "t", 1);
}

static void on_cancelled(void *ud) {
  loop_state *s = ud;
  s->cancelled_fired++;
}

static void on_posted(void *ud) {
  loop_state *s = ud;
  s->posted++;
  (void)!write(s->fd, "p", 1);
}

static void *post_from_thread(void *ud) {
  loop_state *s = ud;
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (mcphost_post(s->c, on_posted, s, &err) != MCPHOST_OK)
    fprintf(stderr, "  post: %s\n", err.message);
  return NULL;
}

TEST(the_front_ends_descriptors_timers_and_posts_run_on_the_loop) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER, NULL);
  if (!c)
    return;
  int p[2];
  CHECK(pipe(p) == 0);
  loop_state s = {.c = c, .fd = p[1]};
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_watch_fd(c, p[0], MCPHOST_FD_READ, on_readable, &s, &s.w,
                         &err) == MCPHOST_OK);
  CHECK(mcphost_watch_fd(c, p[0], MCPHOST_FD_READ, on_readable, &s,
                         &(mcphost_watch *){NULL}, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_timer_start(c, 1, on_timer, &s) != NULL);
  mcphost_timer *t = mcphost_timer_start(c, 0, on_cancelled, &s);
  CHECK(t != NULL);
  mcphost_timer_cancel(c, t);
  pthread_t th;
  CHECK(pthread_create(&th, NULL, post_from_thread, &s) == 0);
  CHECK(mcphost_run_until(c, &s.done, 0) == MCPHOST_OK);
  pthread_join(th, NULL);
  CHECK(s.fired == 1 && s.posted == 1 && s.cancelled_fired == 0);
  CHECK(s.ngot == 2);
  CHECK(s.w == NULL);
  /* Unwatched: a byte written now wakes nothing, and the deadline
   * ends the wait. */
  (void)!write(p[1], "x", 1);
  int never = 0;
  uint64_t start = mcphost_now_ms();
  CHECK(mcphost_run_until(c, &never, start + 20) == MCPHOST_ETIMEDOUT);
  CHECK(mcphost_now_ms() >= start + 20);
  CHECK(s.ngot == 2);
  close(p[0]);
  close(p[1]);
  mcphost_client_free(c);

  mcphost_client *th_client = deferred(MCPHOST_LOOP_THREAD, NULL);
  if (th_client) {
    CHECK(mcphost_run_until(th_client, &never, 0) == MCPHOST_ESTATE);
    mcphost_client_free(th_client);
  }
}

/* What a front end that takes its own signals does around an operation
 * (`mcphost call`): its Ctrl-C passed on and cleared, a result taken
 * from `done` without a copy, a status line that ends before the rest
 * of stderr. */
typedef struct taking {
  mcphost_client *c;
  int done;
  char *taken;
} taking;

static void take_done(void *ud, const char *result, size_t len,
                      const mcphost_error *err) {
  taking *t = ud;
  (void)len;
  if (err)
    fprintf(stderr, "  call: %s\n", err->message);
  t->taken = (char *)result; /* ours: MCPHOST_REQUEST_TAKE_RESULT */
  t->done = 1;
}

TEST(a_front_end_passes_on_signals_and_takes_results) {
  mcphost_client *c = deferred(MCPHOST_LOOP_CALLER, NULL);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(load_demo(c, &err) == MCPHOST_OK);
  CHECK(mcphost_interrupted(c) == 0);
  mcphost_interrupt(c, 2);
  CHECK(mcphost_interrupted(c) == 2);
  mcphost_interrupt_clear(c);
  CHECK(mcphost_interrupted(c) == 0);

  taking t = {.c = c};
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = "demo/echo";
  rq.arguments = "{\"message\": \"kept\"}";
  rq.flags = MCPHOST_REQUEST_TAKE_RESULT;
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = take_done;
  cb.ud = &t;
  CHECK(mcphost_start(c, &rq, &cb, &err) > 0);
  CHECK(mcphost_run_until(c, &t.done, 0) == MCPHOST_OK);
  CHECK_CONTAINS(t.taken, "kept");
  mcphost_free(t.taken);

  /* Off a terminal a status line is a line each; its end adds none. */
  fflush(stderr);
  char path[] = "/tmp/mcphost-status.XXXXXX";
  int fd = mkstemp(path);
  int saved = dup(2);
  CHECK(fd >= 0 && saved >= 0 && dup2(fd, 2) == 2);
  mcphost_status_line(c, "progress: 1/2");
  mcphost_status_line(c, "progress: 2/2");
  mcphost_status_end(c);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char got[64] = "";
  CHECK(pread(fd, got, sizeof got - 1, 0) > 0);
  CHECK_STR(got, "progress: 1/2\nprogress: 2/2\n");
  close(fd);
  unlink(path);
  mcphost_client_free(c);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_client_frontend DEMO_SERVER PLUGINS_DIR\n");
    return 2;
  }
  demo = argv[1];
  plugins = argv[2];
  /* A home of its own: no user's settings or state. */
  char home[] = "/tmp/test_client_frontend.XXXXXX";
  if (!mkdtemp(home))
    return 2;
  char path[4096];
  setenv("HOME", home, 1);
  snprintf(path, sizeof path, "%s/config", home);
  setenv("XDG_CONFIG_HOME", path, 1);
  snprintf(path, sizeof path, "%s/state", home);
  setenv("XDG_STATE_HOME", path, 1);
  snprintf(path, sizeof path, "%s/cache", home);
  setenv("XDG_CACHE_HOME", path, 1);
  static const test_case tests[] = {
      T(defer_config_takes_no_configuration_of_the_options),
      T(configuration_loads_when_the_front_end_says),
      T(a_bad_entry_is_counted_not_fatal),
      T(unchecked_sources_load_around_a_bad_one),
      T(own_thread_starts_with_the_configuration),
      T(options_refuse_bad_values_naming_them),
      T(the_protocol_option_reaches_the_connection),
      T(plugin_options_are_listed_and_set),
      T(the_front_ends_descriptors_timers_and_posts_run_on_the_loop),
      T(a_front_end_passes_on_signals_and_takes_results),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  char rm[4200];
  snprintf(rm, sizeof rm, "rm -rf '%s'", home);
  if (system(rm) != 0)
    fprintf(stderr, "could not remove %s\n", home);
  return rc;
}
