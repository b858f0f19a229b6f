/*
 * The libwebsockets callback of the ws transport: what goes into the
 * upgrade request, the check of the server's subprotocol, the reason a
 * TLS handshake failed, frames in (reassembled, capped, text only) and
 * out (fragmented), pings, the clean close and every way a connection
 * ends. Runs inside uv_run() on the loop thread: it never calls the host
 * directly, it queues (ws_end(), mcphost/helpers/event_queue.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "http_status.h"
#include "text_escape.h"
#include "ws_transport.h"

static mcph_transport *transport_of(struct lws *wsi) {
  mcph_transport *t = wsi ? lws_get_opaque_user_data(wsi) : NULL;
  /* lws may report a failed connect before it set the pwsi pointer. */
  if (!t || t->dying || (t->wsi != wsi && t->wsi)) {
    return NULL;
  }
  return t;
}

/* ---- the upgrade request ---- */

static int add_header(struct lws *wsi, const char *line, unsigned char **p,
                      unsigned char *end) {
  size_t n = strcspn(line, ":;");
  char name[256];
  if (n + 2 > sizeof name) {
    return -1;
  }
  memcpy(name, line, n);
  name[n] = ':';
  name[n + 1] = '\0';
  const char *value = line + n;
  value += *value ? 1 : 0;
  while (*value == ' ') {
    value++;
  }
  return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                     (const unsigned char *)value,
                                     (int)strlen(value), p, end);
}

static bool configured(const mcph_transport *t, const char *name) {
  size_t n = strlen(name);
  for (char **h = t->cfg.headers; h && *h; h++) {
    if (strncasecmp(*h, name, n) == 0 && ((*h)[n] == ':' || (*h)[n] == ';')) {
      return true;
    }
  }
  return false;
}

static int append_headers(mcph_transport *t, struct lws *wsi, void *in,
                          size_t len) {
  unsigned char **p = in, *end = *p + len;
  for (char **h = t->cfg.headers; h && *h; h++) {
    /* The host's Authorization (an auth provider's) wins. */
    if (t->authorization && strncasecmp(*h, "Authorization", 13) == 0 &&
        ((*h)[13] == ':' || (*h)[13] == ';')) {
      continue;
    }
    if (add_header(wsi, *h, p, end) != 0) {
      goto too_big;
    }
  }
  if (t->authorization && lws_add_http_header_by_token(
                              wsi, WSI_TOKEN_HTTP_AUTHORIZATION,
                              (const unsigned char *)t->authorization,
                              (int)strlen(t->authorization), p, end) != 0) {
    goto too_big;
  }
  if (!configured(t, "User-Agent") &&
      lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_USER_AGENT,
                                   (const unsigned char *)t->user_agent,
                                   (int)strlen(t->user_agent), p, end) != 0) {
    goto too_big;
  }
  return 0;
too_big:
  snprintf(t->filter_reason, sizeof t->filter_reason,
           "the configured headers do not fit the %zu bytes of the upgrade "
           "request",
           len);
  return -1;
}

/* The server must have chosen "mcp": lws itself accepts an answer
 * without Sec-WebSocket-Protocol. */
static int check_subprotocol(mcph_transport *t, struct lws *wsi) {
  char got[128] = "";
  if (lws_hdr_copy(wsi, got, sizeof got, WSI_TOKEN_PROTOCOL) > 0 &&
      strcmp(got, WS_SUBPROTOCOL) == 0) {
    return 0;
  }
  snprintf(t->filter_reason, sizeof t->filter_reason,
           got[0] ? "the server chose the subprotocol \"%.60s\", not \"mcp\""
                  : "the server did not accept the subprotocol \"mcp\"%s",
           got);
  return 1;
}

/* A certificate the chain check refused: why, for on_close. */
static void tls_verify(mcph_transport *t, void *store, size_t ok) {
  if (ok || t->tls_reason[0]) {
    return;
  }
  X509_STORE_CTX *x = store;
  int e = X509_STORE_CTX_get_error(x);
  snprintf(t->tls_reason, sizeof t->tls_reason,
           "the server's certificate was refused: %s (X509 error %d at "
           "depth %d)",
           X509_verify_cert_error_string(e), e,
           X509_STORE_CTX_get_error_depth(x));
}

/* ---- frames in ---- */

