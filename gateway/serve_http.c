/* mcphost serve --http: the gateway over streamable HTTP (2025-11-25),
 * a small HTTP/1.1 server on the host loop (serve_http.h).
 *
 * Life of a connection: accepted non-blocking and watched on the loop;
 * requests are read (a head up to 16 KiB, a body up to 4 MiB, by
 * Content-Length) and answered one at a time: the next request of a
 * keep-alive connection is read only once the previous answer is out,
 * so a client that stops reading holds only its own connection. Every
 * request is checked (path /mcp, Host, Origin, the token, the protocol
 * version, the session) before a session sees it. An SSE response
 * (Connection: close) carries one stream of a session until the stream
 * ends; what a client does not take waits in the connection's buffer up
 * to OUT_CAP, beyond which the connection is dropped and the stream kept
 * for resumption. A request whose answer comes later without a stream
 * (a 2026-07-28 POST's, gw_conn_on_gone) holds its connection: nothing
 * more is read from it (what arrives waits in `in`, up to one largest
 * request) and no deadline runs until that answer is written, so the
 * answers of pipelined requests go out in their order. At most
 * CONNS_MAX connections are taken at once, each given REQUEST_MS for
 * its next request (an SSE one is not, nor one owing an answer). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mcphost/client.h>
#include <mcphost/rpc.h>

#include "env_ms.h"
#include "gateway/serve_http.h"
#include "gateway/serve_http_head.h"
#include "http_status.h"
#include "json_parse.h"
#include "sock_owner.h"

#define HEAD_MAX GW_HTTP_HEAD_MAX
#define BODY_MAX GW_HTTP_BODY_MAX
#define OUT_CAP (8u << 20)
#define SESSIONS_MAX 256
/* Open connections at most: beyond, new ones wait in the listen backlog
 * until one closes (descriptors are the host's too: its backends, its
 * files). */
#define CONNS_MAX 512
/* How long a connection may take to deliver a request, from its start or
 * the previous answer (MCPHOST_SERVE_REQUEST_MS): a client that trickles
 * a head, or keeps an idle connection, does not hold one of CONNS_MAX. */
#define REQUEST_MS 30000
/* How long a request's head may take from its first byte
 * (MCPHOST_SERVE_HEAD_MS): a head is one small write for a real client;
 * one trickled or cut short does not hold a connection for REQUEST_MS. */
#define HEAD_MS 10000
/* Open connections of one peer at most (another user on loopback, one
 * address beyond): one client's half-sent heads cannot take all of
 * CONNS_MAX. The gateway's own user on loopback is bounded by CONNS_MAX
 * alone: its many clients are the user's own. */
#define CONNS_PER_PEER 128
/* A full session table makes room only by ending a session idle this
 * long (MCPHOST_SERVE_EVICT_MS): a client's flood of initialize requests
 * cannot end the sessions other clients are using. */
#define EVICT_IDLE_MS 60000
/* How long a session may stay idle (serve --session-idle SECONDS,
 * MCPHOST_SERVE_SESSION_IDLE_MS), and how often idle ones are looked
 * for at most. */
#define SESSION_IDLE_MS (1800u * 1000u)
#define SWEEP_MAX_MS 60000u
/* How long the answers to the requests open at a signal may take to go
 * out before the gateway ends. */
#define STOP_MS 2000u

typedef struct srv {
  gw_http http; /* first: the sessions' view */
  cli *c;
  const gw_http_opts *o;
  char *token; /* NULL: none needed (loopback without a token) */
  bool loopback;
  unsigned port;
  int fd;
  mcphost_watch *w;
  gw_conn *conns;
  size_t nconns;
  uint64_t request_ms, head_ms, evict_ms;
  mcphost_timer *sweep; /* ends idle sessions */
  bool paused;          /* not accepting: at CONNS_MAX, or out of descriptors */
} srv;

struct gw_conn {
  srv *s;
  int fd;
  mcphost_watch *w;
  unsigned events; /* what w watches */
  strbuf in, out;
  size_t out_off;
  bool sse;          /* an SSE response runs: the connection is its */
  bool finishing;    /* close once out is written */
  bool foreign;      /* another user's, on loopback without a token */
  char peer[64];     /* who: "uid N" on loopback, else the address */
  bool last;         /* the request being answered is the connection's last */
  bool closed;       /* freed on the next loop turn */
  bool head_checked; /* the waiting request's head passed check_access */
  mcphost_timer *deadline;      /* for the next request; NULL on an SSE one */
  mcphost_timer *head_deadline; /* from a head's first byte to its end */
  gw_stream *stream;
  /* gw_conn_on_gone: set, the connection owes the request being
   * answered its answer (or carries its SSE response). */
  void (*gone)(void *ud);
  void *gone_ud;
  gw_conn *next;
};

