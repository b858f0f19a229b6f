/*
 * The sse transport's object, shared by its three parts:
 *   sse_transport.c  the plugin, the factory functions, the notes that
 *                    hand events to the host, the end of a transport
 *   stream.c         the GET event stream: connect, parse, reconnect
 *   post.c           the POST queue: one request at a time, in order
 * The configuration, the easy handles, the classification of failures,
 * the URL and redirect policy and the event queue are shared with the http
 * transport (../common). Everything runs on the host's loop thread.
 */
#ifndef MCPH_SSE_TRANSPORT_H
#define MCPH_SSE_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <curl/curl.h>

#include <mcphost/transport.h>

#include "../common/curl_loop.h"
#include <mcphost/helpers/event_queue.h>
#include "../common/headers_helper.h"
#include "../common/http_client.h"
#include "../common/remote_config.h"
#include "../common/sse.h"
#include "http.h"
#include "plugin_info.h"

enum state {
  T_NEW,     /* created, not started */
  T_RUNNING, /* started; on_close not yet scheduled */
  T_CLOSED   /* on_close is scheduled or was called */
};

/* What the host is told, queued (mcphost/helpers/event_queue.h, an item's kind
 * is a note_kind) so that it is told from the loop and never from inside
 * start/send/close or a curl callback. */
enum note_kind {
  NOTE_MESSAGE,     /* a message event: data is the JSON */
  NOTE_ENDPOINT,    /* an endpoint event: data is the URL as sent */
  NOTE_STREAM_UP,   /* the GET answered 2xx text/event-stream */
  NOTE_ERROR,       /* on_error(code, data) */
  NOTE_SEND_FAILED, /* on_send_failed(code, data, json) */
  NOTE_AUTH         /* on_auth_required: code the HTTP status, data the
                       WWW-Authenticate value or NULL, json the URL shown */
};

/* One message waiting to be POSTed, or being POSTed. */
typedef struct outmsg {
  char *json;
  size_t len;
  struct outmsg *next;
} outmsg;

/* The POST in flight. */
typedef struct post_req {
  CURL *easy;
  struct curl_slist *headers;
  outmsg *msg;
  char *url; /* where it goes (the endpoint, or a redirect target) */
  unsigned redirects;
  http_resp resp;
  char errbuf[CURL_ERROR_SIZE];
} post_req;

struct mcph_transport {
  const mcph_host *host;
  const mcph_transport_events *ev;
  /* ev->on_send_failed when the host's events struct has it (ABI 1.1). */
  void (*on_send_failed)(void *ud, int code, const char *message,
                         const char *json, size_t len);
  char *name;
  char *user_agent;
  remote_config cfg; /* cfg.display_url: the URL for messages */
  curl_loop *loop;
  enum state state;
  headers_helper *helper; /* the headersHelper running at start, or NULL */

  /* ---- the stream (stream.c) ---- */
  CURL *get; /* the GET in flight, or NULL */
  struct curl_slist *get_headers;
  char *get_url; /* cfg.url, or a redirect target */
  unsigned get_redirects;
  http_resp get_resp;
  char get_errbuf[CURL_ERROR_SIZE];
  bool stream_ok; /* the current GET answered 2xx text/event-stream */
  bool get_nomem; /* a curl callback ran out of memory */
  bool connected; /* an endpoint event has arrived since start */
  sse_parser parser;
  bool parser_ready;
  unsigned long retry_ms; /* the server's retry field, or the default */
  unsigned attempts;      /* reconnects that failed in a row */
  mcph_timer *reconnect_timer;
  mcph_timer *grace_timer;      /* a reconnected stream without an endpoint */
  mcph_timer *error_body_timer; /* an error answer's body is slow */
  char *endpoint;               /* the resolved POST URL, or NULL */
  char *endpoint_display;
  char *session_id; /* sessionId of the endpoint, or NULL */

  /* ---- posting (post.c) ---- */
  bool post_ok; /* the endpoint is known and the stream is up */
  outmsg *out_head, *out_tail;
  post_req *post; /* the POST in flight, or NULL */
  char *protocol_version;
  /* "Authorization: VALUE" the host set (set_authorization), replacing a
   * configured one on the requests started from then on; or NULL. */
  char *authorization;

  /* ---- notes for the host (sse_transport.c) ---- */
  mcph_evq notes;
  mcph_timer *close_timer;
  int close_code;
  char *close_reason;
};

/* sse_transport.c */
/* Queues a note and arms the zero-delay timer that delivers it. Takes
 * `data` and `json` (either may be NULL); false when out of memory (then
 * they are freed). */
bool sse_note(mcph_transport *t, enum note_kind kind, int code, char *data,
              size_t len, char *json, size_t json_len);
/* Formats a note's text. */
bool sse_notef(mcph_transport *t, enum note_kind kind, int code,
               const char *fmt, ...) MCPH_PRINTF(4, 5);
/* A 401 or 403 from `url` (WWW-Authenticate `www`, may be NULL): the
 * host's on_auth_required (ABI 1.6), if it has one, queued as a note and
 * delivered now with the notes before it, so before the failure is
 * reported. From a libcurl completion, never from inside send(). */
void sse_auth_required(mcph_transport *t, long status, const char *url,
                       const char *www);
/* Tells the host a message given to send() was not delivered: with
 * on_send_failed, or on_error from a host of ABI 1.0. From the loop only. */
void sse_send_failed(mcph_transport *t, int code, const char *msg,
                     const char *json, size_t len);
/* Delivers queued notes now. Only from the loop (a timer, or a transfer's
 * done), never from start/send/close or a curl callback. */
void sse_deliver_notes(mcph_transport *t);
/* Ends the transport: stops every transfer and timer and schedules
 * on_close(code, reason) once. Safe anywhere; later calls do nothing. */
void sse_finish(mcph_transport *t, int code, const char *fmt, ...)
    MCPH_PRINTF(3, 4);

/* stream.c */
int stream_start(mcph_transport *t, mcph_error *err);
/* An endpoint event reached the front of the notes queue. */
void stream_on_endpoint(mcph_transport *t, const char *data, size_t len);
/* A NOTE_STREAM_UP or a message reached the front of the notes queue. */
void stream_on_up(mcph_transport *t);
void stream_on_event_delivered(mcph_transport *t);
void stream_stop(mcph_transport *t);
void stream_free(mcph_transport *t);

/* post.c */
int post_enqueue(mcph_transport *t, const char *json, size_t len);
/* Starts the next POST if none runs and posting is allowed. */
void post_pump(mcph_transport *t);
void post_stop(mcph_transport *t);

#endif /* MCPH_SSE_TRANSPORT_H */
