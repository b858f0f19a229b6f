#include "lockfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ide_util.h"
#include "trusted_fs.h"

static void set_error(ide_lock *lk, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_error(ide_lock *lk, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = xvasprintf(fmt, ap);
  va_end(ap);
  free(lk->error);
  lk->error = msg;
}

/* The port a lockfile's name gives, or 0. */
static int port_of(const char *name) {
  size_t n = strlen(name);
  if (n < 6 || strcmp(name + n - 5, ".lock") != 0)
    return 0;
  long port = 0;
  for (size_t i = 0; i < n - 5; i++) {
    if (name[i] < '0' || name[i] > '9' || i >= 5)
      return 0;
    port = port * 10 + (name[i] - '0');
  }
  return port >= 1 && port <= 65535 ? (int)port : 0;
}

static char *read_all(int fd, ide_lock *lk) {
  struct stat st;
  if (fstat(fd, &st) != 0) {
    set_error(lk, "cannot read: %s", strerror(errno));
    return NULL;
  }
  if ((unsigned long long)st.st_size > IDE_LOCK_MAX_BYTES) {
    set_error(lk, "larger than %u bytes; refused", IDE_LOCK_MAX_BYTES);
    return NULL;
  }
  char *buf = xcalloc(IDE_LOCK_MAX_BYTES + 1, 1);
  size_t len = 0;
  for (;;) {
    ssize_t r = read(fd, buf + len, IDE_LOCK_MAX_BYTES + 1 - len);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r < 0) {
      set_error(lk, "cannot read: %s", strerror(errno));
      free(buf);
      return NULL;
    }
    if (r == 0) {
      break;
    }
    len += (size_t)r;
    if (len > IDE_LOCK_MAX_BYTES) {
      set_error(lk, "larger than %u bytes; refused", IDE_LOCK_MAX_BYTES);
      free(buf);
      return NULL;
    }
  }
  buf[len] = '\0';
  return buf;
}

/* An auth token as the IDE plugins make them (hex, base64url, UUID):
 * printable, no space, no '$' (the host expands ${VAR} in a server's
 * entry) and at most 500 characters (nvim's own limit). */
static bool token_ok(const char *t) {
  size_t n = strlen(t);
  if (n == 0 || n > 500) {
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)t[i];
    if (ch <= 0x20 || ch >= 0x7f || ch == '$' || ch == '"' || ch == '\\') {
      return false;
    }
  }
  return true;
}

/* Whether `pid` is a live process of this user's. A process of another
 * user's is not the user's IDE (the pid was reused after a crash or a
 * reboot), so its lockfile is stale: kill() says EPERM then, and for
 * root, whom kill() never refuses, /proc/PID's owner says it. */
static bool pid_is_ours(pid_t pid) {
  if (pid <= 0 || kill(pid, 0) != 0) {
    return false;
  }
  char path[32];
  snprintf(path, sizeof path, "/proc/%d", (int)pid);
  struct stat st;
  return stat(path, &st) != 0 || st.st_uid == geteuid();
}

