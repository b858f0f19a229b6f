/* Following a task; see tasks.h. */
#include "mcp/tasks.h"

#include "mcp/calls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp_tool.h"
#include "util.h"
#include "safety/sanitize.h"

/* pollInterval is the server's suggestion; it is kept within these. */
#define POLL_DEFAULT_MS 1000
#define POLL_MIN_MS 50
#define POLL_MAX_MS 10000

struct task_follow {
  session *s;
  task_follow_cb cb;
  char *id;
  char *status, *message; /* the last ones reported */
  uint64_t poll_ms, request_timeout_ms, result_timeout_ms, deadline_ms;
  int64_t token;        /* > 0: progress watched under it */
  loop_timer *poll;     /* the next tasks/get */
  loop_timer *deadline; /* the status stayed the same too long */
  loop_timer *later;    /* a failure reported from the loop */
  char *later_why;
  bool getting;  /* a tasks/get in flight */
  bool fetching; /* tasks/result in flight */
  bool stopped;  /* no more callbacks; freed when nothing is in flight */
};

static loop *loop_of(const task_follow *f) {
  return host_loop(f->s->h);
}

static bool terminal(const char *st) {
  return st && (strcmp(st, "completed") == 0 || strcmp(st, "failed") == 0 ||
                strcmp(st, "cancelled") == 0);
}

/* The tool's name, for a message. */
static const char *tool_name(const cJSON *tool) {
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tool, "name"));
  return name ? name : "?";
}

int task_wanted(const session *s, const cJSON *tool, const char *support,
                bool asked, char **why) {
  *why = NULL;
  if (strcmp(support, "forbidden") == 0) {
    if (asked) {
      *why = xasprintf("tool \"%s\" of server \"%s\" does not run as a task "
                       "(its execution.taskSupport is \"%s\")",
                       tool_name(tool), s->cfg->name, support);
      return -1;
    }
    return 0;
  }
  if (!asked && strcmp(support, "optional") == 0) {
    return 0;
  }
  const cJSON *tasks =
      cJSON_GetObjectItemCaseSensitive(s->server_caps, "tasks");
  const cJSON *call = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(
          cJSON_GetObjectItemCaseSensitive(tasks, "requests"), "tools"),
      "call");
  if (!call) {
    /* A required tool goes as a task all the same: without one the
     * server refuses the call anyway. */
    if (asked && strcmp(support, "optional") == 0) {
      *why = xasprintf("server \"%s\" declared no tasks.requests.tools.call "
                       "capability: tool \"%s\" cannot run as a task",
                       s->cfg->name, tool_name(tool));
      return -1;
    }
  }
  return 1;
}

cJSON *task_request_member(void) {
  return cJSON_CreateObject();
}

const cJSON *task_of_result(const cJSON *result) {
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(result, "task");
  return cJSON_IsObject(t) &&
                 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(t, "taskId"))
             ? t
             : NULL;
}

const char *task_follow_id(const task_follow *f) {
  return f->id;
}

/* ---- the end ---- */

static void cancel_timers(task_follow *f) {
  if (f->poll) {
    loop_timer_cancel(loop_of(f), f->poll);
  }
  if (f->deadline) {
    loop_timer_cancel(loop_of(f), f->deadline);
  }
  if (f->later) {
    loop_timer_cancel(loop_of(f), f->later);
  }
  f->poll = f->deadline = f->later = NULL;
}

static void follow_free(task_follow *f) {
  cancel_timers(f);
  if (f->token > 0) {
    rpc_unwatch_progress(f->s->rpc, f->token);
  }
  free(f->id);
  free(f->status);
  free(f->message);
  free(f->later_why);
  free(f);
}

/* Frees a stopped follower once nothing it sent is in flight. */
static void maybe_free(task_follow *f) {
  if (f->stopped && !f->getting && !f->fetching) {
    follow_free(f);
  }
}

static void end(task_follow *f, const char *method, cJSON *result,
                const rpc_error *err, bool *take) {
  cancel_timers(f);
  f->stopped = true;
  f->cb.done(f->cb.ud, method, result, err, take);
  maybe_free(f);
}

