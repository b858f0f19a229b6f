/* Fuzz target: an IDE's lockfile (plugins/ide/lockfile.h, ide_lock_read).
 * The first byte picks the file's name, its mode and its size, the next
 * two a port; the rest is the file's text, written into a scratch
 * directory and read back through ide_lock_read. A plain model of the
 * format (lockfile.h) says what must come out:
 *  - a name that is not <port>.lock (1 to 65535) is refused and not read;
 *  - a file others may write, or one over IDE_LOCK_MAX_BYTES, is refused
 *    (exactly IDE_LOCK_MAX_BYTES is read);
 *  - a file it accepts has every field the model reads from the same
 *    JSON: the pid, ideName ("IDE" when absent), transport ("ws" when
 *    absent), the token (NULL when absent or null), runningInWindows,
 *    every workspace folder, and contains_cwd exactly when a folder is
 *    the working directory or above it;
 *  - a file with a field of the wrong type or out of its bounds is refused
 *    with an error naming a field the model finds bad (workspaceFolders[K]
 *    with a bad K), and nothing but the path and the port set. */
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "lockfile.h"
#include "scratch.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

/* The working directory the folders are matched against: it does not
 * exist, so it is compared as written. */
#define CWD "/nonexistent-mcph-fuzz/ws/a"

static char dir[256];
static int dir_fd = -1;

static void setup(void) {
  if (dir_fd >= 0) {
    return;
  }
  scratch_dir("ide_lockfile", dir, sizeof dir);
  dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) {
    abort();
  }
}

/* The port a name gives by the rule: 1 to 5 digits, then ".lock", of a
 * value from 1 to 65535; else 0. */
static int model_port(const char *name) {
  size_t n = strlen(name), d = strspn(name, "0123456789");
  if (d == 0 || d > 5 || d + 5 != n || strcmp(name + d, ".lock") != 0) {
    return 0;
  }
  long v = strtol(name, NULL, 10);
  return v >= 1 && v <= 65535 ? (int)v : 0;
}

static bool token_model_ok(const char *t) {
  size_t n = strlen(t);
  if (n < 1 || n > 500) {
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    if (t[i] < '!' || t[i] > '~' || strchr("$\"\\", t[i])) {
      return false;
    }
  }
  return true;
}

/* Whether `f` is CWD or one of its parents, "/" included, written with
 * any trailing slashes, or a path that exists and resolves to one. */
static bool folder_holds_cwd(const char *f) {
  char real[PATH_MAX];
  if (f[0] != '/') {
    return false;
  }
  const char *p = realpath(f, real) ? real : f;
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/') {
    n--;
  }
  static const char *const ups[] = {"/", "/nonexistent-mcph-fuzz",
                                    "/nonexistent-mcph-fuzz/ws", CWD};
  for (size_t i = 0; i < sizeof ups / sizeof ups[0]; i++) {
    if (strlen(ups[i]) == n && strncmp(ups[i], p, n) == 0) {
      return true;
    }
  }
  return false;
}

/* Whether the error names `field` as the one at fault. */
static bool names(const char *error, const char *field) {
  char want[64];
  snprintf(want, sizeof want, "field \"%s\"", field);
  return strstr(error, want) != NULL;
}

/* The fields of an accepted file against the model's, or the error of a
 * refused one against the fields the model finds bad. */
