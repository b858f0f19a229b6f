/* Printing results for people and scripts. Text goes to stdout as the
 * server sent it; on a terminal its controls (and, but with
 * --sanitize=off, its invisible and bidi characters) are shown as visible
 * escapes (text_escape.h), and it is cut at the output limit
 * (size_limits.h) with a note on stderr naming the file that holds the
 * whole text. In a pipe or a file, and with --json, the text is whole
 * unless --max-output-chars or MCPHOST_MAX_OUTPUT_CHARS asks for a cut
 * (then exit 9). Byte for byte: a newline goes between two blocks only
 * where the first lacks one, none after the last but on a terminal.
 * Images, audio and binary blobs go to files in a private
 * directory and a line names the file, so a terminal never receives raw
 * binary. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base64.h"
#include "cli/cli.h"
#include "display_width.h"
#include "json_parse.h"
#include "json_write.h"
#include "redact.h"
#include "text_escape.h"
#include "trusted_fs.h"
#include "util.h"
#include "write_all.h"

int out_json_append(strbuf *out, const cJSON *v, bool pretty) {
  return out_json_append_tty(out, v, pretty, isatty(STDOUT_FILENO));
}

int out_json_append_tty(strbuf *out, const cJSON *v, bool pretty, bool tty) {
  size_t start = out->len;
  if ((pretty ? json_write_pretty(out, v) : json_write(out, v)) != 0) {
    return MCPH_EINVAL;
  }
  /* cJSON escapes C0 controls; on a terminal DEL, C1 and the invisible
   * characters are written as \u escapes too: the same values, and
   * nothing a terminal obeys. In a pipe the bytes stay as they are. */
  const unsigned flags = TEXT_ESCAPE_JSON | TEXT_ESCAPE_INVISIBLE;
  size_t n = out->len - start;
  if (tty && text_needs_escape(out->data + start, n, flags)) {
    char *safe = text_escape(out->data + start, n, flags, &n);
    if (!safe) {
      abort(); /* out of memory, as xmalloc */
    }
    out->len = start;
    sb_add(out, safe, n);
    free(safe);
  }
  return 0;
}

static bool stdout_write(void *ud, const char *data, size_t len) {
  (void)ud;
  return fwrite(data, 1, len, stdout) == len;
}

static void write_json(const cJSON *v, bool pretty) {
  strbuf b;
  sb_init(&b);
  if (!isatty(STDOUT_FILENO)) {
    /* Out as it is written: a result of megabytes is not held twice. A
     * failed write shows in stdout's error flag (cli_check_output). */
    const json_sink sink = {.write = stdout_write};
    if (json_write_to(&b, v, pretty, &sink) != MCPH_EINVAL) {
      sb_addc(&b, '\n');
      fwrite(b.data, 1, b.len, stdout);
    }
    sb_free(&b);
    return;
  }
  if (out_json_append(&b, v, pretty) == 0) {
    sb_addc(&b, '\n');
    fwrite(b.data, 1, b.len, stdout);
  }
  sb_free(&b);
}

size_t out_width(const char *s) {
  return display_width(s, strlen(s));
}

void out_pad(const char *s, size_t width) {
  size_t n = out_width(s);
  fputs(s, stdout);
  for (; n < width; n++) {
    fputc(' ', stdout);
  }
}

void out_json(const cJSON *v) {
  write_json(v, true);
}

void out_json_line(const cJSON *v) {
  write_json(v, false);
}

const char *cli_esc(cli *c, const char *s) {
  /* Text that no mode escapes (the strictest flags find nothing) is
   * shown as it is, without a copy: most names and descriptions. */
  size_t n = s ? strlen(s) : 0;
  if (!text_needs_escape(s ? s : "", n,
                         TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE)) {
    return s ? s : "";
  }
  char **slot = &c->esc_ring[c->esc_next++ % CLI_ESC_KEEP];
  mcphost_free(*slot);
  *slot = NULL;
  if (mcphost_display_text(s, n, (int)cli_option_value(c, "sanitize"),
                           MCPHOST_DISPLAY_NEWLINES, slot, NULL,
                           NULL) != MCPHOST_OK) {
    abort(); /* out of memory, as xmalloc */
  }
  return *slot;
}

