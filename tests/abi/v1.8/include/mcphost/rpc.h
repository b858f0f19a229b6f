/*
 * mcphost plugin ABI — JSON-RPC 2.0 and MCP error codes (ABI 1.6).
 *
 * The `code` of a JSON-RPC error object: what respond_error() sends and
 * what a request() answered with an error carries in mcph_error.rpc_code
 * (abi.h; mcph_error.code is then MCPH_EPROTO). They are JSON-RPC numbers, not MCPH_E* statuses; the two
 * number spaces never mix (MCPH_E* are small negatives, these are
 * -32768..-32000 or MCP's own).
 */
#ifndef MCPHOST_RPC_H
#define MCPHOST_RPC_H

#ifdef __cplusplus
extern "C" {
#endif

enum mcph_rpc_code {
  /* JSON-RPC 2.0 */
  MCPH_RPC_PARSE_ERROR = -32700,
  MCPH_RPC_INVALID_REQUEST = -32600,
  MCPH_RPC_METHOD_NOT_FOUND = -32601,
  MCPH_RPC_INVALID_PARAMS = -32602,
  MCPH_RPC_INTERNAL_ERROR = -32603,
  /* MCP */
  MCPH_RPC_RESOURCE_NOT_FOUND = -32002,
  MCPH_RPC_URL_ELICITATION_REQUIRED = -32042, /* retired in 2026-07-28 */
  /* MCP 2026-07-28 (ABI 1.6, added at the end). A resource not found is
   * MCPH_RPC_INVALID_PARAMS in that revision; -32002 stays for the
   * earlier ones. */
  MCPH_RPC_HEADER_MISMATCH = -32020, /* HTTP headers and body disagree */
  /* data.requiredCapabilities: what the request should have declared */
  MCPH_RPC_MISSING_CLIENT_CAPABILITY = -32021,
  /* data.supported (the server's versions) and data.requested */
  MCPH_RPC_UNSUPPORTED_PROTOCOL_VERSION = -32022
};

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_RPC_H */
