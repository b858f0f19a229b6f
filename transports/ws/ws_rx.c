/* WebSocket message assembly; see ws_rx.h. */
#include "ws_rx.h"

#include <stdlib.h>
#include <string.h>

static void reset(ws_rx *r) {
  r->len = 0;
  r->total = 0;
  r->binary = false;
  r->dropping = false;
}

static bool append(ws_rx *r, const void *in, size_t len) {
  if (r->len + len + 1 > r->cap) {
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < r->len + len + 1) {
      cap *= 2;
    }
    char *p = realloc(r->buf, cap);
    if (!p) {
      return false;
    }
    r->buf = p;
    r->cap = cap;
  }
  if (len) {
    memcpy(r->buf + r->len, in, len);
  }
  r->len += len;
  return true;
}

void ws_rx_add(ws_rx *r, bool first, bool binary, const void *in, size_t len,
               size_t max) {
  if (first) {
    reset(r);
    r->binary = binary;
  }
  r->total += len;
  if (r->binary) {
    /* counted, not kept */
  } else if (!r->dropping && r->total > max) {
    r->dropping = true;
    if (r->len > WS_DROP_HEAD_MAX) {
      r->len = WS_DROP_HEAD_MAX;
    }
  } else if (!r->dropping && !append(r, in, len)) {
    r->dropping = true; /* reported as too big for memory */
  }
  if (r->dropping && r->len < WS_DROP_HEAD_MAX) {
    size_t room = WS_DROP_HEAD_MAX - r->len;
    append(r, in, len < room ? len : room);
  }
}

void ws_rx_end(ws_rx *r, ws_rx_msg *out) {
  memset(out, 0, sizeof *out);
  out->total = r->total;
  if (r->binary) {
    out->kind = WS_RX_BINARY;
  } else if (r->dropping) {
    out->kind = WS_RX_TOO_BIG;
    out->data = malloc(r->len + 1);
    if (out->data) {
      if (r->len) {
        memcpy(out->data, r->buf, r->len);
      }
      out->data[r->len] = '\0';
      out->len = r->len;
    }
  } else if (r->len == 0) {
    /* No bytes is no message, though a buffer may be there (an empty
     * piece allocates one; a dropped message leaves its own). */
    out->kind = WS_RX_EMPTY;
  } else {
    /* The buffer goes to the caller as it is (append left room for the
     * NUL): no copy of a big message. */
    r->buf[r->len] = '\0';
    out->kind = WS_RX_TEXT;
    out->data = r->buf;
    out->len = r->len;
    r->buf = NULL;
    r->cap = 0;
  }
  reset(r);
}

void ws_rx_free(ws_rx *r) {
  free(r->buf);
  memset(r, 0, sizeof *r);
}
