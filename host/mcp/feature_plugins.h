/* Feature plugins, host side: which plugin answers which server request
 * or notification, the capabilities they add to initialize, and the
 * mcph.host.features/1 service they call back into. Loop thread only. */
#ifndef MCPHOST_MCP_FEATURE_PLUGINS_H
#define MCPHOST_MCP_FEATURE_PLUGINS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include <mcphost/mcphost.h>

struct host;
struct session;

/* Finds the feature extensions of the loaded plugins (in search order). */
void features_collect(struct host *h);
void features_free(struct host *h);

/* Adds every feature's capabilities to an initialize "capabilities"
 * object; a key already present (the core's, or an earlier plugin's)
 * wins. A plugin's invalid JSON is logged and skipped. */
void features_add_capabilities(struct host *h, cJSON *caps);

/* Hands a server request to the feature that answers `method`. Returns
 * false when none does (the caller answers "method not found"). */
bool features_request(struct session *s, const char *method,
                      const cJSON *params, const cJSON *id);
/* The answer to a request the host asked a feature itself: `result` (the
 * callee may not keep it) or a JSON-RPC error `code` and `message`. */
typedef void (*features_answer_fn)(void *ud, const cJSON *result, int code,
                                   const char *message);
/* Asks the feature that answers `method` as if `s` had sent the request
 * (the host uses it to run the elicitations of a -32042 error). Returns
 * false when no feature answers it; else `done` is called once, maybe
 * before this returns. */
bool features_local_request(struct session *s, const char *method,
                            const cJSON *params, features_answer_fn done,
                            void *ud);
/* The host withdraws the request it asked with `done` and `ud`
 * (features_local_request): its feature is told (on_cancelled) as if a
 * server had cancelled it, and still answers it once, to `done`. */
void features_local_cancel(struct session *s, features_answer_fn done,
                           void *ud);
/* Hands a notification to the feature that wants it. */
void features_notify(struct session *s, const char *method,
                     const cJSON *params);
/* Tells every feature that `s` connected, went away or failed for good
 * (MCPH_SERVER_FAILED only to plugins built against ABI 1.5 or later). */
void features_server_event(struct session *s, int event);
/* Collects each feature's line about `s` for `mcphost servers -v`:
 * note(ud, plugin_id, line) for each feature that has one. */
typedef void (*features_note_fn)(void *ud, const char *plugin_id,
                                 const char *line);
void features_describe(struct session *s, features_note_fn note, void *ud);
/* The server sent notifications/cancelled: if it names a request a
 * feature holds, that feature is told (on_cancelled) and its answer will
 * not be sent. */
void features_cancelled(struct session *s, const cJSON *params);
/* The connection is gone (failed, closing, closed): the requests features
 * hold for it no longer hold its deadlines, and their answers are
 * dropped. */
void features_connection_lost(struct session *s);
/* The session is being freed: requests still unanswered are orphaned
 * (their later answers are dropped). */
void features_session_gone(struct session *s);

/* The service table handed out by get_service(MCPH_SERVICE_FEATURES). */
const mcph_host_features *features_service(void);


#endif
