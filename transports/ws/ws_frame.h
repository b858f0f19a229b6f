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

/* The longest head: 2 bytes, an 8-byte length, the 4-byte mask. */
#define WS_FRAME_HEAD_MAX 14u
#define WS_MASK_POOL 256u

#define WS_OP_CONTINUATION 0x0u
#define WS_OP_TEXT 0x1u

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

#endif
