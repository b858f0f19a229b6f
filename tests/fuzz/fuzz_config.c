/* Fuzz target: the config loader (host/config/config.h, config_scopes.h).
 * The first byte picks where the bytes go: 0 a config document in memory
 * (config_load_text), 1 the user's settings file, 2 the enterprise
 * managed-settings.json, both through config_load_scopes in a scratch
 * directory. Properties: every error and warning names the file at
 * fault; a server entry with a name is either loaded or named by a
 * message (a bad entry costs that entry only, and never silently); every
 * server loaded is whole; nothing leaks (LeakSanitizer). */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/config_scopes.h"
#include "json_doc.h"
#include "scratch.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

#define SRC "fuzz.json"

static char dir[256], settings[300], sys_dir[300], proj[300];

static void setup(void) {
  if (dir[0]) {
    return;
  }
  scratch_dir("config", dir, sizeof dir);
  snprintf(settings, sizeof settings, "%s/settings.json", dir);
  snprintf(sys_dir, sizeof sys_dir, "%s/etc", dir);
  snprintf(proj, sizeof proj, "%s/proj", dir);
  char git[320];
  snprintf(git, sizeof git, "%s/.git", proj);
  if (mkdir(sys_dir, 0755) || mkdir(proj, 0700) || mkdir(git, 0700)) {
    abort();
  }
}

static void put(const char *path, const unsigned char *data, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len)) {
    abort();
  }
  close(fd);
}

static bool mentioned(const config *c, const char *text) {
  for (size_t i = 0; i < c->nerrors; i++) {
    if (strstr(c->errors[i], text)) {
      return true;
    }
  }
  for (size_t i = 0; i < c->nwarnings; i++) {
    if (strstr(c->warnings[i], text)) {
      return true;
    }
  }
  return false;
}

static void check_messages(const config *c, const char *file) {
  for (size_t i = 0; i < c->nerrors; i++) {
    if (!strstr(c->errors[i], file)) {
      abort();
    }
  }
  for (size_t i = 0; i < c->nwarnings; i++) {
    if (!strstr(c->warnings[i], file)) {
      abort();
    }
  }
}

static void check_servers(const config *c, const cJSON *servers) {
  for (size_t i = 0; i < c->nservers; i++) {
    const server_config *s = &c->servers[i];
    if (!s->name || !s->name[0] || !s->type || !s->source ||
        !cJSON_IsObject(s->json)) {
      abort();
    }
  }
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    if (!e->string || !e->string[0] || !cJSON_IsObject(servers)) {
      continue;
    }
    if (config_find(c, e->string)) {
      continue;
    }
    char quoted[300];
    snprintf(quoted, sizeof quoted, "\"%.200s", e->string);
    if (!mentioned(c, quoted)) {
      abort();
    }
  }
}

static void in_memory(const unsigned char *data, size_t len) {
  char *text = malloc(len ? len : 1);
  if (len) {
    memcpy(text, data, len);
  }
  config c;
  config_init(&c);
  int added = config_load_text(&c, text, len, SRC);
  if (added < 0 || (size_t)added != c.nservers) {
    abort();
  }
  check_messages(&c, SRC);
  cJSON *doc = json_doc((const unsigned char *)text, len);
  check_servers(&c, cJSON_GetObjectItemCaseSensitive(doc, "mcpServers"));
  cJSON_Delete(doc);
  config_free(&c);
  free(text);
}

static void from_file(const unsigned char *data, size_t len, bool managed) {
  char managed_path[340];
  snprintf(managed_path, sizeof managed_path, "%s/%s", sys_dir,
           CONFIG_MANAGED_SETTINGS);
  const char *file = managed ? managed_path : settings;
  unlink(managed_path);
  unlink(settings);
  put(file, data, len);
  config_sources o = {.cwd = proj,
                      .home = dir,
                      .user_settings = settings,
                      .system_dir = sys_dir};
  config c;
  config_init(&c);
  config_load_scopes(&c, &o);
  check_messages(&c, file);
  if (!managed) {
    cJSON *doc = json_doc(data, len);
    check_servers(&c, cJSON_GetObjectItemCaseSensitive(doc, "mcpServers"));
    cJSON_Delete(doc);
  }
  config_free(&c);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  setup();
  switch (data[0] % 3) {
  case 0: in_memory(data + 1, len - 1); break;
  default: from_file(data + 1, len - 1, data[0] % 3 == 2);
  }
  return 0;
}
