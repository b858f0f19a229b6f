/*
 * The http transport's internals, shared by its files:
 *
 *   http.c      the plugin entry and the transport functions (create,
 *               start, send, close, destroy, hooks); what a POST's end means
 *   exchange.c  one HTTP exchange on libcurl: request headers, response
 *               headers, the body as JSON, an event stream or an error
 *   streams.c   the standalone GET stream and the resumption of broken
 *               POST streams: reconnect delays, Last-Event-ID, backoff
 *   events.c    what goes into the queue of callbacks to the host
 *               (mcphost/helpers/event_queue.h) and how it is delivered, never
 *               from inside a curl callback or a call the host made
 *   rpc_peek.c  the few JSON-RPC facts a transport needs (a message's
 *               id, a batch's elements)
 *
 * The configuration (../common/remote_config.h), the easy handles and the
 * classification of failures (../common/http_client.h) and the redirect
 * policy (../common/url.h) are shared with the sse transport.
 *
 * Everything runs on the host's loop thread.
 */
#ifndef MCPH_HTTP_TRANSPORT_H
#define MCPH_HTTP_TRANSPORT_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>

#include <mcphost/transport.h>

#include "../common/curl_loop.h"
#include <mcphost/helpers/event_queue.h>
#include "../common/headers_helper.h"
#include "../common/http_client.h"
#include "../common/remote_config.h"
#include "../common/sse.h"
#include "backoff.h"
#include "plugin_info.h"

#define HOLD_MAX_MS 2000U      /* POSTs wait this long for the GET */
#define DELETE_TIMEOUT_MS 2000L
#define GET_CONNECT_TIMEOUT_MS 30000L
#define EXCERPT_BYTES 200
#define REASON_RAW_MAX 60 /* bytes of a reason phrase kept */
#define SESSION_ID_MAX 1024
#define ERROR_BODY_MAX 65536 /* a stateless 4xx body kept whole up to this */

typedef struct plugin {
  const mcph_host *host;
} plugin;

enum tstate {
  T_NEW,     /* created, not started */
  T_RUNNING, /* started */
  T_CLOSING, /* close() was called; on_close is queued or follows DELETE */
  T_CLOSED   /* on_close was delivered */
};

typedef enum xkind {
  X_POST,   /* one message given to send() */
  X_STREAM, /* the standalone GET stream */
  X_RESUME, /* a GET resuming a POST's event stream that broke unanswered */
  X_DELETE  /* ending the session at close() */
} xkind;

typedef enum body_mode {
  BODY_NONE,   /* no final response headers yet */
  BODY_JSON,   /* application/json: collected, delivered at the end */
  BODY_SSE,    /* text/event-stream: parsed and delivered as it comes */
  BODY_ERROR,  /* an HTTP error: the first bytes kept for the message */
  BODY_DISCARD /* anything else */
} body_mode;

typedef struct exchange exchange;

struct exchange {
  mcph_transport *t;
  exchange *prev, *next; /* t's list of live exchanges, oldest first */
  xkind kind;
  CURL *easy; /* while a transfer runs */
  struct curl_slist *hdrs;
  char errbuf[CURL_ERROR_SIZE];
  mcph_timer *timer; /* X_POST: its deadline; GETs: the reconnect delay */
  bool held;         /* X_POST waiting for the standalone GET to start */

  /* What was sent. */
  char *msg; /* the message exactly as given to send() */
  size_t msg_len;
  char *req_id; /* the raw id token when `msg` is a request, else NULL */
  size_t req_id_len;
  bool opens_stream; /* `msg` is notifications/initialized */
  /* Sent with send_headers (MCP 2026-07-28): no session, the given
   * headers, a JSON-RPC error in a 4xx answered in-band. */
  bool stateless;
  char **extra; /* "Name: value" lines of send_headers, NULL-terminated */
  bool initialize;   /* `msg` is an initialize request */
  char *session;     /* the session id this transfer carried, or NULL */
  char *url;         /* a redirect's target, within the origin; NULL: the
                        configured URL */
  unsigned redirects; /* followed so far for this request */

  /* The response of the current attempt. */
  long status; /* of the last status line seen */
  /* Its reason phrase, escaped (text_escape.h): REASON_RAW_MAX bytes of
   * it at most, each of which can take 8 to show ("<U+001B>"). */
  char reason[REASON_RAW_MAX * 8 + 1];
  char ctype[128];
  char *www_auth;    /* WWW-Authenticate values joined with ", " */
  char *new_session; /* Mcp-Session-Id of the response, applied on 2xx */
  body_mode mode;
  char *body; /* BODY_JSON: the body; BODY_ERROR: its first bytes */
  size_t body_len, body_cap;
  int abort_code;    /* set when a callback failed the transfer */
  size_t body_total; /* a JSON body's Content-Length, 0 if unknown */
  bool established;  /* a 2xx event stream is flowing */

  /* Event streams (POST replies, GETs). */
  sse_parser sse;
  bool sse_ready;
  unsigned long retry_ms; /* the server's retry field */
  bool has_retry;
  bool answered;         /* the response to req_id came through */
  unsigned dropped;      /* events dropped for size while unanswered */
  unsigned fails;        /* failed attempts since the last established one */
  char last_error[1024]; /* why the last attempt failed, for the report */
  char redirect_refused[300]; /* why a redirect was not followed, or "" */
};

typedef enum hevent_kind {
  EV_MESSAGE,
  EV_ERROR,
  EV_SEND_FAILED,
  EV_DROPPED,
  EV_AUTH /* code: the HTTP status; data: WWW-Authenticate or NULL; json:
             the URL */
} hevent_kind;

