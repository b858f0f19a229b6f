/* The call pipeline's permission step (calls_internal.h): the rules on
 * the tool's real name, and the asker when they say ask. */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "mcp/calls_internal.h"
#include "mcp/names.h"
#include "mcp_name.h"
#include "json_write.h"

/* ---- permission ---- */

/* Rules match the full normalized name, never a shortened one: a rule
 * must not depend on how long the other names are. */
char *mcp_op_qualified_name(const mcp_op *op, const char *tool,
                            bool normalized) {
  /* Written in place, each part normalized where it goes: on every call,
   * where a printf, or a copy of each part, cost more than the rest of
   * deciding. A part never grows when normalized. */
  const char *srv = mcp_op_server_name(op);
  size_t ns = strlen(srv), nt = strlen(tool);
  char *q = xmalloc(sizeof "mcp__" - 1 + ns + 2 + nt + 1);
  memcpy(q, "mcp__", 5);
  char *o = q + 5;
  o += mcp_name_normalize_to(srv, o);
  memcpy(o, "__", 2);
  o += 2;
  if (normalized) {
    memcpy(o, tool, nt + 1);
  } else {
    mcp_name_normalize_to(tool, o);
  }
  return q;
}

/* The verdict on `tool`; fills *q (new string) and, unless the verdict
 * is allow, *desc (new string; else NULL). */
perm_verdict mcp_op_verdict(const mcp_op *op, const char *tool, bool normalized,
                            char **q, char **desc) {
  *q = mcp_op_qualified_name(op, tool, normalized);
  perm_verdict v = perm_decide(op->mc->h->cfg.perms, *q,
                               &op->mc->h->cfg.servers[op->call.server]);
  *desc = v.kind == PERM_ALLOW ? NULL : perm_describe(&v);
  return v;
}

static void on_ask_answer(void *token, bool allowed, const char *why) {
  mcp_op *op = token;
  op->asking = false;
  op->ask_handle = NULL;
  op->answered_at_once = true;
  if (op->finished) {
    return;
  }
  char *q, *desc;
  mcp_op_verdict(op, op->real, false, &q, &desc);
  if (!allowed) {
    mcp_op_fail(op, MCP_ERR_DENIED,
                "tool call refused: %s needs permission (%s): %s", q, desc,
                why ? why : "");
  } else {
    host_log(op->mc->h, MCPH_LOG_INFO, NULL, "%s: %s", q, why ? why : "");
    mcp_op_send_call(op);
  }
  free(q);
  free(desc);
}

/* The rules on the real name (the name given may be a shortened or
 * hashed alias that no rule names); "ask" goes to the asker. */
/* Whether normalizing `s` (names.h) leaves it as it is. */
static bool normal_name(const char *s) {
  for (; *s; s++) {
    if (!mcp_name_char((unsigned char)*s)) {
      return false;
    }
  }
  return true;
}

void mcp_op_check_permission(mcp_op *op) {
  char *q, *desc;
  perm_verdict v;
  if (!op->call.qualified || (op->given_q && strcmp(op->real, op->name) == 0 &&
                              normal_name(op->real))) {
    /* The name given is the real one, or the mcp__ form of it that the
     * rules saw already: the verdict is known. */
    v = op->given;
    q = op->given_q;
    op->given_q = NULL;
    desc = v.kind == PERM_ALLOW ? NULL : perm_describe(&v);
  } else {
    v = mcp_op_verdict(op, op->real, false, &q, &desc);
  }
  if (v.kind == PERM_ALLOW) {
    free(q);
    mcp_op_send_call(op);
    return;
  }
  if (v.kind == PERM_DENY) {
    mcp_op_fail(op, MCP_ERR_DENIED, "tool call refused: %s: %s", q, desc);
  } else if (v.kind == PERM_ASK && !op->cb.asker) {
    mcp_op_fail(
        op, MCP_ERR_DENIED,
        "tool call refused: %s needs permission (%s) and there is no one "
        "to ask",
        q, desc);
  } else {
    if (!op->description) {
      /* A list at hand gives the question the tool's description. */
      const cJSON *tools = mcp_client_cached_tools(op->mc, op->call.server);
      const cJSON *t = tools ? mcp_op_find_named(op, tools) : NULL;
      const char *d = cJSON_GetStringValue(
          cJSON_GetObjectItemCaseSensitive(t, "description"));
      op->description = d ? xstrdup(d) : NULL;
    }
    char *args_text = op->args ? json_print(op->args) : NULL;
    mcp_ask a = {.tool = q,
                 .server = mcp_op_server_name(op),
                 .tool_name = op->real,
                 .arguments_json = args_text ? args_text : "{}",
                 .reason = desc,
                 .description = op->description};
    op->asking = true;
    op->answered_at_once = false;
    /* A refusal from inside start() ends (and frees) the op. */
    bool *outer = op->live, here = true;
    op->live = &here;
    void *handle = op->cb.asker->start(op->cb.asker->ud, &a, on_ask_answer, op);
    if (!here) {
      if (outer) {
        *outer = false;
      }
      cJSON_free(args_text);
      free(q);
      free(desc);
      return;
    }
    op->live = outer;
    if (!op->answered_at_once) {
      op->ask_handle = handle;
    }
    cJSON_free(args_text);
  }
  free(q);
  free(desc);
}
