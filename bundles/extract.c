#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "extract.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "entry_names.h"
#include "source.h"

void extract_limits_default(extract_limits *l) {
  l->max_entries = 50000;
  l->max_file_bytes = 512ull << 20;
  l->max_total_bytes = 1ull << 30;
  l->max_ratio = 100;
  l->ratio_floor = 16ull << 20;
  l->max_path = 1024;
  l->max_depth = 32;
}

/* Entry names are UTF-8 (the ZIP flag, or what the official packer
 * writes); libarchive converts them to the thread's locale, which fails
 * for any non-ASCII name in the C locale. The archive is read with a
 * UTF-8 LC_CTYPE for this thread only (uselocale), restored after. */
typedef struct utf8_locale {
  locale_t utf8, saved;
} utf8_locale;

static void utf8_begin(utf8_locale *l) {
  l->utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
  l->saved = l->utf8 ? uselocale(l->utf8) : (locale_t)0;
}

static void utf8_end(utf8_locale *l) {
  if (l->utf8) {
    uselocale(l->saved);
    freelocale(l->utf8);
  }
}

/* libarchive's callbacks over a bundle source: a block at a time. */
static la_ssize_t src_read(struct archive *a, void *ud, const void **buf) {
  bsrc *s = ud;
  size_t avail;
  const unsigned char *p = bsrc_at(s, s->pos, &avail);
  if (!p) {
    archive_set_error(a, EIO, "%s", s->err);
    return ARCHIVE_FATAL;
  }
  *buf = p;
  s->pos += avail;
  return (la_ssize_t)avail;
}

static la_int64_t src_seek(struct archive *a, void *ud, la_int64_t off,
                           int whence) {
  bsrc *s = ud;
  int64_t base = whence == SEEK_SET   ? 0
                 : whence == SEEK_CUR ? (int64_t)s->pos
                                      : (int64_t)s->len;
  if ((off < 0 && -off > base) || (off > 0 && off > INT64_MAX - base)) {
    archive_set_error(a, EINVAL, "a seek outside the archive");
    return ARCHIVE_FATAL;
  }
  s->pos = (uint64_t)(base + off);
  return (la_int64_t)s->pos;
}

static la_int64_t src_skip(struct archive *a, void *ud, la_int64_t n) {
  (void)a;
  bsrc *s = ud;
  uint64_t left = s->pos < s->len ? s->len - s->pos : 0;
  uint64_t k = n < 0 ? 0 : (uint64_t)n < left ? (uint64_t)n : left;
  s->pos += k;
  return (la_int64_t)k;
}

/* Why libarchive could not go on: the source's own reason when reading
 * it failed (libarchive says "Truncated ZIP file body" instead). */
static const char *why_unread(struct archive *a, const bsrc *s) {
  return s->err[0] ? s->err : archive_error_string(a);
}

static struct archive *open_zip(bsrc *src, char *err, size_t n) {
  struct archive *a = archive_read_new();
  if (!a) {
    snprintf(err, n, "out of memory");
    return NULL;
  }
  /* The seekable reader only: it reads the central directory (modes,
   * sizes), and no other format can be smuggled in. */
  archive_read_support_format_zip_seekable(a);
  src->pos = 0;
  src->err[0] = '\0';
  archive_read_set_read_callback(a, src_read);
  archive_read_set_seek_callback(a, src_seek);
  archive_read_set_skip_callback(a, src_skip);
  archive_read_set_callback_data(a, src);
  if (archive_read_open1(a) != ARCHIVE_OK) {
    snprintf(err, n, "not a ZIP archive (%s)", why_unread(a, src));
    archive_read_free(a);
    return NULL;
  }
  return a;
}

/* The entry's name as UTF-8, or its raw name. */
static const char *entry_name(struct archive_entry *e) {
  const char *s = archive_entry_pathname_utf8(e);
  return s ? s : archive_entry_pathname(e);
}