static void conn_flush(gw_conn *cn);

/* Whether the connection waits for the answer of the request it read
 * last: it reads no other meanwhile. */
static bool conn_owes(const gw_conn *cn) {
  return cn->gone && !cn->sse;
}

/* Accepting stops at the cap or when accept(2) runs out of descriptors
 * (the listening socket stays readable: the level-triggered loop would
 * spin on it) and starts again when a connection closes. */
static void accepting(srv *sv, bool on) {
  if (sv->w && sv->paused == on &&
      mcphost_watch_update(cli_api(sv->c), sv->w, on ? MCPHOST_FD_READ : 0,
                           NULL) == MCPHOST_OK) {
    sv->paused = !on;
  }
}

static void conn_free_later(void *ud) {
  gw_conn *cn = ud;
  sb_free(&cn->in);
  sb_free(&cn->out);
  free(cn);
}

static void head_deadline(gw_conn *cn, bool on);

/* `delivered`: everything the connection was given went out. */
static void conn_close(gw_conn *cn, bool delivered) {
  if (cn->closed) {
    return;
  }
  cn->closed = true;
  mcphost_client *api = cli_api(cn->s->c);
  if (cn->w) {
    mcphost_unwatch(api, cn->w);
    cn->w = NULL;
  }
  if (cn->deadline) {
    mcphost_timer_cancel(api, cn->deadline);
    cn->deadline = NULL;
  }
  head_deadline(cn, false);
  close(cn->fd);
  for (gw_conn **p = &cn->s->conns; *p; p = &(*p)->next) {
    if (*p == cn) {
      *p = cn->next;
      cn->s->nconns--;
      break;
    }
  }
  accepting(cn->s, true);
  gw_stream *st = cn->stream;
  cn->stream = NULL;
  if (st) {
    gw_session_conn_gone(st, delivered);
  } else if (cn->gone) {
    cn->gone(cn->gone_ud);
  }
  /* Callers up the stack may still hold `cn`. */
  if (mcphost_post(api, conn_free_later, cn, NULL) != MCPHOST_OK) {
    conn_free_later(cn);
  }
}

void gw_conn_abort(gw_conn *cn) {
  cn->stream = NULL;
  conn_close(cn, false);
}

static void conn_watch(gw_conn *cn, unsigned events) {
  if (!cn->closed && events != cn->events &&
      mcphost_watch_update(cli_api(cn->s->c), cn->w, events, NULL) ==
          MCPHOST_OK) {
    cn->events = events;
  }
}

void gw_conn_write(gw_conn *cn, const char *data, size_t n) {
  if (cn->closed) {
    return;
  }
  if (cn->out.len - cn->out_off + n > OUT_CAP) {
    /* A client that does not read: it loses this connection, not the
     * gateway its loop. */
    conn_close(cn, false);
    return;
  }
  sb_add(&cn->out, data, n);
  conn_flush(cn);
}

void gw_conn_respond(gw_conn *cn, int status, const char *ctype,
                     const char *extra_headers, const char *body) {
  strbuf b;
  sb_init(&b);
  size_t len = body ? strlen(body) : 0;
  sb_printf(&b, "HTTP/1.1 %d %s\r\n", status, http_status_reason(status));
  if (ctype) {
    sb_printf(&b, "Content-Type: %s\r\n", ctype);
  }
  if (status != 204) {
    sb_printf(&b, "Content-Length: %zu\r\n", len);
  }
  if (extra_headers) {
    sb_adds(&b, extra_headers);
  }
  if (cn->finishing || cn->last) {
    sb_adds(&b, "Connection: close\r\n");
  }
  sb_adds(&b, "\r\n");
  if (body) {
    sb_add(&b, body, len);
  }
  gw_conn_write(cn, b.data, b.len);
  sb_free(&b);
}

static void respond_text(gw_conn *cn, int status, const char *text);

static void conn_deadline(gw_conn *cn);

static void on_deadline(void *ud) {
  gw_conn *cn = ud;
  cn->deadline = NULL;
  if (cn->in.len == 0 || cn->finishing) {
    conn_close(cn, false); /* idle, or not reading its answer */
    return;
  }
  cn->finishing = true;
  respond_text(cn, 408, "the request did not arrive in time\n");
  if (!cn->closed) {
    conn_deadline(cn); /* then it goes, read or not */
  }
}

