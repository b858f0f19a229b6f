/*
 * The client frames the transport sends itself (RFC 6455, section 5.2):
 * a text frame or a continuation, masked. libwebsockets 4.1.6 reads four
 * bytes from /dev/urandom for the mask of every frame it sends (a system
 * call per message; its random source is a private file descriptor of
 * the context, with no way to hand it another) and masks a byte at a
 * time. Here the masks come from a pool of random bytes refilled by one
 * getrandom() every WS_MASK_POOL / 4 frames, and the payload is masked a
 * word at a time. The frame goes to lws as raw bytes (LWS_WRITE_RAW),
 * which it sends, or buffers when the socket is full, in order with its
 * own frames; a small message on a ws:// socket the transport reads is
 * written with send() itself (ws_send_now). The frames a ws:// server
 * sends are read here too (ws_read_frames, which ws_in.c gives the
 * socket's bytes), apart from the socket so that they are fuzzed as they
 * are read (tests/fuzz/fuzz_ws_frames.c). No libwebsockets here.
 */
#ifndef MCPH_WS_FRAME_H
#define MCPH_WS_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest head: 2 bytes, an 8-byte length, the 4-byte mask. */
#define WS_FRAME_HEAD_MAX 14u
#define WS_MASK_POOL 256u

#define WS_OP_CONTINUATION 0x0u
#define WS_OP_TEXT 0x1u
#define WS_OP_BINARY 0x2u
#define WS_OP_CLOSE 0x8u
#define WS_OP_PING 0x9u
#define WS_OP_PONG 0xau
/* The most payload a control frame (close, ping, pong) may carry. */
#define WS_CONTROL_MAX 125u

typedef struct ws_masks {
  unsigned char pool[WS_MASK_POOL];
  size_t left; /* bytes not taken yet; 0 (zeroed): fill it first */
} ws_masks;

/* The next frame's mask, from the pool (refilled when empty). False when
 * no random bytes could be had: no frame goes out unmasked. */
bool ws_mask_next(ws_masks *m, unsigned char mask[4]);

/* Makes the `len` bytes at `payload` one client frame: writes its head
 * into the WS_FRAME_HEAD_MAX bytes of room before `payload` and masks
 * the payload in place. `opcode` is WS_OP_TEXT or WS_OP_CONTINUATION,
 * `fin` whether this frame ends the message. Returns the head's length:
 * the frame is the head's length plus `len` bytes from payload - it. */
size_t ws_frame_client(unsigned char *payload, size_t len, unsigned opcode,
                       bool fin, const unsigned char mask[4]);

/* The head of a frame from the server, as ws_frame_server_head reads it. */
typedef struct ws_head {
  unsigned opcode;
  bool fin;
  uint64_t len; /* of the payload */
} ws_head;

/* Reads the head of a server frame (unmasked, RFC 6455 5.1) from the `n`
 * bytes at `p`: its length, 0 when more bytes are needed, or -1 when it
 * breaks the protocol (a mask, a reserved bit or opcode, a control frame
 * fragmented or over WS_CONTROL_MAX bytes, a length over 2^63), `*why`
 * then naming what. A length longer than its shortest form is taken, as
 * libwebsockets takes it. */
int ws_frame_server_head(const unsigned char *p, size_t n, ws_head *h,
                         const char **why);

/* The frames of a server read from a byte stream (ws_in.c's socket): a
 * data frame's payload passed on as it comes, in pieces, a control frame
 * whole. The state between two reads; zeroed: no frame begun. */
typedef struct ws_reader {
  uint64_t left; /* payload bytes of the data frame still to come */
  bool msg;      /* a message begun and not ended */
  bool first;    /* the next piece is its message's first */
  bool fin;      /* the data frame being read ends its message */
  bool binary;   /* the message being read is binary */
} ws_reader;

typedef struct ws_reader_ops {
  /* A piece of a data frame's payload (perhaps empty): `first` for its
   * message's first, `end` for its last. */
  void (*data)(void *ud, bool first, bool binary, const unsigned char *p,
               size_t n, bool end);
  /* A whole control frame (close, ping, pong); false stops the
   * reading: the stream's later bytes are not read. */
  bool (*control)(void *ud, unsigned opcode, const unsigned char *p, size_t n);
} ws_reader_ops;

/* The most bytes ws_read_frames leaves untaken, cut by the end of what
 * was read: a data frame's head (at most 9 of its 10 bytes) or a control
 * frame, whose length is in its 2-byte head (at most 126 of its 127). */
#define WS_READER_KEEP_MAX (2u + WS_CONTROL_MAX)

/* Reads the frames in the `n` bytes at `p`, calling `ops` for each.
 * Returns how many bytes were taken: the rest (at most
 * WS_READER_KEEP_MAX) is to be given again in front of the next bytes.
 * Returns -1 when a control callback stopped the reading (`*why` NULL),
 * or when the stream breaks the protocol (`*why` says how: the head's
 * reasons, a continuation frame with no message begun, a new message
 * before the last one ended); then nothing more is to be read. */
long ws_read_frames(ws_reader *r, const unsigned char *p, size_t n,
                    const ws_reader_ops *ops, void *ud, const char **why);

#endif
