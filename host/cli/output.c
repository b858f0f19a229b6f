/* Printing results for people and scripts. Text goes to stdout as is, up
 * to the output limit (size_limits.h): beyond it the text is cut and saved
 * whole to a file named in a note. Images, audio and binary blobs go to
 * files in a private directory and a line names the file, so a terminal
 * never receives raw binary. --json prints results whole. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../base64.h"
#include "../redact.h"
#include "../sanitize.h"
#include "../util.h"
#include "cli.h"
#include "trusted_fs.h"

void out_json(const cJSON *v) {
  char *s = cJSON_Print(v);
  if (s) {
    fputs(s, stdout);
    fputc('\n', stdout);
    cJSON_free(s);
  }
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
    char *abs =
        c->output_dir[0] == '/'
            ? xstrdup(c->output_dir)
            : xasprintf("%s/%s", c->h->paths[MCPH_PATH_CWD], c->output_dir);
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
  unsigned long long ms =
      (unsigned long long)ts.tv_sec * 1000ull + (unsigned long long)ts.tv_nsec / 1000000ull;
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
  size_t off = 0;
  while (off < len) {
    ssize_t n = write(fd, data + off, len - off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      snprintf(why, why_len, "cannot write %s: %s", path, strerror(errno));
      close(fd);
      unlinkat(dfd, strrchr(path, '/') + 1, 0);
      close(dfd);
      free(path);
      c->save_failed = true;
      return NULL;
    }
    off += (size_t)n;
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

/* Prints a text result within what is left of the output limit, *left
 * characters: what is over is cut, and the whole text saved to a file the
 * note names, so nothing is lost. */
static void print_text(cli *c, const char *text, size_t *left) {
  size_t n = strlen(text), total = n <= *left ? 0 : utf8_count(text, n);
  size_t cut = total <= *left ? n : utf8_offset(text, n, *left);
  fwrite(text, 1, cut, stdout);
  if (cut == n) {
    *left -= total ? total : utf8_count(text, n);
    if (n == 0 || text[n - 1] != '\n')
      fputc('\n', stdout);
    return;
  }
  if (cut > 0 && text[cut - 1] != '\n')
    fputc('\n', stdout);
  char why[512];
  char *path = out_save_blob(c, (const unsigned char *)text, n, "text/plain",
                             why, sizeof why);
  printf("[output truncated: %zu of %zu characters cut; ", total - *left,
         total);
  if (path)
    printf("the full text is saved to %s]\n", path);
  else
    printf("the full text could not be saved: %s]\n", why);
  *left = 0;
  free(path);
}

/* Decodes base64 `b64` and saves it; prints a line naming the file. */
static void save_and_say(cli *c, const char *what, const char *b64,
                         const char *mime) {
  size_t len;
  unsigned char *data = b64 ? base64_decode(b64, &len) : NULL;
  if (!data) {
    printf("[%s%s%s: invalid base64 data, not saved]\n", what,
           mime ? " " : "", mime ? mime : "");
    return;
  }
  char why[512];
  char *path = out_save_blob(c, data, len, mime, why, sizeof why);
  if (path)
    printf("[%s %s, %zu bytes, saved to %s]\n", what,
           mime ? mime : "application/octet-stream", len, path);
  else
    printf("[%s %s, %zu bytes, not saved: %s]\n", what,
           mime ? mime : "application/octet-stream", len, why);
  free(path);
  free(data);
}

static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static void out_one_resource(cli *c, const cJSON *r, size_t *left) {
  const char *text = str_of(r, "text");
  const char *blob = str_of(r, "blob");
  if (text)
    print_text(c, text, left);
  else if (blob)
    save_and_say(c, "resource", blob, str_of(r, "mimeType"));
  else
    printf("[resource %s: no content]\n", str_of(r, "uri") ? str_of(r, "uri") : "?");
}

static void out_block(cli *c, const cJSON *b, size_t *left) {
  const char *type = str_of(b, "type");
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
    printf("[resource link: %s%s%s]\n", str_of(b, "uri") ? str_of(b, "uri") : "?",
           name ? " " : "", name ? name : "");
  } else {
    out_json(b);
  }
}

/* The limit holds for one result: its text blocks share it. */
void out_content(cli *c, const cJSON *content) {
  size_t left = c->lim.output_chars;
  if (cJSON_IsObject(content)) {
    out_block(c, content, &left);
    return;
  }
  const cJSON *b;
  cJSON_ArrayForEach(b, content) out_block(c, b, &left);
}

void out_resource_contents(cli *c, const cJSON *contents) {
  size_t left = c->lim.output_chars;
  const cJSON *r;
  cJSON_ArrayForEach(r, contents) out_one_resource(c, r, &left);
}

void out_error(const char *fmt, ...) {
  strbuf b;
  sb_init(&b);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  char *safe = redact(sb_str(&b));
  char *clean = sanitize_text(safe, strlen(safe), NULL);
  fprintf(stderr, "mcphost: %s\n", clean);
  free(clean);
  free(safe);
  sb_free(&b);
}
