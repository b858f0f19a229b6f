/* A server's key in the credential file and the needs-auth cache (see
 * server.c), compiled into both halves of the plugin (front.c). */
#include <string.h>

#include "oauth.h"
#include "sha256.h"

char *oauth_server_key(const char *name, const cJSON *cfg) {
  const cJSON *url = cJSON_GetObjectItemCaseSensitive(cfg, "url");
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(cfg, "type");
  const cJSON *h = cJSON_GetObjectItemCaseSensitive(cfg, "headers");
  if (!cJSON_IsString(url)) {
    return NULL;
  }
  cJSON *k = cJSON_CreateObject();
  cJSON_AddStringToObject(k, "type",
                          cJSON_IsString(type) ? type->valuestring : "http");
  cJSON_AddStringToObject(k, "url", url->valuestring);
  cJSON_AddItemToObject(k, "headers",
                        cJSON_IsObject(h) ? cJSON_Duplicate(h, true)
                                          : cJSON_CreateObject());
  char *text = cJSON_PrintUnformatted(k);
  cJSON_Delete(k);
  if (!text) {
    return NULL;
  }
  char hex[2 * SHA256_LEN + 1];
  sha256_hex(text, strlen(text), hex);
  cJSON_free(text);
  strbuf key = {0};
  sb_printf(&key, "%s|%.16s", name, hex);
  return key.data;
}
