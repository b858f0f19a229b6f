#include "util.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <unistd.h>

char *user_home(void) {
  const char *home = getenv("HOME");
  if (home && home[0] == '/') {
    return xstrdup(home);
  }
  struct passwd pw, *found = NULL;
  char buf[4096];
  if (getpwuid_r(getuid(), &pw, buf, sizeof buf, &found) != 0 || !found ||
      !found->pw_dir || found->pw_dir[0] != '/' ||
      strcmp(found->pw_dir, "/") == 0 || access(found->pw_dir, X_OK) != 0) {
    return NULL;
  }
  return xstrdup(found->pw_dir);
}

bool glob_match(const char *p, const char *s) {
  /* Iterative with one backtrack point: linear in practice, and no
   * recursion for a hostile pattern to exhaust. */
  const char *star = NULL, *resume = NULL;
  while (*s) {
    if (*p == '*') {
      star = p++;
      resume = s;
    } else if (*p == *s) {
      p++;
      s++;
    } else if (star) {
      p = star + 1;
      s = ++resume;
    } else {
      return false;
    }
  }
  while (*p == '*')
    p++;
  return *p == '\0';
}

bool term_size(int fd, unsigned *cols, unsigned *rows) {
  struct winsize ws;
  if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
    return false;
  *cols = ws.ws_col;
  *rows = ws.ws_row ? ws.ws_row : 24;
  return true;
}

char *read_whole_file(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  strbuf b;
  sb_init(&b);
  char chunk[8192];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    sb_add(&b, chunk, n);
  }
  int failed = ferror(f) ? (errno ? errno : EIO) : 0;
  if (f != stdin) {
    fclose(f);
  }
  if (failed) {
    sb_free(&b);
    errno = failed;
    return NULL;
  }
  *len = b.len;
  return sb_take(&b);
}

char *path_join(const char *dir, const char *name) {
  size_t d = strlen(dir), n = strlen(name);
  char *p = xmalloc(d + n + 2);
  memcpy(p, dir, d);
  p[d] = '/';
  memcpy(p + d + 1, name, n + 1);
  return p;
}

bool path_missing(const char *path) {
  struct stat st;
  return lstat(path, &st) != 0 && errno == ENOENT;
}

char *str_concat(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  char *p = xmalloc(na + nb + 1);
  memcpy(p, a, na);
  memcpy(p + na, b, nb + 1);
  return p;
}

void proc_fd_path(char out[32], int fd) {
  static const char head[] = "/proc/self/fd/";
  char digits[16];
  size_t n = 0;
  unsigned v = fd < 0 ? 0 : (unsigned)fd;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  memcpy(out, head, sizeof head - 1);
  for (size_t i = 0; i < n; i++) {
    out[sizeof head - 1 + i] = digits[n - 1 - i];
  }
  out[sizeof head - 1 + n] = '\0';
}
