/* The top-level "id" of a JSON-RPC message that could not be parsed
 * whole (cut short, too large, nested too deep), read from its first
 * bytes without building a tree. Pure function, any thread. */
#ifndef MCPHOST_RPC_SCAN_H
#define MCPHOST_RPC_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* Returns the id when it is a positive integer, else -1 (a string id,
 * none in the bytes given, zero or negative). */
int64_t rpc_scan_id(const char *json, size_t len);

#endif
