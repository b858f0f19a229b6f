/*
 * mcphost plugin ABI — the transport extension, id "mcph.transport/1".
 *
 * A transport moves complete JSON-RPC messages (UTF-8 JSON text, one
 * message per call) between the host and one MCP server. It knows nothing
 * of MCP methods: the host parses, matches and interprets every message.
 *
 * Lifecycle of one transport object, all on the loop thread:
 *   create -> start -> send* -> close -> (on_close) -> destroy
 * `on_close` is called exactly once after a successful start: when the
 * peer goes away, when the transport fails, or when a close() finished.
 * After on_close the host calls no function but destroy.
 */
#ifndef MCPHOST_TRANSPORT_H
#define MCPHOST_TRANSPORT_H

#include "abi.h"
#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_EXT_TRANSPORT "mcph.transport/1"
#define MCPH_SERVICE_TRANSPORTS "mcph.host.transports/1"

typedef struct mcph_transport mcph_transport; /* defined by the plugin */

/* (1.6) An HTTP server asked for authorization: what its 401 or 403 said,
 * parsed once by the transport. Every string is borrowed for the call and
 * NULL when absent. */
typedef struct mcph_auth_challenge {
  uint32_t struct_size; /* sizeof(mcph_auth_challenge) as built */
  int status;           /* the HTTP status: 401 or 403 */
  const char *url;      /* the URL that answered, as shown in logs */
  const char *www_authenticate; /* the header's value(s), as received */
  const char *scheme;           /* e.g. "Bearer" (the first challenge) */
  /* Parameters of that challenge (RFC 6750, RFC 9728): */
  const char *realm;
  const char *scope;
  const char *error; /* e.g. "invalid_token", "insufficient_scope" */
  const char *error_description;
  const char *resource_metadata; /* the protected resource metadata URL */
  /* (ABI 1.6, appended; filled by the host, not the transport, in what
   * an auth provider's `challenge` gets, auth.h) The MCP protocol version
   * of the session: the negotiated one, or before negotiation the one it
   * asks for; an auth provider sends it as MCP-Protocol-Version on its
   * discovery requests. NULL when unknown. */
  const char *protocol_version;
} mcph_auth_challenge;

/* (1.6) What kind of connection a type makes. */
enum mcph_transport_flags {
  MCPH_TRANSPORT_LOCAL = 1u << 0, /* a process or socket on this machine */
  MCPH_TRANSPORT_REMOTE = 1u << 1 /* a network service */
};

/* (1.6) Per-type information, one element per type (the last has type
 * NULL). The host connects local servers in larger batches than remote
 * ones, as Claude Code does. */
typedef struct mcph_transport_type_info {
  uint32_t struct_size; /* sizeof(mcph_transport_type_info); all alike */
  const char *type;     /* one of the factory's types; NULL ends the list */
  unsigned flags;       /* enum mcph_transport_flags */
} mcph_transport_type_info;

/* Callbacks into the host, given to create(). [loop]: they run on the
 * loop and must not be called from any other thread (post to it first).
 * Strings are borrowed for the duration of the call. A transport must not
 * call them from inside start(), send() or close(); it defers with a
 * zero-delay timer instead, so the host never re-enters itself. */
