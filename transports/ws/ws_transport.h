/*
 * The ws transport's internals, shared by its files:
 *
 *   ws.c        the transport functions and the plugin entry
 *   ws_lws.c    the libwebsockets callback: handshake headers, the
 *               subprotocol check, TLS reasons, frames in and out
 *   ws_frame.c  the frames sent, made and masked here; the frames
 *               received, read from the stream
 *   ws_in.c     a ws:// connection's frames read here once it is open,
 *               not by libwebsockets
 *   ws_loop.c   a libwebsockets context on a libuv loop nested in the
 *               host's epoll (no thread), with the 4.1.6 workarounds
 *   ws_dns.c    name resolution off the loop
 *   ws_proxy.c  the proxy from the environment
 *   ws_url.c    ws:// and wss:// URLs
 *
 * Everything runs on the host's loop thread (ws_dns.c's worker touches
 * only its own job).
 */
#ifndef MCPH_WS_TRANSPORT_H
#define MCPH_WS_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libwebsockets.h>
#include <uv.h>

#include <mcphost/transport.h>

#include "../common/headers_helper.h"
#include "../common/remote_config.h"
#include "plugin_info.h"
#include "ws_dns.h"
#include "ws_frame.h"
#include "ws_loop.h"
#include "ws_rx.h"
#include "ws_url.h"
#include <mcphost/helpers/event_queue.h>

#define WS_SUBPROTOCOL "mcp"
/* Bytes of one frame sent and the most lws hands over per receive. */
#define WS_FRAGMENT 65536u
/* The longest message written from send() without a ws_msg (a frame on
 * the stack): a call's request is a few hundred bytes. */
#define WS_SEND_NOW_MAX 4096u
#define WS_DEFAULT_PING_MS 30000u
/* How long a clean close may wait for the server's answer. */
#define WS_CLOSE_WAIT_MS 2000u
/* A frame's head goes in the room lws asks for before a message. */
_Static_assert(LWS_PRE >= WS_FRAME_HEAD_MAX, "LWS_PRE holds a frame head");

typedef enum ws_state {
  WS_NEW,        /* created */
  WS_HELPER,     /* the headersHelper runs */
  WS_RESOLVING,  /* the host name is being resolved */
  WS_CONNECTING, /* TCP, TLS and the upgrade */
  WS_OPEN,       /* messages flow */
  WS_CLOSING,    /* close() asked: the close frame is on its way */
  WS_ENDED       /* on_close queued or delivered */
} ws_state;

/* Kinds of queued callbacks (mcphost/helpers/event_queue.h). */
enum { EV_MESSAGE, EV_ERROR, EV_DROPPED, EV_AUTH, EV_CLOSE };

typedef struct ws_msg {
  struct ws_msg *next;
  unsigned char *buf; /* LWS_PRE bytes of room, then the message */
  size_t len;         /* of the message */
  size_t off;         /* bytes sent */
} ws_msg;

struct mcph_transport {
  const mcph_host *host;
  const mcph_transport_events *ev;
  char *name;
  remote_config cfg;
  ws_url url;
  char *proxy;         /* "host:port" (credentials kept), or NULL */
  char *authorization; /* set_authorization()'s value, or NULL */
  char *user_agent;
  uint64_t ping_ms; /* "pingInterval"; 0: no keepalive */
  ws_state state;

  headers_helper *helper;
  ws_dns *dns;
  char address[64]; /* the numeric address connected to */
  ws_loop loop;
  bool loop_ok;
  struct lws *wsi; /* cleared in LWS_CALLBACK_WSI_DESTROY */

  mcph_evq q;
  bool dying;  /* in destroy(): lws callbacks do nothing */
  bool in_lws; /* inside the lws callback */

  ws_msg *tx_head, *tx_tail;
  ws_masks masks; /* the masks of the frames sent */
  bool want_ping;
  bool want_close;
  bool want_pong; /* the answer to a ping read by ws_in.c */
  unsigned char pong[WS_CONTROL_MAX];
  size_t pong_len;

  /* A ws:// connection's frames read by the transport (ws_in.c): the
   * socket's watch, what is read and not yet taken (a head or a control
   * frame cut by the read), the frame being read (ws_frame.h). */
  mcph_watch *in_watch;
  unsigned char *in_buf;
  size_t in_len;
  ws_reader in;

  /* The message being received. */
  ws_rx rx;

  /* Why the connection failed or ended, kept for on_close. */
  char tls_reason[256];
  char filter_reason[256];
  char fail_reason[512];
  int fail_code;
  int peer_close_code;
  char peer_close_text[128];

  mcph_timer *connect_timer, *ping_timer, *pong_timer, *close_timer;
};

/* ---- ws.c ---- */
/* Queues on_close (once); later events are dropped. */
void ws_end(mcph_transport *t, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes what is queued: from a host call (a send, a ping) at once when
 * lws holds nothing unsent, else from lws's WRITEABLE callback. */
void ws_want_write(mcph_transport *t);

/* ---- ws_lws.c ---- */
extern const struct lws_protocols ws_protocols[];
/* The connection is up: keepalive, queued messages. */
void ws_opened(mcph_transport *t);
void ws_tx_free_all(mcph_transport *t);
/* Writes one thing: the close, a pong, a ping, or the next fragment of
 * the head message; asks for WRITEABLE again while more is queued. -1:
 * the connection cannot be written to. */
int ws_write_next(mcph_transport *t, struct lws *wsi);
/* A message of at most WS_SEND_NOW_MAX bytes with nothing queued before
 * it, nor a ping or pong: made into one frame on the stack and written,
 * with no ws_msg and no copy kept. The caller checked that the
 * connection is open and lws holds nothing unsent. False: not taken
 * (queue it); *failed: the connection cannot be written to. */
bool ws_send_now(mcph_transport *t, const char *json, size_t len,
                 bool *failed);
/* Writes one control frame (a pong, a close) made here. -1: not
 * written. */
int ws_write_control(mcph_transport *t, unsigned opcode,
                     const unsigned char *payload, size_t len);
/* A whole message received: queued for the host, or refused. */
void ws_rx_done(mcph_transport *t);
/* The server's close frame: its code and reason, for ws_closed. */
void ws_peer_close(mcph_transport *t, const unsigned char *in, size_t len);
/* The connection ended: on_close with why (ws_end). */
void ws_closed(mcph_transport *t);
/* A pong came: the ping's deadline goes. */
void ws_ponged(mcph_transport *t);

/* ---- ws_in.c ---- */
/* In LWS_CALLBACK_CLIENT_ESTABLISHED: takes the reading of a ws://
 * connection over from lws when lws has read no byte past the upgrade's
 * answer; else leaves it to lws for the connection's life. */
void ws_in_take(mcph_transport *t);
/* Stops reading (before the socket may close). */
void ws_in_stop(mcph_transport *t);

#endif
