/*
 * mcphost-demo-server — what the JSON-RPC loop (demo-server.c) and the MCP
 * catalogue of tools, resources and prompts (demo-features.c) share.
 *
 * The server is single-threaded: one request is read, answered, and only
 * then is the next line read, so replies come out in the order requests
 * came in.
 */
#ifndef MCPHOST_DEMO_SERVER_H
#define MCPHOST_DEMO_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#define DEMO_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/* JSON-RPC 2.0 error codes, and the one MCP adds for resources. */
#define RPC_PARSE_ERROR -32700
#define RPC_INVALID_REQUEST -32600
#define RPC_METHOD_NOT_FOUND -32601
#define RPC_INVALID_PARAMS -32602
#define RPC_INTERNAL_ERROR -32603
#define MCP_RESOURCE_NOT_FOUND -32002

struct rpc_error {
  int code;      /* 0 while unset; an unset error is sent as -32603 */
  char *message; /* owned; freed by whoever sends the error */
  cJSON *data;   /* owned, may be NULL */
};

struct server {
  int out_fd;
  bool write_failed; /* stdout is gone: the loop stops at the next line */
  size_t page_size;  /* items per list page; 0 sends each list whole */
  /* The catalogue, built once by features_init(); list replies are
   * duplicated from it. */
  cJSON *tools;
  cJSON *resources;
  cJSON *templates;
  cJSON *prompts;
};

/* A method handler. `params` is the request's params object, or NULL when
 * the request had none. Returns the result object, owned by the caller;
 * or NULL after filling *err (through rpc_fail()). */
typedef cJSON *(*method_fn)(struct server *srv, const cJSON *params,
                            struct rpc_error *err);

/* demo-server.c */

/* Fills *err and returns NULL, so a handler can `return rpc_fail(...)`. */
cJSON *rpc_fail(struct rpc_error *err, int code, const char *fmt, ...)
    DEMO_PRINTF(3, 4);
/* Sends a notification; takes ownership of params (which may be NULL). A
 * failed write sets srv->write_failed. */
void rpc_notify(struct server *srv, const char *method, cJSON *params);
/* Returns a new string; free with free(). Aborts when memory runs out. */
char *demo_printf(const char *fmt, ...) DEMO_PRINTF(1, 2);

/* demo-features.c */

/* Builds the catalogue in srv. */
void features_init(struct server *srv);
void features_free(struct server *srv);
/* The handler for an MCP feature method (tools/..., resources/...,
 * prompts/...), or NULL when the method is not one of them. */
method_fn features_lookup(const char *method);

#endif
