/* The public client API (sdk/include/mcphost/client.h) through
 * libmcphost.so.1, as an embedding program uses it: this file includes
 * nothing but the public header. Real servers over real pipes: the demo
 *
 * server, tests/servers/elicit_server.c, resource_server.py and
 * typed_server.py.
 *
 * usage: test_client_api DEMO_SERVER ELICIT_SERVER TESTS_SERVERS_DIR
 *                        FIXTURE_PLUGINS_DIR */
#include <mcphost/client.h>

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "client_test.h"

static const char *demo, *elicit, *servers, *plugins;

/* Runs `kind` on `server`/`name` with `args`: the status, the result in
 * *out (or NULL), the error in *err. */
static int run(mcphost_client *c, int kind, const char *server,
               const char *name, const char *args, char **out,
               mcphost_error *err) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = kind;
  rq.server = server;
  rq.name = name;
  rq.arguments = args;
  if (kind == MCPHOST_OP_REQUEST) {
    rq.method = name;
    rq.name = NULL;
  }
  return mcphost_run(c, &rq, out, NULL, err);
}

TEST(handshake_refuses_another_major_and_a_newer_minor) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  mcphost_client *c = (mcphost_client *)1;
  mcphost_error err = MCPHOST_ERROR_INIT;
  o.api_major = 2;
  CHECK(mcphost_client_new(&o, &c, &err) == MCPHOST_EABI);
  CHECK(c == NULL);
  CHECK_CONTAINS(err.message, "API 2.0");
  o.api_major = MCPHOST_API_MAJOR;
  o.api_minor = MCPHOST_API_MINOR + 1;
  CHECK(mcphost_client_new(&o, &c, &err) == MCPHOST_EABI);
  o.api_minor = MCPHOST_API_MINOR;
  o.struct_size = 8;
  CHECK(mcphost_client_new(&o, &c, &err) == MCPHOST_EABI);
  CHECK_STR(mcphost_status_name(MCPHOST_EABI), "MCPHOST_EABI");
  CHECK_STR(mcphost_status_name(-1000), "MCPHOST_E?");
  int major = 0, minor = -1;
  CHECK(mcphost_version(&major, &minor) != NULL);
  CHECK(major == MCPHOST_API_MAJOR && minor == MCPHOST_API_MINOR);
}

TEST(a_bad_configuration_is_the_callers_error) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {"{\"mcpServers\": {\"x\": {\"command\": 5}}}"};
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1;
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_client_new(&o, &c, &err) == MCPHOST_EUSAGE);
  CHECK(c == NULL);
  CHECK_CONTAINS(err.message, "config error");
  CHECK_CONTAINS(err.message, "command");
}

