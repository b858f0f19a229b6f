#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "store_root.h"
#include "trusted_fs.h"

int store_open(store *s, bool create, char *why, size_t n) {
  s->fd = s->settings_fd = s->tmp_lock = -1;
  if (store_root(s->root, sizeof s->root) < 0) {
    snprintf(why, n, "no home directory (HOME and XDG_DATA_HOME unset)");
    return -1;
  }
  char reason[512];
  s->fd = trusted_fs_open_dir(s->root, create ? TRUSTED_FS_CREATE : 0, reason,
                              sizeof reason);
  if (s->fd < 0) {
    if (errno == ENOENT && !create) {
      return 0; /* nothing installed */
    }
    snprintf(why, n, "%s", reason);
    return -1;
  }
  if (mkdirat(s->fd, ".settings", 0700) < 0 && errno != EEXIST) {
    snprintf(why, n, "%s/.settings: %s", s->root, strerror(errno));
    store_close(s);
    return -1;
  }
  s->settings_fd = openat(s->fd, ".settings",
                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (s->settings_fd < 0 || fstat(s->settings_fd, &st) < 0 ||
      st.st_uid != geteuid() || (st.st_mode & 0077)) {
    snprintf(why, n, "%s/.settings is not a private directory of this user",
             s->root);
    store_close(s);
    return -1;
  }
  return 0;
}

void store_close(store *s) {
  if (s->tmp_lock >= 0) {
    close(s->tmp_lock);
  }
  if (s->settings_fd >= 0) {
    close(s->settings_fd);
  }
  if (s->fd >= 0) {
    close(s->fd);
  }
  s->fd = s->settings_fd = s->tmp_lock = -1;
}

int store_tmp_make(store *s, const char *name, char *tmp, size_t tmp_len,
                   char *why, size_t n) {
  /* mkdtemp needs a path: the bundles directory's through its root. */
  char path[4400];
  snprintf(path, sizeof path, "%s/.tmp-%s-XXXXXX", s->root, name);
  if (!mkdtemp(path)) {
    snprintf(why, n, "%s: %s", path, strerror(errno));
    return -1;
  }
  snprintf(tmp, tmp_len, "%s", strrchr(path, '/') + 1);
  s->tmp_lock =
      openat(s->fd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (s->tmp_lock < 0 || flock(s->tmp_lock, LOCK_EX | LOCK_NB) < 0) {
    snprintf(why, n, "%s: %s", path, strerror(errno));
    fs_remove_tree(s->fd, tmp);
    return -1;
  }
  return 0;
}

size_t store_sweep(const store *s) {
  if (s->fd < 0) {
    return 0;
  }
  int fd = dup(s->fd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0) {
      close(fd);
    }
    return 0;
  }
  rewinddir(d);
  size_t removed = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (strncmp(de->d_name, ".tmp-", 5) != 0) {
      continue;
    }
    int t = openat(s->fd, de->d_name,
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    /* Locked: an install of another mcphost is extracting into it. */
    if (t >= 0 && flock(t, LOCK_EX | LOCK_NB) == 0 &&
        fs_remove_tree(s->fd, de->d_name) == 0) {
      removed++;
    }
    if (t >= 0) {
      close(t);
    }
  }
  closedir(d);
  return removed;
}

bool store_name_ok(const char *name) {
  size_t len = strlen(name);
  if (len == 0 || len > 100 || name[0] == '.') {
    return false;
  }
  return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      "0123456789._-") == len;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

char **store_list(const store *s, size_t *count) {
  *count = 0;
  if (s->fd < 0) {
    return NULL;
  }
  int fd = dup(s->fd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0) {
      close(fd);
    }
    return NULL;
  }
  rewinddir(d);
  char **names = NULL;
  struct dirent *de;
  while ((de = readdir(d))) {
    struct stat st;
    if (!store_name_ok(de->d_name) ||
        fstatat(s->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
        !S_ISDIR(st.st_mode)) {
      continue;
    }
    char **grown = realloc(names, (*count + 1) * sizeof *grown);
    if (!grown || !(grown[*count] = strdup(de->d_name))) {
      abort();
    }
    names = grown;
    (*count)++;
  }
  closedir(d);
  if (names) {
    qsort(names, *count, sizeof *names, cmp_names);
  }
  return names;
}

void store_names_free(char **names, size_t count) {
  for (size_t i = 0; i < count; i++) {
    free(names[i]);
  }
  free(names);
}

cJSON *store_manifest(const store *s, const char *name) {
  if (s->fd < 0 || !store_name_ok(name)) {
    return NULL;
  }
  int d = openat(s->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (d < 0) {
    return NULL;
  }
  size_t len = 0;
  char *text = fs_read_at(d, "manifest.json", 1u << 20, &len);
  close(d);
  cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL;
  free(text);
  return doc;
}

cJSON *store_settings(const store *s, const char *name) {
  char file[200];
  snprintf(file, sizeof file, "%s.json", name);
  size_t len = 0;
  char *text = s->settings_fd >= 0
                   ? fs_read_at(s->settings_fd, file, 1u << 20, &len)
                   : NULL;
  cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL;
  free(text);
  if (!cJSON_IsObject(doc)) {
    cJSON_Delete(doc);
    doc = cJSON_CreateObject();
  }
  return doc;
}

int store_settings_write(const store *s, const char *name,
                         const cJSON *settings, char *why, size_t n) {
  char file[200];
  snprintf(file, sizeof file, "%s.json", name);
  char *text = cJSON_Print(settings);
  int rc =
      text ? fs_write_at(s->settings_fd, file, text, strlen(text), 0600) : -1;
  if (rc < 0) {
    snprintf(why, n, "%s/.settings/%s: %s", s->root, file, strerror(errno));
  }
  free(text);
  return rc;
}

void store_secret_key(const char *bundle, const char *key, char *out,
                      size_t n) {
  size_t len = strlen(key);
  if (len && strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"
                         "YZ0123456789._-") == len) {
    snprintf(out, n, "%s--%s", bundle, key);
    return;
  }
  int used = snprintf(out, n, "%s--x", bundle);
  for (size_t i = 0; i < len && used > 0 && (size_t)used + 3 < n; i++) {
    used +=
        snprintf(out + used, n - (size_t)used, "%02x", (unsigned char)key[i]);
  }
}
