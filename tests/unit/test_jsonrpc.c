#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "util.h"
#include "mcp/jsonrpc.h"

/* A peer that records what the engine sends and what it hands up. */
typedef struct peer {
  cJSON *sent[32];
  int nsent;
  char last_text[512]; /* the last message sent, as sent */
  int fail_send;
  char warnings[1024];
  char debugs[1024];
  char last_request[64];
  cJSON *last_request_id;
  char last_notification[64];
  int inbound_calls, last_kind; /* what inbound() was told */
} peer;

static int p_send(void *ud, const char *json, size_t len, char *why,
                  size_t why_len) {
  peer *p = ud;
  if (p->fail_send) {
    snprintf(why, why_len, "pipe broken");
    return -5;
  }
  if (p->nsent < 32)
    p->sent[p->nsent++] = cJSON_ParseWithLength(json, len);
  snprintf(p->last_text, sizeof p->last_text, "%.*s", (int)len, json);
  return 0;
}
static void p_request(void *ud, const char *method, const cJSON *params,
                      const cJSON *id) {
  (void)params;
  peer *p = ud;
  snprintf(p->last_request, sizeof p->last_request, "%s", method);
  cJSON_Delete(p->last_request_id);
  p->last_request_id = cJSON_Duplicate(id, 1);
}
static void p_notification(void *ud, const char *method, const cJSON *params) {
  (void)params;
  peer *p = ud;
  snprintf(p->last_notification, sizeof p->last_notification, "%s", method);
}
static void p_warning(void *ud, const char *message) {
  peer *p = ud;
  strncat(p->warnings, message, sizeof p->warnings - strlen(p->warnings) - 2);
  strcat(p->warnings, "\n");
}

static void p_debug(void *ud, const char *message) {
  peer *p = ud;
  strncat(p->debugs, message, sizeof p->debugs - strlen(p->debugs) - 2);
  strcat(p->debugs, "\n");
}

static void p_inbound(void *ud, cJSON *msg, int kind) {
  (void)msg;
  peer *p = ud;
  p->inbound_calls++;
  p->last_kind = kind;
}

static void peer_free(peer *p) {
  for (int i = 0; i < p->nsent; i++)
    cJSON_Delete(p->sent[i]);
  cJSON_Delete(p->last_request_id);
}

/* What one request's completion saw. */
typedef struct outcome {
  int calls;
  rpc_status status;
  int code;
  char message[256];
  char *result; /* serialized */
  int progress_calls;
  double last_progress;
  bool raw; /* the result came as a cJSON_Raw item */
  /* Of a raw one: its length told is its text's, and its flags. */
  bool raw_length_right, raw_is_error, raw_type_other;
} outcome;

static void on_done(void *ud, cJSON *result, const rpc_error *err, bool *take) {
  (void)take;
  outcome *o = ud;
  o->calls++;
  o->status = err ? err->status : RPC_OK;
  if (err) {
    o->code = err->code;
    snprintf(o->message, sizeof o->message, "%s", err->message);
  } else {
    o->raw = cJSON_IsRaw(result);
    if (o->raw) {
      o->raw_length_right =
          rpc_raw_length(result) == strlen(result->valuestring);
      o->raw_is_error = rpc_raw_has(result, RPC_RAW_IS_ERROR);
      o->raw_type_other = rpc_raw_has(result, RPC_RAW_TYPE_OTHER);
    }
    o->result = cJSON_PrintUnformatted(result);
  }
}
static void on_progress(void *ud, const cJSON *params) {
  outcome *o = ud;
  o->progress_calls++;
  o->last_progress =
      cJSON_GetObjectItemCaseSensitive(params, "progress")->valuedouble;
}

static rpc *make(loop *l, peer *p) {
  rpc_handlers h = {.ud = p,
                    .send = p_send,
                    .on_request = p_request,
                    .on_notification = p_notification,
                    .on_warning = p_warning,
                    .on_debug = p_debug,
                    .inbound = p_inbound};
  return rpc_new(l, &h);
}

static void feed(rpc *r, const char *s) { rpc_receive(r, s, strlen(s)); }

