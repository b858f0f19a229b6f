/*
 * mcphost plugin ABI — feature plugins.
 *
 * A feature adds client capabilities to every connection, answers the
 * requests servers send to the client (e.g. "elicitation/create") and
 * receives their notifications (e.g. "notifications/claude/channel"). The
 * host knows nothing of what a feature does: it merges the capabilities
 * into initialize, routes the methods the feature names, and offers the
 * services below. All JSON crosses the boundary as text; a plugin parses
 * it with its own JSON library.
 *
 * Threads: everything on the loop thread.
 */
#ifndef MCPHOST_FEATURE_H
#define MCPHOST_FEATURE_H

#include "abi.h"
#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_EXT_FEATURE "mcph.feature/1"
#define MCPH_SERVICE_FEATURES "mcph.host.features/1"
#define MCPH_EXT_OPTIONS "mcph.options/1"

typedef struct mcph_server mcph_server; /* a server connection (host's) */
/* mcph_request, a request awaiting an answer, is declared in abi.h. */

/* on_server events. */
enum mcph_server_event {
  MCPH_SERVER_CONNECTED = 1,   /* initialized; requests may be sent */
  MCPH_SERVER_DISCONNECTED = 2, /* gone; the handle dies after this call */
  /* (1.5) a connection attempt failed and will not be retried; sent only
   * to plugins built against ABI 1.5 or later */
  MCPH_SERVER_FAILED = 3
};

/* The extension a feature plugin returns for MCPH_EXT_FEATURE. */
typedef struct mcph_feature {
  uint32_t struct_size; /* sizeof(mcph_feature) */

  /* [loop] Client capabilities to add, as the text of a JSON object merged into
   * initialize's "capabilities", e.g. {"elicitation":{"form":{},"url":{}}}.
   * Called before each connection's handshake. The string is the
   * plugin's and must stay valid until the next call. May be NULL. */
  const char *(*capabilities)(void *plugin_ctx);

  /* Methods of server requests this feature answers, and of
   * notifications it receives: static NULL-terminated lists (may be
   * NULL). The first plugin in search order that names a method gets it. */
  const char *const *requests;
  const char *const *notifications;

  /* [loop] A request from `server`. `params_json` is borrowed for the call
   * ("{}" when absent). Answer exactly once, now (inside this call) or
   * later, with the host's respond(), respond_error() or
   * respond_error_data() (abi.h, "Answering a pending request"): the
   * answer is the JSON-RPC result or error sent to the server. `req`
   * stays valid until then, even if the server disconnects or withdraws
   * it (the answer is then dropped). A non-zero return means "not
   * handled" (and nothing was answered): the host answers with a
   * JSON-RPC internal error carrying err->message, and `req` is dead. */
  int (*on_request)(void *plugin_ctx, mcph_server *server, const char *method,
                    const char *params_json, mcph_request *req,
                    mcph_error *err);

  /* [loop] A notification from `server`; `params_json` borrowed ("{}" if
   * absent). May be NULL. */
  void (*on_notification)(void *plugin_ctx, mcph_server *server,
                          const char *method, const char *params_json);

  /* [loop] A server connected or disconnected. May be NULL. */
  void (*on_server)(void *plugin_ctx, mcph_server *server, int event);
  /* ---- ABI 1.5 ---- */
  /* [loop] A line about `server` for `mcphost servers -v` (e.g. whether this
   * feature admitted it and why not), or NULL. The server may be
   * connected or not (it failed). The string is the plugin's, valid until
   * the next call. May be NULL. */
  const char *(*describe)(void *plugin_ctx, const mcph_server *server);
  /* [loop] The server withdrew `req` (notifications/cancelled): stop working on
   * it (close the prompt, abort the hook). The plugin still answers it
   * once as usual, and `req` lives until then; the host does not send
   * that answer. May be NULL. */
  void (*on_cancelled)(void *plugin_ctx, mcph_server *server,
                       mcph_request *req);
} mcph_feature;

/* [loop] Completion of a request the plugin sent with request(): exactly
 * one of result_json (the JSON-RPC result, borrowed) and err is non-NULL.
 * Since 1.6, a JSON-RPC error from the server comes as MCPH_EPROTO with
 * its code and data in err->rpc_code and err->rpc_data (abi.h); check
 * MCPH_HAS(err, mcph_error, rpc_data) before reading them, as an older
 * host builds a shorter struct. */
typedef void (*mcph_result_cb)(void *ud, const char *result_json,
                               const mcph_error *err);

/* The host service feature plugins use: get_service(MCPH_SERVICE_FEATURES).
 * Every function: [loop]; strings passed in are borrowed for the call;
 * strings returned are the host's, valid until control returns to the
 * loop (abi.h; since 1.6 that holds for server_capabilities too, which
 * before lived only until its next call). */