/* The demo server, own thread: connect, lists, call, read, prompt. */
TEST(own_thread_lists_calls_reads_and_prompts) {
  mcphost_client *c = client_of(config_of("demo", demo, NULL),
                                MCPHOST_LOOP_THREAD, NULL, NULL, NULL);
  CHECK(c != NULL);
  if (!c)
    return;
  CHECK(mcphost_server_count(c) == 1);
  CHECK_STR(mcphost_server_name(c, 0), "demo");
  CHECK(mcphost_server_name(c, 1) == NULL);
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_connect(c, "demo", &err) == MCPHOST_OK);
  char *out = NULL;
  CHECK(run(c, MCPHOST_OP_CONNECT, "demo", NULL, NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(out, "\"serverInfo\":{\"name\":\"mcphost-demo\"");
  mcphost_free(out);

  CHECK(run(c, MCPHOST_OP_LIST, "demo", "tools", NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK(out && strncmp(out, "{\"tools\":[", 10) == 0);
  CHECK_CONTAINS(out, "\"name\":\"echo\"");
  mcphost_free(out);
  CHECK(run(c, MCPHOST_OP_LIST, "demo", "prompts", NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(out, "\"name\":\"greet\"");
  mcphost_free(out);
  CHECK(run(c, MCPHOST_OP_LIST, "demo", "resources", NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(out, "\"resources\":[");
  mcphost_free(out);

  CHECK(run(c, MCPHOST_OP_CALL_TOOL, NULL, "demo/echo", "{\"message\": \"hi\"}",
            &out, &err) == MCPHOST_OK);
  CHECK_STR(out, "{\"content\":[{\"type\":\"text\",\"text\":\"Echo: hi\"}]}");
  char *text = NULL;
  size_t tlen = 0;
  int is_error = -1;
  CHECK(mcphost_result_text(out, strlen(out), &text, &tlen, &is_error, &err) ==
        MCPHOST_OK);
  CHECK(tlen == 8 && memcmp(text, "Echo: hi", 8) == 0);
  CHECK(is_error == 0);
  mcphost_free(text);
  mcphost_free(out);

  /* mcp__ names, as the CLI takes them; isError is a result. */
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, NULL, "mcp__demo__fail", NULL, &out,
            &err) == MCPHOST_OK);
  CHECK(mcphost_result_text(out, strlen(out), &text, NULL, &is_error, NULL) ==
        MCPHOST_OK);
  CHECK(is_error == 1);
  mcphost_free(text);
  mcphost_free(out);

  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "demo", "add", "{\"a\": 2, \"b\": 3}",
            &out, &err) == MCPHOST_OK);
  CHECK_CONTAINS(out, "\"text\":\"5\"");
  mcphost_free(out);

  CHECK(run(c, MCPHOST_OP_READ, "demo", "demo://readme", NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(out, "\"contents\":[");
  mcphost_free(out);
  CHECK(run(c, MCPHOST_OP_GET_PROMPT, "demo", "greet", "{\"name\": \"Ada\"}",
            &out, &err) == MCPHOST_OK);
  CHECK_CONTAINS(out, "Ada");
  mcphost_free(out);
  CHECK(run(c, MCPHOST_OP_REQUEST, "demo", "ping", NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK_STR(out, "{}");
  mcphost_free(out);
  mcphost_client_free(c);
}

/* Arguments and results pass as JSON text, exactly: a number token of
 * 20 digits is not rounded, U+0000 stays in its string both ways. */
TEST(json_passes_exactly) {
  char cfg[4096];
  snprintf(cfg, sizeof cfg,
           "{\"mcpServers\": {\"t\": {\"command\": \"python3\", \"args\": "
           "[\"%s/typed_server.py\"]}}}",
           servers);
  mcphost_client *c = client_of(cfg, MCPHOST_LOOP_THREAD, NULL, NULL, NULL);
  if (!c)
    return;
  char *out = NULL;
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "t", "exact",
            "{\"n\": 12345678901234567890, \"k\": \"a\\u0000b\"}", &out,
            NULL) == MCPHOST_OK);
  CHECK_CONTAINS(out, "\"structuredContent\":{\"k\":\"a\\u0000b\","
                      "\"n\":12345678901234567890}");
  char *text = NULL;
  size_t tlen = 0;
  CHECK(mcphost_result_text(out, strlen(out), &text, &tlen, NULL, NULL) ==
        MCPHOST_OK);
  /* The text item holds the same JSON as text. */
  CHECK(text && tlen == strlen(text));
  CHECK_CONTAINS(text, "\"n\":12345678901234567890");
  mcphost_free(text);
  mcphost_free(out);
  mcphost_client_free(c);
}

/* What `mcphost call`, `tool`, `prompt` and `task` ask of an operation:
 * references resolved without connecting, a declaration found, argument
 * words typed by the schema, the checks turned off, a list of a kind not
 * declared, a prompt under its exact name, and the callbacks that say
 * what was found. */
typedef struct found {
  char server[64];
  char *item;
  int tasks;
  bool done;
  int rc;
  char *out;
} found;

static void f_resolved(void *ud, const char *server, const char *item_json) {
  found *f = ud;
  snprintf(f->server, sizeof f->server, "%s", server);
  free(f->item);
  f->item = strdup(item_json);
}

static void f_task(void *ud, const char *task_json) {
  found *f = ud;
  if (strstr(task_json, "\"taskId\""))
    f->tasks++;
}

static void f_done(void *ud, const char *result, size_t len,
                   const mcphost_error *err) {
  found *f = ud;
  (void)len;
  f->rc = err ? err->code : MCPHOST_OK;
  if (err)
    fprintf(stderr, "  (%s: %s)\n", mcphost_status_name(err->code),
            err->message);
  f->out = result ? strdup(result) : NULL;
  f->done = true;
}

/* Runs `rq` with the found callbacks in the caller's loop. */
static int run_found(mcphost_client *c, const mcphost_request *rq, found *f) {
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = f_done;
  cb.resolved = f_resolved;
  cb.task = f_task;
  cb.ud = f;
  f->done = false;
  free(f->out);
  f->out = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (mcphost_start(c, rq, &cb, &err) < 0)
    return err.code;
  while (!f->done) {
    struct pollfd p = {mcphost_fd(c), POLLIN, 0};
    poll(&p, 1, mcphost_timeout_ms(c));
    mcphost_perform(c);
  }
  return f->rc;
}

TEST(calls_as_the_cli_makes_them) {
  char cfg[4096];
  snprintf(cfg, sizeof cfg,
           "{\"mcpServers\": {\"t\": {\"command\": \"python3\", \"args\": "
           "[\"%s/typed_server.py\"]}, \"demo\": {\"command\": \"%s\"}}}",
           servers, demo);
  mcphost_client *c = client_of(cfg, MCPHOST_LOOP_CALLER, NULL, NULL, NULL);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  const char *server = NULL;
  char *item = NULL;
  CHECK(mcphost_resolve_ref(c, "mcp__t__strict", "tool", &server, &item,
                            &err) == MCPHOST_OK);
  CHECK_STR(server, "t");
  CHECK_STR(item, "strict");
  mcphost_free(item);
  CHECK(mcphost_resolve_ref(c, "nope/x", "tool", &server, NULL, &err) ==
        MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, "nope");
  CHECK(mcphost_resolve_ref(c, "strict", "tool", &server, NULL, &err) ==
        MCPHOST_EUSAGE);
  CHECK(mcphost_resolve_ref(c, "t/strict", "thing", &server, NULL, &err) ==
        MCPHOST_EUSAGE);

  found f = {0};
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_FIND_TOOL;
  rq.name = "t/strict";
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  CHECK_CONTAINS(f.out, "\"name\":\"strict\"");
  CHECK_CONTAINS(f.out, "\"required\":[\"n\"]");
  CHECK_STR(f.server, "t");
  CHECK_CONTAINS(f.item, "\"name\":\"strict\"");
  rq.name = "t/stric";
  CHECK(run_found(c, &rq, &f) == MCPHOST_ENOTFOUND);

  /* n=42 is an integer by the schema; n=x is refused before the call,
   * and sent as it is with the check off. */
  const char *w42[] = {"n=42"}, *wx[] = {"n=x"};
  char *words = NULL;
  CHECK(mcphost_args_parse(1, w42, 0, &words, &err) == MCPHOST_OK);
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = "t/strict";
  rq.words = words;
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  CHECK_CONTAINS(f.out, "{\\\"n\\\":42}");
  CHECK_CONTAINS(f.item, "\"inputSchema\"");
  mcphost_free(words);
  CHECK(mcphost_args_parse(1, wx, 0, &words, &err) == MCPHOST_OK);
  rq.words = words;
  CHECK(run_found(c, &rq, &f) == MCPHOST_EUSAGE);
  CHECK(f.out == NULL);
  rq.flags = MCPHOST_REQUEST_NO_CHECK;
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  CHECK_CONTAINS(f.out, "{\\\"n\\\":\\\"x\\\"}");
  mcphost_free(words);
  rq.words = "{\"n\": 1}";
  CHECK(mcphost_start(c, &rq, &(mcphost_callbacks)MCPHOST_CALLBACKS_INIT,
                      &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "words");
  rq.words = NULL;
  rq.flags = 0;

  /* A kind the server did not declare: null, not asked. */
  rq.kind = MCPHOST_OP_LIST;
  rq.server = "t";
  rq.name = "prompts";
  rq.flags = MCPHOST_REQUEST_IF_DECLARED;
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  CHECK_STR(f.out, "{\"prompts\":null}");
  rq.flags = 0; /* asked: the server's "no method" */
  CHECK(run_found(c, &rq, &f) != MCPHOST_OK ||
        strcmp(f.out, "{\"prompts\":null}") != 0);

  /* A prompt found, then got under its own name. */
  rq.kind = MCPHOST_OP_FIND_PROMPT;
  rq.server = NULL;
  rq.name = "mcp__demo__greet";
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  CHECK_CONTAINS(f.out, "\"name\":\"greet\"");
  CHECK_STR(f.server, "demo");
  rq.kind = MCPHOST_OP_GET_PROMPT;
  rq.server = "demo";
  rq.name = "greet";
  rq.arguments = "{\"name\": \"Ada\"}";
  rq.flags = MCPHOST_REQUEST_EXACT_NAME;
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  CHECK_CONTAINS(f.out, "Ada");
  free(f.out);
  free(f.item);
  mcphost_client_free(c);
}

/* A tool run as a task: its status reaches `task`; detached, the
 * operation ends with the task's id, and TASK_RESULT finishes it. */
TEST(tasks_run_detach_and_finish) {
  char dir[] = "/tmp/mcphost-api-tasks.XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char cfg[4096];
  snprintf(cfg, sizeof cfg,
           "{\"mcpServers\": {\"k\": {\"command\": \"python3\", \"args\": "
           "[\"%s/task_server.py\"], \"env\": {\"TASK_DIR\": \"%s\", "
           "\"TASK_STEP_MS\": \"20\"}}}}",
           servers, dir);
  mcphost_client *c = client_of(cfg, MCPHOST_LOOP_CALLER, NULL, NULL, NULL);
  if (!c)
    return;
  found f = {0};
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = "k/countdown";
  rq.arguments = "{\"steps\": 2}";
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  CHECK(f.tasks == 0); /* optional: no task unless asked */
  rq.flags = MCPHOST_REQUEST_TASK;
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  CHECK(f.tasks > 0);
  rq.flags = MCPHOST_REQUEST_DETACH;
  CHECK(run_found(c, &rq, &f) == MCPHOST_OK);
  const char *id = f.out ? strstr(f.out, "\"taskId\":\"") : NULL;
  CHECK(id != NULL);
  if (id) {
    char task[128];
    id += strlen("\"taskId\":\"");
    snprintf(task, sizeof task, "%.*s", (int)strcspn(id, "\""), id);
    mcphost_request tr = MCPHOST_REQUEST_INIT;
    tr.kind = MCPHOST_OP_TASK_RESULT;
    tr.server = "k";
    tr.name = task;
    CHECK(run_found(c, &tr, &f) == MCPHOST_OK);
    CHECK_CONTAINS(f.out, "\"content\"");
  }
  rq.name = "k/plain"; /* takes no task */
  rq.flags = MCPHOST_REQUEST_TASK;
  CHECK(run_found(c, &rq, &f) == MCPHOST_EUSAGE);
  free(f.out);
  free(f.item);
  mcphost_client_free(c);
  char rm[200];
  snprintf(rm, sizeof rm, "rm -rf %s", dir);
  CHECK(system(rm) == 0);
}

/* A plugin directory of the program's, as --plugin-dir: the fixture
 * transport in tests/plugins/a serves the type "fixture"; without the
 * directory no plugin serves it. */
TEST(plugin_directories_are_searched) {
  const char *cfg = "{\"mcpServers\": {\"f\": {\"type\": \"fixture\"}}}";
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/a", plugins);
  const char *dirs[] = {dir};
  const char *configs[] = {cfg};
  for (int with = 0; with < 2; with++) {
    mcphost_options o = MCPHOST_OPTIONS_INIT;
    o.configs = configs;
    o.nconfigs = 1;
    o.strict = 1;
    o.plugin_dirs = with ? dirs : NULL;
    o.nplugin_dirs = with ? 1 : 0;
    mcphost_client *c = NULL;
    CHECK(mcphost_client_new(&o, &c, NULL) == MCPHOST_OK);
    if (!c)
      return;
    char *out = NULL;
    mcphost_error err = MCPHOST_ERROR_INIT;
    int rc = run(c, MCPHOST_OP_LIST, "f", "tools", NULL, &out, &err);
    if (with) {
      CHECK(rc == MCPHOST_OK);
      CHECK_CONTAINS(out, "\"tools\":[");
    } else {
      CHECK(rc == MCPHOST_ESERVER);
      CHECK_CONTAINS(err.message, "fixture");
    }
    mcphost_free(out);
    mcphost_client_free(c);
  }
}

/* ---- permission rules that ask ---- */

typedef struct asked {
  mcphost_client *c;
  int n;
  char last[512];
} asked;

static int on_ask(void *ud, const mcphost_ask_info *q) {
  asked *a = ud;
  a->n++;
  snprintf(a->last, sizeof a->last, "%s %s %s %s", q->tool, q->server,
           q->tool_name, q->arguments_json);
  /* Answered from inside the question: the answer comes on the loop. */
  CHECK(mcphost_ask_answer(a->c, q->id, strcmp(q->tool_name, "echo") == 0, NULL,
                           NULL) == MCPHOST_OK);
  return 1;
}

/* The user settings (main's $XDG_CONFIG_HOME) ask for mcp__guard__echo
 * and mcp__guard__add: the program's question decides, beside the
 * plugins. */
TEST(a_rule_that_asks_asks_the_program) {
  asked a = {0};
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {config_of("guard", demo, NULL)};
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1;
  o.on_ask = on_ask;
  o.ud = &a;
  mcphost_client *c = NULL;
  CHECK(mcphost_client_new(&o, &c, NULL) == MCPHOST_OK);
  if (!c)
    return;
  a.c = c;
  char *out = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "guard", "echo", "{\"message\": \"y\"}",
            &out, &err) == MCPHOST_OK);
  CHECK_CONTAINS(out, "Echo: y");
  CHECK_STR(a.last, "mcp__guard__echo guard echo {\"message\":\"y\"}");
  mcphost_free(out);
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "guard", "add", "{\"a\": 1, \"b\": 2}",
            &out, &err) == MCPHOST_EDENIED);
  CHECK_CONTAINS(err.message, "denied by the program");
  CHECK(a.n == 2);
  /* Not asked: no rule asks for it. */
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "guard", "fail", NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK(a.n == 2);
  mcphost_free(out);
  CHECK(mcphost_ask_answer(c, 12345, 1, NULL, NULL) == MCPHOST_OK); /* none */
  mcphost_client_free(c);

  /* Without the program's question no one answers: refused once the
   * request deadline passed, as the CLI off a terminal. */
  o.on_ask = NULL;
  o.request_timeout_ms = 200;
  CHECK(mcphost_client_new(&o, &c, NULL) == MCPHOST_OK);
  if (!c)
    return;
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "guard", "echo", "{\"message\": \"n\"}",
            &out, &err) == MCPHOST_EDENIED);
  mcphost_client_free(c);
}