void cli_esc_free(cli *c) {
  for (size_t i = 0; i < CLI_ESC_KEEP; i++) {
    mcphost_free(c->esc_ring[i]);
    c->esc_ring[i] = NULL;
  }
}

/* Writes text a server sent to stdout: as sent into a pipe or a file, so
 * a read -> edit -> write round trip keeps every byte (U+0000 too: the
 * string holds it as C0 80, json_parse.h); escaped on a terminal. */
static void write_text(cli *c, const char *text, size_t n) {
  if (!isatty(STDOUT_FILENO)) {
    errno = 0;
    if (!json_nul_fwrite(stdout, text, n)) {
      cli_output_failed(c, errno); /* said at exit */
    }
    return;
  }
  size_t len;
  char *safe = NULL;
  if (mcphost_display_text(text, n, (int)cli_option_value(c, "sanitize"), 0,
                           &safe, &len, NULL) != MCPHOST_OK) {
    abort();
  }
  fwrite(safe, 1, len, stdout);
  mcphost_free(safe);
}

size_t cli_output_limit(const cli *c) {
  if (c->lim.output_forced) {
    return c->lim.output_chars;
  }
  return !c->json && isatty(STDOUT_FILENO) ? c->lim.output_chars : 0;
}

int cli_output_rc(const cli *c, int rc) {
  return rc == EXIT_OK && c->output_cut ? EXIT_TRUNCATED : rc;
}

static const char *ext_for(const char *mime) {
  static const struct {
    const char *mime, *ext;
  } map[] = {{"image/png", "png"},       {"image/jpeg", "jpg"},
             {"image/gif", "gif"},       {"image/webp", "webp"},
             {"image/svg+xml", "svg"},   {"image/bmp", "bmp"},
             {"audio/wav", "wav"},       {"audio/x-wav", "wav"},
             {"audio/mpeg", "mp3"},      {"audio/ogg", "ogg"},
             {"audio/flac", "flac"},     {"audio/webm", "webm"},
             {"application/pdf", "pdf"}, {"application/json", "json"},
             {"application/zip", "zip"}, {"application/gzip", "gz"},
             {"text/plain", "txt"},      {"text/html", "html"},
             {"text/csv", "csv"},        {"text/markdown", "md"}};
  if (mime)
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
      if (strncmp(mime, map[i].mime, strlen(map[i].mime)) == 0)
        return map[i].ext;
  return "bin";
}

/* The directory results are saved in, opened and checked (trusted_fs.h):
 * --output-dir, created 0700 if missing; else a private directory,
 * $TMPDIR/mcphost-<uid> (/tmp when TMPDIR is unset or relative) or, when
 * that one is refused, $XDG_RUNTIME_DIR/mcphost. Returns its fd and path
 * (*dir, free it), or -1 with the reason. */
static int open_output_dir(cli *c, char **dir, char *why, size_t why_len) {
  if (c->output_dir) {
    char *abs = c->output_dir[0] == '/'
                    ? xstrdup(c->output_dir)
                    : xasprintf("%s/%s", mcphost_path(c->api, MCPHOST_PATH_CWD),
                                c->output_dir);
    int fd = trusted_fs_open_dir(abs, TRUSTED_FS_CREATE, why, why_len);
    if (fd < 0) {
      free(abs);
      return -1;
    }
    *dir = abs;
    return fd;
  }
  const char *tmp = getenv("TMPDIR");
  const char *run = getenv("XDG_RUNTIME_DIR");
  char *cand[2] = {xasprintf("%s/mcphost-%u",
                             tmp && tmp[0] == '/' ? tmp : "/tmp",
                             (unsigned)geteuid()),
                   run && run[0] == '/' ? xasprintf("%s/mcphost", run) : NULL};
  char first[512] = "";
  for (int i = 0; i < 2 && cand[i]; i++) {
    int fd = trusted_fs_open_dir(
        cand[i], TRUSTED_FS_CREATE | TRUSTED_FS_PRIVATE, why, why_len);
    if (fd >= 0) {
      *dir = cand[i];
      free(cand[1 - i]);
      return fd;
    }
    if (i == 0) {
      snprintf(first, sizeof first, "%s", why);
    }
    free(cand[i]);
    cand[i] = NULL;
  }
  free(cand[1]);
  if (first[0]) {
    char second[512];
    snprintf(second, sizeof second, "%s", why);
    snprintf(why, why_len, "%s%s%s; give --output-dir DIR", first,
             strcmp(first, second) ? "; " : "",
             strcmp(first, second) ? second : "");
  }
  return -1;
}

