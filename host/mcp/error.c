/* The library's error type and the one classification of what went
 * wrong (error.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "mcp/client_internal.h"
#include "mcp/error.h"

const char *mcp_error_kind_name(mcp_error_kind kind) {
  switch (kind) {
  case MCP_ERR_NONE: return "none";
  case MCP_ERR_USAGE: return "usage";
  case MCP_ERR_SERVER: return "server";
  case MCP_ERR_PROTOCOL: return "protocol";
  case MCP_ERR_TIMEOUT: return "timeout";
  case MCP_ERR_NOT_FOUND: return "not_found";
  case MCP_ERR_AUTH: return "auth";
  case MCP_ERR_DENIED: return "denied";
  case MCP_ERR_INTERRUPTED: return "interrupted";
  }
  return "server";
}

void mcp_error_clear(mcp_error *e) {
  free(e->message);
  free(e->server);
  cJSON_Delete(e->data);
  *e = (mcp_error){0};
}

void mcp_error_vset(mcp_error *e, mcp_error_kind kind, const char *server,
                    const char *fmt, va_list ap) {
  mcp_error_clear(e);
  strbuf b;
  sb_init(&b);
  sb_vprintf(&b, fmt, ap);
  e->kind = kind;
  e->message = sb_take(&b);
  e->server = server ? xstrdup(server) : NULL;
}

void mcp_error_set(mcp_error *e, mcp_error_kind kind, const char *server,
                   const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  mcp_error_vset(e, kind, server, fmt, ap);
  va_end(ap);
}

void mcp_error_move(mcp_error *to, mcp_error *from) {
  mcp_error_clear(to);
  *to = *from;
  *from = (mcp_error){0};
}

static bool contains_nocase(const char *s, const char *word) {
  size_t n = strlen(word);
  for (; s && *s; s++) {
    size_t i = 0;
    while (i < n && s[i] &&
           tolower((unsigned char)s[i]) == (unsigned char)word[i]) {
      i++;
    }
    if (i == n) {
      return true;
    }
  }
  return false;
}

/* -32602 "Tool x not found" (TypeScript SDK), "Unknown tool: x" (Python
 * SDK; -32601 from fastmcp and others), or MCP's -32002. Another -32602
 * (bad arguments) is not, nor a -32601 that names no item (no such
 * method). */
static bool names_missing_item(int code, const char *message,
                               const char *item) {
  if (code == MCPH_RPC_RESOURCE_NOT_FOUND) {
    return true;
  }
  bool may = code == MCPH_RPC_INVALID_PARAMS ||
             (code == MCPH_RPC_METHOD_NOT_FOUND && item);
  return may && message &&
         (contains_nocase(message, "not found") ||
          contains_nocase(message, "unknown tool") ||
          contains_nocase(message, "unknown prompt")) &&
         (!item || strstr(message, item));
}

mcp_error_kind mcp_error_kind_of_session(const session *s) {
  if (!s) {
    return MCP_ERR_SERVER;
  }
  switch (s->fail) {
  case FAIL_TIMEOUT: return MCP_ERR_TIMEOUT;
  case FAIL_PROTOCOL: return MCP_ERR_PROTOCOL;
  case FAIL_INTERRUPTED: return MCP_ERR_INTERRUPTED;
  case FAIL_AUTH: return MCP_ERR_AUTH;
  default: return MCP_ERR_SERVER;
  }
}

mcp_error_kind mcp_error_kind_of_rpc(const session *s, rpc_status status,
                                     int code, const char *message,
                                     const char *item) {
  switch (status) {
  case RPC_OK: break;
  case RPC_ERR_REMOTE:
    return names_missing_item(code, message, item) ? MCP_ERR_NOT_FOUND
                                                   : MCP_ERR_PROTOCOL;
  case RPC_ERR_TIMEOUT: return MCP_ERR_TIMEOUT;
  case RPC_ERR_CLOSED: return MCP_ERR_SERVER;
  case RPC_ERR_CANCELLED: return MCP_ERR_INTERRUPTED;
  case RPC_ERR_TRANSPORT:
    return s && s->fail == FAIL_AUTH ? MCP_ERR_AUTH : MCP_ERR_SERVER;
  case RPC_ERR_LOCAL: return MCP_ERR_PROTOCOL;
  }
  return mcp_error_kind_of_session(s);
}

mcp_error_kind mcp_error_kind_of_status(int mcph_status) {
  switch (mcph_status) {
  case MCPH_OK: return MCP_ERR_NONE;
  case MCPH_EINVAL: return MCP_ERR_USAGE;
  case MCPH_ENOTFOUND: return MCP_ERR_NOT_FOUND;
  case MCPH_EDENIED: return MCP_ERR_DENIED;
  case MCPH_EAUTH: return MCP_ERR_AUTH;
  case MCPH_ETIMEDOUT: return MCP_ERR_TIMEOUT;
  default: return MCP_ERR_SERVER;
  }
}
