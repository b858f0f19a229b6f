/* The names completion offers (mcphost completion, the shell) without
 * starting a server: the tool and prompt names the last listing of each
 * server saw, kept in $XDG_STATE_HOME/mcphost/completion-names.json as
 * {"servers": {NAME: {"tools": [...], "prompts": [...], "own_tools":
 * [...], "own_prompts": [...]}}}: the assigned names (mcp__S__T) and the
 * server's own (for SERVER/NAME). A listing replaces its server's entry;
 * printing keeps to configured servers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/interactive/state_files.h"
#include "json_parse.h"
#include "json_write.h"
#include "util.h"

static const char cache_name[] = "completion-names.json";

/* The cache's object; `text` (may be NULL) gets the file's text, else
 * it is freed here. */
static cJSON *load_text(cli *c, char **text_out) {
  char *text = state_file_read(c->api, cache_name, NULL);
  cJSON *o = json_parse_str(text);
  if (text_out) {
    *text_out = text;
  } else {
    free(text);
  }
  if (!cJSON_IsObject(o)) {
    cJSON_Delete(o);
    o = cJSON_CreateObject();
  }
  if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "servers"))) {
    cJSON_DeleteItemFromObjectCaseSensitive(o, "servers");
    cJSON_AddObjectToObject(o, "servers");
  }
  return o;
}

static cJSON *load(cli *c) {
  return load_text(c, NULL);
}

void cli_names_record(cli *c, const char *server, const char *kind,
                      char *const *names, const cJSON *items, size_t n) {
  char *was = NULL;
  cJSON *o = load_text(c, &was);
  cJSON *servers = cJSON_GetObjectItemCaseSensitive(o, "servers");
  cJSON *entry = cJSON_GetObjectItemCaseSensitive(servers, server);
  if (!cJSON_IsObject(entry)) {
    cJSON_DeleteItemFromObjectCaseSensitive(servers, server);
    entry = cJSON_AddObjectToObject(servers, server);
  }
  cJSON *list = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++) {
    if (names[i]) {
      cJSON_AddItemToArray(list, cJSON_CreateString(names[i]));
    }
  }
  cJSON_DeleteItemFromObjectCaseSensitive(entry, kind);
  cJSON_AddItemToObject(entry, kind, list);
  cJSON *own = cJSON_CreateArray();
  const cJSON *it;
  cJSON_ArrayForEach(it, items) {
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
    if (name) {
      cJSON_AddItemToArray(own, cJSON_CreateString(name));
    }
  }
  char *own_kind = xasprintf("own_%s", kind);
  cJSON_DeleteItemFromObjectCaseSensitive(entry, own_kind);
  cJSON_AddItemToObject(entry, own_kind, own);
  free(own_kind);
  char *text = json_print(o);
  char why[600];
  /* A cache: a state directory that cannot be written costs completion
   * only, said with -v. The same names as the file holds (a server
   * listed again, unchanged) are not written again: a walk to the
   * directory and seven system calls less. */
  bool write = text && !(was && strcmp(was, text) == 0);
  if (write && state_file_write(c->api, cache_name, text, strlen(text), why,
                                sizeof why) != 0) {
    cli_log(c, MCPHOST_LOG_INFO, NULL, "completion names not kept: %s", why);
  }
  free(was);
  free(text);
  cJSON_Delete(o);
}

char **cli_names_assign(const char *server, const cJSON *items, size_t max_len,
                        size_t *n, size_t *prefix_len) {
  size_t count = (size_t)cJSON_GetArraySize(items), i = 0;
  const char **orig = xcalloc(count ? count : 1, sizeof *orig);
  const cJSON *it;
  cJSON_ArrayForEach(it, items) {
    orig[i++] =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
  }
  char **names = NULL;
  if (mcphost_name_assign(server, orig, count, max_len, &names, prefix_len,
                          NULL) != MCPHOST_OK) {
    abort(); /* only a NULL server or place fails */
  }
  free(orig);
  *n = count;
  return names;
}

char *cli_qualify(const char *server, const char *item) {
  const char *one[] = {item};
  char **names = NULL;
  if (mcphost_name_assign(server, one, 1, 0, &names, NULL, NULL) !=
      MCPHOST_OK) {
    abort(); /* only a NULL server or place fails */
  }
  char *q = names[0] ? xstrdup(names[0]) : NULL;
  mcphost_free(names);
  return q;
}

bool cli_plain_name(const char *s, bool own) {
  return s && *s &&
         strspn(s, own ? "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-."
                       : "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-") == strlen(s);
}

void cli_names_print(cli *c, const cJSON *configured, const char *kind,
                     bool own, FILE *f) {
  cJSON *o = load(c);
  const cJSON *servers = cJSON_GetObjectItemCaseSensitive(o, "servers");
  char *key = own ? xasprintf("own_%s", kind) : xstrdup(kind);
  const cJSON *s;
  cJSON_ArrayForEach(s, configured) {
    const char *server =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "name"));
    if (!server)
      continue;
    const cJSON *entry = cJSON_GetObjectItemCaseSensitive(servers, server);
    const cJSON *name;
    cJSON_ArrayForEach(name, cJSON_GetObjectItemCaseSensitive(entry, key)) {
      if (!cli_plain_name(cJSON_GetStringValue(name), own)) {
        continue;
      }
      if (own && cli_plain_name(server, false)) {
        fprintf(f, "%s/%s\n", server, name->valuestring);
      } else if (!own) {
        fprintf(f, "%s\n", name->valuestring);
      }
    }
  }
  free(key);
  cJSON_Delete(o);
}