static void on_head_deadline(void *ud) {
  gw_conn *cn = ud;
  cn->head_deadline = NULL;
  if (cn->finishing) {
    conn_close(cn, false);
    return;
  }
  cn->finishing = true;
  respond_text(cn, 408, "the request's head did not arrive in time\n");
}

/* A head has begun (`on`) or is whole: its own deadline runs between. */
static void head_deadline(gw_conn *cn, bool on) {
  mcphost_client *api = cli_api(cn->s->c);
  if (!on && cn->head_deadline) {
    mcphost_timer_cancel(api, cn->head_deadline);
    cn->head_deadline = NULL;
  } else if (on && !cn->head_deadline) {
    cn->head_deadline =
        mcphost_timer_start(api, cn->s->head_ms, on_head_deadline, cn);
  }
}

/* (Re)starts the time the connection has for its next request. */
static void conn_deadline(gw_conn *cn) {
  mcphost_client *api = cli_api(cn->s->c);
  if (cn->deadline) {
    mcphost_timer_cancel(api, cn->deadline);
  }
  cn->deadline = mcphost_timer_start(api, cn->s->request_ms, on_deadline, cn);
}

static void conn_process(gw_conn *cn);

/* The answer the connection owed went out: the next request may be read
 * (posted: the answer's writer is still on the stack). */
static void conn_resume(void *ud) {
  gw_conn *cn = ud;
  if (cn->closed || cn->sse || cn->finishing || conn_owes(cn)) {
    return; /* closed, or another request already holds it */
  }
  if (cn->last) {
    gw_conn_finish(cn);
    return;
  }
  conn_deadline(cn);
  conn_process(cn);
}

bool gw_conn_on_gone(gw_conn *cn, void (*gone)(void *ud), void *ud) {
  if (cn->closed) {
    return !gone;
  }
  if (gone && cn->gone) {
    return false; /* another request's: never overwritten */
  }
  bool owed = conn_owes(cn);
  cn->gone = gone;
  cn->gone_ud = ud;
  if (gone) {
    /* Its answer may take long: no deadline until it is out. */
    if (cn->deadline) {
      mcphost_timer_cancel(cli_api(cn->s->c), cn->deadline);
      cn->deadline = NULL;
    }
  } else if (owed && mcphost_post(cli_api(cn->s->c), conn_resume, cn, NULL) !=
                         MCPHOST_OK) {
    conn_resume(cn);
  }
  return true;
}

void gw_conn_start_sse(gw_conn *cn, gw_stream *st, const char *session_id) {
  if (cn->deadline) {
    /* A stream may be quiet for long: it ends with its stream. */
    mcphost_timer_cancel(cli_api(cn->s->c), cn->deadline);
    cn->deadline = NULL;
  }
  cn->sse = true;
  cn->stream = st;
  char *h = xasprintf("HTTP/1.1 200 OK\r\n"
                      "Content-Type: text/event-stream\r\n"
                      "Cache-Control: no-cache\r\n"
                      "Connection: close\r\n"
                      "%s%s%s\r\n",
                      session_id ? "Mcp-Session-Id: " : "",
                      session_id ? session_id : "", session_id ? "\r\n" : "");
  gw_conn_write(cn, h, strlen(h));
  free(h);
}

void gw_conn_finish(gw_conn *cn) {
  cn->finishing = true;
  conn_flush(cn);
}

static void conn_flush(gw_conn *cn) {
  while (!cn->closed && cn->out_off < cn->out.len) {
    ssize_t n = send(cn->fd, cn->out.data + cn->out_off,
                     cn->out.len - cn->out_off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      /* Backpressure: a request's next one is read once its answer is
       * out; an SSE connection is still read, for its end. */
      conn_watch(cn, cn->sse ? MCPHOST_FD_READ | MCPHOST_FD_WRITE
                             : MCPHOST_FD_WRITE);
      return;
    }
    if (n <= 0) {
      conn_close(cn, false);
      return;
    }
    cn->out_off += (size_t)n;
  }
  if (cn->closed) {
    return;
  }
  cn->out.len = cn->out_off = 0;
  conn_watch(cn, MCPHOST_FD_READ);
  if (cn->finishing) {
    conn_close(cn, true);
  }
}

/* ---- requests ---- */

static void respond_text(gw_conn *cn, int status, const char *text) {
  gw_conn_respond(cn, status, "text/plain; charset=utf-8", NULL, text);
}

