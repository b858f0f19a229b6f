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

typedef struct mcph_transport mcph_transport; /* defined by the plugin */

/* Callbacks into the host, given to create(). They run on the loop and
 * must not be called from any other thread (post to the loop first).
 * Strings are borrowed for the duration of the call. A transport must not
 * call them from inside start(), send() or close(); it defers with a
 * zero-delay timer instead, so the host never re-enters itself. */
typedef struct mcph_transport_events {
  uint32_t struct_size; /* sizeof(mcph_transport_events) */
  void *ud;             /* passed back as the first argument */

  /* One complete message from the server. `json` is not NUL-terminated
   * in general; `len` bytes are valid. */
  void (*on_message)(void *ud, const char *json, size_t len);

  /* A problem that does not end the transport: a line that was not JSON,
   * a message over the size cap that was dropped. `code` is an MCPH_E*
   * code. MCPH_ESESSION here means the server started a new session
   * under the host (a reconnected legacy SSE stream): the host runs the
   * initialize handshake again and resends what was pending. Failures of
   * one message go to on_send_failed instead. */
  void (*on_error)(void *ud, int code, const char *message);

  /* The transport has ended. `code` is 0 after a close() the host asked
   * for, else an MCPH_E* code; `reason` says why in one or more lines
   * (for a process: its exit status and the tail of its stderr). */
  void (*on_close)(void *ud, int code, const char *reason);

  /* ---- ABI 1.1 ---- (check MCPH_HAS(events, mcph_transport_events,
   * on_send_failed) before calling) */

  /* A message given to send() was not delivered, or its delivery failed
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
} mcph_transport_events;

/* What create() gets. Borrowed for the duration of create(); copy what
 * must be kept. */
typedef struct mcph_transport_params {
  uint32_t struct_size; /* sizeof(mcph_transport_params) */
  const char *type;     /* the configured type, one of the plugin's types */
  const char *server_name; /* the configured server name, for logs */
  /* The server's configuration object as JSON text, with any variable
   * expansion the host does already applied: e.g. {"command":"node","args":["s.js"],"env":{...},
   * "cwd":"/x"} for stdio, {"url":...,"headers":{...}} for http. */
  const char *config_json;
  const mcph_transport_events *events; /* valid until destroy */
} mcph_transport_params;

typedef struct mcph_transport_factory {
  uint32_t struct_size; /* sizeof(mcph_transport_factory) */

  /* The config types this factory serves, NULL-terminated, static. */
  const char *const *types;

  /* Creates a transport without doing I/O. Validates the configuration:
   * on a bad field, returns MCPH_EINVAL with a message that names the
   * field. On success sets *out. */
  int (*create)(void *plugin_ctx, const mcph_transport_params *params,
                mcph_transport **out, mcph_error *err);

  /* Starts connecting (spawning, dialling). Returns 0 when under way;
   * failures found later are reported through on_close. A non-zero return
   * means nothing was started and on_close will not be called. */
  int (*start)(mcph_transport *t, mcph_error *err);

  /* Queues one message. `json` is borrowed for the call; the transport
   * copies what it keeps. Returns 0, MCPH_ECLOSED after the transport
   * ended or while closing, or another MCPH_E* code. */
  int (*send)(mcph_transport *t, const char *json, size_t len,
              mcph_error *err);

  /* Starts a graceful close; on_close(code 0) follows when done. Calling
   * it again, or after on_close, does nothing. */
  void (*close)(mcph_transport *t);

  /* Frees the transport, in any state: normally after on_close, but also
   * instead of start, after a failed start, or while a close() has not
   * finished (the host gave up waiting): then stop everything at once,
   * killing a process if need be. Never called from inside one of the
   * transport's own callbacks. */
  void (*destroy)(mcph_transport *t);

  /* Optional (may be NULL): the session id the server assigned, or NULL.
   * Owned by the transport, valid until the next call into it. */
  const char *(*session_id)(mcph_transport *t);

  /* Optional (may be NULL): the host tells the transport the protocol
   * version negotiated by initialize (e.g. "2025-11-25"); HTTP transports
   * send it as a header. Borrowed for the call. */
  void (*set_protocol_version)(mcph_transport *t, const char *version);
} mcph_transport_factory;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_TRANSPORT_H */