char *zip_read_manifest(bsrc *zip, size_t max, size_t *out_len, char *err,
                        size_t n) {
  utf8_locale loc;
  utf8_begin(&loc);
  struct archive *a = open_zip(zip, err, n);
  if (!a) {
    utf8_end(&loc);
    return NULL;
  }
  char *text = NULL;
  struct archive_entry *e;
  int r;
  while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
         r == ARCHIVE_WARN) {
    const char *name = entry_name(e);
    if (!name || strcmp(name, "manifest.json") != 0) {
      continue;
    }
    if (archive_entry_is_encrypted(e)) {
      snprintf(err, n, "manifest.json is encrypted");
      goto out;
    }
    size_t cap = 4096, got = 0;
    text = malloc(cap + 1);
    if (!text) {
      abort();
    }
    for (;;) {
      if (got == cap) {
        if (cap >= max) {
          snprintf(err, n, "manifest.json is larger than %zu bytes", max);
          free(text);
          text = NULL;
          goto out;
        }
        cap = cap * 2 > max ? max : cap * 2;
        char *grown = realloc(text, cap + 1);
        if (!grown) {
          abort();
        }
        text = grown;
      }
      la_ssize_t got_now = archive_read_data(a, text + got, cap - got);
      if (got_now < 0) {
        snprintf(err, n, "manifest.json cannot be read: %s",
                 why_unread(a, zip));
        free(text);
        text = NULL;
        goto out;
      }
      if (got_now == 0) {
        break;
      }
      got += (size_t)got_now;
    }
    text[got] = '\0';
    *out_len = got;
    goto out;
  }
  if (r == ARCHIVE_EOF) {
    snprintf(err, n, "no manifest.json at the root of the archive");
  } else {
    snprintf(err, n, "%s", why_unread(a, zip));
  }
out:
  archive_read_free(a);
  utf8_end(&loc);
  return text;
}

static const char *type_rule(struct archive_entry *e) {
  if (archive_entry_hardlink(e)) {
    return "a hard link";
  }
  if (archive_entry_symlink(e) || archive_entry_filetype(e) == AE_IFLNK) {
    return "a symbolic link";
  }
  switch (archive_entry_filetype(e)) {
  case AE_IFREG:
  case AE_IFDIR: return NULL;
  case AE_IFCHR:
  case AE_IFBLK: return "a device";
  case AE_IFIFO: return "a FIFO";
  case AE_IFSOCK: return "a socket";
  default: return "not a regular file or directory";
  }
}

/* ---- writing ---- */

/* Opens (creating) the directories of `path` up to its last component
 * (all of them when `all`), relative to `root`. Returns a directory fd
 * and the last component in *leaf, or -1. */
static int open_parent(int root, const char *path, bool all,
                       const char **leaf) {
  int cur = dup(root);
  const char *p = path;
  while (cur >= 0) {
    size_t c = strcspn(p, "/");
    if (c == 0) {
      break;
    }
    if (p[c] != '/' && !all) {
      break;
    }
    char comp[256];
    memcpy(comp, p, c);
    comp[c] = '\0';
    if (mkdirat(cur, comp, 0755) < 0 && errno != EEXIST) {
      close(cur);
      return -1;
    }
    int next =
        openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(cur);
    cur = next;
    p += c;
    if (*p == '/') {
      p++;
    }
  }
  *leaf = p;
  return cur;
}

typedef struct totals {
  uint64_t written;
  size_t files;
} totals;

static int fail(char *err, size_t n, const char *name, const char *rule) {
  snprintf(err, n, "entry \"%s\": %s", name, rule);
  return -1;
}