/* A question the program takes and leaves open, and what settled it. */
typedef struct held {
  int asked, taken, ended, done, allowed, rc;
  uint64_t id, end_id;
  char why[256];
} held;

static int hold_ask(void *ud, const mcphost_ask_info *q) {
  held *h = ud;
  h->asked++;
  h->taken = 1;
  h->id = q->id;
  return 1;
}

static void hold_end(void *ud, uint64_t id, int allowed, const char *why) {
  held *h = ud;
  h->ended++;
  h->end_id = id;
  h->allowed = allowed;
  snprintf(h->why, sizeof h->why, "%s", why ? why : "(withdrawn)");
}

static void hold_done(void *ud, const char *result, size_t len,
                      const mcphost_error *err) {
  (void)result;
  (void)len;
  held *h = ud;
  h->rc = err ? err->code : MCPHOST_OK;
  h->done = 1;
}

/* Calls the test.source plugin's tool `tool` on the caller's loop. */
static int64_t start_source_call(mcphost_client *c, const char *tool, held *h) {
  char name[128];
  snprintf(name, sizeof name, "mcp__plugin_test_source_hello__%s", tool);
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = name;
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = hold_done;
  cb.ud = h;
  h->done = 0;
  return mcphost_start(c, &rq, &cb, NULL);
}

