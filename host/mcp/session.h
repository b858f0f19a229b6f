/* The MCP client session of one server: creates its transport through the
 * registry, runs the initialize handshake, keeps what the server declared,
 * answers the server's requests (ping, roots/list), checks capabilities
 * before sending, and lists with pagination. Loop thread only. */
#ifndef MCPHOST_SESSION_H
#define MCPHOST_SESSION_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "core/host.h"
#include "mcp/jsonrpc.h"

typedef enum {
  SESS_IDLE,       /* not started */
  SESS_CONNECTING, /* transport starting or initialize in flight */
  SESS_READY,      /* initialized */
  SESS_FAILED,     /* could not connect, or lost; see error */
  SESS_CLOSING,    /* close() asked, waiting for the transport */
  SESS_CLOSED
} session_state;

/* What kind of failure, for exit codes and messages. */
typedef enum {
  FAIL_NONE,
  FAIL_CONFIG,      /* the server's configuration is wrong */
  FAIL_UNREACHABLE, /* spawn or connect failed, or the server went away */
  FAIL_PROTOCOL,    /* the server broke the protocol */
  FAIL_TIMEOUT,     /* the server did not answer in time */
  FAIL_AUTH,        /* the server wants authorization (needs-auth) */
  FAIL_INTERRUPTED  /* the user interrupted */
} fail_kind;

typedef struct session session;
typedef void (*session_state_fn)(void *ud, session *s);