static const char *str_at(const cJSON *o, const char *path1, const char *path2) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, path1);
  if (path2)
    v = cJSON_GetObjectItemCaseSensitive(v, path2);
  return cJSON_GetStringValue(v);
}

TEST(test_request_is_serialized_as_jsonrpc_2) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  int64_t id = rpc_request(r, "tools/list", NULL, &opts, on_done);
  CHECK(id == 1);
  CHECK(p.nsent == 1);
  CHECK_STR(str_at(p.sent[0], "jsonrpc", NULL), "2.0");
  CHECK_STR(str_at(p.sent[0], "method", NULL), "tools/list");
  CHECK(cJSON_GetObjectItemCaseSensitive(p.sent[0], "id")->valuedouble == 1);
  CHECK(cJSON_GetObjectItemCaseSensitive(p.sent[0], "params") == NULL);
  CHECK(rpc_pending_count(r) == 1);
  rpc_free(r);
  CHECK(o.calls == 1 && o.status == RPC_ERR_CLOSED);
  peer_free(&p);
  loop_free(l);
}

TEST(test_responses_match_their_requests_in_any_order) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome a = {0}, b = {0};
  rpc_request_opts oa = {.ud = &a}, ob = {.ud = &b};
  rpc_request(r, "x", NULL, &oa, on_done);
  rpc_request(r, "y", NULL, &ob, on_done);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"v\":\"b\"}}");
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"v\":\"a\"}}");
  CHECK(a.calls == 1 && b.calls == 1);
  CHECK_STR(a.result, "{\"v\":\"a\"}");
  CHECK_STR(b.result, "{\"v\":\"b\"}");
  CHECK(rpc_pending_count(r) == 0);
  free(a.result);
  free(b.result);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_error_response_reports_code_and_message) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  rpc_request(r, "tools/call", NULL, &opts, on_done);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,"
          "\"message\":\"Unknown tool: nope\"}}");
  CHECK(o.calls == 1);
  CHECK(o.status == RPC_ERR_REMOTE);
  CHECK(o.code == -32602);
  CHECK_STR(o.message, "Unknown tool: nope");
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_unknown_response_id_is_dropped_with_a_warning) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  rpc_request(r, "x", NULL, &opts, on_done);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}");
  CHECK(o.calls == 0);
  CHECK(rpc_pending_count(r) == 1);
  CHECK_CONTAINS(p.warnings, "unknown id 99");
  /* Answered twice: the second answer is unknown by then. */
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  CHECK(o.calls == 1);
  CHECK_CONTAINS(p.warnings, "unknown id 1");
  free(o.result);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_late_response_to_a_cancelled_request_is_no_warning) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  int64_t id = rpc_request(r, "tools/call", NULL, &opts, on_done);
  rpc_cancel(r, id, "interrupted by the user");
  CHECK(o.calls == 1 && o.status == RPC_ERR_CANCELLED);
  /* The answer crossed the cancellation: allowed, said at debug level. */
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  CHECK(o.calls == 1);
  CHECK(p.warnings[0] == '\0');
  CHECK_CONTAINS(p.debugs, "late response to cancelled request 1");
  /* An id never sent is still a warning. */
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}");
  CHECK_CONTAINS(p.warnings, "unknown id 7");
  /* Bounded: after many more cancellations the first id is forgotten. */
  for (int i = 0; i < 100; i++) {
    outcome oi = {0};
    rpc_request_opts oo = {.ud = &oi};
    rpc_cancel(r, rpc_request(r, "x", NULL, &oo, on_done), NULL);
  }
  p.warnings[0] = '\0';
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  CHECK_CONTAINS(p.warnings, "unknown id 1");
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_string_ids_that_echo_ours_are_accepted) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  rpc_request(r, "x", NULL, &opts, on_done);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"ok\":true}}");
  CHECK(o.calls == 1 && o.status == RPC_OK);
  free(o.result);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_deadline_cancels_with_notification) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.timeout_ms = 1, .ud = &o};
  rpc_request(r, "tools/call", NULL, &opts, on_done);
  while (o.calls == 0)
    loop_run_once(l, 100);
  CHECK(o.status == RPC_ERR_TIMEOUT);
  CHECK(p.nsent == 2);
  CHECK_STR(str_at(p.sent[1], "method", NULL), "notifications/cancelled");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(p.sent[1], "params");
  CHECK(cJSON_GetObjectItemCaseSensitive(params, "requestId")->valuedouble == 1);
  CHECK(cJSON_GetObjectItemCaseSensitive(p.sent[1], "id") == NULL);
  /* A late answer is then unknown, not a second completion. */
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  CHECK(o.calls == 1);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