void ws_rx_done(mcph_transport *t) {
  const char *url = t->cfg.display_url;
  ws_rx_msg m;
  ws_rx_end(&t->rx, &m);
  switch (m.kind) {
  case WS_RX_BINARY:
    mcph_evq_pushf(&t->q, t->name, EV_ERROR, MCPH_EPROTO,
                   "a binary message (%zu bytes) from %s was refused: MCP over "
                   "WebSocket carries JSON text messages only",
                   m.total, url);
    break;
  case WS_RX_TOO_BIG: {
    char why[600];
    snprintf(why, sizeof why,
             "a message of %zu bytes from %s exceeds the %zu-byte message "
             "limit (maxMessageBytes); dropped",
             m.total, url, t->cfg.max_message_bytes);
    mcph_evq_push(&t->q, t->name, EV_DROPPED, MCPH_ETOOBIG, strdup(why),
                  strlen(why), m.data, m.len, m.total);
    break;
  }
  case WS_RX_TEXT:
    mcph_evq_push(&t->q, t->name, EV_MESSAGE, 0, m.data, m.len, NULL, 0, 0);
    break;
  case WS_RX_EMPTY:
    mcph_evq_pushf(&t->q, t->name, EV_ERROR, MCPH_EPROTO,
                   "an empty text message from %s was ignored", url);
    break;
  }
}

static void rx(mcph_transport *t, struct lws *wsi, const void *in, size_t len) {
  ws_rx_add(&t->rx, lws_is_first_fragment(wsi) != 0,
            lws_frame_is_binary(wsi) != 0, in, len, t->cfg.max_message_bytes);
  if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
    ws_rx_done(t);
  }
}

void ws_ponged(mcph_transport *t) {
  if (t->pong_timer) {
    t->host->timer_cancel(t->host, t->pong_timer);
    t->pong_timer = NULL;
  }
}

/* ---- frames out ---- */

void ws_tx_free_all(mcph_transport *t) {
  while (t->tx_head) {
    ws_msg *m = t->tx_head;
    t->tx_head = m->next;
    free(m->buf);
    free(m);
  }
  t->tx_tail = NULL;
}

/* The head message's next fragment (WS_FRAGMENT bytes at most) as one
 * frame the transport made (ws_frame.h), handed to lws as raw bytes. */
static int send_fragment(mcph_transport *t, struct lws *wsi) {
  ws_msg *m = t->tx_head;
  size_t n = m->len - m->off;
  if (n > WS_FRAGMENT) {
    n = WS_FRAGMENT;
  }
  bool first = m->off == 0, last = m->off + n == m->len;
  unsigned char mask[4];
  if (!ws_mask_next(&t->masks, mask)) {
    return -1;
  }
  /* The LWS_PRE bytes before this fragment were sent already (or are the
   * room left for the first): the frame's head goes there, and the
   * payload is masked in place. (lws keeps a copy of what the socket did
   * not take.) */
  unsigned char *payload = m->buf + LWS_PRE + m->off;
  size_t head = ws_frame_client(
      payload, n, first ? WS_OP_TEXT : WS_OP_CONTINUATION, last, mask);
  if (lws_write(wsi, payload - head, head + n, LWS_WRITE_RAW) <
      (int)(head + n)) {
    return -1;
  }
  m->off += n;
  if (last) {
    t->tx_head = m->next;
    if (!t->tx_head) {
      t->tx_tail = NULL;
    }
    free(m->buf);
    free(m);
  }
  return 0;
}