static void on_later(void *ud) {
  task_follow *f = ud;
  f->later = NULL;
  rpc_error e = {.status = RPC_ERR_LOCAL, .message = f->later_why};
  bool take = false;
  end(f, "tasks/result", NULL, &e, &take);
}

static void fail_later(task_follow *f, const char *why) {
  free(f->later_why);
  f->later_why = xstrdup(why);
  cancel_timers(f);
  f->later = loop_timer_start(loop_of(f), 0, on_later, f);
}

static void on_deadline(void *ud) {
  task_follow *f = ud;
  f->deadline = NULL;
  char msg[300];
  snprintf(msg, sizeof msg,
           "task %.100s: its status stayed \"%.40s\" for %llu ms%s", f->id,
           f->status ? f->status : "?", (unsigned long long)f->deadline_ms,
           f->cb.cancel_on_deadline ? "; tasks/cancel sent"
                                    : " (it keeps running)");
  if (f->cb.cancel_on_deadline) {
    task_send_cancel(f->s, f->id, "the deadline passed");
  }
  rpc_error e = {.status = RPC_ERR_TIMEOUT, .message = msg};
  bool take = false;
  end(f, "task", NULL, &e, &take);
}

static void restart_deadline(task_follow *f) {
  if (!f->deadline_ms) {
    return;
  }
  if (f->deadline) {
    loop_timer_cancel(loop_of(f), f->deadline);
  }
  f->deadline = loop_timer_start(loop_of(f), f->deadline_ms, on_deadline, f);
}

/* ---- tasks/result ---- */

static void on_result(void *ud, cJSON *result, const rpc_error *err,
                      bool *take) {
  task_follow *f = ud;
  f->fetching = false;
  if (f->stopped) {
    maybe_free(f);
    return;
  }
  end(f, "tasks/result", result, err, take);
}

static cJSON *task_params(const task_follow *f) {
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "taskId", f->id);
  return p;
}

static void fetch(task_follow *f) {
  if (f->fetching) {
    return;
  }
  char why[600];
  rpc_request_opts o = {
      .timeout_ms = f->result_timeout_ms, .ud = f, .kind = SANITIZE_RESULT};
  int64_t id = session_request(f->s, "tasks/result", task_params(f), &o,
                               on_result, why, sizeof why);
  if (id < 0) {
    fail_later(f, why);
    return;
  }
  f->fetching = true;
}

/* ---- tasks/get ---- */

static void schedule_poll(task_follow *f);

/* Takes in a Task object: reports a change, fetches the result when the
 * server waits for it or the task ended, polls again otherwise. */
static void take_status(task_follow *f, const cJSON *task) {
  const char *st =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(task, "status"));
  const char *msg = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(task, "statusMessage"));
  const cJSON *interval =
      cJSON_GetObjectItemCaseSensitive(task, "pollInterval");
  if (cJSON_IsNumber(interval)) {
    double ms = interval->valuedouble;
    f->poll_ms = ms < POLL_MIN_MS   ? POLL_MIN_MS
                 : ms > POLL_MAX_MS ? POLL_MAX_MS
                                    : (uint64_t)ms;
  }
  bool changed =
      !st || !f->status || strcmp(st, f->status) != 0 ||
      (msg ? !f->message || strcmp(msg, f->message) != 0 : f->message != NULL);
  if (changed) {
    free(f->status);
    free(f->message);
    f->status = st ? xstrdup(st) : NULL;
    f->message = msg ? xstrdup(msg) : NULL;
    restart_deadline(f);
    if (f->cb.status) {
      f->cb.status(f->cb.ud, task);
    }
  }
  if (!st) {
    fail_later(f, "the server's task has no status");
    return;
  }
  if (terminal(st) || strcmp(st, "input_required") == 0) {
    fetch(f);
  }
  if (!terminal(st) && !f->stopped) {
    schedule_poll(f);
  }
}

static void on_get(void *ud, cJSON *result, const rpc_error *err, bool *take) {
  task_follow *f = ud;
  (void)take;
  f->getting = false;
  if (f->stopped) {
    maybe_free(f);
    return;
  }
  if (err) {
    if (f->fetching && err->status != RPC_ERR_CLOSED) {
      schedule_poll(f); /* the result is on its way all the same */
      return;
    }
    end(f, "tasks/get", NULL, err, take);
    return;
  }
  take_status(f, result);
}

