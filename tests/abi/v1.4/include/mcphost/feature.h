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

typedef struct mcph_server mcph_server;   /* a server connection (host's) */
typedef struct mcph_request mcph_request; /* a request awaiting an answer */

/* on_server events. */
enum mcph_server_event {
  MCPH_SERVER_CONNECTED = 1,   /* initialized; requests may be sent */
  MCPH_SERVER_DISCONNECTED = 2 /* gone; the handle dies after this call */
};

/* The extension a feature plugin returns for MCPH_EXT_FEATURE. */
typedef struct mcph_feature {
  uint32_t struct_size; /* sizeof(mcph_feature) */

  /* Client capabilities to add, as the text of a JSON object merged into
   * initialize's "capabilities", e.g. {"elicitation":{"form":{},"url":{}}}.
   * Called before each connection's handshake. The string is the
   * plugin's and must stay valid until the next call. May be NULL. */
  const char *(*capabilities)(void *plugin_ctx);

  /* Methods of server requests this feature answers, and of
   * notifications it receives: static NULL-terminated lists (may be
   * NULL). The first plugin in search order that names a method gets it. */
  const char *const *requests;
  const char *const *notifications;

  /* A request from `server`. `params_json` is borrowed for the call
   * ("{}" when absent). Answer exactly once, now or later, with the
   * host's respond() or respond_error(); `req` stays valid until then,
   * even if the server disconnects (the answer is then dropped). A
   * non-zero return means "not handled": the host answers with a
   * JSON-RPC internal error carrying err->message, and `req` is dead. */
  int (*on_request)(void *plugin_ctx, mcph_server *server, const char *method,
                    const char *params_json, mcph_request *req,
                    mcph_error *err);

  /* A notification from `server`; `params_json` borrowed ("{}" if
   * absent). May be NULL. */
  void (*on_notification)(void *plugin_ctx, mcph_server *server,
                          const char *method, const char *params_json);

  /* A server connected or disconnected. May be NULL. */
  void (*on_server)(void *plugin_ctx, mcph_server *server, int event);
} mcph_feature;

/* Completion of a request the plugin sent with request(): exactly one of
 * result_json (the JSON-RPC result, borrowed) and err is non-NULL. */
typedef void (*mcph_result_cb)(void *ud, const char *result_json,
                               const mcph_error *err);

/* The host service feature plugins use: get_service(MCPH_SERVICE_FEATURES).
 * Every function: loop thread; strings passed in are borrowed for the
 * call; strings returned are the host's, valid until control returns to
 * the loop. */
typedef struct mcph_host_features {
  uint32_t struct_size; /* sizeof(mcph_host_features) as the host built it */

  /* Answers a server's request with a result (JSON object text), or with
   * a JSON-RPC error. Exactly one per request; afterwards `req` is dead.
   * Returns 0 or MCPH_EINVAL (bad JSON; `req` is still alive). */
  int (*respond)(const mcph_host *host, mcph_request *req,
                 const char *result_json, mcph_error *err);
  int (*respond_error)(const mcph_host *host, mcph_request *req, int code,
                       const char *message);

  /* The configured name of a server, and what it declared at initialize:
   * its capabilities and serverInfo as JSON text ("{}" if none). */
  const char *(*server_name)(const mcph_host *host, const mcph_server *server);
  const char *(*server_capabilities)(const mcph_host *host,
                                     const mcph_server *server);

  /* Sends a notification, or a request whose answer comes to `cb`
   * (timeout_ms 0: the host's default). Returns 0, or an MCPH_E* code
   * (not connected: MCPH_ECLOSED) and then `cb` is not called. */
  int (*notify)(const mcph_host *host, mcph_server *server, const char *method,
                const char *params_json, mcph_error *err);
  int (*request)(const mcph_host *host, mcph_server *server,
                 const char *method, const char *params_json,
                 uint64_t timeout_ms, mcph_result_cb cb, void *ud,
                 mcph_error *err);

  /* The value of a global option the plugin declared (MCPH_EXT_OPTIONS):
   * "--name=value" (or "--name value") from the command line, else the
   * environment variable MCPHOST_OPTION_<NAME> (upper case, '-' as '_');
   * NULL when unset; "" for a flag given without a value. */
  const char *(*option)(const mcph_host *host, const char *name);

  /* Whether a person is at a terminal (stdin and stderr are terminals),
   * so a plugin may ask questions. */
  int (*interactive)(const mcph_host *host);
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
} mcph_options;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_FEATURE_H */
