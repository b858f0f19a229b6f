#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

static const char *const default_excludes[] = {".DS_Store",
                                               "Thumbs.db",
                                               ".gitignore",
                                               ".git",
                                               ".mcpbignore",
                                               "*.log",
                                               ".env*",
                                               ".npm",
                                               ".npmrc",
                                               ".yarnrc",
                                               ".yarn",
                                               ".eslintrc",
                                               ".editorconfig",
                                               ".prettierrc",
                                               ".prettierignore",
                                               ".eslintignore",
                                               ".nycrc",
                                               ".babelrc",
                                               ".pnp.*",
                                               "node_modules/.cache",
                                               "node_modules/.bin",
                                               "*.map",
                                               ".env.local",
                                               ".env.*.local",
                                               "npm-debug.log*",
                                               "yarn-debug.log*",
                                               "yarn-error.log*",
                                               "package-lock.json",
                                               "yarn.lock",
                                               "*.mcpb",
                                               "*.d.ts",
                                               "*.tsbuildinfo",
                                               "tsconfig.json",
                                               NULL};

typedef struct patterns {
  char **p;
  size_t n;
} patterns;

typedef struct packer {
  struct archive *a;
  patterns ignore;
  char root[PATH_MAX];
  size_t files;
  char *err;
  size_t errn;
} packer;

static void add_pattern(patterns *ps, const char *s) {
  char **grown = realloc(ps->p, (ps->n + 1) * sizeof *grown);
  if (!grown || !(grown[ps->n] = strdup(s))) {
    abort();
  }
  ps->p = grown;
  ps->n++;
}

/* gitignore-like: a pattern without '/' matches a name at any depth, one
 * with '/' (a leading one stripped) the path from the root; a trailing
 * '/' only directories. */
static bool ignored(const patterns *ps, const char *rel, const char *base,
                    bool dir) {
  for (size_t i = 0; i < ps->n; i++) {
    char pat[1024];
    snprintf(pat, sizeof pat, "%s", ps->p[i]);
    size_t len = strlen(pat);
    bool dir_only = len > 1 && pat[len - 1] == '/';
    if (dir_only) {
      pat[--len] = '\0';
      if (!dir) {
        continue;
      }
    }
    const char *pp = pat[0] == '/' ? pat + 1 : pat;
    bool anchored = strchr(pat, '/') != NULL;
    if (anchored ? fnmatch(pp, rel, FNM_PATHNAME) == 0
                 : fnmatch(pp, base, 0) == 0) {
      return true;
    }
  }
  return false;
}

static void load_ignore_file(packer *pk) {
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/.mcpbignore", pk->root);
  FILE *f = fopen(path, "r");
  if (!f) {
    return;
  }
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t')) {
      line[--len] = '\0';
    }
    if (!*line || line[0] == '#' || line[0] == '!') {
      continue;
    }
    add_pattern(&pk->ignore, line);
  }
  fclose(f);
}

static int add_file(packer *pk, const char *abs, const char *rel,
                    const struct stat *st) {
  int fd = open(abs, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(pk->err, pk->errn, "%s: %s", abs, strerror(errno));
    return -1;
  }
  struct archive_entry *e = archive_entry_new();
  archive_entry_set_pathname_utf8(e, rel);
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, (st->st_mode & 0111) ? 0755 : 0644);
  archive_entry_set_size(e, st->st_size);
  archive_entry_set_mtime(e, st->st_mtime, 0);
  int rc = -1;
  if (archive_write_header(pk->a, e) != ARCHIVE_OK) {
    snprintf(pk->err, pk->errn, "%s: %s", rel, archive_error_string(pk->a));
    goto out;
  }
  char buf[65536];
  ssize_t r;
  while ((r = read(fd, buf, sizeof buf)) > 0) {
    if (archive_write_data(pk->a, buf, (size_t)r) != r) {
      snprintf(pk->err, pk->errn, "%s: %s", rel, archive_error_string(pk->a));
      goto out;
    }
  }
  if (r < 0) {
    snprintf(pk->err, pk->errn, "%s: %s", abs, strerror(errno));
    goto out;
  }
  pk->files++;
  rc = 0;