/* Sleeps `ms` without running the loop: a deadline passes, its timer
 * waits for the next turn. */
static void nap_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* Runs the loop until `o` is done, and checks that it timed out. */
static void wait_timed_out(loop *l, const outcome *o) {
  while (o->calls == 0)
    loop_run_once(l, 100);
  CHECK(o->status == RPC_ERR_TIMEOUT);
}

/* Every request's deadline is kept, whatever the order they were made
 * and answered in: one whose deadline comes after one that was answered
 * times out at its own; one made later with an earlier deadline times
 * out first; a request without a deadline is never timed out. */
TEST(test_each_deadline_fires_in_its_order) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome answered = {0}, late = {0}, early = {0}, none = {0};
  rpc_request_opts a = {.timeout_ms = 1, .ud = &answered};
  rpc_request_opts b = {.timeout_ms = 60, .ud = &late};
  rpc_request_opts c = {.timeout_ms = 30, .ud = &early};
  rpc_request_opts d = {.ud = &none};
  rpc_request(r, "tools/call", NULL, &a, on_done);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  CHECK(answered.calls == 1 && answered.status == RPC_OK);
  rpc_request(r, "tools/call", NULL, &b, on_done);
  rpc_request(r, "tools/call", NULL, &c, on_done);
  rpc_request(r, "tools/call", NULL, &d, on_done);
  wait_timed_out(l, &early);
  CHECK(late.calls == 0 || late.status == RPC_ERR_TIMEOUT);
  wait_timed_out(l, &late);
  CHECK(answered.calls == 1 && none.calls == 0);
  CHECK(rpc_pending_count(r) == 1);
  rpc_free(r);
  CHECK(none.calls == 1 && none.status == RPC_ERR_CLOSED);
  free(answered.result);
  peer_free(&p);
  loop_free(l);
}

/* Progress restarts a deadline when the request asks for it: the
 * deadline passed (the loop not run meanwhile), then progress came, so
 * the timer that fires finds a new deadline and the request runs on.
 * Paused (the peer waits on us), that one passes too and nothing fires;
 * resumed, the request has its whole timeout again, then times out. */
TEST(test_progress_restarts_and_pause_holds_the_deadline) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.timeout_ms = 200,
                           .progress_resets_deadline = true,
                           .on_progress = on_progress,
                           .ud = &o};
  rpc_request(r, "tools/call", NULL, &opts, on_done);
  nap_ms(250);
  feed(r, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
          "\"params\":{\"progressToken\":1,\"progress\":1}}");
  CHECK(o.progress_calls == 1);
  loop_run_once(l, 0); /* the first deadline's timer */
  CHECK(o.calls == 0 && rpc_pending_count(r) == 1);
  rpc_pause_deadlines(r);
  nap_ms(250);
  loop_run_once(l, 0);
  CHECK(o.calls == 0 && loop_timeout_ms(l) == -1);
  rpc_resume_deadlines(r);
  wait_timed_out(l, &o);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_cancel_sends_notification_and_completes) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  int64_t id = rpc_request(r, "tools/call", NULL, &opts, on_done);
  rpc_cancel(r, id, "interrupted by the user");
  CHECK(o.calls == 1 && o.status == RPC_ERR_CANCELLED);
  CHECK_STR(str_at(p.sent[1], "params", "reason"), "interrupted by the user");
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

/* A request sent again under a new id (an HTTP re-issue, or a round
 * made with opts.origin) is cancelled by its first id; the notification
 * names the id it has now. */
