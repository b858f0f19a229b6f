/*
 * One elicitation from request to answer:
 *
 *   before-hook  (option elicitation-hook-before) may answer in place of
 *                everything below, or print nothing to let it happen
 *   main         the policy: decline, cancel, accept-defaults, a hook, or
 *                the terminal (ask)
 *   after-hook   (option elicitation-hook-after) sees the request and the
 *                answer, and may print another answer, or nothing to
 *                keep it
 *
 * Every answer a hook gives is checked against the request (value.c).
 * Whatever goes wrong with a hook -- it cannot start, exits non-zero, runs
 * past its deadline, prints something that is not a valid answer -- ends
 * the elicitation with "cancel" and a warning that says why: a broken
 * hook must neither send data nobody approved nor pass silently.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elicit.h"
#include "hook.h"

static const char *const stage_names[] = {"before-hook", "hook", "after-hook",
                                          ""};

cJSON *flow_action(const char *action) {
  cJSON *a = cJSON_CreateObject();
  if (!a || !cJSON_AddStringToObject(a, "action", action))
    abort();
  return a;
}

static cJSON *request_object(const elicitation *e) {
  cJSON *r = cJSON_CreateObject();
  if (!r)
    abort();
  cJSON_AddStringToObject(r, "server", e->server_name);
  cJSON_AddStringToObject(r, "mode", e->url_mode ? "url" : "form");
  cJSON_AddStringToObject(r, "message", e->message);
  if (e->url_mode) {
    cJSON_AddStringToObject(r, "url", e->url);
    if (e->elicitation_id) {
      cJSON_AddStringToObject(r, "elicitationId", e->elicitation_id);
    }
  } else {
    cJSON *schema =
        e->schema ? cJSON_Duplicate(e->schema, true) : cJSON_CreateObject();
    if (!schema)
      abort();
    cJSON_AddItemToObject(r, "requestedSchema", schema);
  }
  return r;
}

static char *print(const cJSON *j) {
  char *text = cJSON_PrintUnformatted(j);
  if (!text)
    abort();
  return text; /* cJSON_free */
}

char *flow_request_json(const elicitation *e) {
  cJSON *r = request_object(e);
  char *text = print(r);
  cJSON_Delete(r);
  return text;
}

void flow_free(elicitation *e) {
  free(e->server_name);
  free(e->message);
  free(e->url);
  free(e->url_host);
  free(e->elicitation_id);
  cJSON_Delete(e->schema);
  schema_free(&e->form);
  free(e->hook);
  free(e->hook_before);
  free(e->hook_after);
  cJSON_Delete(e->answer);
  free(e);
}

/* Ids whose completion never comes are dropped beyond this, oldest
 * first, so that a long session does not grow without bound. */
#define MAX_URLS 256

static void remember_url(elicitation *e) {
  elicit_plugin *pl = e->pl;
  if (pl->nurls >= MAX_URLS) {
    url_pending **pp = &pl->urls;
    while ((*pp)->next)
      pp = &(*pp)->next;
    free((*pp)->server_name);
    free((*pp)->id);
    free(*pp);
    *pp = NULL;
    pl->nurls--;
  }
  url_pending *u = xcalloc(1, sizeof *u);
  u->server = e->server;
  u->server_name = xstrdup(e->server_name);
  u->id = xstrdup(e->elicitation_id);
  u->next = pl->urls;
  pl->urls = u;
  pl->nurls++;
}

void flow_finish(elicitation *e, cJSON *answer) {
  elicit_plugin *pl = e->pl;
  e->stage = STAGE_DONE;
  hook_abort(e->run);
  e->run = NULL;
  tty_withdraw(pl, e, "answered elsewhere");
  for (elicitation **pp = &pl->list; *pp; pp = &(*pp)->next)
    if (*pp == e) {
      *pp = e->next;
      break;
    }
  const char *action =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "action"));
  elicit_log(pl, MCPH_LOG_INFO, e->server_name, "elicitation answered: %s",
             action ? action : "?");
  /* Without an id (2026-07-28) no completion will come to wait for. */
  if (e->url_mode && e->elicitation_id && e->server && action &&
      strcmp(action, "accept") == 0) {
    remember_url(e);
  }
  char *text = print(answer);
  mcph_error err;
  mcph_error_init(&err);
  if (pl->svc->respond(pl->host, e->req, text, &err) != 0)
    pl->svc->respond_error(pl->host, e->req, MCPH_RPC_INTERNAL_ERROR,
                           err.message);
  cJSON_free(text);
  cJSON_Delete(answer);
  flow_free(e);
}

static void cancel_with(elicitation *e, const char *fmt, const char *why) {
  elicit_log(e->pl, MCPH_LOG_WARN, e->server_name, fmt, why);
  flow_finish(e, flow_action("cancel"));
}

static void run_hook(elicitation *e, const char *command, const char *input);

