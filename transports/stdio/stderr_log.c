/* Capturing a server's stderr; see stderr_log.h. */
#include "stderr_log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A log file above this size is moved to "<name>.stderr.log.1" (replacing
 * the previous one) when the server next starts, so a chatty server cannot
 * fill the disk. */
#define STDERR_FILE_ROTATE_BYTES ((off_t)8 << 20)

void stderr_log_init(stderr_log *l, const mcph_host *host,
                     const char *server_name) {
  memset(l, 0, sizeof *l);
  l->host = host;
  l->source = server_name;
  l->file_fd = -1;
}

/* Creates `path` and its missing parents with mode 0700. */
static int mkdir_p(const char *path) {
  char tmp[PATH_MAX];
  size_t n = strlen(path);
  if (n == 0 || n >= sizeof tmp) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(tmp, path, n + 1);
  for (char *p = tmp + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (mkdir(tmp, 0700) != 0 && errno != EEXIST) {
        return -1;
      }
      *p = c;
      if (c == '\0') {
        return 0;
      }
    }
  }
}

/* Server names come from config files: keep [A-Za-z0-9._-], replace the
 * rest, and never produce ".", ".." or a hidden file. */
static void file_name_for(const char *name, char *out, size_t size) {
  size_t i = 0;
  for (const char *p = name; *p && i + 1 < size && i < 100; p++) {
    char c = *p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-' ||
              (c == '.' && i > 0);
    out[i++] = ok ? c : '_';
  }
  if (i == 0 && size > 7) {
    memcpy(out, "server", 6);
    i = 6;
  }
  out[i] = '\0';
}

void stderr_log_open(stderr_log *l) {
  const char *dir = l->host->get_path(l->host, MCPH_PATH_LOGS);
  if (!dir || !*dir) {
    return;
  }
  char name[128], path[PATH_MAX];
  file_name_for(l->source ? l->source : "", name, sizeof name);
  int n = snprintf(path, sizeof path, "%s/%s.stderr.log", dir, name);
  if (n < 0 || (size_t)n >= sizeof path - 2) {
    mcph_logf(l->host, MCPH_LOG_WARN, l->source,
              "cannot open a stderr log in %s: path too long", dir);
    return;
  }
  if (mkdir_p(dir) != 0) {
    mcph_logf(l->host, MCPH_LOG_WARN, l->source,
              "cannot create log directory %s: %s", dir, strerror(errno));
    return;
  }
  struct stat st;
  if (stat(path, &st) == 0 && st.st_size > STDERR_FILE_ROTATE_BYTES) {
    char old[PATH_MAX + 4];
    snprintf(old, sizeof old, "%s.1", path);
    rename(path, old);
  }
  l->file_fd = open(
      path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY,
      0600);
  if (l->file_fd < 0) {
    mcph_logf(l->host, MCPH_LOG_WARN, l->source,
              "cannot open %s: %s; server stderr is not logged to a file", path,
              strerror(errno));
  }
}

static void file_write(stderr_log *l, const char *data, size_t n) {
  while (l->file_fd >= 0 && n > 0) {
    ssize_t w = write(l->file_fd, data, n);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w <= 0) {
      mcph_logf(l->host, MCPH_LOG_WARN, l->source,
                "cannot write the stderr log: %s; stopped writing it",
                w < 0 ? strerror(errno) : "short write");
      close(l->file_fd);
      l->file_fd = -1;
      return;
    }
    data += w;
    n -= (size_t)w;
  }
}

