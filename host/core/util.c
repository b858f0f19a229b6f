#include "core/util.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <unistd.h>

char *xasprintf(const char *fmt, ...) {
  strbuf b;
  sb_init(&b);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  return sb_take(&b);
}

void sb_init(strbuf *b) {
  b->data = NULL;
  b->len = b->cap = 0;
}

void sb_free(strbuf *b) {
  free(b->data);
  sb_init(b);
}

static void sb_grow(strbuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1)
    cap *= 2;
  b->data = xrealloc(b->data, cap);
  b->cap = cap;
}

void sb_reserve(strbuf *b, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->data = xrealloc(b->data, b->len + n + 1);
    b->cap = b->len + n + 1;
  }
}

void sb_add(strbuf *b, const char *s, size_t n) {
  sb_grow(b, n);
  if (n)
    memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void sb_adds(strbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

void sb_addc(strbuf *b, char c) { sb_add(b, &c, 1); }

char *sb_extend(strbuf *b, size_t n) {
  sb_grow(b, n);
  char *at = b->data + b->len;
  b->len += n;
  b->data[b->len] = '\0';
  return at;
}

void sb_vprintf(strbuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  sb_grow(b, 64);
  int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
  if (n > 0 && b->len + (size_t)n + 1 > b->cap) {
    sb_grow(b, (size_t)n);
    vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap2);
  }
  if (n > 0)
    b->len += (size_t)n;
  va_end(ap2);
}

void sb_printf(strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

char *sb_take(strbuf *b) {
  char *s = b->data ? b->data : xstrdup("");
  sb_init(b);
  return s;
}

const char *sb_str(const strbuf *b) { return b->data ? b->data : ""; }

bool str_starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

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