/* A client in the caller's loop mode with the test.source plugin (the
 * servers of every scope, and the plugin's "hello"), whose program holds
 * every question it is asked. */
static mcphost_client *source_client(held *h) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/source", plugins);
  const char *dirs[] = {dir};
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.loop_mode = MCPHOST_LOOP_CALLER;
  o.plugin_dirs = dirs;
  o.nplugin_dirs = 1;
  o.on_ask = hold_ask;
  o.on_ask_end = hold_end;
  o.ud = h;
  return client_made(&o);
}

/* The user settings ask for the tools of the test.source plugin's
 * server, whose permission decider allows yes_ tools later (from a
 * timer) and abstains on maybe_ tools. */
TEST(a_question_settled_without_the_program_is_said_to_end) {
  held h = {0};
  mcphost_client *c = source_client(&h);
  CHECK(c != NULL);
  if (!c)
    return;
  /* The plugin answers first: the program's question ends with its
   * answer, and the call runs. */
  CHECK(start_source_call(c, "yes_tool", &h) > 0);
  CHECK(mcphost_run_until(c, &h.done, 0) == MCPHOST_OK);
  CHECK(h.rc == MCPHOST_OK);
  CHECK(h.asked == 1 && h.ended == 1);
  CHECK(h.end_id == h.id && h.id != 0);
  CHECK(h.allowed == 1);
  CHECK_STR(h.why, "allowed by plugin test.source: the fixture likes yes_ "
                   "tools");
  /* The plugin abstains and the call is cancelled while the program
   * holds the question: withdrawn. */
  int64_t op = start_source_call(c, "maybe_tool", &h);
  CHECK(op > 0);
  h.taken = 0;
  CHECK(mcphost_run_until(c, &h.taken, mcphost_now_ms() + 30000) == MCPHOST_OK);
  CHECK(h.asked == 2 && h.ended == 1 && !h.done);
  mcphost_cancel(c, op);
  CHECK(mcphost_run_until(c, &h.done, 0) == MCPHOST_OK);
  CHECK(h.rc == MCPHOST_ECANCELED);
  CHECK(h.ended == 2 && h.end_id == h.id);
  CHECK(h.allowed == 0);
  CHECK_STR(h.why, "(withdrawn)");
  /* A late answer to it is ignored. */
  CHECK(mcphost_ask_answer(c, h.id, 1, NULL, NULL) == MCPHOST_OK);
  mcphost_client_free(c);
}

