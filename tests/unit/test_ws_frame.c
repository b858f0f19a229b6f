/* The client frames the ws transport makes itself
 * (transports/ws/ws_frame.c): the head for each length form, the mask,
 * the payload masked a word at a time as RFC 6455 masks it a byte at a
 * time, and the pool the masks come from. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ws_frame.h"

#include "check.h"

/* A frame in a buffer with the room before the payload that lws gives. */
typedef struct frame {
  unsigned char *buf, *payload, *start;
  size_t head;
} frame;

static frame make(const unsigned char *data, size_t len, unsigned op, bool fin,
                  const unsigned char mask[4]) {
  frame f;
  f.buf = malloc(WS_FRAME_HEAD_MAX + len + 1);
  f.payload = f.buf + WS_FRAME_HEAD_MAX;
  memcpy(f.payload, data, len);
  f.head = ws_frame_client(f.payload, len, op, fin, mask);
  f.start = f.payload - f.head;
  return f;
}

/* The payload unmasked byte by byte, as a server does (RFC 6455 5.3). */
static bool unmasks_to(const frame *f, const unsigned char *data, size_t len) {
  const unsigned char *mask = f->payload - 4;
  for (size_t i = 0; i < len; i++) {
    if ((unsigned char)(f->payload[i] ^ mask[i % 4]) != data[i]) {
      return false;
    }
  }
  return true;
}

TEST(test_ws_frame_heads_for_each_length_form) {
  static const unsigned char mask[4] = {0x12, 0x34, 0x56, 0x78};
  static const size_t lens[] = {0, 5, 125, 126, 65535, 65536, 70000};
  unsigned char *data = malloc(70000);
  for (size_t i = 0; i < 70000; i++) {
    data[i] = (unsigned char)(i * 7 + 3);
  }
  for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
    size_t len = lens[k];
    frame f = make(data, len, WS_OP_TEXT, true, mask);
    CHECK(f.start[0] == 0x81); /* FIN, text */
    if (len < 126) {
      CHECK(f.head == 6);
      CHECK(f.start[1] == (0x80 | len)); /* masked, the length */
    } else if (len <= 0xffff) {
      CHECK(f.head == 8);
      CHECK(f.start[1] == (0x80 | 126));
      CHECK(((size_t)f.start[2] << 8 | f.start[3]) == len);
    } else {
      CHECK(f.head == 14);
      CHECK(f.start[1] == (0x80 | 127));
      uint64_t n = 0;
      for (int i = 0; i < 8; i++) {
        n = n << 8 | f.start[2 + i];
      }
      CHECK(n == len);
    }
    CHECK(memcmp(f.payload - 4, mask, 4) == 0);
    CHECK(unmasks_to(&f, data, len));
    free(f.buf);
  }
  free(data);
}

TEST(test_ws_frame_continuation_and_fin) {
  static const unsigned char mask[4] = {1, 2, 3, 4};
  const unsigned char data[] = "abc";
  frame f = make(data, 3, WS_OP_TEXT, false, mask);
  CHECK(f.start[0] == 0x01); /* text, more to come */
  free(f.buf);
  f = make(data, 3, WS_OP_CONTINUATION, false, mask);
  CHECK(f.start[0] == 0x00);
  free(f.buf);
  f = make(data, 3, WS_OP_CONTINUATION, true, mask);
  CHECK(f.start[0] == 0x80);
  CHECK(unmasks_to(&f, data, 3));
  free(f.buf);
}

/* Word-at-a-time masking against the byte rule, for every length around
 * the word size and payloads at every alignment. */
TEST(test_ws_frame_masks_every_byte_at_any_length_and_alignment) {
  static const unsigned char mask[4] = {0xa5, 0x00, 0xff, 0x3c};
  unsigned char data[64];
  for (size_t i = 0; i < sizeof data; i++) {
    data[i] = (unsigned char)(255 - i * 13);
  }
  unsigned char buf[WS_FRAME_HEAD_MAX + 8 + sizeof data];
  for (size_t align = 0; align < 8; align++) {
    for (size_t len = 0; len <= sizeof data; len++) {
      unsigned char *payload = buf + WS_FRAME_HEAD_MAX + align;
      memcpy(payload, data, len);
      ws_frame_client(payload, len, WS_OP_TEXT, true, mask);
      bool same = true;
      for (size_t i = 0; i < len; i++) {
        same &= (unsigned char)(payload[i] ^ mask[i % 4]) == data[i];
      }
      CHECK(same);
    }
  }
}

