/* The JSON-RPC 2.0 engine of one connection: request ids, the pending
 * table, per-request deadlines, cancellation, progress routing, and
 * dispatch of what the peer sends. It knows nothing of transports (it
 * sends through a callback) nor of MCP methods (it hands requests and
 * notifications to its owner). Loop thread only. */
#ifndef MCPHOST_JSONRPC_H
#define MCPHOST_JSONRPC_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include <mcphost/rpc.h>

#include "core/loop.h"
#include "mcp/rpc_scan.h"

typedef struct rpc rpc;

/* Why a request ended without a result. */
typedef enum {
  RPC_OK = 0,
  RPC_ERR_REMOTE,   /* the peer answered with a JSON-RPC error object */
  RPC_ERR_TIMEOUT,  /* the deadline passed; notifications/cancelled sent */
  RPC_ERR_CANCELLED,/* cancelled locally; notifications/cancelled sent */
  RPC_ERR_CLOSED,   /* the connection ended before an answer */
  RPC_ERR_LOCAL,    /* refused or failed before or while sending */
  RPC_ERR_TRANSPORT /* the transport could not deliver it (HTTP error...) */
} rpc_status;

typedef struct rpc_error {
  rpc_status status;
  int code;            /* JSON-RPC code for RPC_ERR_REMOTE */
  const char *message; /* borrowed for the callback */
  const cJSON *data;   /* RPC_ERR_REMOTE's `data`, may be NULL */
} rpc_error;

/* Completion: exactly once per request. On success `err` is NULL and
 * `result` is the result, which the callee may take with
 * cJSON_DetachItemViaPointer-free ownership: set *take = true to keep it. */
typedef void (*rpc_done_fn)(void *ud, cJSON *result, const rpc_error *err,
                            bool *take);
/* `notifications/progress` for a request made with a progress callback. */
typedef void (*rpc_progress_fn)(void *ud, const cJSON *params);

typedef struct rpc_handlers {
  void *ud;
  /* Sends one serialized message. Returns 0 or a negative code; `why`
   * receives a message on failure. */
  int (*send)(void *ud, const char *json, size_t len, char *why,
              size_t why_len);
  /* A request from the peer. Answer with rpc_respond*() now or later,
   * using `id` (owned by the engine until answered: duplicate to keep). */
  void (*on_request)(void *ud, const char *method, const cJSON *params,
                     const cJSON *id);
  /* A notification from the peer (progress is routed, not delivered). */
  void (*on_notification)(void *ud, const char *method,
                          const cJSON *params);
  /* Something worth a log line: an unknown response id, a batch, junk. */
  void (*on_warning)(void *ud, const char *message);
  /* Something worth a debug line only: the late response to a request
   * we cancelled, which the peer may still send. May be NULL. */
  void (*on_debug)(void *ud, const char *message);
  /* Every message from the peer, parsed, before anything else sees it;
   * the owner may change it in place (the session sanitizes it there:
   * the engine itself never changes what the peer said). `kind`: the
   * answered request's rpc_request_opts.kind for a response to a pending
   * request, else -1. May be NULL. */
  void (*inbound)(void *ud, cJSON *msg, int kind);
} rpc_handlers;

typedef struct rpc_request_opts {
  uint64_t timeout_ms;         /* 0: no deadline */
  rpc_progress_fn on_progress; /* non-NULL: a progressToken is sent */
  void *ud;                    /* for on_progress and done */
  bool urgent;                 /* sent even while requests are held */
  bool progress_resets_deadline; /* each progress restarts timeout_ms */
  /* The caller only passes the result on: it may arrive as a cJSON_Raw
   * item holding its JSON text (json_raw.h) instead of a tree,
   * when it is ASCII (which no sanitizing changes) or, with raw_utf8,
   * any valid UTF-8 (the owner keeps this result's text as sent).
   * inbound() is not called for it. */
  bool raw_result;
  bool raw_utf8;
  /* The owner's, opaque to the engine: handed to inbound() with the
   * response (the session's sanitize_kind). */
  int kind;
  /* > 0: the request sends again one made earlier under this id (an
   * MRTR round, a corrected error): rpc_cancel of that id cancels it. */
  int64_t origin;
} rpc_request_opts;

rpc *rpc_new(loop *l, const rpc_handlers *h);
/* Fails every pending request with RPC_ERR_CLOSED and frees the engine. */
void rpc_free(rpc *r);

/* Sends a request; `params` (may be NULL) is taken. Returns the request id
 * (>= 1) or a negative value when it could not be sent, in which case
 * `done` has not been called and will not be. */
int64_t rpc_request(rpc *r, const char *method, cJSON *params,
                    const rpc_request_opts *opts, rpc_done_fn done);
/* Keeps routing notifications/progress whose token is the id of request
 * `id`, already answered, to `fn` (a task-augmented tools/call: the
 * task's progress comes under the call's token) until
 * rpc_unwatch_progress or rpc_free. */
void rpc_watch_progress(rpc *r, int64_t id, rpc_progress_fn fn, void *ud);
void rpc_unwatch_progress(rpc *r, int64_t id);
/* The request in flight whose progressToken is `token` (borrowed): the
 * id its caller knows it by (rpc_request_opts.origin), or 0 when no
 * request in flight sent that token. */
