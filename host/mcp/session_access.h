/* What the feature plugins' host side (feature_plugins.c) and the auth
 * providers' (host_auth.c) read and change of a session, without its
 * struct (session.h): they act on connections, the session owns them.
 * Loop thread only. */
#ifndef MCPHOST_MCP_SESSION_ACCESS_H
#define MCPHOST_MCP_SESSION_ACCESS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include <mcphost/mcphost.h>

#include "config/config.h"
#include "core/host.h"
#include "mcp/jsonrpc.h"

typedef struct session session;
struct feature_request;

host *session_host(const session *s);
/* The configured server; its name is session_name's. */
const server_config *session_config(const session *s);
const char *session_name(const session *s);
/* The JSON-RPC engine the session speaks through. */
rpc *session_rpc(const session *s);
/* Initialized (SESS_READY): requests and notifications may go out. */
bool session_is_ready(const session *s);
/* The version initialize agreed, or NULL before it did. */
const char *session_protocol_version(const session *s);
/* What the server declared (capabilities, serverInfo), or NULL. */
const cJSON *session_server_caps(const session *s);
const cJSON *session_server_info(const session *s);
/* The transport's factory and the transport (NULL when none was
 * created). */
const mcph_transport_factory *session_transport_factory(const session *s);
mcph_transport *session_transport(const session *s);
/* The head of the list of server requests feature plugins hold for the
 * session, unanswered (feature_plugins.c keeps it). */
struct feature_request **session_feature_requests(session *s);

#endif
