/* The public API's functions for a front end that serves the configured
 * servers to clients of its own, as the gateway does
 * (sdk/include/mcphost/client.h, "the gateway"). */
#include <mcphost/client.h>

#include "api/api_internal.h"
#include "core/host.h"
#include "mcp/error.h"

_Static_assert((int)MCPHOST_LOG_ERROR == (int)MCPH_LOG_ERROR &&
                   (int)MCPHOST_LOG_TRACE == (int)MCPH_LOG_TRACE,
               "the public levels are the host's");

int mcphost_log(mcphost_client *c, int level, const char *source,
                const char *message, mcphost_error *err) {
  api_clear_error(err);
  if (!c || !message) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_log needs a client and a message");
  }
  if (level < MCPHOST_LOG_ERROR || level > MCPHOST_LOG_TRACE) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_log: unknown level %d (MCPHOST_LOG_ERROR .. "
                    "MCPHOST_LOG_TRACE)",
                    level);
  }
  host_log(c->h, level, source, "%s", message);
  return MCPHOST_OK;
}

const char *mcphost_status_kind(int code) {
  static const mcp_error_kind kinds[] = {
      MCP_ERR_NONE,     MCP_ERR_USAGE,   MCP_ERR_SERVER,
      MCP_ERR_PROTOCOL, MCP_ERR_TIMEOUT, MCP_ERR_NOT_FOUND,
      MCP_ERR_AUTH,     MCP_ERR_DENIED,  MCP_ERR_INTERRUPTED};
  /* MCPHOST_OK 0 .. MCPHOST_ECANCELED -8, in the order of the kinds. */
  if (code > 0 || code < MCPHOST_ECANCELED)
    return mcp_error_kind_name(MCP_ERR_SERVER);
  return mcp_error_kind_name(kinds[-code]);
}
