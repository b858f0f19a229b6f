#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "optin.h"
#include "settings_paths.h"

int optin_env_word(const char *v) {
  static const char *const yes[] = {"1", "true", "yes", "on"};
  static const char *const no[] = {"0", "false", "no", "off", ""};
  for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
    if (strcasecmp(v, yes[i]) == 0) {
      return 1;
    }
  }
  for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
    if (strcasecmp(v, no[i]) == 0) {
      return 0;
    }
  }
  return -1;
}

bool optin_maybe(const char *home) {
  const char *env = getenv("ENABLE_CLAUDEAI_MCP_SERVERS");
  int word = env ? optin_env_word(env) : -1;
  if (word >= 0) {
    return word == 1;
  }
  /* As optin_enabled's reading: a file that cannot be read is "not
   * set"; one that can is "maybe" when it holds the key at all. */
  static const char key[] = "\"claudeAiConnectors\"";
  bool named = false;
  char *path = settings_user_file(home);
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size <= 16 * 1024 * 1024) {
    char *text = malloc((size_t)st.st_size + 1);
    ssize_t n = text ? read(fd, text, (size_t)st.st_size) : -1;
    named = n > 0 && memmem(text, (size_t)n, key, sizeof key - 1) != NULL;
    free(text);
  }
  if (fd >= 0) {
    close(fd);
  }
  free(path);
  return named;
}