/* mcphost_set_option("allow", PATTERN): the CLI's --allow. */
TEST(allow_patterns_answer_before_anyone_is_asked) {
  held h = {0};
  mcphost_client *c = source_client(&h);
  CHECK(c != NULL);
  if (!c)
    return;
  const char *maybe = "mcp__plugin_test_source_hello__maybe_tool";
  CHECK(mcphost_ask_allowed(c, maybe) == 0);
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_set_option(c, "allow", "mcp__plugin_test_source_hello__m*",
                           &err) == MCPHOST_OK);
  CHECK(mcphost_ask_allowed(c, maybe) == 1);
  CHECK(mcphost_ask_allowed(c, "mcp__plugin_test_source_hello__yes_tool") == 0);
  /* The server's name alone: every tool of it. */
  CHECK(mcphost_set_option(c, "allow", "mcp__other", &err) == MCPHOST_OK);
  CHECK(mcphost_ask_allowed(c, "mcp__other__anything") == 1);
  CHECK(start_source_call(c, "maybe_tool", &h) > 0);
  CHECK(mcphost_run_until(c, &h.done, 0) == MCPHOST_OK);
  CHECK(h.rc == MCPHOST_OK);
  CHECK(h.asked == 0 && h.ended == 0); /* nobody was asked */
  /* A pattern that names no tool is the caller's error, naming it. */
  CHECK(mcphost_set_option(c, "allow", "plugin_test_source_hello__x", &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "\"plugin_test_source_hello__x\"");
  CHECK_CONTAINS(err.message, "mcp__SERVER__TOOL");
  CHECK(mcphost_set_option(c, "ask-timeout", "soon", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "\"soon\"");
  /* NULL: none any more, and the program is asked again. */
  CHECK(mcphost_set_option(c, "allow", NULL, &err) == MCPHOST_OK);
  CHECK(mcphost_ask_allowed(c, maybe) == 0);
  CHECK(start_source_call(c, "no_tool", &h) > 0);
  CHECK(mcphost_run_until(c, &h.done, 0) == MCPHOST_OK);
  CHECK(h.rc == MCPHOST_EDENIED); /* the plugin refuses at once */
  CHECK(h.asked == 0);
  mcphost_client_free(c);
}

TEST(errors_name_what_is_wrong) {
  mcphost_client *c = client_of(config_of("demo", demo, NULL),
                                MCPHOST_LOOP_THREAD, NULL, NULL, NULL);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  char *out = (char *)1;
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, NULL, "demo/nope", NULL, &out, &err) ==
        MCPHOST_ENOTFOUND);
  CHECK(out == NULL);
  CHECK(err.code == MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, "nope");
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "demx", "echo", NULL, &out, &err) ==
        MCPHOST_ENOTFOUND);
  CHECK_CONTAINS(err.message, "did you mean");
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "demo", "echo", "[1]", &out, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "not a JSON object");
  /* The tool's inputSchema, checked as `mcphost call` checks it. */
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "demo", "add", "{\"a\": 1}", &out, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "b");
  /* A JSON-RPC error keeps its code. */
  CHECK(run(c, MCPHOST_OP_REQUEST, "demo", "no/such", NULL, &out, &err) ==
        MCPHOST_EPROTOCOL);
  CHECK(err.rpc_code == -32601);
  CHECK_STR(err.server, "demo");
  mcphost_client_free(c);
}

/* ---- asynchronous: progress, deadline, cancel ---- */

typedef struct waiter {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int progress;
  bool done;
  int code;
  char *result;
  mcphost_client *c; /* for a call from inside the callback */
  int nested;        /* what mcphost_run answered there */
} waiter;

#define WAITER_INIT                                                            \
  {                                                                            \
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false, 0, NULL,    \
        NULL, 0                                                                \
  }

static void w_progress(void *ud, const char *params) {
  waiter *w = ud;
  pthread_mutex_lock(&w->lock);
  if (strstr(params, "\"progress\":"))
    w->progress++;
  pthread_mutex_unlock(&w->lock);
}

static void w_done(void *ud, const char *result, size_t len,
                   const mcphost_error *err) {
  waiter *w = ud;
  if (w->c) {
    mcphost_request rq = MCPHOST_REQUEST_INIT;
    rq.kind = MCPHOST_OP_CONNECT;
    rq.server = "demo";
    w->nested = mcphost_run(w->c, &rq, NULL, NULL, NULL);
  }
  pthread_mutex_lock(&w->lock);
  w->done = true;
  w->code = err ? err->code : MCPHOST_OK;
  if (result) {
    w->result = malloc(len + 1);
    memcpy(w->result, result, len + 1);
  }
  pthread_cond_signal(&w->cond);
  pthread_mutex_unlock(&w->lock);
}

static void w_wait(waiter *w) {
  pthread_mutex_lock(&w->lock);
  while (!w->done)
    pthread_cond_wait(&w->cond, &w->lock);
  pthread_mutex_unlock(&w->lock);
}

static int64_t start_slow(mcphost_client *c, const char *args,
                          uint64_t timeout_ms, waiter *w) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.server = "demo";
  rq.name = "slow";
  rq.arguments = args;
  rq.timeout_ms = timeout_ms;
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.progress = w_progress;
  cb.done = w_done;
  cb.ud = w;
  return mcphost_start(c, &rq, &cb, NULL);
}

TEST(progress_deadline_and_cancel) {
  mcphost_client *c = client_of(config_of("demo", demo, NULL),
                                MCPHOST_LOOP_THREAD, NULL, NULL, NULL);
  if (!c)
    return;
  waiter w = WAITER_INIT;
  CHECK(start_slow(c, "{\"steps\": 3, \"delay_ms\": 10}", 0, &w) > 0);
  w_wait(&w);
  CHECK(w.code == MCPHOST_OK);
  CHECK(w.progress == 3);
  CHECK_CONTAINS(w.result, "done after 3 steps");
  free(w.result);

  /* A deadline of its own: the call ends as timed out. */
  waiter d = WAITER_INIT;
  CHECK(start_slow(c, "{\"steps\": 1, \"delay_ms\": 3000}", 100, &d) > 0);
  w_wait(&d);
  CHECK(d.code == MCPHOST_ETIMEDOUT);
  CHECK(d.result == NULL);

  /* Cancelled from this thread while the loop runs on its own. */
  waiter x = WAITER_INIT;
  int64_t id = start_slow(c, "{\"steps\": 1, \"delay_ms\": 3000}", 0, &x);
  CHECK(id > 0);
  mcphost_cancel(c, id);
  w_wait(&x);
  CHECK(x.code == MCPHOST_ECANCELED);
  mcphost_cancel(c, id); /* ended: nothing happens */

  /* Waiting from the loop's own thread is refused, not a deadlock. */
  waiter n = WAITER_INIT;
  n.c = c;
  CHECK(start_slow(c, "{\"steps\": 0}", 0, &n) > 0);
  w_wait(&n);
  CHECK(n.nested == MCPHOST_ESTATE);
  free(n.result);
  mcphost_client_free(c);
}

