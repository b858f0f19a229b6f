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
 * own frames. No libwebsockets here.
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

#endif
