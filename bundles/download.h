/* Fetching a bundle by URL with libcurl: https only unless `insecure`
 * (then http too), redirects kept to the same schemes, at most
 * `max_bytes` (the server's Content-Length and the bytes received both
 * count), progress reported through `progress` (may be NULL), which
 * stops the transfer by returning non-zero. Blocking; any thread. */
#ifndef MCPB_DOWNLOAD_H
#define MCPB_DOWNLOAD_H

#include <stddef.h>

typedef int (*download_progress_fn)(void *ud, double fraction);

/* Whether `s` looks like a URL (scheme "://"), not a file name. */
int download_is_url(const char *s);

/* Writes the body to `fd` as it arrives (never held in memory). 0, or -1
 * with the reason in `err`. */
int download(const char *url, int insecure, size_t max_bytes,
             download_progress_fn progress, void *ud, int fd, char *err,
             size_t n);

#endif
