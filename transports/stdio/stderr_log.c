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

#include "text_escape.h"
#include "trusted_fs.h"
#include "utc_stamp.h"
#include "write_all.h"

/* A log file above this size is moved to "<name>.stderr.log.1" (replacing
 * the previous one) when the server next starts, so a chatty server cannot
 * fill the disk. */
#define STDERR_FILE_ROTATE_BYTES ((off_t)8 << 20)

/* Appending into a caller's fixed buffer; what does not fit is dropped. */
typedef struct strbuf_lite {
  char *data;
  size_t len, cap; /* cap counts the NUL */
} strbuf_lite;

static void lite_add(strbuf_lite *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    n = b->cap > b->len + 1 ? b->cap - b->len - 1 : 0;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
}

void stderr_log_init(stderr_log *l, const mcph_host *host,
                     const char *server_name) {
  memset(l, 0, sizeof *l);
  l->host = host;
  l->source = server_name;
  l->file_fd = -1;
}

void stderr_log_open(stderr_log *l) {
  const char *dir = l->host->get_path(l->host, MCPH_PATH_LOGS);
  if (!dir || !*dir) {
    return; /* no home: no log files */
  }
  char name[128], old[160];
  /* On the heap: under the server's start, with the walk to the directory
   * below it, 4 KiB more of stack here made it the deepest of a cold
   * call (one page more resident). */
  size_t why_len = PATH_MAX + 128;
  char *why = malloc(why_len);
  if (!why) {
    mcph_logf(l->host, MCPH_LOG_WARN, l->source,
              "server stderr is not logged to a file: out of memory");
    return;
  }
  trusted_fs_file_name(l->source ? l->source : "", name, sizeof name - 16);
  snprintf(old, sizeof old, "%s.stderr.log.1", name);
  strcat(name, ".stderr.log");
  /* The directory is checked (ours or root's, nobody else may write it)
   * and the file opened in it without following a link, so another user
   * cannot point the log at a file of ours. */
  int dfd = trusted_fs_open_dir(dir, TRUSTED_FS_CREATE, why, why_len);
  if (dfd < 0) {
    mcph_logf(l->host, MCPH_LOG_WARN, l->source,
              "server stderr is not logged to a file: %s", why);
    free(why);
    return;
  }
  struct stat st;
  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISREG(st.st_mode) && st.st_size > STDERR_FILE_ROTATE_BYTES) {
    renameat(dfd, name, dfd, old);
  }
  l->file_fd = trusted_fs_open_file(
      dfd, dir, name, O_WRONLY | O_CREAT | O_APPEND, 0600, why, why_len);
  close(dfd);
  if (l->file_fd < 0) {
    mcph_logf(l->host, MCPH_LOG_WARN, l->source,
              "server stderr is not logged to a file: %s", why);
  }
  free(why);
}

static void file_write(stderr_log *l, const char *data, size_t n) {
  if (l->file_fd >= 0 && write_all(l->file_fd, data, n) < 0) {
    mcph_logf(l->host, MCPH_LOG_WARN, l->source,
              "cannot write the stderr log: %s; stopped writing it",
              strerror(errno));
    close(l->file_fd);
    l->file_fd = -1;
  }
}

/* How many bytes at the end of data[0, n) to hold back for the next
 * write: an unfinished UTF-8 sequence, or a CR that may start a CRLF. */
static size_t held_back(const char *data, size_t n) {
  if (n > 0 && data[n - 1] == '\r') {
    return 1;
  }
  for (size_t k = 1; k <= 3 && k <= n; k++) {
    unsigned char c = (unsigned char)data[n - k];
    if ((c & 0xc0) == 0x80) {
      continue; /* a continuation byte: look further back */
    }
    size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > k ? k : 0;
  }
  return 0;
}

/* Writes data to the file as the server's lines, shown: newlines and
 * tabs kept, a CR before a newline dropped, every other control and
 * invalid byte as a visible escape (text_escape.h). `final`: nothing
 * more comes, so nothing is held back. */
static void file_write_shown(stderr_log *l, const char *data, size_t n,
                             bool final) {
  if (l->file_fd < 0) {
    return;
  }
  size_t len = l->held_len + n;
  char *buf = malloc(len ? len : 1);
  if (!buf) {
    return;
  }
  memcpy(buf, l->held, l->held_len);
  memcpy(buf + l->held_len, data, n);
  size_t keep = final ? 0 : held_back(buf, len);
  memcpy(l->held, buf + len - keep, keep);
  l->held_len = keep;
  len -= keep;
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    if (!(buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n')) {
      buf[o++] = buf[i];
    }
  }
  size_t shown_len;
  char *shown = text_escape(buf, o, 0, &shown_len);
  free(buf);
  if (shown) {
    file_write(l, shown, shown_len);
    free(shown);
  }
}