TEST(test_cancel_by_first_id_follows_the_request) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0}, o2 = {0};
  rpc_request_opts opts = {.ud = &o};
  int64_t id = rpc_request(r, "tools/call", NULL, &opts, on_done);
  int64_t nid = rpc_reissue(r, id);
  CHECK(nid > id);
  rpc_cancel(r, id, "interrupted by the user");
  CHECK(o.calls == 1 && o.status == RPC_ERR_CANCELLED);
  CHECK_STR(str_at(p.sent[p.nsent - 1], "method", NULL),
            "notifications/cancelled");
  const cJSON *params =
      cJSON_GetObjectItemCaseSensitive(p.sent[p.nsent - 1], "params");
  CHECK(cJSON_GetObjectItemCaseSensitive(params, "requestId")->valuedouble ==
        (double)nid);
  rpc_request_opts again = {.ud = &o2, .origin = id};
  int64_t rid = rpc_request(r, "tools/call", NULL, &again, on_done);
  rpc_cancel(r, id, "interrupted by the user");
  CHECK(o2.calls == 1 && o2.status == RPC_ERR_CANCELLED);
  params = cJSON_GetObjectItemCaseSensitive(p.sent[p.nsent - 1], "params");
  CHECK(cJSON_GetObjectItemCaseSensitive(params, "requestId")->valuedouble ==
        (double)rid);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_progress_token_is_sent_and_progress_routed) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "name", "slow");
  rpc_request_opts opts = {.on_progress = on_progress, .ud = &o};
  rpc_request(r, "tools/call", params, &opts, on_done);
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(p.sent[0], "params"), "_meta");
  CHECK(cJSON_GetObjectItemCaseSensitive(meta, "progressToken")->valuedouble == 1);
  feed(r, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
          "\"params\":{\"progressToken\":1,\"progress\":2,\"total\":3}}");
  feed(r, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
          "\"params\":{\"progressToken\":7,\"progress\":9}}");
  CHECK(o.progress_calls == 1 && o.last_progress == 2);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  /* Progress after the result is tolerated and ignored. */
  feed(r, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
          "\"params\":{\"progressToken\":1,\"progress\":3}}");
  CHECK(o.progress_calls == 1 && o.calls == 1);
  CHECK(p.last_notification[0] == '\0'); /* progress is routed, not passed up */
  free(o.result);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_batch_from_peer_is_rejected_cleanly) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  feed(r, "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}]");
  CHECK(p.nsent == 1);
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(p.sent[0], "error");
  CHECK(cJSON_GetObjectItemCaseSensitive(e, "code")->valueint == -32600);
  CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(p.sent[0], "id")));
  CHECK(p.last_request[0] == '\0');
  CHECK_CONTAINS(p.warnings, "batch");
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_invalid_json_and_non_objects_are_dropped) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  feed(r, "{\"jsonrpc\":");
  feed(r, "42");
  feed(r, "{\"jsonrpc\":\"2.0\"}");
  CHECK(p.nsent == 0);
  CHECK_CONTAINS(p.warnings, "not valid JSON");
  CHECK_CONTAINS(p.warnings, "not a JSON object");
  CHECK_CONTAINS(p.warnings, "neither");
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_deep_nesting_is_rejected_without_recursion) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  size_t depth = 100000;
  char *s = malloc(2 * depth + 1);
  memset(s, '[', depth);
  memset(s + depth, ']', depth);
  s[2 * depth] = '\0';
  feed(r, s);
  CHECK_CONTAINS(p.warnings, "not valid JSON");
  free(s);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_peer_requests_are_dispatched_and_answered_with_their_id) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"roots/list\"}");
  CHECK_STR(p.last_request, "roots/list");
  rpc_respond(r, p.last_request_id, cJSON_CreateObject());
  CHECK(p.nsent == 1);
  CHECK_STR(str_at(p.sent[0], "id", NULL), "abc");
  CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(p.sent[0], "result")));
  feed(r, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
  CHECK_STR(p.last_notification, "notifications/tools/list_changed");
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_fail_all_completes_every_pending_request) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o[300] = {{0}};
  for (int i = 0; i < 300; i++) {
    rpc_request_opts opts = {.timeout_ms = 60000, .ud = &o[i]};
    rpc_request(r, "x", NULL, &opts, on_done);
  }
  CHECK(rpc_pending_count(r) == 300);
  rpc_fail_all(r, RPC_ERR_CLOSED, "server exited");
  int all = 1;
  for (int i = 0; i < 300; i++)
    all &= o[i].calls == 1 && o[i].status == RPC_ERR_CLOSED &&
           strcmp(o[i].message, "server exited") == 0;
  CHECK(all);
  CHECK(rpc_pending_count(r) == 0);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_send_failure_returns_error_without_completion) {
  loop *l = loop_new();
  peer p = {.fail_send = 1};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  CHECK(rpc_request(r, "x", NULL, &opts, on_done) < 0);
  CHECK(rpc_pending_count(r) == 0);
  rpc_free(r);
  CHECK(o.calls == 0);
  peer_free(&p);
  loop_free(l);
}

