/* The client API's plugins (sdk/include/mcphost/client.h, "plugins")
 * through libmcphost.so.1, as an embedding program uses them: the loaded
 * plugins as JSON, their check in a child process (this very program
 * started again, taken over by the library), and the commands plugins
 * add, run to their exit status. This file includes nothing but the
 * public header. The plugins are tests/fixtures/fixture_services.c,
 * built twice (commands "fxa" and "fxb").
 *
 * usage: test_client_plugins SERVICES_PLUGIN_DIR */
#include <mcphost/client.h>

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "client_test.h"

static const char *fixtures; /* the directory of fx-services-{a,b}.so */

static mcphost_client *client_in(int mode, const char *dir) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *dirs[] = {dir};
  o.plugin_dirs = dirs;
  o.nplugin_dirs = 1;
  o.strict = 1;
  o.loop_mode = mode;
  return client_made(&o);
}

TEST(plugins_json_lists_the_search_path_the_plugins_and_sdk) {
  mcphost_client *c = client_in(MCPHOST_LOOP_THREAD, fixtures);
  CHECK(c != NULL);
  char *json = NULL;
  size_t len = 0;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_plugins_json(c, 0, &json, &len, &err) == MCPHOST_OK);
  CHECK(json && len == strlen(json));
  char want[4200];
  snprintf(want, sizeof want,
           "\"searchPath\":[{\"dir\":\"%s\",\"origin\":\"plugin_dirs\"}",
           fixtures);
  CHECK_CONTAINS(json, want);
  CHECK_CONTAINS(json, "\"origin\":\"built-in\"");
  CHECK_CONTAINS(json, "\"id\":\"test.services.a\",");
  CHECK_CONTAINS(json, "\"status\":\"loaded\"");
  /* The type the library serves itself, which a configuration may name. */
  CHECK_CONTAINS(json, "\"builtin\":[{\"type\":\"sdk\",\"id\":"
                       "\"mcphost.inproc\"");
  CHECK_CONTAINS(json, "\"local\":true}]");
  mcphost_free(json);

  /* The same without JSON. */
  const char *dir, *origin;
  char why[300];
  CHECK(mcphost_plugin_dir(c, 0, &dir, &origin, why, sizeof why, &err) ==
        MCPHOST_OK);
  CHECK_STR(dir, fixtures);
  CHECK_STR(origin, "plugin_dirs");
  CHECK_STR(why, "");
  size_t n = 0;
  while (mcphost_plugin_dir(c, n, &dir, &origin, NULL, 0, &err) == MCPHOST_OK) {
    n++;
  }
  CHECK_STR(origin, "built-in");
  CHECK(mcphost_plugin_dir(c, n, &dir, &origin, NULL, 0, &err) ==
        MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, "no directory");
  mcphost_plugin_info info = MCPHOST_PLUGIN_INFO_INIT;
  bool saw_a = false, saw_sdk = false;
  for (size_t i = 0; mcphost_plugin_get(c, i, &info, &err) == MCPHOST_OK; i++) {
    const char *type, *by;
    if (info.id && strcmp(info.id, "test.services.a") == 0) {
      saw_a = info.loaded && !info.builtin && info.abi_major == 1 &&
              info.ntypes == 0 && strstr(info.file, "fx-services-a.so");
    } else if (info.builtin) {
      saw_sdk = info.ntypes == 1 &&
                mcphost_plugin_type(c, i, 0, &type, &by, &err) == MCPHOST_OK &&
                strcmp(type, "sdk") == 0 && by == NULL &&
                strcmp(info.file, "(built in)") == 0;
      CHECK(mcphost_plugin_type(c, i, 1, &type, &by, &err) ==
            MCPHOST_ENOTFOUND);
      CHECK_CONTAINS(err.message, "no type 1 of plugin");
    }
  }
  CHECK(saw_a);
  CHECK(saw_sdk);
  CHECK_CONTAINS(err.message, "mcphost_plugin_get: no plugin file");
  /* A struct_size that covers nothing is the caller's error. */
  info.struct_size = 4;
  CHECK(mcphost_plugin_get(c, 0, &info, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "struct_size");

  json = (char *)"untouched";
  CHECK(mcphost_plugins_json(c, 1u << 7, &json, NULL, &err) == MCPHOST_EUSAGE);
  CHECK(json == NULL);
  CHECK_CONTAINS(err.message, "mcphost_plugins_json: unknown flags 0x80");
  CHECK(mcphost_plugins_json(NULL, 0, &json, NULL, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "the client is NULL");
  mcphost_client_free(c);
}

TEST(a_missing_plugin_directory_is_said) {
  mcphost_client *c =
      client_in(MCPHOST_LOOP_CALLER, "/nonexistent/mcphost-plugins");
  CHECK(c != NULL);
  const char *dir, *origin;
  char why[300];
  CHECK(mcphost_plugin_dir(c, 0, &dir, &origin, why, sizeof why, NULL) ==
        MCPHOST_OK);
  CHECK_STR(why, "No such file or directory");
  char *json = NULL;
  CHECK(mcphost_plugins_json(c, 0, &json, NULL, NULL) == MCPHOST_OK);
  CHECK_CONTAINS(json, "{\"dir\":\"/nonexistent/mcphost-plugins\","
                       "\"origin\":\"plugin_dirs\",\"missing\":\"No such "
                       "file or directory\"}");
  mcphost_free(json);
  mcphost_client_free(c);
}

TEST(commands_are_listed_with_and_without_help) {
  mcphost_client *c = client_in(MCPHOST_LOOP_THREAD, fixtures);
  char *json = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_commands_json(c, 0, &json, NULL, &err) == MCPHOST_OK);
  CHECK_CONTAINS(json, "{\"name\":\"fxa\"}");
  CHECK_CONTAINS(json, "{\"name\":\"fxb\"}");
  mcphost_free(json);
  CHECK(mcphost_commands_json(c, MCPHOST_COMMANDS_HELP, &json, NULL, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(json, "{\"name\":\"fxa\",\"usage\":\"fxa WHAT ...\","
                       "\"help\":\"exercise the ABI 1.6 host services "
                       "(test fixture)\"}");
  mcphost_free(json);

  CHECK(mcphost_command_info(c, "fxb", &json, NULL, &err) == MCPHOST_OK);
  CHECK_CONTAINS(json, "{\"name\":\"fxb\",\"usage\":\"fxb WHAT ...\"");
  mcphost_free(json);
  json = (char *)"untouched";
  CHECK(mcphost_command_info(c, "fxz", &json, NULL, &err) == MCPHOST_ENOTFOUND);
  CHECK(json == NULL);
  CHECK_CONTAINS(err.message, "no plugin offers the command \"fxz\"");
  CHECK_CONTAINS(err.message, "did you mean \"fxa\" or \"fxb\"?");
  CHECK(mcphost_command_info(c, "", &json, NULL, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "no command name");
  mcphost_client_free(c);
}

/* Runs `name` with the words given: the status, the exit status in *st. */
static int run_words(mcphost_client *c, const char *name, int argc,
                     const char *const *argv, int *st, mcphost_error *err) {
  mcphost_command cmd = MCPHOST_COMMAND_INIT;
  cmd.name = name;
  cmd.argc = argc;
  cmd.argv = argv;
  return mcphost_command_run(c, &cmd, st, err);
}

static void commands_run_to_their_exit_status(int mode) {
  mcphost_client *c = client_in(mode, fixtures);
  CHECK(c != NULL);
  mcphost_error err = MCPHOST_ERROR_INIT;
  int st = -1;
  const char *set[] = {"fxa", "secret-set", "k", "v"};
  CHECK(run_words(c, "fxa", 4, set, &st, &err) == MCPHOST_OK);
  CHECK(st == 0);
  CHECK_STR(err.message, "");
  /* A secret of the other plugin is its own: fxb has none (exit 3). */
  const char *get[] = {"fxb", "secret-get", "k"};
  CHECK(run_words(c, "fxb", 3, get, &st, &err) == MCPHOST_OK);
  CHECK(st == 3);

  /* The plugin refuses to start: its message, its code. */
  const char *bad[] = {"fxa", "bogus"};
  CHECK(run_words(c, "fxa", 2, bad, &st, &err) == MCPHOST_EUSAGE);
  CHECK_STR(err.message, "unknown: bogus");
  /* No plugin offers it. */
  const char *none[] = {"nope"};
  CHECK(run_words(c, "nope", 1, none, &st, &err) == MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, "no plugin offers the command \"nope\"");
  /* The caller's mistakes. */
  CHECK(run_words(c, "fxa", 0, set, &st, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "argc must be 1 or more");
  CHECK(run_words(c, NULL, 1, set, &st, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "the command has no name");
  mcphost_command small = MCPHOST_COMMAND_INIT;
  small.struct_size = 8;
  CHECK(mcphost_command_run(c, &small, &st, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "struct_size");
  mcphost_client_free(c);
}

TEST(commands_run_on_the_librarys_thread) {
  commands_run_to_their_exit_status(MCPHOST_LOOP_THREAD);
}

TEST(commands_run_in_the_callers_loop) {
  commands_run_to_their_exit_status(MCPHOST_LOOP_CALLER);
}

typedef struct held {
  mcphost_client *c;
  int rc, st;
  mcphost_error err;
  _Atomic bool ended;
} held;

static void *run_hold(void *ud) {
  held *h = ud;
  const char *argv[] = {"fxa", "hold"};
  h->rc = run_words(h->c, "fxa", 2, argv, &h->st, &h->err);
  h->ended = true;
  return NULL;
}

/* On the loop, where the fixture sets FIXTURE_HELD_RUN (the environment
 * is read and written by one thread only: setenv beside a getenv of
 * another thread is a race): the command is interrupted once it holds. */
static void interrupt_when_held(void *ud) {
  held *h = ud;
  if (h->ended) {
    return; /* it ended by itself: the checks below say so */
  }
  if (getenv("FIXTURE_HELD_RUN")) {
    mcphost_command_interrupt(h->c);
  } else if (!mcphost_timer_start(h->c, 2, interrupt_when_held, h)) {
    mcphost_command_interrupt(h->c);
  }
}

TEST(an_interrupt_ends_a_command_that_does_not_finish) {
  unsetenv("FIXTURE_HELD_RUN");
  held h = {.c = client_in(MCPHOST_LOOP_THREAD, fixtures),
            .err = MCPHOST_ERROR_INIT};
  pthread_t t;
  pthread_create(&t, NULL, run_hold, &h);
  /* The command says it holds its run by setting FIXTURE_HELD_RUN; it
   * finishes only when another plugin tried to end it, which none does
   * here. */
  CHECK(mcphost_post(h.c, interrupt_when_held, &h, NULL) == MCPHOST_OK);
  pthread_join(t, NULL);
  if (h.rc != MCPHOST_ECANCELED) {
    fprintf(stderr, "  hold: %s: %s\n", mcphost_status_name(h.rc),
            h.err.message);
  }
  CHECK(h.rc == MCPHOST_ECANCELED);
  CHECK_STR(h.err.message, "fxa: interrupted");
  /* The client goes on: another command runs. */
  const char *set[] = {"fxa", "secret-set", "k2", "v"};
  int st = -1;
  CHECK(run_words(h.c, "fxa", 4, set, &st, NULL) == MCPHOST_OK && st == 0);
  mcphost_client_free(h.c);
}

TEST(a_plugin_is_checked_in_a_child_of_this_program) {
  mcphost_client *c = client_in(MCPHOST_LOOP_THREAD, fixtures);
  char file[4200], *json = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  snprintf(file, sizeof file, "%s/fx-services-a.so", fixtures);
  CHECK(mcphost_plugin_check(c, file, 0, &json, NULL, &err) == MCPHOST_OK);
  CHECK_CONTAINS(json, "\"verdict\":\"loadable\",\"class\":null");
  CHECK_CONTAINS(json, "\"exitCode\":0,\"step\":\"done\"");
  CHECK_CONTAINS(json, "\"id\":\"test.services.a\"");
  CHECK_CONTAINS(json, "\"commands\":[{\"name\":\"fxa\"");
  mcphost_free(json);

  /* A missing file is a verdict, naming it. */
  CHECK(mcphost_plugin_check(c, "/nonexistent/nothing.so", 5000, &json, NULL,
                             &err) == MCPHOST_OK);
  CHECK_CONTAINS(json, "\"file\":\"/nonexistent/nothing.so\","
                       "\"verdict\":\"not loadable\",\"class\":\"file\"");
  CHECK_CONTAINS(json, "cannot open /nonexistent: No such file");
  CHECK_CONTAINS(json, "\"exitCode\":20");
  mcphost_free(json);

  /* A file that is no plugin (a text file, private as the loader asks). */
  char dir[] = "/tmp/test_client_plugins.XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  snprintf(file, sizeof file, "%s/text.so", dir);
  FILE *f = fopen(file, "w");
  fputs("not a shared object\n", f);
  fclose(f);
  chmod(file, 0644);
  CHECK(mcphost_plugin_check(c, file, 5000, &json, NULL, &err) == MCPHOST_OK);
  CHECK_CONTAINS(json, "\"verdict\":\"not loadable\",\"class\":\"load\"");
  CHECK_CONTAINS(json, "too short for an ELF file");
  CHECK_CONTAINS(json, "\"exitCode\":21");
  mcphost_free(json);
  remove(file);
  remove(dir);

  CHECK(mcphost_plugin_check(c, NULL, 0, &json, NULL, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "no plugin file given");
  mcphost_client_free(c);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_client_plugins SERVICES_PLUGIN_DIR\n");
    return 2;
  }
  fixtures = argv[1];
  unsetenv("MCPHOST_PLUGIN_PATH");
  /* A home of its own: the fixture's secrets go under XDG_STATE_HOME. */
  char home[] = "/tmp/test_client_plugins.XXXXXX";
  if (!mkdtemp(home)) {
    return 2;
  }
  char path[4200];
  setenv("HOME", home, 1);
  snprintf(path, sizeof path, "%s/state", home);
  setenv("XDG_STATE_HOME", path, 1);
  snprintf(path, sizeof path, "%s/config", home);
  setenv("XDG_CONFIG_HOME", path, 1);
  snprintf(path, sizeof path, "%s/cache", home);
  setenv("XDG_CACHE_HOME", path, 1);
  static const test_case tests[] = {
      T(plugins_json_lists_the_search_path_the_plugins_and_sdk),
      T(a_missing_plugin_directory_is_said),
      T(commands_are_listed_with_and_without_help),
      T(commands_run_on_the_librarys_thread),
      T(commands_run_in_the_callers_loop),
      T(an_interrupt_ends_a_command_that_does_not_finish),
      T(a_plugin_is_checked_in_a_child_of_this_program),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  char rm[4300];
  snprintf(rm, sizeof rm, "rm -rf '%s'", home);
  if (system(rm) != 0) {
    fprintf(stderr, "could not remove %s\n", home);
  }
  return rc;
}