void stderr_log_mark(stderr_log *l, const char *text) {
  if (l->file_fd < 0) {
    return;
  }
  /* In UTC, as mcphost writes every time (utc_stamp.h). */
  char stamp[UTC_STAMP_SIZE];
  utc_stamp(time(NULL), stamp);
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
  char *shown = text_escape(l->line, n, TEXT_ESCAPE_NEWLINES, NULL);
  l->host->log(l->host, MCPH_LOG_DEBUG, l->source, shown ? shown : "");
  free(shown);
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
  file_write_shown(l, data, n, false);
  if (!l->tail) {
    l->tail = malloc(STDERR_TAIL_KEEP + STDERR_LINE_MAX + 1);
    if (!l->tail) {
      mcph_logf(l->host, MCPH_LOG_WARN, l->source,
                "out of memory keeping what the server wrote to stderr");
      return; /* the file has it */
    }
    l->line = l->tail + STDERR_TAIL_KEEP;
  }
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

static bool str_at(const char *p, const char *e, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}

/* The nearest place at or before `at` in shown text [s, e) that is not
 * inside a UTF-8 sequence or an escape "<U+XXXX>" / "<0xNN>". */
static const char *cut_point(const char *s, const char *e, const char *at) {
  while (at > s && at < e && ((unsigned char)*at & 0xc0) == 0x80) {
    at--;
  }
  for (const char *p = at; p > s && at - p < 10; p--) {
    if (p[-1] == '>') {
      break;
    }
    if (p[-1] == '<' && (str_at(p, e, "U+") || str_at(p, e, "0x"))) {
      return p - 1;
    }
  }
  return at;
}

/* Appends to `out` the lines of the shown (escaped) text esc[0, n) that
 * fit in `budget` bytes, newest first kept: older lines are dropped, and
 * a newest line longer than the budget keeps its start and its end. */
static void quote_lines(strbuf_lite *out, const char *esc, size_t n,
                        size_t budget, bool older_cut) {
  const char *e = esc + n, *s = e;
  int lines = 0;
  while (s > esc && lines < STDERR_TAIL_LINES) {
    const char *p = s - 1;
    while (p > esc && p[-1] != '\n') {
      p--;
    }
    size_t add = (size_t)(s - p);
    if ((size_t)(e - s) + add > budget) {
      if (lines == 0) {
        s = p; /* one line alone: cut in its middle below */
        lines++;
      } else {
        older_cut = true;
      }
      break;
    }
    s = p;
    lines++;
  }
  if (s > esc) {
    older_cut = true;
  }
  if (older_cut) {
    lite_add(out, "...\n", strlen("...\n"));
  }
  size_t len = (size_t)(e - s);
  if (len <= budget) {
    lite_add(out, s, len);
    return;
  }
  size_t head = budget / 3;
  const char *t = e - (budget - head - strlen(" ... "));
  head = (size_t)(cut_point(s, e, s + head) - s);
  t = cut_point(s, e, t);
  lite_add(out, s, head);
  lite_add(out, " ... ", strlen(" ... "));
  lite_add(out, t, (size_t)(e - t));
}

void stderr_log_append_tail(const stderr_log *l, char *buf, size_t size) {
  if (!l->tail) {
    return; /* nothing written */
  }
  const char *b = l->tail, *e = l->tail + l->tail_len;
  while (e > b &&
         (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) {
    e--;
  }
  bool cut = l->tail_cut;
  if (cut) {
    /* The oldest bytes kept may start inside a line or a character. */
    const char *nl = memchr(b, '\n', (size_t)(e - b));
    if (nl && nl + 1 < e) {
      b = nl + 1;
    }
    while (b < e && ((unsigned char)*b & 0xc0) == 0x80) {
      b++;
    }
  }
  if (e == b) {
    return;
  }
  /* CRs of CRLF line ends go; everything else that is not text shows. */
  char raw[STDERR_TAIL_KEEP];
  size_t rn = 0;
  for (const char *p = b; p < e; p++) {
    if (!(*p == '\r' && p + 1 < e && p[1] == '\n')) {
      raw[rn++] = *p;
    }
  }
  size_t esc_len;
  char *esc = text_escape(raw, rn, 0, &esc_len);
  if (!esc) {
    return;
  }
  static const char head[] = "\nstderr (last lines):\n";
  size_t used = strlen(buf);
  if (used + sizeof head + 16 >= size) {
    free(esc);
    return;
  }
  size_t budget = size - used - sizeof head;
  if (budget > STDERR_TAIL_QUOTE) {
    budget = STDERR_TAIL_QUOTE;
  }
  strbuf_lite out = {buf + used + sizeof head - 1, 0,
                     size - used - sizeof head};
  memcpy(buf + used, head, sizeof head);
  quote_lines(&out, esc, esc_len, budget - 8, cut);
  out.data[out.len] = '\0';
  free(esc);
}

void stderr_log_close(stderr_log *l) {
  file_write_shown(l, "", 0, true);
  if (l->line_len > 0) {
    flush_line(l);
  }
  if (l->file_fd >= 0) {
    close(l->file_fd);
    l->file_fd = -1;
  }
}

void stderr_log_free(stderr_log *l) {
  stderr_log_close(l);
  free(l->tail);
  l->tail = l->line = NULL;
  l->tail_len = l->line_len = 0;
}
