/* What the client library tells the embedding program besides results,
 * through the public header (libmcphost.so.1): a JSON-RPC error's `data`
 * (MCPHOST_REQUEST_ERROR_DATA), against tests/servers/error_server.c over
 * a real pipe, and the library's log (mcphost_options.on_log) instead of
 * stderr: the configuration's messages and the host's log lines.
 *
 * usage: test_client_messages ERROR_SERVER */
#include <mcphost/client.h>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "client_test.h"
#include "servers/error_server.h"

static const char *error_server;
static char home[] = "/tmp/test_client_messages.XXXXXX";

/* mcphost_run of `kind` (a tool call by reference, or the request
 * `name` of the server errs) with `flags`. */
static int run(mcphost_client *c, int kind, const char *name, uint32_t flags,
               char **out, size_t *len, mcphost_error *err) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = kind;
  if (kind == MCPHOST_OP_REQUEST) {
    rq.server = "errs";
    rq.method = name;
  } else {
    rq.name = name;
  }
  rq.flags = flags;
  return mcphost_run(c, &rq, out, len, err);
}

TEST(an_errors_data_comes_back_as_sent_when_asked) {
  mcphost_client *c = client_of(config_of("errs", error_server, NULL),
                                MCPHOST_LOOP_THREAD, NULL, NULL, NULL);
  CHECK(c != NULL);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  char *out = (char *)1;
  size_t len = 0;
  /* Without the flag: the code and the message, no text. */
  int rc = run(c, MCPHOST_OP_CALL_TOOL, "errs/refuse", 0, &out, &len, &err);
  CHECK(rc < 0);
  CHECK(out == NULL);
  CHECK(err.rpc_code == -32602);
  CHECK_CONTAINS(err.message, "refused");
  CHECK_STR(err.server, "errs");
  int without = rc;
  /* With it: the same error, and the data as the server wrote it (only
   * the whitespace between tokens gone). */
  rc = run(c, MCPHOST_OP_CALL_TOOL, "errs/refuse", MCPHOST_REQUEST_ERROR_DATA,
           &out, &len, &err);
  CHECK(rc == without);
  CHECK(err.code == rc && err.rpc_code == -32602);
  CHECK_STR(out, ERROR_SERVER_DATA_MIN);
  CHECK(out && len == strlen(ERROR_SERVER_DATA_MIN));
  mcphost_free(out);
  /* Any request: -32042's data.elicitations, for the program to open. */
  rc = run(c, MCPHOST_OP_REQUEST, "elicit/needed", MCPHOST_REQUEST_ERROR_DATA,
           &out, &len, &err);
  CHECK(rc == MCPHOST_EPROTOCOL);
  CHECK(err.rpc_code == -32042);
  CHECK_STR(out, ERROR_SERVER_ELICIT_MIN);
  mcphost_free(out);
  /* An error without data: no text, as without the flag. */
  out = (char *)1;
  rc = run(c, MCPHOST_OP_REQUEST, "bare/error", MCPHOST_REQUEST_ERROR_DATA,
           &out, &len, &err);
  CHECK(rc == MCPHOST_EPROTOCOL);
  CHECK(err.rpc_code == -32000);
  CHECK(out == NULL);
  /* An error that is not the server's answer: none either. */
  out = (char *)1;
  rc = run(c, MCPHOST_OP_CALL_TOOL, "nosuch/refuse", MCPHOST_REQUEST_ERROR_DATA,
           &out, &len, &err);
  CHECK(rc == MCPHOST_ENOTFOUND);
  CHECK(err.rpc_code == 0);
  CHECK(out == NULL);
  mcphost_client_free(c);
}

typedef struct outcome {
  bool done;
  char *text;
  int code, rpc_code;
} outcome;

static void on_done(void *ud, const char *result, size_t len,
                    const mcphost_error *err) {
  outcome *o = ud;
  o->done = true;
  o->text = result ? strndup(result, len) : NULL;
  o->code = err ? err->code : MCPHOST_OK;
  o->rpc_code = err ? err->rpc_code : 0;
}

/* done gets the data as result_json and the error beside it. */
TEST(done_gets_the_data_beside_the_error) {
  mcphost_client *c = client_of(config_of("errs", error_server, NULL),
                                MCPHOST_LOOP_CALLER, NULL, NULL, NULL);
  CHECK(c != NULL);
  if (!c)
    return;
  outcome o = {0};
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_REQUEST;
  rq.server = "errs";
  rq.method = "elicit/needed";
  rq.flags = MCPHOST_REQUEST_ERROR_DATA;
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = on_done;
  cb.ud = &o;
  CHECK(mcphost_start(c, &rq, &cb, NULL) > 0);
  while (mcphost_perform(c) > 0) {
    /* mcphost_perform does not wait: wait as a program's loop would. */
    struct pollfd p = {.fd = mcphost_fd(c), .events = POLLIN};
    poll(&p, 1, mcphost_timeout_ms(c));
  }
  CHECK(o.done);
  CHECK(o.code == MCPHOST_EPROTOCOL && o.rpc_code == -32042);
  CHECK_STR(o.text, ERROR_SERVER_ELICIT_MIN);
  free(o.text);
  mcphost_client_free(c);
}

/* ---- the log ---- */

typedef struct log_seen {
  pthread_mutex_t lock;
  char text[16384];
  size_t len;
} log_seen;

static void on_log(void *ud, int level, const char *source,
                   const char *message) {
  log_seen *s = ud;
  pthread_mutex_lock(&s->lock);
  int n = snprintf(s->text + s->len, sizeof s->text - s->len, "%d|%s|%s\n",
                   level, source ? source : "-", message);
  if (n > 0)
    s->len += (size_t)n < sizeof s->text - s->len ? (size_t)n : 0;
  pthread_mutex_unlock(&s->lock);
}

