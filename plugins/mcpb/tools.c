/* The entry of mcpb-tools.so (tools.h). */
#include "tools.h"

#include <mcphost/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "download.h"
#include "fsutil.h"
#include "pack.h"
#include "trailer.h"

#define MANIFEST_MAX (1u << 20)

static void t_close(mcpb_file *f) {
  if (f) {
    free(f->data);
    free(f->manifest);
    free(f);
  }
}

static int t_open(const char *src, const mcpb_open_opts *o, mcpb_file **out,
                  char *err, size_t n) {
  *out = NULL;
  char why[600] = "";
  mcpb_file *f = calloc(1, sizeof *f);
  if (!f) {
    abort();
  }
  if (download_is_url(src)) {
    f->data = download(src, o->insecure, o->max_bytes, o->progress,
                       o->progress_ud, &f->len, why, sizeof why);
    if (!f->data) {
      snprintf(err, n, "Failed to download MCPB from %s: %s", src, why);
      t_close(f);
      return -1;
    }
  } else if (!(f->data =
                   fs_read_path(src, o->max_bytes, &f->len, why, sizeof why))) {
    snprintf(err, n, "Failed to extract MCPB %s: %s", src, why);
    t_close(f);
    return -1;
  }
  trailer t;
  int kind = trailer_parse(f->data, f->len, &t);
  f->zip_len = t.zip_len;
  sig_check(f->data, f->len, kind, &t, o->managed_cas, o->nmanaged_cas,
            o->trust, &f->sig);
  f->manifest = zip_read_manifest(f->data, f->zip_len, MANIFEST_MAX,
                                  &f->manifest_len, why, sizeof why);
  if (!f->manifest) {
    snprintf(err, n, "Failed to extract MCPB %s: %s", src, why);
    t_close(f);
    return -1;
  }
  *out = f;
  return 0;
}

static int t_extract(const mcpb_file *f, int dirfd, const extract_limits *lim,
                     size_t *files, char *err, size_t n) {
  extract_limits defaults;
  if (!lim) {
    extract_limits_default(&defaults);
    lim = &defaults;
  }
  return zip_extract(f->data, f->zip_len, dirfd, lim, files, err, n);
}

static const mcpb_tools tools = {
    .struct_size = sizeof(mcpb_tools),
    .open = t_open,
    .close = t_close,
    .extract = t_extract,
    .sign = sig_sign,
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
    .description = "the bundle plugin's archive, signature and download "
                   "code",
    .get_extension = t_get_extension,
};
