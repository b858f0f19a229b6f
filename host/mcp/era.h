/* The protocol era of a client session: the initialize era (legacy,
 * 2024-11-05 ... 2025-11-25) or the stateless one (modern, 2026-07-28),
 * chosen per server by the "protocol" key of its entry, --protocol, the
 * verdict cached in the state directory (era_cache.h) and, for "auto",
 * a server/discover probe made in place as the connection's first
 * message:
 *
 *   a DiscoverResult naming a version of ours     -> modern
 *   -32022 whose data.supported names one of ours -> probe again with it
 *                                                    (once)
 *   any other answer, or none in PROBE_TIMEOUT_MS -> legacy: initialize
 *                                                    on the same process
 *                                                    or connection
 *   a stdio server that exits on the probe        -> legacy: started once
 *                                                    more, then initialize
 *
 * A modern session sends every request with the _meta envelope
 * (era_add_meta) and no handshake; what the session keeps of the server
 * (capabilities, serverInfo, instructions) comes from server/discover.
 * Loop thread only. */
#ifndef MCPHOST_MCP_ERA_H
#define MCPHOST_MCP_ERA_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "config/config.h"
#include "mcp/jsonrpc.h"
#include "mcp/protocol.h"

struct session;

typedef enum { ERA_UNKNOWN = 0, ERA_LEGACY, ERA_MODERN } mcp_era;

/* How long a stdio probe waits for an answer before initialize (as
 * rmcp; at most half the connect deadline, which covers the probe and
 * initialize together). A silent legacy server pays it once: the verdict
 * is cached. */
#define ERA_PROBE_TIMEOUT_MS 10000

/* "modern", "legacy" or "unknown". Static. */
const char *era_name(mcp_era era);

/* A probe's outcome (era_classify). */
typedef enum {
  PROBE_MODERN, /* *version: the version to speak */
  PROBE_RETRY,  /* -32022 naming a version of ours: *version, once */
  PROBE_LEGACY  /* anything else: initialize */
} probe_verdict;

/* Classifies the answer to server/discover: `result` (success), or the
 * error `err` (RPC_ERR_REMOTE with its code and data). *version is
 * static. Pure: unit-tested alone. */
probe_verdict era_classify(const cJSON *result, const rpc_error *err,
                           const char **version);

/* Starts the session's protocol once its transport has started: the
 * probe, server/discover or initialize, as the policy and the cache
 * say. */
void era_start(struct session *s);

/* The transport ended while the probe was out: true when the session
 * takes it (a stdio server started once more, for initialize), false
 * when the end is the session's to handle as any other. */
bool era_transport_lost(struct session *s);

/* A legacy initialize was answered with -32022 naming a modern version
 * of ours (a modern-only server): true when the session goes on as
 * modern instead (auto only; the cached verdict is dropped). */
bool era_initialize_refused(struct session *s, const rpc_error *err);

/* The legacy handshake succeeded: the verdict is cached (auto only). */
void era_legacy_ready(struct session *s);

/* Keeps beside the legacy verdict (auto only, as the verdict) that the
 * server `who` (its serverInfo, roots_settle.c) asked no roots/list when
 * told initialized, or forgets it (`who` NULL; s->roots_quiet itself may
 * be given); s->roots_quiet follows. Writes the verdict era_legacy_ready
 * left for it (s->era_unsaved) too. */
void era_roots_quiet(struct session *s, const char *who);

/* The message of a -32022 with no version of ours to correct to, into
 * buf: the server's message, then the versions it supports (shown as
 * escapes, text_escape.h) and those mcphost speaks. */
void era_version_refused(const rpc_error *err, char *buf, size_t n);

/* Adds the modern _meta envelope (protocolVersion, clientCapabilities,
 * clientInfo and, when asked, logLevel) to `params`, which may be NULL
 * (a new object is made) and is returned. A legacy session's params
 * are returned unchanged. */
cJSON *era_add_meta(struct session *s, cJSON *params);

/* The session's timers and probe state are dropped (session_free,
 * session_restart). */
void era_reset(struct session *s);

/* Modern: (re)opens the subscriptions/listen stream with what the server
 * offers (tools, prompts and resources list_changed; the resources of
 * s->listen_uris), ending the one open; a lost stream is opened again a
 * second later. Its notifications take the legacy ones' path (features,
 * on_notify). Nothing for a legacy session. */
void era_listen(struct session *s);
/* Modern: resources/subscribe or unsubscribe of `uri` changes the listen
 * stream's resources. */
void era_subscribe(struct session *s, const char *uri, bool on);

#endif
