/* Reading another client's servers for an import (import_clients.h):
 * Claude Desktop's and Claude Code's files here, the others through
 * import_client_read; every entry checked by the loader's rules, those
 * that fail reported and left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "config/config_edit.h"
#include "config/import_clients.h"
#include "util.h"

static char *desktop_config_path(void) {
  const char *xdg = getenv("XDG_CONFIG_HOME");
  char *home = user_home();
  char *linux_path =
      xdg && xdg[0] == '/'
          ? xasprintf("%s/Claude/claude_desktop_config.json", xdg)
          : xasprintf("%s/.config/Claude/claude_desktop_config.json",
                      home ? home : "");
  if (access(linux_path, F_OK) == 0) {
    free(home);
    return linux_path;
  }
  char *mac = xasprintf("%s/Library/Application Support/Claude/"
                        "claude_desktop_config.json",
                        home ? home : "");
  free(home);
  if (access(mac, F_OK) == 0) {
    free(linux_path);
    return mac;
  }
  free(mac);
  return linux_path; /* for the "not found" message */
}

static char *claude_code_path(void) {
  const char *dir = getenv("CLAUDE_CONFIG_DIR");
  if (dir && *dir)
    return xasprintf("%s/.claude.json", dir);
  char *home = user_home();
  char *path = xasprintf("%s/.claude.json", home ? home : "");
  free(home);
  return path;
}

/* The entries of `servers` that pass the shared checks (a new object);
 * a sentence for each of the others appended to `rejected`. */
static cJSON *valid_servers(const cJSON *servers, const char *src,
                            const char *where, cJSON *rejected) {
  cJSON *out = cJSON_CreateObject();
  if (!cJSON_IsObject(servers))
    return out;
  config tmp;
  config_init(&tmp);
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    char *path = config_path_join(where, e->string);
    if (!edit_valid_name(e->string)) {
      char *why = xasprintf("%s: server \"%s\" skipped: the name has "
                            "characters other than letters, digits, '-' "
                            "and '_' (at %s)",
                            src, e->string, path);
      cJSON_AddItemToArray(rejected, cJSON_CreateString(why));
      free(why);
    } else if (config_check_entry(&tmp, src, path, e->string, e)) {
      cJSON_AddItemToObject(out, e->string, cJSON_Duplicate(e, 1));
    }
    free(path);
  }
  for (size_t i = 0; i < tmp.nerrors; i++) {
    char *why = xasprintf("skipped: %s", tmp.errors[i]);
    cJSON_AddItemToArray(rejected, cJSON_CreateString(why));
    free(why);
  }
  config_free(&tmp);
  return out;
}

static bool claude_client(const char *client) {
  return strcmp(client, "claude-desktop") == 0 ||
         strcmp(client, "claude-code") == 0;
}

bool import_known(const char *client) {
  return claude_client(client) || import_client_known(client);
}

/* Claude Desktop's or Claude Code's file into `out`. */
static int read_claude(const char *client, const char *path,
                       const char *project_key, cJSON *out, char **why) {
  config tmp;
  config_init(&tmp);
  cJSON *doc = config_read_json(&tmp, path, true);
  if (!doc) {
    *why = xstrdup(tmp.nerrors ? tmp.errors[0] : path);
    config_free(&tmp);
    return -1;
  }
  config_free(&tmp);
  bool desktop = strcmp(client, "claude-desktop") == 0;
  cJSON *notes = cJSON_AddArrayToObject(out, "notes");
  cJSON *rejected = cJSON_GetObjectItemCaseSensitive(out, "rejected");
  cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
  if (desktop && cJSON_IsObject(servers)) {
    /* Claude Desktop expands no ${VAR}: mcp-remote's documented
     * "--header Authorization:${AUTH_HEADER}" reaches mcp-remote as
     * written, which reads AUTH_HEADER from the entry's env. */
    cJSON *e;
    cJSON_ArrayForEach(e, servers) {
      if (cJSON_IsObject(e)) {
        import_keep_text(notes, "Claude Desktop", e->string, e);
      }
    }
  }
  cJSON_AddItemToObject(out, "servers",
                        valid_servers(servers, path, "mcpServers", rejected));
  if (!desktop) {
    /* Claude Code keeps per-project records under the project's path,
     * like mcphost's own settings file. */
    const cJSON *record = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "projects"), project_key);
    char *where = config_path_join("projects", project_key);
    char *rwhere = config_path_join(where, "mcpServers");
    cJSON *project = cJSON_AddObjectToObject(out, "project");
    cJSON_AddStringToObject(project, "key", project_key);
    cJSON_AddItemToObject(
        project, "servers",
        valid_servers(cJSON_GetObjectItemCaseSensitive(record, "mcpServers"),
                      path, rwhere, rejected));
    static const char *const lists[] = {"enabledMcpjsonServers",
                                        "disabledMcpjsonServers"};
    for (size_t i = 0; i < 2; i++) {
      cJSON *names = cJSON_AddArrayToObject(project, lists[i]);
      const cJSON *it;
      cJSON_ArrayForEach(it,
                         cJSON_GetObjectItemCaseSensitive(record, lists[i])) {
        if (cJSON_IsString(it))
          cJSON_AddItemToArray(names, cJSON_CreateString(it->valuestring));
      }
    }
    free(where);
    free(rwhere);
  }
  cJSON_Delete(doc);
  return 0;
}

int import_read(const char *client, const char *from, const char *project_key,
                cJSON **out, char **why) {
  *out = NULL;
  *why = NULL;
  if (!import_known(client)) {
    *why = xasprintf("no import for \"%s\": cursor, vscode, windsurf, codex, "
                     "claude-desktop or claude-code",
                     client);
    return -1;
  }
  bool claude = claude_client(client);
  char *path = from      ? xstrdup(from)
               : !claude ? import_client_path(client)
               : strcmp(client, "claude-desktop") == 0 ? desktop_config_path()
                                                       : claude_code_path();
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "client", client);
  cJSON_AddStringToObject(r, "file", path);
  cJSON *rejected = cJSON_AddArrayToObject(r, "rejected");
  int rc = 0;
  if (claude) {
    rc = read_claude(client, path, project_key, r, why);
  } else {
    import_source src;
    rc = import_client_read(client, path, &src, why);
    if (rc == 0) {
      const char *key = strcmp(client, "vscode") == 0  ? "servers"
                        : strcmp(client, "codex") == 0 ? "mcp_servers"
                                                       : "mcpServers";
      cJSON_AddItemToObject(r, "servers",
                            valid_servers(src.servers, path, key, rejected));
      cJSON_AddItemToObject(r, "skipped", src.skipped);
      cJSON_AddItemToObject(r, "notes", src.notes);
      src.skipped = src.notes = NULL;
      import_source_free(&src);
    }
  }
  free(path);
  if (rc != 0) {
    cJSON_Delete(r);
    return -2;
  }
  if (!cJSON_GetObjectItemCaseSensitive(r, "skipped"))
    cJSON_AddArrayToObject(r, "skipped");
  *out = r;
  return 0;
}