bool ws_send_now(mcph_transport *t, const char *json, size_t len,
                 bool *failed) {
  *failed = false;
  if (len > WS_SEND_NOW_MAX || t->tx_head || t->want_pong || t->want_ping) {
    return false;
  }
  unsigned char buf[WS_FRAME_HEAD_MAX + WS_SEND_NOW_MAX];
  unsigned char mask[4];
  if (!ws_mask_next(&t->masks, mask)) {
    return false; /* the queue's way fails it as it always did */
  }
  unsigned char *payload = buf + WS_FRAME_HEAD_MAX;
  memcpy(payload, json, len);
  size_t head = ws_frame_client(payload, len, WS_OP_TEXT, true, mask);
  unsigned char *frame = payload - head;
  size_t n = head + len, sent = 0;
  /* A ws:// socket the transport reads (ws_in.c) is written here too:
   * lws holds nothing unsent (the caller's check), so the frame goes
   * first, in order. lws_write() costs 200 instructions more a message
   * and is kept for what the socket does not take, which it buffers and
   * sends on POLLOUT. */
  if (t->in_watch) {
    ssize_t k =
        send(lws_get_socket_fd(t->wsi), frame, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    sent = k > 0 ? (size_t)k : 0;
  }
  if (sent < n && lws_write(t->wsi, frame + sent, n - sent, LWS_WRITE_RAW) <
                      (int)(n - sent)) {
    *failed = true;
  }
  return true;
}

int ws_write_control(mcph_transport *t, unsigned opcode,
                     const unsigned char *payload, size_t len) {
  unsigned char buf[LWS_PRE + WS_CONTROL_MAX];
  unsigned char mask[4];
  if (!t->wsi || len > WS_CONTROL_MAX || !ws_mask_next(&t->masks, mask)) {
    return -1;
  }
  if (len) {
    memcpy(buf + LWS_PRE, payload, len);
  }
  size_t head = ws_frame_client(buf + LWS_PRE, len, opcode, true, mask);
  return lws_write(t->wsi, buf + LWS_PRE - head, head + len, LWS_WRITE_RAW) <
                 (int)(head + len)
             ? -1
             : 0;
}

int ws_write_next(mcph_transport *t, struct lws *wsi) {
  if (t->want_close) {
    /* Not "return -1" (lost under libuv in a _DEBUG lws build: the peer
     * saw 1006): close the wsi here, which sends the close frame. */
    t->want_close = false;
    lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
    lws_close_free_wsi(wsi, LWS_CLOSE_STATUS_NORMAL, "client close");
    return 0;
  }
  if (t->want_pong) {
    t->want_pong = false;
    if (ws_write_control(t, WS_OP_PONG, t->pong, t->pong_len) != 0) {
      return -1;
    }
  } else if (t->want_ping) {
    unsigned char buf[LWS_PRE + 8];
    t->want_ping = false;
    if (lws_write(wsi, buf + LWS_PRE, 0, LWS_WRITE_PING) < 0) {
      return -1;
    }
  } else if (t->tx_head && send_fragment(t, wsi) != 0) {
    return -1;
  }
  if (t->tx_head || t->want_close || t->want_ping || t->want_pong) {
    lws_callback_on_writable(wsi);
  }
  return 0;
}

/* ---- the end ---- */

/* The status the server answered the upgrade with; 0 when none came. */
static long upgrade_status(struct lws *wsi) {
  unsigned st = wsi ? lws_http_client_http_response(wsi) : 0;
  return st >= 100 && st <= 999 ? (long)st : 0;
}

/* Whether the answer to the upgrade named a subprotocol, not "mcp". */
static bool chose_other_subprotocol(struct lws *wsi) {
  char got[128] = "";
  return lws_hdr_copy(wsi, got, sizeof got, WSI_TOKEN_PROTOCOL) > 0 &&
         strcmp(got, WS_SUBPROTOCOL) != 0;
}

static void connection_error(mcph_transport *t, struct lws *wsi_of_error,
                             const char *in) {
  const char *url = t->cfg.display_url;
  const char *lws_why = in && *in ? in : "unknown error";
  /* What the answer means is read from its HTTP status, as http and sse
   * read it (http_status.h), never from lws's wording. */
  long st = upgrade_status(wsi_of_error);
  const char *reason = http_status_reason(st);
  if (t->filter_reason[0]) {
    ws_end(t, MCPH_EPROTO, "the WebSocket upgrade at %s failed: %s", url,
           t->filter_reason);
  } else if (st == 101 && chose_other_subprotocol(wsi_of_error)) {
    /* lws refuses a subprotocol it did not offer before the check of
     * the answer (check_subprotocol) runs. */
    ws_end(t, MCPH_EPROTO,
           "the WebSocket upgrade at %s failed: the server chose a "
           "subprotocol other than \"mcp\"",
           url);
  } else if (t->tls_reason[0]) {
    ws_end(t, MCPH_EIO, "TLS with %s failed: %s", url, t->tls_reason);
  } else if (http_status_is_auth(st)) {
    /* The answer's headers are still there: the challenge for the auth
     * provider (transport.h, on_auth_required). */
    char www[1024] = "";
    if (lws_hdr_copy(wsi_of_error, www, sizeof www,
                     WSI_TOKEN_HTTP_WWW_AUTHENTICATE) <= 0) {
      www[0] = '\0';
    }
    mcph_evq_push(&t->q, t->name, EV_AUTH, (int)st, www[0] ? strdup(www) : NULL,
                  strlen(www), NULL, 0, 0);
    ws_end(t, MCPH_EAUTH,
           "the WebSocket upgrade at %s was refused: HTTP %ld%s%s "
           "(authorization needed)%s%s",
           url, st, *reason ? " " : "", reason,
           www[0] ? "; WWW-Authenticate: " : "", www);
  } else if (st) {
    ws_end(t, http_status_error(st),
           "the WebSocket upgrade at %s was refused: the server answered "
           "HTTP %ld%s%s without switching protocols",
           url, st, *reason ? " " : "", reason);
  } else if (strstr(lws_why, "not 101")) {
    ws_end(t, MCPH_EPROTO,
           "the WebSocket upgrade at %s was refused: the server answered "
           "without switching protocols (%s)",
           url, lws_why);
  } else {
    /* lws says "closed before established" for most of these; the
     * socket still knows why (ECONNREFUSED, EHOSTUNREACH, ...). */
    int e = 0;
    socklen_t n = sizeof e;
    lws_sockfd_type fd = wsi_of_error ? lws_get_socket_fd(wsi_of_error) : -1;
    if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &n) != 0) {
      e = 0;
    }
    ws_end(t, MCPH_ECONNREFUSED, "the server at %s cannot be reached: %s", url,
           e ? strerror(e) : lws_why);
  }
}

