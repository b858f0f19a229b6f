/* The client API's functions for a front end that serves clients of its
 * own (sdk/include/mcphost/client.h, "the gateway"), through
 * libmcphost.so.1 and the public header only: mcphost_status_kind,
 * MCPHOST_REQUEST_NOW, mcphost_cancel_now, mcphost_ask_info.op,
 * mcphost_server_request_get, mcphost_respond_error, a request the server
 * cancelled, mcphost_options.on_state and the option "capabilities".
 * The server is a Python one written here: it asks the client during a
 * call, tied to the call by its progressToken, and says what it got.
 *
 * usage: test_client_gateway */
#include <mcphost/client.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "client_test.h"

static char server_py[4200];

/* Tools: "ask" asks the client (elicitation/create naming the call's
 * progressToken) and answers with what came back; "cancelme" asks, then
 * cancels its question and answers "sent"; "wait" never answers; "log"
 * answers with what the server saw (the answers to cancelled questions,
 * the cancellations of its calls, the client's capabilities). */
static const char server_src[] =
    "import json, sys\n"
    "seen = {'late': [], 'cancelled': [], 'caps': None}\n"
    "waiting = {}\n"
    "def send(m):\n"
    "    sys.stdout.write(json.dumps(m) + '\\n')\n"
    "    sys.stdout.flush()\n"
    "def result(i, text):\n"
    "    send({'jsonrpc': '2.0', 'id': i, 'result':\n"
    "          {'content': [{'type': 'text', 'text': text}]}})\n"
    "def ask(qid, call, tok):\n"
    "    p = {'message': 'm', 'requestedSchema': {'type': 'object',\n"
    "         'properties': {}}}\n"
    "    if tok is not None:\n"
    "        p['_meta'] = {'progressToken': tok}\n"
    "    send({'jsonrpc': '2.0', 'id': qid, 'method': "
    "'elicitation/create',\n"
    "          'params': p})\n"
    "    waiting[qid] = call\n"
    "tools = [{'name': n, 'inputSchema': {'type': 'object'}}\n"
    "         for n in ('ask', 'cancelme', 'wait', 'log', 'echo')]\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    meth = m.get('method')\n"
    "    if meth is None:\n"
    "        call = waiting.pop(m.get('id'), None)\n"
    "        if call is None:\n"
    "            seen['late'].append(m.get('id'))\n"
    "        else:\n"
    "            result(call, json.dumps(m.get('result', m.get('error')),\n"
    "                                    sort_keys=True))\n"
    "        continue\n"
    "    if meth == 'notifications/cancelled':\n"
    "        seen['cancelled'].append(m['params'].get('requestId'))\n"
    "        continue\n"
    "    if 'id' not in m:\n"
    "        continue\n"
    "    i = m['id']\n"
    "    p = m.get('params') or {}\n"
    "    if meth == 'initialize':\n"
    "        seen['caps'] = p.get('capabilities')\n"
    "        send({'jsonrpc': '2.0', 'id': i, 'result': {\n"
    "            'protocolVersion': '2025-06-18',\n"
    "            'capabilities': {'tools': {}},\n"
    "            'serverInfo': {'name': 'asker', 'version': '1'}}})\n"
    "    elif meth == 'tools/list':\n"
    "        send({'jsonrpc': '2.0', 'id': i, 'result': {'tools': tools}})\n"
    "    elif meth == 'tools/call':\n"
    "        n = p.get('name')\n"
    "        tok = (p.get('_meta') or {}).get('progressToken')\n"
    "        if n == 'ask':\n"
    "            ask('q1', i, tok)\n"
    "        elif n == 'cancelme':\n"
    "            ask('q2', i, tok)\n"
    "            waiting.pop('q2')\n"
    "            send({'jsonrpc': '2.0', 'method': "
    "'notifications/cancelled',\n"
    "                  'params': {'requestId': 'q2'}})\n"
    "            result(i, 'sent')\n"
    "        elif n == 'log':\n"
    "            result(i, json.dumps(seen, sort_keys=True))\n"
    "        elif n == 'echo':\n"
    "            result(i, 'echo')\n"
    "    else:\n"
    "        send({'jsonrpc': '2.0', 'id': i, 'error': {'code': -32601,\n"
    "              'message': 'no'}})\n";

/* What the callbacks saw. */
typedef struct seen {
  mcphost_client *c;
  int64_t call;                 /* the operation the test started last */
  int64_t asked_op;             /* mcphost_ask_info.op */
  int64_t request_op;           /* the server request's operation */
  char request_id[64];          /* its id_json */
  char request_server[64];      /* its server */
  mcphost_server_request *kept; /* taken, answered later */
  int states;                   /* on_state for "asker" */
  int cancelled_notes;          /* notifications/cancelled seen */
} seen;

static int on_ask(void *ud, const mcphost_ask_info *q) {
  seen *s = ud;
  CHECK(q->struct_size >= sizeof *q);
  s->asked_op = q->op;
  mcphost_ask_answer(s->c, q->id, 1, "yes", NULL);
  return 1;
}

