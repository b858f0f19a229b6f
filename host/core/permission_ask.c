#include "core/permission_ask.h"

#include <stdlib.h>
#include <string.h>

#include "core/request.h"
#include "util.h"

typedef enum {
  SLOT_ASKING,    /* inside ask() */
  SLOT_PENDING,   /* accepted; the answer will come */
  SLOT_ABSTAINED, /* declined to answer */
  SLOT_DONE       /* answered or withdrawn */
} slot_state;

typedef struct slot {
  mcph_request handle; /* first: the question as a pending request */
  perm_ask *a;
  const plugin *p;
  const mcph_permission_decider *d;
  mcph_permission_request req;
  slot_state state;
} slot;

struct perm_ask {
  host *h;
  char *tool, *server, *tool_name, *args, *reason, *description;
  slot *slots;
  size_t nslots;
  const perm_ask_local *local;
  bool local_asking; /* the local question is open */
  loop_timer *timeout, *deliver;
  size_t waiting; /* pending plugins, plus the local question */
  bool started;   /* perm_ask_start has returned */
  bool decided, allowed;
  char *why;
  perm_ask_done_fn done;
  void *ud;
};

/* `allowed`, `why`: the answer that settled the question, or false and
 * NULL (withdrawn). */
static void withdraw_all(perm_ask *a, bool allowed, const char *why) {
  for (size_t i = 0; i < a->nslots; i++) {
    slot *s = &a->slots[i];
    if (s->state != SLOT_PENDING)
      continue;
    s->state = SLOT_DONE;
    s->d->cancel(s->p->ctx, &s->req);
  }
  if (a->local_asking) {
    a->local_asking = false;
    a->local->stop(a->local->ud, allowed, why);
  }
  if (a->timeout) {
    loop_timer_cancel(a->h->loop, a->timeout);
    a->timeout = NULL;
  }
}

static void ask_free(perm_ask *a) {
  free(a->tool);
  free(a->server);
  free(a->tool_name);
  free(a->args);
  free(a->reason);
  free(a->description);
  free(a->slots);
  free(a->why);
  free(a);
}

static void deliver(void *ud) {
  perm_ask *a = ud;
  a->deliver = NULL;
  a->done(a->ud, a->allowed, a->why);
  ask_free(a);
}

/* The first answer wins; later ones are ignored. */
static void decide(perm_ask *a, bool allowed, char *why) {
  if (a->decided) {
    free(why);
    return;
  }
  a->decided = true;
  a->allowed = allowed;
  a->why = why;
  withdraw_all(a, allowed, why);
  /* Deliver from a fresh loop turn: never inside start() or a plugin's
   * reply, so the caller may free what it likes. */
  a->deliver = loop_timer_start(a->h->loop, 0, deliver, a);
}

static char *nobody_left(const perm_ask *a) {
  return xasprintf("nobody can answer (no terminal, and no plugin "
                   "decides); pass --allow %s to allow it",
                   a->tool);
}

/* A plugin's answer, however it came (request.h: respond, respond_error
 * or the 1.3 reply). `abstain_known`: whether MCPH_PERMISSION_ABSTAIN
 * means abstaining (ABI 1.5) rather than "not allow". */
static void slot_answer(slot *s, int decision, const char *reason,
                        bool abstain_known) {
  if (s->state != SLOT_ASKING && s->state != SLOT_PENDING)
    return; /* withdrawn or already answered: ignored */
  if (decision == MCPH_PERMISSION_ABSTAIN && abstain_known) {
    bool was_pending = s->state == SLOT_PENDING;
    s->state = SLOT_ABSTAINED;
    if (was_pending && --s->a->waiting == 0 && s->a->started)
      decide(s->a, false, nobody_left(s->a));
    return;
  }
  s->state = SLOT_DONE;
  bool allow = decision == MCPH_PERMISSION_ALLOW;
  /* Anything but a clear allow refuses: a confused plugin must not open
   * the door. */
  char *why =
      xasprintf("%s by plugin %s%s%s", allow ? "allowed" : "denied", s->p->id,
                reason && *reason ? ": " : "", reason && *reason ? reason : "");
  decide(s->a, allow, why);
}

/* The 1.3 way, a thin wrapper: ABSTAIN is 1.5, and to an older plugin 3
 * was just "not allow". */
static void on_reply(mcph_permission_request *req, int decision,
                     const char *reason) {
  slot *s = req->host_data;
  slot_answer(s, decision, reason, s->p->abi_minor >= 5);
}

/* respond(): {"decision": "allow"|"deny"|"abstain", "reason": TEXT}. */
static int answer_result(mcph_request *req, cJSON *result, mcph_error *err) {
  slot *s = (slot *)req;
  const cJSON *d = cJSON_GetObjectItemCaseSensitive(result, "decision");
  const cJSON *r = cJSON_GetObjectItemCaseSensitive(result, "reason");
  const char *name = cJSON_GetStringValue(d);
  int decision = !name                          ? 0
                 : strcmp(name, "allow") == 0   ? MCPH_PERMISSION_ALLOW
                 : strcmp(name, "deny") == 0    ? MCPH_PERMISSION_DENY
                 : strcmp(name, "abstain") == 0 ? MCPH_PERMISSION_ABSTAIN
                                                : 0;
  if (!decision) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "a permission answer needs \"decision\": "
                          "\"allow\", \"deny\" or \"abstain\"");
  }
  if (r && !cJSON_IsString(r) && !cJSON_IsNull(r)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "a permission answer's \"reason\" must be a "
                          "string");
  }
  slot_answer(s, decision, cJSON_GetStringValue(r), true);
  cJSON_Delete(result);
  return MCPH_OK;
}

