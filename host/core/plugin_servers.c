#include "core/plugin_servers.h"

#include <stdlib.h>
#include <string.h>

#include "core/host.h"
#include "core/request.h"
#include "util.h"
#include "json_write.h"

/* One listing: a pending request (request.h) answered before
 * list/list_servers returns, by respond or, the 1.3 way, emit. */
typedef struct listing {
  mcph_request handle; /* first: the listing as a pending request */
  host *h;
  const plugin *p;
  config_plugin_add_fn add;
  void *add_ud;
  bool inside;   /* answers are taken only during list/list_servers */
  bool answered; /* respond/respond_error answered it */
} listing;

static void listing_add(listing *l, const char *json, size_t len) {
  l->add(l->add_ud, l->p->id, json, len);
}

static void listing_failed(const listing *l, int code, const char *message) {
  config_error(&l->h->cfg,
               "plugin %s (%s): listing its servers failed (%d): %s", l->p->id,
               l->p->path, code, message && *message ? message : "no message");
}

/* The 1.3 way, a thin wrapper: any number of emits during the call. */
static void on_emit(void *ud, const char *json, size_t len) {
  listing *l = ud;
  if (!l->inside || l->answered || !json)
    return;
  listing_add(l, json, len);
}

static int answer_result(mcph_request *req, cJSON *result, mcph_error *err) {
  listing *l = (listing *)req;
  if (!l->inside || l->answered) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "the listing was answered already, or is over");
  }
  char *text = json_print(result);
  l->answered = true;
  if (text) {
    listing_add(l, text, strlen(text));
  }
  cJSON_free(text);
  cJSON_Delete(result);
  return MCPH_OK;
}

static void answer_error(mcph_request *req, int code, const char *message,
                         cJSON *data) {
  listing *l = (listing *)req;
  cJSON_Delete(data);
  if (!l->inside || l->answered) {
    return;
  }
  l->answered = true;
  listing_failed(l, code, message);
}

static const request_ops listing_ops = {answer_result, answer_error};

void plugin_servers_list(void *ud, config_plugin_add_fn add, void *add_ud) {
  host *h = ud;
  for (size_t i = 0; i < h->reg.nplugins; i++) {
    plugin *p = h->reg.plugins[i];
    if (!p->loaded || !plugin_may_have_servers(p))
      continue;
    const mcph_server_source *src =
        plugin_extension(p, MCPH_EXT_SERVER_SOURCE);
    if (!src)
      continue;
    /* 1.6: `list`, answered through respond; else the 1.3 list_servers. */
    bool by_request = MCPH_HAS(src, mcph_server_source, list) && src->list;
    if (!by_request && (!MCPH_HAS(src, mcph_server_source, list_servers) ||
                        !src->list_servers)) {
      config_error(&h->cfg,
                   "plugin %s (%s): its server-source extension is "
                   "incomplete; ignored",
                   p->id, p->path);
      continue;
    }
    listing l = {.handle = {&listing_ops, p},
                 .h = h,
                 .p = p,
                 .add = add,
                 .add_ud = add_ud,
                 .inside = true};
    mcph_error err;
    mcph_error_init(&err);
    h->listing_servers = true; /* the configuration is being built */
    int rc = by_request ? src->list(p->ctx, &l.handle, &err)
                        : src->list_servers(p->ctx, on_emit, &l, &err);
    h->listing_servers = false;
    l.inside = false;
    if (rc != MCPH_OK)
      listing_failed(&l, rc, err.message);
  }
}