static void on_poll(void *ud) {
  task_follow *f = ud;
  f->poll = NULL;
  char why[600];
  rpc_request_opts o = {
      .timeout_ms = f->request_timeout_ms, .ud = f, .kind = SANITIZE_NAMES};
  int64_t id = session_request(f->s, "tasks/get", task_params(f), &o, on_get,
                               why, sizeof why);
  if (id < 0) {
    if (!f->fetching) {
      fail_later(f, why);
    }
    return;
  }
  f->getting = true;
}

static void schedule_poll(task_follow *f) {
  if (f->poll || f->getting || f->stopped || f->later) {
    return;
  }
  f->poll = loop_timer_start(loop_of(f), f->poll_ms, on_poll, f);
}

static void on_progress(void *ud, const cJSON *params) {
  task_follow *f = ud;
  if (f->stopped) {
    return;
  }
  restart_deadline(f);
  if (f->cb.progress) {
    f->cb.progress(f->cb.ud, params);
  }
}

task_follow *task_follow_start(session *s, const cJSON *task,
                               int64_t progress_token,
                               uint64_t request_timeout_ms,
                               uint64_t result_timeout_ms, uint64_t deadline_ms,
                               const task_follow_cb *cb) {
  task_follow *f = xcalloc(1, sizeof *f);
  f->s = s;
  f->cb = *cb;
  f->id = xstrdup(
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(task, "taskId")));
  f->poll_ms = POLL_DEFAULT_MS;
  f->request_timeout_ms = request_timeout_ms;
  f->result_timeout_ms = result_timeout_ms;
  f->deadline_ms = deadline_ms;
  if (progress_token > 0) {
    f->token = progress_token;
    rpc_watch_progress(s->rpc, progress_token, on_progress, f);
  }
  if (cJSON_GetObjectItemCaseSensitive(task, "status")) {
    take_status(f, task);
  } else {
    /* A task known by its id only (started earlier): ask at once. */
    f->poll = loop_timer_start(loop_of(f), 0, on_poll, f);
  }
  return f;
}

void task_follow_stop(task_follow *f, bool cancel) {
  if (!f || f->stopped) {
    return;
  }
  if (cancel) {
    task_send_cancel(f->s, f->id, "interrupted");
  }
  cancel_timers(f);
  f->stopped = true;
  maybe_free(f);
}

/* ---- tasks/cancel ---- */

typedef struct cancel_note {
  host *h;
  char *server, *id;
} cancel_note;

static void on_cancel_answer(void *ud, cJSON *result, const rpc_error *err,
                             bool *take) {
  cancel_note *n = ud;
  (void)take;
  const char *st =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(result, "status"));
  if (err) {
    host_log(n->h, MCPH_LOG_INFO, n->server, "tasks/cancel of %s: %s", n->id,
             err->message ? err->message : "failed");
  } else {
    host_log(n->h, MCPH_LOG_INFO, n->server, "task %s is %s", n->id,
             st ? st : "cancelled");
  }
  free(n->server);
  free(n->id);
  free(n);
}

void task_send_cancel(session *s, const char *id, const char *why) {
  cancel_note *n = xcalloc(1, sizeof *n);
  *n = (cancel_note){
      .h = s->h, .server = xstrdup(s->cfg->name), .id = xstrdup(id)};
  char err[600];
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "taskId", id);
  rpc_request_opts o = {
      .timeout_ms = 10000, .ud = n, .urgent = true, .kind = SANITIZE_NAMES};
  host_log(s->h, MCPH_LOG_INFO, s->cfg->name, "tasks/cancel of %s (%s)", id,
           why);
  if (session_request(s, "tasks/cancel", p, &o, on_cancel_answer, err,
                      sizeof err) < 0) {
    host_log(s->h, MCPH_LOG_WARN, s->cfg->name, "cannot cancel task %s: %s", id,
             err);
    free(n->server);
    free(n->id);
    free(n);
  }
}
