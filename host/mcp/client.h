/* mcp_client: the MCP client of the host library. It owns one session per
 * configured server (h->cfg.servers, created on first use), connects them
 * through one queue (remote servers first; at most 3 local and 20 remote
 * connects at once, as Claude Code does: MCP_SERVER_CONNECTION_BATCH_SIZE
 * and MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE), keeps them (reconnecting
 * after a crash when asked, connecting again after the circuit breaker
 * closed one), caches each server's tool list, offers plugins the
 * "mcph.host.servers/1" service, and closes everything at the end. The
 * calls a front end makes go through calls.h. It never prints: what goes
 * wrong reaches the caller as an mcp_error (error.h). Loop thread only. */
#ifndef MCPHOST_MCP_CLIENT_H
#define MCPHOST_MCP_CLIENT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/host.h"
#include "util.h"
#include "mcp/error.h"

typedef struct mcp_client mcp_client;
/* A server's connection (mcp/session.h, private to the library): front
 * ends hold it only as a handle and read it through mcp_client_status. */
typedef struct session session;

/* The deadlines' defaults, each restarted at a progress notification. */
#define MCP_CONNECT_TIMEOUT_MS 30000
#define MCP_REQUEST_TIMEOUT_MS 60000
#define MCP_TOOL_TIMEOUT_MS 600000

typedef struct mcp_client_options {
  uint64_t connect_timeout_ms; /* each connect's initialize deadline */
  uint64_t request_timeout_ms; /* lists, reads, prompts */
  uint64_t tool_timeout_ms;    /* tools/call */
  /* Each deadline given by the user (--timeout, MCP_TOOL_TIMEOUT,
   * MCPHOST_REQUEST_TIMEOUT) is a hard total, as Claude Code's; a
   * default one restarts at each progress notification instead (a long
   * call that reports progress lives). */
  bool tool_timeout_total;
  bool request_timeout_total;
  const char *log_level;       /* sent with logging/setLevel, or NULL */
  /* roots.h: --root directories (resolved), or none at all. */
  const char *const *root_dirs;
  size_t nroot_dirs;
  bool no_roots;
  size_t name_chars; /* names.h: the longest mcp__ name */
  /* A long-lived front end: sessions reconnect by themselves after a
   * crash (session.h's policy). */
  bool keep;
  /* How long a stdio server may take to exit once its stdin is closed
   * (MCPHOST_STDIO_EXIT_MS, read by the stdio transport too): the close
   * at the end waits that long and for the SIGTERM and SIGKILL after. */
  uint64_t server_exit_ms;
  /* How long a tool list resolves names (ms); it is also dropped on
   * notifications/tools/list_changed and when the connection ends. */
  uint64_t list_cache_ttl_ms;
  /* Capabilities every new connection declares beside the core's and
   * the feature plugins' (a front end that answers the servers' own
   * requests, mcp_client_on_request); borrowed, copied per session. */
  const cJSON *capabilities;
  /* --protocol: "auto", "modern" or "legacy" for every server, over
   * their "protocol" keys (era.h); NULL: each entry's own. */
  const char *protocol;
} mcp_client_options;

/* A plugin command's run (mcph.command/1): the servers service's finish()
 * sets it, called through the table of the plugin that owns the command
 * (a finish through another plugin's table is refused). Allocated by the
 * front end that starts the command. */
struct mcph_run {
  const struct plugin *owner; /* the plugin whose command this is */
  bool done;
  int rc;
  /* Called on the loop once finish() set done and rc; may be NULL. */
  void (*on_finish)(void *ud);
  void *ud;
  /* What the run keeps for the plugin (NULL-terminated, freed with it),
   * or NULL. */
  char **words;
  struct mcph_run *next; /* the client's runs (mcp_client_new_run) */
};

/* A new client of `h`, offering "mcph.host.servers/1" (before the plugins
 * load: their init may look it up). Default options: the environment's
 * timeouts are the front end's business; these are 30 s, 60 s, 10 min. */
mcp_client *mcp_client_new(host *h);
/* Copies the options; the strings and arrays are borrowed for the
 * client's life. Sessions already created keep their settings. */
void mcp_client_set_options(mcp_client *mc, const mcp_client_options *o);
const mcp_client_options *mcp_client_get_options(const mcp_client *mc);
host *mcp_client_host(const mcp_client *mc);
/* Ends every operation still running as interrupted (calls.h: each
 * `done` runs). */
