/* The client API for an interactive front end (sdk/include/mcphost/
 * client.h, "an interactive front end"): the client's directories, a
 * --root resolved, the loop caught up at a prompt or run until a signal
 * passed on, the signal an exit reports and its forgetting, the servers
 * closed before the client is freed, and "quiet" turned off again.
 * Through libmcphost.so.1 and the public header only, against the demo
 * server over a real pipe.
 *
 * usage: test_client_shell DEMO_SERVER */
#include <mcphost/client.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "client_test.h"

static const char *demo;
static char home[] = "/tmp/test_client_shell.XXXXXX";

static mcphost_client *caller_client(void) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.loop_mode = MCPHOST_LOOP_CALLER;
  o.defer_config = 1;
  return client_made(&o);
}

/* The demo server given as the CLI's --server, alone. */
static int load_demo(mcphost_client *c) {
  char spec[4096];
  snprintf(spec, sizeof spec, "demo=%s", demo);
  return client_load(c, spec, NULL, NULL);
}

TEST(the_clients_directories_are_given) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  char cwd[PATH_MAX];
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  CHECK_STR(mcphost_path(c, MCPHOST_PATH_CWD), cwd);
  char want[PATH_MAX + 64];
  snprintf(want, sizeof want, "%s/state/mcphost", home);
  CHECK_STR(mcphost_path(c, MCPHOST_PATH_STATE), want);
  snprintf(want, sizeof want, "%s/cache/mcphost", home);
  CHECK_STR(mcphost_path(c, MCPHOST_PATH_CACHE), want);
  CHECK(mcphost_path(c, MCPHOST_PATH_LOGS) != NULL);
  CHECK(mcphost_path(c, -1) == NULL);
  CHECK(mcphost_path(c, 4) == NULL);
  CHECK(mcphost_path(NULL, MCPHOST_PATH_CWD) == NULL);
  mcphost_client_free(c);
}

TEST(a_root_is_resolved_as_the_option_takes_it) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  char cwd[PATH_MAX], *abs = NULL;
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_root_resolve(c, ".", &abs, &err) == MCPHOST_OK);
  char *real = realpath(cwd, NULL);
  CHECK_STR(abs, real);
  free(real);
  mcphost_free(abs);

  /* "~/" from $HOME, links resolved. */
  CHECK(mcphost_root_resolve(c, "~/config/..", &abs, &err) == MCPHOST_OK);
  real = realpath(home, NULL);
  CHECK_STR(abs, real);
  free(real);
  mcphost_free(abs);

  /* Not there, or no directory: the option's message. */
  CHECK(mcphost_root_resolve(c, "/nonexistent/dir", &abs, &err) ==
        MCPHOST_EUSAGE);
  CHECK(abs == NULL);
  CHECK_CONTAINS(err.message, "--root /nonexistent/dir: /nonexistent/dir: ");
  char file[PATH_MAX + 16];
  snprintf(file, sizeof file, "%s/file", home);
  FILE *f = fopen(file, "w");
  CHECK(f != NULL);
  if (f)
    fclose(f);
  CHECK(mcphost_root_resolve(c, file, &abs, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "not a directory");
  CHECK(mcphost_root_resolve(c, NULL, &abs, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_root_resolve(NULL, ".", &abs, &err) == MCPHOST_EUSAGE);
  mcphost_client_free(c);
}

/* A chain of posts, each made by the one before: all of it runs in one
 * catch-up, without waiting. */
typedef struct chain {
  mcphost_client *c;
  int left, ran;
} chain;

static void link_run(void *ud) {
  chain *k = ud;
  k->ran++;
  if (--k->left > 0)
    mcphost_post(k->c, link_run, k, NULL);
}

TEST(run_ready_catches_up_without_waiting) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  chain k = {.c = c, .left = 5};
  CHECK(mcphost_post(c, link_run, &k, NULL) == MCPHOST_OK);
  mcphost_run_ready(c);
  CHECK(k.ran == 5);
  /* Nothing ready: it returns at once. */
  mcphost_run_ready(c);
  CHECK(k.ran == 5);
  mcphost_run_ready(NULL);
  mcphost_client_free(c);
}

static void interrupt_now(void *ud) {
  mcphost_client *c = ud;
  mcphost_interrupt(c, 15);
}