TEST(test_response_without_result_or_error_is_an_error) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  rpc_request(r, "x", NULL, &opts, on_done);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1}");
  CHECK(o.calls == 1 && o.status == RPC_ERR_REMOTE);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_scan_id_reads_the_top_level_id_of_a_cut_message) {
  const char *cut = "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"x\":[1,2";
  CHECK(rpc_scan_id(cut, strlen(cut)) == 5);
  const char *nested = "{\"result\":{\"id\":9},\"id\":3}";
  CHECK(rpc_scan_id(nested, strlen(nested)) == 3);
  const char *in_string = "{\"result\":\"\\\"id\\\":7\",\"id\":2}";
  CHECK(rpc_scan_id(in_string, strlen(in_string)) == 2);
  const char *none = "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}";
  CHECK(rpc_scan_id(none, strlen(none)) == -1);
  const char *str_id = "{\"id\":\"abc\"}";
  CHECK(rpc_scan_id(str_id, strlen(str_id)) == -1);
}

TEST(test_unparsable_answer_fails_its_request_at_once) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0}, other = {0};
  rpc_request_opts opts = {.timeout_ms = 600000, .ud = &o};
  rpc_request_opts opts2 = {.timeout_ms = 600000, .ud = &other};
  rpc_request(r, "tools/call", NULL, &opts, on_done);
  rpc_request(r, "tools/call", NULL, &opts2, on_done);
  size_t depth = 5000;
  strbuf b;
  sb_init(&b);
  sb_adds(&b, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":");
  for (size_t i = 0; i < depth; i++)
    sb_addc(&b, '[');
  for (size_t i = 0; i < depth; i++)
    sb_addc(&b, ']');
  sb_addc(&b, '}');
  rpc_receive(r, b.data, b.len);
  CHECK(o.calls == 1 && o.status == RPC_ERR_TRANSPORT);
  CHECK_CONTAINS(o.message, "not valid JSON or is nested too deeply");
  CHECK(other.calls == 0 && rpc_pending_count(r) == 1);
  sb_free(&b);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

/* A response of about `size` bytes whose text is `fill` repeated. */
static char *big_response(int64_t id, const char *fill, size_t size) {
  char *s = xmalloc(size + 128);
  int n = sprintf(s, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\": {\"text\": \"",
                  (long long)id);
  size_t f = strlen(fill);
  while ((size_t)n + f < size)
    n += sprintf(s + n, "%s", fill);
  strcpy(s + n, "\"} }");
  return s;
}

