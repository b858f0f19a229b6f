/*
 * Newline-delimited JSON framing for the stdio transport: splits a byte
 * stream into lines. Internal to the plugin; the unit tests link framing.c
 * directly.
 *
 * Linear time: every byte is scanned once, however long its line is (the
 * scan position is kept between chunks), and complete lines are never
 * copied. Bounded memory: a line longer than the limit is dropped while it
 * streams in, so the buffer never holds much more than `max_line` bytes.
 *
 * Use: framing_reserve() -> read() into the space -> framing_commit(), then
 * call framing_next() until it returns FRAMING_NONE. Any thread, one owner
 * at a time; no locking.
 */
#ifndef MCPH_STDIO_FRAMING_H
#define MCPH_STDIO_FRAMING_H

#include <stdbool.h>
#include <stddef.h>

enum framing_kind {
  FRAMING_NONE = 0, /* no complete line buffered: read more */
  FRAMING_MESSAGE,  /* a line that starts like JSON ('{' or '[') */
  FRAMING_NOT_JSON, /* a non-blank line that does not start like JSON */
  FRAMING_TOO_BIG   /* a line over the limit; its bytes are dropped */
};

/* How much of a dropped line is kept: enough for the host to read the
 * JSON-RPC id of the answer it was (mcph_transport_events.
 * on_message_dropped takes up to 4096 bytes). */
#define FRAMING_HEAD_MAX 4096

typedef struct framing {
  char *buf;
  size_t cap;
  size_t start;    /* first byte of the current (unreturned) line */
  size_t scan;     /* buf[start, scan) is known to hold no '\n' */
  size_t len;      /* bytes of data in buf */
  size_t max_line; /* longest line accepted, without "\n" or "\r\n" */
  bool discarding; /* dropping an over-long line until its '\n' */
  bool eof;        /* no more input: the last line needs no '\n' */
  /* The first bytes of the line FRAMING_TOO_BIG last reported: at most
   * FRAMING_HEAD_MAX, allocated at the first such line (a transport that
   * never sees one holds 4 KiB less; 50 servers are 50 of them), NULL and
   * 0 until then or when memory ran out. */
  char *dropped_head;
  size_t dropped_head_len;
} framing;

/* Initializes `f` with a line limit (bytes, at least 1). Allocates
 * nothing. */
void framing_init(framing *f, size_t max_line);

/* Frees the buffer. `f` may be reused after framing_init(). */
void framing_free(framing *f);

/* Returns space for at least `want` bytes after the buffered data and sets
 * *avail to its size, or returns NULL when out of memory. Invalidates the
 * lines framing_next() returned before. */
char *framing_reserve(framing *f, size_t want, size_t *avail);

/* Adds `n` bytes written into the space framing_reserve() returned. */
void framing_commit(framing *f, size_t n);

/* Copies `n` bytes in: reserve + memcpy + commit, for tests and fuzzers.
 * Returns false when out of memory. */
bool framing_push(framing *f, const void *data, size_t n);

/* Marks the end of input, so that framing_next() returns a last line that
 * has no trailing '\n'. */
void framing_set_eof(framing *f);

/* After framing_next() returned FRAMING_NONE: the bytes of an unfinished
 * last line (one whose '\n' has not come), or 0 while an over-long line is
 * being dropped. */
size_t framing_pending(const framing *f);

/* Drops the unfinished last line, e.g. because its writer died in the
 * middle of it. */
void framing_drop_pending(framing *f);

/* Returns the next event. For FRAMING_MESSAGE and FRAMING_NOT_JSON, *line
 * and *len are the line without its "\n" or "\r\n" (not NUL-terminated,
 * borrowed until the next reserve/push/free). For FRAMING_TOO_BIG, *len is
 * the number of bytes seen so far (at least max_line + 1) and *line is
 * NULL; its first bytes (at most FRAMING_HEAD_MAX) are in
 * f->dropped_head / f->dropped_head_len until the next FRAMING_TOO_BIG,
 * and the rest of that line is dropped without a further event. Empty
 * and blank lines are skipped. */
enum framing_kind framing_next(framing *f, const char **line, size_t *len);

/* Hands over the buffer that holds `line` (as framing_next() just
 * returned it, `len` bytes), so that a large message is not copied out:
 * when the line starts the buffer, returns the buffer (from malloc(),
 * at least len + 1 bytes; the caller frees it) and keeps the bytes after
 * the line in a new one. NULL when the line does not start the buffer or
 * memory runs out; then nothing changed. */
char *framing_take(framing *f, const char *line, size_t len);

#endif /* MCPH_STDIO_FRAMING_H */