struct session {
  host *h;
  const server_config *cfg;
  const mcph_transport_factory *tf;
  mcph_transport *t;
  mcph_transport_events ev;
  bool transport_started, transport_closed;
  rpc *rpc;
  session_state state;
  fail_kind fail;
  char *error;        /* why it failed */
  char *close_reason; /* what the transport said when it ended */
  char *protocol_version;
  cJSON *server_caps; /* as declared by the server */
  cJSON *server_info;
  char *instructions;
  uint64_t connect_started_ms, connected_ms;
  uint64_t connect_timeout_ms;
  int64_t init_id;       /* the initialize request in flight, or 0 */
  bool reinitializing;   /* the session expired; initialize is redone */
  bool auth_pending;     /* the auth provider is getting a new value */
  unsigned reinit_count; /* how often the session was re-initialized */
  /* Resilience (see session_restart): */
  bool auto_reconnect;         /* reconnect by itself after a crash */
  bool ever_ready;             /* was connected at least once */
  unsigned reconnect_attempts; /* since the last successful connect */
  loop_timer *reconnect_timer;
  unsigned consecutive_errors; /* requests failed in a row (breaker) */
  bool tripped;                /* the breaker closed it: no auto reconnect */
  session_state_fn on_state; /* called on every state change */
  void *on_state_ud;
  /* Notifications from the server, after the session's own handling
   * (logging, list_changed): for a caller that wants resources/updated,
   * list_changed and the like. May be NULL. */
  void (*on_notify)(void *ud, session *s, const char *method,
                    const cJSON *params);
  void *on_notify_ud;
  /* A request from the server (not ping) a front end may take before
   * the session and the feature plugins answer it: returns true when it
   * took it (it answers with session_answer, now or later). `origin`:
   * the id session_request returned for the request it belongs to (an
   * input_required round's, or the one whose progressToken the server's
   * request carries in its _meta), 0 when nothing ties it to one. May
   * be NULL. */
  bool (*on_request)(void *ud, session *s, const char *method,
                     const cJSON *params, const cJSON *id, int64_t origin);
  void *on_request_ud;
  /* Capabilities added to initialize's (owned, or NULL); the core's
   * roots win, then these, then the feature plugins'. */
  cJSON *extra_caps;
  char *log_level;   /* sent with logging/setLevel once connected, or NULL */
  FILE *server_log;  /* <logs>/<name>.log: the server's log messages */
  /* it could not be opened: said once, not tried again */
  bool server_log_failed;
  struct feature_request *feature_requests; /* unanswered, held by plugins */
  /* input_required inputs offered to the front end (mrtr.c). */
  struct mrtr_offer *mrtr_offers;
  unsigned long mrtr_next;
  char *caps_text;   /* server_caps as text, for plugins */
  /* The roots/list "roots" array this server is offered (owned, roots.h);
   * NULL: the roots capability is not declared. Set with
   * session_set_roots. */
  cJSON *roots;
  bool roots_declared; /* the initialize in use declared roots */
  /* roots_settle.h: requests held until the server had its roots. */
  bool roots_hold;
  bool roots_asked;        /* it asked roots/list during the hold */
  bool roots_read;         /* the ping after our answer is out */
  uint64_t roots_ping_ms;  /* when it was sent */
  loop_timer *roots_timer; /* the settle after the answer */
  /* The serverInfo ("name\nversion") the era cache says asked no
   * roots/list when told initialized (era_cache.h), or NULL; and whether
   * the hold was left out for it this time. */
  char *roots_quiet;
  bool roots_skipped;
  /* The legacy verdict found at this connect waits for the hold's end,
   * to be written once with the roots verdict (era_legacy_ready). */
  bool era_unsaved;
  /* The MCP spec's backwards compatibility: a server whose type was not
   * given (a "url" without "type", --url without --transport) that
   * answers the initialize POST with a 4xx is tried with the legacy
   * HTTP+SSE transport on the same URL. */
  bool legacy_sse;            /* it is: the session runs on "sse" */
  char *http_failure;         /* why streamable HTTP failed, for the hint */
  loop_timer *fallback_timer; /* the switch, out of the transport's call */
  /* A connection whose transport ended on the 401 the auth provider took
   * up (the sse stream's GET, the ws upgrade) connects again, once, when
   * the provider got a new value: from this timer, out of its call. */
  loop_timer *auth_timer;
  bool auth_reconnected;  /* it did (once per session) */
  bool auth_reconnecting; /* the old initialize is being dropped */
  /* The protocol era (era.h): */
  int era;                  /* mcp_era: what this connection speaks */
  char *protocol_override;  /* --protocol (auto, modern, legacy), or NULL */
  int64_t probe_id;         /* the server/discover probe in flight, or 0 */
  loop_timer *probe_timer;  /* its deadline (auto) */
  bool probe_retried;       /* the -32022 correction was made */
  bool probe_respawned;     /* a stdio server that exited on it restarted */
  bool era_from_cache;      /* legacy as the state directory said */
  loop_timer *respawn_timer; /* the restart, out of the transport's call */
  bool probe_not_modern;    /* the transport said: no modern answer (4xx) */
  /* Modern over HTTP: tool name -> its x-mcp-header list (era_headers.h),
   * or the reason it was left out (a string), from the last tools/list;
   * NULL before one. Owned. */
  cJSON *tool_headers;
  bool prelisting; /* a tools/list for the headers, calls held meanwhile */
  /* Modern: the subscriptions/listen stream (era_listen), or 0; the URIs
   * of resources/subscribe it carries (owned array, or NULL). */
  int64_t listen_id;
  cJSON *listen_uris;
  loop_timer *listen_timer; /* listening again after the stream was lost */
  /* When the current stream began (loop_now_ms) and the wait before the
   * next: 1 s, doubled up to 30 s while streams end soon after they
   * begin (a server that closes each at once is not asked every second),
   * back to 1 s after one that lasted. */
  uint64_t listen_since;
  unsigned listen_delay_ms;
  /* Modern: the last tools/list's cache hint (ttlMs, the smallest of its
   * pages; 0 when a page had none), or -1 (legacy: none). */
  int64_t tools_ttl_ms;
  /* Modern: the requests between two MRTR rounds (their inputs being
   * gathered, or a paced round), which nothing in flight stands for:
   * session_cancel ends them here. */
  struct req_wrap *between_rounds;
};

session *session_new(host *h, const server_config *cfg);
/* Frees the session; the transport must be closed (or never started). */
void session_free(session *s);

/* The transport type the session runs on: the configured one, or "sse"
 * after the fallback. */
const char *session_type(const session *s);
/* The MCP session id the server gave the transport (Mcp-Session-Id), or
 * NULL: none, or a transport without sessions. */
const char *session_mcp_session_id(const session *s);