static void after(elicitation *e) {
  e->stage = STAGE_AFTER;
  if (!e->hook_after) {
    cJSON *a = e->answer;
    e->answer = NULL;
    flow_finish(e, a);
    return;
  }
  cJSON *in = cJSON_CreateObject();
  if (!in)
    abort();
  cJSON_AddItemToObject(in, "request", request_object(e));
  cJSON *a = cJSON_Duplicate(e->answer, true);
  if (!a)
    abort();
  cJSON_AddItemToObject(in, "answer", a);
  char *text = print(in);
  cJSON_Delete(in);
  run_hook(e, e->hook_after, text);
  cJSON_free(text);
}

void flow_answer(elicitation *e, cJSON *answer) {
  cJSON_Delete(e->answer);
  e->answer = answer;
  if (e->stage == STAGE_AFTER) {
    e->answer = NULL;
    flow_finish(e, answer);
  } else {
    after(e);
  }
}

static void decline_with(elicitation *e, int level, const char *fmt,
                         const char *why) {
  elicit_log(e->pl, level, e->server_name, fmt, why);
  flow_answer(e, flow_action("decline"));
}

static void main_stage(elicitation *e) {
  e->stage = STAGE_MAIN;
  switch (e->policy) {
  case POLICY_DECLINE: flow_answer(e, flow_action("decline")); return;
  case POLICY_CANCEL: flow_answer(e, flow_action("cancel")); return;
  case POLICY_ACCEPT_DEFAULTS: {
    if (e->url_mode) {
      /* Accepting a URL means a person agreed to visit it; nobody will. */
      decline_with(e, MCPH_LOG_INFO,
                   "elicitation=accept-defaults declines URL elicitations "
                   "(nobody is there to open %s)",
                   e->url);
      return;
    }
    char why[500];
    cJSON *content = schema_defaults(&e->form, why, sizeof why);
    if (!content) {
      decline_with(e, MCPH_LOG_WARN,
                   "elicitation=accept-defaults cannot answer: %s; declining",
                   why);
      return;
    }
    cJSON *a = flow_action("accept");
    cJSON_AddItemToObject(a, "content", content);
    flow_answer(e, a);
    return;
  }
  case POLICY_HOOK: {
    char *input = flow_request_json(e);
    run_hook(e, e->hook, input);
    cJSON_free(input);
    return;
  }
  case POLICY_ASK:
  default:
    if (!tty_ask(e->pl, e))
      decline_with(e, MCPH_LOG_WARN, "elicitation: cannot ask: %s; declining",
                   "no terminal (/dev/tty does not open)");
    return;
  }
}

void flow_start(elicitation *e) {
  e->stage = STAGE_BEFORE;
  if (!e->hook_before) {
    main_stage(e);
    return;
  }
  char *input = flow_request_json(e);
  run_hook(e, e->hook_before, input);
  cJSON_free(input);
}

/* True when a hook printed nothing but blanks. */
static bool blank(const char *s) {
  return s[strspn(s, " \t\r\n")] == '\0';
}

static void on_hook_done(void *ud, hook_status st, const char *output,
                         const char *why) {
  elicitation *e = ud;
  e->run = NULL; /* freed after this call */
  const char *stage = stage_names[e->stage];
  char msg[800];
  if (st != HOOK_OK) {
    snprintf(msg, sizeof msg, "%s: %s%s", stage, why,
             st == HOOK_TIMEOUT ? " (option elicitation-hook-timeout)" : "");
    cancel_with(e, "elicitation %s; answering cancel", msg);
    return;
  }
  if (blank(output) && e->stage != STAGE_MAIN) {
    if (e->stage == STAGE_BEFORE) {
      main_stage(e); /* no opinion: ask as usual */
    } else {
      cJSON *keep = e->answer; /* no change */
      e->answer = NULL;
      flow_finish(e, keep);
    }
    return;
  }
  cJSON *parsed = cJSON_Parse(output);
  char reason[500];
  cJSON *answer = NULL;
  if (!parsed)
    snprintf(reason, sizeof reason, "its output is not JSON: %.200s", output);
  else
    answer = value_check_answer(e->url_mode ? NULL : &e->form, parsed, reason,
                                sizeof reason);
  cJSON_Delete(parsed);
  if (!answer) {
    snprintf(msg, sizeof msg, "%s: its answer is invalid: %s", stage, reason);
    cancel_with(e, "elicitation %s; answering cancel", msg);
    return;
  }
  if (e->stage == STAGE_BEFORE) {
    e->stage = STAGE_MAIN; /* answered in place of the policy */
  }
  flow_answer(e, answer);
}

static void run_hook(elicitation *e, const char *command, const char *input) {
  char why[400];
  e->run = hook_start(e->pl->host, command, input, e->hook_timeout_ms,
                      on_hook_done, e, why, sizeof why);
  if (!e->run) {
    char msg[600];
    snprintf(msg, sizeof msg, "%s: %s", stage_names[e->stage], why);
    cancel_with(e, "elicitation %s; answering cancel", msg);
  }
}

void flow_abandon(elicitation *e) {
  e->server = NULL;
  flow_finish(e, flow_action("cancel")); /* frees the request; dropped */
}