/* An operation still running when the client is freed ends cancelled. */
TEST(free_ends_what_runs) {
  mcphost_client *c = client_of(config_of("demo", demo, NULL),
                                MCPHOST_LOOP_THREAD, NULL, NULL, NULL);
  if (!c)
    return;
  waiter w = WAITER_INIT;
  CHECK(start_slow(c, "{\"steps\": 1, \"delay_ms\": 3000}", 0, &w) > 0);
  mcphost_client_free(c);
  CHECK(w.done);
  CHECK(w.code == MCPHOST_ECANCELED);
}

/* ---- the caller's loop ---- */

TEST(callers_loop_drives_a_call_with_poll) {
  mcphost_client *c = client_of(config_of("demo", demo, NULL),
                                MCPHOST_LOOP_CALLER, NULL, NULL, NULL);
  if (!c)
    return;
  waiter w = WAITER_INIT;
  CHECK(start_slow(c, "{\"steps\": 2, \"delay_ms\": 10}", 0, &w) > 0);
  CHECK(!w.done);                 /* never before mcphost_perform */
  CHECK(mcphost_perform(c) == 1); /* running, begun or not */
  int running = 1, turns = 0;
  while (!w.done) {
    struct pollfd p = {.fd = mcphost_fd(c), .events = POLLIN};
    poll(&p, 1, mcphost_timeout_ms(c));
    running = mcphost_perform(c);
    turns++;
  }
  CHECK(running == 0);
  CHECK(turns > 1);
  CHECK(w.code == MCPHOST_OK);
  CHECK(w.progress == 2);
  CHECK_CONTAINS(w.result, "done after 2 steps");
  free(w.result);
  /* The waiting call runs the loop itself in this mode. */
  char *out = NULL;
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "demo", "echo", "{\"message\": \"x\"}",
            &out, NULL) == MCPHOST_OK);
  CHECK_CONTAINS(out, "Echo: x");
  mcphost_free(out);
  mcphost_client_free(c);
}

/* ---- what servers send and ask ---- */

typedef struct seen {
  pthread_mutex_t lock;
  char updated[512];
  char changed[512];
  char asked[512];
  mcphost_client *c;
  bool refuse; /* answer with a JSON-RPC error */
} seen;

static void on_notify(void *ud, const char *server, const char *method,
                      const char *params) {
  seen *s = ud;
  pthread_mutex_lock(&s->lock);
  if (strcmp(method, "notifications/resources/updated") == 0)
    snprintf(s->updated, sizeof s->updated, "%s %s", server, params);
  if (strcmp(method, "notifications/tools/list_changed") == 0)
    snprintf(s->changed, sizeof s->changed, "%s %s", server, params);
  pthread_mutex_unlock(&s->lock);
}

static int on_request(void *ud, const char *server, const char *method,
                      const char *params, mcphost_server_request *req) {
  seen *s = ud;
  if (strcmp(method, "elicitation/create") != 0)
    return 0;
  if (s->refuse) {
    CHECK(mcphost_respond(s->c, req, NULL, -32600, "not here", NULL) ==
          MCPHOST_OK);
    return 1;
  }
  snprintf(s->asked, sizeof s->asked, "%s %s %s", server, method, params);
  mcphost_error err = MCPHOST_ERROR_INIT;
  /* A bad answer is refused and the request stays open. */
  CHECK(mcphost_respond(s->c, req, "[]", 0, NULL, &err) == MCPHOST_EUSAGE);
  CHECK(mcphost_respond(s->c, req,
                        "{\"action\": \"accept\", \"content\": {\"n\": "
                        "12345678901234567890}}",
                        0, NULL, &err) == MCPHOST_OK);
  return 1;
}

TEST(server_requests_go_to_the_program_that_takes_them) {
  seen s = {.lock = PTHREAD_MUTEX_INITIALIZER};
  mcphost_client *c = client_of(config_of("e", elicit, NULL),
                                MCPHOST_LOOP_THREAD, on_notify, on_request, &s);
  if (!c)
    return;
  s.c = c;
  char *out = NULL;
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "e", "ask",
            "{\"params\": {\"message\": \"Name?\", \"requestedSchema\": "
            "{\"type\": \"object\", \"properties\": {\"n\": {\"type\": "
            "\"number\"}}}}}",
            &out, NULL) == MCPHOST_OK);
  CHECK_CONTAINS(s.asked, "e elicitation/create {\"message\":\"Name?\"");
  CHECK_CONTAINS(out, "accept");
  CHECK_CONTAINS(out, "\\\"n\\\":");
  mcphost_free(out);
  s.refuse = true;
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "e", "ask",
            "{\"params\": {\"message\": \"Again?\"}}", &out,
            NULL) == MCPHOST_OK);
  CHECK_CONTAINS(out, "error -32600 not here");
  mcphost_free(out);
  mcphost_client_free(c);
}

TEST(subscribe_and_complete) {
  seen s = {.lock = PTHREAD_MUTEX_INITIALIZER};
  char cfg[4096];
  snprintf(cfg, sizeof cfg,
           "{\"mcpServers\": {\"r\": {\"command\": \"python3\", \"args\": "
           "[\"%s/resource_server.py\"]}}}",
           servers);
  mcphost_client *c = client_of(cfg, MCPHOST_LOOP_THREAD, on_notify, NULL, &s);
  if (!c)
    return;
  char *out = NULL;
  CHECK(run(c, MCPHOST_OP_REQUEST, "r", "resources/subscribe",
            "{\"uri\": \"test://doc/1\"}", &out, NULL) == MCPHOST_OK);
  mcphost_free(out);
  /* The updates follow the answer: a request after them has its answer
   * after them too (one pipe, in order). */
  CHECK(run(c, MCPHOST_OP_REQUEST, "r", "completion/complete",
            "{\"ref\": {\"type\": \"ref/prompt\", \"name\": \"pick\"}, "
            "\"argument\": {\"name\": \"a\", \"value\": \"q\"}}",
            &out, NULL) == MCPHOST_OK);
  CHECK_CONTAINS(out, "\"completion\":{\"values\":[");
  CHECK_CONTAINS(out, "xq");
  mcphost_free(out);
  pthread_mutex_lock(&s.lock);
  CHECK_CONTAINS(s.updated, "r {\"uri\":\"test://doc/1\"");
  pthread_mutex_unlock(&s.lock);
  mcphost_client_free(c);
}

