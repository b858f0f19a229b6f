/* In-process servers (mcp/inproc.h) end to end through the client as the
 * CLI builds it (host, client, plugins, the configuration scopes, the
 * client's options): a server "calc" registered as a JSON-RPC handler is
 * reached through {"type": "sdk"} entries and the one call pipeline:
 * names (mcp__calc__add), sanitizing of what it lists, a policy deny, a
 * permission deny and ask, results byte for byte (1e400,
 * 12345678901234567890, U+0000), a notification and a request of the
 * server's own, an entry naming no registered server, and the lifetime
 * rules (unregister while connected, the client ending first); what a
 * call in flight holds. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/host.h"
#include "core/host_config.h"
#include "mcp/calls.h"
#include "mcp/client.h"
#include "mcp/inproc.h"
#include "mcp/names.h"
#include "json_write.h"
#include "util.h"

/* What the exact tool answers, as the server sends it. */
static const char exact_result[] =
    "{\"content\":[{\"type\":\"text\",\"text\":\"a\\u0000b\"}],"
    "\"structuredContent\":{\"big\":1e400,\"n\":12345678901234567890,"
    "\"s\":\"x\\u0000y\"},\"isError\":false}";

typedef struct calc {
  mcp_inproc_server *srv;
  int initialized; /* initialize requests seen */
  int disconnected, released;
  char *waiting_call;     /* the id of a tools/call waiting for the
                             elicitation's answer */
  bool got_cancel_or_bad; /* a message it could not read */
  int held, hold_target;  /* tools/call of "hold": never answered */
  bool all_held;          /* held reached hold_target */
} calc;

static void send_text(calc *st, const char *text) {
  CHECK(mcp_inproc_send(st->srv, text, strlen(text)) == MCPH_OK);
}

static void reply(calc *st, const char *id, const char *result) {
  char *m =
      xasprintf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}", id, result);
  send_text(st, m);
  free(m);
}

static void on_call(calc *st, const char *id, const cJSON *params) {
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  if (name && strcmp(name, "add") == 0) {
    double a = cJSON_GetNumberValue(cJSON_GetObjectItem(args, "a"));
    double b = cJSON_GetNumberValue(cJSON_GetObjectItem(args, "b"));
    /* A notification of the server's own before the answer. */
    send_text(st, "{\"jsonrpc\":\"2.0\",\"method\":"
                  "\"notifications/tools/list_changed\"}");
    char *res =
        xasprintf("{\"content\":[{\"type\":\"text\",\"text\":\"%g\"}]}", a + b);
    reply(st, id, res);
    free(res);
  } else if (name && strcmp(name, "exact") == 0) {
    reply(st, id, exact_result);
  } else if (name && strcmp(name, "hold") == 0) {
    /* Left in flight: the client holds the call until it ends. */
    st->all_held = ++st->held == st->hold_target;
  } else if (name && strcmp(name, "ask_user") == 0) {
    /* A request of the server's own; the call is answered with what
     * the client answers to it. */
    free(st->waiting_call);
    st->waiting_call = xstrdup(id);
    send_text(st, "{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"method\":"
                  "\"elicitation/create\",\"params\":{\"message\":\"Who?\","
                  "\"requestedSchema\":{\"type\":\"object\",\"properties\":"
                  "{\"who\":{\"type\":\"string\"}}}}}");
  } else {
    reply(st, id,
          "{\"content\":[{\"type\":\"text\",\"text\":\"no such "
          "tool\"}],\"isError\":true}");
  }
}

