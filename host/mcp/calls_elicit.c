/* The call pipeline's -32042 (calls_internal.h): the URL elicitations
 * a server asks for first, then the call again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/feature_plugins.h"
#include "core/host.h"
#include "util.h"
#include "mcp/calls_internal.h"

/* ---- -32042: the URL elicitations, then the call again ---- */

/* Accepting a URL elicitation means the person was sent to the URL, not
 * that they are done there: the call is sent again once the server says
 * each one is complete (notifications/elicitation/complete for its
 * elicitationId), or once the person says so on the terminal (a line on
 * stdin), within the call's deadline. */

/* The op's URL wait, allocated when first used (mcp_op_free frees it). */
static op_url_wait *url_of(mcp_op *op) {
  if (!op->url) {
    op->url = xcalloc(1, sizeof *op->url);
  }
  return op->url;
}

/* How many URL elicitations the op knows the ids of. */
static size_t url_count(const mcp_op *op) {
  return op->url ? op->url->n : 0;
}

void mcp_op_url_ids_clear(mcp_op *op) {
  op_url_wait *u = op->url;
  if (!u) {
    return;
  }
  for (size_t i = 0; i < u->n; i++) {
    free(u->ids[i]);
  }
  free(u->ids);
  free(u->done);
  u->ids = NULL;
  u->done = NULL;
  u->n = 0;
}

/* The ids of the error's URL elicitations: the completions to wait for. */
void mcp_op_url_ids_set(mcp_op *op, const cJSON *data) {
  mcp_op_url_ids_clear(op);
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(data, "elicitations");
  size_t n = (size_t)cJSON_GetArraySize(list);
  op_url_wait *u = url_of(op);
  u->ids = xcalloc(n ? n : 1, sizeof *u->ids);
  u->done = xcalloc(n ? n : 1, sizeof *u->done);
  const cJSON *e;
  cJSON_ArrayForEach(e, list) {
    const char *mode =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "mode"));
    const char *id = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(e, "elicitationId"));
    if (mode && strcmp(mode, "url") == 0 && id && u->n < n) {
      u->ids[u->n++] = xstrdup(id);
    }
  }
}

static bool url_all_done(const mcp_op *op) {
  for (size_t i = 0; i < url_count(op); i++) {
    if (!op->url->done[i]) {
      return false;
    }
  }
  return true;
}

void mcp_op_url_wait_stop(mcp_op *op) {
  op_url_wait *u = op->url;
  if (u && u->timer) {
    loop_timer_cancel(op->mc->h->loop, u->timer);
    u->timer = NULL;
  }
  if (u && u->ask) {
    host_ui_service()->cancel(&op->mc->h->self.api, u->ask);
    u->ask = NULL;
  }
  op->url_waiting = false;
}

static void url_retry(mcp_op *op, const char *why) {
  mcp_op_url_wait_stop(op);
  host_log(op->mc->h, MCPH_LOG_INFO, op->s->cfg->name,
           "%s; sending the call again", why);
  mcp_op_send_call(op);
}

/* The ids still awaited, for messages: "a", "b" (at most three). */
static char *url_pending_text(const mcp_op *op) {
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  size_t shown = 0, left = 0;
  for (size_t i = 0; i < url_count(op); i++) {
    if (op->url->done[i]) {
      continue;
    }
    if (shown == 3) {
      left++;
      continue;
    }
    sb_printf(&b, "%s%.100s", shown ? ", " : "", op->url->ids[i]);
    shown++;
  }
  if (left) {
    sb_printf(&b, " and %zu more", left);
  }
  return sb_take(&b);
}

static void on_url_deadline(void *ud) {
  mcp_op *op = ud;
  op->url->timer = NULL; /* a fired timer frees itself */
  char *ids = url_pending_text(op);
  bool asked = op->url->ask != NULL;
  size_t n = url_count(op);
  mcp_op_url_wait_stop(op);
  mcp_op_fail(
      op, MCP_ERR_TIMEOUT,
      "server \"%s\": tools/call timed out after %llu ms waiting for the "
      "URL elicitation %s to be completed (%s%s)",
      op->s->cfg->name, (unsigned long long)op->mc->opt.tool_timeout_ms, ids,
      n ? "no notifications/elicitation/complete came for it"
        : "nobody said it was done",
      n && asked ? ", and nobody said it was done" : "");
  free(ids);
}

static void on_url_line(void *ud, const char *answer, const mcph_error *err) {
  mcp_op *op = ud;
  op->url->ask = NULL; /* dead once its answer runs */
  if (!answer) {
    /* The input ended: only the server's word is left to wait for. */
    (void)err;
    if (url_count(op) == 0) {
      url_retry(op, "the terminal's input ended");
    }
    return;
  }
  url_retry(op, "the URL elicitation was said to be done on the terminal");
}

