/* mcphost serve: what the gateway answers a 2026-07-28 (modern) client
 * (serve.h, docs/gateway.md): the per-request _meta envelope checked,
 * server/discover, the fields every result carries, the filters of
 * subscriptions/listen. Pure functions of their arguments; serve.c owns
 * the clients. Loop thread only. */
#include <string.h>

#include <mcphost/client.h>
#include <mcphost/rpc.h>

#include "gateway/serve.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPS "io.modelcontextprotocol/clientCapabilities"
#define META_LOG "io.modelcontextprotocol/logLevel"
#define META_SERVER "io.modelcontextprotocol/serverInfo"
#define META_SUB "io.modelcontextprotocol/subscriptionId"

static const cJSON *meta_of(const cJSON *params) {
  return cJSON_GetObjectItemCaseSensitive(params, "_meta");
}

bool gw_modern_asks(const cJSON *params) {
  return cJSON_GetObjectItemCaseSensitive(meta_of(params), META_VERSION) !=
         NULL;
}

int gw_modern_request_log_level(const cJSON *params) {
  return mcphost_log_level_rank(cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(meta_of(params), META_LOG)));
}

int gw_modern_check(const cJSON *params, const char **why, cJSON **data) {
  const cJSON *meta = meta_of(params);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(meta, META_VERSION);
  *data = NULL;
  if (!cJSON_IsString(v)) {
    *why = "_meta[\"" META_VERSION "\"] must be a string";
    return MCPH_RPC_INVALID_PARAMS;
  }
  if (!mcphost_protocol_supported(MCPHOST_ERA_MODERN, v->valuestring)) {
    *why = "the gateway does not speak this protocol version";
    *data = cJSON_CreateObject();
    cJSON *sup = cJSON_AddArrayToObject(*data, "supported");
    const char *p;
    for (size_t i = 0; (p = mcphost_protocol_version(MCPHOST_ERA_MODERN, i));
         i++) {
      cJSON_AddItemToArray(sup, cJSON_CreateString(p));
    }
    cJSON_AddStringToObject(*data, "requested", v->valuestring);
    return MCPH_RPC_UNSUPPORTED_PROTOCOL_VERSION;
  }
  if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(meta, META_CAPS))) {
    *why = "_meta[\"" META_CAPS "\"] must be an object";
    return MCPH_RPC_INVALID_PARAMS;
  }
  const cJSON *level = cJSON_GetObjectItemCaseSensitive(meta, META_LOG);
  if (level && mcphost_log_level_rank(cJSON_GetStringValue(level)) < 0) {
    *why = "_meta[\"" META_LOG "\"] is not a logging level";
    return MCPH_RPC_INVALID_PARAMS;
  }
  return 0;
}

static cJSON *server_info(void) {
  cJSON *info = cJSON_CreateObject();
  cJSON_AddStringToObject(info, "name", "mcphost");
  cJSON_AddStringToObject(info, "version", mcphost_version(NULL, NULL));
  return info;
}

void gw_modern_result(cJSON *result, bool cacheable) {
  if (!cJSON_GetObjectItemCaseSensitive(result, "resultType")) {
    cJSON_AddStringToObject(result, "resultType", "complete");
  }
  if (cacheable && !cJSON_GetObjectItemCaseSensitive(result, "ttlMs")) {
    /* The backends' lists change under the gateway: never fresh. */
    cJSON_AddNumberToObject(result, "ttlMs", 0);
    cJSON_AddStringToObject(result, "cacheScope", "private");
  }
  cJSON *meta = cJSON_GetObjectItemCaseSensitive(result, "_meta");
  if (!cJSON_IsObject(meta)) {
    cJSON_DeleteItemFromObjectCaseSensitive(result, "_meta");
    meta = cJSON_AddObjectToObject(result, "_meta");
  }
  if (!cJSON_GetObjectItemCaseSensitive(meta, META_SERVER)) {
    cJSON_AddItemToObject(meta, META_SERVER, server_info());
  }
}

