/* What a long-running front end (`mcphost batch`) takes of the public
 * client API beside its operations: mcphost_server_get, roots set
 * while it runs (mcphost_set_roots), the option "keep", and results
 * taken without a copy (MCPHOST_REQUEST_TAKE_RESULT). Through
 * libmcphost.so.1 and the public header alone, against the demo server.
 *
 * usage: test_client_batch DEMO_SERVER */
#include <mcphost/client.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "client_test.h"

static const char *demo;
static char home[] = "/tmp/mcphost-client-batch.XXXXXX";

/* A client of the demo server "demo" and of "off", which the user's
 * settings disable. */
static mcphost_client *demo_client(int mode) {
  char path[4200], config[4400];
  snprintf(path, sizeof path, "%s/config/mcphost/settings.json", home);
  FILE *f = fopen(path, "w");
  if (!f)
    return NULL;
  fputs("{\"disabledMcpServers\": [\"off\"]}\n", f);
  fclose(f);
  chmod(path, 0600);
  snprintf(config, sizeof config,
           "{\"mcpServers\": {\"demo\": {\"command\": \"%s\"}, "
           "\"off\": {\"command\": \"%s\"}}}",
           demo, demo);
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {config};
  o.configs = configs;
  o.nconfigs = 1;
  o.loop_mode = mode;
  return client_made(&o);
}

static size_t index_of(const mcphost_client *c, const char *name) {
  size_t i = 0;
  while (i < mcphost_server_count(c) &&
         strcmp(mcphost_server_name(c, i), name) != 0)
    i++;
  return i;
}

TEST(a_disabled_server_is_not_startable) {
  mcphost_client *c = demo_client(MCPHOST_LOOP_THREAD);
  CHECK(c != NULL);
  if (!c)
    return;
  size_t on = index_of(c, "demo"), off = index_of(c, "off");
  CHECK(on < mcphost_server_count(c) && off < mcphost_server_count(c));
  mcphost_server_state st = MCPHOST_SERVER_STATE_INIT;
  CHECK(mcphost_server_get(c, on, &st, NULL) == MCPHOST_OK && st.startable);
  CHECK(mcphost_server_get(c, off, &st, NULL) == MCPHOST_OK && !st.startable);
  CHECK(mcphost_server_get(c, mcphost_server_count(c), &st, NULL) ==
        MCPHOST_ENOTFOUND);
  mcphost_client_free(c);
}

TEST(roots_are_set_resolved_and_refused_by_element) {
  mcphost_client *c = demo_client(MCPHOST_LOOP_THREAD);
  CHECK(c != NULL);
  if (!c)
    return;
  CHECK(mcphost_connect(c, "demo", NULL) == MCPHOST_OK);
  char dirs[4300], *roots = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  snprintf(dirs, sizeof dirs, "[\"%s\", \"%s/config\"]", home, home);
  CHECK(mcphost_set_roots(c, "demo", dirs, &roots, &err) == MCPHOST_OK);
  char want[4300];
  snprintf(want, sizeof want, "\"uri\":\"file://%s\"", home);
  CHECK_CONTAINS(roots, want);
  CHECK_CONTAINS(roots, "\"name\":\"config\"");
  mcphost_free(roots);
  CHECK(mcphost_set_roots(c, NULL, "[]", NULL, &err) == MCPHOST_OK);

  snprintf(dirs, sizeof dirs, "[\"%s\", \"%s/none\"]", home, home);
  roots = (char *)1;
  CHECK(mcphost_set_roots(c, NULL, dirs, &roots, &err) == MCPHOST_EUSAGE);
  CHECK(roots == NULL);
  CHECK_CONTAINS(err.message, "\"roots\"[1]: ");
  CHECK(mcphost_set_roots(c, NULL, "[7]", NULL, &err) == MCPHOST_EUSAGE);
  CHECK_STR(err.message, "\"roots\"[0]: must be a directory path");
  CHECK(mcphost_set_roots(c, NULL, "{}", NULL, &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "must be a list of directories");
  CHECK(mcphost_set_roots(c, "dem", "[]", NULL, &err) == MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, "no server named \"dem\" is configured");
  CHECK_CONTAINS(err.message, "\"demo\"");

  CHECK(mcphost_set_option(c, "no-roots", NULL, &err) == MCPHOST_OK);
  CHECK(mcphost_set_roots(c, NULL, "[]", NULL, &err) == MCPHOST_EUSAGE);
  CHECK_STR(err.message, "roots are off (--no-roots)");
  mcphost_client_free(c);
}

typedef struct taken {
  int done;
  char *text;
  size_t len;
  int code;
} taken;

static void on_taken(void *ud, const char *result, size_t len,
                     const mcphost_error *err) {
  taken *t = ud;
  t->text = (char *)result; /* ours: MCPHOST_REQUEST_TAKE_RESULT */
  t->len = len;
  t->code = err ? err->code : MCPHOST_OK;
  t->done = 1;
}

/* A call with the flag on the caller's loop: the result's text is the
 * caller's to free (once: ASan's build sees a second free). */
static void take_one(mcphost_client *c, const char *tool, const char *args,
                     taken *t) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = tool;
  rq.arguments = args;
  rq.flags = MCPHOST_REQUEST_TAKE_RESULT;
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = on_taken;
  cb.ud = t;
  CHECK(mcphost_start(c, &rq, &cb, NULL) > 0);
  CHECK(mcphost_run_until(c, &t->done, 0) == MCPHOST_OK);
}

TEST(a_result_taken_is_the_callers_and_keep_is_an_option) {
  mcphost_client *c = demo_client(MCPHOST_LOOP_CALLER);
  CHECK(c != NULL);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "keep", NULL, &err) == MCPHOST_OK);
  taken t = {0};
  take_one(c, "demo/echo", "{\"message\": \"taken\"}", &t);
  CHECK(t.code == MCPHOST_OK && t.text != NULL);
  CHECK_STR(t.text,
            "{\"content\":[{\"type\":\"text\",\"text\":\"Echo: taken\"}]}");
  CHECK(t.len == strlen(t.text));
  mcphost_free(t.text);
  /* A result the library made (a list's) is handed over too. */
  taken l = {0};
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_LIST;
  rq.server = "demo";
  rq.name = "prompts";
  rq.flags = MCPHOST_REQUEST_TAKE_RESULT;
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = on_taken;
  cb.ud = &l;
  CHECK(mcphost_start(c, &rq, &cb, NULL) > 0);
  CHECK(mcphost_run_until(c, &l.done, 0) == MCPHOST_OK);
  CHECK(l.code == MCPHOST_OK && l.text != NULL);
  CHECK_CONTAINS(l.text, "\"prompts\":[");
  mcphost_free(l.text);
  /* An error gives no text to take. */
  taken e = {0};
  take_one(c, "demo/nope", NULL, &e);
  CHECK(e.code == MCPHOST_ENOTFOUND && e.text == NULL);
  mcphost_client_free(c);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_client_batch DEMO_SERVER\n");
    return 2;
  }
  demo = argv[1];
  if (client_home_make(home) != 0) {
    perror("mkdtemp");
    return 1;
  }
  if (chdir(home) != 0) { /* no project of the machine's */
    perror("chdir");
    return 1;
  }
  static const test_case tests[] = {
      T(a_disabled_server_is_not_startable),
      T(roots_are_set_resolved_and_refused_by_element),
      T(a_result_taken_is_the_callers_and_keep_is_an_option)};
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
  if (system(cmd) != 0)
    fprintf(stderr, "  could not remove %s\n", home);
  return rc;
}