/* A JSON-RPC error as an HTTP response (for a body that cannot reach a
 * session). */
static void respond_rpc_error(gw_conn *cn, int status, int code,
                              const char *message) {
  char *body = xasprintf("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":"
                         "{\"code\":%d,\"message\":\"%s\"}}",
                         code, message);
  gw_conn_respond(cn, status, "application/json", NULL, body);
  free(body);
}

static bool accepts(const char *accept, const char *type) {
  return accept && (strstr(accept, type) || strstr(accept, "*/*"));
}

/* Whether a POST without a session is a 2026-07-28 client's: its header
 * names a version of no initialize, or its body the modern envelope. */
static bool gw_http_modern(const http_req *r, const cJSON *msg) {
  return (r->version &&
          !mcphost_protocol_supported(MCPHOST_ERA_LEGACY, r->version)) ||
         gw_modern_asks(cJSON_GetObjectItemCaseSensitive(msg, "params"));
}

static void handle_post(gw_conn *cn, const http_req *r, const char *body,
                        size_t len, gw_session *s) {
  srv *sv = cn->s;
  if (!r->ctype || strncasecmp(r->ctype, "application/json", 16) != 0) {
    respond_text(cn, 415, "a POST's body is application/json\n");
    return;
  }
  if (!accepts(r->accept, "application/json") ||
      !accepts(r->accept, "text/event-stream")) {
    respond_text(cn, 406,
                 "a POST must accept application/json and "
                 "text/event-stream\n");
    return;
  }
  cJSON *msg = json_parse(body, len, NULL);
  if (!cJSON_IsObject(msg)) {
    respond_rpc_error(cn, 400,
                      msg ? MCPH_RPC_INVALID_REQUEST : MCPH_RPC_PARSE_ERROR,
                      msg ? "the body must be one JSON-RPC message (an "
                            "object; batches are not part of 2025-11-25)"
                          : "the body is not JSON");
    goto out;
  }
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  if (method && id && !cJSON_IsString(id) && !cJSON_IsNumber(id)) {
    respond_rpc_error(cn, 400, MCPH_RPC_INVALID_REQUEST,
                      "a request's id is a string or a number");
    goto out;
  }
  if (!s && (method || !id) && gw_http_modern(r, msg)) {
    gw_modern_post(&sv->http, cn, msg,
                   &(gw_modern_headers){.version = r->version,
                                        .method = r->mcp_method,
                                        .name = r->mcp_name},
                   body, len);
    goto out;
  }
  if (!s && method && id && strcmp(method, "initialize") == 0) {
    gw_sessions_expire(&sv->http);
    if (gw_session_count(&sv->http) >= SESSIONS_MAX &&
        !gw_sessions_evict(&sv->http, sv->evict_ms)) {
      respond_text(cn, 503,
                   "too many sessions, none idle long enough to end; "
                   "end one (DELETE) or try later\n");
      goto out;
    }
    s = gw_session_new(&sv->http, sv->http.hub);
    if (!s) {
      respond_text(cn, 503, "no random bytes for a session id\n");
      goto out;
    }
  }
  if (!s) {
    respond_rpc_error(cn, 400, MCPH_RPC_INVALID_REQUEST,
                      "an Mcp-Session-Id header is needed (initialize "
                      "first)");
    goto out;
  }
  gw_session_post(s, cn, msg, body, len);
out:
  cJSON_Delete(msg);
}

/* Checks who may send the request (path, Host, Origin, the token), on
 * its head alone; false when answered. */
static bool check_access(gw_conn *cn, const http_req *r) {
  srv *sv = cn->s;
  if (cn->foreign) {
    respond_text(cn, 403,
                 "this gateway serves only the user who started it; "
                 "another user needs a token (serve --token-file)\n");
    return false;
  }
  size_t plen = strcspn(r->target, "?");
  if (plen != 4 || strncmp(r->target, "/mcp", 4) != 0) {
    respond_text(cn, 404, "the gateway's endpoint is /mcp\n");
    return false;
  }
  if (!gw_http_host_ok(r->host, sv->loopback, sv->port)) {
    respond_text(cn, 421,
                 "the Host header does not name this gateway (it answers "
                 "localhost and loopback addresses only)\n");
    return false;
  }
  if (!gw_http_origin_ok(r->origin, sv->o)) {
    respond_text(cn, 403,
                 "Origin not allowed (a loopback origin, or one given with "
                 "serve --allow-origin)\n");
    return false;
  }
  if (sv->token && !gw_http_token_ok(r->auth, sv->token)) {
    gw_conn_respond(cn, 401, "text/plain; charset=utf-8",
                    "WWW-Authenticate: Bearer realm=\"mcphost\"\r\n",
                    "a bearer token is needed (Authorization: Bearer "
                    "TOKEN)\n");
    return false;
  }
  return true;
}