typedef struct mcph_host_features {
  uint32_t struct_size; /* sizeof(mcph_host_features) as the host built it */

  /* [loop] The one way to answer a pending request (abi.h): a feature's
   * server request, and since 1.6 a permission question
   * (permission.h) and a server source's listing (server_source.h).
   * respond answers with a result, `result_json` a JSON object (its
   * meaning is the request's: for a server request the JSON-RPC result);
   * respond_error with a JSON-RPC error `code` (MCPH_RPC_*, rpc.h) and
   * `message` (NULL: "error"). Exactly one answer per request; afterwards
   * `req` is dead. Call them with the table of the plugin the request was
   * handed to. respond returns MCPH_OK; MCPH_EINVAL when result_json is
   * not a JSON object, or not an answer the request takes (then `req`
   * is still alive: answer again); MCPH_EDENIED through another plugin's
   * table. respond_error returns MCPH_OK or MCPH_EDENIED. */
  int (*respond)(const mcph_host *host, mcph_request *req,
                 const char *result_json, mcph_error *err);
  int (*respond_error)(const mcph_host *host, mcph_request *req, int code,
                       const char *message);

  /* [loop] The configured name of a server, and what it declared at initialize:
   * its capabilities and serverInfo as JSON text ("{}" if none). */
  const char *(*server_name)(const mcph_host *host, const mcph_server *server);
  const char *(*server_capabilities)(const mcph_host *host,
                                     const mcph_server *server);

  /* [loop] Sends a notification, or a request whose answer comes to `cb`
   * (timeout_ms 0: the host's default). Returns 0, or an MCPH_E* code
   * (not connected: MCPH_ECLOSED) and then `cb` is not called. */
  int (*notify)(const mcph_host *host, mcph_server *server, const char *method,
                const char *params_json, mcph_error *err);
  int (*request)(const mcph_host *host, mcph_server *server,
                 const char *method, const char *params_json,
                 uint64_t timeout_ms, mcph_result_cb cb, void *ud,
                 mcph_error *err);

  /* [loop] The value of a global option the plugin declared (MCPH_EXT_OPTIONS):
   * "--name=value" (or "--name value") from the command line, else the
   * environment variable MCPHOST_OPTION_<NAME> (upper case, '-' as '_');
   * NULL when unset; "" for a flag given without a value. */
  const char *(*option)(const mcph_host *host, const char *name);

  /* [loop] The same answer as the UI service's interactive() (ui.h), the
   * one way to ask whether a person is at a terminal; kept here for the
   * 1.x plugins that ask it through this table. */
  int (*interactive)(const mcph_host *host);

  /* ---- ABI 1.6 ---- */
  /* [loop] The serverInfo the server sent at initialize, as JSON text
   * ("{}" if none), and the protocol version negotiated (e.g.
   * "2025-11-25"; NULL before the handshake). */
  const char *(*server_info)(const mcph_host *host, const mcph_server *server);
  const char *(*protocol_version)(const mcph_host *host,
                                  const mcph_server *server);
  /* [loop] respond_error with the error's `data` (JSON text of any JSON
   * value, borrowed; NULL for none), as the JSON-RPC error object's
   * "data" member. The same rules as respond_error; also MCPH_EINVAL
   * when data_json is not JSON: then `req` is still alive and nothing
   * was sent. `code` is sent as given (the host does not check it
   * against rpc.h). For a permission question or a listing, the data is
   * not used. */
  int (*respond_error_data)(const mcph_host *host, mcph_request *req,
                            int code, const char *message,
                            const char *data_json, mcph_error *err);
  /* [loop] Whether `req`, a server request handed to this plugin and not
   * answered yet, came while a call of this client to that server waits
   * for its answer (tools/call, prompts/get, resources/read,
   * completion/complete, tasks/get, tasks/result), or belongs to one (a
   * 2026-07-28 input_required round): 1, else 0. A server that asks
   * outside any call (during a list, or unprompted) asks for itself.
   * Check MCPH_HAS(svc, mcph_host_features, in_call) before calling: a
   * host without it does not tell. */
  int (*in_call)(const mcph_host *host, const mcph_request *req);
} mcph_host_features;

/* Global command-line options a plugin declares (MCPH_EXT_OPTIONS). The
 * host adds them as --name[=VALUE] and shows them in --help. */
typedef struct mcph_option {
  const char *name; /* without "--"; e.g. "elicitation" */
  const char *arg;  /* the value's name for --help, or NULL for a flag */
  const char *help; /* one line */
} mcph_option;

typedef struct mcph_options {
  uint32_t struct_size; /* sizeof(mcph_options) */
  const mcph_option *options;
  size_t count;

  /* ---- ABI 1.8 ---- */
  /* sizeof(mcph_option) as the plugin built it: the distance between two
   * elements of `options`, so that mcph_option can grow at its end like
   * every struct led by struct_size. 0 (or a plugin built before 1.8):
   * the 1.7 element, MCPH_OPTION_SIZE_1_7. A reader steps through the
   * array with mcph_options_at() and checks a field appended to
   * mcph_option later against option_size, as MCPH_HAS does against
   * struct_size. A value below MCPH_OPTION_SIZE_1_7 is refused: the host
   * then takes none of the plugin's options and says so. */
  size_t option_size;
} mcph_options;

/* The size of an mcph_option as ABI 1.7 and earlier had it. */
#define MCPH_OPTION_SIZE_1_7 (3 * sizeof(const char *))

/* [any thread] The stride of `o`'s array: its option_size, or the 1.7
 * size for a table without one; 0 when option_size is too small to hold
 * an element (a broken table: use none of it). */
static inline size_t mcph_options_stride(const mcph_options *o) {
  if (!MCPH_HAS(o, mcph_options, option_size) || o->option_size == 0) {
    return MCPH_OPTION_SIZE_1_7;
  }
  return o->option_size >= MCPH_OPTION_SIZE_1_7 ? o->option_size : 0;
}

/* [any thread] Element `i` (< o->count) of `o`'s array, stepping by
 * mcph_options_stride() (which must not be 0). */
static inline const mcph_option *mcph_options_at(const mcph_options *o,
                                                 size_t i) {
  return (const mcph_option *)(const void *)((const char *)(const void *)
                                                 o->options +
                                             i * mcph_options_stride(o));
}

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_FEATURE_H */
