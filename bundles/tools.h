/* The part of the bundle plugin that needs libarchive and libcurl,
 * built as its own library (mcpb-tools.so in the host's implementation
 * directory) and opened by the plugin only when a bundle command needs
 * it (plugin.c, impl_open.h), so that listing installed bundles as
 * servers maps none of them; it opens OpenSSL's part (mcpb-sig.so,
 * sig.h) only for a signature to check or make. An internal interface between
 * two halves built together: versioned by its struct_size only.
 *
 * Threads: any; the plugin calls it on the loop. */
#ifndef MCPB_TOOLS_H
#define MCPB_TOOLS_H

#include <stddef.h>
#include <stdint.h>

#include "extract.h"
#include "sig.h"

/* mcpb-tools.so exports a plugin entry (mcph_plugin_entry) with this id,
 * whose get_extension(NULL, MCPB_TOOLS_EXT) is the table below. */
#define MCPB_TOOLS_ID "mcphost.feature.mcpb.tools"
#define MCPB_TOOLS_EXT "mcphost.mcpb.tools/1"

typedef struct mcpb_open_opts {
  const char *trust; /* extra trust anchors (PEM), or NULL */
  int insecure;      /* allow http:// */
  size_t max_bytes;  /* the largest bundle read or downloaded */
  /* The download's progress, on the calling thread; non-zero stops it.
   * May be NULL. */
  int (*progress)(void *ud, double fraction);
  void *progress_ud;
  /* The administrator's trust anchors (bundles.trustedCAs: PEM files),
   * trusted as the system store is; may be NULL. */
  const char *const *managed_cas;
  size_t nmanaged_cas;
} mcpb_open_opts;

/* An opened bundle: its file, read a block at a time (source.h: the ZIP
 * bytes before the trailer), signature and manifest. */
typedef struct mcpb_file {
  bsrc src;
  sig_info sig;
  char *manifest; /* manifest.json's text */
  size_t manifest_len;
} mcpb_file;

typedef struct mcpb_tools {
  uint32_t struct_size;
  /* Opens the file (or downloads the URL `src` into a private unlinked
   * file), parses its trailer, checks its signature and reads
   * manifest.json, never holding the bundle whole. 0, or -1 with the
   * message in `err`: "Failed to download MCPB from <url>: <reason>" or
   * "Failed to extract MCPB <path>: <reason>". */
  int (*open)(const char *src, const mcpb_open_opts *o, mcpb_file **out,
              char *err, size_t n);
  void (*close)(mcpb_file *f);
  /* Extracts f's ZIP bytes into `dirfd` (extract.h); `lim` NULL: the
   * defaults. */
  int (*extract)(mcpb_file *f, int dirfd, const extract_limits *lim,
                 size_t *files, char *err, size_t n);
  int (*sign)(const char *path, const char *cert, const char *key,
              const char *const *chain, size_t nchain, char *err, size_t n);
  int (*pack)(const char *dir, const char *out, size_t *files, char *err,
              size_t n);
} mcpb_tools;

#endif
