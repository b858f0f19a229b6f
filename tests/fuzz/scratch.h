/* A scratch directory for the fuzz targets that write files: made once
 * per process under /dev/shm when there is one (the targets fsync), else
 * /tmp, and removed with everything in it at exit. */
#ifndef MCPH_FUZZ_SCRATCH_H
#define MCPH_FUZZ_SCRATCH_H

#include <stddef.h>

/* Fills `dir` (`n` bytes) with the directory's path; aborts when it
 * cannot be made. Call it again for the same path. */
void scratch_dir(const char *name, char *dir, size_t n);

/* Removes `path` and everything under it, links not followed. */
void scratch_remove(const char *path);

#endif
