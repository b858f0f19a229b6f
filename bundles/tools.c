/* The entry of mcpb-tools.so (tools.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tools.h"

#include <mcphost/plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "download.h"
#include "impl_open.h"
#include "pack.h"
#include "trailer.h"

#define MANIFEST_MAX (1u << 20)

static void t_close(mcpb_file *f) {
  if (f) {
    bsrc_close(&f->src);
    free(f->manifest);
    free(f);
  }
}

/* A file nobody else can open: a download's bytes go there, not to
 * memory. */
static int private_tmpfile(char *why, size_t n) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) {
    dir = "/tmp";
  }
  int fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    return fd;
  }
  /* A file system without O_TMPFILE: a named file, removed at once. */
  char path[4200];
  snprintf(path, sizeof path, "%s/mcphost-bundle-XXXXXX", dir);
  fd = mkostemp(path, O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, n, "cannot create a temporary file in %s: %s", dir,
             strerror(errno));
    return -1;
  }
  unlink(path);
  return fd;
}

/* Any object of this file: dladdr names the file it was loaded from. */
static const char anchor;

/* mcpb-sig.so (sig.h), opened at the first signature to check or make.
 * NULL with the reason in `err`. */
static const mcpb_sig *sig_lib(char *err, size_t n) {
  static const mcpb_sig *lib;
  if (!lib) {
    const mcpb_sig *l = mcpb_impl_open(&anchor, "mcpb-sig.so", MCPB_SIG_ID,
                                       MCPB_SIG_EXT, err, n);
    if (l && l->struct_size < sizeof(mcpb_sig)) {
      snprintf(err, n,
               "mcpb-sig.so is not a library of this build's bundle plugin");
      return NULL;
    }
    lib = l; /* never closed */
  }
  return lib;
}

static int t_sign(const char *path, const char *cert, const char *key,
                  const char *const *chain, size_t nchain, char *err,
                  size_t n) {
  const mcpb_sig *sl = sig_lib(err, n);
  return sl ? sl->sign(path, cert, key, chain, nchain, err, n) : -1;
}

/* The trailer from the file's end, then the signature over its ZIP
 * bytes. -1 with the reason in `why` when the file cannot be read. */
static int check_trailer(mcpb_file *f, const mcpb_open_opts *o, char *why,
                         size_t n) {
  bsrc *s = &f->src;
  size_t tail_len = s->size < TRAILER_TAIL ? (size_t)s->size : TRAILER_TAIL;
  unsigned char *tail = malloc(tail_len + 1);
  if (!tail) {
    abort();
  }
  if (bsrc_pread(s, s->size - tail_len, tail, tail_len) < 0) {
    snprintf(why, n, "%s", s->err);
    free(tail);
    return -1;
  }
  trailer t;
  int kind = trailer_parse(tail, tail_len, s->size, &t);
  bsrc_limit(s, t.zip_len);
  if (sig_trailer_status(kind, &t, &f->sig)) {
    const mcpb_sig *sl = sig_lib(why, n);
    if (!sl) {
      free(tail);
      return -1;
    }
    const unsigned char *der = tail + (t.der_off - (s->size - tail_len));
    sl->check(s, der, kind, &t, o->managed_cas, o->nmanaged_cas, o->trust,
              &f->sig);
  }
  free(tail);
  return 0;
}

static int t_open(const char *src, const mcpb_open_opts *o, mcpb_file **out,
                  char *err, size_t n) {
  *out = NULL;
  char why[600] = "";
  mcpb_file *f = calloc(1, sizeof *f);
  if (!f) {
    abort();
  }
  f->src.fd = -1;
  int fd;
  if (download_is_url(src)) {
    fd = private_tmpfile(why, sizeof why);
    if (fd < 0 || download(src, o->insecure, o->max_bytes, o->progress,
                           o->progress_ud, fd, why, sizeof why) < 0) {
      if (fd >= 0) {
        close(fd);
      }
      snprintf(err, n, "Failed to download MCPB from %s: %s", src, why);
      t_close(f);
      return -1;
    }
  } else if ((fd = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
    snprintf(err, n, "Failed to extract MCPB %s: %s", src, strerror(errno));
    t_close(f);
    return -1;
  }
  if (bsrc_open_fd(&f->src, fd, why, sizeof why) < 0) {
    snprintf(err, n, "Failed to extract MCPB %s: %s", src, why);
    t_close(f);
    return -1;
  }
  if (f->src.size > o->max_bytes) {
    snprintf(err, n,
             "Failed to extract MCPB %s: larger than the limit of %zu "
             "bytes",
             src, o->max_bytes);
    t_close(f);
    return -1;
  }
  if (check_trailer(f, o, why, sizeof why) < 0 ||
      !(f->manifest = zip_read_manifest(&f->src, MANIFEST_MAX, &f->manifest_len,
                                        why, sizeof why))) {
    /* A broken trailer leaves its bytes on the ZIP's: say so too. */
    bool bad = strcmp(f->sig.status, "invalid") == 0;
    snprintf(err, n, "Failed to extract MCPB %s: %s%s%s%s", src, why,
             bad ? " (and its signature is invalid: " : "",
             bad ? f->sig.why : "", bad ? ")" : "");
    t_close(f);
    return -1;
  }
  /* What the signature and the manifest read is what the extraction will
   * be checked against. */
  bsrc_freeze(&f->src);
  *out = f;
  return 0;
}

static int t_extract(mcpb_file *f, int dirfd, const extract_limits *lim,
                     size_t *files, char *err, size_t n) {
  extract_limits defaults;
  if (!lim) {
    extract_limits_default(&defaults);
    lim = &defaults;
  }
  return zip_extract(&f->src, dirfd, lim, files, err, n);
}

static const mcpb_tools tools = {
    .struct_size = sizeof(mcpb_tools),
    .open = t_open,
    .close = t_close,
    .extract = t_extract,
    .sign = t_sign,
    .pack = pack_dir,
};

static const void *t_get_extension(void *ctx, const char *id) {
  (void)ctx;
  return strcmp(id, MCPB_TOOLS_EXT) == 0 ? &tools : NULL;
}

/* Exported as every plugin's entry is, so the library exports one
 * symbol; the host never loads it (it is not in a plugin directory), and
 * the bundle plugin asks it for MCPB_TOOLS_EXT without init. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = MCPB_TOOLS_ID,
    .name = "mcpb tools",
    .version = "0.1.0",
    .description = "the bundle plugin's archive and download code",
    .get_extension = t_get_extension,
};