struct mcph_transport {
  plugin *pl;
  const mcph_host *host;
  const mcph_transport_events *ev;
  char *name;
  remote_config cfg;
  char *user_agent;
  curl_loop *cl;
  enum tstate state;
  headers_helper *helper; /* the headersHelper running at start, or NULL */

  char *session_id;       /* Mcp-Session-Id the server assigned */
  char *protocol_version; /* MCP-Protocol-Version, once set */
  char *authorization;    /* "Authorization: ..." set by the host, or NULL */
  bool reached;           /* some HTTP response ever arrived */

  exchange *head, *tail; /* every live exchange, oldest first */
  exchange *stream;      /* the standalone GET, running or waiting */
  bool hold;             /* POSTs wait until the standalone GET started */
  bool release_pending;  /* the GET answered: release at the next pump */
  mcph_timer *hold_timer;

  /* Callbacks to the host, in order (an mcph_evq_item's kind is a
   * hevent_kind). */
  mcph_evq q;
  bool pumping;
  bool close_queued; /* on_close follows what is queued */
  int close_code;
  char close_reason[512];
};

/* ---- exchange.c ---- */

/* A new exchange of `kind`, linked at the end of t's list. For X_POST,
 * `msg` is copied. NULL when out of memory. */
exchange *exchange_new(mcph_transport *t, xkind kind, const char *msg,
                       size_t len);
/* Starts (or restarts) the transfer: a new easy handle with the current
 * session and protocol headers. Returns 0 or an MCPH_E* code with a
 * message in x->last_error. */
int exchange_start(exchange *x);
/* Stops a running transfer and cancels its timer. Not from inside one of
 * its own curl callbacks. */
void exchange_stop(exchange *x);
/* Stops, unlinks and frees. */
void exchange_free(exchange *x);

/* The response's final status (the last status line). */
long exchange_status(const exchange *x);
/* Describes an HTTP error response: "HTTP 500 Internal Server Error from
 * URL: <first bytes of the body>", and for 401/403 the WWW-Authenticate
 * value. Returns the MCPH_E* code that fits it. */
int exchange_describe_status(const exchange *x, char *buf, size_t size);
/* Describes a failed transfer: "<curl's error text> (URL)"; returns the
 * MCPH_E* code that fits it (http_client_code_for_curl). */
int exchange_describe_curl(const exchange *x, CURLcode rc, char *buf,
                           size_t size);

/* ---- events.c ---- */

/* Queue one callback to the host; the pump delivers them in order. The
 * `take` variants take ownership of a malloc'ed buffer. */
void hq_message(mcph_transport *t, const char *json, size_t len);
void hq_message_take(mcph_transport *t, char *json, size_t len);
void hq_error(mcph_transport *t, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Takes x->msg. */
void hq_send_failed(exchange *x, int code, const char *message);
/* Queues the auth-required event of a 401 or 403 answer to x (ABI 1.6);
 * the send failure, if any, follows it. */
void hq_auth_required(exchange *x);
/* A message from the server was dropped (over maxMessageBytes); `head` is
 * its first bytes (copied, at most 4096). */
void hq_dropped(mcph_transport *t, int code, const char *message,
                const char *head, size_t head_len, size_t total);
void hq_close(mcph_transport *t, int code, const char *reason);
/* Runs the pump soon (a zero-delay timer). */
void hq_schedule(mcph_transport *t);
void hq_free(mcph_transport *t);
/* Sets the queue up; create() calls it before anything is queued. */
void hq_init(mcph_transport *t);

/* ---- streams.c ---- */

/* An event-stream message arrived on `x`: notes the answer to x's request
 * and queues it for the host. */
void stream_deliver(exchange *x, const char *json, size_t len);
/* As stream_deliver(), taking the malloc'ed `json` (a JSON body). */
void stream_deliver_take(exchange *x, char *json, size_t len);
/* The POST x's event stream ended; resume it if it left its request
 * unanswered. Takes x. */
void stream_post_ended(exchange *x, const char *why);
/* Opens the standalone GET stream (after notifications/initialized). */
void stream_open(mcph_transport *t);
/* Stops the standalone GET stream, for good. */
void stream_stop(mcph_transport *t);
/* A GET (X_STREAM or X_RESUME) finished. Takes x. */
void stream_done(exchange *x, CURLcode rc);
/* The standalone GET got its response headers, or will not start:
 * POSTs held behind it may go. */
void stream_release_hold(mcph_transport *t);

/* ---- http.c ---- */

/* Starts a POST that was held; on failure reports it and frees x. */
void http_post_release(exchange *x);
/* A transfer of x finished (curl_loop's done callback). */
void http_done(void *ud, CURL *easy, CURLcode rc);
/* The server forgot `sent` (HTTP 404 with that session id). */
void http_session_expired(mcph_transport *t, const char *sent);
/* Records a session id from a 2xx response header. */
void http_session_assigned(mcph_transport *t, const char *id);
/* A transfer of x failed with `rc`, which says the server cannot be
 * reached (http_client_unreachable): x fails, every other request in
 * flight with the same reason, and the transport ends (on_close follows
 * them). Takes x. */
void http_unreachable(exchange *x, CURLcode rc);
/* Stops and frees every exchange (close, or a transport that ends). */
void http_abort_all(mcph_transport *t);

#endif /* MCPH_HTTP_TRANSPORT_H */
