/* mcphost serve: a 2026-07-28 client's subscriptions/listen, bounded,
 * and the backend subscriptions it holds (docs/gateway.md).
 *
 * A listen names each URI once (copies are one), at most LISTEN_URIS of
 * them, and a client holds at most LISTENS_PER_CLIENT listens at once.
 * The hub subscribes to a URI at its backend once, however many listens
 * name it (gw_sub, counted), and unsubscribes when the last listen
 * naming it ends. Loop thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/rpc.h>

#include "gateway/serve_internal.h"
#include "json_write.h"
#include "util.h"

#define LISTEN_URIS 256
#define LISTENS_PER_CLIENT 16

/* One URI subscribed to at one backend, for `refs` listens. */
typedef struct gw_sub {
  size_t idx; /* the backend's config index */
  char *uri;
  size_t refs;
  struct gw_sub *next;
} gw_sub;

/* The answer of a resources/subscribe or unsubscribe: nobody waits for
 * it (a backend that refuses one sends no updates for that URI). */
static void sub_done(void *ud, const char *result_json, size_t len,
                     const mcphost_error *err) {
  (void)ud;
  (void)result_json;
  (void)len;
  (void)err;
}

static void sub_send(gw_hub *hub, const gw_sub *s, const char *method) {
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "uri", s->uri);
  strbuf args;
  sb_init(&args);
  if (json_write(&args, p) == 0) {
    mcphost_request req = MCPHOST_REQUEST_INIT;
    req.kind = MCPHOST_OP_REQUEST;
    req.server = mcphost_server_name(cli_api(hub->c), s->idx);
    req.name = s->uri;
    req.method = method;
    req.arguments = sb_str(&args);
    mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
    cb.done = sub_done;
    mcphost_start(cli_api(hub->c), &req, &cb, NULL);
  }
  sb_free(&args);
  cJSON_Delete(p);
}

static gw_sub *sub_hold(gw_hub *hub, size_t idx, const char *uri) {
  for (gw_sub *s = hub->subs; s; s = s->next) {
    if (s->idx == idx && strcmp(s->uri, uri) == 0) {
      s->refs++;
      return s;
    }
  }
  gw_sub *s = xcalloc(1, sizeof *s);
  s->idx = idx;
  s->uri = xstrdup(uri);
  s->refs = 1;
  s->next = hub->subs;
  hub->subs = s;
  sub_send(hub, s, "resources/subscribe");
  return s;
}

static void sub_release(gw_hub *hub, gw_sub *s) {
  if (--s->refs > 0) {
    return;
  }
  for (gw_sub **pp = &hub->subs; *pp; pp = &(*pp)->next) {
    if (*pp == s) {
      *pp = s->next;
      break;
    }
  }
  sub_send(hub, s, "resources/unsubscribe");
  free(s->uri);
  free(s);
}

/* Drops the copies among `uris` (kept in order); false as soon as more
 * than LISTEN_URIS differ (each URI is compared with the kept ones
 * only, so a long list costs at most LISTEN_URIS comparisons a URI). */
static bool dedupe(cJSON *uris, size_t *kept) {
  *kept = 0;
  cJSON *u = uris ? uris->child : NULL;
  while (u) {
    cJSON *next = u->next;
    bool copy = false;
    for (cJSON *k = uris->child; k != u; k = k->next) {
      if (strcmp(k->valuestring, u->valuestring) == 0) {
        copy = true;
        break;
      }
    }
    if (copy) {
      cJSON_Delete(cJSON_DetachItemViaPointer(uris, u));
    } else if (++*kept > LISTEN_URIS) {
      return false;
    }
    u = next;
  }
  return true;
}

gw_listen *gw_listen_open(gw *g, const cJSON *id, const cJSON *params,
                          char *why, size_t why_len) {
  size_t n = 0;
  for (const gw_listen *l = g->listens; l; l = l->next) {
    n++;
  }
  if (n >= LISTENS_PER_CLIENT) {
    snprintf(why, why_len,
             "subscriptions/listen: at most %d listens are open at once "
             "for one client",
             LISTENS_PER_CLIENT);
    return NULL;
  }
  cJSON *filter = gw_modern_listen_filter(params);
  if (!filter) {
    snprintf(why, why_len,
             "subscriptions/listen needs a \"notifications\" object");
    return NULL;
  }
  cJSON *uris =
      cJSON_GetObjectItemCaseSensitive(filter, "resourceSubscriptions");
  size_t kept;
  if (!dedupe(uris, &kept)) {
    snprintf(why, why_len,
             "subscriptions/listen: notifications.resourceSubscriptions "
             "names more than %d resources (the gateway's limit for one "
             "listen)",
             LISTEN_URIS);
    cJSON_Delete(filter);
    return NULL;
  }
  gw_listen *l = xcalloc(1, sizeof *l);
  l->id = cJSON_Duplicate(id, 1);
  l->filter = filter;
  l->subs = kept ? xcalloc(kept, sizeof *l->subs) : NULL;
  /* A URI no backend serves is left out of the filter. */
  cJSON *u = uris ? uris->child : NULL;
  while (u) {
    cJSON *next = u->next;
    long k = gw_resource_server(&g->hub->b, u->valuestring);
    if (k < 0) {
      cJSON_Delete(cJSON_DetachItemViaPointer(uris, u));
    } else {
      l->subs[l->nsubs++] = sub_hold(g->hub, g->hub->b.idx[k], u->valuestring);
    }
    u = next;
  }
  l->next = g->listens;
  g->listens = l;
  return l;
}

void gw_listen_free(gw_hub *hub, gw_listen *l) {
  for (size_t i = 0; i < l->nsubs; i++) {
    sub_release(hub, l->subs[i]);
  }
  free(l->subs);
  cJSON_Delete(l->id);
  cJSON_Delete(l->filter);
  free(l);
}
