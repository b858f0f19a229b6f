/* The transport type "claudeai-proxy": a claude.ai connector reached
 * through Anthropic's MCP proxy, composed over the http transport
 * (mcph.host.transports/1) rather than written again.
 *
 * Life of one transport: create() builds the http transport's
 * configuration, {MCPHOST_CLAUDEAI_PROXY_URL, default
 * https://mcp-proxy.anthropic.com}/v1/mcp/<id percent-encoded as a path
 * segment> with the header X-Mcp-Client-Session-Id (one random id per
 * mcphost run), and creates it by type; every call and event passes
 * through, except for the Authorization and its 401s:
 *   - the value is the claude.ai token (the host sets it from this
 *     plugin's auth provider before start), looked at again before each
 *     message is sent (creds.h: a stat, a read only when the file
 *     changed), so a token Claude Code rotated is used at once;
 *   - the token each message went out with is remembered; on its 401 the
 *     credentials file is read again (mtime-checked), and the message is
 *     sent once more only when the stored token differs from the one it
 *     carried, and only once; otherwise the 401 goes up to the host
 *     (needs-auth, exit 7) saying "run `claude` to refresh your
 *     claude.ai login". The token is never refreshed nor written here.
 * Session expiry (404) is the http transport's, reported as for http.
 * Loop thread. */
#ifndef MCPHOST_CLAUDEAI_PROXY_H
#define MCPHOST_CLAUDEAI_PROXY_H

#include <mcphost/mcphost.h>

#include "creds.h"

/* What every transport of the plugin shares: the host's table, the
 * credentials reading and the run's session id. Borrowed for the
 * plugin's lifetime. */
typedef struct proxy_shared {
  const mcph_host *host;
  creds *creds;
  const char *session_id;
} proxy_shared;

/* The factory ("claudeai-proxy"). */
extern const mcph_transport_factory proxy_factory;

/* The plugin's shared part, from the plugin context create() gets
 * (plugin.c). */
proxy_shared *proxy_shared_of(void *plugin_ctx);

#endif
