/* Assembling one WebSocket message from the pieces libwebsockets hands
 * over (a fragment may come in several pieces, a message in several
 * fragments): text kept up to a size limit, then only its first bytes;
 * binary counted, not kept. No libwebsockets here: the caller says which
 * piece opens and which ends a message. One owner thread (the ws loop's
 * callbacks); no locking. */
#ifndef MCPH_WS_RX_H
#define MCPH_WS_RX_H

#include <stdbool.h>
#include <stddef.h>

/* The first bytes of a dropped message kept for the host (ABI 1.2). */
#define WS_DROP_HEAD_MAX 4096u

typedef enum ws_rx_kind {
  WS_RX_TEXT = 1, /* a whole text message */
  WS_RX_BINARY,   /* a binary message: refused (MCP sends JSON text) */
  WS_RX_TOO_BIG,  /* a text message over the limit: its first bytes */
  WS_RX_EMPTY     /* a text message of no bytes */
} ws_rx_kind;

typedef struct ws_rx {
  char *buf; /* the message so far; room for a NUL after it */
  size_t len, cap;
  size_t total; /* bytes of the current message seen */
  bool binary, dropping;
} ws_rx;

/* A finished message. `data` belongs to the caller (free()): for
 * WS_RX_TEXT the message, NUL-terminated, `len` bytes; for WS_RX_TOO_BIG
 * its first `len` bytes (at most WS_DROP_HEAD_MAX), or NULL when memory
 * ran out; NULL otherwise. `total` is the size of the message. */
typedef struct ws_rx_msg {
  ws_rx_kind kind;
  char *data;
  size_t len;
  size_t total;
} ws_rx_msg;

/* Adds a piece of a message. `first`: it opens a message, whose type
 * `binary` gives; a message over `max` bytes is dropped but for its first
 * bytes. */
void ws_rx_add(ws_rx *r, bool first, bool binary, const void *in, size_t len,
               size_t max);

/* Ends the message the pieces since the last `first` made, into *out,
 * and makes ready for the next one. */
void ws_rx_end(ws_rx *r, ws_rx_msg *out);

/* Frees the buffer; `r` may be reused (zeroed). */
void ws_rx_free(ws_rx *r);

#endif