static void on_message(void *ud, mcp_inproc_server *srv, const char *json,
                       size_t len) {
  calc *st = ud;
  CHECK(srv == st->srv);
  cJSON *m = cJSON_ParseWithLength(json, len);
  if (!m) {
    st->got_cancel_or_bad = true;
    return;
  }
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "method"));
  const cJSON *idj = cJSON_GetObjectItemCaseSensitive(m, "id");
  char *id = idj ? cJSON_PrintUnformatted(idj) : NULL;
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(m, "params");
  if (!method && id && strcmp(id, "\"e1\"") == 0 && st->waiting_call) {
    /* The client's answer to elicitation/create. */
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(m, "result"), "content");
    const char *who =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(content, "who"));
    char *res = xasprintf("{\"content\":[{\"type\":\"text\",\"text\":"
                          "\"hello %s\"}]}",
                          who ? who : "?");
    reply(st, st->waiting_call, res);
    free(res);
    free(st->waiting_call);
    st->waiting_call = NULL;
  } else if (!method || !id) {
    /* notifications/initialized and the like */
  } else if (strcmp(method, "initialize") == 0) {
    st->initialized++;
    reply(st, id,
          "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":"
          "{\"listChanged\":true}},\"serverInfo\":{\"name\":\"calc\","
          "\"version\":\"1.0\"}}");
  } else if (strcmp(method, "tools/list") == 0) {
    reply(st, id,
          "{\"tools\":["
          "{\"name\":\"add\",\"description\":\"Adds\\u200b two numbers\","
          "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"a\":"
          "{\"type\":\"number\"},\"b\":{\"type\":\"number\"}}}},"
          "{\"name\":\"exact\",\"inputSchema\":{\"type\":\"object\"}},"
          "{\"name\":\"sub\",\"inputSchema\":{\"type\":\"object\"}},"
          "{\"name\":\"ask_user\",\"inputSchema\":{\"type\":\"object\"}}]}");
  } else if (strcmp(method, "tools/call") == 0) {
    on_call(st, id, params);
  } else {
    char *e = xasprintf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":"
                        "-32601,\"message\":\"Method not found\"}}",
                        id);
    send_text(st, e);
    free(e);
  }
  free(id);
  cJSON_Delete(m);
}

static void on_close(void *ud, mcp_inproc_server *srv, mcp_inproc_end end) {
  calc *st = ud;
  CHECK(srv == st->srv);
  if (end == MCP_INPROC_RELEASED) {
    st->released++;
    /* Its last callback: the handle is gone. */
    CHECK(mcp_inproc_send(srv, "{}", 2) == MCPH_ECLOSED);
    st->srv = NULL;
  } else {
    st->disconnected++;
    CHECK(!mcp_inproc_connected(srv));
    CHECK(mcp_inproc_send(srv, "{}", 2) == MCPH_ECLOSED);
  }
}

/* ---- the client, as the CLI builds it ---- */

static char dir[] = "/tmp/mcphost-inproc-XXXXXX";
static char *cfg_file, *settings_file;
static const char *configs[1];

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

typedef struct fixture {
  host *h;
  mcp_client *mc;
  calc st;
  config_sources o;
  int notified;       /* tools/list_changed passed on, from calc */
  int alias_notified; /* the same from the entry "alias" */
  char *asked_tool, *asked_server;
  int asks;
} fixture;

static void on_notify(void *ud, size_t idx, const char *method,
                      const cJSON *params) {
  fixture *f = ud;
  (void)params;
  if (strcmp(method, "notifications/tools/list_changed") == 0) {
    const char *name = host_cfg(f->h)->servers[idx].name;
    f->notified += strcmp(name, "calc") == 0;
    f->alias_notified += strcmp(name, "alias") == 0;
  }
}

static bool on_request(void *ud, size_t idx, const char *method,
                       const cJSON *params, const cJSON *id,
                       const struct mcp_op *op) {
  fixture *f = ud;
  (void)params;
  (void)op;
  if (strcmp(method, "elicitation/create") != 0) {
    return false;
  }
  cJSON *res = cJSON_Parse("{\"action\":\"accept\",\"content\":{\"who\":"
                           "\"world\"}}");
  mcp_client_answer(f->mc, idx, id, res, 0, NULL, NULL);
  return true;
}

