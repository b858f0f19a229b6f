/* Small helpers shared by the host; the growable byte buffer (strbuf.h)
 * and checked allocation (alloc.h) are the plugins' too. */
#ifndef MCPHOST_COMMON_UTIL_H
#define MCPHOST_COMMON_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "alloc.h"  /* xmalloc, xcalloc, xrealloc, xstrdup, xstrndup */
#include "strbuf.h" /* strbuf, sb_*, xasprintf */

/* Reads `path` ("-": stdin) whole into a new string (its length in
 * *len); NULL with errno set. */
char *read_whole_file(const char *path, size_t *len);

/* Inline: most prefixes are constants, their length then known and the
 * compare a few instructions (every call checks for "mcp__"). */
static inline bool str_starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Whether `s` matches `pattern`, where '*' matches any run of characters
 * (including none and '/'); every other character matches itself. */
bool glob_match(const char *pattern, const char *s);
/* The user's home directory: $HOME when it is an absolute path, else the
 * passwd entry's home when it exists (and is not "/"). Never a shared
 * fallback such as /tmp: NULL when there is none. A new string. */
char *user_home(void);

/* The size of the terminal on `fd`: true with *cols and *rows set, or
 * false when `fd` is no terminal (or says no size). */
bool term_size(int fd, unsigned *cols, unsigned *rows);

/* "DIR/NAME", a new string; without a format, as plugin files are named
 * at every start. */
char *path_join(const char *dir, const char *name);
/* "AB", a new string; without a format (names and paths made at every
 * start: a printf is some thousand instructions). */
char *str_concat(const char *a, const char *b);

/* Whether nothing is at `path` (lstat says ENOENT, errno left so): a
 * check before a trusted_fs walk that would only find that out, at
 * every start. */
bool path_missing(const char *path);

/* "/proc/self/fd/FD" into `out`, the name a file opened and checked is
 * loaded by. */
void proc_fd_path(char out[32], int fd);

/* The value of the hexadecimal digit `c` (either case), or -1: the one
 * rule for JSON's \uXXXX and a URL's %XX. */
static inline int hex_digit(unsigned char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

#endif
