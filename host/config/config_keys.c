/* Slips in a server entry's keys (config_keys.h). */
#include "config/config_keys.h"

#include <string.h>

#include "util.h"
#include "suggest.h"

/* The keys read of an entry, by type (docs/config.md, "Server entries"). */
static const char *const stdio_keys[] = {"type", "command", "args",    "env",
                                         "cwd",  "roots",   "protocol"};
static const char *const remote_keys[] = {
    "type",          "url",     "headers",
    "headersHelper", "timeout", "maxMessageBytes",
    "tls",           "noProxy", "pingInterval",
    "oauth",         "roots",   "protocol",
    "authToken",     "ideName", "ideRunningInWindows"};
/* "sdk" (mcp/inproc.h): Claude Code's SDK entries carry "name". */
static const char *const sdk_keys[] = {"type", "name", "roots", "protocol"};
#define NKEYS(a) (sizeof(a) / sizeof *(a))

static bool listed(const char *key, const char *const *keys, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(key, keys[i]) == 0) {
      return true;
    }
  }
  return false;
}

void config_warn_entry_keys(config *c, const char *src, const char *where,
                            const char *name, const char *type,
                            const cJSON *e) {
  bool stdio = strcmp(type, "stdio") == 0;
  bool sdk = strcmp(type, "sdk") == 0;
  const char *const *keys = stdio ? stdio_keys : sdk ? sdk_keys : remote_keys;
  size_t nkeys = stdio ? NKEYS(stdio_keys)
                 : sdk ? NKEYS(sdk_keys)
                       : NKEYS(remote_keys);
  /* A plugin's type reads keys of its own: only "disabled" is said. */
  bool known_type = stdio || sdk || strcmp(type, "http") == 0 ||
                    strcmp(type, "sse") == 0 || strcmp(type, "ws") == 0;
  const cJSON *k;
  cJSON_ArrayForEach(k, e) {
    if (strcmp(k->string, "disabled") == 0) {
      config_warn_server(
          c, name,
          "%s: server \"%s\": \"disabled\" is not read (Cline's and "
          "Windsurf's key; neither mcphost nor Claude Code reads "
          "it): the server is used; list it in \"disabledMcpServers\" "
          "of a settings file to disable it, or remove it (at "
          "%s.disabled)",
          src, name, where);
      continue;
    }
    if (!known_type || listed(k->string, keys, nkeys)) {
      continue;
    }
    strbuf hint;
    sb_init(&hint);
    if (mcp_suggest(&hint, k->string, keys, nkeys) > 0) {
      config_warn_server(
          c, name,
          "%s: server \"%s\": unknown key \"%s\"%s: not read (at "
          "%s.%s)",
          src, name, k->string, sb_str(&hint), where, k->string);
    }
    sb_free(&hint);
  }
}