static void fixture_start(fixture *f, const char *servers_json) {
  memset(f, 0, sizeof *f);
  write_file(cfg_file, servers_json);
  write_file(settings_file,
             "{\"deniedMcpServers\": [{\"serverName\": \"blocked\"}],"
             " \"permissions\": {\"deny\": [\"mcp__calc__sub\"],"
             " \"ask\": [\"mcp__calc__add\"]}}");
  /* cli_main: the host, the client, then the build's plugins. */
  f->h = host_new(&(host_options){.builtin_plugin_dir = PLUGIN_DIR});
  CHECK(f->h != NULL);
  f->mc = mcp_client_new(f->h);
  host_load_plugins(f->h);
  /* cli_client_options, with the CLI's defaults. */
  mcp_client_set_options(f->mc,
                         &(mcp_client_options){.connect_timeout_ms = 30000,
                                               .request_timeout_ms = 60000,
                                               .tool_timeout_ms = 600000,
                                               .server_exit_ms = 500,
                                               .name_chars = 64,
                                               .list_cache_ttl_ms = 20000});
  /* cli_load_config: the scopes (an embedding program's: no_inproc
   * false, unlike the executable's). */
  configs[0] = cfg_file;
  f->o = (config_sources){.cwd = dir,
                          .home = dir,
                          .user_settings = settings_file,
                          .system_dir = dir,
                          .mcp_configs = configs,
                          .nmcp_configs = 1,
                          .strict = true};
  config_load_scopes(host_cfg_edit(f->h), &f->o);
  host_set_config_sources(f->h, &f->o, NULL, NULL);
  mcp_client_on_notify(f->mc, on_notify, f);
  mcp_client_on_request(f->mc, on_request, f);
  char why[256] = "";
  CHECK(mcp_inproc_register(f->mc, "calc",
                            &(mcp_inproc_callbacks){.on_message = on_message,
                                                    .on_close = on_close,
                                                    .ud = &f->st},
                            &f->st.srv, why, sizeof why) == MCPH_OK);
  CHECK_STR(mcp_inproc_name(f->st.srv), "calc");
  CHECK(!mcp_inproc_connected(f->st.srv));
}

/* close_run: shutdown, host_free, then the client. */
static void fixture_end(fixture *f) {
  mcp_client_shutdown(f->mc);
  host_free(f->h);
  mcp_client_free(f->mc);
  free(f->asked_tool);
  free(f->asked_server);
  free(f->st.waiting_call);
}

typedef struct outcome {
  bool done;
  cJSON *result;
  mcp_error err;
} outcome;

static void on_done(void *ud, cJSON *result, const mcp_error *err) {
  outcome *o = ud;
  o->done = true;
  o->result = result;
  if (err) {
    mcp_error_set(&o->err, err->kind, err->server, "%s",
                  err->message ? err->message : "");
  }
}

static void *ask_start(void *ud, const mcp_ask *q, mcp_ask_answer_fn answer,
                       void *token) {
  fixture *f = ud;
  f->asks++;
  free(f->asked_tool);
  free(f->asked_server);
  f->asked_tool = xstrdup(q->tool);
  f->asked_server = xstrdup(q->server);
  answer(token, true, "the test allows it");
  return NULL;
}

static void ask_cancel(void *ud, void *handle) {
  (void)ud;
  (void)handle;
}

/* Runs one operation on `ref` (SERVER/TOOL or mcp__SERVER__TOOL) or, for
 * LIST, on server `ref`, to its end. */
static void run_op(fixture *f, mcp_op_kind kind, const char *ref,
                   const char *args_json, bool raw, outcome *o) {
  memset(o, 0, sizeof *o);
  mcp_call call = {.kind = kind, .raw_result = raw};
  char *item = NULL;
  cJSON *args = args_json ? cJSON_Parse(args_json) : NULL;
  if (kind == MCP_OP_LIST) {
    long idx = mcp_client_find_server(f->mc, ref);
    CHECK(idx >= 0);
    call.server = (size_t)idx;
    call.name = "tools";
  } else {
    mcp_error err = {0};
    CHECK(mcp_client_resolve_ref(f->mc, ref, "tool", &call.server, &item,
                                 &call.qualified, &err) == 0);
    mcp_error_clear(&err);
    call.name = item;
  }
  call.arguments = args;
  mcp_asker asker = {.start = ask_start, .cancel = ask_cancel, .ud = f};
  mcp_call_callbacks cb = {.done = on_done, .asker = &asker, .ud = o};
  mcp_client_start(f->mc, &call, &cb);
  host_run_until(f->h, &o->done, loop_now_ms() + 20000);
  CHECK(o->done);
  free(item);
  cJSON_Delete(args);
}

