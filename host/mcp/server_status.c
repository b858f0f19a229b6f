/* What a front end may read of a server's connection (client.h): the
 * session's state, handshake and failure, without its struct. */
#include <string.h>

#include "mcp/feature_plugins.h"
#include "mcp/client_internal.h"
#include "mcp/era.h"

bool mcp_client_status(const mcp_client *mc, size_t idx,
                       mcp_server_status *out) {
  memset(out, 0, sizeof *out);
  const session *s = mcp_client_peek(mc, idx);
  if (!s) {
    out->state = "idle";
    out->failure = MCP_ERR_SERVER;
    if (idx < mc->h->cfg.nservers) {
      out->type = mc->h->cfg.servers[idx].type;
    }
    return false;
  }
  out->used = true;
  out->ready = s->state == SESS_READY;
  out->state = session_state_name(s);
  out->type = session_type(s);
  out->error = s->error;
  out->failure = out->ready ? MCP_ERR_NONE : mcp_error_kind_of_session(s);
  out->protocol_version = s->protocol_version;
  out->era = era_name((mcp_era)s->era);
  out->server_info = s->server_info;
  out->capabilities = s->server_caps;
  out->instructions = s->instructions;
  return true;
}

bool mcp_client_has_capability(const mcp_client *mc, size_t idx,
                               const char *cap) {
  const session *s = mcp_client_peek(mc, idx);
  return s && s->state == SESS_READY && session_has_capability(s, cap);
}

const char *mcp_client_session_id(const mcp_client *mc, size_t idx) {
  const session *s = mcp_client_peek(mc, idx);
  return s ? session_mcp_session_id(s) : NULL;
}

void mcp_client_describe(mcp_client *mc, size_t idx, mcp_note_fn note,
                         void *ud) {
  session *s = mcp_client_peek(mc, idx);
  if (s) {
    features_describe(s, note, ud);
  }
}
