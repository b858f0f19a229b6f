/* Fuzz target: the JSON-RPC engine's receive path (host/mcp/jsonrpc.h),
 * what every server's bytes reach once a transport has framed them: a
 * message, its id, a response to a pending request, a request or a
 * notification of the peer's, a batch, junk.
 *
 * The input is cut at '\n' into messages, fed in order to an engine that
 * has three requests pending (one of them with a raw result and progress).
 * Promises checked:
 *   - a request's done callback runs at most once while the engine lives,
 *     and exactly once in all when it is freed;
 *   - a response's result or error is handed to that request only: a
 *     result is a JSON value, an error has a message;
 *   - every request of the peer is delivered with a method and an id
 *     that is a string or a number, and the answer sent for it carries
 *     that very id (what the peer sent, its number token included);
 *   - everything the engine sends is valid JSON-RPC 2.0 text. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/loop.h"
#include "mcp/jsonrpc.h"
#include "json_parse.h"
#include "json_write.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

enum { NREQ = 3 };

typedef struct state {
  rpc *r;
  int done[NREQ];
  int64_t ids[NREQ];
  cJSON *last_request_id; /* the id of the peer's request being answered */
  bool answered;
} state;

static int on_send(void *ud, const char *json, size_t len, char *why,
                   size_t why_len) {
  state *s = ud;
  (void)why;
  (void)why_len;
  cJSON *m = json_parse(json, len, NULL);
  if (!cJSON_IsObject(m) ||
      !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m, "jsonrpc")) ||
      strcmp(cJSON_GetObjectItemCaseSensitive(m, "jsonrpc")->valuestring,
             "2.0") != 0) {
    abort();
  }
  if (s->last_request_id) {
    /* The answer to the peer's request: its id, as the peer sent it
     * (as text: a number token such as 91e50072 is no double). */
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    char *got = id ? json_print(id) : NULL;
    char *want = json_print(s->last_request_id);
    if (!got || !want || strcmp(got, want) != 0) {
      abort();
    }
    free(got);
    free(want);
    s->answered = true;
  }
  cJSON_Delete(m);
  return 0;
}

static void on_request(void *ud, const char *method, const cJSON *params,
                       const cJSON *id) {
  state *s = ud;
  (void)params;
  if (!method || !id || !(cJSON_IsString(id) || cJSON_IsNumber(id))) {
    abort();
  }
  s->last_request_id = cJSON_Duplicate(id, 1);
  s->answered = false;
  rpc_respond(s->r, id, cJSON_CreateObject());
  if (!s->answered) {
    abort();
  }
  cJSON_Delete(s->last_request_id);
  s->last_request_id = NULL;
}

static void on_notification(void *ud, const char *method, const cJSON *params) {
  (void)ud;
  (void)params;
  if (!method) {
    abort();
  }
}

static void on_warning(void *ud, const char *message) {
  (void)ud;
  if (!message) {
    abort();
  }
}

typedef struct req_ud {
  state *s;
  int i;
} req_ud;

static void on_done(void *ud, cJSON *result, const rpc_error *err, bool *take) {
  req_ud *q = ud;
  (void)take;
  if (++q->s->done[q->i] > 1) {
    abort(); /* twice */
  }
  if (err && err->status == RPC_OK) {
    abort();
  }
  if (!err && !result) {
    abort();
  }
}

static void on_progress(void *ud, const cJSON *params) {
  (void)ud;
  if (!cJSON_IsObject(params)) {
    abort();
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  loop *l = loop_new();
  state s = {0};
  rpc_handlers h = {.ud = &s,
                    .send = on_send,
                    .on_request = on_request,
                    .on_notification = on_notification,
                    .on_warning = on_warning};
  s.r = rpc_new(l, &h);
  req_ud q[NREQ];
  static const char *const methods[NREQ] = {"tools/list", "tools/call",
                                            "resources/read"};
  for (int i = 0; i < NREQ; i++) {
    q[i] = (req_ud){.s = &s, .i = i};
    rpc_request_opts o = {.ud = &q[i]};
    if (i == 1) {
      o.on_progress = on_progress;
      o.raw_result = true;
      o.raw_utf8 = true;
    }
    s.ids[i] = rpc_request(s.r, methods[i], NULL, &o, on_done);
    if (s.ids[i] != i + 1) {
      abort();
    }
  }
  const char *p = (const char *)data, *end = p + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    rpc_receive(s.r, p, n);
    p += n + (nl ? 1 : 0);
  }
  rpc_free(s.r);
  for (int i = 0; i < NREQ; i++) {
    if (s.done[i] != 1) {
      abort(); /* never finished, or finished twice */
    }
  }
  loop_free(l);
  return 0;
}