void mcp_client_cancel_all(mcp_client *mc);
/* Ends what still runs (mcp_client_cancel_all), closes every session
 * gracefully (a stdio server's time to exit, server_exit_ms, then
 * SIGTERM and SIGKILL; a Ctrl-C before or during the wait hurries it
 * but does not skip it) and frees them; the servers service then
 * connects nothing. Before host_free. */
void mcp_client_shutdown(mcp_client *mc);
/* Frees the client, after host_free (plugins may ask the servers service
 * until they are gone). NULL is fine. */
void mcp_client_free(mcp_client *mc);
/* A new run of a command of `owner` (mcph.command/1), zeroed: the
 * client's, freed by mcp_client_free, after the host, so a plugin that
 * finishes late never writes into freed memory. */
struct mcph_run *mcp_client_new_run(mcp_client *mc, const struct plugin *owner);

/* The session of config entry `idx`, created (idle) when there is none. */
session *mcp_client_session(mcp_client *mc, size_t idx);
/* The session of config entry `idx`, or NULL when it was never used. */
session *mcp_client_peek(const mcp_client *mc, size_t idx);
/* Number of config entries the client has slots for (h->cfg.nservers at
 * the first use). */
size_t mcp_client_nservers(const mcp_client *mc);
/* Whether the client holds per-entry state (slots indexed by the current
 * configuration): a configuration read again must not replace it then
 * (mcph.host.config/1). */
bool mcp_client_holds_config(const mcp_client *mc);

/* Queues connects of the given config indexes and runs the loop until
 * each is connected or failed (a Ctrl-C fails the unsettled ones as
 * interrupted). Returns the number connected. */
size_t mcp_client_connect(mcp_client *mc, const size_t *idx, size_t n);
size_t mcp_client_connect_all(mcp_client *mc);

/* Waiting for a server to be usable: connected on first use, connected
 * again after a loss or the breaker. `ready` runs once, from the loop or
 * from inside mcp_client_use, with the session READY or settled in
 * failure (its `fail` and `error` say why). Owned by the caller; it must
 * stay valid until `ready` ran or mcp_client_unwait. */
typedef struct mcp_waiter {
  void (*ready)(struct mcp_waiter *w, session *s);
  size_t idx;
  struct mcp_waiter *next;
  bool waiting;
} mcp_waiter;
void mcp_client_use(mcp_client *mc, size_t idx, mcp_waiter *w);
/* A person asked to connect server `idx` again now: a live connection is
 * closed first, one waiting for its next attempt makes it at once, one
 * that gave up tries again (and has its attempts again: session.h's
 * policy), one never used connects. The outcome, as for any connect,
 * comes to mcp_client_connect's and mcp_client_use's waiters. */
void mcp_client_reconnect(mcp_client *mc, size_t idx);
void mcp_client_unwait(mcp_client *mc, mcp_waiter *w);

/* Notifications every session passes on after its own handling (the
 * client drops a tool list on tools/list_changed first), with the config
 * index of the server that sent it. NULL: none. */
typedef void (*mcp_notify_fn)(void *ud, size_t idx, const char *method,
                              const cJSON *params);
void mcp_client_on_notify(mcp_client *mc, mcp_notify_fn fn, void *ud);

/* Every state change of a server's connection (connecting, ready,
 * failed, closed, reconnecting), with its config index: a long-lived
 * front end reads mcp_client_status to tell its own clients that what a
 * server offers came or went. Runs before the client's own handling of
 * the change. NULL: none. */
typedef void (*mcp_state_fn)(void *ud, size_t idx);
void mcp_client_on_state(mcp_client *mc, mcp_state_fn fn, void *ud);

/* A server's own request (elicitation/create, roots/list,
 * sampling/createMessage...; not ping), with its config index, offered
 * to the front end before the library and the feature plugins: return
 * true to take it and answer with mcp_client_answer (now or later);
 * false: it is answered as without the hook. `op`: the operation it
 * belongs to (the one whose input_required round asked it, or whose
 * progressToken a legacy server's request names), NULL when nothing
 * ties it to one. `params`, `id` and `op` are borrowed for the call.
 * NULL: none. */
struct mcp_op;
typedef bool (*mcp_request_fn)(void *ud, size_t idx, const char *method,
                               const cJSON *params, const cJSON *id,
                               const struct mcp_op *op);
void mcp_client_on_request(mcp_client *mc, mcp_request_fn fn, void *ud);
/* Answers server `idx`'s request `id` that the hook took: `result`
 * (taken), or when NULL the JSON-RPC error `code`, `message`, `data`
 * (borrowed, may be NULL). Dropped when that connection is gone. */