static void url_wait_start(mcp_op *op) {
  host *h = op->mc->h;
  const mcph_host *self = &h->self.api;
  bool person = host_ui_service()->interactive(self) != 0;
  op_url_wait *u = url_of(op);
  if (u->n > 0 && url_all_done(op)) {
    url_retry(op, "the URL elicitation is complete");
    return;
  }
  if (u->n == 0 && !person) {
    /* No id to hear of and nobody to ask: as before, at once. */
    mcp_op_send_call(op);
    return;
  }
  uint64_t now = loop_now_ms(), limit = op->mc->opt.tool_timeout_ms;
  uint64_t end = op->call_started_ms + limit;
  if (end <= now) {
    op->url_waiting = true;
    on_url_deadline(op);
    return;
  }
  op->url_waiting = true;
  u->timer = loop_timer_start(h->loop, end - now, on_url_deadline, op);
  char *ids = url_pending_text(op);
  host_log_labeled(
      h, MCPH_LOG_WARN, "waiting", op->s->cfg->name,
      "tools/call %s waits for the URL elicitation to be completed: %s%s%s%s "
      "(at most %llu s more)",
      op->real ? op->real : op->name,
      u->n ? "notifications/elicitation/complete for " : "", ids,
      u->n && person ? ", or " : "",
      person ? "Enter here once you are done in the browser" : "",
      (unsigned long long)((end - now + 999) / 1000));
  free(ids);
  if (person) {
    mcph_error err;
    mcph_error_init(&err);
    const char *q = "press Enter once you are done:";
    if (host_ui_service()->ask(self, q, on_url_line, op, &u->ask, &err) !=
        MCPH_OK) {
      u->ask = NULL;
      host_log(h, MCPH_LOG_DEBUG, op->s->cfg->name,
               "cannot ask on the terminal: %s", err.message);
      if (u->n == 0) {
        url_retry(op, "nobody can be asked");
      }
    }
  }
}

void mcp_ops_elicitation_complete(mcp_client *mc, const session *s,
                                  const char *id) {
  mcp_op *next;
  for (mcp_op *op = mc->ops; op && id; op = next) {
    next = op->next;
    if (op->s != s || op->finished) {
      continue;
    }
    bool mine = false;
    for (size_t i = 0; i < url_count(op); i++) {
      if (!op->url->done[i] && strcmp(op->url->ids[i], id) == 0) {
        op->url->done[i] = mine = true;
      }
    }
    if (mine && op->url_waiting && url_all_done(op)) {
      url_retry(op, "the server says the URL elicitation is complete");
    }
  }
}

static void elicitations_done(elicit_wait *w) {
  mcp_op *op = w->op;
  bool accepted = w->all_accepted;
  char reason[300];
  snprintf(reason, sizeof reason, "%s", w->reason);
  free(w);
  if (!op) {
    return;
  }
  op->url->elicit = NULL;
  if (op->finished) { /* cancelled meanwhile */
    mcp_op_free(op);
    return;
  }
  if (!accepted) {
    mcp_op_fail(op, MCP_ERR_PROTOCOL,
                "server \"%s\" requires a URL elicitation, which was not "
                "completed (%s)",
                op->s->cfg->name, reason);
    return;
  }
  url_wait_start(op);
}

static void on_elicited(void *ud, const cJSON *result, int code,
                        const char *message) {
  elicit_wait *w = ud;
  (void)code;
  const char *action =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(result, "action"));
  if (!result || !action || strcmp(action, "accept") != 0) {
    if (w->all_accepted) {
      snprintf(w->reason, sizeof w->reason, "%s",
               result ? (action ? action : "no action")
                      : (message ? message : "error"));
    }
    w->all_accepted = false;
  }
  if (--w->pending == 0) {
    elicitations_done(w);
  }
}

/* Each elicitation of the error's data goes to the feature plugin that
 * answers "elicitation/create", as if the server had sent it. */
void mcp_op_run_elicitations(mcp_op *op, const cJSON *data) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(data, "elicitations");
  if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0) {
    mcp_op_fail(op, MCP_ERR_PROTOCOL,
                "server \"%s\" requires a URL elicitation but listed none",
                op->s->cfg->name);
    return;
  }
  elicit_wait *w = xcalloc(1, sizeof *w);
  w->op = op;
  w->pending = 1; /* held until every request is out */
  w->all_accepted = true;
  url_of(op)->elicit = w;
  const cJSON *e;
  bool unhandled = false;
  cJSON_ArrayForEach(e, list) {
    w->pending++;
    if (!features_local_request(op->s, "elicitation/create", e, on_elicited,
                                w)) {
      w->pending--;
      unhandled = true;
      break;
    }
  }
  if (unhandled) {
    /* Nothing will complete: say so plainly (answers still due free w). */
    w->op = NULL;
    op->url->elicit = NULL;
    if (--w->pending == 0) {
      free(w);
    }
    mcp_op_fail(
        op, MCP_ERR_PROTOCOL,
        "server \"%s\" requires a URL elicitation, and no plugin handles "
        "elicitation",
        op->s->cfg->name);
    return;
  }
  if (--w->pending == 0) {
    elicitations_done(w);
  }
}