typedef struct mcph_transport_events {
  uint32_t struct_size; /* sizeof(mcph_transport_events) */
  void *ud;             /* passed back as the first argument */

  /* [loop] One complete message from the server. `json` is not NUL-terminated
   * in general; `len` bytes are valid. */
  void (*on_message)(void *ud, const char *json, size_t len);

  /* [loop] A problem that does not end the transport: a line that was not JSON,
   * a message over the size cap that was dropped. `code` is an MCPH_E*
   * code. MCPH_ESESSION here means the server started a new session
   * under the host (a reconnected legacy SSE stream): the host runs the
   * initialize handshake again and resends what was pending; since 1.6 a
   * transport calls on_session_reset instead when the host has it.
   * Failures of one message go to on_send_failed instead. */
  void (*on_error)(void *ud, int code, const char *message);

  /* [loop] The transport has ended. `code` is 0 after a close() the host asked
   * for, else an MCPH_E* code; `reason` says why in one or more lines
   * (for a process: its exit status and the tail of its stderr). */
  void (*on_close)(void *ud, int code, const char *reason);

  /* ---- ABI 1.1 ---- (check MCPH_HAS(events, mcph_transport_events,
   * on_send_failed) before calling) */

  /* [loop] A message given to send() was not delivered, or its delivery failed
   * (an HTTP error status, a refused connection for that request, an
   * expired session). `json`/`len` is the message exactly as it was
   * passed to send(), so the host can fail or retry the request it
   * carried. `code`:
   *   MCPH_ESESSION  the server no longer knows the session (HTTP 404 on a
   *                  request that carried a session id); the transport has
   *                  dropped its session id, and the host re-initializes
   *                  and resends;
   *   MCPH_EAUTH     HTTP 401 or 403; `message` includes the status and
   *                  the WWW-Authenticate header's parameters;
   *   any other MCPH_E* code for other failures, with `message` naming the
   *   HTTP status (if any) and the URL.
   * The transport itself stays usable unless it also calls on_close. */
  void (*on_send_failed)(void *ud, int code, const char *message,
                         const char *json, size_t len);

  /* ---- ABI 1.2 ---- (check MCPH_HAS(events, mcph_transport_events,
   * on_message_dropped) before calling) */

  /* [loop] A message from the server was dropped without being delivered
   * (MCPH_ETOOBIG: over the size cap). `head` holds its first bytes (up to
   * 4096, not NUL-terminated), from which the host reads the JSON-RPC id
   * to fail the request it answered at once rather than at its deadline;
   * `total` is the size seen, or 0 if unknown. */
  void (*on_message_dropped)(void *ud, int code, const char *message,
                             const char *head, size_t head_len,
                             size_t total);

  /* ---- ABI 1.6 ---- (check MCPH_HAS before calling each) */

  /* [loop] The server started a new session under the host (a reconnected
   * legacy SSE stream handed out a new endpoint): the host runs the
   * initialize handshake again and resends what was pending. `message`
   * says what happened, for logs. Replaces on_error(MCPH_ESESSION). */
  void (*on_session_reset)(void *ud, const char *message);

  /* [loop] The server answered 401 or 403. Called before the on_send_failed
   * (MCPH_EAUTH) of the message it answered, or for the event stream
   * alone. The host hands it to the auth provider, if there is one
   * (auth.h), which may give a new value to set_authorization. */
  void (*on_auth_required)(void *ud, const mcph_auth_challenge *challenge);

  /* ---- ABI 1.7 ---- (check MCPH_HAS before calling) */

  /* [loop] One complete message, as on_message, in a buffer the host now
   * owns: from malloc(), at least len + 1 bytes (the host may write a NUL
   * at json[len] and change the bytes in place), freed by the host with
   * free(). A large message (a result of megabytes) is then held once:
   * the host parses it in place and writes the answer out of it, instead
   * of copying it out of a buffer the transport reuses. Optional for a
   * transport, for any message; the stdio transport uses it for a line
   * of 64 KiB or more. */
  void (*on_message_owned)(void *ud, char *json, size_t len);
} mcph_transport_events;

/* What create() gets. Borrowed for the duration of create(); copy what
 * must be kept.
 *
 * A composing plugin (mcph.host.transports/1, below) fills it itself for
 * its inner transport: struct_size sizeof(mcph_transport_params); `type`
 * the inner type (required); `server_name` its own server's name, so the
 * inner transport's logs name the server (may be NULL); `config_json`
 * the inner configuration as JSON text (NULL: "{}"), taken as it is: the
 * host expands no ${VAR}, applies no policy, and asks no auth provider
 * for it (the composer expands what it read from its own, already
 * expanded, configuration, and passes an Authorization on with
 * set_authorization); `events` its own callbacks and `ud`, which must
 * stay valid until it destroyed the inner transport, and which the inner
 * transport calls on the loop as it would call the host's (the same
 * rules: never from inside start, send or close). */
typedef struct mcph_transport_params {
  uint32_t struct_size; /* sizeof(mcph_transport_params) */
  const char *type;     /* the configured type, one of the plugin's types */
  const char *server_name; /* the configured server name, for logs */
  /* The server's configuration object as JSON text, with any variable
   * expansion the host does already applied: e.g.
   * {"command":"node","args":["s.js"],"env":{...}, "cwd":"/x"} for stdio,
   * {"url":...,"headers":{...}} for http. */
  const char *config_json;
  const mcph_transport_events *events; /* valid until destroy */
} mcph_transport_params;