int out_check_dir(cli *c, char *why, size_t why_len) {
  char *dir;
  int fd = open_output_dir(c, &dir, why, why_len);
  if (fd < 0) {
    return -1;
  }
  close(fd);
  free(dir);
  return 0;
}

char *out_save_blob(cli *c, const unsigned char *data, size_t len,
                    const char *mime, char *why, size_t why_len) {
  char *dir;
  int dfd = open_output_dir(c, &dir, why, why_len);
  if (dfd < 0) {
    c->save_failed = true;
    return NULL;
  }
  unsigned rnd = 0;
  if (getrandom(&rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
    rnd = (unsigned)getpid() ^ (unsigned)time(NULL);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  unsigned long long ms = (unsigned long long)ts.tv_sec * 1000ull +
                          (unsigned long long)ts.tv_nsec / 1000000ull;
  char *name = xasprintf("mcp-resource-%llu-%u-%08x.%s", ms, c->files_written++,
                         rnd, ext_for(mime));
  char *path = xasprintf("%s/%s", dir, name);
  int fd = trusted_fs_open_file(dfd, dir, name, O_WRONLY | O_CREAT | O_EXCL,
                                0600, why, why_len);
  free(name);
  free(dir);
  if (fd < 0) {
    close(dfd);
    free(path);
    c->save_failed = true;
    return NULL;
  }
  if (write_all(fd, data, len) < 0) {
    snprintf(why, why_len, "cannot write %s: %s", path, strerror(errno));
    close(fd);
    unlinkat(dfd, strrchr(path, '/') + 1, 0);
    close(dfd);
    free(path);
    c->save_failed = true;
    return NULL;
  }
  if (close(fd) != 0) {
    snprintf(why, why_len, "cannot write %s: %s", path, strerror(errno));
    unlinkat(dfd, strrchr(path, '/') + 1, 0);
    close(dfd);
    free(path);
    c->save_failed = true;
    return NULL;
  }
  close(dfd);
  return path;
}

/* What is left of the output limit for one result: `limited` false when
 * there is none. */
typedef struct budget {
  bool limited;
  size_t left; /* characters */
} budget;

static budget budget_of(const cli *c) {
  size_t lim = cli_output_limit(c);
  return (budget){.limited = lim > 0, .left = lim};
}

/* The length of `text` (n bytes) to keep within the budget, taken from
 * it; when that is less than n, the whole text is saved to a file and a
 * note on stderr says how much was cut and where the whole text is, so
 * nothing is lost and the data itself carries no note. */
static size_t take_budget(cli *c, budget *b, const char *text, size_t n) {
  if (!b->limited) {
    return n;
  }
  size_t total = n <= b->left ? 0 : utf8_count(text, n);
  if (total <= b->left) {
    b->left -= total ? total : utf8_count(text, n);
    return n;
  }
  size_t cut = utf8_offset(text, n, b->left);
  char why[512];
  /* The file holds the bytes, U+0000 included (json_parse.h). */
  char *bytes = xmalloc(n ? n : 1);
  size_t nb = json_nul_restore(bytes, text, n);
  char *path = out_save_blob(c, (const unsigned char *)bytes, nb, "text/plain",
                             why, sizeof why);
  free(bytes);
  fflush(stdout); /* the note follows the text it is about */
  if (path) {
    fprintf(stderr,
            "mcphost: output truncated: %zu of %zu characters cut; the full "
            "text is saved to %s\n",
            total - b->left, total, path);
  } else {
    fprintf(stderr,
            "mcphost: output truncated: %zu of %zu characters cut; the full "
            "text could not be saved: %s\n",
            total - b->left, total, why);
  }
  b->left = 0;
  c->output_cut |= c->lim.output_forced;
  free(path);
  return cut;
}

/* Text content is written as sent: a newline goes between two blocks
 * only when the first does not end with one, and none after the last,
 * except on a terminal (for the prompt). c->open_line: the last text
 * written did not end with a newline. */
static void close_line(cli *c) {
  if (c->open_line) {
    fputc('\n', stdout);
    c->open_line = false;
  }
}

/* At the end of a result: a terminal gets the missing final newline. */
static void end_result(cli *c) {
  if (isatty(STDOUT_FILENO)) {
    close_line(c);
  }
}

/* Prints a text result within the budget. */
static void print_text(cli *c, const char *text, budget *b) {
  size_t n = strlen(text), keep = take_budget(c, b, text, n);
  write_text(c, text, keep);
  c->open_line = keep > 0 && text[keep - 1] != '\n';
}

/* Errors stdio does not keep: the first errno a write to stdout gave. */
void cli_output_failed(cli *c, int err) {
  if (!c->output_errno) {
    c->output_errno = err ? err : EIO;
  }
}

int cli_check_output(cli *c, int rc) {
  errno = 0;
  bool failed = fflush(stdout) != 0;
  int err = failed ? errno : 0;
  if (!failed && ferror(stdout)) {
    failed = true; /* an earlier write failed; its errno is gone */
  }
  if (!failed && !c->output_errno) {
    return rc;
  }
  if (c->output_errno) {
    err = c->output_errno; /* the first failure, not a later one */
  } else if (!err) {
    err = EIO;
  }
  if (err == EPIPE) {
    return 128 + SIGPIPE; /* the reader went away: quietly */
  }
  fprintf(stderr, "mcphost: cannot write the output: %s\n", strerror(err));
  if (rc == EXIT_OK || rc == EXIT_TOOL_ERROR || rc == EXIT_TRUNCATED) {
    return EXIT_OUTPUT;
  }
  return rc;
}

void out_role(cli *c, const char *role) {
  close_line(c);
  printf("[%s]\n", role ? cli_esc(c, role) : "?");
}

/* The server whose result is printed: call, read and prompt use one. */
static const char *result_server(cli *c) {
  for (size_t i = 0; i < mcphost_server_count(c->api); i++) {
    if (cli_server_state(c, i).used) {
      return mcphost_server_name(c->api, i);
    }
  }
  return "?";
}

/* Decodes base64 `b64` and saves it; prints a line naming the file. */
static void save_and_say(cli *c, const char *what, const char *b64,
                         const char *mime) {
  size_t len;
  unsigned char *data = b64 ? base64_decode(b64, &len) : NULL;
  if (!data) {
    printf("[%s%s%s: invalid base64 data, not saved]\n", what, mime ? " " : "",
           mime ? cli_esc(c, mime) : "");
    /* The server broke MCP, and a result is lost: never exit 0. */
    const char *server = result_server(c);
    cli_error(c, server,
              "server \"%s\" sent %s %s with invalid base64 "
              "data; it was not saved",
              cli_esc(c, server), what[0] == 'i' || what[0] == 'a' ? "an" : "a",
              what);
    c->bad_content = true;
    return;
  }
  char why[512];
  char *path = out_save_blob(c, data, len, mime, why, sizeof why);
  const char *m = cli_esc(c, mime ? mime : "application/octet-stream");
  if (path)
    printf("[%s %s, %zu bytes, saved to %s]\n", what, m, len, path);
  else
    printf("[%s %s, %zu bytes, not saved: %s]\n", what, m, len, why);
  free(path);
  free(data);
}

static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static void out_one_resource(cli *c, const cJSON *r, budget *left) {
  close_line(c);
  const char *text = str_of(r, "text");
  const char *blob = str_of(r, "blob");
  if (text) {
    print_text(c, text, left);
  } else if (blob) {
    save_and_say(c, "resource", blob, str_of(r, "mimeType"));
  } else {
    printf("[resource %s: no content]\n",
           cli_esc(c, str_of(r, "uri") ? str_of(r, "uri") : "?"));
  }
}

static void out_block(cli *c, const cJSON *b, budget *left) {
  const char *type = str_of(b, "type");
  close_line(c);
  if (!type) {
    out_json(b);
    return;
  }
  if (strcmp(type, "text") == 0) {
    print_text(c, str_of(b, "text") ? str_of(b, "text") : "", left);
  } else if (strcmp(type, "image") == 0 || strcmp(type, "audio") == 0) {
    save_and_say(c, type, str_of(b, "data"), str_of(b, "mimeType"));
  } else if (strcmp(type, "resource") == 0) {
    out_one_resource(c, cJSON_GetObjectItemCaseSensitive(b, "resource"), left);
  } else if (strcmp(type, "resource_link") == 0) {
    const char *name = str_of(b, "name");
    printf("[resource link: %s%s%s]\n",
           cli_esc(c, str_of(b, "uri") ? str_of(b, "uri") : "?"),
           name ? " " : "", name ? cli_esc(c, name) : "");
  } else {
    out_json(b);
  }
}

/* The limit holds for one result: its text blocks share it. */
void out_content(cli *c, const cJSON *content) {
  budget left = budget_of(c);
  if (cJSON_IsObject(content)) {
    out_block(c, content, &left);
  } else {
    const cJSON *b;
    cJSON_ArrayForEach(b, content) {
      out_block(c, b, &left);
    }
  }
  end_result(c);
}

void out_resource_contents(cli *c, const cJSON *contents) {
  budget left = budget_of(c);
  const cJSON *r;
  cJSON_ArrayForEach(r, contents) {
    out_one_resource(c, r, &left);
  }
  end_result(c);
}

/* Cuts the "text" member of `o` (a text block or resource contents) to
 * the budget. */
static void cut_text_member(cli *c, cJSON *o, budget *b) {
  cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "text");
  if (!cJSON_IsString(t) || !t->valuestring) {
    return;
  }
  size_t n = strlen(t->valuestring);
  size_t keep = take_budget(c, b, t->valuestring, n);
  if (keep < n) {
    t->valuestring[keep] = '\0'; /* shorter: cJSON frees it the same */
  }
}

static void cut_blocks(cli *c, cJSON *blocks, budget *b) {
  cJSON *blk;
  if (cJSON_IsObject(blocks)) {
    cut_text_member(c, blocks, b);
    cut_text_member(c, cJSON_GetObjectItemCaseSensitive(blocks, "resource"), b);
    return;
  }
  cJSON_ArrayForEach(blk, blocks) {
    cut_blocks(c, blk, b);
  }
}

void out_cut_result(cli *c, cJSON *result) {
  budget left = budget_of(c);
  if (!left.limited) {
    return;
  }
  cut_blocks(c, cJSON_GetObjectItemCaseSensitive(result, "content"), &left);
  cut_blocks(c, cJSON_GetObjectItemCaseSensitive(result, "contents"), &left);
  cJSON *m;
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(result, "messages")) {
    cut_blocks(c, cJSON_GetObjectItemCaseSensitive(m, "content"), &left);
  }
}