/* Checks what every request must pass; false when answered. */
static bool check_request(gw_conn *cn, const http_req *r, gw_session **s) {
  srv *sv = cn->s;
  *s = NULL;
  if (!check_access(cn, r)) {
    return false;
  }
  /* Without a session the version is the modern path's to check. */
  if (r->session && r->version &&
      !mcphost_protocol_supported(MCPHOST_ERA_LEGACY, r->version)) {
    respond_text(cn, 400,
                 "MCP-Protocol-Version is not one the gateway "
                 "speaks\n");
    return false;
  }
  if (r->session) {
    *s = gw_session_find(&sv->http, r->session);
    if (!*s) {
      respond_text(cn, 404, "no such session (initialize again)\n");
      return false;
    }
  }
  return true;
}

static void handle_request(gw_conn *cn, const http_req *r, const char *body,
                           size_t len) {
  gw_session *s;
  if (!check_request(cn, r, &s)) {
    return;
  }
  if (strcmp(r->method, "POST") == 0) {
    handle_post(cn, r, body, len, s);
  } else if (strcmp(r->method, "GET") == 0 ||
             strcmp(r->method, "DELETE") == 0) {
    bool get = r->method[0] == 'G';
    if (!s) {
      respond_text(cn, 400, "an Mcp-Session-Id header is needed\n");
    } else if (get && !accepts(r->accept, "text/event-stream")) {
      respond_text(cn, 406, "a GET must accept text/event-stream\n");
    } else if (get) {
      gw_session_get(s, cn, r->last_event_id);
    } else {
      gw_session_free(s);
      gw_conn_respond(cn, 200, NULL, NULL, NULL);
    }
  } else {
    gw_conn_respond(cn, 405, "text/plain; charset=utf-8",
                    "Allow: GET, POST, DELETE\r\n",
                    "the gateway takes GET, POST and DELETE\n");
  }
}

/* Handles the requests waiting in `in`, one at a time. */
static void conn_process(gw_conn *cn) {
  while (!cn->closed && !cn->sse && !cn->finishing && !conn_owes(cn) &&
         cn->out_off == cn->out.len) {
    http_req r = {0};
    size_t hl;
    enum gw_http_frame f = gw_http_frame(cn->in.data, cn->in.len, &r, &hl);
    if (f == GW_FRAME_HEAD_BIG) {
      cn->finishing = true;
      respond_text(cn, 431, "the request's headers are larger than 16 KiB\n");
      return;
    }
    head_deadline(cn, f == GW_FRAME_HEAD_WAIT && cn->in.len > 0);
    if (f == GW_FRAME_HEAD_WAIT) {
      return;
    }
    if (f == GW_FRAME_BAD || f == GW_FRAME_NO_LENGTH) {
      cn->finishing = true;
      respond_text(cn, f == GW_FRAME_NO_LENGTH ? 411 : 400,
                   f == GW_FRAME_NO_LENGTH
                       ? "a body needs a Content-Length\n"
                       : "not an HTTP/1.1 request (its request line, a "
                         "header or its Content-Length)\n");
    } else if (f == GW_FRAME_BODY_BIG) {
      cn->finishing = true;
      respond_text(cn, 413, "the body is larger than 4 MiB\n");
    } else if (f == GW_FRAME_BODY_WAIT) {
      /* The rest of the body is on its way; a client that may not send
       * it is answered now, not after up to 4 MiB held for it. */
      if (!cn->head_checked) {
        cn->finishing = true; /* a denial ends the connection */
        cn->head_checked = check_access(cn, &r);
        cn->finishing = !cn->head_checked;
      }
      free(r.head);
      return;
    } else {
      /* HTTP/1.0 or "Connection: close": closed after this answer (an
       * SSE answer closes when its stream ends). */
      cn->last = r.close;
      cn->head_checked = false;
      handle_request(cn, &r, cn->in.data + hl, r.content_length);
      if (!cn->closed) {
        size_t used = hl + r.content_length;
        memmove(cn->in.data, cn->in.data + used, cn->in.len - used);
        cn->in.len -= used;
        /* Else its answer resumes it (conn_resume), or its stream's end
         * closes it. */
        if (!conn_owes(cn) && !cn->sse) {
          if (cn->last) {
            gw_conn_finish(cn);
          } else {
            conn_deadline(cn);
          }
        }
      }
    }
    free(r.head);
  }
}

