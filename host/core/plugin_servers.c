#include "core/plugin_servers.h"

#include <stdlib.h>
#include <string.h>

#include "core/host.h"
#include "core/util.h"

typedef struct emit_ctx {
  config_plugin_add_fn add;
  void *add_ud;
  const char *id;
  bool inside; /* emit is only valid during list_servers */
} emit_ctx;

static void on_emit(void *ud, const char *json, size_t len) {
  emit_ctx *e = ud;
  if (!e->inside || !json)
    return;
  e->add(e->add_ud, e->id, json, len);
}

void plugin_servers_list(void *ud, config_plugin_add_fn add, void *add_ud) {
  host *h = ud;
  for (size_t i = 0; i < h->reg.nplugins; i++) {
    plugin *p = h->reg.plugins[i];
    if (!p->loaded)
      continue;
    const mcph_server_source *src =
        plugin_extension(p, MCPH_EXT_SERVER_SOURCE);
    if (!src)
      continue;
    if (!MCPH_HAS(src, mcph_server_source, list_servers) ||
        !src->list_servers) {
      config_error(&h->cfg,
                   "plugin %s (%s): its server-source extension is "
                   "incomplete; ignored",
                   p->id, p->path);
      continue;
    }
    emit_ctx e = {.add = add, .add_ud = add_ud, .id = p->id, .inside = true};
    mcph_error err;
    mcph_error_init(&err);
    int rc = src->list_servers(p->ctx, on_emit, &e, &err);
    e.inside = false;
    if (rc != MCPH_OK)
      config_error(&h->cfg,
                   "plugin %s (%s): listing its servers failed (%d): "
                   "%s",
                   p->id, p->path, rc,
                   err.message[0] ? err.message : "no message");
  }
}
