/* In-process servers: the transport type "sdk" (Claude Code's SDK
 * servers, in C). A program that embeds the client registers a server
 * under a name as a JSON-RPC message handler; a configuration entry
 *
 *   {"type": "sdk"}                  the server registered as the entry's
 *   {"type": "sdk", "name": "calc"}  own name, or as "name" when given
 *
 * resolves through the transport registry, like every other type, to the
 * built-in transport of this file, which connects the session to that
 * server: no process, no pipe, no plugin file. Everything above the
 * transport is the same as for any server: the handshake, names
 * (mcp__server__tool), policy, permissions, sanitizing of what the
 * server sends, results passed on byte-exact.
 *
 * Delivery: both ways a message is copied into a queue and delivered
 * from the loop (a zero-delay timer), in the order sent, never from
 * inside the send that queued it: a server may answer from inside its
 * on_message, and the session never sees its own send come back into
 * it (the transport ABI's rule, transport.h).
 *
 * A server answers every request it gets, -32601 for a method it does
 * not know: the first message of a connection may be server/discover
 * (era.h), and a request nobody answers waits for its deadline.
 *
 * Lifetime rules:
 *   - a server is registered until mcp_inproc_unregister or the client's
 *     end (mcp_client_free), whichever is first;
 *   - at most one connection at a time per server (one session: two
 *     entries naming one server connect one at a time, the second fails
 *     naming the first); each connection starts with the client's first
 *     message and ends with on_close(MCP_INPROC_DISCONNECTED): the
 *     session closed it (shutdown, restart, reconnect) or was freed.
 *     The server keeps no state of one connection for the next;
 *   - mcp_inproc_unregister while connected: the connection ends for the
 *     client as if the server had gone away (its transport closes with
 *     "in-process server ... was unregistered", after the messages the
 *     server sent before it); messages the client sent that were not
 *     delivered yet are dropped; no callback of the server runs from
 *     then on, and the handle is gone when the call returns;
 *   - the client ending first: mcp_client_shutdown closes the connection
 *     (on_close(DISCONNECTED)), and mcp_client_free calls
 *     on_close(MCP_INPROC_RELEASED) once for every server still
 *     registered, its last callback: the handle is gone after it, and
 *     the user data may be freed there;
 *   - a server's callbacks must not shut down or free the client, nor
 *     unregister a server other than their own.
 *
 * Loop thread only: every function here and every callback. Another
 * thread posts to the loop first (loop_post). */
#ifndef MCPHOST_MCP_INPROC_H
#define MCPHOST_MCP_INPROC_H

#include <stdbool.h>
#include <stddef.h>

#include "mcp/client.h"

/* The configuration type this file serves. */
#define MCP_INPROC_TYPE "sdk"

typedef struct mcp_inproc_server mcp_inproc_server; /* opaque */

/* Why on_close runs. */
typedef enum mcp_inproc_end {
  /* The connection ended (the client closed it, or its session was
   * freed). The server stays registered; a new connection may come. */
  MCP_INPROC_DISCONNECTED,
  /* The client is being freed: the server's last callback; the handle
   * is invalid once it returns. */
  MCP_INPROC_RELEASED
} mcp_inproc_end;

typedef struct mcp_inproc_callbacks {
  /* One message the client sent (a request, a notification, or the
   * response to a request of the server's), exactly the bytes the
   * session wrote: `json` is not NUL-terminated, `len` bytes are valid,
   * borrowed for the call. From the loop, never from inside a send. */
  void (*on_message)(void *ud, mcp_inproc_server *srv, const char *json,
                     size_t len);
  /* May be NULL. See the lifetime rules above. */
  void (*on_close)(void *ud, mcp_inproc_server *srv, mcp_inproc_end end);
  void *ud; /* passed back as the first argument */
} mcp_inproc_callbacks;

/* Registers `name` (non-empty; unique on this client) with copies of
 * `cb` (on_message required) and `name`. Returns 0 with *out set;
 * MCPH_EINVAL (a missing callback or name) or MCPH_EBUSY (the name is
 * taken), with the reason in `why` (may be NULL). Whenever: a session
 * that failed for want of the server connects once asked again. */
int mcp_inproc_register(mcp_client *mc, const char *name,
                        const mcp_inproc_callbacks *cb, mcp_inproc_server **out,
                        char *why, size_t why_len);

/* Sends one message to the client: a response, a notification
 * (list_changed, progress, logging...) or a request of the server's own
 * (elicitation/create, sampling/createMessage, roots/list), `len` bytes
 * of JSON text, copied, delivered from the loop and passed on exactly as
 * sent (the session sanitizes what it must, as for any server). Returns
 * 0; MCPH_ECLOSED when no connection is open (or it is closing);
 * MCPH_EINVAL for an empty message. */
int mcp_inproc_send(mcp_inproc_server *srv, const char *json, size_t len);

/* Whether a connection is open (a session started it and has not closed
 * it). */
bool mcp_inproc_connected(const mcp_inproc_server *srv);

/* The registered name (the server's copy). */
const char *mcp_inproc_name(const mcp_inproc_server *srv);

/* Unregisters and frees the server (see the lifetime rules). NULL is
 * fine. */
void mcp_inproc_unregister(mcp_inproc_server *srv);

/* ---- the client's side (client.c) ---- */

/* Binds the type "sdk" to the built-in transport in the host's registry
 * (mcp_client_new, before the plugins load). No allocation but the
 * binding's. */
void mcp_inproc_bind(mcp_client *mc);

/* Every server still registered gets on_close(MCP_INPROC_RELEASED) and
 * is freed (mcp_client_free: the loop may be gone already). */
void mcp_inproc_release(mcp_client *mc);

#endif
