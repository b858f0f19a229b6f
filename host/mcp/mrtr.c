/* The inputs of an input_required result (mrtr.h). */
#include "mcp/mrtr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/feature_plugins.h"
#include "util.h"
#include "mcp/session.h"

typedef struct one one;

/* Freed when the last answer came, withdrawn or not. */
typedef struct mrtr_gathering {
  struct session *s;
  int64_t origin; /* the request whose inputs these are */
  cJSON *responses;
  size_t pending;
  char *error; /* the first reason no answer could be given */
  mrtr_done_fn done;
  void *ud;
  mrtr_gathering **handle; /* the owner's pointer to this, or NULL */
  one *asked;              /* the inputs a plugin is working on */
  bool withdrawn;          /* `done` is not called */
} gather;

struct one {
  gather *g;
  char *key;
  one *next;
};

/* An input offered to the front end, until session_answer answers it. */
typedef struct mrtr_offer {
  cJSON *id; /* the session's own id for it (owned) */
  one *o;
  struct mrtr_offer *next;
} mrtr_offer;

#define OFFER_PREFIX "mcphost-mrtr-"

static void settle(gather *g) {
  if (--g->pending > 0) {
    return;
  }
  if (g->handle) {
    *g->handle = NULL;
  }
  if (g->withdrawn) {
    cJSON_Delete(g->responses);
  } else if (g->error) {
    cJSON_Delete(g->responses);
    g->done(g->ud, NULL, g->error);
  } else {
    g->done(g->ud, g->responses, NULL);
  }
  free(g->error);
  free(g);
}

static void unlink_one(one *o) {
  for (one **pp = &o->g->asked; *pp; pp = &(*pp)->next) {
    if (*pp == o) {
      *pp = o->next;
      return;
    }
  }
}

static void failed(gather *g, const char *fmt, const char *a, const char *b) {
  if (!g->error) {
    g->error = xasprintf(fmt, a, b);
  }
}

static void on_answer(void *ud, const cJSON *result, int code,
                      const char *message) {
  one *o = ud;
  gather *g = o->g;
  unlink_one(o);
  if (g->withdrawn) {
    /* The answer to a dismissed input: nobody wants it. */
  } else if (result) {
    cJSON *copy = cJSON_Duplicate(result, 1);
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "resultType");
    cJSON_AddItemToObject(g->responses, o->key, copy);
  } else {
    char c[32];
    snprintf(c, sizeof c, "%d", code);
    failed(g, "the input it asked for could not be given: %s (error %s)",
           message ? message : "no answer", c);
  }
  free(o->key);
  free(o);
  settle(g);
}

/* Offers input `key` to the front end; false when it does not take it. */
static bool offer(session *s, gather *g, const char *key, const char *method,
                  const cJSON *params) {
  if (!s->on_request) {
    return false;
  }
  char name[64];
  snprintf(name, sizeof name, OFFER_PREFIX "%lu", ++s->mrtr_next);
  mrtr_offer *f = xcalloc(1, sizeof *f);
  f->id = cJSON_CreateString(name);
  f->o = xcalloc(1, sizeof *f->o);
  f->o->g = g;
  f->o->key = xstrdup(key);
  f->next = s->mrtr_offers;
  s->mrtr_offers = f;
  g->pending++;
  cJSON *id = cJSON_Duplicate(f->id, 1); /* `f` may be answered, freed */
  bool taken =
      s->on_request(s->on_request_ud, s, method, params, id, g->origin);
  cJSON_Delete(id);
  if (!taken) {
    s->mrtr_offers = f->next; /* still the first: nothing answered it */
    g->pending--;
    cJSON_Delete(f->id);
    free(f->o->key);
    free(f->o);
    free(f);
  }
  return taken;
}

bool mrtr_answer(session *s, const cJSON *id, const cJSON *result, int code,
                 const char *message) {
  /* Only an id offered and not yet answered is ours: a legacy server's
   * own request may have any id, "mcphost-mrtr-1" too. */
  if (!cJSON_IsString(id)) {
    return false;
  }
  for (mrtr_offer **p = &s->mrtr_offers; *p; p = &(*p)->next) {
    mrtr_offer *f = *p;
    if (cJSON_Compare(f->id, id, true)) {
      *p = f->next;
      one *o = f->o;
      cJSON_Delete(f->id);
      free(f);
      on_answer(o, result, code, message);
      return true;
    }
  }
  return false;
}

