/* Client frames, masked with pooled random masks; see ws_frame.h. */
#include "ws_frame.h"

#include <stdint.h>
#include <string.h>
#include <sys/random.h>

bool ws_mask_next(ws_masks *m, unsigned char mask[4]) {
  if (m->left < 4) {
    /* getrandom() gives up to 256 bytes whole once the pool is ready. */
    if (getrandom(m->pool, sizeof m->pool, 0) != (ssize_t)sizeof m->pool) {
      return false;
    }
    m->left = sizeof m->pool;
  }
  memcpy(mask, m->pool + sizeof m->pool - m->left, 4);
  m->left -= 4;
  return true;
}

static void mask_payload(unsigned char *p, size_t len,
                         const unsigned char mask[4]) {
  uint32_t m32;
  memcpy(&m32, mask, 4);
  uint64_t m64 = (uint64_t)m32 << 32 | m32;
  /* Loaded and stored through memcpy, so byte k of each word meets
   * mask[k % 4] in either byte order. */
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    w ^= m64;
    memcpy(p + i, &w, 8);
  }
  for (; i < len; i++) {
    p[i] ^= mask[i & 3];
  }
}

size_t ws_frame_client(unsigned char *payload, size_t len, unsigned opcode,
                       bool fin, const unsigned char mask[4]) {
  unsigned char head[WS_FRAME_HEAD_MAX];
  size_t n = 0;
  head[n++] = (unsigned char)((fin ? 0x80u : 0u) | (opcode & 0x0fu));
  if (len < 126) {
    head[n++] = (unsigned char)(0x80u | len);
  } else if (len <= 0xffff) {
    head[n++] = 0x80u | 126u;
    head[n++] = (unsigned char)(len >> 8);
    head[n++] = (unsigned char)len;
  } else {
    head[n++] = 0x80u | 127u;
    for (int shift = 56; shift >= 0; shift -= 8) {
      head[n++] = (unsigned char)((uint64_t)len >> shift);
    }
  }
  memcpy(head + n, mask, 4);
  n += 4;
  memcpy(payload - n, head, n);
  mask_payload(payload, len, mask);
  return n;
}

int ws_frame_server_head(const unsigned char *p, size_t n, ws_head *h,
                         const char **why) {
  if (n < 2) {
    return 0;
  }
  unsigned op = p[0] & 0x0fu;
  size_t head = 2;
  uint64_t len = p[1] & 0x7fu;
  *why = NULL;
  if (p[0] & 0x70u) {
    *why = "a reserved bit set (no extension was agreed)";
  } else if (p[1] & 0x80u) {
    *why = "a masked frame (a server's frames are not masked)";
  } else if (op >= 0x3u && op != WS_OP_CLOSE && op != WS_OP_PING &&
             op != WS_OP_PONG) {
    *why = "a reserved opcode";
  } else if (op >= WS_OP_CLOSE && (!(p[0] & 0x80u) || len > WS_CONTROL_MAX)) {
    *why = "a control frame fragmented or over 125 bytes";
  }
  if (*why) {
    return -1;
  }
  if (len == 126) {
    if (n < 4) {
      return 0;
    }
    len = (uint64_t)p[2] << 8 | p[3];
    head = 4;
  } else if (len == 127) {
    if (n < 10) {
      return 0;
    }
    len = 0;
    for (int i = 2; i < 10; i++) {
      len = len << 8 | p[i];
    }
    head = 10;
    if (len >> 63) {
      *why = "a length over 2^63";
      return -1;
    }
  }
  h->opcode = op;
  h->fin = (p[0] & 0x80u) != 0;
  h->len = len;
  return (int)head;
}

/* A piece of the data frame being read. */
static void reader_piece(ws_reader *r, const ws_reader_ops *ops, void *ud,
                         const unsigned char *p, size_t n) {
  bool first = r->first;
  r->first = false;
  r->left -= n;
  bool end = r->left == 0 && r->fin;
  if (end) {
    r->msg = false;
  }
  ops->data(ud, first, r->binary, p, n, end);
}

long ws_read_frames(ws_reader *r, const unsigned char *p, size_t n,
                    const ws_reader_ops *ops, void *ud, const char **why) {
  size_t off = 0;
  *why = NULL;
  for (;;) {
    if (r->left > 0) {
      size_t k = n - off < r->left ? n - off : (size_t)r->left;
      if (k == 0) {
        break;
      }
      reader_piece(r, ops, ud, p + off, k);
      off += k;
      continue;
    }
    ws_head h;
    int k = ws_frame_server_head(p + off, n - off, &h, why);
    if (k < 0) {
      return -1;
    }
    if (k == 0) {
      break;
    }
    if (h.opcode >= WS_OP_CLOSE) {
      if (n - off - (size_t)k < h.len) {
        break; /* the rest of it comes with the next read */
      }
      off += (size_t)k + h.len;
      if (!ops->control(ud, h.opcode, p + off - h.len, (size_t)h.len)) {
        return -1;
      }
      continue;
    }
    bool cont = h.opcode == WS_OP_CONTINUATION;
    if (cont != r->msg) {
      *why = cont ? "a continuation frame with no message begun"
                  : "a new message before the last one ended";
      return -1;
    }
    off += (size_t)k;
    r->msg = true;
    r->first = !cont;
    if (!cont) {
      r->binary = h.opcode == WS_OP_BINARY;
    }
    r->fin = h.fin;
    r->left = h.len;
    if (h.len == 0) {
      reader_piece(r, ops, ud, p + off, 0);
    }
  }
  return (long)off;
}