static void outcome_free(outcome *o) {
  cJSON_Delete(o->result);
  mcp_error_clear(&o->err);
}

static const char *first_text(const cJSON *result) {
  const cJSON *c = cJSON_GetArrayItem(
      cJSON_GetObjectItemCaseSensitive(result, "content"), 0);
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "text"));
}

static const char servers[] =
    "{\"mcpServers\": {\"calc\": {\"type\": \"sdk\"},"
    " \"alias\": {\"type\": \"sdk\", \"name\": \"calc\"},"
    " \"blocked\": {\"type\": \"sdk\", \"name\": \"calc\"},"
    " \"ghost\": {\"type\": \"sdk\"}}}";

TEST(test_list_names_and_sanitizing) {
  fixture f;
  fixture_start(&f, servers);
  outcome o;
  run_op(&f, MCP_OP_LIST, "calc", NULL, false, &o);
  CHECK(o.err.kind == MCP_ERR_NONE);
  const cJSON *tools = cJSON_GetObjectItemCaseSensitive(o.result, "tools");
  CHECK(cJSON_GetArraySize(tools) == 4);
  /* The zero-width space is gone: sanitized as any server's list. */
  CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                cJSON_GetArrayItem(tools, 0), "description")),
            "Adds two numbers");
  size_t n = 0;
  char **names = name_assign_items("calc", tools, 64, &n);
  CHECK(names != NULL && n == 4);
  if (names && n == 4) {
    CHECK_STR(names[0], "mcp__calc__add");
    CHECK_STR(names[1], "mcp__calc__exact");
  }
  name_list_free(names, n);
  CHECK(f.st.initialized == 1);
  CHECK(mcp_inproc_connected(f.st.srv));
  mcp_server_status st;
  CHECK(mcp_client_status(f.mc, (size_t)mcp_client_find_server(f.mc, "calc"),
                          &st));
  CHECK(st.ready);
  CHECK_STR(st.type, "sdk");
  CHECK_STR(cJSON_GetStringValue(
                cJSON_GetObjectItemCaseSensitive(st.server_info, "name")),
            "calc");
  outcome_free(&o);
  fixture_end(&f);
  CHECK(f.st.disconnected == 1);
  CHECK(f.st.released == 1);
}

TEST(test_call_by_qualified_name_with_ask_and_notification) {
  fixture f;
  fixture_start(&f, servers);
  outcome o;
  run_op(&f, MCP_OP_CALL_TOOL, "mcp__calc__add", "{\"a\": 2, \"b\": 3}", false,
         &o);
  CHECK(o.err.kind == MCP_ERR_NONE);
  CHECK_STR(first_text(o.result), "5");
  /* The ask rule asked, with the model's name and the configured one. */
  CHECK(f.asks == 1);
  CHECK_STR(f.asked_tool, "mcp__calc__add");
  CHECK_STR(f.asked_server, "calc");
  /* The server's notification came through, tied to its server. */
  CHECK(f.notified == 1);
  outcome_free(&o);
  fixture_end(&f);
}

/* What a tools/call in flight holds, from its start to its answer: a
 * batch of 2,000 calls at once holds all of them (the number in flight
 * is not capped). The call's record and arguments, the session's
 * wrapper, the request's record, text and deadline: about 1,000 bytes a
 * call in chunks; 1,244 while the call's record held the URL
 * elicitations' wait and a held answer, the wrapper what only a
 * 2026-07-28 server uses, the request a copy of its method, and the
 * real name a copy of the name given. */
