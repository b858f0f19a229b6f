/* What the parts of the session (session.h) call of each other; not for
 * anything else, which uses session.h. The parts:
 *   session.c            state, failure, connect, close, reconnect, free
 *   session_transport.c  the transport's events (messages, close, send
 *                        failures, authorization, the legacy SSE fallback)
 *   session_rpc.c        JSON-RPC to and from the server: sending, the
 *                        server's requests and notifications, its log
 *                        file, what comes in sanitized, roots
 *   session_handshake.c  initialize (and again when the session expired)
 *   session_request.c    requests: capabilities, the circuit breaker,
 *                        2026-07-28's input_required rounds, cancel
 *   session_list.c       paginated lists, and the tool list that calls
 *                        over HTTP in 2026-07-28 need first (headers) */
#ifndef MCPHOST_MCP_SESSION_INTERNAL_H
#define MCPHOST_MCP_SESSION_INTERNAL_H

#include "mcp/session.h"

/* session.c: the state changes, with what follows from each (reconnect,
 * the feature plugins' server events, on_state). */
void session_set_state(session *s, session_state st);

/* session_transport.c: the transport events a session gives its
 * transport (session_new). */
mcph_transport_events session_transport_events(session *s);

/* session_rpc.c: the JSON-RPC handlers of a session's rpc (session_new). */
rpc_handlers session_rpc_handlers(session *s);

/* session_handshake.c: initialize again while what was sent is held (the
 * server forgot our session), then send it once more. */
void session_reinitialize(session *s);

/* session_request.c: the capability a method needs, or NULL when none
 * is needed. */
const char *session_needed_capability(const char *method);
/* session_request.c: the connection is gone: so are the input_required
 * rounds still to be sent. */
void session_between_fail_all(session *s, rpc_status status,
                              const char *message);

/* session_list.c: tools/list for the tools' headers, calls held
 * meanwhile; from `cursor` (NULL: the first page). */
void session_prelist(session *s, const char *cursor, unsigned page);
/* session_list.c: NULL, or why a tools/call must not be sent (its tool
 * was left out). */
const char *session_call_refused(session *s, const char *method,
                                 const cJSON *params);

#endif
