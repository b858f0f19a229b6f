/* Fuzz target: the ws transport's own reading of a ws:// connection's
 * frames (transports/ws/ws_frame.c, ws_read_frames, as ws_in.c drives it
 * from the socket). The input is a chunk seed (fuzz_chunks.h), a flags
 * byte and the bytes the server sends. They are fed in chunks as reads
 * bring them, the bytes left untaken kept in front of the next, in a
 * buffer with exactly the room ws_in.c gives (a read's bytes and
 * WS_READER_KEEP_MAX). A plain model of RFC 6455 5.2 reads the whole
 * stream at once; the promises:
 *   - the same events whatever the chunking: each message begun (text or
 *     binary), its payload byte for byte, its end; each control frame
 *     whole with its payload; the stop after a close frame (or a ping,
 *     when the flags say the reading was stopped there);
 *   - a stream that breaks the protocol ends the reading where the model
 *     finds the fault, with a reason naming it;
 *   - what is left untaken after a read fits the room kept for it;
 *   - a message's pieces agree on its kind, `first` opens it, `end`
 *     closes it, a control frame carries at most 125 bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_chunks.h"
#include "ws_frame.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

enum { EV_BEGIN, EV_DATA, EV_END, EV_CONTROL, EV_BROKE };

typedef struct event {
  int kind;
  unsigned op;     /* EV_BEGIN: binary; EV_CONTROL: the opcode */
  const char *why; /* EV_BROKE: what the model found */
  unsigned char *buf;
  size_t len;
} event;

typedef struct log {
  event *ev;
  size_t n, cap;
  bool in_msg; /* a message begun and not ended (the reader's log) */
  bool binary;
  bool stop_at_ping;
} log_t;

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    abort();
  }
  return q;
}

static event *add(log_t *l, int kind) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->ev = xrealloc(l->ev, l->cap * sizeof *l->ev);
  }
  event *e = &l->ev[l->n++];
  memset(e, 0, sizeof *e);
  e->kind = kind;
  return e;
}

/* Payload bytes: one EV_DATA per message run, however they were cut. */
static void add_data(log_t *l, const unsigned char *p, size_t n) {
  if (n == 0) {
    return;
  }
  event *e = l->n && l->ev[l->n - 1].kind == EV_DATA ? &l->ev[l->n - 1]
                                                     : add(l, EV_DATA);
  e->buf = xrealloc(e->buf, e->len + n);
  memcpy(e->buf + e->len, p, n);
  e->len += n;
}

static void log_free(log_t *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->ev[i].buf);
  }
  free(l->ev);
}

static void on_data(void *ud, bool first, bool binary, const unsigned char *p,
                    size_t n, bool end) {
  log_t *l = ud;
  if (first == l->in_msg) {
    abort(); /* a first piece inside a message, or none to open it */
  }
  if (first) {
    add(l, EV_BEGIN)->op = binary;
    l->in_msg = true;
    l->binary = binary;
  } else if (binary != l->binary) {
    abort();
  }
  add_data(l, p, n);
  if (end) {
    add(l, EV_END);
    l->in_msg = false;
  }
}

static bool on_control(void *ud, unsigned op, const unsigned char *p,
                       size_t n) {
  log_t *l = ud;
  if (n > WS_CONTROL_MAX ||
      (op != WS_OP_CLOSE && op != WS_OP_PING && op != WS_OP_PONG)) {
    abort();
  }
  event *e = add(l, EV_CONTROL);
  e->op = op;
  e->buf = xrealloc(NULL, n);
  if (n) {
    memcpy(e->buf, p, n);
  }
  e->len = n;
  return op == WS_OP_PONG || (op == WS_OP_PING && !l->stop_at_ping);
}