TEST(test_ws_frame_masks_come_from_a_refilled_pool) {
  ws_masks m;
  memset(&m, 0, sizeof m);
  unsigned char first[4], mask[4];
  CHECK(ws_mask_next(&m, first));
  CHECK(m.left == WS_MASK_POOL - 4);
  CHECK(memcmp(first, m.pool, 4) == 0);
  /* Each mask is the pool's next four bytes, none reused. */
  for (size_t i = 1; i < WS_MASK_POOL / 4; i++) {
    CHECK(ws_mask_next(&m, mask));
    CHECK(memcmp(mask, m.pool + 4 * i, 4) == 0);
  }
  CHECK(m.left == 0);
  unsigned char old[WS_MASK_POOL];
  memcpy(old, m.pool, sizeof old);
  CHECK(ws_mask_next(&m, mask)); /* refilled */
  CHECK(m.left == WS_MASK_POOL - 4);
  CHECK(memcmp(old, m.pool, sizeof old) != 0);
}

/* A server frame's head as ws_in.c reads it: each length form, read
 * only when all of it is there. */
TEST(test_ws_frame_server_heads_each_length_form_whole_or_cut) {
  static const unsigned char small[] = {0x81, 0x05};
  static const unsigned char mid[] = {0x01, 126, 0x01, 0x00};
  static const unsigned char big[] = {0x82, 127, 0, 0, 0, 0, 0, 1, 0, 0};
  static const unsigned char pong[] = {0x8a, 0x00};
  const struct {
    const unsigned char *p;
    size_t n;
    unsigned op;
    bool fin;
    uint64_t len;
  } cases[] = {{small, sizeof small, WS_OP_TEXT, true, 5},
               {mid, sizeof mid, WS_OP_TEXT, false, 256},
               {big, sizeof big, WS_OP_BINARY, true, 65536},
               {pong, sizeof pong, WS_OP_PONG, true, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ws_head h;
    const char *why;
    CHECK(ws_frame_server_head(cases[i].p, cases[i].n, &h, &why) ==
          (int)cases[i].n);
    CHECK(h.opcode == cases[i].op && h.fin == cases[i].fin &&
          h.len == cases[i].len);
    for (size_t cut = 0; cut < cases[i].n; cut++) {
      CHECK(ws_frame_server_head(cases[i].p, cut, &h, &why) == 0);
    }
  }
}

TEST(test_ws_frame_server_heads_that_break_the_protocol) {
  static const unsigned char bad[][10] = {
      {0xc1, 0x01},                            /* RSV1: no extension agreed */
      {0x81, 0x81},                            /* masked */
      {0x83, 0x01},                            /* reserved data opcode */
      {0x8b, 0x01},                            /* reserved control opcode */
      {0x09, 0x01},                            /* a fragmented ping */
      {0x88, 126, 0, 126},                     /* a close over 125 bytes */
      {0x81, 127, 0x80, 0, 0, 0, 0, 0, 0, 0}}; /* over 2^63 */
  const char *names[] = {"a reserved bit",    "a masked frame",
                         "a reserved opcode", "a reserved opcode",
                         "a control frame",   "a control frame",
                         "a length over 2^63"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ws_head h;
    const char *why = NULL;
    CHECK(ws_frame_server_head(bad[i], sizeof bad[i], &h, &why) == -1);
    CHECK(why && strncmp(why, names[i], strlen(names[i])) == 0);
  }
}

RUN(T(test_ws_frame_heads_for_each_length_form),
    T(test_ws_frame_server_heads_each_length_form_whole_or_cut),
    T(test_ws_frame_server_heads_that_break_the_protocol),
    T(test_ws_frame_continuation_and_fin),
    T(test_ws_frame_masks_every_byte_at_any_length_and_alignment),
    T(test_ws_frame_masks_come_from_a_refilled_pool))