/* respond_error(): the plugin cannot answer after all, so it abstains. */
static void answer_error(mcph_request *req, int code, const char *message,
                         cJSON *data) {
  slot *s = (slot *)req;
  cJSON_Delete(data);
  if (s->state == SLOT_ASKING || s->state == SLOT_PENDING) {
    host_log(s->a->h, MCPH_LOG_INFO, s->p->id,
             "cannot answer whether %s may run (%d: %s); it abstains",
             s->a->tool, code, message);
  }
  slot_answer(s, MCPH_PERMISSION_ABSTAIN, NULL, true);
}

static const request_ops slot_ops = {answer_result, answer_error};

static void on_timeout(void *ud) {
  perm_ask *a = ud;
  a->timeout = NULL;
  decide(a, false, xstrdup("no answer in time; refused"));
}

void perm_ask_local_answer(perm_ask *a, bool allowed, const char *why) {
  if (!a->local_asking) {
    return; /* settled already */
  }
  a->local_asking = false;
  decide(a, allowed, xstrdup(why));
}

perm_ask *perm_ask_start(host *h, const perm_ask_params *p,
                         perm_ask_done_fn done, void *ud) {
  perm_ask *a = xcalloc(1, sizeof *a);
  a->h = h;
  a->tool = xstrdup(p->tool);
  a->server = xstrdup(p->server);
  a->tool_name = xstrdup(p->tool_name);
  a->args = xstrdup(p->arguments_json ? p->arguments_json : "{}");
  a->reason = xstrdup(p->reason ? p->reason : "");
  a->description = p->description ? xstrdup(p->description) : NULL;
  a->local = p->local;
  a->done = done;
  a->ud = ud;

  /* Every decider gets its own request, so a reply says who answered.
   * The array is sized first: requests must not move once handed out. */
  for (size_t i = 0; i < h->reg.nplugins; i++) {
    plugin *pl = h->reg.plugins[i];
    const mcph_permission_decider *d =
        plugin_extension(pl, MCPH_EXT_PERMISSION);
    if (d && MCPH_HAS(d, mcph_permission_decider, cancel) && d->ask &&
        d->cancel)
      a->nslots++;
  }
  a->slots = xcalloc(a->nslots ? a->nslots : 1, sizeof *a->slots);
  size_t k = 0;
  for (size_t i = 0; i < h->reg.nplugins && k < a->nslots; i++) {
    plugin *pl = h->reg.plugins[i];
    const mcph_permission_decider *d =
        plugin_extension(pl, MCPH_EXT_PERMISSION);
    if (!(d && MCPH_HAS(d, mcph_permission_decider, cancel) && d->ask &&
          d->cancel))
      continue;
    slot *s = &a->slots[k++];
    s->handle = (mcph_request){&slot_ops, pl};
    s->a = a;
    s->p = pl;
    s->d = d;
    s->req = (mcph_permission_request){.struct_size = sizeof s->req,
                                       .tool = a->tool,
                                       .server = a->server,
                                       .tool_name = a->tool_name,
                                       .arguments_json = a->args,
                                       .reason = a->reason,
                                       .reply = on_reply,
                                       .host_data = s,
                                       .description = a->description,
                                       .request = &s->handle};
  }

  for (size_t i = 0; i < a->nslots && !a->decided; i++) {
    slot *s = &a->slots[i];
    s->state = SLOT_ASKING;
    int rc = s->d->ask(s->p->ctx, &s->req);
    if (s->state == SLOT_ASKING)
      s->state = rc == MCPH_OK ? SLOT_PENDING : SLOT_ABSTAINED;
    a->waiting += s->state == SLOT_PENDING;
  }
  a->started = true;
  if (a->decided)
    return a;
  if (a->local) {
    /* The question as the plugins have it: the ask's own copies. */
    perm_ask_params q = {.tool = a->tool,
                         .server = a->server,
                         .tool_name = a->tool_name,
                         .arguments_json = a->args,
                         .reason = a->reason,
                         .description = a->description,
                         .timeout_ms = p->timeout_ms};
    if (a->local->start(a->local->ud, a, &q)) {
      a->local_asking = true;
      a->waiting++;
    }
  }
  if (a->waiting == 0) {
    decide(a, false, nobody_left(a));
    return a;
  }
  if (p->timeout_ms && !a->local_asking)
    a->timeout = loop_timer_start(h->loop, p->timeout_ms, on_timeout, a);
  return a;
}

void perm_ask_cancel(perm_ask *a) {
  if (!a)
    return;
  withdraw_all(a, false, NULL);
  if (a->deliver)
    loop_timer_cancel(a->h->loop, a->deliver);
  ask_free(a);
}
