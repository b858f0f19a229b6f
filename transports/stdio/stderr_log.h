/*
 * What a server writes to stderr: appended to a log file
 * <logs dir>/<server>.stderr.log (mode 0600, in a checked directory, its
 * lines as written but controls other than newline and tab shown as
 * escapes, text_escape.h), logged line by line at DEBUG through the
 * host, and its last 4 KiB kept so that the close reason can quote it.
 * All functions: loop thread.
 */
#ifndef MCPH_STDIO_STDERR_LOG_H
#define MCPH_STDIO_STDERR_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include <mcphost/host.h>

#define STDERR_TAIL_KEEP 4096  /* bytes kept in memory */
/* At most this much is quoted, newest lines kept: small, so that the
 * whole reason survives the messages it is put in (the file has all). */
#define STDERR_TAIL_QUOTE 400
#define STDERR_TAIL_LINES 10   /* ... and at most this many lines */
#define STDERR_LINE_MAX 512    /* longer lines are logged in pieces */

typedef struct stderr_log {
  const mcph_host *host;
  const char *source; /* server name for host->log; borrowed */
  int file_fd;        /* the log file, or -1 */
  /* STDERR_TAIL_KEEP bytes, then line: allocated at the first write, as
   * most servers write nothing to stderr (4.6 KiB less for each, and
   * 50 servers are 50 transports); NULL until then. */
  char *tail;
  size_t tail_len;
  bool tail_cut; /* older bytes were dropped from the front of tail */
  char *line;    /* STDERR_LINE_MAX + 1 bytes */
  size_t line_len;
  char held[4]; /* the end of the last write, for the next (see .c) */
  size_t held_len;
} stderr_log;

/* Initializes without opening anything. `server_name` is borrowed and must
 * outlive `l`. */
void stderr_log_init(stderr_log *l, const mcph_host *host,
                     const char *server_name);

/* Opens (creating the directory 0700 if needed) the log file for
 * appending. A failure is logged at WARN and capture goes on without a
 * file. */
void stderr_log_open(stderr_log *l);

/* Writes a marker line ("--- <time> <text> ---") into the file only. */
void stderr_log_mark(stderr_log *l, const char *text);

/* Takes `n` bytes the server wrote to stderr. */
void stderr_log_write(stderr_log *l, const char *data, size_t n);

/* Appends "\nstderr (last lines):\n<tail>" to the NUL-terminated string in
 * buf (of `size` bytes) when the server wrote anything. The tail is the
 * newest lines that fit (STDERR_TAIL_QUOTE), older ones dropped, a newest
 * line too long for it cut in the middle; controls other than newline
 * and tab shown as escapes (text_escape.h). */
void stderr_log_append_tail(const stderr_log *l, char *buf, size_t size);

/* Logs an unfinished last line and closes the file. */
void stderr_log_close(stderr_log *l);

/* Closes (stderr_log_close) and frees what `l` holds. */
void stderr_log_free(stderr_log *l);

#endif /* MCPH_STDIO_STDERR_LOG_H */
