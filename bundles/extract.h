/* Reading a bundle's ZIP bytes with libarchive's seekable ZIP reader, and
 * extracting them safely (reference/mcpb.md §7.2). The bytes come from a
 * bundle source (source.h), a block at a time: entries are written as
 * they are inflated, through libarchive's own bounded buffers.
 *
 * Only regular files and directories are written, each opened relative to
 * the destination directory without following links, never over an
 * existing file. Refused, naming the entry and the rule: an empty name,
 * an absolute path, a drive letter, a backslash, a NUL or control
 * character, a "." or ".." component, an overlong name or too deep a
 * path, a duplicate name (also after Unicode case folding), a symbolic
 * link, a hard link, a device, FIFO or socket, an encrypted entry, an
 * entry whose data is not the size its header says; and limits on the
 * entry count, the bytes actually written per file and in total, and the
 * ratio of written bytes to the archive's size. Modes: 0755 for
 * directories and files with an exec bit, else 0644; setuid, setgid and
 * sticky never kept.
 *
 * On failure the caller removes the destination (it is a fresh temporary
 * directory): nothing is written outside it.
 *
 * Any thread; no global state (libarchive objects are per call). */
#ifndef MCPB_EXTRACT_H
#define MCPB_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "source.h"

typedef struct extract_limits {
  size_t max_entries;
  uint64_t max_file_bytes;
  uint64_t max_total_bytes;
  /* Written bytes may exceed `max_ratio` times the archive's size only
   * below `ratio_floor` bytes in total. */
  uint64_t max_ratio;
  uint64_t ratio_floor;
  size_t max_path; /* bytes */
  size_t max_depth;
} extract_limits;

/* The defaults (docs/bundles.md). */
void extract_limits_default(extract_limits *l);

/* The text of the root entry manifest.json, at most `max` bytes: a new
 * string (free with free()), or NULL with the reason in `err`. */
char *zip_read_manifest(bsrc *zip, size_t max, size_t *out_len, char *err,
                        size_t n);

/* Extracts every entry into the directory `dirfd`. Returns 0, or -1 with
 * the reason in `err` ("entry \"../x\": a path component is \"..\""). The
 * number of files written in *files when not NULL. */
int zip_extract(bsrc *zip, int dirfd, const extract_limits *lim, size_t *files,
                char *err, size_t n);

#endif