TEST(test_a_call_in_flight_holds_what_it_needs) {
#ifndef NO_MALLINFO
  fixture f;
  fixture_start(&f, servers);
  outcome first;
  run_op(&f, MCP_OP_CALL_TOOL, "calc/exact", NULL, false, &first);
  CHECK(first.err.kind == MCP_ERR_NONE);
  enum { N = 1000 };
  outcome *o = xcalloc(N, sizeof *o);
  size_t server = (size_t)mcp_client_find_server(f.mc, "calc");
  cJSON *args = cJSON_Parse("{\"message\":\"hello from the benchmark\"}");
  mcp_asker asker = {.start = ask_start, .cancel = ask_cancel, .ud = &f};
  f.st.hold_target = N;
  size_t before = mallinfo2().uordblks;
  for (int i = 0; i < N; i++) {
    mcp_call call = {.kind = MCP_OP_CALL_TOOL,
                     .server = server,
                     .name = "hold",
                     .arguments = args,
                     .raw_result = true};
    mcp_call_callbacks cb = {.done = on_done, .asker = &asker, .ud = &o[i]};
    mcp_client_start(f.mc, &call, &cb);
  }
  host_run_until(f.h, &f.st.all_held, loop_now_ms() + 20000);
  CHECK(f.st.held == N);
  size_t per = (mallinfo2().uordblks - before) / N;
  CHECK(per < 1100);
  fixture_end(&f);
  for (int i = 0; i < N; i++) {
    CHECK(o[i].done && o[i].err.kind != MCP_ERR_NONE);
    outcome_free(&o[i]);
  }
  free(o);
  cJSON_Delete(args);
  outcome_free(&first);
#endif
}

TEST(test_permission_and_policy_deny) {
  fixture f;
  fixture_start(&f, servers);
  outcome o;
  run_op(&f, MCP_OP_CALL_TOOL, "calc/sub", "{}", false, &o);
  CHECK(o.err.kind == MCP_ERR_DENIED);
  CHECK_CONTAINS(o.err.message, "mcp__calc__sub");
  CHECK(o.result == NULL);
  outcome_free(&o);
  /* "blocked" names the same server, and the policy denies the entry:
   * nothing connects for it. */
  run_op(&f, MCP_OP_CALL_TOOL, "blocked/exact", "{}", false, &o);
  CHECK(o.err.kind == MCP_ERR_DENIED);
  CHECK_CONTAINS(o.err.message, "deniedMcpServers");
  CHECK(f.st.initialized == 0);
  outcome_free(&o);
  fixture_end(&f);
}

TEST(test_results_byte_exact) {
  fixture f;
  fixture_start(&f, servers);
  outcome o;
  /* Passed on as text (batch's way). */
  run_op(&f, MCP_OP_CALL_TOOL, "calc/exact", "{}", true, &o);
  CHECK(o.err.kind == MCP_ERR_NONE);
  strbuf b;
  sb_init(&b);
  CHECK(o.result && json_write(&b, o.result) == 0);
  CHECK_STR(sb_str(&b), exact_result);
  outcome_free(&o);
  /* And as a tree (call --json's way). */
  b.len = 0;
  run_op(&f, MCP_OP_CALL_TOOL, "calc/exact", "{}", false, &o);
  CHECK(o.err.kind == MCP_ERR_NONE);
  CHECK(o.result && json_write(&b, o.result) == 0);
  CHECK_STR(sb_str(&b), exact_result);
  const char *text = first_text(o.result);
  CHECK(text && memcmp(text,
                       "a\xC0\x80"
                       "b",
                       5) == 0);
  sb_free(&b);
  outcome_free(&o);
  fixture_end(&f);
}

TEST(test_server_request_answered_by_the_client) {
  fixture f;
  fixture_start(&f, servers);
  outcome o;
  run_op(&f, MCP_OP_CALL_TOOL, "calc/ask_user", "{}", false, &o);
  CHECK(o.err.kind == MCP_ERR_NONE);
  CHECK_STR(first_text(o.result), "hello world");
  outcome_free(&o);
  fixture_end(&f);
}