TEST(run_interruptible_ends_on_a_signal_passed_on) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  int never = 0, done = 1;
  /* A signal taken meanwhile ends the run (and not mcphost_run_until's). */
  CHECK(mcphost_timer_start(c, 10, interrupt_now, c) != NULL);
  CHECK(mcphost_run_interruptible(c, &never, 0) == MCPHOST_ECANCELED);
  CHECK(mcphost_interrupted(c) == 15);
  /* Pending: at once; but done first. */
  CHECK(mcphost_run_interruptible(c, &never, 0) == MCPHOST_ECANCELED);
  CHECK(mcphost_run_interruptible(c, &done, 0) == MCPHOST_OK);
  CHECK(mcphost_run_until(c, &never, mcphost_now_ms() + 20) ==
        MCPHOST_ETIMEDOUT);
  mcphost_interrupt_clear(c);
  CHECK(mcphost_run_interruptible(c, &never, mcphost_now_ms() + 20) ==
        MCPHOST_ETIMEDOUT);
  CHECK(mcphost_run_interruptible(c, NULL, 0) == MCPHOST_EUSAGE);
  mcphost_client_free(c);

  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.defer_config = 1;
  mcphost_client *th = client_made(&o);
  if (th) {
    CHECK(mcphost_run_interruptible(th, &never, 0) == MCPHOST_ESTATE);
    mcphost_client_free(th);
  }
}

TEST(the_exit_signal_outlives_a_clear_not_a_forget) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  CHECK(mcphost_exit_signal(c) == 0);
  mcphost_interrupt(c, 2);
  CHECK(mcphost_interrupted(c) == 2);
  CHECK(mcphost_exit_signal(c) == 2);
  /* Dealt with, but still what the exit says (subscribe's Ctrl-C). */
  mcphost_interrupt_clear(c);
  CHECK(mcphost_interrupted(c) == 0);
  CHECK(mcphost_exit_signal(c) == 2);
  /* Forgotten: the shell's Ctrl-C ended one command only. */
  mcphost_interrupt(c, 2);
  mcphost_interrupt_forget(c);
  CHECK(mcphost_interrupted(c) == 0);
  CHECK(mcphost_exit_signal(c) == 0);
  CHECK(mcphost_exit_signal(NULL) == 0);
  mcphost_interrupt_forget(NULL);
  mcphost_client_free(c);
}

typedef struct ending {
  int done, code;
} ending;

static void op_done(void *ud, const char *result, size_t len,
                    const mcphost_error *err) {
  ending *e = ud;
  (void)result;
  (void)len;
  e->code = err ? err->code : MCPHOST_OK;
  e->done = 1;
}

static int64_t start_slow(mcphost_client *c, ending *e) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = "demo/slow";
  rq.arguments = "{\"steps\": 100, \"delay_ms\": 100}";
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = op_done;
  cb.ud = e;
  return mcphost_start(c, &rq, &cb, NULL);
}

/* The servers close before the client goes: a call still running ends
 * cancelled, the server is closed, nothing starts after, and the signal
 * is still there to read. */
TEST(shutdown_closes_the_servers_and_keeps_the_state) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  CHECK(load_demo(c) == MCPHOST_OK);
  size_t n = 0;
  CHECK(mcphost_connect_servers(c, NULL, 0, 0, &n, NULL) == MCPHOST_OK);
  CHECK(n == 1);
  mcphost_server_state ss = MCPHOST_SERVER_STATE_INIT;
  CHECK(mcphost_server_get(c, 0, &ss, NULL) == MCPHOST_OK && ss.connected);
  ending e = {0};
  CHECK(start_slow(c, &e) > 0);
  mcphost_interrupt(c, 15);
  mcphost_client_shutdown(c);
  CHECK(e.done == 1);
  CHECK(e.code == MCPHOST_ECANCELED);
  CHECK(mcphost_server_get(c, 0, &ss, NULL) == MCPHOST_OK);
  CHECK(ss.connected == 0);
  char *st = NULL;
  CHECK(mcphost_server_status(c, "demo", MCPHOST_STATUS_BRIEF, &st, NULL,
                              NULL) == MCPHOST_OK);
  CHECK(st && strstr(st, "\"connection\":\"connected\"") == NULL);
  mcphost_free(st);
  ending after = {0};
  start_slow(c, &after);
  mcphost_run_until(c, &after.done, mcphost_now_ms() + 5000);
  CHECK(after.done == 1);
  CHECK(after.code == MCPHOST_ECANCELED);
  CHECK(mcphost_exit_signal(c) == 15);
  mcphost_client_shutdown(c); /* twice: nothing more */
  mcphost_client_shutdown(NULL);
  mcphost_client_free(c);
}