cJSON *gw_modern_discover(const cJSON *caps, const char *instructions) {
  cJSON *res = cJSON_CreateObject();
  cJSON *v = cJSON_AddArrayToObject(res, "supportedVersions");
  /* Newest first: the modern versions, then initialize's. */
  const int eras[] = {MCPHOST_ERA_MODERN, MCPHOST_ERA_LEGACY};
  for (size_t e = 0; e < sizeof eras / sizeof eras[0]; e++) {
    const char *p;
    for (size_t i = 0; (p = mcphost_protocol_version(eras[e], i)); i++) {
      cJSON_AddItemToArray(v, cJSON_CreateString(p));
    }
  }
  cJSON *c = caps ? cJSON_Duplicate(caps, 1) : cJSON_CreateObject();
  /* Subscriptions live on subscriptions/listen: nothing to subscribe. */
  cJSON_DeleteItemFromObjectCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(c, "resources"), "subscribe");
  cJSON_AddItemToObject(res, "capabilities", c);
  if (instructions) {
    cJSON_AddStringToObject(res, "instructions", instructions);
  }
  gw_modern_result(res, true);
  return res;
}

cJSON *gw_modern_listen_filter(const cJSON *params) {
  const cJSON *n = cJSON_GetObjectItemCaseSensitive(params, "notifications");
  if (!cJSON_IsObject(n)) {
    return NULL;
  }
  cJSON *f = cJSON_CreateObject();
  static const char *const flags[] = {"toolsListChanged", "promptsListChanged",
                                      "resourcesListChanged"};
  for (size_t i = 0; i < 3; i++) {
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(n, flags[i]))) {
      cJSON_AddTrueToObject(f, flags[i]);
    }
  }
  const cJSON *subs =
      cJSON_GetObjectItemCaseSensitive(n, "resourceSubscriptions");
  if (cJSON_IsArray(subs)) {
    cJSON *out = cJSON_AddArrayToObject(f, "resourceSubscriptions");
    const cJSON *u;
    cJSON_ArrayForEach(u, subs) {
      if (cJSON_IsString(u)) {
        cJSON_AddItemToArray(out, cJSON_CreateString(u->valuestring));
      }
    }
  }
  return f;
}

bool gw_modern_listen_wants(const cJSON *filter, const char *method,
                            const cJSON *params) {
  static const struct {
    const char *method, *flag;
  } map[] = {{"notifications/tools/list_changed", "toolsListChanged"},
             {"notifications/prompts/list_changed", "promptsListChanged"},
             {"notifications/resources/list_changed", "resourcesListChanged"}};
  for (size_t i = 0; i < 3; i++) {
    if (strcmp(method, map[i].method) == 0) {
      return cJSON_IsTrue(
          cJSON_GetObjectItemCaseSensitive(filter, map[i].flag));
    }
  }
  if (strcmp(method, "notifications/resources/updated") != 0) {
    return false;
  }
  const char *uri =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "uri"));
  const cJSON *u;
  cJSON_ArrayForEach(
      u, cJSON_GetObjectItemCaseSensitive(filter, "resourceSubscriptions")) {
    if (uri && cJSON_IsString(u) && strcmp(u->valuestring, uri) == 0) {
      return true;
    }
  }
  return false;
}

cJSON *gw_modern_tagged(const cJSON *params, const cJSON *listen_id) {
  cJSON *p = params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject();
  cJSON *meta = cJSON_GetObjectItemCaseSensitive(p, "_meta");
  if (!cJSON_IsObject(meta)) {
    cJSON_DeleteItemFromObjectCaseSensitive(p, "_meta");
    meta = cJSON_AddObjectToObject(p, "_meta");
  }
  cJSON_DeleteItemFromObjectCaseSensitive(meta, META_SUB);
  cJSON_AddItemToObject(meta, META_SUB, cJSON_Duplicate(listen_id, 1));
  return p;
}