/* list_changed reaches the program; a listing after it has the tool
 * added. */
TEST(list_changed_reaches_the_program) {
  seen s = {.lock = PTHREAD_MUTEX_INITIALIZER};
  char cfg[4096];
  snprintf(cfg, sizeof cfg,
           "{\"mcpServers\": {\"g\": {\"command\": \"python3\", \"args\": "
           "[\"%s/list_changed_server.py\"]}}}",
           servers);
  mcphost_client *c = client_of(cfg, MCPHOST_LOOP_THREAD, on_notify, NULL, &s);
  if (!c)
    return;
  char *out = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(run(c, MCPHOST_OP_LIST, "g", "tools", NULL, &out, &err) == MCPHOST_OK);
  CHECK(out && !strstr(out, "\"late\""));
  mcphost_free(out);
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "g", "grow", NULL, &out, &err) ==
        MCPHOST_OK);
  mcphost_free(out);
  pthread_mutex_lock(&s.lock);
  CHECK_STR(s.changed, "g {}");
  pthread_mutex_unlock(&s.lock);
  CHECK(run(c, MCPHOST_OP_LIST, "g", "tools", NULL, &out, &err) == MCPHOST_OK);
  CHECK_CONTAINS(out, "\"name\":\"late\"");
  mcphost_free(out);
  mcphost_client_free(c);
}

/* ---- in-process servers ---- */

typedef struct calc {
  mcphost_inproc *srv;
  int disconnected, released;
  int send_when_released; /* what mcphost_inproc_send said then */
  pthread_t later;        /* answers "later" from a thread of its own */
  bool later_started;
  char later_id[32];
} calc;

/* The id of a request, as its text (the client's ids are numbers). */
static void id_of(const char *msg, char *id, size_t size) {
  const char *p = strstr(msg, "\"id\":");
  size_t n = p ? strcspn(p + 5, ",}") : 0;
  snprintf(id, size, "%.*s", (int)n, p ? p + 5 : "");
}

static void calc_send(calc *k, const char *fmt, const char *id,
                      const char *rest) {
  char m[1024];
  int n = snprintf(m, sizeof m, fmt, id, rest);
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_inproc_send(k->srv, m, (size_t)n, &err) == MCPHOST_OK);
}

static void *answer_later(void *ud) {
  calc *k = ud;
  calc_send(k,
            "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{"
            "\"type\":\"text\",\"text\":\"%s\"}]}}",
            k->later_id, "from another thread");
  return NULL;
}

static void calc_message(void *ud, mcphost_inproc *srv, const char *json,
                         size_t len) {
  calc *k = ud;
  CHECK(srv == k->srv);
  char msg[2048], id[32];
  snprintf(msg, sizeof msg, "%.*s", (int)len, json);
  if (!strstr(msg, "\"method\":") || !strstr(msg, "\"id\":"))
    return; /* notifications */
  id_of(msg, id, sizeof id);
  const char *ok = "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}";
  if (strstr(msg, "\"method\":\"initialize\"")) {
    calc_send(k, ok, id,
              "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{"
              "\"tools\":{\"listChanged\":true}},\"serverInfo\":{\"name\":"
              "\"calc\",\"version\":\"1\"}}");
  } else if (strstr(msg, "\"method\":\"tools/list\"")) {
    calc_send(k, ok, id,
              "{\"tools\":[{\"name\":\"add\",\"inputSchema\":{\"type\":"
              "\"object\"}},{\"name\":\"later\",\"inputSchema\":{\"type\":"
              "\"object\"}}]}");
  } else if (strstr(msg, "\"name\":\"add\"")) {
    /* A notification of the server's own, before the answer. */
    calc_send(k, "%s%s", "",
              "{\"jsonrpc\":\"2.0\",\"method\":"
              "\"notifications/tools/list_changed\"}");
    const char *a = strstr(msg, "\"a\":"), *b = strstr(msg, "\"b\":");
    char sum[128];
    snprintf(sum, sizeof sum,
             "{\"content\":[{\"type\":\"text\",\"text\":\"%g\"}]}",
             a && b ? strtod(a + 4, NULL) + strtod(b + 4, NULL) : -1.0);
    calc_send(k, ok, id, sum);
  } else if (strstr(msg, "\"name\":\"later\"")) {
    snprintf(k->later_id, sizeof k->later_id, "%s", id);
    k->later_started = pthread_create(&k->later, NULL, answer_later, k) == 0;
    CHECK(k->later_started);
  } else {
    calc_send(k,
              "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,"
              "\"message\":\"%s\"}}",
              id, "Method not found");
  }
}

static void calc_close(void *ud, mcphost_inproc *srv, int end) {
  calc *k = ud;
  CHECK(srv == k->srv);
  if (end == MCPHOST_INPROC_RELEASED) {
    k->released++;
    k->send_when_released = mcphost_inproc_send(srv, "{}", 2, NULL);
  } else {
    k->disconnected++;
  }
}

/* A server of the program's own, registered under a name: an entry
 * {"type": "sdk"} reaches it through the one pipeline; its notification
 * reaches on_notify; it may answer from another thread; unregistered,
 * the entry names what is missing; the client's end releases it. */
