/* What the parts of the call pipeline (calls.h) share: the operation
 * and the steps one part calls in another. Not for front ends, which use
 * calls.h. The parts:
 *   calls.c             the operation: connect, resolve the name, send,
 *                       answer, tasks, cancel
 *   calls_elicit.c      -32042: the URL elicitations, then the call again
 *   calls_permission.c  the permission rules on the real name, and the
 *                       asker */
#ifndef MCPHOST_MCP_CALLS_INTERNAL_H
#define MCPHOST_MCP_CALLS_INTERNAL_H

#include "config/permissions.h"
#include "core/host_ui.h"
#include "mcp/calls.h"
#include "mcp/client_internal.h"
#include "mcp/tasks.h"

/* The elicitations of a -32042 (calls_elicit.c). Outlives a cancelled
 * op: the elicitations answer when they answer. */
typedef struct elicit_wait {
  struct mcp_op *op; /* NULL once the op is gone */
  size_t pending;
  bool all_accepted;
  char reason[300];
} elicit_wait;

/* -32042: the URL elicitations of the last error (their
 * elicitationIds), each done once notifications/elicitation/complete
 * came for it; while the op's `url_waiting` the call waits for them, or
 * for the person's line on the terminal (`ask`), until `timer`. */
typedef struct op_url_wait {
  elicit_wait *elicit; /* the elicitations being answered, or NULL */
  char **ids;
  bool *done;
  size_t n;
  loop_timer *timer;
  struct mcph_ui_ask *ask;
} op_url_wait;

/* SERVER/TOOL is called as named; an answer that may mean "no such
 * tool" is held while the list confirms it (a resource not found: its
 * error, while the URIs are listed for a hint). */
typedef struct op_held {
  cJSON *result;
  mcp_error err;
} op_held;

struct mcp_op {
  mcp_client *mc;
  mcp_call call; /* the strings below are the op's own copies */
  char *name, *method;
  cJSON *args;
  const char *args_text; /* mcp_call.arguments_text, while `args` is it */
  cJSON *words; /* CALL_TOOL: KEY=VALUE words not yet set (arguments.h) */
  mcp_call_callbacks cb;
  session *s;
  mcp_waiter w; /* a connect or a tool list */
  char *real;   /* the tool's or prompt's real name, once resolved: `name`
                 * itself when the same (not a copy) */
  /* The rules' verdict on the name given (SERVER/TOOL: the real name). */
  perm_verdict given;
  char *given_q; /* its mcp__server__tool */
  char *description;
  /* what it waits for, for mcp_op_cancel (the flags are packed together
   * below: an op lives as long as its call, 2,000 of them in a batch) */
  void *ask_handle;
  int64_t request_id;       /* > 0 while a request is in flight */
  uint64_t call_started_ms; /* the first tools/call: its deadline's start */
  /* The parts few calls use, each allocated when first used (a batch
   * holds 2,000 ops at once): the URL elicitations' wait, an answer
   * held. NULL until then. */
  op_url_wait *url;
  op_held *held;
  /* A call that runs as a task (tasks.h): its follower once created;
   * `phase` names the request a follower's answer came from. */
  task_follow *follow;
  const char *phase;
  bool *live;                 /* mcp_client_start's: cleared when done runs */
  struct mcp_op *prev, *next; /* the client's live operations */
  int attempt;
  bool asking;
  bool answered_at_once; /* the asker answered inside start() */
  bool url_waiting;      /* see op_url_wait */
  bool confirming;       /* see op_held */
  bool tasked;           /* see follow */
  bool cancelled;
  bool finished;
};

/* The elicitations the op waits for the answers of, or NULL. */
static inline elicit_wait *mcp_op_elicit(const mcp_op *op) {
  return op->url ? op->url->elicit : NULL;
}

/* calls.c: frees the op (its URL wait and ids too). */
void mcp_op_free(mcp_op *op);
/* calls.c: ends the op with an error of `kind`, naming its server. */
void mcp_op_fail(mcp_op *op, mcp_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* calls.c: the configured name of the op's server. */
const char *mcp_op_server_name(const mcp_op *op);
/* calls.c: sends the call (tools/call, prompts/get, resources/read). */
void mcp_op_send_call(mcp_op *op);
/* calls.c: the item of `items` the op names, or NULL. Borrowed. */
const cJSON *mcp_op_find_named(const mcp_op *op, const cJSON *items);

/* calls_elicit.c: the ids of the error's URL elicitations (the
 * completions to wait for); cleared; each one's elicitation run; the
 * wait for them stopped. */
void mcp_op_url_ids_set(mcp_op *op, const cJSON *data);
void mcp_op_url_ids_clear(mcp_op *op);
void mcp_op_run_elicitations(mcp_op *op, const cJSON *data);
void mcp_op_url_wait_stop(mcp_op *op);

/* calls_permission.c: mcp__server__tool of `tool` (new string); the
 * verdict on `tool` (fills *q, and *desc unless it is allow); the rules
 * on the real name, then the call sent, refused or asked. */
char *mcp_op_qualified_name(const mcp_op *op, const char *tool,
                            bool normalized);
perm_verdict mcp_op_verdict(const mcp_op *op, const char *tool,
                            bool normalized, char **q, char **desc);
void mcp_op_check_permission(mcp_op *op);

#endif
