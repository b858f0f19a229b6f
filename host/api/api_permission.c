/* The client API's permission asks (sdk/include/mcphost/client.h,
 * "permission asks"): a rule that says "ask" takes the program's "allow"
 * patterns first (the CLI's --allow), then the permission plugins and the
 * program's own question, raced by core/permission_ask.h as the CLI races
 * its y/N on a terminal. */
#include <mcphost/client.h>

#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "config/permissions.h"
#include "core/host.h"
#include "core/permission_ask.h"
#include "env_ms.h"
#include "util.h"

struct api_ask {
  mcphost_client *c;
  uint64_t id;
  int64_t op; /* the operation that asks, or 0 */
  perm_ask_local local;
  perm_ask *ask;
  bool local_open; /* the program asked, and nothing settled it yet */
  mcp_ask_answer_fn answer;
  void *token;
  api_ask *next;
};

static void ask_unlink(api_ask *a) {
  for (api_ask **p = &a->c->asks; *p; p = &(*p)->next) {
    if (*p == a) {
      *p = a->next;
      break;
    }
  }
  free(a);
}

static bool local_start(void *ud, perm_ask *pa, const perm_ask_params *p) {
  (void)pa;
  api_ask *a = ud;
  mcphost_client *c = a->c;
  if (!c->on_ask)
    return false;
  mcphost_ask_info q = {.struct_size = sizeof q,
                        .id = a->id,
                        .tool = p->tool,
                        .server = p->server,
                        .tool_name = p->tool_name,
                        .arguments_json = p->arguments_json,
                        .reason = p->reason,
                        .description = p->description,
                        .op = a->op};
  a->local_open = c->on_ask(c->ud, &q) != 0;
  return a->local_open;
}

/* Settled otherwise, or withdrawn: the program stops asking, at once (a
 * prompt taken down before the call goes on). */
static void local_stop(void *ud, bool allowed, const char *why) {
  api_ask *a = ud;
  a->local_open = false;
  if (a->c->on_ask_end)
    a->c->on_ask_end(a->c->ud, a->id, allowed, why);
}

static void on_ask_done(void *ud, bool allowed, const char *why) {
  api_ask *a = ud;
  mcp_ask_answer_fn answer = a->answer;
  void *token = a->token;
  char *text = xstrdup(why ? why : "");
  ask_unlink(a);
  answer(token, allowed, text);
  free(text);
}

int mcphost_ask_allowed(const mcphost_client *c, const char *tool) {
  for (size_t i = 0; c && tool && i < c->nallow; i++)
    if (perm_pattern_match(c->allow[i], tool))
      return 1;
  return 0;
}

void *api_ask_start(void *ud, const mcp_ask *q, mcp_ask_answer_fn answer,
                    void *token) {
  return api_ask_start_op(ud, 0, q, answer, token);
}

void *api_ask_start_op(mcphost_client *c, int64_t op, const mcp_ask *q,
                       mcp_ask_answer_fn answer, void *token) {
  if (mcphost_ask_allowed(c, q->tool)) {
    answer(token, true, "given by --allow");
    return NULL;
  }
  api_ask *a = xcalloc(1, sizeof *a);
  a->c = c;
  a->id = ++c->next_ask;
  a->op = op;
  a->answer = answer;
  a->token = token;
  a->local =
      (perm_ask_local){.start = local_start, .stop = local_stop, .ud = a};
  a->next = c->asks;
  c->asks = a;
  /* perm_ask_start copies the strings, and hands local_start its own.
   * The deadline holds while the program has not taken the question. */
  a->ask =
      perm_ask_start(c->h,
                     &(perm_ask_params){.tool = q->tool,
                                        .server = q->server,
                                        .tool_name = q->tool_name,
                                        .arguments_json = q->arguments_json,
                                        .reason = q->reason,
                                        .description = q->description,
                                        .timeout_ms = c->ask_timeout_ms,
                                        .local = &a->local},
                     on_ask_done, a);
  return a;
}

void api_ask_cancel(void *ud, void *handle) {
  (void)ud;
  api_ask *a = handle;
  perm_ask_cancel(a->ask);
  ask_unlink(a);
}

int api_set_allow(mcphost_client *c, const char *pattern, mcphost_error *err) {
  if (!pattern) {
    api_free_strings(c->allow);
    c->allow = NULL;
    c->nallow = 0;
    return MCPHOST_OK;
  }
  /* One that names no tool would never answer: the caller's mistake. */
  if (strncmp(pattern, "mcp__", 5) != 0 || !pattern[5])
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "--allow \"%s\" names no tool: a pattern is "
                    "mcp__SERVER__TOOL (* a wildcard) or mcp__SERVER",
                    pattern);
  c->allow = xrealloc(c->allow, (c->nallow + 2) * sizeof *c->allow);
  c->allow[c->nallow++] = xstrdup(pattern);
  c->allow[c->nallow] = NULL;
  return MCPHOST_OK;
}

int api_set_ask_timeout(mcphost_client *c, const char *ms, mcphost_error *err) {
  uint64_t v;
  if (!ms || !ms_parse(ms, false, &v))
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "ask-timeout needs a positive number of milliseconds, "
                    "not \"%s\"",
                    ms ? ms : "");
  c->ask_timeout_ms = v;
  return MCPHOST_OK;
}

typedef struct ask_job {
  mcphost_client *c;
  uint64_t id;
  bool allowed;
  char *why;
} ask_job;

static void ask_answer_on_loop(void *ud) {
  ask_job *j = ud;
  for (api_ask *a = j->c->asks; a; a = a->next) {
    if (a->id == j->id && a->local_open) {
      a->local_open = false;
      perm_ask_local_answer(a->ask, j->allowed,
                            j->why       ? j->why
                            : j->allowed ? "allowed by the program"
                                         : "denied by the program");
      break;
    }
  }
  free(j->why);
  free(j);
}

int mcphost_ask_answer(mcphost_client *c, uint64_t id, int allowed,
                       const char *why, mcphost_error *err) {
  api_clear_error(err);
  if (!c || id == 0)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_ask_answer needs the client and a question");
  ask_job *j = xcalloc(1, sizeof *j);
  j->c = c;
  j->id = id;
  j->allowed = allowed != 0;
  j->why = why ? xstrdup(why) : NULL;
  if (loop_post(host_loop(c->h), ask_answer_on_loop, j) != 0) {
    free(j->why);
    free(j);
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  }
  return MCPHOST_OK;
}
