#include "config/config_write.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "util.h"
#include "json_write.h"
#include "write_all.h"

/* As json_write writes it: U+0000 (held as C0 80, json_parse.h) as
 * \u0000. */
static void put_string(strbuf *b, const char *s) {
  cJSON tmp = {.type = cJSON_String, .valuestring = (char *)(uintptr_t)s};
  json_write(b, &tmp);
}

static void indent(strbuf *b, int n) {
  for (int i = 0; i < n; i++)
    sb_addc(b, ' ');
}

/* A number as text that reads back as the same double. cJSON's printer
 * would not: it takes 15 digits when they come close (345678901234586079
 * became 345678901234586000) and writes null for a number beyond the
 * double range as written (1e400). */
static void put_number(strbuf *b, double d) {
  if (isinf(d)) {
    sb_adds(b, d > 0 ? "1e999" : "-1e999");
    return;
  }
  char text[40];
  snprintf(text, sizeof text, "%.15g", d);
  if (strtod(text, NULL) != d)
    snprintf(text, sizeof text, "%.17g", d);
  sb_adds(b, text);
}

static void put_value(strbuf *b, const cJSON *v, int depth) {
  bool obj = cJSON_IsObject(v);
  if ((obj || cJSON_IsArray(v)) && v->child) {
    sb_addc(b, obj ? '{' : '[');
    sb_addc(b, '\n');
    for (const cJSON *it = v->child; it; it = it->next) {
      indent(b, (depth + 1) * 2);
      if (obj) {
        put_string(b, it->string ? it->string : "");
        sb_adds(b, ": ");
      }
      put_value(b, it, depth + 1);
      sb_adds(b, it->next ? ",\n" : "\n");
    }
    indent(b, depth * 2);
    sb_addc(b, obj ? '}' : ']');
    return;
  }
  if (cJSON_IsNumber(v) && !v->valuestring) {
    put_number(b, v->valuedouble);
    return;
  }
  /* A number's token as it was read (json_parse.h), a string, a
   * literal. */
  if (json_write(b, v) != 0) {
    sb_adds(b, "null");
  }
}

char *config_json_text(const cJSON *doc) {
  strbuf b;
  sb_init(&b);
  put_value(&b, doc, 0);
  sb_addc(&b, '\n');
  return sb_take(&b);
}

/* mkdir -p with mode 0700 for what it creates. */
static int make_dirs(const char *dir, char *why, size_t why_len) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return 0;
    snprintf(why, why_len, "%s: not a directory", dir);
    return -1;
  }
  char *copy = xstrdup(dir);
  char *parent = dirname(copy);
  int rc = 0;
  if (strcmp(parent, dir) != 0)
    rc = make_dirs(parent, why, why_len);
  free(copy);
  if (rc == 0 && mkdir(dir, 0700) < 0 && errno != EEXIST) {
    snprintf(why, why_len, "cannot create %s: %s", dir, strerror(errno));
    rc = -1;
  }
  return rc;
}

/* The file to write: `path`, or where its symbolic link points. */
static char *target_of(const char *path, char *why, size_t why_len) {
  struct stat lst;
  if (lstat(path, &lst) < 0 || !S_ISLNK(lst.st_mode))
    return xstrdup(path);
  char *real = realpath(path, NULL);
  if (!real)
    snprintf(why, why_len,
             "%s: a symbolic link whose target cannot be "
             "resolved (%s); not writing through it",
             path, strerror(errno));
  return real;
}

/* `narrow`: an existing file keeps at most the bits of `new_mode`. */
static int edit_file(const char *path, mode_t new_mode, bool narrow,
                     config_edit_fn fn, void *ud, char *why, size_t why_len) {
  char *target = target_of(path, why, why_len);
  if (!target)
    return -1;
  int rc = -1, dirfd = -1, fd = -1;
  char *dir = NULL, *tmp = NULL, *text = NULL;
  cJSON *doc = NULL;
  config errs;
  config_init(&errs);

  char *copy = xstrdup(target);
  dir = xstrdup(dirname(copy));
  free(copy);
  if (make_dirs(dir, why, why_len) < 0)
    goto out;
  /* The lock lives on the directory: the file itself is replaced by
   * rename, so a lock on it would guard an inode nobody reads again. */
  dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirfd < 0) {
    snprintf(why, why_len, "cannot open %s: %s", dir, strerror(errno));
    goto out;
  }
  while (flock(dirfd, LOCK_EX) < 0) {
    if (errno != EINTR) {
      snprintf(why, why_len, "cannot lock %s: %s", dir, strerror(errno));
      goto out;
    }
  }

  struct stat st;
  bool exists = stat(target, &st) == 0;
  doc = config_read_json(&errs, target, false);
  if (errs.nerrors) {
    snprintf(why, why_len, "%s; not changing it", errs.errors[0]);
    goto out;
  }
  if (!doc)
    doc = cJSON_CreateObject();

  int changed = fn(doc, ud, why, why_len);
  if (changed <= 0) {
    rc = changed;
    goto out;
  }

  text = config_json_text(doc);
  const char *base = strrchr(target, '/');
  tmp = xasprintf("%s/.%s.tmp.XXXXXX", dir, base ? base + 1 : target);
  fd = mkstemp(tmp);
  if (fd < 0) {
    snprintf(why, why_len, "cannot create a temporary file in %s: %s", dir,
             strerror(errno));
    free(tmp);
    tmp = NULL;
    goto out;
  }
  mode_t mode = exists ? (st.st_mode & 07777) : new_mode;
  if (exists && narrow)
    mode &= new_mode | ~(mode_t)0777;
  if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()))
    (void)!fchown(fd, st.st_uid, st.st_gid); /* best effort: keep the owner */
  if (fchmod(fd, mode) < 0 || write_all(fd, text, strlen(text)) < 0 ||
      fsync(fd) < 0) {
    snprintf(why, why_len, "cannot write %s: %s", tmp, strerror(errno));
    goto out;
  }
  if (close(fd) < 0) {
    fd = -1;
    snprintf(why, why_len, "cannot write %s: %s", tmp, strerror(errno));
    goto out;
  }
  fd = -1;
  if (rename(tmp, target) < 0) {
    snprintf(why, why_len, "cannot replace %s: %s", target, strerror(errno));
    goto out;
  }
  free(tmp);
  tmp = NULL;
  fsync(dirfd); /* the rename itself survives a crash */
  rc = 1;
out:
  if (fd >= 0)
    close(fd);
  if (tmp) {
    unlink(tmp);
    free(tmp);
  }
  if (dirfd >= 0)
    close(dirfd); /* releases the lock */
  config_free(&errs);
  cJSON_Delete(doc);
  free(text);
  free(dir);
  free(target);
  return rc;
}

int config_edit_file(const char *path, mode_t new_mode, config_edit_fn fn,
                     void *ud, char *why, size_t why_len) {
  return edit_file(path, new_mode, false, fn, ud, why, why_len);
}

int config_edit_private_file(const char *path, config_edit_fn fn, void *ud,
                             char *why, size_t why_len) {
  return edit_file(path, 0600, true, fn, ud, why, why_len);
}
