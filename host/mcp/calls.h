/* The client's one pipeline for what a front end asks of a server:
 *
 *   tools/call:     deny rules on the name given -> connect -> resolve the
 *                   name in the tool list (cached, client.h) -> the rules
 *                   on the real name, "ask" through the front end's asker
 *                   -> tools/call with progress -> on -32042 the URL
 *                   elicitations (a feature plugin) and the call again, at
 *                   most 3 times in all.
 *                   A tool whose execution.taskSupport is "required" (or
 *                   "optional" with `task`) goes as a task, followed with
 *                   tasks/get to tasks/result (mcp/tasks.h).
 *   prompts/get:    connect -> find the prompt by listing -> prompts/get.
 *   resources/read, a list, any other request: connect -> the request.
 *
 * An expired session is re-initialized and the request sent again by the
 * session itself (session.h). Every operation ends with `done`, exactly
 * once, with a result or an mcp_error. Loop thread only. */
#ifndef MCPHOST_MCP_CALLS_H
#define MCPHOST_MCP_CALLS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "mcp/client.h"
#include "mcp/error.h"

typedef struct mcp_op mcp_op;

typedef enum mcp_op_kind {
  MCP_OP_CALL_TOOL,
  MCP_OP_GET_PROMPT,
  MCP_OP_FIND_PROMPT, /* the prompt's declaration from prompts/list */
  MCP_OP_READ,        /* resources/read */
  MCP_OP_LIST,        /* every item of `name`: "tools", "resources",
                         "resourceTemplates", "prompts", as
                         {NAME: [...]} (each page, in order) */
  MCP_OP_REQUEST,     /* `method` with `arguments` as its params */
  MCP_OP_FIND_TOOL,   /* the tool's declaration from the tool list (kept
                         as tools/call keeps it: client.h) */
  MCP_OP_TASK_RESULT  /* the task `name` (its id) followed to its end, as
                         a call's task is (mcp/tasks.h): its result */
} mcp_op_kind;

/* A question for the front end: may this tool call run? */
typedef struct mcp_ask {
  const char *tool;           /* mcp__server__tool, normalized */
  const char *server;         /* the configured name */
  const char *tool_name;      /* the server's own name for it */
  const char *arguments_json; /* a JSON object */
  const char *reason;         /* the rule (or default) that asks */
  const char *description;    /* the tool's description, or NULL */
} mcp_ask;

/* The answer, exactly once, maybe from inside start(). `why` is
 * borrowed for the call. */
typedef void (*mcp_ask_answer_fn)(void *token, bool allowed, const char *why);

/* The front end's asker. start() returns a handle for cancel() (NULL
 * when it answered at once); the strings of `q` are borrowed for the
 * call. */
typedef struct mcp_asker {
  void *(*start)(void *ud, const mcp_ask *q, mcp_ask_answer_fn answer,
                 void *token);
  void (*cancel)(void *ud, void *handle);
  void *ud;
} mcp_asker;

typedef struct mcp_call {
  mcp_op_kind kind;
  size_t server; /* config index (mcp_client_resolve_ref) */
  /* The tool or prompt (the item part of an mcp__ name when
   * `qualified`), the URI for READ, the kind for LIST. */
  const char *name;
  /* `name` is a string from malloc() that the op takes, not copies (the
   * caller's copy of it is then the op's). */
  bool name_taken;
  bool qualified;
  /* GET_PROMPT: `name` is the prompt's real name (found already). */
  bool resolved;
  const char *method;     /* REQUEST */
  const cJSON *arguments; /* copied; NULL: {} (REQUEST: no params) */
  cJSON *arguments_taken; /* instead of `arguments`: taken, not copied */
  /* The JSON text `arguments_taken` was parsed from, or NULL: a request
   * whose arguments are still that tree carries this text as it is, not
   * the tree written again (json_raw.h's rule for what may pass as it
   * came: the same value; a text with a line break or a C0 byte, which
   * the tree would write otherwise, is written from the tree). Borrowed:
   * the caller keeps it until `done` runs. */
  const char *arguments_text;
  /* CALL_TOOL: words from mcp_args_parse_words (copied; NULL: none), set
   * over the arguments by the tool's inputSchema once it is found
   * (mcp/arguments.h); a SERVER/TOOL the server does not list takes them
   * by the rule without a schema. */
  const cJSON *words;
  /* CALL_TOOL: the arguments are checked against the inputSchema before
   * the call (mcp_args_check); a mismatch ends the call with
   * MCP_ERR_USAGE, naming the parameter, then "\nusage: " and the
   * signature (mcp/signature.h). */
  bool check_arguments;
  /* The result is only passed on: it may stay JSON text (json_raw.h),
   * a cJSON_Raw item (never for a call run as a task: its first answer
   * is read). */
  bool raw_result;
  /* The result (tools/call, resources/read, prompts/get) is bound for a
   * model, not shown to a person (the gateway's): sanitized as
   * SANITIZE_MODEL text, not kept as sent (docs/safety.md). */
  bool for_model;
  /* LIST: a server that did not declare the kind's capability answers
   * {NAME: null} without being asked (else it is asked all the same). */
  bool if_declared;
  /* CALL_TOOL: a tool whose task support is "optional" goes as a task
   * too (a tool that takes no task is then a usage error). */
  bool task;
  /* CALL_TOOL: the call ends once the server created the task, with the
   * CreateTaskResult ({"task": {"taskId": ...}}) as the result; the task
   * is then the server's (MCP_OP_TASK_RESULT, tasks/get, tasks/cancel
   * finish it later). Implies `task`. */
  bool detach;
} mcp_call;

typedef struct mcp_call_callbacks {
  /* A progress notification of the request; may be NULL. */
  void (*progress)(void *ud, const cJSON *params);
  /* The end: `result` (the callee owns it) or `err` (borrowed). */
  void (*done)(void *ud, cJSON *result, const mcp_error *err);
  const mcp_asker *asker; /* NULL: a rule that asks refuses */
  void *ud;
  /* The tool or prompt was found: its declaration (borrowed for the
   * call). May be NULL. */
  void (*resolved)(void *ud, const cJSON *item);
  /* A call that runs as a task (and TASK_RESULT): the Task object
   * (taskId, status, statusMessage...) each time its status or message
   * changed, borrowed for the call. May be NULL. */
  void (*task)(void *ud, const cJSON *task);
} mcp_call_callbacks;

/* Starts an operation. Returns it, or NULL when `done` has run already
 * (the answer was known at once). The strings of `call` are copied. */
mcp_op *mcp_client_start(mcp_client *mc, const mcp_call *call,
                         const mcp_call_callbacks *cb);
/* The config index of the server an operation is for: for a front end's
 * messages while it runs ("still running"). */
size_t mcp_op_server(const mcp_op *op);
/* Ends the operation as interrupted: what it was waiting for is
 * withdrawn (a request is cancelled on the wire, a call's task gets
 * tasks/cancel; a TASK_RESULT's task is left running); `done` runs before
 * this returns. */
void mcp_op_cancel(mcp_op *op);

#endif