void stderr_log_mark(stderr_log *l, const char *text) {
  if (l->file_fd < 0) {
    return;
  }
  char stamp[40] = "";
  time_t now = time(NULL);
  struct tm tm;
  if (localtime_r(&now, &tm)) {
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S%z", &tm);
  }
  char line[1024];
  int n = snprintf(line, sizeof line, "--- %s %s ---\n", stamp, text);
  if (n > 0) {
    file_write(l, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
  }
}

static void flush_line(stderr_log *l) {
  size_t n = l->line_len;
  if (n > 0 && l->line[n - 1] == '\r') {
    n--;
  }
  l->line[n] = '\0';
  l->line_len = 0;
  l->host->log(l->host, MCPH_LOG_DEBUG, l->source, l->line);
}

static void keep_tail(stderr_log *l, const char *data, size_t n) {
  if (n >= STDERR_TAIL_KEEP) {
    memcpy(l->tail, data + n - STDERR_TAIL_KEEP, STDERR_TAIL_KEEP);
    l->tail_len = STDERR_TAIL_KEEP;
    l->tail_cut = true;
    return;
  }
  if (l->tail_len + n > STDERR_TAIL_KEEP) {
    size_t drop = l->tail_len + n - STDERR_TAIL_KEEP;
    memmove(l->tail, l->tail + drop, l->tail_len - drop);
    l->tail_len -= drop;
    l->tail_cut = true;
  }
  memcpy(l->tail + l->tail_len, data, n);
  l->tail_len += n;
}

void stderr_log_write(stderr_log *l, const char *data, size_t n) {
  file_write(l, data, n);
  keep_tail(l, data, n);
  for (size_t i = 0; i < n; i++) {
    if (data[i] == '\n') {
      flush_line(l);
    } else {
      l->line[l->line_len++] = data[i];
      if (l->line_len == STDERR_LINE_MAX) {
        flush_line(l);
      }
    }
  }
}

/* Copies src[0, n) to dst, dropping ANSI CSI sequences ("ESC [ ... final
 * byte") and control characters other than '\n' and '\t'. Returns the
 * number of bytes written; dst always ends with a NUL. */
static size_t copy_printable(char *dst, size_t size, const char *src,
                             size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n && o + 1 < size; i++) {
    unsigned char c = (unsigned char)src[i];
    if (c == 0x1b) {
      if (i + 1 < n && src[i + 1] == '[') {
        i += 2;
        while (i < n && !((unsigned char)src[i] >= 0x40 &&
                          (unsigned char)src[i] <= 0x7e)) {
          i++;
        }
      }
      continue;
    }
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      continue;
    }
    dst[o++] = (char)c;
  }
  dst[o] = '\0';
  return o;
}

void stderr_log_append_tail(const stderr_log *l, char *buf, size_t size) {
  const char *b = l->tail, *e = l->tail + l->tail_len;
  while (e > b &&
         (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) {
    e--;
  }
  if (e == b) {
    return;
  }
  const char *s = e - ((size_t)(e - b) > STDERR_TAIL_QUOTE ? STDERR_TAIL_QUOTE
                                                           : (size_t)(e - b));
  bool mid_line = s > b ? s[-1] != '\n' : l->tail_cut;
  int lines = 0;
  for (const char *p = e; p > s; p--) {
    if (p[-1] == '\n' && ++lines == STDERR_TAIL_LINES) {
      s = p;
      mid_line = false;
      break;
    }
  }
  if (mid_line) {
    const char *nl = memchr(s, '\n', (size_t)(e - s));
    if (nl) {
      s = nl + 1;
    } else {
      while (s < e && ((unsigned char)*s & 0xc0) == 0x80) {
        s++; /* do not start inside a UTF-8 sequence */
      }
    }
  }

  size_t used = strlen(buf);
  static const char head[] = "\nstderr (last lines):\n";
  if (used + sizeof head >= size) {
    return;
  }
  memcpy(buf + used, head, sizeof head);
  used += sizeof head - 1;
  copy_printable(buf + used, size - used, s, (size_t)(e - s));
}

void stderr_log_close(stderr_log *l) {
  if (l->line_len > 0) {
    flush_line(l);
  }
  if (l->file_fd >= 0) {
    close(l->file_fd);
    l->file_fd = -1;
  }
}