/* Starts connecting; the outcome arrives through on_state. */
void session_connect(session *s, uint64_t timeout_ms);
/* Starts a graceful close; state becomes SESS_CLOSED when done. */
void session_close(session *s);
/* A close under way should end sooner (a person pressed Ctrl-C): the
 * transport's close() asked again (a stdio server gets SIGINT then, not
 * the rest of its time to exit). Nothing when it is not closing. */
void session_hurry(session *s);
/* The auth provider set a new Authorization value (`new_value`) or gave
 * up: what was held for it since its challenge goes out again, once; a
 * connection whose transport ended on that challenge connects again with
 * the new value (once), or fails. */
void session_auth_settled(session *s, bool new_value);
bool session_is_settled(const session *s); /* ready, failed or closed */

/* Connects a failed session again with a new transport (a respawn for
 * stdio). Pending requests have already failed. */
void session_restart(session *s);
/* True while a failed session waits to reconnect by itself. */
bool session_will_reconnect(const session *s);

/* Reconnection policy: after a terminal transport error a session that
 * had connected retries up to BACKOFF_MAX_ATTEMPTS times, waiting 1 s,
 * doubling up to 30 s (backoff.h). After BREAKER_ERRORS requests fail in a row
 * (timeouts or transport errors, not JSON-RPC errors), the connection is
 * closed and the server marked unavailable until its next use. */
#define BREAKER_ERRORS 3

/* Whether the server declared a capability ("tools", "resources", ...). */
bool session_has_capability(const session *s, const char *cap);

/* Sends a request after checking readiness and the capability the method
 * needs. Returns the request id, or -1 with `why` filled (and `done` not
 * called). */
int64_t session_request(session *s, const char *method, cJSON *params,
                        const rpc_request_opts *opts, rpc_done_fn done,
                        char *why, size_t why_len);

/* Cancels the request session_request returned `id` for, whatever it is
 * doing: in flight (rpc_cancel: the server is told, under its current
 * id) or, in 2026-07-28, between two input_required rounds (nothing is
 * at the server then: the inputs still being gathered are dismissed and
 * no round is sent again). Its `done` gets RPC_ERR_CANCELLED. Unknown
 * ids are ignored. */
void session_cancel(session *s, int64_t id, const char *reason);

/* Lists every item of `method` (e.g. "tools/list", key "tools"),
 * following nextCursor to the end. `done` gets a new array the callee owns
 * (NULL on error, with `error` set); it may run before this returns. A
 * server that did not declare the method's capability, or answers its
 * first page with -32601 (method not found), has an empty list. */
typedef void (*session_list_fn)(void *ud, session *s, cJSON *items,
                                const char *error);
int session_list(session *s, const char *method, const char *key,
                 uint64_t timeout_ms, session_list_fn done, void *ud);

const char *session_state_name(const session *s);

/* Answers the server's request `id` (one on_request took): `result`
 * (taken), or when NULL the JSON-RPC error `code`, `message` and `data`
 * (borrowed, may be NULL). Dropped when the connection is gone. */
void session_answer(session *s, const cJSON *id, cJSON *result, int code,
                    const char *message, const cJSON *data);

/* Gives the session its roots (a roots/list "roots" array; taken; NULL:
 * none, and the capability is not declared at the next initialize).
 * Connected with the capability declared, a changed set is announced
 * with notifications/roots/list_changed and the server asks again.
 * Returns 0; 1 when the set changed but this connection cannot be told
 * (it was initialized without the capability: the new set applies from
 * the next connect); -1 when `roots` is not an array. */
int session_set_roots(session *s, cJSON *roots);

/* ---- for era.c (the protocol era of the session) ---- */

/* Fails the session (the first reason is kept), closing its transport. */
void session_fail(session *s, fail_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sends initialize (the legacy handshake) on the started transport. */
void session_send_initialize(session *s);
/* What is left of the connect deadline (session_connect's timeout, from
 * its start), at least 1; 0 when there is no deadline. */
uint64_t session_connect_left_ms(const session *s);
/* The modern connect succeeded: the session is ready. */
void session_ready(session *s);
/* The capabilities this client declares to the server: a new object. */
cJSON *session_client_capabilities(session *s);
/* Starts the transport anew (a stdio server that exited on the probe)
 * and connects it again; the era is legacy then. */
void session_respawn(session *s);

#endif