/* Fills lk from the parsed document; lk->error on the first bad field. */
static void take_fields(const cJSON *doc, const char *cwd, ide_lock *lk) {
  if (!cJSON_IsObject(doc)) {
    set_error(lk, "not a JSON object");
    return;
  }
  const cJSON *pid = cJSON_GetObjectItemCaseSensitive(doc, "pid");
  if (!cJSON_IsNumber(pid) || pid->valuedouble < 1 ||
      pid->valuedouble > (double)INT_MAX ||
      pid->valuedouble != (double)(long)pid->valuedouble) {
    set_error(lk, "field \"pid\" must be a positive integer");
    return;
  }
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(doc, "ideName");
  if (name && !cJSON_IsString(name)) {
    set_error(lk, "field \"ideName\" must be a string");
    return;
  }
  const cJSON *tr = cJSON_GetObjectItemCaseSensitive(doc, "transport");
  const char *trs = tr ? cJSON_GetStringValue(tr) : "ws";
  if (!trs || (strcmp(trs, "ws") != 0 && strcmp(trs, "sse") != 0)) {
    set_error(lk, "field \"transport\" must be \"ws\" or \"sse\"");
    return;
  }
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(doc, "authToken");
  if (tok && !cJSON_IsNull(tok) &&
      (!cJSON_IsString(tok) || !token_ok(tok->valuestring))) {
    set_error(lk, "field \"authToken\" must be a string of 1 to 500 "
                  "printable characters without spaces, quotes or '$'");
    return;
  }
  const cJSON *win = cJSON_GetObjectItemCaseSensitive(doc, "runningInWindows");
  if (win && !cJSON_IsBool(win)) {
    set_error(lk, "field \"runningInWindows\" must be true or false");
    return;
  }
  const cJSON *folders =
      cJSON_GetObjectItemCaseSensitive(doc, "workspaceFolders");
  if (folders && !cJSON_IsArray(folders)) {
    set_error(lk, "field \"workspaceFolders\" must be an array");
    return;
  }
  size_t nf = (size_t)cJSON_GetArraySize(folders);
  char **fv = xcalloc(nf + 1, sizeof *fv);
  size_t k = 0;
  const cJSON *f;
  cJSON_ArrayForEach(f, folders) {
    if (!cJSON_IsString(f) || f->valuestring[0] == '\0') {
      set_error(
          lk, "field \"workspaceFolders[%zu]\" must be a non-empty string", k);
      for (size_t i = 0; i < k; i++) {
        free(fv[i]);
      }
      free(fv);
      return;
    }
    fv[k++] = xstrdup(f->valuestring);
  }
  /* Set only now: a refused file has no fields (lockfile.h). */
  lk->pid = (long)pid->valuedouble;
  lk->folders = fv;
  lk->nfolders = k;
  lk->ide_name = xstrdup(name ? name->valuestring : "IDE");
  lk->transport = xstrdup(trs);
  lk->auth_token =
      tok && cJSON_IsString(tok) ? xstrdup(tok->valuestring) : NULL;
  lk->windows = cJSON_IsTrue(win);
  lk->alive = pid_is_ours((pid_t)lk->pid);
  for (size_t i = 0; i < k && !lk->contains_cwd; i++) {
    lk->contains_cwd = ide_folder_contains(fv[i], cwd);
  }
}

void ide_lock_read(int dir_fd, const char *dir, const char *name,
                   const char *cwd, ide_lock *lk) {
  lk->path = xasprintf("%s/%s", dir, name);
  lk->port = port_of(name);
  if (!lk->port) {
    set_error(lk, "the file name is not <port>.lock with a port of 1 to "
                  "65535");
    return;
  }
  char why[512];
  /* O_NONBLOCK: a FIFO named <port>.lock opens at once (and is refused
   * as not a regular file) instead of waiting for a writer; no effect on
   * a regular file's reads. */
  int fd = trusted_fs_open_file(dir_fd, dir, name, O_RDONLY | O_NONBLOCK, 0,
                                why, sizeof why);
  if (fd < 0) {
    set_error(lk, "not trusted, refused: %s", why);
    return;
  }
  char *text = read_all(fd, lk);
  close(fd);
  if (!text) {
    return;
  }
  cJSON *doc = cJSON_Parse(text);
  free(text);
  if (!doc) {
    set_error(lk, "not valid JSON");
    return;
  }
  take_fields(doc, cwd, lk);
  cJSON_Delete(doc);
}