static int on_request(void *ud, const char *server, const char *method,
                      const char *params_json, mcphost_server_request *req) {
  seen *s = ud;
  (void)params_json;
  CHECK_STR(method, "elicitation/create");
  mcphost_server_request_info info = MCPHOST_SERVER_REQUEST_INFO_INIT;
  CHECK(mcphost_server_request_get(req, &info, NULL) == MCPHOST_OK);
  s->request_op = info.op;
  snprintf(s->request_id, sizeof s->request_id, "%s", info.id_json);
  snprintf(s->request_server, sizeof s->request_server, "%s", info.server);
  CHECK_STR(server, info.server);
  if (strcmp(info.id_json, "\"q2\"") == 0) {
    s->kept = req; /* answered once the server cancelled it */
    return 1;
  }
  /* An error with data, as a client of the program's answered. */
  CHECK(mcphost_respond_error(s->c, req, 0, "x", NULL, NULL) == MCPHOST_EUSAGE);
  CHECK(mcphost_respond_error(s->c, req, -32000, "no", "{not json", NULL) ==
        MCPHOST_EUSAGE);
  CHECK(mcphost_respond_error(s->c, req, -32000, "refused here",
                              "{\"why\":[1,2]}", NULL) == MCPHOST_OK);
  return 1;
}

static void on_notify(void *ud, const char *server, const char *method,
                      const char *params_json) {
  seen *s = ud;
  (void)server;
  (void)params_json;
  if (strcmp(method, "notifications/cancelled") == 0)
    s->cancelled_notes++;
}

static void on_state(void *ud, const char *server) {
  seen *s = ud;
  if (strcmp(server, "asker") == 0)
    s->states++;
}

static mcphost_client *client(seen *s) {
  char config[8192];
  snprintf(config, sizeof config,
           "{\"mcpServers\": {\"asker\": {\"command\": \"python3\", "
           "\"args\": [\"%s\"]}}}",
           server_py);
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {config};
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1;
  o.loop_mode = MCPHOST_LOOP_CALLER;
  o.on_ask = on_ask;
  o.on_request = on_request;
  o.on_notify = on_notify;
  o.on_state = on_state;
  o.ud = s;
  s->c = client_made(&o);
  CHECK(s->c != NULL);
  return s->c;
}

/* Calls tool `name` to its end: the result's text (a new string), or
 * NULL with the error in *err. */
static char *call(mcphost_client *c, const char *name, mcphost_error *err) {
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.server = "asker";
  rq.name = name;
  char *json = NULL;
  if (mcphost_run(c, &rq, &json, NULL, err) != MCPHOST_OK) {
    mcphost_free(json);
    return NULL;
  }
  char *text = NULL;
  mcphost_result_text(json, strlen(json), &text, NULL, NULL, NULL);
  mcphost_free(json);
  return text;
}

TEST(a_status_code_has_its_kind) {
  CHECK_STR(mcphost_status_kind(MCPHOST_OK), "none");
  CHECK_STR(mcphost_status_kind(MCPHOST_EUSAGE), "usage");
  CHECK_STR(mcphost_status_kind(MCPHOST_ENOTFOUND), "not_found");
  CHECK_STR(mcphost_status_kind(MCPHOST_EDENIED), "denied");
  CHECK_STR(mcphost_status_kind(MCPHOST_ECANCELED), "interrupted");
  CHECK_STR(mcphost_status_kind(MCPHOST_EABI), "server");
  CHECK_STR(mcphost_status_kind(7), "server");
}

TEST(a_servers_request_names_its_call_and_takes_an_error_with_data) {
  seen s = {0};
  mcphost_client *c = client(&s);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  /* What the client declares beside the library's, from the next
   * connection on. */
  CHECK(mcphost_set_option(c, "capabilities", "[1]", &err) == MCPHOST_EUSAGE);
  CHECK_CONTAINS(err.message, "capabilities must be a JSON object");
  CHECK(mcphost_set_option(c, "capabilities", "{\"sampling\":{\"x\":1}}",
                           &err) == MCPHOST_OK);
  CHECK(mcphost_connect(c, "asker", &err) == MCPHOST_OK);
  CHECK(s.states >= 1); /* it connected */
  char *text = call(c, "ask", &err);
  /* The program's error went back with its code and data. */
  CHECK_CONTAINS(text, "\"code\": -32000");
  CHECK_CONTAINS(text, "\"data\": {\"why\": [1, 2]}");
  CHECK_CONTAINS(text, "\"message\": \"refused here\"");
  mcphost_free(text);
  CHECK(s.request_op > 0);
  CHECK_STR(s.request_id, "\"q1\"");
  CHECK_STR(s.request_server, "asker");
  /* A question the server cancelled: answered with nothing. */
  text = call(c, "cancelme", &err);
  CHECK_STR(text, "sent");
  mcphost_free(text);
  CHECK(s.kept != NULL);
  CHECK(s.cancelled_notes == 1);
  if (s.kept)
    CHECK(mcphost_respond(c, s.kept, "{\"action\":\"cancel\"}", 0, NULL,
                          NULL) == MCPHOST_OK);
  text = call(c, "log", &err);
  CHECK_CONTAINS(text, "\"late\": []");
  CHECK_CONTAINS(text, "\"sampling\": {\"x\": 1}");
  mcphost_free(text);
  mcphost_client_free(c);
}