TEST(test_entry_naming_no_registered_server) {
  fixture f;
  fixture_start(&f, servers);
  outcome o;
  run_op(&f, MCP_OP_CALL_TOOL, "ghost/add", "{}", false, &o);
  CHECK(o.err.kind == MCP_ERR_SERVER);
  CHECK_CONTAINS(o.err.message, "no in-process server \"ghost\" is registered");
  outcome_free(&o);
  /* Two entries for one server: one connection at a time. */
  run_op(&f, MCP_OP_LIST, "calc", NULL, false, &o);
  CHECK(o.err.kind == MCP_ERR_NONE);
  outcome_free(&o);
  run_op(&f, MCP_OP_LIST, "alias", NULL, false, &o);
  CHECK(o.err.kind == MCP_ERR_SERVER);
  CHECK_CONTAINS(o.err.message, "connected already (to server \"calc\")");
  outcome_free(&o);
  fixture_end(&f);
}

TEST(test_unregister_while_connected) {
  fixture f;
  fixture_start(&f, servers);
  outcome o;
  run_op(&f, MCP_OP_LIST, "alias", NULL, false, &o);
  CHECK(o.err.kind == MCP_ERR_NONE);
  outcome_free(&o);
  CHECK(mcp_inproc_connected(f.st.srv));
  /* Sent before the unregister: delivered before the end. */
  send_text(&f.st, "{\"jsonrpc\":\"2.0\",\"method\":"
                   "\"notifications/tools/list_changed\"}");
  mcp_inproc_unregister(f.st.srv);
  f.st.srv = NULL;
  /* No callback of the server ran, and the session hears of the end
   * from the loop. */
  CHECK(f.st.disconnected == 0);
  size_t idx = (size_t)mcp_client_find_server(f.mc, "alias");
  mcp_server_status st;
  for (int i = 0; i < 100; i++) {
    mcp_client_status(f.mc, idx, &st);
    if (!st.ready) {
      break;
    }
    loop_run_once(host_loop(f.h), 100);
  }
  mcp_client_status(f.mc, idx, &st);
  CHECK(!st.ready);
  CHECK_CONTAINS(st.error, "in-process server \"calc\" was unregistered");
  CHECK(f.notified == 0); /* "alias" sent it, not "calc" */
  CHECK(f.alias_notified == 1);
  /* The name is free again. */
  mcp_inproc_server *again = NULL;
  CHECK(mcp_inproc_register(
            f.mc, "calc",
            &(mcp_inproc_callbacks){.on_message = on_message, .ud = &f.st},
            &again, NULL, 0) == MCPH_OK);
  CHECK(mcp_inproc_register(
            f.mc, "calc",
            &(mcp_inproc_callbacks){.on_message = on_message, .ud = &f.st},
            &f.st.srv, NULL, 0) == MCPH_EBUSY);
  f.st.srv = again;
  fixture_end(&f);
  CHECK(f.st.disconnected == 0);
  CHECK(f.st.released == 0); /* the new one has no on_close */
}

TEST(test_client_freed_without_shutdown) {
  fixture f;
  fixture_start(&f, servers);
  /* Never connected: only RELEASED, at mcp_client_free. */
  mcp_client_shutdown(f.mc);
  CHECK(f.st.disconnected == 0);
  host_free(f.h);
  CHECK(f.st.released == 0);
  mcp_client_free(f.mc);
  CHECK(f.st.released == 1);
}

int main(void) {
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  cfg_file = xasprintf("%s/servers.json", dir);
  settings_file = xasprintf("%s/settings.json", dir);
  char *state = xasprintf("%s/state", dir);
  setenv("XDG_STATE_HOME", state, 1);
  setenv("HOME", dir, 1);
  static const test_case tests[] = {
      T(test_list_names_and_sanitizing),
      T(test_call_by_qualified_name_with_ask_and_notification),
      T(test_permission_and_policy_deny),
      T(test_results_byte_exact),
      T(test_server_request_answered_by_the_client),
      T(test_entry_naming_no_registered_server),
      T(test_unregister_while_connected),
      T(test_client_freed_without_shutdown),
      T(test_a_call_in_flight_holds_what_it_needs)};
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  char *cmd = xasprintf("rm -rf '%s'", dir);
  if (system(cmd) != 0) {
    rc = 1;
  }
  free(cmd);
  free(state);
  free(cfg_file);
  free(settings_file);
  return rc;
}
