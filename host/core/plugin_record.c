/* A plugin's record for the listings: see plugin_record.h. */
#include "core/plugin_record.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

bool plugin_server_source(plugin *p, const char **description) {
  const mcph_provides *pr = p->provides;
  if (p->loaded && !p->initialized && pr &&
      MCPH_HAS(pr, mcph_provides, source_description) &&
      pr->source_description && plugin_offers(p, MCPH_EXT_SERVER_SOURCE)) {
    *description = pr->source_description;
    return true;
  }
  const mcph_server_source *src = plugin_extension(p, MCPH_EXT_SERVER_SOURCE);
  *description = src ? src->description : NULL;
  return src != NULL;
}

bool plugin_dir_usable(const char *dir, char *why, size_t why_len) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    snprintf(why, why_len, "%s", strerror(errno));
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    snprintf(why, why_len, "not a directory");
    return false;
  }
  return true;
}

cJSON *plugin_record_json(const registry *r, plugin *p) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "file", p->path);
  cJSON_AddStringToObject(o, "status", p->loaded ? "loaded" : "refused");
  if (p->id) {
    cJSON_AddStringToObject(o, "id", p->id);
  }
  if (p->name) {
    cJSON_AddStringToObject(o, "name", p->name);
  }
  if (p->version) {
    cJSON_AddStringToObject(o, "version", p->version);
  }
  if (p->description) {
    cJSON_AddStringToObject(o, "description", p->description);
  }
  if (p->abi_major || p->abi_minor) {
    char abi[32];
    snprintf(abi, sizeof abi, "%u.%u", p->abi_major, p->abi_minor);
    cJSON_AddStringToObject(o, "abi", abi);
  }
  cJSON *ta = cJSON_AddArrayToObject(o, "transports");
  for (const char *const *t = p->types; t && *t; t++) {
    const type_binding *tb = registry_find_type(r, *t);
    cJSON *to = cJSON_CreateObject();
    cJSON_AddStringToObject(to, "type", *t);
    cJSON_AddBoolToObject(to, "active", tb && tb->winner == p);
    if (tb && tb->winner != p) {
      cJSON_AddStringToObject(to, "shadowedBy", tb->winner->path);
    }
    cJSON_AddItemToArray(ta, to);
  }
  const char *source;
  if (plugin_server_source(p, &source)) {
    cJSON_AddStringToObject(o, "serverSource", source ? source : "");
  }
  if (plugin_offers(p, MCPH_EXT_PERMISSION)) {
    cJSON_AddBoolToObject(o, "permissionDecider", true);
  }
  if (p->error) {
    cJSON_AddStringToObject(o, p->loaded ? "warning" : "error", p->error);
  }
  return o;
}
