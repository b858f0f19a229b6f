/* Fuzz target: WebSocket message assembly (transports/ws/ws_rx.h), as
 * the ws transport drives it from libwebsockets' receive callback. The
 * input is a size limit and a list of pieces, each a flags byte (opens a
 * message, binary, ends the message), a length byte and its bytes. A
 * model keeps each message whole; every finished message must be:
 *   binary: refused, with its size;
 *   text of no bytes: empty;
 *   text over the limit: too big, with exactly its first
 *     min(size, WS_DROP_HEAD_MAX) bytes;
 *   otherwise: the text, byte for byte, NUL-terminated. */
#include <stdlib.h>
#include <string.h>

#include "ws_rx.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

typedef struct {
  unsigned char *buf;
  size_t len, cap;
  bool binary;
} model;

static void model_add(model *m, const unsigned char *s, size_t n) {
  if (m->len + n > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 1024;
    while (cap < m->len + n) {
      cap *= 2;
    }
    unsigned char *b = realloc(m->buf, cap);
    if (!b) {
      abort();
    }
    m->buf = b;
    m->cap = cap;
  }
  if (n) {
    memcpy(m->buf + m->len, s, n);
  }
  m->len += n;
}

static void check(const ws_rx_msg *got, const model *m, size_t max) {
  if (got->total != m->len) {
    abort();
  }
  if (m->binary) {
    if (got->kind != WS_RX_BINARY || got->data) {
      abort();
    }
  } else if (m->len == 0) {
    if (got->kind != WS_RX_EMPTY || got->data) {
      abort();
    }
  } else if (m->len > max) {
    size_t head = m->len < WS_DROP_HEAD_MAX ? m->len : WS_DROP_HEAD_MAX;
    if (got->kind != WS_RX_TOO_BIG || !got->data || got->len != head ||
        memcmp(got->data, m->buf, head) != 0) {
      abort();
    }
  } else if (got->kind != WS_RX_TEXT || !got->data || got->len != m->len ||
             memcmp(got->data, m->buf, m->len) != 0 ||
             got->data[got->len] != '\0') {
    abort();
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len < 2) {
    return 0;
  }
  /* Limits from 1 byte to a little over WS_DROP_HEAD_MAX * 2. */
  size_t max = ((size_t)data[0] << 5 | (data[1] & 31)) + 1;
  data += 2;
  len -= 2;
  ws_rx rx;
  memset(&rx, 0, sizeof rx);
  model m = {NULL, 0, 0, false};
  size_t i = 0;
  while (i + 2 <= len) {
    unsigned flags = data[i];
    /* Long pieces too: a length byte over 200 means that many KiB. */
    size_t n = data[i + 1] <= 200 ? data[i + 1] : (data[i + 1] - 200u) * 1024;
    i += 2;
    bool first = flags & 1, binary = flags & 2, last = flags & 4;
    const unsigned char *piece = data + i;
    unsigned char *fill = NULL;
    if (n > len - i) {
      /* Past the input's end: repeated bytes, so a few bytes of input
       * can make a message over the limit. */
      fill = malloc(n ? n : 1);
      if (!fill) {
        abort();
      }
      memset(fill, (int)(flags >> 3) + 'a', n);
      piece = fill;
      i = len;
    } else {
      i += n;
    }
    if (first) {
      m.len = 0;
      m.binary = binary;
    }
    ws_rx_add(&rx, first, binary, piece, n, max);
    model_add(&m, piece, n);
    free(fill);
    if (last) {
      ws_rx_msg got;
      ws_rx_end(&rx, &got);
      check(&got, &m, max);
      free(got.data);
      m.len = 0;
      m.binary = false;
    }
  }
  ws_rx_free(&rx);
  free(m.buf);
  return 0;
}