void mcp_client_answer(mcp_client *mc, size_t idx, const cJSON *id,
                       cJSON *result, int code, const char *message,
                       const cJSON *data);

/* Gives the servers (`only` < 0: every one) new roots (a roots/list
 * "roots" array, borrowed): their next connections use them, and the
 * connected ones are told. */
void mcp_client_set_roots(mcp_client *mc, long only, const cJSON *roots);

/* What a front end may know of the connection of config entry `idx`:
 * filled by mcp_client_status. The strings and trees are borrowed from
 * the session until it changes state (the next loop turn at the
 * earliest). */
typedef struct mcp_server_status {
  bool used;   /* a session exists (false: never connected: "idle", the
                  configured type, failure SERVER, the rest zero) */
  bool ready;  /* initialized and usable */
  const char *state; /* "idle", "connecting", "connected", "failed", ... */
  const char *type;  /* the transport type that serves it */
  const char *error; /* why it failed or went away, or NULL */
  mcp_error_kind failure; /* the kind of that failure, NONE when ready */
  const char *protocol_version; /* negotiated; NULL before initialize */
  const char *era;              /* "modern", "legacy" or "unknown" */
  const cJSON *server_info;     /* initialize's serverInfo, or NULL */
  const cJSON *capabilities;    /* the server's capabilities, or NULL */
  const char *instructions;     /* initialize's instructions, or NULL */
} mcp_server_status;
/* Fills *out for config entry `idx` (zeroed when it was never used).
 * Returns out->used. */
bool mcp_client_status(const mcp_client *mc, size_t idx,
                       mcp_server_status *out);
/* Whether a connected server declared capability `cap` ("tools",
 * "resources", "prompts", ...); false when not connected. */
bool mcp_client_has_capability(const mcp_client *mc, size_t idx,
                               const char *cap);
/* The MCP session id (Mcp-Session-Id) server `idx` gave this client, or
 * NULL: not connected, or no session (stdio, ws, 2026-07-28). */
const char *mcp_client_session_id(const mcp_client *mc, size_t idx);
/* Each feature plugin's line about server `idx` (`mcphost servers -v`):
 * note(ud, plugin_id, line), both borrowed for the call. Nothing when
 * the server was never used. */
typedef void (*mcp_note_fn)(void *ud, const char *plugin_id,
                            const char *line);
void mcp_client_describe(mcp_client *mc, size_t idx, mcp_note_fn note,
                         void *ud);

/* Index of a configured server by name (exact, then as it appears in an
 * mcp__ name: normalized, shortened); -1. */
long mcp_client_find_server(const mcp_client *mc, const char *name);
/* Appends " (did you mean ...)" to `out` with the configured servers'
 * names closest to `name` (suggest.h); nothing when none is close. */
void mcp_client_suggest_servers(const mcp_client *mc, const char *name,
                                strbuf *out);
/* Parses a tool or prompt reference ("mcp__SERVER__NAME" or
 * "SERVER/NAME"; `what` is "tool" or "prompt") to a configured server's
 * index and the item part (*item: a new string; normalized when
 * *qualified). Returns 0, or -1 with `err` set (USAGE, NOT_FOUND). */
int mcp_client_resolve_ref(const mcp_client *mc, const char *ref,
                           const char *what, size_t *server_idx, char **item,
                           bool *qualified, mcp_error *err);

/* ---- for calls.c ---- */
/* The cached tool list of server `idx` (borrowed until the next loop
 * turn), or NULL when there is none or it is older than the TTL. */
const cJSON *mcp_client_cached_tools(mcp_client *mc, size_t idx);
/* Lists server `idx`'s tools (READY) unless a fresh list is cached;
 * one listing serves every waiter. `w->ready` runs once the list is
 * there (mcp_client_cached_tools) or failed (mcp_client_tools_error). */
void mcp_client_want_tools(mcp_client *mc, size_t idx, mcp_waiter *w);
/* Why the last listing of server `idx` failed (borrowed), or NULL. */
const char *mcp_client_tools_error(const mcp_client *mc, size_t idx);
/* Live operations (calls.c), cancelled as interrupted at the end. */
struct mcp_op;
void mcp_client_track(mcp_client *mc, struct mcp_op *op);
void mcp_client_untrack(mcp_client *mc, struct mcp_op *op);

#endif
