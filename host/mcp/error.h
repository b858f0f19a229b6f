/* The one error type of the MCP client library (client.h, calls.h):
 * what went wrong as a kind a front end maps to its own terms (the CLI's
 * exit codes: cli_exit_code), with the sentence, the server at fault and
 * the JSON-RPC error's code and data when a server answered with one.
 * The library never prints: messages reach the caller only through this
 * type and the callbacks it is given. Loop thread only. */
#ifndef MCPHOST_MCP_ERROR_H
#define MCPHOST_MCP_ERROR_H

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdbool.h>

typedef enum mcp_error_kind {
  MCP_ERR_NONE = 0,
  MCP_ERR_USAGE,       /* the request itself is wrong (a bad reference) */
  MCP_ERR_SERVER,      /* a server failed, is unreachable or misconfigured */
  MCP_ERR_PROTOCOL,    /* the server answered with an error or broke MCP */
  MCP_ERR_TIMEOUT,     /* a deadline passed */
  MCP_ERR_NOT_FOUND,   /* no such server, tool, prompt or resource */
  MCP_ERR_AUTH,        /* the server needs authorization */
  MCP_ERR_DENIED,      /* refused by policy, approval or a permission rule */
  MCP_ERR_INTERRUPTED, /* the caller (the user) interrupted */
} mcp_error_kind;

typedef struct mcp_error {
  mcp_error_kind kind;
  char *message; /* a sentence, not escaped (owned); NULL with NONE */
  char *server;  /* the configured name at fault, or NULL (owned) */
  int rpc_code;  /* the JSON-RPC error code, or 0 */
  cJSON *data;   /* the JSON-RPC error's data, or NULL (owned) */
} mcp_error;

/* Sets `e` (freeing what it held). `server` may be NULL. */
void mcp_error_set(mcp_error *e, mcp_error_kind kind, const char *server,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void mcp_error_vset(mcp_error *e, mcp_error_kind kind, const char *server,
                    const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
/* Frees what `e` holds and zeroes it. */
void mcp_error_clear(mcp_error *e);
/* Moves `from` into `to` (clearing `to` first); `from` is left zeroed. */
void mcp_error_move(mcp_error *to, mcp_error *from);

/* The kind's name, as the gateway's error data says it ("timeout",
 * "not_found", ...; docs/gateway.md); static. */
const char *mcp_error_kind_name(mcp_error_kind kind);

/* The kind of a plugin's MCPH_E* status. */
mcp_error_kind mcp_error_kind_of_status(int mcph_status);

#endif
