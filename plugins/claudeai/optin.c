#include "optin.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "settings_paths.h"

/* "claudeAiConnectors": true in the user's settings. A file that cannot
 * be read is the host's to report; here it only means "not set". */
static bool setting_on(const char *home) {
  bool on = false;
  char *path = settings_user_file(home);
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
  struct stat st;
  char *text = NULL;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size > 16 * 1024 * 1024) {
    goto out;
  }
  text = malloc((size_t)st.st_size + 1);
  ssize_t n = text ? read(fd, text, (size_t)st.st_size) : -1;
  if (n < 0) {
    goto out;
  }
  cJSON *doc = cJSON_ParseWithLength(text, (size_t)n);
  on =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "claudeAiConnectors"));
  cJSON_Delete(doc);
out:
  if (fd >= 0) {
    close(fd);
  }
  free(text);
  free(path);
  return on;
}

bool optin_enabled(const char *home, char *why, size_t size) {
  why[0] = '\0';
  const char *env = getenv("ENABLE_CLAUDEAI_MCP_SERVERS");
  int word = env ? optin_env_word(env) : -1;
  if (word == 0 || (word < 0 && !setting_on(home))) {
    return false;
  }
  const char *dir = settings_system_dir();
  size_t n = strlen(dir) + sizeof "/managed-mcp.json";
  char *managed = malloc(n);
  struct stat st;
  bool enterprise = false, known = managed != NULL;
  if (managed) {
    snprintf(managed, n, "%s%s", dir, "/managed-mcp.json");
    enterprise = lstat(managed, &st) == 0;
  }
  if (enterprise) {
    snprintf(why, size,
             "claude.ai connectors are off: the enterprise configuration %s "
             "is in force",
             managed);
  }
  free(managed);
  return known && !enterprise;
}
