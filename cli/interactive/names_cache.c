/* The names completion offers (mcphost completion, the shell) without
 * starting a server: the tool and prompt names the last listing of each
 * server saw, one file a server in $XDG_STATE_HOME/mcphost/completion/
 * (NAME.json, the name made a file name as trusted_fs_file_name does):
 * {"server": NAME, "tools": [...], "prompts": [...], "own_tools": [...],
 * "own_prompts": [...]}, the assigned names (mcp__S__T) and the server's
 * own (for SERVER/NAME). A listing replaces its kind in its server's
 * file, which is all it reads: what it costs does not grow with the
 * servers ever listed. Printing keeps to configured servers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/interactive/state_files.h"
#include "json_parse.h"
#include "json_write.h"
#include "trusted_fs.h"
#include "util.h"

/* "completion/NAME.json" for `server`. */
static void cache_name(const char *server, char *out, size_t size) {
  char file[128];
  trusted_fs_file_name(server, file, sizeof file - 5);
  snprintf(out, size, "completion/%s.json", file);
}

/* The server's object (a new one when there is none, or when the file
 * is another server's: two names made the same file name); `text` (may
 * be NULL) gets the file's text, else it is freed here. */
static cJSON *load_text(cli *c, const char *server, char **text_out) {
  char name[160];
  cache_name(server, name, sizeof name);
  char *text = state_file_read(c->api, name, NULL);
  cJSON *o = json_parse_str(text);
  if (text_out) {
    *text_out = text;
  } else {
    free(text);
  }
  const char *owner =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "server"));
  if (!cJSON_IsObject(o) || !owner || strcmp(owner, server) != 0) {
    cJSON_Delete(o);
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "server", server);
  }
  return o;
}

/* A new array of the strings names[0..n) that are not NULL. */
static cJSON *string_array(char *const *names, size_t n) {
  cJSON *list = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++) {
    if (names[i]) {
      cJSON_AddItemToArray(list, cJSON_CreateString(names[i]));
    }
  }
  return list;
}

void cli_names_record(cli *c, const char *server, const char *kind,
                      char *const *names, const cJSON *items, size_t n) {
  char *was = NULL;
  cJSON *entry = load_text(c, server, &was);
  cJSON_DeleteItemFromObjectCaseSensitive(entry, kind);
  cJSON_AddItemToObject(entry, kind, string_array(names, n));
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
  char *text = json_print(entry);
  char why[600], name[160];
  cache_name(server, name, sizeof name);
  /* A cache: a state directory that cannot be written costs completion
   * only, said with -v. The same names as the file holds (a server
   * listed again, unchanged) are not written again: a walk to the
   * directory and seven system calls less. */
  bool write = text && !(was && strcmp(was, text) == 0);
  if (write && state_file_write(c->api, name, text, strlen(text), why,
                                sizeof why) != 0) {
    cli_log(c, MCPHOST_LOG_INFO, NULL, "completion names not kept: %s", why);
  }
  free(was);
  free(text);
  cJSON_Delete(entry);
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
  char *key = own ? xasprintf("own_%s", kind) : xstrdup(kind);
  const cJSON *s;
  cJSON_ArrayForEach(s, configured) {
    const char *server =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "name"));
    if (!server)
      continue;
    cJSON *entry = load_text(c, server, NULL);
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
    cJSON_Delete(entry);
  }
  free(key);
}
