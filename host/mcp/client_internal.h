/* The client's state, shared by client.c, servers_service.c and calls.c
 * (not for front ends: they use client.h and calls.h). */
#ifndef MCPHOST_MCP_CLIENT_INTERNAL_H
#define MCPHOST_MCP_CLIENT_INTERNAL_H

#include "core/loop.h"
#include "core/plugins.h"
#include "mcp/client.h"
#include "mcp/session.h"

/* One configured server. */
typedef struct client_slot {
  session *s;           /* NULL until first used */
  bool queued, running; /* in the connect queue; counted as connecting */
  bool connecting;      /* waiters wait for the connect's outcome */
  mcp_waiter *waiting;  /* for the connect (prepended) */
  /* Set while a connection the breaker closed is still shutting down:
   * the waiters connect again once it has. */
  bool restart_when_closed;
  loop_timer *restart;
  cJSON *tools;      /* cached tools/list of this connection, or NULL */
  uint64_t tools_at; /* when it was listed */
  /* The item of `tools` that a name found last (mcp_op_find_named):
   * calls name the same tool again and again. Cleared with `tools`.
   * With what a call reads of it: its name, inputSchema and
   * execution.taskSupport (mcp_tool_task_support's). */
  const cJSON *found;
  char *found_name;
  bool found_qualified;
  const char *found_real, *found_support;
  const cJSON *found_schema;
  /* The server's part of mcp__ names (names.h), made when first needed:
   * the configuration stays while the client holds slots. */
  char *part;
  size_t part_len;
  bool listing;
  char *tools_error;         /* why the last listing failed, or NULL */
  mcp_waiter *waiting_tools; /* for the listing (prepended) */
  cJSON *roots; /* roots given with mcp_client_set_roots, or NULL */
} client_slot;

/* The mcp__ reference that resolved last (mcp_client_resolve_ref): its
 * server and where its item part starts. Made with the slots, as valid
 * as they are (the configuration stays while they exist). */
typedef struct ref_memo {
  char *ref;
  long server;
  size_t rest;
} ref_memo;

struct mcp_client {
  host *h;
  mcp_client_options opt;
  client_slot *slots;
  size_t nslots;
  ref_memo *last_ref;
  /* The connect queue: config indexes in the order queued. */
  size_t *pending, npending;
  size_t running_local, running_remote;
  size_t local_limit, remote_limit;
  bool starting, start_again;
  mcp_notify_fn notify;
  void *notify_ud;
  mcp_state_fn state_changed;
  void *state_changed_ud;
  mcp_request_fn request;
  void *request_ud;
  struct mcp_op *ops; /* live operations (calls.c) */
  bool shut;          /* mcp_client_shutdown ran: no new sessions */
  /* In-process servers (inproc.h): those registered, and the record
   * the registry binds the type "sdk" to. */
  struct mcp_inproc_server *inproc;
  plugin inproc_builtin;
  struct mcph_run *runs; /* the plugin commands' (mcp_client_new_run) */
};

/* error.c: the error kinds of what the library sees (error.h). */
/* The kind of a session that failed to connect or went away. */
mcp_error_kind mcp_error_kind_of_session(const struct session *s);
/* The kind of a failed request on `s`: a JSON-RPC error that says the
 * tool, prompt or resource does not exist is NOT_FOUND (-32002, or
 * -32602 whose message says "not found" or "unknown tool|prompt" and
 * names `item` when given); another JSON-RPC error is PROTOCOL. */
mcp_error_kind mcp_error_kind_of_rpc(const struct session *s, rpc_status status,
                                     int code, const char *message,
                                     const char *item);
/* host_hooks.c: what the client's layer adds to `h` (core/host.h's
 * host_hooks: the feature and auth services, their collection and
 * release, the reload guard). */
void mcp_client_set_host_hooks(host *h);
/* servers_service.c */
void mcp_client_offer_servers_service(mcp_client *mc);
/* Queues a connect of config entry `idx` (idle sessions only). */
void mcp_client_queue_connect(mcp_client *mc, size_t idx);

/* calls.c */
void mcp_op_link(struct mcp_op **list, struct mcp_op *op);
void mcp_op_unlink(struct mcp_op **list, struct mcp_op *op);
/* Ends every live operation as interrupted (its done callback runs). */
void mcp_ops_cancel_all(mcp_client *mc);
/* The live operation whose request in flight on `s` is the one
 * session_request returned `id` for, or NULL. */
struct mcp_op *mcp_op_of_request(mcp_client *mc, const struct session *s,
                                 int64_t id);
/* notifications/elicitation/complete from `s` for `id`: a call that
 * waits for that URL elicitation (-32042) is sent again once all of its
 * elicitations are complete. */
void mcp_ops_elicitation_complete(mcp_client *mc, const struct session *s,
                                  const char *id);

#endif