int64_t rpc_origin_of_token(rpc *r, const cJSON *token);
/* Sends a notification; `params` (may be NULL) is taken. */
int rpc_notify(rpc *r, const char *method, cJSON *params);
/* Cancels a pending request: sends notifications/cancelled with `reason`
 * and completes it with RPC_ERR_CANCELLED. `id` may be the request's
 * first id after it was sent again under another (rpc_reissue, an
 * opts.origin): the cancel names the id it has now. Unknown ids are
 * ignored. */
void rpc_cancel(rpc *r, int64_t id, const char *reason);
/* Cancels every pending request (Ctrl-C). */
void rpc_cancel_all(rpc *r, const char *reason);
/* Completes every pending request with `status` and `message`, without
 * sending anything (the connection is gone). */
void rpc_fail_all(rpc *r, rpc_status status, const char *message);
/* Stops every pending request's deadline, and those of requests made
 * meanwhile, until the matching resume; then each starts over with its
 * full timeout. Nests. For while the peer waits on us (a person answering
 * its elicitation): its requests are not late then. */
void rpc_pause_deadlines(rpc *r);
void rpc_resume_deadlines(rpc *r);
size_t rpc_pending_count(const rpc *r);
/* How many pending requests have one of `methods` (NULL-terminated). */
size_t rpc_pending_of(const rpc *r, const char *const *methods);
/* Completes one pending request with `status` and `message` (the
 * transport could not deliver it, say). Returns false for unknown ids. */
bool rpc_fail(rpc *r, int64_t id, rpc_status status, const char *message);

/* Holding: while on, new requests (but urgent ones) are registered but
 * not sent, and rpc_retry() queues instead of sending. Turning it off
 * sends everything held, in id order. Used to re-initialize an expired
 * session under requests that must then go out again. */
void rpc_hold(rpc *r, bool on);
/* Sends a pending request again, once: returns false when `id` is unknown
 * or was already retried (the caller then fails it). */
bool rpc_retry(rpc *r, int64_t id);
/* Sends a pending request again after the auth provider got a new value
 * for the 401 or 403 it met: at most RPC_MAX_AUTH_RESENDS times (once
 * after a 401, once after a step-up), apart from rpc_retry's once. */
#define RPC_MAX_AUTH_RESENDS 2
/* Sends a pending request again as a new request, under a new id (its
 * progressToken too), once (MCP 2026-07-28: a broken response stream
 * loses the request). Returns the new id, or 0 when `id` is unknown or
 * was already sent again (the caller then fails it). */
int64_t rpc_reissue(rpc *r, int64_t id);
bool rpc_retry_auth(rpc *r, int64_t id);
/* Holds every pending request for one more sending (each at most once:
 * those already retried fail with `message`). Turns holding on. */
void rpc_retry_all(rpc *r, const char *message);
/* Completes every held request with `status` and `message`. */
void rpc_fail_held(rpc *r, rpc_status status, const char *message);
/* A message from the peer could not be used (`why`): if its id names a
 * pending request, that request fails now with the reason rather than at
 * its deadline. Returns true when one did. */
bool rpc_fail_unusable(rpc *r, const char *head, size_t len, const char *why);
/* The id of a request message we sent (from its JSON text), or -1. */
int64_t rpc_id_of(const char *json, size_t len);

/* Answers a peer request. `result` is taken. */
int rpc_respond(rpc *r, const cJSON *id, cJSON *result);
int rpc_respond_error(rpc *r, const cJSON *id, int code, const char *message);
/* The same with the error's "data" (taken; may be NULL). */
int rpc_respond_error_data(rpc *r, const cJSON *id, int code,
                           const char *message, cJSON *data);

/* Feeds one received message (the transport's on_message). */
void rpc_receive(rpc *r, const char *json, size_t len);

/* rpc_receive of a message in a buffer the caller gives up (from
 * malloc(); the transport's on_message_owned): a large result is parsed
 * or minified in place and the buffer, shrunk, holds it until the caller
 * of the request is done with it (json_parse_owned), so it is held once.
 * Freed here in every case. */
void rpc_receive_owned(rpc *r, char *json, size_t len);

/* A result kept as text (rpc_request_opts.raw_result) carries what the
 * scan of it found (json_raw_info), in the number fields a raw node has
 * no use for, so that nobody reads megabytes again to learn it:
 * rpc_raw_length its text's length (strlen for a raw node made
 * elsewhere), the flags whether its own "isError" is true
 * (RPC_RAW_IS_ERROR) and whether its own "resultType" is other than
 * "complete" (RPC_RAW_TYPE_OTHER). */
enum { RPC_RAW_SCANNED = 1, RPC_RAW_IS_ERROR = 2, RPC_RAW_TYPE_OTHER = 4 };
size_t rpc_raw_length(const cJSON *raw);
static inline bool rpc_raw_has(const cJSON *raw, int flag) {
  return (raw->valueint & flag) != 0;
}

/* A peer's error for a person: `message`, followed by " (error CODE)"
 * unless the message already names the code (SDKs write "MCP error
 * -32602: ..."): a new string (free()). */
char *rpc_error_text(const char *message, int code);

#endif
