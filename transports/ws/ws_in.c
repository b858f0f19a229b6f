/*
 * The frames of a ws:// connection, read by the transport once the
 * connection is open. libwebsockets 4.1.6 parses what it receives a byte
 * at a time (lws_ws_client_rx_sm, called once per byte, then a copy per
 * byte): about 70 instructions a byte, 8,400 of a small answer's 34,000,
 * and its socket sits in libuv's epoll nested in the host's, two more
 * epoll_wait() calls a message. Here the socket is a host fd watch, a
 * read takes what came, and a data frame's payload goes to the message
 * (ws_rx.h) as one piece. lws keeps the connection (the upgrade, what is
 * sent, the close handshake's end): its reading is switched off with
 * lws_rx_flow_control().
 *
 * Only ws://: a wss:// socket carries TLS records, which only lws (its
 * OpenSSL) reads. The reading changes hands in CLIENT_ESTABLISHED, the
 * one point where lws provably holds no byte of a frame: there it has
 * parsed the upgrade's answer up to its blank line and no further, and
 * kept whatever its read brought past it on the connection's buffer list
 * (client-http.c, lws_buflist_aware_finished_consuming before
 * lws_client_interpret_server_handshake), unparsed. That list is private,
 * but lws_service_adjust_timeout() tells whether any connection of the
 * context that is not flow-controlled has one: 0 when ours does. Empty,
 * the stream from here on is all the socket's, and lws reads none of it
 * once its flow control is off; not empty (a server that wrote frames
 * with its 101 answer), lws reads the whole connection, as it would
 * without this file: a later hand-over would need lws's parser state (a
 * head it read part of fires no callback), which no call shows.
 *
 * What lws did for these frames is done here: a ping answered with a
 * pong of its payload, a pong ending the ping's deadline, a close frame
 * answered with one of its code and the connection ended with it, a
 * frame that breaks the protocol ending the connection.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "ws_transport.h"

/* What one read takes. A data frame's payload is never kept here: only
 * a head or a control frame cut by a read waits for the next. */
#define WS_IN_READ 65536u

void ws_in_stop(mcph_transport *t) {
  if (t->in_watch) {
    t->host->fd_unwatch(t->host, t->in_watch);
    t->in_watch = NULL;
  }
  free(t->in_buf);
  t->in_buf = NULL;
  t->in_len = 0;
}

static void broke(mcph_transport *t, const char *why) {
  ws_in_stop(t);
  ws_end(t, MCPH_EPROTO,
         "the WebSocket connection to %s was ended: the server sent %s",
         t->cfg.display_url, why);
}

/* A piece of a data frame's payload. */
static void piece(mcph_transport *t, const unsigned char *p, size_t n) {
  ws_rx_add(&t->rx, t->in_first, t->in_binary, p, n, t->cfg.max_message_bytes);
  t->in_first = false;
  t->in_left -= n;
  if (t->in_left == 0 && t->in_fin) {
    t->in_msg = false;
    ws_rx_done(t);
  }
}

/* A whole control frame. False when the reading stopped. */
static bool control(mcph_transport *t, unsigned opcode, const unsigned char *p,
                    size_t n) {
  switch (opcode) {
  case WS_OP_PING:
    if (t->state == WS_OPEN) {
      memcpy(t->pong, p, n);
      t->pong_len = n;
      t->want_pong = true;
      ws_want_write(t);
    }
    return t->in_watch != NULL;
  case WS_OP_PONG: ws_ponged(t); return true;
  default: /* WS_OP_CLOSE */
    if (t->state != WS_CLOSING) {
      /* Our answer carries its code, as lws's did (RFC 6455 5.5.1). */
      ws_peer_close(t, p, n);
      if (t->wsi && !lws_partial_buffered(t->wsi)) {
        (void)ws_write_control(t, WS_OP_CLOSE, p, n >= 2 ? 2 : 0);
      }
    }
    /* Either the answer to ours or the server's own: the end. */
    ws_in_stop(t);
    ws_closed(t);
    return false;
  }
}

static void on_socket(void *ud, int fd, unsigned events) {
  mcph_transport *t = ud;
  (void)events;
  ssize_t got = recv(fd, t->in_buf + t->in_len, WS_IN_READ, 0);
  if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
    return;
  }
  if (got <= 0) { /* no close frame: lost */
    ws_in_stop(t);
    ws_closed(t);
    return;
  }
  const unsigned char *p = t->in_buf;
  size_t n = t->in_len + (size_t)got, off = 0;
  for (;;) {
    if (t->in_left > 0) {
      size_t k = n - off < t->in_left ? n - off : (size_t)t->in_left;
      if (k == 0) {
        break;
      }
      piece(t, p + off, k);
      off += k;
      continue;
    }
    ws_head h;
    const char *why;
    int k = ws_frame_server_head(p + off, n - off, &h, &why);
    if (k < 0) {
      broke(t, why);
      return;
    }
    if (k == 0) {
      break;
    }
    if (h.opcode >= WS_OP_CLOSE) {
      if (n - off - (size_t)k < h.len) {
        break; /* the rest of it comes with the next read */
      }
      off += (size_t)k + h.len;
      if (!control(t, h.opcode, p + off - h.len, (size_t)h.len)) {
        return;
      }
      continue;
    }
    bool cont = h.opcode == WS_OP_CONTINUATION;
    if (cont != t->in_msg) {
      broke(t, cont ? "a continuation frame with no message begun"
                    : "a new message before the last one ended");
      return;
    }
    off += (size_t)k;
    t->in_msg = true;
    t->in_first = !cont;
    if (!cont) {
      t->in_binary = h.opcode == WS_OP_BINARY;
    }
    t->in_fin = h.fin;
    t->in_left = h.len;
    if (h.len == 0) {
      piece(t, p + off, 0);
    }
  }
  /* A head or a control frame cut by the read: at most 14 + 125 bytes
   * kept, in front of the next read's room. */
  memmove(t->in_buf, p + off, n - off);
  t->in_len = n - off;
}

void ws_in_take(mcph_transport *t) {
  if (t->in_watch || t->url.tls || t->state != WS_OPEN || !t->wsi) {
    return;
  }
  /* Bytes past the upgrade's answer wait on lws's buffer list: lws
   * parses them and all that follows (see the top of this file). */
  if (lws_service_adjust_timeout(lws_get_context(t->wsi), 1, 0) == 0) {
    mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
              "frames from %s read by lws (some came with the upgrade)",
              t->cfg.display_url);
    return;
  }
  int fd = lws_get_socket_fd(t->wsi);
  if (fd < 0 ||
      !(t->in_buf = malloc(WS_IN_READ + WS_FRAME_HEAD_MAX + WS_CONTROL_MAX))) {
    return; /* lws keeps reading */
  }
  if (t->host->fd_watch(t->host, fd, MCPH_FD_READ, on_socket, t,
                        &t->in_watch) != 0) {
    t->in_watch = NULL;
    ws_in_stop(t);
    return;
  }
  t->in_len = 0;
  t->in_left = 0;
  t->in_msg = false;
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
            "frames from %s read by the transport", t->cfg.display_url);
  lws_rx_flow_control(t->wsi, 0);
  /* libuv applies lws's new poll events inside uv_run(): a pump soon
   * (none from inside lws's callback). */
  ws_loop_kick(&t->loop);
}
