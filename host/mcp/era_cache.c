/* The era verdicts kept across runs (era_cache.h). */
#include "mcp/era_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "fnv.h"
#include "trusted_fs.h"

#define CACHE_MAX_BYTES 4096

/* The key that binds a verdict to the entry as run: a 64-bit FNV-1a of
 * the entry's JSON, after a version text. Only an accidental clash
 * matters (the file is the user's own, and a stale legacy verdict is
 * caught: era.c), so no cryptographic digest, and no libcrypto to load
 * for it. A file written with another key form (a SHA-256 before) does
 * not match: the era is probed again and the file rewritten. New
 * string. */
static char *entry_digest(const server_config *cfg) {
  static const char version[] = "mcphost-protocol-era-2";
  char *json = cJSON_PrintUnformatted(cfg->json);
  const char *text = json ? json : "null";
  uint64_t h = fnv1a64(version, sizeof version); /* with its NUL */
  h = fnv1a64_add(h, text, strlen(text));
  cJSON_free(json);
  return xasprintf("fnv1a64:%016llx", (unsigned long long)h);
}

/* The directory, opened (created when `create`); -1 when none. `why`
 * (PATH_MAX + 128 bytes) is the caller's, which it uses again after:
 * one such buffer on the stack, not two, over the walk. */
static int open_cache_dir(host *h, const server_config *cfg, bool create,
                          char **dir, char *why, size_t why_len) {
  const char *state = h->paths[MCPH_PATH_STATE];
  *dir = NULL;
  if (!state) {
    return -1;
  }
  *dir = path_join(state, "protocol");
  if (!create && path_missing(*dir)) {
    return -1; /* never written: as the walk below would find (ENOENT) */
  }
  int dfd = trusted_fs_open_dir(
      *dir, TRUSTED_FS_PRIVATE | (create ? TRUSTED_FS_CREATE : 0), why,
      why_len);
  if (dfd < 0 && (create || errno != ENOENT)) {
    host_log(h, MCPH_LOG_DEBUG, cfg->name, "the protocol era is not kept: %s",
             why);
  }
  return dfd;
}

static void file_name(const server_config *cfg, char *out, size_t n) {
  trusted_fs_file_name(cfg->name, out, n - 5);
  strcat(out, ".json");
}

/* The verdict file of `cfg` in `dfd` (closed here), parsed into *doc
 * (NULL when it is not JSON); false when there is none. Not inlined: its
 * buffer (4 KiB) is on the stack only after the walk to the directory,
 * not under it. */
static __attribute__((noinline)) bool
read_entry(host *h, const server_config *cfg, int dfd, const char *dir,
           char *why, size_t why_len, cJSON **doc) {
  char name[128];
  file_name(cfg, name, sizeof name);
  int fd = trusted_fs_open_file(dfd, dir, name, O_RDONLY, 0600, why, why_len);
  close(dfd);
  if (fd < 0) {
    if (errno != ENOENT) {
      host_log(h, MCPH_LOG_DEBUG, cfg->name, "%s", why);
    }
    return false;
  }
  char buf[CACHE_MAX_BYTES + 1];
  ssize_t n = read(fd, buf, CACHE_MAX_BYTES);
  close(fd);
  if (n <= 0) {
    return false;
  }
  buf[n] = '\0';
  *doc = cJSON_Parse(buf);
  return true;
}

mcp_era era_cache_get(host *h, const server_config *cfg, char **version,
                      char **roots_quiet) {
  mcp_era era = ERA_UNKNOWN;
  char *dir = NULL, *digest = NULL;
  cJSON *doc = NULL;
  if (version) {
    *version = NULL;
  }
  if (roots_quiet) {
    *roots_quiet = NULL;
  }
  char why[PATH_MAX + 128];
  int dfd = open_cache_dir(h, cfg, false, &dir, why, sizeof why);
  if (dfd < 0) {
    goto out;
  }
  if (!read_entry(h, cfg, dfd, dir, why, sizeof why, &doc)) {
    goto out;
  }
  digest = entry_digest(cfg);
  const char *have =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "config"));
  if (!digest || !have || strcmp(have, digest) != 0) {
    host_log(h, MCPH_LOG_DEBUG, cfg->name,
             "the entry changed since its protocol era was found");
    goto out;
  }
  const char *e =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "era"));
  const char *v =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "version"));
  if (e && strcmp(e, "legacy") == 0) {
    era = ERA_LEGACY;
  } else if (e && strcmp(e, "modern") == 0) {
    era = ERA_MODERN;
  }
  if (era != ERA_UNKNOWN && version && v) {
    *version = xstrdup(v);
  }
  const char *q =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "rootsQuiet"));
  if (era != ERA_UNKNOWN && roots_quiet && q) {
    *roots_quiet = xstrdup(q);
  }
out:
  cJSON_Delete(doc);
  free(digest);
  free(dir);
  return era;
}

void era_cache_put(host *h, const server_config *cfg, mcp_era era,
                   const char *version, const char *roots_quiet) {
  char *dir = NULL, *digest = NULL, *text = NULL;
  cJSON *doc = NULL;
  char name[128];
  /* On the heap: this runs under the handling of a server's answer, and
   * with the walk to the directory below it, 4 KiB more of stack there
   * made it the deepest of a cold call (one page more resident). */
  size_t why_len = PATH_MAX + 128;
  char *why = xmalloc(why_len);
  int dfd = open_cache_dir(h, cfg, era != ERA_UNKNOWN, &dir, why, why_len);
  if (dfd < 0) {
    goto out;
  }
  file_name(cfg, name, sizeof name);
  if (era == ERA_UNKNOWN) {
    unlinkat(dfd, name, 0);
    goto out;
  }
  digest = entry_digest(cfg);
  if (!digest) {
    goto out;
  }
  doc = cJSON_CreateObject();
  cJSON_AddStringToObject(doc, "config", digest);
  cJSON_AddStringToObject(doc, "era", era_name(era));
  if (version) {
    cJSON_AddStringToObject(doc, "version", version);
  }
  if (roots_quiet) {
    cJSON_AddStringToObject(doc, "rootsQuiet", roots_quiet);
  }
  text = cJSON_PrintUnformatted(doc);
  /* Written beside and renamed over: a reader never sees half a file. */
  char tmp[160];
  snprintf(tmp, sizeof tmp, ".%s.%ld", name, (long)getpid());
  int fd = trusted_fs_open_file(dfd, dir, tmp, O_WRONLY | O_CREAT | O_TRUNC,
                                0600, why, why_len);
  if (fd < 0) {
    host_log(h, MCPH_LOG_DEBUG, cfg->name, "%s", why);
    goto out;
  }
  size_t len = strlen(text);
  bool ok = write(fd, text, len) == (ssize_t)len;
  ok = close(fd) == 0 && ok;
  if (!ok || renameat(dfd, tmp, dfd, name) != 0) {
    unlinkat(dfd, tmp, 0);
  }
out:
  if (dfd >= 0) {
    close(dfd);
  }
  cJSON_free(text);
  cJSON_Delete(doc);
  free(digest);
  free(dir);
  free(why);
}
