#include "core/host_secrets.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/host.h"
#include "util.h"
#include "trusted_fs.h"
#include "write_all.h"

bool host_secrets_key_ok(const char *key) {
  size_t n = key ? strlen(key) : 0;
  if (n == 0 || n > 100 || key[0] == '.') {
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    char c = key[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) {
      return false;
    }
  }
  return true;
}

int host_secrets_open_dir(const mcph_host *api, const char *key, unsigned flags,
                          bool create, char **path, mcph_error *err) {
  host *h = host_from_api(api);
  const plugin *p = host_caller(api);
  *path = NULL;
  if (!p) {
    return mcph_error_set(err, MCPH_EINVAL, "secrets belong to a plugin");
  }
  if (!host_secrets_key_ok(key)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "%s: invalid secret key (1 to 100 bytes of "
                          "[A-Za-z0-9._-], not starting with '.')",
                          p->id);
  }
  const char *state = h->paths[MCPH_PATH_STATE];
  if (!state) {
    return mcph_error_set(err, MCPH_EIO,
                          "%s: no per-user state directory (no home): "
                          "secrets cannot be kept",
                          p->id);
  }
  if (flags & MCPH_SECRET_SHARED) {
    *path = xstrdup(state);
  } else {
    char name[128];
    trusted_fs_file_name(p->id, name, sizeof name);
    *path = xasprintf("%s/secrets/%s", state, name);
  }
  char why[PATH_MAX + 128];
  int dfd = trusted_fs_open_dir(
      *path, TRUSTED_FS_PRIVATE | (create ? TRUSTED_FS_CREATE : 0), why,
      sizeof why);
  if (dfd < 0) {
    return mcph_error_set(err, errno == ENOENT ? MCPH_ENOTFOUND : MCPH_EIO,
                          "%s", why);
  }
  return dfd;
}

static int svc_set(const mcph_host *api, const char *key, const char *value,
                   size_t len, mcph_error *err) {
  if (!value && len) {
    return mcph_error_set(err, MCPH_EINVAL, "a secret's value is NULL");
  }
  if (len > MCPH_SECRET_MAX) {
    return mcph_error_set(err, MCPH_ETOOBIG,
                          "a secret is at most %d bytes (this one has %zu)",
                          MCPH_SECRET_MAX, len);
  }
  char *path = NULL;
  int rc = MCPH_OK;
  int dfd = host_secrets_open_dir(api, key, 0, true, &path, err);
  if (dfd < 0) {
    rc = dfd;
    goto out;
  }
  /* A new file renamed over the old one: never half a value. */
  char tmp[160], why[PATH_MAX + 128];
  snprintf(tmp, sizeof tmp, ".%s.new", key);
  unlinkat(dfd, tmp, 0);
  int fd = trusted_fs_open_file(dfd, path, tmp,
                                O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0600,
                                why, sizeof why);
  if (fd < 0) {
    rc = mcph_error_set(err, MCPH_EIO, "%s", why);
    goto out;
  }
  bool ok = write_all(fd, value ? value : "", len) == 0 && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  if (!ok || renameat(dfd, tmp, dfd, key) != 0) {
    rc = mcph_error_set(err, MCPH_EIO, "cannot write %s/%s: %s", path, key,
                        strerror(errno));
    unlinkat(dfd, tmp, 0);
  }
out:
  if (dfd >= 0) {
    close(dfd);
  }
  free(path);
  return rc;
}

static const char *svc_get(const mcph_host *api, const char *key, size_t *len,
                           mcph_error *err) {
  char *path = NULL, *buf = NULL;
  int fd = -1;
  int dfd = host_secrets_open_dir(api, key, 0, false, &path, err);
  if (dfd < 0) {
    goto out;
  }
  char why[PATH_MAX + 128];
  fd = trusted_fs_open_file(dfd, path, key, O_RDONLY, 0600, why, sizeof why);
  if (fd < 0) {
    mcph_error_set(err, errno == ENOENT ? MCPH_ENOTFOUND : MCPH_EIO, "%s",
                   errno == ENOENT ? "no such secret" : why);
    goto out;
  }
  buf = xmalloc(MCPH_SECRET_MAX + 1);
  size_t n = 0;
  for (;;) {
    ssize_t r = read(fd, buf + n, MCPH_SECRET_MAX + 1 - n);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r < 0) {
      mcph_error_set(err, MCPH_EIO, "cannot read %s/%s: %s", path, key,
                     strerror(errno));
      free(buf);
      buf = NULL;
      goto out;
    }
    if (r == 0 || n + (size_t)r > MCPH_SECRET_MAX) {
      n += (size_t)r;
      break;
    }
    n += (size_t)r;
  }
  if (n > MCPH_SECRET_MAX) {
    mcph_error_set(err, MCPH_ETOOBIG, "%s/%s is over %d bytes", path, key,
                   MCPH_SECRET_MAX);
    free(buf);
    buf = NULL;
    goto out;
  }
  buf[n] = '\0';
  if (len) {
    *len = n;
  }
out:
  if (fd >= 0) {
    close(fd);
  }
  if (dfd >= 0) {
    close(dfd);
  }
  free(path);
  return buf ? host_returned(host_from_api(api), buf) : NULL;
}

static int svc_remove(const mcph_host *api, const char *key, mcph_error *err) {
  char *path = NULL;
  int dfd = host_secrets_open_dir(api, key, 0, false, &path, err);
  int rc = MCPH_OK;
  if (dfd == MCPH_ENOTFOUND) {
    if (err) { /* no store: no such key either, which is fine */
      err->code = MCPH_OK;
      err->message[0] = '\0';
    }
  } else if (dfd < 0) {
    rc = dfd;
  } else if (unlinkat(dfd, key, 0) != 0 && errno != ENOENT) {
    rc = mcph_error_set(err, MCPH_EIO, "cannot remove %s/%s: %s", path, key,
                        strerror(errno));
  }
  if (dfd >= 0) {
    close(dfd);
  }
  free(path);
  return rc;
}

const mcph_host_secrets *host_secrets_service(void) {
  static const mcph_host_secrets svc = {
      .struct_size = sizeof svc,
      .set = svc_set,
      .get = svc_get,
      .remove = svc_remove,
      .update = host_secrets_update,
  };
  return &svc;
}
