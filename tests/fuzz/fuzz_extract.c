/* Fuzz target: the checks on a bundle's archive entries
 * (bundles/entry_names.h, extract.h). The first byte picks a mode:
 *  even  names, NUL-separated: a name the path rule accepts is relative,
 *        within the limits, without a control character, a backslash,
 *        an empty, "." or ".." component; the name set refuses a name
 *        seen before, also in other (ASCII) case;
 *  odd   a whole archive, extracted into a fresh directory of a scratch
 *        directory that holds a sentinel file too: afterwards the scratch
 *        directory holds the same two entries, the sentinel is unchanged,
 *        the extraction holds only directories and regular files without
 *        setuid, setgid or sticky bits, and as many files as reported.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "entry_names.h"
#include "extract.h"
#include "scratch.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

#define SENTINEL "sentinel"
#define SENTINEL_TEXT "left alone\n"

static char dir[256], out[300];

static void check_accepted(const char *name, bool is_dir,
                           const extract_limits *lim) {
  size_t len = strlen(name);
  if (len == 0 || len > lim->max_path || name[0] == '/' ||
      (name[1] == ':' &&
       ((name[0] | 0x20) >= 'a' && (name[0] | 0x20) <= 'z'))) {
    abort();
  }
  for (const char *p = name; *p; p++) {
    if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '\\') {
      abort();
    }
  }
  size_t depth = 0;
  for (const char *p = name; *p;) {
    size_t c = strcspn(p, "/");
    bool trailing = c == 0 && p[0] == '\0';
    if ((c == 0 && !trailing) || (c == 1 && p[0] == '.') ||
        (c == 2 && p[0] == '.' && p[1] == '.') || c > 255) {
      abort();
    }
    depth++;
    p += c;
    if (*p == '/') {
      p++;
      if (!*p && !is_dir) {
        abort(); /* a file named "x/" */
      }
    }
  }
  if (depth > lim->max_depth) {
    abort();
  }
}

static void names(const unsigned char *data, size_t len, bool small) {
  extract_limits lim;
  extract_limits_default(&lim);
  if (small) {
    lim.max_path = 40;
    lim.max_depth = 3;
  }
  char *text = malloc(len + 1);
  if (len) {
    memcpy(text, data, len);
  }
  text[len] = '\0';
  char *seen[64];
  size_t nseen = 0;
  entry_names set = {0};
  for (size_t at = 0; at <= len && nseen < 64;) {
    char *name = text + at;
    size_t n = strlen(name);
    at += n + 1;
    bool is_dir = n > 0 && name[n - 1] == '/';
    if (entry_name_rule(name, is_dir, &lim) != NULL) {
      continue;
    }
    check_accepted(name, is_dir, &lim);
    if (is_dir && n > 1) {
      name[n - 1] = '\0';
    }
    bool again = false;
    for (size_t i = 0; i < nseen; i++) {
      again = again || strcasecmp(seen[i], name) == 0;
    }
    bool added = entry_names_add(&set, name);
    if (again && added) {
      abort();
    }
    if (added) {
      seen[nseen++] = name;
    }
  }
  entry_names_free(&set);
  free(text);
}

static void setup(void) {
  if (dir[0]) {
    return;
  }
  scratch_dir("extract", dir, sizeof dir);
  snprintf(out, sizeof out, "%s/out", dir);
  char path[320];
  snprintf(path, sizeof path, "%s/%s", dir, SENTINEL);
  FILE *f = fopen(path, "w");
  if (!f || fputs(SENTINEL_TEXT, f) < 0 || fclose(f) != 0) {
    abort();
  }
}

static size_t regular_files;

static int visit(const char *path, const struct stat *st, int flag,
                 struct FTW *ftw) {
  (void)path, (void)ftw;
  if (flag == FTW_SL || flag == FTW_SLN || (st->st_mode & 07000) ||
      !(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode))) {
    abort();
  }
  regular_files += S_ISREG(st->st_mode);
  return 0;
}

static void check_scratch(void) {
  DIR *d = opendir(dir);
  size_t count = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
      continue;
    }
    if (strcmp(de->d_name, "out") != 0 && strcmp(de->d_name, SENTINEL)) {
      abort(); /* written outside the destination */
    }
    count++;
  }
  closedir(d);
  char path[320], buf[64] = "";
  snprintf(path, sizeof path, "%s/%s", dir, SENTINEL);
  FILE *f = fopen(path, "r");
  if (count != 2 || !f || !fgets(buf, sizeof buf, f) ||
      strcmp(buf, SENTINEL_TEXT) != 0) {
    abort();
  }
  fclose(f);
}

static void archive(const unsigned char *data, size_t len) {
  setup();
  if (mkdir(out, 0700) != 0) {
    abort();
  }
  int fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  extract_limits lim;
  extract_limits_default(&lim);
  lim.max_file_bytes = 1u << 20;
  lim.max_total_bytes = 4u << 20;
  lim.ratio_floor = 1u << 20;
  size_t files = 0;
  char err[512] = "";
  bsrc src;
  bsrc_open_mem(&src, data, len);
  int rc = zip_extract(&src, fd, &lim, &files, err, sizeof err);
  close(fd);
  if (rc != 0 && !err[0]) {
    abort();
  }
  check_scratch();
  regular_files = 0;
  if (nftw(out, visit, 16, FTW_PHYS) != 0) {
    abort();
  }
  if (rc == 0 && regular_files != files) {
    abort();
  }
  scratch_remove(out);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  if (data[0] & 1) {
    archive(data + 1, len - 1);
  } else {
    names(data + 1, len - 1, data[0] & 2);
  }
  return 0;
}