static void check_fields(const cJSON *doc, const ide_lock *lk) {
  bool bad_type = !cJSON_IsObject(doc);
  const cJSON *pid = cJSON_GetObjectItemCaseSensitive(doc, "pid");
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(doc, "ideName");
  const cJSON *tr = cJSON_GetObjectItemCaseSensitive(doc, "transport");
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(doc, "authToken");
  const cJSON *win = cJSON_GetObjectItemCaseSensitive(doc, "runningInWindows");
  const cJSON *folders =
      cJSON_GetObjectItemCaseSensitive(doc, "workspaceFolders");
  double v = cJSON_IsNumber(pid) ? pid->valuedouble : 0;
  bool bad_pid =
      !cJSON_IsNumber(pid) || !(v >= 1 && v <= INT_MAX) || floor(v) != v;
  bool bad_name = name && !cJSON_IsString(name);
  bool bad_tr =
      tr && !(cJSON_IsString(tr) && (strcmp(tr->valuestring, "ws") == 0 ||
                                     strcmp(tr->valuestring, "sse") == 0));
  bool bad_tok = tok && !cJSON_IsNull(tok) &&
                 !(cJSON_IsString(tok) && token_model_ok(tok->valuestring));
  bool bad_win = win && !cJSON_IsBool(win);
  bool bad_folders = folders && !cJSON_IsArray(folders);
  bool bad_folder = false;
  const cJSON *f;
  if (!bad_folders) {
    cJSON_ArrayForEach(f, folders) {
      bad_folder |= !cJSON_IsString(f) || !f->valuestring[0];
    }
  }
  bool bad = bad_type || bad_pid || bad_name || bad_tr || bad_tok || bad_win ||
             bad_folders || bad_folder;
  if (bad != (lk->error != NULL)) {
    abort();
  }
  if (bad) {
    const char *e = lk->error;
    if (bad_type) {
      if (!strstr(e, "not a JSON object")) {
        abort();
      }
      return;
    }
    /* workspaceFolders[K]: the K-th element is the one at fault. */
    const char *idx = strstr(e, "field \"workspaceFolders[");
    if (idx) {
      int k = atoi(idx + strlen("field \"workspaceFolders["));
      const cJSON *el = cJSON_GetArrayItem(folders, k);
      if (bad_folders || !el || (cJSON_IsString(el) && el->valuestring[0])) {
        abort();
      }
      return;
    }
    if (!((bad_pid && names(e, "pid")) || (bad_name && names(e, "ideName")) ||
          (bad_tr && names(e, "transport")) ||
          (bad_tok && names(e, "authToken")) ||
          (bad_win && names(e, "runningInWindows")) ||
          (bad_folders && names(e, "workspaceFolders")))) {
      abort();
    }
    return;
  }
  if (lk->pid != (long)v || !lk->ide_name || !lk->transport ||
      strcmp(lk->ide_name, name ? name->valuestring : "IDE") != 0 ||
      strcmp(lk->transport, tr ? tr->valuestring : "ws") != 0 ||
      lk->windows != cJSON_IsTrue(win)) {
    abort();
  }
  if (cJSON_IsString(tok)
          ? !lk->auth_token || strcmp(lk->auth_token, tok->valuestring) != 0
          : lk->auth_token != NULL) {
    abort();
  }
  if (lk->nfolders != (size_t)cJSON_GetArraySize(folders) ||
      (lk->nfolders && !lk->folders)) {
    abort();
  }
  size_t k = 0;
  bool holds = false;
  cJSON_ArrayForEach(f, folders) {
    if (strcmp(lk->folders[k++], f->valuestring) != 0) {
      abort();
    }
    holds |= folder_holds_cwd(f->valuestring);
  }
  if (lk->contains_cwd != holds) {
    abort();
  }
}

static void put(const char *name, const unsigned char *text, size_t len,
                size_t pad, unsigned mode) {
  unlinkat(dir_fd, name, 0);
  int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || (len && write(fd, text, len) != (ssize_t)len)) {
    abort();
  }
  if (pad) {
    char *spaces = malloc(pad);
    if (!spaces) {
      abort();
    }
    memset(spaces, ' ', pad);
    if (write(fd, spaces, pad) != (ssize_t)pad) {
      abort();
    }
    free(spaces);
  }
  if (fchmod(fd, mode) != 0) {
    abort();
  }
  close(fd);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len < 3) {
    return 0;
  }
  setup();
  unsigned flags = data[0];
  unsigned num = (unsigned)data[1] | (unsigned)data[2] << 8;
  data += 3;
  len -= 3;
  if (len > IDE_LOCK_MAX_BYTES) {
    return 0;
  }
  /* The name: mostly a port's (0 and 65536-99999 among them), else a
   * near miss of the rule. */
  static const char *const odd[] = {"x80.lock", "123456.lock", "80.lock.lock",
                                    "-80.lock", "8 0.lock",    ".lock"};
  char name[32];
  if ((flags & 7) < 6) {
    snprintf(name, sizeof name, "%u.lock", num % 100000);
  } else {
    snprintf(name, sizeof name, "%s", odd[num % 6]);
  }
  /* Padded with spaces to the limit exactly (still read), or beyond. */
  size_t pad = 0;
  if (flags & 0x10) {
    pad = IDE_LOCK_MAX_BYTES - len + ((flags & 0x20) ? 1 + num % 3 : 0);
  }
  unsigned mode = (flags & 0x40) ? 0620 : 0600;
  put(name, data, len, pad, mode);

  ide_locks all = {.v = calloc(1, sizeof(ide_lock)), .n = 1};
  if (!all.v) {
    abort();
  }
  ide_lock_read(dir_fd, dir, name, CWD, all.v);
  const ide_lock *lk = all.v;

  char path[320];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int port = model_port(name);
  if (!lk->path || strcmp(lk->path, path) != 0 || lk->port != port) {
    abort();
  }
  const char *want_error = NULL;
  if (!port) {
    want_error = "the file name is not <port>.lock";
  } else if (mode != 0600) {
    want_error = "not trusted";
  } else if (len + pad > IDE_LOCK_MAX_BYTES) {
    want_error = "larger than 65536 bytes";
  }
  char *text = malloc(len + 1);
  if (!text) {
    abort();
  }
  memcpy(text, data, len);
  text[len] = '\0';
  cJSON *doc = want_error ? NULL : cJSON_Parse(text);
  free(text);
  if (!want_error && !doc) {
    want_error = "not valid JSON";
  }
  if (want_error) {
    if (!lk->error || !strstr(lk->error, want_error)) {
      abort();
    }
  } else {
    check_fields(doc, lk);
  }
  /* A refused file sets nothing but its path and port. */
  if (lk->error && (lk->pid || lk->ide_name || lk->transport ||
                    lk->auth_token || lk->folders || lk->nfolders ||
                    lk->alive || lk->windows || lk->contains_cwd)) {
    abort();
  }
  cJSON_Delete(doc);
  ide_locks_free(&all);
  return 0;
}
