/* mcphost serve: the gateway, one MCP server in front of the configured
 * ones (docs/gateway.md). serve.c owns the gateway's clients, their
 * requests in flight, the methods and what is forwarded, whatever the
 * framing; serve_cmd.c the command; serve_channel.c the JSON-RPC lines
 * on stdin and stdout (--stdio); serve_http*.c the streamable HTTP
 * server (--http); serve_items.c turns a backend's items into the
 * gateway's (names, descriptions, the IDE rule) and finds the backend of
 * a name or URI; serve_mrtr*.c put a backend's questions to a 2026-07-28
 * client as input_required rounds (serve_internal.h). Loop thread
 * only. */
#ifndef MCPHOST_CLI_SERVE_H
#define MCPHOST_CLI_SERVE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/frontend.h"
#include "util.h"

/* The backends the gateway fronts and how it names their items. */
typedef struct gw_backends {
  cli *c;
  size_t *idx; /* config indexes (owned) */
  size_t n;
  /* --passthrough: one backend, its names as they are. */
  bool passthrough;
  /* Per backend: the resources and template prefixes last listed (for
   * resources/read), owned. */
  cJSON **resources;
} gw_backends;

/* The list kinds the gateway aggregates: "tools", "resources",
 * "resourceTemplates", "prompts". */
/* Appends server `k`'s (a backend's position) items of `kind` from a
 * list result `listed` to `out`, as the gateway's client sees them:
 * tools and prompts named mcp__<server>__<item> (mcphost_name_assign, as
 * `tools` prints) unless passthrough, descriptions cut to the limit, IDE
 * tools a model may not see left out. Resources are remembered for
 * gw_resource_server. */
void gw_items_add(gw_backends *b, size_t k, const char *kind,
                  const cJSON *listed, cJSON *out);
/* The bit of a list kind ("tools", "resourceTemplates", ...) or of its
 * notifications/.../list_changed; resources and their templates share
 * one (one notification covers both); 0 for anything else. */
unsigned gw_list_bit(const char *kind_or_method);
/* Config index `idx`'s state (mcphost_server_get; its `type` the
 * client's), all zero when it cannot be read. */
mcphost_server_state gw_state(const cli *c, size_t idx);
/* The backend position of config index `idx`, or -1 when it is not one
 * of the gateway's. */
long gw_backend_of(const gw_backends *b, size_t idx);
/* The backend (position) that serves `uri`: the one that listed it, else
 * one whose template's literal prefix it starts with, else the only
 * backend that declared resources; -1. */
long gw_resource_server(const gw_backends *b, const char *uri);
void gw_backends_free(gw_backends *b);

/* ---- serve.c: the gateway, whatever carries its messages ---- */

/* The gateway: its backends and its clients. */
typedef struct gw_hub gw_hub;
/* One client of the gateway (the stdio one, or an HTTP session): its
 * initialize, its requests in flight, the questions put to it. */
typedef struct gw gw;

/* How a framing hands a message (taken) to its client. `req` (borrowed)
 * is the id of the client's request the message belongs to (its answer,
 * its progress, a question asked for it), or NULL (list_changed,
 * logging): streamable HTTP sends it on that request's stream. */
typedef void (*gw_send_fn)(void *ud, cJSON *msg, const cJSON *req);

/* The gateway over the backends `b` (its contents taken, `b` zeroed):
 * backends kept connected and restarted after a crash, their
 * notifications and state changes passed to every client. */
gw_hub *gw_hub_new(cli *c, gw_backends *b);
/* Connects every backend (mcp_client_connect: each within its connect
 * deadline, one that fails left out). */
void gw_hub_connect(gw_hub *hub);
/* The gateway stops: every client's open request is answered with an
 * error saying `why` (data.kind "interrupted") and its operation
 * cancelled at its backend. What they send is written by the loop. */
void gw_hub_stop(gw_hub *hub, const char *why);
/* Its `why` on a signal. */
#define GW_STOPPING                                                            \
  "the gateway is stopping (a signal): the request was cancelled"
/* Frees every client (gw_client_free), then the gateway. */
void gw_hub_free(gw_hub *hub);

/* A new client whose messages go out through send(ud, ...). */
gw *gw_client_new(gw_hub *hub, gw_send_fn send, void *ud);
/* One JSON-RPC message from the client (`len` bytes, not necessarily
 * NUL-terminated): answered through send, now or later. */
void gw_client_message(gw *g, const char *json, size_t len);
/* The client sends nothing more: what is in flight is still answered,
 * the questions waiting for it are refused with `why`; drained(ud) is
 * called once nothing is in flight (maybe before this returns). */
void gw_client_end_input(gw *g, const char *why, void (*drained)(void *ud));
/* Inside its send: whether the message is the gateway's own answer to a
 * method it does not have (-32601 of its own, not a backend's). */