TEST(test_large_plain_results_skip_the_tree_when_asked) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome a = {0}, b = {0}, c = {0}, d = {0};
  rpc_request_opts raw = {.ud = &a, .raw_result = true};
  rpc_request_opts tree = {.ud = &b};
  rpc_request_opts raw2 = {.ud = &c, .raw_result = true};
  rpc_request_opts raw_utf8 = {.ud = &d, .raw_result = true, .raw_utf8 = true};
  rpc_request(r, "tools/call", NULL, &raw, on_done);
  rpc_request(r, "tools/call", NULL, &tree, on_done);
  rpc_request(r, "tools/call", NULL, &raw2, on_done);
  rpc_request(r, "tools/call", NULL, &raw_utf8, on_done);
  char *ascii1 = big_response(1, "plain \\\"text\\\" ", 200000);
  char *ascii2 = big_response(2, "plain \\\"text\\\" ", 200000);
  char *utf8 = big_response(3, "zero\u200bwidth ", 200000);
  char *utf8_2 = big_response(4, "zero\u200bwidth ", 200000);
  feed(r, ascii1);
  CHECK(p.inbound_calls == 0); /* a raw result has no tree to look at */
  feed(r, ascii2);
  CHECK(p.inbound_calls == 1);
  feed(r, utf8);
  feed(r, utf8_2);
  CHECK(a.calls == 1 && a.raw);
  CHECK(b.calls == 1 && !b.raw);
  CHECK(c.calls == 1 && !c.raw); /* the owner may sanitize it: a tree */
  CHECK(d.calls == 1 && d.raw);  /* the owner keeps it as sent */
  CHECK(a.result && b.result && strcmp(a.result, b.result) == 0);
  CHECK(c.result && d.result && strcmp(c.result, d.result) == 0);
  /* The engine itself never changes what the peer said. */
  CHECK(strstr(c.result, "zero\u200bwidth"));
  free(ascii1);
  free(ascii2);
  free(utf8);
  free(utf8_2);
  free(a.result);
  free(b.result);
  free(c.result);
  free(d.result);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_small_plain_results_skip_the_tree_too) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome a = {0}, b = {0};
  rpc_request_opts raw = {.ud = &a, .raw_result = true};
  rpc_request_opts tree = {.ud = &b};
  rpc_request(r, "tools/call", NULL, &raw, on_done);
  rpc_request(r, "tools/call", NULL, &tree, on_done);
  feed(r, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": "
          "{\"content\": [{\"type\": \"text\", \"text\": \"hi\"}]}}");
  CHECK(p.inbound_calls == 0); /* no tree, nothing to look at */
  feed(r, "{\"jsonrpc\": \"2.0\", \"id\": 2, \"result\": "
          "{\"content\": [{\"type\": \"text\", \"text\": \"hi\"}]}}");
  CHECK(p.inbound_calls == 1);
  CHECK(a.calls == 1 && a.raw);
  CHECK(b.calls == 1 && !b.raw);
  CHECK(a.result && b.result && strcmp(a.result, b.result) == 0);
  free(a.result);
  free(b.result);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

/* A raw result carries its length and what the scan found of its own
 * isError and resultType (rpc_raw_length, rpc_raw_has), so that no
 * caller reads its text again to learn them. */
TEST(test_raw_results_carry_their_length_and_flags) {
  static const struct {
    const char *result;
    bool is_error, type_other;
  } cases[] = {
      {"{\"content\": [], \"isError\": true}", true, false},
      {"{\"content\": [], \"isError\": false}", false, false},
      {"{\"resultType\": \"input_required\", \"inputRequests\": {}}", false,
       true},
      {"{\"resultType\": \"complete\", \"content\": []}", false, false},
      {"{\"s\": {\"isError\": true, \"resultType\": \"x\"}}", false,
       false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    loop *l = loop_new();
    peer p = {0};
    rpc *r = make(l, &p);
    outcome o = {0};
    rpc_request_opts raw = {.ud = &o, .raw_result = true};
    rpc_request(r, "tools/call", NULL, &raw, on_done);
    char msg[256];
    snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":%s}",
             cases[i].result);
    feed(r, msg);
    CHECK(o.calls == 1 && o.raw && o.raw_length_right);
    CHECK(o.raw_is_error == cases[i].is_error);
    CHECK(o.raw_type_other == cases[i].type_other);
    free(o.result);
    rpc_free(r);
    peer_free(&p);
    loop_free(l);
  }
}

/* A request is written as text, not printed from a tree: the bytes a
 * tree of it would print, the progress token last in params. */