TEST(quiet_turns_off_again) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  int64_t v = -1;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_get_option(c, "quiet", &v, NULL) == MCPHOST_OK && v == 0);
  CHECK(mcphost_set_option(c, "quiet", NULL, &err) == MCPHOST_OK);
  CHECK(mcphost_get_option(c, "quiet", &v, NULL) == MCPHOST_OK && v == 1);
  CHECK(mcphost_set_option(c, "quiet", "0", &err) == MCPHOST_OK);
  CHECK(mcphost_get_option(c, "quiet", &v, NULL) == MCPHOST_OK && v == 0);
  CHECK(mcphost_set_option(c, "quiet", "1", &err) == MCPHOST_OK);
  CHECK(mcphost_get_option(c, "quiet", &v, NULL) == MCPHOST_OK && v == 1);
  CHECK(mcphost_set_option(c, "quiet", "yes", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "quiet");
  CHECK_CONTAINS(err.message, "\"yes\"");
  CHECK(mcphost_get_option(c, "quiet", &v, NULL) == MCPHOST_OK && v == 1);
  mcphost_client_free(c);
}

/* What fn(c) writes on stderr, in `out` (`size` bytes). */
static void stderr_of(void (*fn)(mcphost_client *), mcphost_client *c,
                      char *out, size_t size) {
  fflush(stderr);
  char path[] = "/tmp/test_client_shell.err.XXXXXX";
  int fd = mkstemp(path);
  int saved = dup(2);
  out[0] = '\0';
  if (fd < 0 || saved < 0 || dup2(fd, 2) != 2)
    return;
  fn(c);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  ssize_t n = pread(fd, out, size - 1, 0);
  out[n > 0 ? n : 0] = '\0';
  close(fd);
  unlink(path);
}

static const char *const one_bad[] = {
    "{\"mcpServers\": {\"one\": {\"command\": \"/bin/true\"}, "
    "\"bad\": {\"command\": 5}}}"};

static void say_report(mcphost_client *c) {
  mcphost_config_report(c, NULL, MCPHOST_REPORT_LOAD, NULL);
}

static void load_one_bad(mcphost_client *c) {
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  s.configs = one_bad;
  s.nconfigs = 1;
  s.strict = 1;
  CHECK(mcphost_load_config(c, &s, NULL) == MCPHOST_OK);
}

static char *preview_text;

static void preview_one_bad(mcphost_client *c) {
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  s.configs = one_bad;
  s.nconfigs = 1;
  s.strict = 1;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_config_preview(c, &s, &preview_text, &err) == MCPHOST_OK);
}

/* A session's next command sees its load's report again; before a load
 * there is none. */
TEST(the_configuration_is_reported_again) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  char got[2048];
  stderr_of(say_report, c, got, sizeof got);
  CHECK_STR(got, "");
  stderr_of(load_one_bad, c, got, sizeof got);
  CHECK_CONTAINS(got, "mcphost: config error: ");
  CHECK_CONTAINS(got, "bad");
  char again[2048];
  stderr_of(say_report, c, again, sizeof again);
  CHECK_STR(again, got);
  CHECK(mcphost_config_report(NULL, NULL, MCPHOST_REPORT_LOAD, NULL) ==
        MCPHOST_EUSAGE);
  mcphost_client_free(c);
}

/* Loaded apart: the servers listed, nothing said, nothing kept. */
TEST(a_preview_loads_apart_and_says_nothing) {
  mcphost_client *c = caller_client();
  if (!c)
    return;
  char got[2048];
  stderr_of(preview_one_bad, c, got, sizeof got);
  CHECK_STR(got, "");
  CHECK_STR(preview_text, "[{\"name\":\"one\",\"scope\":\"dynamic\","
                          "\"state\":\"active\"}]");
  mcphost_free(preview_text);
  preview_text = NULL;
  CHECK(mcphost_server_count(c) == 0);
  CHECK(mcphost_config_errors(c) == 0);
  /* The client's own configuration stays as it is. */
  CHECK(load_demo(c) == MCPHOST_OK);
  stderr_of(preview_one_bad, c, got, sizeof got);
  CHECK(mcphost_server_count(c) == 1);
  CHECK_STR(mcphost_server_name(c, 0), "demo");
  mcphost_free(preview_text);
  preview_text = NULL;
  char *text = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  s.nconfigs = 1;
  CHECK(mcphost_config_preview(c, &s, &text, &err) == MCPHOST_EUSAGE);
  CHECK(text == NULL);
  CHECK(mcphost_config_preview(c, NULL, &text, &err) == MCPHOST_EUSAGE);
  mcphost_client_free(c);
}

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  fputs(text, f);
  return fclose(f);
}

static char *read_file(const char *path) {
  static char buf[16384];
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  buf[n] = '\0';
  if (f)
    fclose(f);
  return buf;
}

/* A project's server approved by enableAllProjectMcpServers, in a
 * repository where another was approved one by one: bound to what it
 * runs by a load that asks for it, and only then. */