void ws_closed(mcph_transport *t) {
  const char *url = t->cfg.display_url;
  if (t->state == WS_CLOSING) {
    ws_end(t, 0, "closed");
  } else if (t->fail_reason[0]) {
    ws_end(t, t->fail_code, "%s", t->fail_reason);
  } else if (t->peer_close_code) {
    ws_end(t, MCPH_ECONNREFUSED,
           "the server at %s closed the WebSocket (code %d%s%s)", url,
           t->peer_close_code, t->peer_close_text[0] ? ": " : "",
           t->peer_close_text);
  } else {
    ws_end(t, MCPH_ECONNREFUSED,
           "the WebSocket connection to %s was lost (no close frame)", url);
  }
}

void ws_peer_close(mcph_transport *t, const unsigned char *in, size_t len) {
  if (len >= 2) {
    t->peer_close_code = (in[0] << 8) | in[1];
    size_t n = len - 2 < sizeof t->peer_close_text - 1
                   ? len - 2
                   : sizeof t->peer_close_text - 1;
    char *safe =
        text_escape((const char *)in + 2, n,
                    TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
    snprintf(t->peer_close_text, sizeof t->peer_close_text, "%s",
             safe ? safe : "");
    free(safe);
  } else {
    t->peer_close_code = 1005; /* no status */
  }
}

static int dispatch(mcph_transport *t, struct lws *wsi,
                    enum lws_callback_reasons reason, void *user, void *in,
                    size_t len);

static int callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len) {
  if (reason == LWS_CALLBACK_WSI_DESTROY) {
    mcph_transport *t = wsi ? lws_get_opaque_user_data(wsi) : NULL;
    if (t && (t->wsi == wsi || !t->wsi)) {
      ws_in_stop(t);
      t->wsi = NULL;
      if (!t->dying && t->state != WS_ENDED) {
        t->in_lws = true;
        /* The last word on a connection, also after one lws closed
         * without another callback (an oversized handshake). */
        if (t->state == WS_CLOSING) {
          ws_end(t, 0, "closed");
        } else {
          ws_end(t, MCPH_ECONNREFUSED,
                 "the WebSocket connection to %s ended%s%s", t->cfg.display_url,
                 t->filter_reason[0] ? ": " : "", t->filter_reason);
        }
        t->in_lws = false;
      }
    }
    return 0;
  }
  mcph_transport *t = transport_of(wsi);
  if (!t) {
    return 0;
  }
  t->in_lws = true;
  int rc = dispatch(t, wsi, reason, user, in, len);
  t->in_lws = false;
  return rc;
}

static int dispatch(mcph_transport *t, struct lws *wsi,
                    enum lws_callback_reasons reason, void *user, void *in,
                    size_t len) {
  switch (reason) {
  case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
    tls_verify(t, user, len);
    return 0;
  case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
    return append_headers(t, wsi, in, len);
  case LWS_CALLBACK_CLIENT_FILTER_PRE_ESTABLISH:
    return check_subprotocol(t, wsi);
  case LWS_CALLBACK_CLIENT_ESTABLISHED: ws_opened(t); return 0;
  case LWS_CALLBACK_CLIENT_RECEIVE: rx(t, wsi, in, len); return 0;
  case LWS_CALLBACK_CLIENT_WRITEABLE: return ws_write_next(t, wsi);
  case LWS_CALLBACK_CLIENT_RECEIVE_PONG: ws_ponged(t); return 0;
  case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
    ws_peer_close(t, in, len);
    return 0;
  case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    connection_error(t, wsi, in);
    return 0;
  case LWS_CALLBACK_CLIENT_CLOSED:
    ws_in_stop(t);
    ws_closed(t);
    return 0;
  default: return 0;
  }
}

const struct lws_protocols ws_protocols[] = {
    {WS_SUBPROTOCOL, callback, 0, WS_FRAGMENT, 0, NULL, WS_FRAGMENT},
    {NULL, NULL, 0, 0, 0, NULL, 0}};