/* The user's settings hold a bad entry (skipped, a configuration error)
 * and one with a key nothing reads (a warning about that server). */
static void write_user_settings(void) {
  char path[4200];
  snprintf(path, sizeof path, "%s/config/mcphost/settings.json", home);
  FILE *f = fopen(path, "w");
  if (!f)
    return;
  fprintf(f,
          "{\"mcpServers\": {\"broken\": {\"command\": 5}, "
          "\"errs\": {\"command\": \"%s\", \"disabled\": true}}}\n",
          error_server);
  fclose(f);
  chmod(path, 0600);
}

/* A client of every scope that connects errs (a server's warnings wait
 * for its first use), stderr caught in a file meanwhile: what the client
 * wrote there; its log in *seen when `seen` is not NULL. */
static char *client_with_stderr(log_seen *seen, int verbosity) {
  static char err_text[16384];
  char path[4200];
  snprintf(path, sizeof path, "%s/stderr", home);
  fflush(stderr);
  int saved = dup(2);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (saved < 0 || fd < 0)
    return NULL;
  dup2(fd, 2);
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.verbosity = verbosity;
  if (seen) {
    o.on_log = on_log;
    o.ud = seen;
  }
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_client_new(&o, &c, &err);
  if (rc == MCPHOST_OK)
    mcphost_connect(c, "errs", &err);
  mcphost_client_free(c);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  ssize_t n = pread(fd, err_text, sizeof err_text - 1, 0);
  close(fd);
  err_text[n > 0 ? n : 0] = '\0';
  if (rc != MCPHOST_OK)
    fprintf(stderr, "  client: %s: %s\n", mcphost_status_name(rc), err.message);
  return err_text;
}

TEST(configuration_messages_go_to_on_log_and_not_stderr) {
  write_user_settings();
  /* Without on_log: stderr, as today. */
  char *err = client_with_stderr(NULL, 0);
  CHECK_CONTAINS(err, "mcphost: config error: ");
  CHECK_CONTAINS(err, "server \"broken\"");
  CHECK_CONTAINS(err, "mcphost: config warning: ");
  CHECK_CONTAINS(err, "\"disabled\" is not read");
  /* With it: the same messages, each with its level and server, and
   * nothing on stderr. */
  log_seen seen = {.lock = PTHREAD_MUTEX_INITIALIZER};
  err = client_with_stderr(&seen, 0);
  CHECK_STR(err, "");
  CHECK_CONTAINS(seen.text, "0|-|");
  CHECK_CONTAINS(seen.text, "settings.json: server \"broken\"");
  CHECK_CONTAINS(seen.text, "1|errs|");
  CHECK_CONTAINS(seen.text, "\"disabled\" is not read");
  CHECK(strstr(seen.text, "mcphost: ") == NULL);
}

/* The host's own log lines (a server's stderr, its connection, at -vv)
 * take the same way. */
TEST(the_hosts_log_lines_go_to_on_log_too) {
  write_user_settings();
  log_seen seen = {.lock = PTHREAD_MUTEX_INITIALIZER};
  char *err = client_with_stderr(&seen, 2);
  CHECK_STR(err, "");
  CHECK_CONTAINS(seen.text, "|errs|");
  CHECK(strstr(seen.text, "2|errs|") || strstr(seen.text, "3|errs|"));
}

/* A front end's own entries (mcphost_log) take the library's way: to
 * on_log with their level and source, as the verbosity lets them. */
TEST(a_programs_own_entries_take_the_log_too) {
  log_seen seen = {.lock = PTHREAD_MUTEX_INITIALIZER};
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.loop_mode = MCPHOST_LOOP_CALLER; /* mcphost_log runs on the loop */
  o.strict = 1;
  o.on_log = on_log;
  o.ud = &seen;
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_client_new(&o, &c, &err) == MCPHOST_OK);
  CHECK(mcphost_log(c, MCPHOST_LOG_WARN, "serve", "refusing a connection",
                    &err) == MCPHOST_OK);
  CHECK(mcphost_log(c, MCPHOST_LOG_ERROR, NULL, "no source", &err) ==
        MCPHOST_OK);
  /* Info is below the default verbosity: not passed. */
  CHECK(mcphost_log(c, MCPHOST_LOG_INFO, "serve", "a quiet note", &err) ==
        MCPHOST_OK);
  CHECK(mcphost_log(c, 7, "serve", "x", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "unknown level 7");
  CHECK(mcphost_log(c, MCPHOST_LOG_WARN, "serve", NULL, &err) ==
        MCPHOST_EUSAGE);
  mcphost_client_free(c);
  CHECK_CONTAINS(seen.text, "1|serve|refusing a connection\n");
  CHECK_CONTAINS(seen.text, "0|-|no source\n");
  CHECK(strstr(seen.text, "a quiet note") == NULL);
  CHECK(strstr(seen.text, "|x\n") == NULL);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_client_messages ERROR_SERVER\n");
    return 2;
  }
  error_server = realpath(argv[1], NULL); /* the tests chdir */
  if (!error_server)
    return 2;
  /* No project around the working directory either. */
  if (client_home_make(home) != 0)
    return 2;
  if (chdir(home) != 0)
    return 2;
  static const test_case tests[] = {
      T(an_errors_data_comes_back_as_sent_when_asked),
      T(done_gets_the_data_beside_the_error),
      T(configuration_messages_go_to_on_log_and_not_stderr),
      T(the_hosts_log_lines_go_to_on_log_too),
      T(a_programs_own_entries_take_the_log_too),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  client_home_remove(home);
  return rc;
}