bool ide_folder_contains(const char *dir, const char *cwd) {
  if (!dir || dir[0] != '/' || !cwd) {
    return false;
  }
  char rd[PATH_MAX], rc[PATH_MAX];
  const char *d = realpath(dir, rd) ? rd : dir;
  const char *c = realpath(cwd, rc) ? rc : cwd;
  size_t n = strlen(d);
  while (n > 1 && d[n - 1] == '/') {
    n--;
  }
  if (n == 1 && d[0] == '/') {
    return true; /* a workspace of "/" holds everything */
  }
  return strncmp(c, d, n) == 0 && (c[n] == '\0' || c[n] == '/');
}

static int by_port(const void *a, const void *b) {
  const ide_lock *x = a, *y = b;
  return (x->port > y->port) - (x->port < y->port);
}

static void add_dir(ide_locks *l, char *dir) {
  char real[PATH_MAX];
  const char *key = realpath(dir, real) ? real : dir;
  for (size_t i = 0; i < l->ndirs; i++) {
    char other[PATH_MAX];
    const char *ok = realpath(l->dirs[i], other) ? other : l->dirs[i];
    if (strcmp(ok, key) == 0) {
      free(dir);
      return;
    }
  }
  l->dirs = xrealloc(l->dirs, (l->ndirs + 1) * sizeof *l->dirs);
  l->dirs[l->ndirs++] = dir;
}

static ide_lock *new_entry(ide_locks *l) {
  l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
  ide_lock *lk = &l->v[l->n++];
  memset(lk, 0, sizeof *lk);
  return lk;
}

static void scan_dir(ide_locks *l, const char *dir, const char *cwd) {
  char why[512];
  int dfd = trusted_fs_open_dir(dir, 0, why, sizeof why);
  if (dfd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return;
    }
    ide_lock *lk = new_entry(l);
    lk->path = xstrdup(dir);
    set_error(lk, "lockfile directory not trusted, refused: %s", why);
    return;
  }
  int scan_fd = dup(dfd);
  DIR *d = scan_fd >= 0 ? fdopendir(scan_fd) : NULL;
  if (!d) {
    if (scan_fd >= 0) {
      close(scan_fd);
    }
    ide_lock *lk = new_entry(l);
    lk->path = xstrdup(dir);
    set_error(lk, "cannot list the directory: %s", strerror(errno));
    close(dfd);
    return;
  }
  size_t first = l->n;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (e->d_name[0] == '.' || n < 5 || strcmp(e->d_name + n - 5, ".lock")) {
      continue;
    }
    ide_lock_read(dfd, dir, e->d_name, cwd, new_entry(l));
  }
  closedir(d);
  close(dfd);
  qsort(l->v + first, l->n - first, sizeof *l->v, by_port);
}

void ide_locks_scan(ide_locks *out, const char *cwd) {
  const char *ccd = getenv("CLAUDE_CONFIG_DIR");
  const char *home = getenv("HOME");
  const char *xdg = getenv("XDG_CONFIG_HOME");
  if (ccd && ccd[0] == '/') {
    add_dir(out, xasprintf("%s/ide", ccd));
  }
  if (home && home[0] == '/') {
    add_dir(out, xasprintf("%s/.claude/ide", home));
  }
  if (xdg && xdg[0] == '/') {
    add_dir(out, xasprintf("%s/claude/ide", xdg));
  } else if (home && home[0] == '/') {
    add_dir(out, xasprintf("%s/.config/claude/ide", home));
  }
  for (size_t i = 0; i < out->ndirs; i++) {
    scan_dir(out, out->dirs[i], cwd);
  }
}

void ide_locks_free(ide_locks *l) {
  for (size_t i = 0; i < l->n; i++) {
    ide_lock *lk = &l->v[i];
    free(lk->path);
    free(lk->error);
    free(lk->ide_name);
    free(lk->transport);
    free(lk->auth_token);
    for (size_t k = 0; k < lk->nfolders; k++) {
      free(lk->folders[k]);
    }
    free(lk->folders);
  }
  free(l->v);
  for (size_t i = 0; i < l->ndirs; i++) {
    free(l->dirs[i]);
  }
  free(l->dirs);
  memset(l, 0, sizeof *l);
}
