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
static void piece(void *ud, bool first, bool binary, const unsigned char *p,
                  size_t n, bool end) {
  mcph_transport *t = ud;
  ws_rx_add(&t->rx, first, binary, p, n, t->cfg.max_message_bytes);
  if (end) {
    ws_rx_done(t);
  }
}

/* A whole control frame. False when the reading stopped. */
static bool control(void *ud, unsigned opcode, const unsigned char *p,
                    size_t n) {
  mcph_transport *t = ud;
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
  static const ws_reader_ops ops = {piece, control};
  size_t n = t->in_len + (size_t)got;
  const char *why;
  long off = ws_read_frames(&t->in, t->in_buf, n, &ops, t, &why);
  if (off < 0) {
    if (why) {
      broke(t, why);
    }
    return;
  }
  /* A head or a control frame cut by the read: at most
   * WS_READER_KEEP_MAX bytes kept, in front of the next read's room. */
  memmove(t->in_buf, t->in_buf + off, n - (size_t)off);
  t->in_len = n - (size_t)off;
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
  if (fd < 0 || !(t->in_buf = malloc(WS_IN_READ + WS_READER_KEEP_MAX))) {
    return; /* lws keeps reading */
  }
  if (t->host->fd_watch(t->host, fd, MCPH_FD_READ, on_socket, t,
                        &t->in_watch) != 0) {
    t->in_watch = NULL;
    ws_in_stop(t);
    return;
  }
  t->in_len = 0;
  memset(&t->in, 0, sizeof t->in);
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name,
            "frames from %s read by the transport", t->cfg.display_url);
  lws_rx_flow_control(t->wsi, 0);
  /* libuv applies lws's new poll events inside uv_run(): a pump soon
   * (none from inside lws's callback). */
  ws_loop_kick(&t->loop);
}