TEST(test_request_text_is_what_its_tree_would_print) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts prog = {.on_progress = on_progress, .ud = &o};
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "name", "e\"cho");
  cJSON *args = cJSON_AddObjectToObject(params, "arguments");
  cJSON_AddNumberToObject(args, "n", 2);
  rpc_request(r, "tools/call", params, &prog, on_done);
  CHECK_STR(p.last_text,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
            "\"params\":{\"name\":\"e\\\"cho\",\"arguments\":{\"n\":2},"
            "\"_meta\":{\"progressToken\":1}}}");
  rpc_request(r, "ping", NULL, &prog, on_done);
  CHECK_STR(p.last_text, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\","
                         "\"params\":{\"_meta\":{\"progressToken\":2}}}");
  params = cJSON_CreateObject();
  cJSON *meta = cJSON_AddObjectToObject(params, "_meta");
  cJSON_AddStringToObject(meta, "progressToken", "theirs");
  cJSON_AddTrueToObject(meta, "kept");
  rpc_request(r, "tools/call", params, &prog, on_done);
  CHECK_STR(p.last_text,
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
            "\"params\":{\"_meta\":{\"kept\":true,\"progressToken\":3}}}");
  rpc_request_opts plain = {.ud = &o};
  rpc_request(r, "tools/list", cJSON_CreateObject(), &plain, on_done);
  CHECK_STR(p.last_text, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
                         "\"tools/list\",\"params\":{}}");
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_inbound_sees_every_message_with_its_request_kind) {
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome a = {0};
  rpc_request_opts o = {.ud = &a, .kind = 7};
  rpc_request(r, "tools/call", NULL, &o, on_done);
  feed(r, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}");
  CHECK(p.inbound_calls == 1 && p.last_kind == -1);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}");
  CHECK(p.inbound_calls == 2 && p.last_kind == -1);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  CHECK(p.inbound_calls == 3 && p.last_kind == 7 && a.calls == 1);
  feed(r, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"); /* unknown now */
  CHECK(p.inbound_calls == 4 && p.last_kind == -1);
  free(a.result);
  rpc_free(r);
  peer_free(&p);
  loop_free(l);
}

TEST(test_error_text_says_the_code_once) {
  char *t = rpc_error_text("MCP error -32602: Tool nope not found", -32602);
  CHECK_STR(t, "MCP error -32602: Tool nope not found");
  free(t);
  t = rpc_error_text("Tool nope not found", -32602);
  CHECK_STR(t, "Tool nope not found (error -32602)");
  free(t);
  /* Part of another number is not the code. */
  t = rpc_error_text("failed at -326021", -32602);
  CHECK_STR(t, "failed at -326021 (error -32602)");
  free(t);
}

TEST(test_an_id_out_of_range_is_no_id_of_ours) {
  /* Ours are plain integers from 1 up (below 1e15: 15 digits); an
   * infinity was cast before, and 2^53 + 1 read as 2^53. */
  static const char *const other[] = {"{\"id\":1e400}",
                                      "{\"id\":-1e400}",
                                      "{\"id\":9007199254740993}",
                                      "{\"id\":12345678901234567890}",
                                      "{\"id\":0}",
                                      "{\"id\":1.5}"};
  for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
    CHECK(rpc_id_of(other[i], strlen(other[i])) == -1);
  }
  const char *big = "{\"id\":123456789012345}";
  CHECK(rpc_id_of(big, strlen(big)) == 123456789012345);
}

/* Each request in flight keeps its text for a resend at the size it
 * has, not the room reserved to write it (256 bytes and more): counted
 * in the allocator's bytes in use, 1,000 requests in flight. glibc
 * only, and not under a sanitizer, whose allocator keeps no such count. */
TEST(test_a_request_in_flight_holds_its_text_at_its_size) {
#ifndef NO_MALLINFO
  loop *l = loop_new();
  peer p = {0};
  rpc *r = make(l, &p);
  outcome o = {0};
  rpc_request_opts opts = {.ud = &o};
  enum { N = 1000 };
  CHECK(rpc_request(r, "tools/list", NULL, &opts, on_done) == 1);
  size_t before = mallinfo2().uordblks;
  for (int i = 0; i < N; i++) {
    CHECK(rpc_request(r, "tools/list", NULL, &opts, on_done) > 0);
  }
  size_t per = (mallinfo2().uordblks - before) / N;
  /* Its record, its method and its 50-byte text: about 220 bytes in
   * chunks; with 256 bytes reserved for the text it was about 420. */
  CHECK(per < 300);
  /* Kept whole: a resend sends it again as it was. */
  char first[512];
  snprintf(first, sizeof first, "%s", p.last_text);
  CHECK(rpc_retry(r, N + 1));
  CHECK(strcmp(p.last_text, first) == 0);
  rpc_fail_all(r, RPC_ERR_CLOSED, "closed");
  CHECK(o.calls == N + 1);
  rpc_free(r);
  loop_free(l);
  peer_free(&p);
#endif
}

