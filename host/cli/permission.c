/* Whether a tool call may run: the permission rules (permissions.h), and
 * for "ask" the --allow options, the terminal and permission plugins
 * (permission_ask.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../names.h"
#include "../permission_ask.h"
#include "../permissions.h"
#include "../util.h"
#include "cli.h"

/* Rules match the full normalized name, never a shortened one: a rule
 * must not depend on how long the other names are. */
static char *qualified_name(const cli *c, size_t idx, const char *tool,
                            bool normalized) {
  char *srv = name_normalize(c->h->cfg.servers[idx].name);
  char *t = normalized ? xstrdup(tool) : name_normalize(tool);
  char *q = xasprintf("mcp__%s__%s", srv, t);
  free(srv);
  free(t);
  return q;
}

static bool allowed_by_option(const cli *c, const char *q) {
  for (size_t i = 0; i < c->nallow_tools; i++)
    if (perm_pattern_match(c->allow_tools[i], q))
      return true;
  return false;
}

/* The verdict for the tool; fills `q` (new string) and `desc` (new). */
static perm_verdict verdict(const cli *c, size_t idx, const char *tool,
                            bool normalized, char **q, char **desc) {
  *q = qualified_name(c, idx, tool, normalized);
  perm_verdict v = perm_decide(c->h->cfg.perms, *q, &c->h->cfg.servers[idx]);
  *desc = perm_describe(&v);
  return v;
}

int cli_permission_precheck(cli *c, size_t idx, const char *tool,
                            bool normalized) {
  char *q, *desc;
  perm_verdict v = verdict(c, idx, tool, normalized, &q, &desc);
  int rc = EXIT_OK;
  if (v.kind == PERM_DENY) {
    fprintf(stderr, "mcphost: tool call refused: %s: %s\n", q, desc);
    rc = EXIT_DENIED;
  }
  free(q);
  free(desc);
  return rc;
}

int cli_permission_now(cli *c, size_t idx, const char *tool, bool normalized,
                       char *why, size_t why_len) {
  char *q, *desc;
  perm_verdict v = verdict(c, idx, tool, normalized, &q, &desc);
  int rc = EXIT_OK;
  if (v.kind == PERM_DENY) {
    snprintf(why, why_len, "tool call refused: %s: %s", q, desc);
    rc = EXIT_DENIED;
  } else if (v.kind == PERM_ASK && !allowed_by_option(c, q)) {
    snprintf(why, why_len,
             "tool call refused: %s needs permission (%s) and batch cannot "
             "ask; pass --allow %s",
             q, desc, q);
    rc = EXIT_DENIED;
  }
  free(q);
  free(desc);
  return rc;
}

typedef struct answer {
  bool done, allowed;
  char *why;
} answer;

static void on_answer(void *ud, bool allowed, const char *why) {
  answer *a = ud;
  a->done = true;
  a->allowed = allowed;
  a->why = xstrdup(why ? why : "");
}

int cli_check_permission(cli *c, size_t idx, const char *tool,
                         const char *description, const cJSON *args) {
  char *q, *desc;
  perm_verdict v = verdict(c, idx, tool, false, &q, &desc);
  int rc = EXIT_OK;
  if (v.kind == PERM_DENY) {
    fprintf(stderr, "mcphost: tool call refused: %s: %s\n", q, desc);
    rc = EXIT_DENIED;
    goto out;
  }
  if (v.kind != PERM_ASK)
    goto out;
  if (allowed_by_option(c, q)) {
    host_log(c->h, MCPH_LOG_INFO, NULL,
             "%s needs permission (%s): given by "
             "--allow",
             q, desc);
    goto out;
  }
  /* The terminal only when both ends are one: the prompt must reach the
   * person who answers it. */
  bool tty = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
  char *args_text = args ? cJSON_PrintUnformatted(args) : NULL;
  perm_ask_params p = {.tool = q,
                       .server = c->h->cfg.servers[idx].name,
                       .tool_name = tool,
                       .arguments_json = args_text ? args_text : "{}",
                       .reason = desc,
                       .description = description,
                       .tty_in = tty ? STDIN_FILENO : -1,
                       .tty_out = stderr,
                       .timeout_ms = tty ? 0 : c->request_timeout_ms};
  answer a = {0};
  perm_ask *ask = perm_ask_start(c->h, &p, on_answer, &a);
  cJSON_free(args_text);
  if (host_run_until(c->h, &a.done, 0) == -2 && !a.done) {
    perm_ask_cancel(ask);
    fprintf(stderr,
            "mcphost: tool call of %s: interrupted while asking for "
            "permission\n",
            q);
    rc = EXIT_INTERRUPTED;
    goto out;
  }
  if (!a.allowed) {
    /* A plugin's reason may quote a server or a channel. */
    fprintf(stderr,
            "mcphost: tool call refused: %s needs permission (%s): "
            "%s\n",
            q, cli_esc(c, desc), cli_esc(c, a.why));
    rc = EXIT_DENIED;
  } else {
    host_log(c->h, MCPH_LOG_INFO, NULL, "%s: %s", q, a.why);
  }
  free(a.why);
out:
  free(q);
  free(desc);
  return rc;
}