void mrtr_session_gone(session *s) {
  while (s->mrtr_offers) {
    mrtr_offer *f = s->mrtr_offers;
    s->mrtr_offers = f->next;
    cJSON_Delete(f->id);
    /* Its gathering was withdrawn with its request (session_free fails
     * those first); the answer that will never come ends it now. */
    gather *g = f->o->g;
    g->withdrawn = true;
    if (g->handle) {
      *g->handle = NULL;
      g->handle = NULL;
    }
    on_answer(f->o, NULL, 0, "the session is closed");
    free(f);
  }
}

void mrtr_gather(session *s, const cJSON *requests, int64_t origin,
                 mrtr_done_fn done, void *ud, mrtr_gathering **handle) {
  gather *g = xcalloc(1, sizeof *g);
  g->s = s;
  g->origin = origin;
  g->responses = cJSON_CreateObject();
  g->done = done;
  g->ud = ud;
  g->handle = handle;
  *handle = g;
  g->pending = 1; /* held until every request is out */
  const cJSON *list = cJSON_IsObject(requests) ? requests : NULL, *r;
  cJSON_ArrayForEach(r, list) {
    const char *method =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "method"));
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(r, "params");
    if (!method) {
      failed(g, "input request \"%s\" has no method%s", r->string, "");
      continue;
    }
    if (offer(s, g, r->string, method, params)) {
      continue; /* the front end answers it */
    }
    if (strcmp(method, "roots/list") == 0) {
      if (!s->roots) {
        failed(g,
               "it asked for %s, which mcphost does not offer this "
               "server (input \"%s\")",
               method, r->string);
        continue;
      }
      cJSON *res = cJSON_CreateObject();
      cJSON_AddItemToObject(res, "roots", cJSON_Duplicate(s->roots, 1));
      cJSON_AddItemToObject(g->responses, r->string, res);
      continue;
    }
    one *o = xcalloc(1, sizeof *o);
    o->g = g;
    o->key = xstrdup(r->string);
    o->next = g->asked;
    g->asked = o;
    g->pending++;
    cJSON *p = params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject();
    bool taken = features_local_request(s, method, p, on_answer, o);
    cJSON_Delete(p);
    if (!taken) {
      g->pending--;
      unlink_one(o);
      free(o->key);
      free(o);
      failed(g, "it asked for %s (input \"%s\"), and no plugin answers that",
             method, r->string);
    }
  }
  settle(g);
}

void mrtr_withdraw(mrtr_gathering *g) {
  g->withdrawn = true;
  if (g->handle) {
    *g->handle = NULL;
    g->handle = NULL;
  }
  /* Each plugin still answers once (on_answer, maybe from inside
   * features_local_cancel), and that answer frees its input and may end
   * the gathering: held until the walk is over. */
  g->pending++;
  one *o = g->asked;
  while (o) {
    one *next = o->next;
    features_local_cancel(g->s, on_answer, o);
    o = next;
  }
  /* The inputs offered to the front end: it is told, as by a legacy
   * server's notifications/cancelled for its own request, and its answer
   * is no longer awaited. One at a time from the head: the front end may
   * answer others while it is told. */
  session *s = g->s;
  for (bool again = true; again;) {
    again = false;
    for (mrtr_offer **pp = &s->mrtr_offers; *pp; pp = &(*pp)->next) {
      mrtr_offer *f = *pp;
      if (f->o->g != g) {
        continue;
      }
      *pp = f->next;
      cJSON *params = cJSON_CreateObject();
      cJSON_AddItemToObject(params, "requestId", f->id);
      cJSON_AddStringToObject(params, "reason", "the request was cancelled");
      on_answer(f->o, NULL, 0, NULL);
      free(f);
      if (s->on_notify) {
        s->on_notify(s->on_notify_ud, s, "notifications/cancelled", params);
      }
      cJSON_Delete(params);
      again = true;
      break;
    }
  }
  settle(g);
}