/* From a callback of the client's: operations started with and without
 * MCPHOST_REQUEST_NOW, each cancelled at once. */
typedef struct now_test {
  mcphost_client *c;
  bool fired;
  int done_now, done_later; /* their `done`, with MCPHOST_ECANCELED */
  bool now_done_before_return, later_done_before_return;
  int64_t now_id;
} now_test;

static void on_now_done(void *ud, const char *result_json, size_t len,
                        const mcphost_error *err) {
  (void)result_json;
  (void)len;
  int *n = ud;
  if (err && err->code == MCPHOST_ECANCELED)
    (*n)++;
}

static void on_tick(void *ud) {
  now_test *t = ud;
  t->fired = true;
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.server = "asker";
  rq.name = "wait";
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = on_now_done;
  /* Not begun yet: it ends without beginning. */
  cb.ud = &t->done_later;
  int64_t later = mcphost_start(t->c, &rq, &cb, NULL);
  CHECK(later > 0);
  mcphost_cancel_now(t->c, later);
  t->later_done_before_return = t->done_later == 1;
  /* Begun inside mcphost_start: on the wire, then cancelled there. */
  rq.flags = MCPHOST_REQUEST_NOW;
  cb.ud = &t->done_now;
  t->now_id = mcphost_start(t->c, &rq, &cb, NULL);
  CHECK(t->now_id > 0);
}

TEST(an_operation_begins_now_and_is_cancelled_at_once) {
  seen s = {0};
  mcphost_client *c = client(&s);
  if (!c)
    return;
  mcphost_error err = MCPHOST_ERROR_INIT;
  char *text = call(c, "echo", &err); /* connected, its tools listed */
  CHECK_STR(text, "echo");
  mcphost_free(text);
  now_test t = {.c = c};
  CHECK(mcphost_timer_start(c, 0, on_tick, &t) != NULL);
  while (!t.fired)
    mcphost_perform(c);
  CHECK(t.later_done_before_return);
  CHECK(t.done_now == 0);
  /* Give the tools/call time to reach the server: a ping after it. */
  mcphost_request ping = MCPHOST_REQUEST_INIT;
  ping.kind = MCPHOST_OP_REQUEST;
  ping.server = "asker";
  ping.method = "ping";
  mcphost_run(c, &ping, NULL, NULL, NULL);
  mcphost_cancel_now(c, t.now_id);
  CHECK(t.done_now == 1);
  mcphost_cancel_now(c, t.now_id); /* ended: nothing */
  CHECK(t.done_now == 1);
  text = call(c, "log", &err);
  /* One call cancelled on the wire: the one that began. */
  CHECK_CONTAINS(text, "\"cancelled\": [");
  CHECK(text && strchr(strstr(text, "\"cancelled\": [") + 14, ',') >
                    strchr(strstr(text, "\"cancelled\": [") + 14, ']'));
  CHECK(text && strstr(text, "\"cancelled\": []") == NULL);
  mcphost_free(text);
  mcphost_client_free(c);
}

TEST(a_permission_question_names_the_operation_that_asks) {
  seen s = {0};
  mcphost_client *c = client(&s);
  if (!c)
    return;
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.server = "asker";
  rq.name = "echo";
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  int dummy = 0;
  cb.done = on_now_done;
  cb.ud = &dummy;
  int64_t id = mcphost_start(c, &rq, &cb, NULL);
  CHECK(id > 0);
  while (mcphost_perform(c) > 0) {
    int t = mcphost_timeout_ms(c);
    if (t != 0)
      usleep(1000);
  }
  CHECK(s.asked_op == id);
  mcphost_client_free(c);
}

int main(void) {
  char home[] = "/tmp/mcphost-gw-api.XXXXXX";
  if (client_home_make(home) != 0)
    return 1;
  snprintf(server_py, sizeof server_py, "%s/asker.py", home);
  FILE *f = fopen(server_py, "w");
  if (!f)
    return 1;
  fputs(server_src, f);
  fclose(f);
  /* A rule that asks before the tool echo runs. */
  char path[4300];
  snprintf(path, sizeof path, "%s/config/mcphost/settings.json", home);
  f = fopen(path, "w");
  if (!f)
    return 1;
  fputs("{\"permissions\": {\"ask\": [\"mcp__asker__echo\"]}}\n", f);
  fclose(f);
  static const test_case tests[] = {
      T(a_status_code_has_its_kind),
      T(a_servers_request_names_its_call_and_takes_an_error_with_data),
      T(an_operation_begins_now_and_is_cancelled_at_once),
      T(a_permission_question_names_the_operation_that_asks),
  };
  int rc = run_tests(tests, sizeof tests / sizeof *tests);
  client_home_remove(home);
  return rc;
}
