/* Fuzz target: the settings writer round trip (host/config/config_write.h).
 * The bytes are a settings file. A file that is not a JSON object is
 * never rewritten (the edit fails, the bytes stay). Otherwise a rewrite
 * with no change gives back the same document, and adding one server
 * keeps every other key and every server loaded before: load, write,
 * load give the same entries. Values are compared in order, key by key
 * (a duplicate key stays where it was). */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/config_write.h"
#include "json_doc.h"
#include "scratch.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

#define ADDED "fuzz-added"

static char dir[256], file[300];

static void setup(void) {
  if (dir[0]) {
    return;
  }
  scratch_dir("write", dir, sizeof dir);
  snprintf(file, sizeof file, "%s/settings.json", dir);
}

static void put(const unsigned char *data, size_t len) {
  int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len)) {
    abort();
  }
  close(fd);
}

static char *get(size_t *len) {
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) < 0) {
    abort();
  }
  char *buf = malloc((size_t)st.st_size + 1);
  if (read(fd, buf, (size_t)st.st_size) != st.st_size) {
    abort();
  }
  close(fd);
  buf[st.st_size] = '\0';
  *len = (size_t)st.st_size;
  return buf;
}

static int touch(cJSON *doc, void *ud, char *why, size_t why_len) {
  (void)doc, (void)ud, (void)why, (void)why_len;
  return 1;
}

static int add(cJSON *doc, void *ud, char *why, size_t why_len) {
  (void)ud;
  cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
  if (!servers) {
    servers = cJSON_AddObjectToObject(doc, "mcpServers");
  }
  if (!cJSON_IsObject(servers)) {
    snprintf(why, why_len, "mcpServers is not an object");
    return -1;
  }
  if (cJSON_GetObjectItemCaseSensitive(servers, ADDED)) {
    return 0;
  }
  cJSON *e = cJSON_AddObjectToObject(servers, ADDED);
  cJSON_AddStringToObject(e, "command", "true");
  return 1;
}

static void load(config *c) {
  config_init(c);
  config_load_file(c, file, true);
}

/* Every server of `before` is in `after`, the same. */
static void same_servers(const config *before, const config *after) {
  for (size_t i = 0; i < before->nservers; i++) {
    const server_config *s = &before->servers[i];
    const server_config *t = config_find(after, s->name);
    if (!t || strcmp(s->type, t->type) != 0 || !json_same(s->json, t->json)) {
      abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  setup();
  put(data, len);
  cJSON *doc0 = json_doc(data, len);
  bool object = cJSON_IsObject(doc0);
  config c0, c1, c2;
  load(&c0);
  char why[512] = "";
  int rc = config_edit_file(file, 0600, touch, NULL, why, sizeof why);
  size_t got_len;
  char *got = get(&got_len);
  if (!object && len > 0) {
    /* Not an object (or not JSON): refused, the bytes kept. An empty
     * file counts as {} (config_read_json), so that one may change. */
    if (rc != -1 || !why[0] || got_len != len || memcmp(got, data, len)) {
      abort();
    }
    goto out;
  }
  free(got);
  got = NULL;
  if (len == 0) {
    goto out;
  }
  got = get(&got_len);
  cJSON *doc1 = json_doc((const unsigned char *)got, got_len);
  if (rc != 1 || !doc1 || !json_same(doc0, doc1)) {
    abort();
  }
  cJSON_Delete(doc1);
  load(&c1);
  same_servers(&c0, &c1);
  if (c1.nservers != c0.nservers) {
    abort();
  }
  config_free(&c1);
  const cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc0, "mcpServers");
  rc = config_edit_file(file, 0600, add, NULL, why, sizeof why);
  if (servers && !cJSON_IsObject(servers)) {
    if (rc != -1) {
      abort();
    }
    goto out;
  }
  load(&c2);
  same_servers(&c0, &c2);
  /* rc 0: the name was taken already (by an entry that may be bad). */
  if (rc == 1 && !config_find(&c2, ADDED)) {
    abort();
  }
  config_free(&c2);
  free(got);
  got = get(&got_len);
  cJSON *doc2 = json_doc((const unsigned char *)got, got_len);
  /* doc2 is doc0 with one server more (or none: it was there). */
  cJSON *s2 = cJSON_GetObjectItemCaseSensitive(doc2, "mcpServers");
  if (rc == 1) {
    cJSON_DeleteItemFromObjectCaseSensitive(s2, ADDED);
    if (!servers) {
      cJSON_DeleteItemFromObjectCaseSensitive(doc2, "mcpServers");
    }
  }
  if (!json_same(doc0, doc2)) {
    abort();
  }
  cJSON_Delete(doc2);
out:
  free(got);
  config_free(&c0);
  cJSON_Delete(doc0);
  return 0;
}