/* The table of requests in flight grows with them: an rpc with one
 * request holds under 1.5 KiB (3 KiB when its table was 256 buckets), and
 * 3,000 in flight, answered in a scrambled order, each reach their own
 * completion. */
static void on_done_count(void *ud, cJSON *result, const rpc_error *err,
                          bool *take) {
  (void)take;
  int *seen = ud;
  if (!err && cJSON_IsNumber(result)) {
    seen[result->valueint]++;
  }
}

TEST(test_the_table_of_requests_grows_with_them) {
  loop *l = loop_new();
  peer p = {.nsent = 32}; /* full: what is sent is not kept */
#ifndef NO_MALLINFO
  size_t before = mallinfo2().uordblks;
#endif
  rpc *r = make(l, &p);
  enum { N = 3000 };
  static int seen[N + 1];
  rpc_request_opts opts = {.ud = seen};
  CHECK(rpc_request(r, "ping", NULL, &opts, on_done_count) == 1);
#ifndef NO_MALLINFO
  CHECK(mallinfo2().uordblks - before < 1536);
#endif
  for (int i = 2; i <= N; i++) {
    CHECK(rpc_request(r, "ping", NULL, &opts, on_done_count) == i);
  }
  CHECK(rpc_pending_count(r) == N);
  for (int k = 0; k < N; k++) {
    int id = 1 + (int)(((long)k * 1237) % N); /* 1237 is prime to N */
    char msg[96];
    snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":%d}",
             id, id);
    feed(r, msg);
  }
  CHECK(rpc_pending_count(r) == 0);
  for (int i = 1; i <= N; i++) {
    CHECK(seen[i] == 1);
  }
  CHECK(p.warnings[0] == '\0');
  rpc_free(r);
  loop_free(l);
  peer_free(&p);
}

RUN(T(test_the_table_of_requests_grows_with_them),
    T(test_a_request_in_flight_holds_its_text_at_its_size),
    T(test_large_plain_results_skip_the_tree_when_asked),
    T(test_small_plain_results_skip_the_tree_too),
    T(test_raw_results_carry_their_length_and_flags),
    T(test_request_text_is_what_its_tree_would_print),
    T(test_an_id_out_of_range_is_no_id_of_ours),
    T(test_error_text_says_the_code_once),
    T(test_inbound_sees_every_message_with_its_request_kind),
    T(test_scan_id_reads_the_top_level_id_of_a_cut_message),
    T(test_unparsable_answer_fails_its_request_at_once),
    T(test_request_is_serialized_as_jsonrpc_2),
    T(test_responses_match_their_requests_in_any_order),
    T(test_error_response_reports_code_and_message),
    T(test_unknown_response_id_is_dropped_with_a_warning),
    T(test_late_response_to_a_cancelled_request_is_no_warning),
    T(test_string_ids_that_echo_ours_are_accepted),
    T(test_deadline_cancels_with_notification),
    T(test_each_deadline_fires_in_its_order),
    T(test_progress_restarts_and_pause_holds_the_deadline),
    T(test_cancel_sends_notification_and_completes),
    T(test_cancel_by_first_id_follows_the_request),
    T(test_progress_token_is_sent_and_progress_routed),
    T(test_batch_from_peer_is_rejected_cleanly),
    T(test_invalid_json_and_non_objects_are_dropped),
    T(test_deep_nesting_is_rejected_without_recursion),
    T(test_peer_requests_are_dispatched_and_answered_with_their_id),
    T(test_fail_all_completes_every_pending_request),
    T(test_send_failure_returns_error_without_completion),
    T(test_response_without_result_or_error_is_an_error))