out:
  archive_entry_free(e);
  close(fd);
  return rc;
}

static int walk(packer *pk, const char *rel) {
  char abs[PATH_MAX * 2];
  snprintf(abs, sizeof abs, "%s%s%s", pk->root, *rel ? "/" : "", rel);
  DIR *d = opendir(abs);
  if (!d) {
    snprintf(pk->err, pk->errn, "%s: %s", abs, strerror(errno));
    return -1;
  }
  /* Sorted, so the same directory always packs the same. */
  struct dirent **names = NULL;
  int count = scandir(abs, &names, NULL, alphasort);
  closedir(d);
  int rc = 0;
  for (int i = 0; i < count; i++) {
    const char *base = names[i]->d_name;
    if (rc < 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
      continue;
    }
    char child_rel[PATH_MAX + 256], child_abs[PATH_MAX * 3];
    snprintf(child_rel, sizeof child_rel, "%s%s%s", rel, *rel ? "/" : "", base);
    snprintf(child_abs, sizeof child_abs, "%s/%s", abs, base);
    struct stat st;
    if (stat(child_abs, &st) < 0) {
      snprintf(pk->err, pk->errn, "%s: %s", child_abs, strerror(errno));
      rc = -1;
      continue;
    }
    bool dir = S_ISDIR(st.st_mode);
    if (ignored(&pk->ignore, child_rel, base, dir)) {
      continue;
    }
    struct stat lst;
    if (lstat(child_abs, &lst) == 0 && S_ISLNK(lst.st_mode)) {
      char real[PATH_MAX];
      size_t rl = strlen(pk->root);
      if (!realpath(child_abs, real) || strncmp(real, pk->root, rl) != 0 ||
          real[rl] != '/') {
        snprintf(pk->err, pk->errn,
                 "%s: a symbolic link to outside the directory", child_rel);
        rc = -1;
        continue;
      }
    }
    if (dir) {
      rc = walk(pk, child_rel);
    } else if (S_ISREG(st.st_mode)) {
      rc = add_file(pk, child_abs, child_rel, &st);
    }
  }
  for (int i = 0; i < count; i++) {
    free(names[i]);
  }
  free(names);
  return rc;
}

int pack_dir(const char *dir, const char *out, size_t *files, char *err,
             size_t n) {
  packer pk = {.err = err, .errn = n};
  if (!realpath(dir, pk.root)) {
    snprintf(err, n, "%s: %s", dir, strerror(errno));
    return -1;
  }
  for (size_t i = 0; default_excludes[i]; i++) {
    add_pattern(&pk.ignore, default_excludes[i]);
  }
  load_ignore_file(&pk);
  char tmp[PATH_MAX + 16];
  snprintf(tmp, sizeof tmp, "%s.packing", out);
  /* Never the output itself, when it is written inside DIR. */
  const char *slash = strrchr(tmp, '/');
  add_pattern(&pk.ignore, slash ? slash + 1 : tmp);
  int rc = -1;
  pk.a = archive_write_new();
  archive_write_set_format_zip(pk.a);
  archive_write_zip_set_compression_deflate(pk.a);
  if (archive_write_open_filename(pk.a, tmp) != ARCHIVE_OK) {
    snprintf(err, n, "%s: %s", tmp, archive_error_string(pk.a));
    goto out;
  }
  if (walk(&pk, "") < 0) {
    goto out;
  }
  if (archive_write_close(pk.a) != ARCHIVE_OK) {
    snprintf(err, n, "%s: %s", tmp, archive_error_string(pk.a));
    goto out;
  }
  if (rename(tmp, out) < 0) {
    snprintf(err, n, "%s: %s", out, strerror(errno));
    goto out;
  }
  *files = pk.files;
  rc = 0;
out:
  archive_write_free(pk.a);
  if (rc < 0) {
    remove(tmp);
  }
  for (size_t i = 0; i < pk.ignore.n; i++) {
    free(pk.ignore.p[i]);
  }
  free(pk.ignore.p);
  return rc;
}