void out_progress(cli *c, const cJSON *params) {
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(params, "progress");
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(params, "total");
  const char *m =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "message"));
  if (!cJSON_IsNumber(p)) {
    return;
  }
  const char *msg = m ? cli_esc(c, m) : NULL;
  /* The numbers as the server wrote them (json_parse.h), not as %g
   * rounds them (1234567 is not 1.23457e+06). */
  char *ps = json_print(p), *ts = cJSON_IsNumber(t) ? json_print(t) : NULL;
  strbuf line;
  sb_init(&line);
  sb_printf(&line, "progress: %s%s%s%s%s", ps, ts ? "/" : "", ts ? ts : "",
            msg ? " " : "", msg ? msg : "");
  free(ps);
  free(ts);
  /* On a terminal one line, updated in place; in a pipe one per update. */
  mcphost_status_line(c->api, sb_str(&line));
  sb_free(&line);
}

void out_error(const char *fmt, ...) {
  strbuf b;
  sb_init(&b);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  char *safe = redact(sb_str(&b));
  /* Controls, invisible and bidi characters shown, never obeyed; lines
   * kept, as an error may quote several (a server's last stderr lines). */
  char *clean = text_escape(safe, strlen(safe), TEXT_ESCAPE_INVISIBLE, NULL);
  fprintf(stderr, "mcphost: %s\n", clean ? clean : "");
  free(clean);
  free(safe);
  sb_free(&b);
}
