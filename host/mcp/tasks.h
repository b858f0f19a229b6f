/* Tasks (MCP 2025-11-25, experimental): a tool whose
 * execution.taskSupport is "required" (or "optional", when asked) is
 * called with a "task" member; the server answers at once with the task
 * (CreateTaskResult), and the client follows it: tasks/get every
 * pollInterval for its status (input_required and the terminal statuses
 * fetch tasks/result, which the server holds until the end and through
 * which it sends what it needs meanwhile, e.g. elicitations), the result
 * from tasks/result, tasks/cancel when the caller gives up. The progress
 * of the call's token goes on reaching the caller while the task runs.
 *
 * This is the follower of one task, used by the pipeline (calls.c) for a
 * call and for a task started earlier (MCP_OP_TASK_RESULT). Loop thread
 * only. */
#ifndef MCPHOST_MCP_TASKS_H
#define MCPHOST_MCP_TASKS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "mcp/jsonrpc.h"
#include "mcp/session.h"

typedef struct task_follow task_follow;

typedef struct task_follow_cb {
  /* The task as tasks/get (or the call) showed it, each time its status
   * or statusMessage changed; borrowed for the call. May be NULL. */
  void (*status)(void *ud, const cJSON *task);
  /* notifications/progress under the call's token. May be NULL. */
  void (*progress)(void *ud, const cJSON *params);
  /* The end, exactly once unless task_follow_stop came first: the answer
   * of tasks/result (`method` "tasks/result"), or the failure of a
   * tasks/get ("tasks/get"), or the deadline (RPC_ERR_TIMEOUT, "task":
   * the task's status and message did not change, nor progress come, for
   * `deadline_ms`). As rpc_done_fn: *take = true keeps `result`. The
   * follower is freed after this returns. */
  void (*done)(void *ud, const char *method, cJSON *result,
               const rpc_error *err, bool *take);
  void *ud;
  /* At the deadline the task is cancelled (tasks/cancel) too. */
  bool cancel_on_deadline;
} task_follow_cb;

/* Whether a call of `tool` (a tools/list item, whose execution.taskSupport
 * is `support`, mcp_tool_task_support's) goes as a task: always when it
 * is "required", when `asked` and it is "optional". Returns 1 (a task),
 * 0 (a plain call), or -1 when `asked` and the tool does not take tasks
 * ("forbidden" or no execution member) or the server declared no
 * tasks.requests.tools.call; then `why` (a new string) says so. */
int task_wanted(const session *s, const cJSON *tool, const char *support,
                bool asked, char **why);

/* The "task" member of a tools/call: {} (the server's default ttl). */
cJSON *task_request_member(void);

/* The task of a tools/call's answer (CreateTaskResult {"task": {...}})
 * when it has a string taskId; borrowed from `result`, else NULL. */
const cJSON *task_of_result(const cJSON *result);

/* Follows the task `task` (a Task object: taskId, status, pollInterval;
 * copied) on `s`: the first status is reported before this returns.
 * `progress_token` > 0: the id of the tools/call whose token the task's
 * progress comes under. tasks/get goes with `request_timeout_ms`,
 * tasks/result with `result_timeout_ms`; `deadline_ms` (0: none) ends a
 * task whose status stays the same that long. Only `status` runs before
 * this returns; `done` always from the loop. */
task_follow *task_follow_start(session *s, const cJSON *task,
                               int64_t progress_token,
                               uint64_t request_timeout_ms,
                               uint64_t result_timeout_ms, uint64_t deadline_ms,
                               const task_follow_cb *cb);

/* The task's id (borrowed from the follower). */
const char *task_follow_id(const task_follow *f);

/* Stops following: no callback runs after this. With `cancel`, the
 * server is sent tasks/cancel (its answer is only logged). Frees the
 * follower once what it has in flight has answered. */
void task_follow_stop(task_follow *f, bool cancel);

/* Sends tasks/cancel for task `id` on `s`, answer only logged. */
void task_send_cancel(session *s, const char *id, const char *why);

#endif