TEST(a_load_binds_approvals_when_asked) {
  char repo[PATH_MAX + 16], path[PATH_MAX + 64], settings[PATH_MAX + 64];
  char cwd[PATH_MAX];
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  snprintf(repo, sizeof repo, "%s/repo", home);
  snprintf(path, sizeof path, "%s/.git", repo);
  CHECK(mkdir(repo, 0700) == 0 && mkdir(path, 0700) == 0);
  snprintf(path, sizeof path, "%s/.mcp.json", repo);
  char mcp[8400];
  snprintf(mcp, sizeof mcp,
           "{\"mcpServers\": {\"tools\": {\"command\": \"%s\"}, "
           "\"other\": {\"command\": \"%s\"}}}\n",
           demo, demo);
  CHECK(write_file(path, mcp) == 0);
  snprintf(settings, sizeof settings, "%s/config/mcphost/settings.json", home);
  CHECK(write_file(settings, "{\"enableAllProjectMcpServers\": true}\n") == 0);
  CHECK(chdir(repo) == 0);
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_project_choice(NULL, "approve", "[\"other\"]", 0, NULL, &err) ==
        MCPHOST_OK);
  CHECK(strstr(read_file(settings), "\"tools\"") == NULL);

  for (int bind = 0; bind <= 1; bind++) {
    mcphost_client *c = caller_client();
    if (!c)
      break;
    mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
    s.bind_approvals = bind;
    CHECK(mcphost_load_config(c, &s, &err) == MCPHOST_OK);
    CHECK(mcphost_server_count(c) == 2);
    const char *text = read_file(settings);
    if (bind) {
      CHECK_CONTAINS(text, "\"tools\"");
      CHECK_CONTAINS(text, "approvedMcpjsonEntries");
    } else {
      CHECK(strstr(text, "\"tools\"") == NULL);
    }
    mcphost_client_free(c);
  }
  CHECK(chdir(cwd) == 0);
}

/* The files the configuration functions write are those of the sources
 * set, before any load: a project file that is one of the --mcp-config
 * files is refused as another scope's. */
TEST(the_sources_set_name_the_files_edited) {
  char dir[PATH_MAX + 16], file[PATH_MAX + 32], cwd[PATH_MAX];
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  snprintf(dir, sizeof dir, "%s/edited", home);
  CHECK(mkdir(dir, 0700) == 0);
  snprintf(file, sizeof file, "%s/.mcp.json", dir);
  CHECK(write_file(file, "{\"mcpServers\": {}}\n") == 0);
  CHECK(chdir(dir) == 0);
  const char *configs[] = {file};
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  s.configs = configs;
  s.nconfigs = 1;
  mcphost_error err = MCPHOST_ERROR_INIT;
  for (int set = 1; set >= 0; set--) {
    mcphost_client *c = caller_client();
    if (!c)
      break;
    if (set)
      CHECK(mcphost_set_config_sources(c, &s, &err) == MCPHOST_OK);
    int rc = mcphost_config_add(c, "project", "x",
                                "{\"command\": \"/bin/true\"}", 0, NULL, &err);
    if (set) {
      CHECK(rc == MCPHOST_ESERVER);
      CHECK_CONTAINS(err.message, "of another scope");
    } else {
      CHECK(rc == MCPHOST_OK);
    }
    mcphost_client_free(c);
  }
  mcphost_config_sources bad = MCPHOST_CONFIG_SOURCES_INIT;
  bad.nurls = 1;
  CHECK(mcphost_set_config_sources(NULL, &s, &err) == MCPHOST_EUSAGE);
  mcphost_client *c = caller_client();
  if (c) {
    CHECK(mcphost_set_config_sources(c, &bad, &err) == MCPHOST_EUSAGE);
    mcphost_client_free(c);
  }
  CHECK(chdir(cwd) == 0);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_client_shell DEMO_SERVER\n");
    return 2;
  }
  demo = argv[1];
  if (client_home_make(home) != 0)
    return 2;
  static const test_case tests[] = {
      T(the_clients_directories_are_given),
      T(a_root_is_resolved_as_the_option_takes_it),
      T(run_ready_catches_up_without_waiting),
      T(run_interruptible_ends_on_a_signal_passed_on),
      T(the_exit_signal_outlives_a_clear_not_a_forget),
      T(shutdown_closes_the_servers_and_keeps_the_state),
      T(quiet_turns_off_again),
      T(the_configuration_is_reported_again),
      T(a_preview_loads_apart_and_says_nothing),
      T(a_load_binds_approvals_when_asked),
      T(the_sources_set_name_the_files_edited),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  client_home_remove(home);
  return rc;
}