static int write_file(struct archive *a, struct archive_entry *e, int root,
                      const char *name, const bsrc *zip,
                      const extract_limits *lim, totals *t, char *err,
                      size_t n) {
  const char *leaf;
  int dfd = open_parent(root, name, false, &leaf);
  if (dfd < 0) {
    char why[128];
    snprintf(why, sizeof why, "cannot create its directory (%s)",
             strerror(errno));
    return fail(err, n, name, why);
  }
  mode_t mode = (archive_entry_perm(e) & 0111) ? 0755 : 0644;
  int fd = openat(dfd, leaf,
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  close(dfd);
  if (fd < 0) {
    char why[128];
    snprintf(why, sizeof why, "cannot create it (%s)", strerror(errno));
    return fail(err, n, name, why);
  }
  int rc = -1;
  uint64_t mine = 0;
  for (;;) {
    const void *buf;
    size_t size;
    la_int64_t off;
    int r = archive_read_data_block(a, &buf, &size, &off);
    if (r == ARCHIVE_EOF) {
      break;
    }
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      char why[300];
      snprintf(why, sizeof why, "its data cannot be read (%s)",
               why_unread(a, zip));
      fail(err, n, name, why);
      goto out;
    }
    (void)off; /* ZIP data comes in order, without holes */
    mine += size;
    t->written += size;
    if (mine > lim->max_file_bytes) {
      char why[128];
      snprintf(why, sizeof why, "larger than the limit of %llu bytes per file",
               (unsigned long long)lim->max_file_bytes);
      fail(err, n, name, why);
      goto out;
    }
    if (t->written > lim->max_total_bytes) {
      char why[128];
      snprintf(why, sizeof why,
               "the bundle is larger than the limit of %llu bytes",
               (unsigned long long)lim->max_total_bytes);
      fail(err, n, name, why);
      goto out;
    }
    if (t->written > lim->ratio_floor &&
        t->written / lim->max_ratio > zip->len) {
      char why[160];
      snprintf(why, sizeof why,
               "the bundle expands to more than %llu times its size (a "
               "compression bomb)",
               (unsigned long long)lim->max_ratio);
      fail(err, n, name, why);
      goto out;
    }
    const char *p = buf;
    while (size > 0) {
      ssize_t w = write(fd, p, size);
      if (w < 0 && errno == EINTR) {
        continue;
      }
      if (w < 0) {
        char why[128];
        snprintf(why, sizeof why, "cannot write it (%s)", strerror(errno));
        fail(err, n, name, why);
        goto out;
      }
      p += w;
      size -= (size_t)w;
    }
  }
  if (archive_entry_size_is_set(e) && (uint64_t)archive_entry_size(e) != mine) {
    char why[160];
    snprintf(why, sizeof why, "its data is %llu bytes, its header says %lld",
             (unsigned long long)mine, (long long)archive_entry_size(e));
    fail(err, n, name, why);
    goto out;
  }
  if (fchmod(fd, mode) < 0) {
    fail(err, n, name, "cannot set its mode");
    goto out;
  }
  t->files++;
  rc = 0;
out:
  if (close(fd) < 0 && rc == 0) {
    rc = fail(err, n, name, "cannot write it");
  }
  return rc;
}

int zip_extract(bsrc *zip, int dirfd, const extract_limits *lim, size_t *files,
                char *err, size_t n) {
  utf8_locale loc;
  utf8_begin(&loc);
  struct archive *a = open_zip(zip, err, n);
  if (!a) {
    utf8_end(&loc);
    return -1;
  }
  entry_names seen = {0};
  totals t = {0};
  size_t entries = 0;
  int rc = -1;
  struct archive_entry *e;
  int r;
  while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
         r == ARCHIVE_WARN) {
    const char *name = entry_name(e);
    if (!name) {
      snprintf(err, n, "an entry's name cannot be read");
      goto out;
    }
    if (++entries > lim->max_entries) {
      char why[128];
      snprintf(why, sizeof why, "more than %zu entries in the bundle",
               lim->max_entries);
      fail(err, n, name, why);
      goto out;
    }
    const char *why = type_rule(e);
    bool dir = archive_entry_filetype(e) == AE_IFDIR;
    if (!why && archive_entry_is_encrypted(e)) {
      why = "an encrypted entry";
    }
    if (!why) {
      why = entry_name_rule(name, dir, lim);
    }
    if (why) {
      fail(err, n, name, why);
      goto out;
    }
    char key[1100];
    snprintf(key, sizeof key, "%s", name);
    size_t kl = strlen(key);
    if (kl > 1 && key[kl - 1] == '/') {
      key[kl - 1] = '\0';
    }
    if (!entry_names_add(&seen, key)) {
      fail(err, n, name,
           "a duplicate name (the same as an earlier entry, also when "
           "upper and lower case are taken as one)");
      goto out;
    }
    if (dir) {
      const char *leaf;
      int d = open_parent(dirfd, key, true, &leaf);
      if (d < 0) {
        fail(err, n, name, "cannot create the directory");
        goto out;
      }
      close(d);
      continue;
    }
    if (write_file(a, e, dirfd, name, zip, lim, &t, err, n) < 0) {
      goto out;
    }
  }
  if (r != ARCHIVE_EOF) {
    snprintf(err, n, "the archive is damaged (%s)", why_unread(a, zip));
    goto out;
  }
  if (archive_read_has_encrypted_entries(a) > 0) {
    snprintf(err, n, "the archive has encrypted entries");
    goto out;
  }
  if (files) {
    *files = t.files;
  }
  rc = 0;
out:
  entry_names_free(&seen);
  archive_read_free(a);
  utf8_end(&loc);
  return rc;
}