/* The model: the whole stream at once, frame by frame. */
static void model(log_t *l, const unsigned char *p, size_t n) {
  size_t at = 0;
  bool msg = false;
  while (n - at >= 2) {
    unsigned b0 = p[at], b1 = p[at + 1];
    bool fin = b0 & 0x80u;
    unsigned op = b0 & 0x0fu;
    uint64_t plen = b1 & 0x7fu;
    bool control = op & 0x8u;
    const char *why = NULL;
    if (b0 & 0x70u) {
      why = "reserved bit";
    } else if (b1 & 0x80u) {
      why = "masked";
    } else if (op != WS_OP_CONTINUATION && op != WS_OP_TEXT &&
               op != WS_OP_BINARY && op != WS_OP_CLOSE && op != WS_OP_PING &&
               op != WS_OP_PONG) {
      why = "reserved opcode";
    } else if (control && (!fin || plen > 125)) {
      why = "control frame";
    }
    if (why) {
      add(l, EV_BROKE)->why = why;
      return;
    }
    size_t head = 2;
    if (plen == 126 || plen == 127) {
      size_t ext = plen == 126 ? 2 : 8;
      if (n - at < 2 + ext) {
        return;
      }
      plen = 0;
      for (size_t i = 0; i < ext; i++) {
        plen = plen << 8 | p[at + 2 + i];
      }
      if (plen >= (uint64_t)1 << 63) {
        add(l, EV_BROKE)->why = "2^63";
        return;
      }
      head += ext;
    }
    at += head;
    size_t have = n - at;
    if (control) {
      if (have < plen) {
        return;
      }
      if (!on_control(l, op, p + at, (size_t)plen)) {
        return;
      }
      at += (size_t)plen;
      continue;
    }
    if ((op == WS_OP_CONTINUATION) != msg) {
      add(l, EV_BROKE)->why = msg ? "new message" : "continuation";
      return;
    }
    size_t take = have < plen ? have : (size_t)plen;
    if (take == 0 && plen > 0) {
      return; /* a message opens with its first piece */
    }
    if (!msg) {
      add(l, EV_BEGIN)->op = op == WS_OP_BINARY;
      msg = true;
    }
    add_data(l, p + at, take);
    at += take;
    if (take < plen) {
      return;
    }
    if (fin) {
      add(l, EV_END);
      msg = false;
    }
  }
}

/* What the model's reason is called in the reader's. */
static const char *reason_word(const char *why) {
  return strcmp(why, "masked") == 0          ? "masked frame"
         : strcmp(why, "control frame") == 0 ? "control frame fragmented"
         : strcmp(why, "new message") == 0   ? "new message before"
         : strcmp(why, "continuation") == 0  ? "continuation frame with no"
                                             : why;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  fuzz_chunks ch;
  fuzz_chunks_init(&ch, &data, &len);
  if (len < 1) {
    return 0;
  }
  bool stop_at_ping = data[0] & 1;
  data++;
  len--;

  log_t want = {.stop_at_ping = stop_at_ping};
  model(&want, data, len);

  /* ws_in.c's buffer: a read's room and the bytes kept before it. */
  enum { READ = 97 };
  unsigned char *buf = xrealloc(NULL, READ + WS_READER_KEEP_MAX);
  log_t got = {.stop_at_ping = stop_at_ping};
  ws_reader r;
  memset(&r, 0, sizeof r);
  size_t kept = 0, off = 0;
  while (off < len) {
    size_t k = fuzz_chunks_size(&ch, len - off);
    if (k == 0) {
      continue; /* a read that brought nothing new is not made */
    }
    if (k > READ) {
      abort();
    }
    memcpy(buf + kept, data + off, k);
    off += k;
    size_t n = kept + k;
    const char *why = "unset";
    long taken = ws_read_frames(
        &r, buf, n, &(ws_reader_ops){on_data, on_control}, &got, &why);
    if (taken < 0) {
      if (why) {
        add(&got, EV_BROKE)->why = why;
      }
      break;
    }
    if (why || (size_t)taken > n || n - (size_t)taken > WS_READER_KEEP_MAX) {
      abort(); /* a reason without a fault, or more kept than fits */
    }
    memmove(buf, buf + taken, n - (size_t)taken);
    kept = n - (size_t)taken;
  }
  free(buf);

  if (got.n != want.n) {
    abort();
  }
  for (size_t i = 0; i < got.n; i++) {
    const event *g = &got.ev[i], *w = &want.ev[i];
    if (g->kind != w->kind || g->op != w->op || g->len != w->len ||
        (g->len && memcmp(g->buf, w->buf, g->len) != 0)) {
      abort();
    }
    if (g->kind == EV_BROKE && !strstr(g->why, reason_word(w->why))) {
      abort();
    }
  }
  log_free(&got);
  log_free(&want);
  return 0;
}
