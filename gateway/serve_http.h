/* The gateway's HTTP server, inside (serve.h has what the command
 * uses): serve_http.c the connections, HTTP/1.1 and the routes;
 * serve_http_session.c the sessions and their resumable streams;
 * serve_http_guard.c the listening address, the token and the Origin and
 * Host checks. Loop thread only. */
#ifndef MCPHOST_CLI_SERVE_HTTP_H
#define MCPHOST_CLI_SERVE_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "gateway/serve.h"
#include "util.h"

/* ---- serve_http_guard.c ---- */

/* Parses --http's "HOST:PORT" ("[::1]:PORT" for IPv6; "localhost" is
 * 127.0.0.1) into `ss`; `*loopback` when only this machine can reach
 * it. Returns 0, or -1 with `why` filled. */
int gw_http_parse_listen(const char *spec, struct sockaddr_storage *ss,
                         socklen_t *len, bool *loopback, char *why,
                         size_t why_len);
/* The token the clients must send (a new string; free with free()), or
 * NULL with `why` filled on an error, or NULL with why[0] == 0 when
 * there is none. --token-file F: F's first line, F owned by the user and
 * not readable by others; a missing F gets a new token (mode 0600).
 * --token: a new one. `*made` when it is new (the caller prints it). */
char *gw_http_token(const gw_http_opts *o, bool *made, char *why,
                    size_t why_len);
/* Whether "Authorization: <value>" carries "Bearer <token>" (compared
 * in constant time). */
bool gw_http_token_ok(const char *value, const char *token);
/* Whether a request's Origin may reach the gateway: none, a loopback
 * origin (http or https, any port), or one given with --allow-origin. */
bool gw_http_origin_ok(const char *origin, const gw_http_opts *o);
/* Whether a request's Host names the gateway: a loopback name (with the
 * listening port, or none) when it listens on loopback; anything when
 * it listens beyond (the token guards it). */
bool gw_http_host_ok(const char *host, bool loopback, unsigned port);
/* `n` random bytes as 2n hex digits into `out` (2n + 1 bytes). Returns
 * 0 or -1. */
int gw_http_random_hex(char *out, size_t n);

/* ---- serve_http_session.c ---- */

typedef struct gw_conn gw_conn;
typedef struct gw_http gw_http;
typedef struct gw_session gw_session;
typedef struct gw_stream gw_stream;

/* What the sessions need of a connection (serve_http.c). */
/* Starts an SSE response on `cn` (status 200, text/event-stream, the
 * session's id) carrying `st`, after which gw_conn_write sends its
 * events; when the connection closes, gw_session_conn_gone(st, ...). */
void gw_conn_start_sse(gw_conn *cn, gw_stream *st, const char *session_id);
/* Queues `n` bytes on `cn`; a connection whose client does not read
 * beyond the cap is closed (its stream kept for resumption). */
void gw_conn_write(gw_conn *cn, const char *data, size_t n);
/* The response ends: the connection closes once what waits is out. */
void gw_conn_finish(gw_conn *cn);
/* Closes `cn` now, without telling its stream (the session's end). */
void gw_conn_abort(gw_conn *cn);
/* Answers `cn` with a complete response. `body` may be NULL. */
void gw_conn_respond(gw_conn *cn, int status, const char *ctype,
                     const char *extra_headers, const char *body);

gw_session *gw_session_new(gw_http *h, gw_hub *hub);
gw_session *gw_session_find(gw_http *h, const char *id);
const char *gw_session_id(const gw_session *s);
/* Ends the session: its client's requests cancelled, its streams'
 * connections closed, freed. */
void gw_session_free(gw_session *s);
size_t gw_session_count(const gw_http *h);
/* Ends every session idle for h->idle_ms: no request for that long, none
 * in flight and no stream open (its id answers 404 afterwards). */
void gw_sessions_expire(gw_http *h);
/* Ends the session idle the longest to make room for a new one, if it
 * has been idle `floor_ms` at least; false when none has. */
bool gw_sessions_evict(gw_http *h, uint64_t floor_ms);
/* A POST's JSON-RPC message (`msg` parsed from `body`). A request is
 * answered on `cn` (JSON when its answer is ready at once, else an SSE
 * stream); a notification or a response gets 202. */
void gw_session_post(gw_session *s, gw_conn *cn, const cJSON *msg,
                     const char *body, size_t len);
/* A GET: the standalone stream, or with `last_event_id` the stream it
 * names, replayed after that event. */
void gw_session_get(gw_session *s, gw_conn *cn, const char *last_event_id);
/* The connection of `st` closed; `delivered`: after everything it was
 * given went out. A stream not delivered stays for resumption. */
void gw_session_conn_gone(gw_stream *st, bool delivered);

/* The server as the sessions see it. */
struct gw_http {
  gw_hub *hub;
  gw_session *sessions;
  size_t session_count;
  uint64_t idle_ms; /* a session idle this long ends */
  cli *c;
};

/* `gone(ud)` is called when `cn` closes; a connection carrying a
 * session's stream tells the session instead. Set, it also says that
 * `cn` owes the request it read last an answer: it reads no other and
 * has no deadline until gw_conn_on_gone(cn, NULL, NULL) after that
 * answer (or until gw_conn_start_sse). False, and nothing changed, when
 * another callback is set. */
bool gw_conn_on_gone(gw_conn *cn, void (*gone)(void *ud), void *ud);

/* ---- serve_http_modern.c: a 2026-07-28 client, without a session ---- */

/* The headers of a modern POST (borrowed; NULL when absent). */
typedef struct gw_modern_headers {
  const char *version; /* MCP-Protocol-Version */
  const char *method;  /* Mcp-Method */
  const char *name;    /* Mcp-Name */
} gw_modern_headers;
/* A POST's message `msg` (parsed from `body`) from a modern client:
 * checked against the headers (400 with -32020, -32022 or -32602), then
 * served by a client of its own, answered on `cn`; a notification gets
 * 202. */
void gw_modern_post(gw_http *h, gw_conn *cn, const cJSON *msg,
                    const gw_modern_headers *hd, const char *body, size_t len);

#endif