typedef struct mcph_transport_factory {
  uint32_t struct_size; /* sizeof(mcph_transport_factory) */

  /* The config types this factory serves, NULL-terminated, static. */
  const char *const *types;

  /* [loop] Creates a transport without doing I/O. Validates the configuration:
   * on a bad field, returns MCPH_EINVAL with a message that names the
   * field. On success sets *out. */
  int (*create)(void *plugin_ctx, const mcph_transport_params *params,
                mcph_transport **out, mcph_error *err);

  /* [loop] Starts connecting (spawning, dialling). Returns 0 when under way;
   * failures found later are reported through on_close. A non-zero return
   * means nothing was started and on_close will not be called. */
  int (*start)(mcph_transport *t, mcph_error *err);

  /* [loop] Queues one message. `json` is borrowed for the call; the transport
   * copies what it keeps. Returns 0, MCPH_ECLOSED after the transport
   * ended or while closing, or another MCPH_E* code. */
  int (*send)(mcph_transport *t, const char *json, size_t len,
              mcph_error *err);

  /* [loop] Starts a graceful close; on_close(code 0) follows when done. Calling
   * it again while it is under way asks it to end sooner (a person pressed
   * Ctrl-C; a transport may ignore it); after on_close it does nothing. */
  void (*close)(mcph_transport *t);

  /* [loop] Frees the transport, in any state: normally after on_close, but also
   * instead of start, after a failed start, or while a close() has not
   * finished (the host gave up waiting): then stop everything at once,
   * killing a process if need be. Never called from inside one of the
   * transport's own callbacks. */
  void (*destroy)(mcph_transport *t);

  /* [loop] Optional (may be NULL): the session id the server assigned, or NULL.
   * Owned by the transport, valid until the next call into it. */
  const char *(*session_id)(mcph_transport *t);

  /* [loop] Optional (may be NULL): the host tells the transport the protocol
   * version negotiated by initialize (e.g. "2025-11-25"); HTTP transports
   * send it as a header. Borrowed for the call. */
  void (*set_protocol_version)(mcph_transport *t, const char *version);

  /* ---- ABI 1.6 ---- (check MCPH_HAS before reading: a factory from
   * mcph.host.transports/1 may be an older plugin's, built shorter) */

  /* [loop] Optional (may be NULL; the host then reports MCPH_ENOTSUP to
   * whoever wanted to set a value, see auth.h): the Authorization header
   * value to send from now on (e.g. "Bearer abc"), replacing a
   * configured one; NULL goes back to the configuration's. Borrowed for
   * the call. Applies to the requests started afterwards (a reconnected
   * event stream too); those under way keep theirs, and a request that
   * was refused is not resent by the transport. Callable at any time
   * between create and destroy, before start and after on_close, and
   * from inside the transport's own callbacks (on_auth_required above
   * all, where an auth provider answers a challenge at once): it only
   * records the value, calls back into nobody and never ends the
   * transport. Returns 0, MCPH_EINVAL for a value that cannot be a
   * header (control bytes; the old value stays), or MCPH_ENOMEM. */
  int (*set_authorization)(mcph_transport *t, const char *value);

  /* Optional (may be NULL): per-type information, static. Without it,
   * the host takes "stdio" as local and every other type as remote. A
   * plugin with a provides list repeats it there (plugin.h). */
  const mcph_transport_type_info *type_info;

  /* ---- ABI 1.6, MCP 2026-07-28 (added at the end: check MCPH_HAS) ---- */

  /* [loop] Optional (may be NULL: the host then sends with send(), and a
   * transport that has no headers needs none): sends one message as
   * send() does, with the request headers the 2026-07-28 era puts on it,
   * worked out by the host from the message: `headers` is `nheaders`
   * pairs, headers[2*i] a name and headers[2*i+1] its value, already
   * encoded as the spec says (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
   * Mcp-Param-*); borrowed for the call. A message sent this way belongs
   * to the stateless era, and an HTTP transport then:
   *   - sends it without Mcp-Session-Id and ignores one its reply sets;
   *     opens no standalone GET for it;
   *   - delivers a 4xx reply (but 401 and 403) whose body is a JSON-RPC
   *     error answering this request with on_message, as the answer it
   *     is; a 4xx without one fails the send with MCPH_ENOTSUP;
   *   - takes a notifications/cancelled as "close the response stream of
   *     params.requestId" and sends nothing for it;
   *   - fails a request whose response stream broke before its response
   *     with on_send_failed(MCPH_ELOST): no resumption in this era.
   * Returns as send(). */
  int (*send_headers)(mcph_transport *t, const char *json, size_t len,
                      const char *const *headers, size_t nheaders,
                      mcph_error *err);
} mcph_transport_factory;

/* (1.6) The host service get_service(MCPH_SERVICE_TRANSPORTS): a plugin
 * creates a transport of another type, served by whichever plugin serves
 * it, to build its own on it (ws-ide over ws, claudeai-proxy over http).
 * The composing plugin drives the inner transport through the returned
 * factory as the host drives any transport (the lifecycle above), and
 * receives its events through params->events, which it supplies. */
typedef struct mcph_host_transports {
  uint32_t struct_size; /* sizeof(mcph_host_transports) as the host built it */

  /* [loop] Creates a transport of params->type with params->config_json
   * (params as described above mcph_transport_params; borrowed for the
   * call). Sets *factory (valid for the host's lifetime) and *out (owned
   * by the caller: start, send, close and destroy it with (*factory)'s
   * functions; the host never touches it, and does not close it at exit:
   * destroy it from the outer transport's destroy). Returns MCPH_OK;
   * MCPH_ENOTFOUND when no plugin serves the type or it cannot be
   * loaded, MCPH_EINVAL when params lacks type or events, the type is
   * the caller's own (a plugin does not compose itself) or the factory
   * refused the configuration (its code, e.g. MCPH_EINVAL naming the
   * field), with the reason in `err` (may be NULL). */
  int (*create)(const mcph_host *host, const mcph_transport_params *params,
                const mcph_transport_factory **factory, mcph_transport **out,
                mcph_error *err);
} mcph_host_transports;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_TRANSPORT_H */