bool gw_client_no_method(const gw *g);
/* The client is gone: its requests are cancelled (the backends' too)
 * without an answer, its questions refused, and `g` freed. */
void gw_client_free(gw *g);

/* ---- serve_modern.c: the 2026-07-28 client's side ---- */

/* Whether a request's params carry the modern envelope (_meta's
 * protocolVersion). */
bool gw_modern_asks(const cJSON *params);
/* Checks a modern request's envelope: 0, or a JSON-RPC error code with
 * `why` (static) and `data` (new, or NULL) for its answer. */
int gw_modern_check(const cJSON *params, const char **why, cJSON **data);
/* The rank of a request's _meta logLevel, or -1 when it has none: its
 * backend's notifications/message at that level or above go to it. */
int gw_modern_request_log_level(const cJSON *params);
/* Adds what a modern result carries: resultType, the server's identity
 * in _meta and, when `cacheable` (discover, lists, reads), ttlMs and
 * cacheScope. */
void gw_modern_result(cJSON *result, bool cacheable);
/* server/discover's result (new): both eras' versions, `caps` (copied),
 * `instructions` (or NULL). */
cJSON *gw_modern_discover(const cJSON *caps, const char *instructions);
/* The filter a subscriptions/listen honours (new), or NULL when its
 * params have no "notifications" object. */
cJSON *gw_modern_listen_filter(const cJSON *params);
/* Whether notification `method` (with `params`) passes `filter`. */
bool gw_modern_listen_wants(const cJSON *filter, const char *method,
                            const cJSON *params);
/* A copy of `params` (or {}) with _meta's subscriptionId `listen_id`. */
cJSON *gw_modern_tagged(const cJSON *params, const cJSON *listen_id);

/* ---- serve_mrtr_state.c: the requestState tokens ---- */

#define GW_STATE_KEY 32
#define GW_STATE_NONCE 16
/* A new random key: 0, or -1 when the system has no randomness. */
int gw_state_key(unsigned char key[GW_STATE_KEY]);
/* A new token (free()) for a new random `nonce` (filled), signed with
 * `key`; NULL when libcrypto cannot be loaded or randomness fails. */
char *gw_state_make(const unsigned char key[GW_STATE_KEY],
                    unsigned char nonce[GW_STATE_NONCE]);
/* Whether `token` is one gw_state_make made with `key`; its nonce in
 * `nonce` when it is. */
bool gw_state_check(const unsigned char key[GW_STATE_KEY], const char *token,
                    unsigned char nonce[GW_STATE_NONCE]);

/* ---- serve_http.c: --http, streamable HTTP (2025-11-25) ---- */

typedef struct gw_http_opts {
  const char *listen;     /* --http HOST:PORT (port 0: any free one) */
  const char *token_file; /* --token-file F, or NULL */
  bool new_token;         /* --token: a new token, printed on stderr */
  const char **origins;   /* --allow-origin ORIGIN... (borrowed) */
  size_t norigins;
  uint64_t session_idle_ms; /* --session-idle SECONDS, or 0: the default */
  bool no_auth; /* --no-auth: a loopback gateway without a token serves
                   every local user, not only its own */
} gw_http_opts;
/* Serves `hub` over streamable HTTP on o->listen until a signal: one
 * session (gw_client) per client. Says the address it listens on (and a
 * new token) on stderr. Returns the command's exit code. */
int gw_http_run(gw_hub *hub, cli *c, const gw_http_opts *o);

/* serve_channel.c: the channel to the client, JSON-RPC lines on stdin
 * and stdout. The caller fills c, on_line, on_eof and ud. */
typedef struct gw_chan {
  cli *c;
  /* A line (without its newline), borrowed for the call. */
  void (*on_line)(void *ud, const char *line, size_t len);
  /* The input ended, or the output failed (`broken`): once. */
  void (*on_eof)(void *ud);
  void *ud;
  strbuf in, out; /* unparsed input; output the client has not taken */
  size_t out_off;
  mcphost_watch *in_watch, *out_watch;
  int out_flags; /* stdout's flags before O_NONBLOCK, or -1 */
  bool eof;      /* stdin ended */
  bool broken;   /* stdout failed: the client is gone */
} gw_chan;
/* Starts reading stdin on the loop (a regular file is read at once). */
void gw_chan_open(gw_chan *ch);
/* Sends `msg` (taken) as one line; dropped when the channel is broken. */
void gw_chan_send(gw_chan *ch, cJSON *msg);
/* Stops reading, writes what waits (blocking), restores stdout. */
void gw_chan_close(gw_chan *ch);
/* A new message with "jsonrpc": "2.0", to fill and send. */
cJSON *gw_msg_new(void);
/* A new JSON-RPC error answering `id` (NULL: null). `message` may quote
 * a server or an HTTP peer: redacted. `data` is taken. */
cJSON *gw_msg_error(const cJSON *id, int code, const char *message,
                    cJSON *data);

#endif