TEST(an_in_process_server_is_reached_by_its_name) {
  seen s = {.lock = PTHREAD_MUTEX_INITIALIZER};
  mcphost_client *c =
      client_of("{\"mcpServers\": {\"calc\": {\"type\": \"sdk\"}}}",
                MCPHOST_LOOP_THREAD, on_notify, NULL, &s);
  if (!c)
    return;
  calc k = {0};
  mcphost_inproc_callbacks cb = MCPHOST_INPROC_CALLBACKS_INIT;
  cb.on_message = calc_message;
  cb.on_close = calc_close;
  cb.ud = &k;
  mcphost_error err = MCPHOST_ERROR_INIT;
  CHECK(mcphost_inproc_register(c, "calc", &cb, &k.srv, &err) == MCPHOST_OK);
  mcphost_inproc *twice = NULL;
  CHECK(mcphost_inproc_register(c, "calc", &cb, &twice, &err) ==
        MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "\"calc\" is registered already");
  cb.on_message = NULL;
  CHECK(mcphost_inproc_register(c, "other", &cb, &twice, &err) ==
        MCPHOST_EUSAGE);
  CHECK(twice == NULL);
  cb.on_message = calc_message;
  /* Not connected yet: nothing to send to. */
  CHECK(mcphost_inproc_send(k.srv, "{}", 0, &err) == MCPHOST_EUSAGE);

  char *out = NULL;
  CHECK(run(c, MCPHOST_OP_LIST, "calc", "tools", NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(out, "{\"tools\":[{\"name\":\"add\"");
  CHECK_CONTAINS(out, "\"name\":\"later\"");
  mcphost_free(out);
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, NULL, "mcp__calc__add",
            "{\"a\": 2, \"b\": 3}", &out, &err) == MCPHOST_OK);
  CHECK_STR(out, "{\"content\":[{\"type\":\"text\",\"text\":\"5\"}]}");
  mcphost_free(out);
  pthread_mutex_lock(&s.lock);
  CHECK_STR(s.changed, "calc {}");
  pthread_mutex_unlock(&s.lock);
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "calc", "later", NULL, &out, &err) ==
        MCPHOST_OK);
  CHECK_CONTAINS(out, "from another thread");
  mcphost_free(out);
  if (k.later_started)
    pthread_join(k.later, NULL);
  CHECK(run(c, MCPHOST_OP_REQUEST, "calc", "no/such", NULL, &out, &err) ==
        MCPHOST_EPROTOCOL);
  CHECK(err.rpc_code == -32601);

  /* Unregistered: the connection ends, no callback runs, and the entry
   * names the server no one registers. */
  mcphost_inproc_unregister(k.srv);
  CHECK(k.disconnected == 0 && k.released == 0);
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "calc", "add", "{\"a\": 1, \"b\": 1}",
            &out, &err) == MCPHOST_ESERVER);
  CHECK_CONTAINS(err.message, "no in-process server \"calc\" is registered");
  CHECK_STR(err.server, "calc");

  /* Registered again, it serves again; the client's end releases it
   * once, its last callback. */
  CHECK(mcphost_inproc_register(c, "calc", &cb, &k.srv, &err) == MCPHOST_OK);
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, "calc", "add", "{\"a\": 1, \"b\": 1.5}",
            &out, &err) == MCPHOST_OK);
  CHECK_CONTAINS(out, "\"text\":\"2.5\"");
  mcphost_free(out);
  mcphost_client_free(c);
  CHECK(k.disconnected == 1);
  CHECK(k.released == 1);
  CHECK(k.send_when_released == MCPHOST_ESTATE);
}

/* In the caller's loop, the server's callbacks run inside
 * mcphost_perform (here: inside the waiting mcphost_run). */
TEST(an_in_process_server_in_the_callers_loop) {
  mcphost_client *c =
      client_of("{\"mcpServers\": {\"k\": {\"type\": \"sdk\", \"name\": "
                "\"calc\"}}}",
                MCPHOST_LOOP_CALLER, NULL, NULL, NULL);
  if (!c)
    return;
  calc k = {0};
  mcphost_inproc_callbacks cb = MCPHOST_INPROC_CALLBACKS_INIT;
  cb.on_message = calc_message;
  cb.ud = &k;
  CHECK(mcphost_inproc_register(c, "calc", &cb, &k.srv, NULL) == MCPHOST_OK);
  char *out = NULL;
  CHECK(run(c, MCPHOST_OP_CALL_TOOL, NULL, "k/add", "{\"a\": 20, \"b\": 22}",
            &out, NULL) == MCPHOST_OK);
  CHECK_CONTAINS(out, "\"text\":\"42\"");
  mcphost_free(out);
  mcphost_client_free(c);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr,
            "usage: test_client_api DEMO ELICIT SERVERS_DIR PLUGINS_DIR\n");
    return 2;
  }
  demo = argv[1];
  elicit = argv[2];
  servers = argv[3];
  plugins = argv[4];
  /* A home of its own, with user settings whose rules ask (the file and
   * its directory private, as the loader requires). */
  char home[] = "/tmp/test_client_api.XXXXXX";
  if (client_home_make(home) != 0)
    return 2;
  char path[4200];
  snprintf(path, sizeof path, "%s/config/mcphost/settings.json", home);
  FILE *f = fopen(path, "w");
  if (!f)
    return 2;
  fputs("{\"permissions\": {\"ask\": [\"mcp__guard__echo\", "
        "\"mcp__guard__add\", \"mcp__plugin_test_source_hello__*\"]}}\n",
        f);
  fclose(f);
  chmod(path, 0600);
  static const test_case tests[] = {
      T(handshake_refuses_another_major_and_a_newer_minor),
      T(a_bad_configuration_is_the_callers_error),
      T(own_thread_lists_calls_reads_and_prompts),
      T(json_passes_exactly),
      T(calls_as_the_cli_makes_them),
      T(tasks_run_detach_and_finish),
      T(plugin_directories_are_searched),
      T(a_rule_that_asks_asks_the_program),
      T(a_question_settled_without_the_program_is_said_to_end),
      T(allow_patterns_answer_before_anyone_is_asked),
      T(errors_name_what_is_wrong),
      T(progress_deadline_and_cancel),
      T(free_ends_what_runs),
      T(callers_loop_drives_a_call_with_poll),
      T(server_requests_go_to_the_program_that_takes_them),
      T(subscribe_and_complete),
      T(list_changed_reaches_the_program),
      T(an_in_process_server_is_reached_by_its_name),
      T(an_in_process_server_in_the_callers_loop),
  };
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  client_home_remove(home);
  return rc;
}