static void on_conn(void *ud, int fd, unsigned events) {
  gw_conn *cn = ud;
  if (events & MCPHOST_FD_WRITE) {
    conn_flush(cn);
    conn_process(cn);
  }
  if (cn->closed ||
      !(events & (MCPHOST_FD_READ | MCPHOST_FD_HUP | MCPHOST_FD_ERROR))) {
    return;
  }
  char buf[16384];
  ssize_t n = recv(fd, buf, sizeof buf, 0);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
    return;
  }
  if (n <= 0) {
    conn_close(cn, false); /* the client went away */
    return;
  }
  if (cn->sse || cn->finishing) {
    return; /* nothing more is read on this connection */
  }
  if (conn_owes(cn)) {
    /* Pipelined behind a request not answered yet: kept for after its
     * answer; beyond one largest request, not read until then. */
    sb_add(&cn->in, buf, (size_t)n);
    if (cn->in.len > HEAD_MAX + BODY_MAX) {
      conn_watch(cn, 0);
    }
    return;
  }
  if (cn->in.len + (size_t)n > HEAD_MAX + BODY_MAX) {
    cn->finishing = true;
    respond_text(cn, 413, "the request is too large\n");
    return;
  }
  sb_add(&cn->in, buf, (size_t)n);
  conn_process(cn);
}

/* A loopback gateway without a token serves only the user who started
 * it: the peer's socket must be that user's (a TCP connection has no
 * SO_PEERCRED; the kernel's socket table says who owns the other end).
 * Anyone else is answered 403 on the head of each request (check_access),
 * through the usual path, so the answer is read before the connection
 * closes. A token is its own authentication; --no-auth turns this off. */
static bool peer_foreign(srv *sv, int cfd) {
  if (!sv->loopback || sv->token || sv->o->no_auth) {
    return false;
  }
  uid_t uid = (uid_t)-1;
  char why[160] = "";
  char line[256];
  if (sock_owner_peer(cfd, &uid, why, sizeof why) != 0) {
    snprintf(line, sizeof line,
             "refusing a connection: cannot tell its user (%s)", why);
    mcphost_log(cli_api(sv->c), MCPHOST_LOG_WARN, "serve", line, NULL);
    return true;
  }
  if (uid != geteuid()) {
    snprintf(line, sizeof line,
             "refusing a connection of uid %u: only uid %u is served",
             (unsigned)uid, (unsigned)geteuid());
    mcphost_log(cli_api(sv->c), MCPHOST_LOG_INFO, "serve", line, NULL);
    return true;
  }
  return false;
}

/* Who the connection is, for CONNS_PER_PEER: the user that owns the
 * peer's socket on loopback (its one budget, whatever the port; "" for
 * the gateway's own user, who has no budget of its own), else its
 * address. */
