/* The gateway's items (serve.h): a backend's tools, prompts, resources
 * and templates as the gateway's client sees them, and which backend a
 * resource URI belongs to. */
#include <stdlib.h>
#include <string.h>

#include <mcphost/client.h>

#include "gateway/serve.h"
#include "size_limits.h"
#include "util.h"

mcphost_server_state gw_state(const cli *c, size_t idx) {
  mcphost_server_state st = MCPHOST_SERVER_STATE_INIT;
  if (mcphost_server_get(cli_api(c), idx, &st, NULL) != MCPHOST_OK) {
    st = (mcphost_server_state)MCPHOST_SERVER_STATE_INIT;
  }
  return st;
}

long gw_backend_of(const gw_backends *b, size_t idx) {
  for (size_t k = 0; k < b->n; k++) {
    if (b->idx[k] == idx) {
      return (long)k;
    }
  }
  return -1;
}

/* A copy of `item` with `name` (NULL: its own) and its description cut
 * to the limit. */
static cJSON *item_copy(const gw_backends *b, const cJSON *item,
                        const char *name) {
  cJSON *o = cJSON_Duplicate(item, 1);
  if (name) {
    cJSON_ReplaceItemInObjectCaseSensitive(o, "name", cJSON_CreateString(name));
  }
  const char *d =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "description"));
  char *cut =
      d ? limits_cut_description(d, cli_limits(b->c)->description_chars) : NULL;
  if (cut) {
    cJSON_ReplaceItemInObjectCaseSensitive(o, "description",
                                           cJSON_CreateString(cut));
    free(cut);
  }
  return o;
}

/* Tools and prompts: named as `tools` and `prompts` print them. */
static void add_named(const gw_backends *b, size_t k, bool tools,
                      const cJSON *items, cJSON *out) {
  const char *type = gw_state(b->c, b->idx[k]).type;
  size_t n = 0, i = 0;
  char **names =
      b->passthrough
          ? NULL
          : cli_names_assign(mcphost_server_name(cli_api(b->c), b->idx[k]),
                             items, cli_limits(b->c)->name_chars, &n, NULL);
  const cJSON *it;
  cJSON_ArrayForEach(it, items) {
    const char *q = names ? names[i++] : NULL;
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
    /* An IDE's tools other than the two a model may see are the host's
     * to call (mcphost_name_model_visible): a gateway's client is a
     * model's host. */
    if (!name || (tools && !mcphost_name_model_visible(type, name))) {
      continue;
    }
    cJSON *o = item_copy(b, it, q);
    if (tools && !b->passthrough) {
      /* A tool that runs as a task is followed by the gateway's pipeline
       * (mcp/tasks.h): to its client it is a plain call. */
      cJSON_DeleteItemFromObjectCaseSensitive(o, "execution");
    }
    cJSON_AddItemToArray(out, o);
  }
  mcphost_free(names);
}

unsigned gw_list_bit(const char *s) {
  if (strncmp(s, "notifications/", 14) == 0) {
    s += 14;
  }
  if (strncmp(s, "tools", 5) == 0) {
    return 1u;
  }
  if (strncmp(s, "prompts", 7) == 0) {
    return 2u;
  }
  if (strncmp(s, "resource", 8) == 0) {
    return 4u;
  }
  return 0;
}

void gw_items_add(gw_backends *b, size_t k, const char *kind,
                  const cJSON *listed, cJSON *out) {
  const cJSON *items = cJSON_GetObjectItemCaseSensitive(listed, kind);
  if (!cJSON_IsArray(items)) {
    return;
  }
  if (strcmp(kind, "tools") == 0 || strcmp(kind, "prompts") == 0) {
    add_named(b, k, strcmp(kind, "tools") == 0, items, out);
    return;
  }
  /* Resources and templates keep their URIs: they are the backend's
   * addresses, and the gateway remembers whose they are. */
  if (!b->resources[k]) {
    b->resources[k] = cJSON_CreateObject();
  }
  cJSON *mine = cJSON_GetObjectItemCaseSensitive(b->resources[k], kind);
  if (mine) {
    cJSON_DeleteItemFromObjectCaseSensitive(b->resources[k], kind);
  }
  mine = cJSON_AddArrayToObject(b->resources[k], kind);
  bool templates = strcmp(kind, "resourceTemplates") == 0;
  const cJSON *it;
  cJSON_ArrayForEach(it, items) {
    const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
        it, templates ? "uriTemplate" : "uri"));
    if (!uri) {
      continue;
    }
    if (templates) {
      /* The literal part before the first expression. */
      char *prefix = xstrndup(uri, strcspn(uri, "{"));
      cJSON_AddItemToArray(mine, cJSON_CreateString(prefix));
      free(prefix);
    } else {
      cJSON_AddItemToArray(mine, cJSON_CreateString(uri));
    }
    cJSON_AddItemToArray(out, item_copy(b, it, NULL));
  }
}

static bool lists(const cJSON *arr, const char *uri, bool prefix) {
  const cJSON *u;
  cJSON_ArrayForEach(u, arr) {
    const char *s = cJSON_GetStringValue(u);
    if (s && (prefix ? *s && strncmp(uri, s, strlen(s)) == 0
                     : strcmp(uri, s) == 0)) {
      return true;
    }
  }
  return false;
}

long gw_resource_server(const gw_backends *b, const char *uri) {
  for (size_t k = 0; k < b->n; k++) {
    if (b->resources[k] &&
        lists(cJSON_GetObjectItemCaseSensitive(b->resources[k], "resources"),
              uri, false)) {
      return (long)k;
    }
  }
  for (size_t k = 0; k < b->n; k++) {
    if (b->resources[k] && lists(cJSON_GetObjectItemCaseSensitive(
                                     b->resources[k], "resourceTemplates"),
                                 uri, true)) {
      return (long)k;
    }
  }
  long only = -1;
  for (size_t k = 0; k < b->n; k++) {
    if (b->n == 1 || (gw_state(b->c, b->idx[k]).caps & MCPHOST_CAP_RESOURCES)) {
      if (only >= 0) {
        return -1;
      }
      only = (long)k;
    }
  }
  return only;
}

void gw_backends_free(gw_backends *b) {
  for (size_t k = 0; b->resources && k < b->n; k++) {
    cJSON_Delete(b->resources[k]);
  }
  free(b->resources);
  free(b->idx);
  b->resources = NULL;
  b->idx = NULL;
  b->n = 0;
}