static void peer_name(srv *sv, int cfd, char *out, size_t n) {
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;
  uid_t uid;
  char why[160];
  snprintf(out, n, "?");
  if (sv->loopback && sock_owner_peer(cfd, &uid, why, sizeof why) == 0) {
    if (uid == geteuid()) {
      out[0] = '\0';
    } else {
      snprintf(out, n, "uid %u", (unsigned)uid);
    }
  } else if (getpeername(cfd, (struct sockaddr *)&ss, &len) == 0) {
    const void *a = ss.ss_family == AF_INET6
                        ? (const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr
                        : (const void *)&((struct sockaddr_in *)&ss)->sin_addr;
    inet_ntop(ss.ss_family, a, out, (socklen_t)n);
  }
}

static size_t peer_conns(const srv *sv, const char *peer) {
  size_t k = 0;
  for (const gw_conn *c = sv->conns; c; c = c->next) {
    k += strcmp(c->peer, peer) == 0;
  }
  return k;
}

/* A peer over CONNS_PER_PEER: told so at once, and closed. */
static void refuse_busy(int cfd) {
  static const char body[] = "too many connections from this client at once\n";
  char msg[256];
  int k = snprintf(msg, sizeof msg,
                   "HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                   "text/plain\r\nContent-Length: %zu\r\nConnection: "
                   "close\r\n\r\n%s",
                   sizeof body - 1, body);
  /* A new connection's send buffer is empty: it fits at once. */
  (void)!write(cfd, msg, (size_t)k);
  shutdown(cfd, SHUT_WR);
  close(cfd);
}

static void on_accept(void *ud, int fd, unsigned events) {
  srv *sv = ud;
  (void)events;
  for (;;) {
    if (sv->nconns >= CONNS_MAX) {
      accepting(sv, false);
      return;
    }
    int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (cfd < 0) {
      if ((errno == EMFILE || errno == ENFILE) && sv->nconns > 0) {
        accepting(sv, false); /* until one of them closes */
      }
      return;
    }
    /* An answer goes out in a few writes: no waiting for the peer's ACK
     * between them. */
    int one = 1;
    setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    gw_conn *cn = xcalloc(1, sizeof *cn);
    cn->s = sv;
    cn->fd = cfd;
    cn->foreign = peer_foreign(sv, cfd);
    peer_name(sv, cfd, cn->peer, sizeof cn->peer);
    if (cn->peer[0] && peer_conns(sv, cn->peer) >= CONNS_PER_PEER) {
      refuse_busy(cfd);
      conn_free_later(cn);
      continue;
    }
    sb_init(&cn->in);
    sb_init(&cn->out);
    cn->events = MCPHOST_FD_READ;
    if (mcphost_watch_fd(cli_api(sv->c), cfd, MCPHOST_FD_READ, on_conn, cn,
                         &cn->w, NULL) != MCPHOST_OK) {
      close(cfd);
      conn_free_later(cn);
      continue;
    }
    cn->next = sv->conns;
    sv->conns = cn;
    sv->nconns++;
    conn_deadline(cn);
  }
}

/* The system's largest listen backlog (net.core.somaxconn): many
 * clients connecting at once wait in it rather than for the retries of
 * a full queue (64 gave about 1 s latency spikes at 200 clients). */
static int listen_backlog(void) {
  int n = 0;
  FILE *f = fopen("/proc/sys/net/core/somaxconn", "re");
  if (f) {
    if (fscanf(f, "%d", &n) != 1) {
      n = 0;
    }
    fclose(f);
  }
  return n > 0 ? n : SOMAXCONN;
}

static int start_listening(srv *sv, char *why, size_t why_len) {
  struct sockaddr_storage ss;
  socklen_t len;
  if (gw_http_parse_listen(sv->o->listen, &ss, &len, &sv->loopback, why,
                           why_len) != 0) {
    return EXIT_USAGE;
  }
  if (!sv->loopback && !sv->token) {
    snprintf(why, why_len,
             "serve --http %s listens beyond this machine: it needs a "
             "token (--token-file FILE or --token)",
             sv->o->listen);
    return EXIT_USAGE;
  }
  sv->fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int one = 1;
  bool bound =
      sv->fd >= 0 &&
      setsockopt(sv->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
      bind(sv->fd, (struct sockaddr *)&ss, len) == 0;
  if (!bound && sv->fd >= 0 &&
      (errno == EADDRINUSE || errno == EADDRNOTAVAIL || errno == EACCES)) {
    /* The address given is the person's to change: a usage error, not
     * a server that failed. */
    snprintf(why, why_len, "serve --http %s: %s", sv->o->listen,
             errno == EADDRINUSE
                 ? "the address is already in use (another process "
                   "listens there): give another port, or 0 for a free one"
             : errno == EADDRNOTAVAIL
                 ? "the address is not one of this machine's"
                 : "not permitted to listen there (a port below 1024 "
                   "needs privileges)");
    return EXIT_USAGE;
  }
  if (!bound || listen(sv->fd, listen_backlog()) != 0 ||
      getsockname(sv->fd, (struct sockaddr *)&ss, &len) != 0) {
    snprintf(why, why_len, "serve --http %s: %s", sv->o->listen,
             strerror(errno));
    return EXIT_SERVER;
  }
  sv->port =
      ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
                                    : ((struct sockaddr_in6 *)&ss)->sin6_port);
  if (mcphost_watch_fd(cli_api(sv->c), sv->fd, MCPHOST_FD_READ, on_accept, sv,
                       &sv->w, NULL) != MCPHOST_OK) {
    snprintf(why, why_len, "serve --http: cannot watch the socket");
    return EXIT_SERVER;
  }
  return EXIT_OK;
}

static uint64_t sweep_period(const srv *sv) {
  return sv->http.idle_ms < SWEEP_MAX_MS ? sv->http.idle_ms : SWEEP_MAX_MS;
}

static void on_sweep(void *ud) {
  srv *sv = ud;
  gw_sessions_expire(&sv->http);
  sv->sweep =
      mcphost_timer_start(cli_api(sv->c), sweep_period(sv), on_sweep, sv);
}

/* One turn of the client's loop, as a program that runs it from its own
 * (MCPHOST_LOOP_CALLER) does: waits at most `wait_ms` for its descriptor
 * or its next timer, then runs what is ready. */
static void run_once(mcphost_client *api, int wait_ms) {
  int t = mcphost_timeout_ms(api);
  struct pollfd p = {.fd = mcphost_fd(api), .events = POLLIN};
  if (poll(&p, 1, t >= 0 && t < wait_ms ? t : wait_ms) < 0 && errno != EINTR) {
    return;
  }
  mcphost_perform(api);
}

/* Whether a connection still has an answer to write. */
static bool conns_unsent(const srv *sv) {
  for (const gw_conn *cn = sv->conns; cn; cn = cn->next) {
    if (!cn->closed && cn->out_off < cn->out.len) {
      return true;
    }
  }
  return false;
}

int gw_http_run(gw_hub *hub, cli *c, const gw_http_opts *o) {
  srv sv = {.http = {.hub = hub, .c = c}, .c = c, .o = o, .fd = -1};
  sv.request_ms = env_ms("MCPHOST_SERVE_REQUEST_MS", REQUEST_MS, false, NULL);
  sv.head_ms = env_ms("MCPHOST_SERVE_HEAD_MS", HEAD_MS, false, NULL);
  sv.evict_ms = env_ms("MCPHOST_SERVE_EVICT_MS", EVICT_IDLE_MS, false, NULL);
  sv.http.idle_ms = env_ms(
      "MCPHOST_SERVE_SESSION_IDLE_MS",
      o->session_idle_ms ? o->session_idle_ms : SESSION_IDLE_MS, false, NULL);
  char why[512] = "";
  bool made = false;
  int rc = EXIT_OK;
  sv.token = gw_http_token(o, &made, why, sizeof why);
  if (!sv.token && why[0]) {
    rc = EXIT_USAGE;
    goto out;
  }
  rc = start_listening(&sv, why, sizeof why);
  if (rc != EXIT_OK) {
    goto out;
  }
  /* The backends first: every initialize is then answered at once, with
   * the capabilities they give together (one that fails is left out; a
   * signal meanwhile ends the run below). */
  gw_hub_connect(hub);
  /* The address (and a new token) for whoever started it. */
  char name[64];
  const char *spec = o->listen;
  size_t hl = (size_t)(strrchr(spec, ':') - spec);
  snprintf(name, sizeof name, "%.*s", (int)hl, spec);
  if (made && o->token_file) {
    fprintf(stderr, "mcphost serve: a new token was written to %s\n",
            o->token_file);
  } else if (made) {
    fprintf(stderr, "mcphost serve: token %s\n", sv.token);
  }
  if (o->no_auth) {
    fprintf(stderr,
            "mcphost serve: warning: --no-auth: every user of this machine "
            "can call these servers' tools as you\n");
  }
  fprintf(stderr, "mcphost serve: listening on http://%s:%u/mcp\n", name,
          sv.port);
  fflush(stderr);
  sv.sweep = mcphost_timer_start(cli_api(c), sweep_period(&sv), on_sweep, &sv);
  int never = 0;
  int run = cli_run_until(c, &never);
  rc = run == -2 ? EXIT_INTERRUPTED : EXIT_OK;
  if (sv.sweep) {
    mcphost_timer_cancel(cli_api(c), sv.sweep);
    sv.sweep = NULL;
  }
  /* Each open request is answered and cancelled at its backend; the
   * answers get STOP_MS to reach the clients that read them. */
  gw_hub_stop(hub, GW_STOPPING);
  uint64_t until = mcphost_now_ms() + STOP_MS;
  for (uint64_t now = mcphost_now_ms(); now < until && conns_unsent(&sv);
       now = mcphost_now_ms()) {
    run_once(cli_api(c), (int)(until - now));
  }
  while (sv.http.sessions) {
    gw_session_free(sv.http.sessions);
  }
out:
  if (rc != EXIT_OK && rc != EXIT_INTERRUPTED) {
    cli_error(c, NULL, "%s", why);
  }
  while (sv.conns) {
    gw_conn_abort(sv.conns);
  }
  if (sv.w) {
    mcphost_unwatch(cli_api(c), sv.w);
  }
  if (sv.fd >= 0) {
    close(sv.fd);
  }
  /* Connections closed above are freed by posted callbacks. */
  mcphost_perform(cli_api(c));
  free(sv.token);
  return rc;
}
