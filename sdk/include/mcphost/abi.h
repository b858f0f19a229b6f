/*
 * mcphost plugin ABI — versions, status codes, the error struct, and the
 * rules every other header of the SDK follows.
 *
 * Versioning, the one rule (every header refers here):
 *   - The major (MCPH_ABI_MAJOR) changes never within mcphost 1.x. A plugin
 *     built for another major is refused before anything in it runs.
 *   - The minor gates behaviour: what a side does may depend on the
 *     minor the other side was built with (mcph_entry.abi_minor,
 *     mcph_host.abi_minor). A host sends a plugin only the events, codes
 *     and answers the plugin's minor knows.
 *   - struct_size gates fields: every struct that crosses the boundary
 *     starts with `uint32_t struct_size`, grows only at the end, and a
 *     reader checks MCPH_HAS(ptr, type, field) before touching a field a
 *     later minor added. The writer of a struct sets its struct_size; a
 *     callee never writes the struct_size of a struct its caller owns.
 *   - An incompatible change to an extension or service is a new id
 *     revision ("mcph.transport/2" beside "mcph.transport/1"); a
 *     published id never changes meaning.
 *
 * Threads: every function of the SDK carries a tag, defined here once.
 *   [loop]        call it, or it is called, on the host's loop thread only;
 *   [any thread]  any thread may call it, concurrently with the loop and
 *                 with other threads (it takes what locks it needs).
 * Never block the loop: a [loop] callback returns promptly. It does no
 * network round trip, no wait on a child, no sleep and no read that can
 * wait for a person or a peer; it starts the work (a watch, a timer, a
 * thread of the plugin's own that posts its result back with
 * host->post) and answers later. Every server of the process shares
 * this one thread.
 *
 * NULL functions: in a table a plugin fills, a function is required
 * unless its comment says it may be NULL and what the host does then;
 * the host does not use a table that lacks a required function, as if
 * the plugin did not offer it. In a table the host fills, every function
 * the reader's MCPH_HAS admits is set. helpers/version.h has the one
 * check for both: MCPH_PROVIDES(ptr, type, field).
 * Strings: a string passed into a function or a callback is borrowed for
 * the call; a string the host returns is the host's and valid until
 * control returns to the loop (copy what you keep), unless its comment
 * says longer (static, or "for the host's lifetime").
 *
 * Answering a pending request, the one way (1.6): whatever the host
 * hands a plugin to answer (a server's request to a feature, a permission
 * question, a server source's listing) comes as an `mcph_request *`. The
 * plugin answers it exactly once, with the respond family of the service
 * "mcph.host.features/1" (feature.h) called through its own host table:
 * respond(host, req, result_json, err) with a JSON object, or
 * respond_error / respond_error_data with a JSON-RPC error. Each
 * extension says what the object holds and by when it must come (a
 * listing: before the call that handed it over returns; the others: now
 * or later). The handle stays valid until answered, or until the host's
 * withdrawal call returns where the extension has one that ends it
 * (mcph_permission_decider.cancel); a respond that fails with
 * MCPH_EINVAL (bad JSON) leaves it alive. An answer through another
 * plugin's table is refused (MCPH_EDENIED). The older ways
 * (mcph_permission_request.reply, mcph_server_source_emit_fn) are thin
 * wrappers over the same path, kept for 1.x plugins.
 *
 * This header compiles as C11 and as C++.
 */
#ifndef MCPHOST_ABI_H
#define MCPHOST_ABI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
#define MCPH_EXTERN_C extern "C"
#else
#define MCPH_EXTERN_C
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MCPH_EXPORT __attribute__((visibility("default")))
#define MCPH_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define MCPH_EXPORT
#define MCPH_PRINTF(fmt, args)
#endif

/* The ABI version a plugin is compiled against. The host refuses a plugin
 * whose major differs from its own; minors are backward compatible.
 *   1.0  entry, host services, transport extension "mcph.transport/1"
 *   1.1  mcph_transport_events.on_send_failed
 *   1.2  mcph_transport_events.on_message_dropped
 *   1.3  server-source extension "mcph.server-source/1" (server_source.h),
 *        permission extension "mcph.permission/1" (permission.h)
 *   1.4  feature extension "mcph.feature/1", host service
 *        "mcph.host.features/1", options extension "mcph.options/1"
 *        (feature.h)
 *   1.5  command extension "mcph.command/1" and host service
 *        "mcph.host.servers/1" (command.h); mcph_feature.describe and
 *        on_cancelled, the on_server event MCPH_SERVER_FAILED; the
 *        permission request's description and the MCPH_PERMISSION_ABSTAIN
 *        answer; MCPH_EDENIED
 *   1.6  a host table per plugin; mcph_entry.provides (deferred init and
 *        load); mcph_status_name(); MCPH_RPC_* codes (rpc.h);
 *        mcph_error_set leaves struct_size alone, mcph_error.rpc_code and
 *        rpc_data; MCPH_EBUSY; one way to answer a pending request
 *        (mcph_request: permission.h's request, server_source.h's
 *        list); transport events on_session_reset, on_auth_required,
 *        set_authorization and type_info (transport.h); host services
 *        "mcph.host.transports/1" (transport.h), "mcph.host.auth/1" with
 *        the extension "mcph.auth/1" (auth.h), "mcph.host.secrets/1"
 *        (secrets.h), "mcph.host.ui/1" (ui.h), "mcph.host.config/1"
 *        (configuration.h); mcph_host_features.server_info,
 *        protocol_version, respond_error_data (docs/plugin-abi.md §16);
 *        for MCP 2026-07-28: the factory's send_headers, MCPH_ELOST,
 *        MCPH_RPC_HEADER_MISMATCH, _MISSING_CLIENT_CAPABILITY and
 *        _UNSUPPORTED_PROTOCOL_VERSION (rpc.h)
 *   1.7  mcph_provides.has_servers and source_description: a deferred
 *        server source says, before init, whether it has servers to list,
 *        and what it is; mcph_provides.capabilities: a deferred feature
 *        gives its capabilities without init (plugin.h); the transport
 *        event on_message_owned (transport.h)
 *   1.8  mcph_options.option_size: the size of an mcph_option element,
 *        the one struct of the ABI that had none, so it can grow
 *        (feature.h, mcph_options_at) */
#define MCPH_ABI_MAJOR 1
#define MCPH_ABI_MINOR 8

/* A request awaiting a plugin's answer (the host's; opaque): see
 * "Answering a pending request" above. */
typedef struct mcph_request mcph_request;

/* True when a struct written with `struct_size` covers `field`. */
#define MCPH_HAS(ptr, type, field)                                             \
  ((ptr) != NULL &&                                                            \
   (size_t)(ptr)->struct_size >=                                               \
       offsetof(type, field) + sizeof(((type *)0)->field))

/* Status codes. 0 is success; errors are negative. Codes are only ever
 * added, never renumbered. */
enum mcph_status {
  MCPH_OK = 0,
  MCPH_EINVAL = -1,        /* bad argument or bad configuration */
  MCPH_ENOMEM = -2,        /* out of memory */
  MCPH_EIO = -3,           /* I/O error on a pipe, socket or file */
  MCPH_ETIMEDOUT = -4,     /* a deadline passed */
  MCPH_ECLOSED = -5,       /* the transport or connection is closed */
  MCPH_ENOTSUP = -6,       /* operation not supported by this side */
  MCPH_EPROTO = -7,        /* the peer broke the protocol */
  MCPH_ESPAWN = -8,        /* a process could not be started */
  MCPH_ETOOBIG = -9,       /* a message exceeded a configured limit */
  MCPH_ECONNREFUSED = -10, /* the peer refused the connection */
  MCPH_EAUTH = -11,        /* authorization needed or refused */
  MCPH_ESESSION = -12,     /* the server's session expired */
  MCPH_ECANCELED = -13,    /* cancelled by the user or the host */
  MCPH_ENOTFOUND = -14,    /* no such server, tool, plugin, ... */
  MCPH_EABI = -15,         /* ABI version or struct size mismatch */
  MCPH_EDENIED = -16,      /* refused by policy or approval (1.5) */
  MCPH_EBUSY = -17,        /* busy: what was asked for is in use (another
                              question is open); try again later (1.6) */
  MCPH_ELOST = -18         /* a request's response stream broke before its
                              response, and it cannot be resumed: the
                              request is lost; the host may send it again
                              as a new request (1.6, MCP 2026-07-28) */
};

#define MCPH_ERROR_MESSAGE_MAX 512

/* An error report. Owned by the caller, who initializes it
 * (mcph_error_init), filled by the callee: `code` and `message`, at most
 * MCPH_ERROR_MESSAGE_MAX bytes including the NUL, never struct_size. */
typedef struct mcph_error {
  uint32_t struct_size; /* sizeof(mcph_error) as the caller built it */
  int32_t code;         /* an enum mcph_status value */
  char message[MCPH_ERROR_MESSAGE_MAX];
  /* ---- ABI 1.6 ---- (a callee writes them only when struct_size covers
   * them; mcph_error_init clears them. A reader of an mcph_error it did
   * not build checks MCPH_HAS(err, mcph_error, rpc_data) first: a 1.5
   * host hands a 1.6 plugin the 520-byte struct) */
  /* The JSON-RPC error a peer answered with (code MCPH_EPROTO): its
   * `code` (MCPH_RPC_*, rpc.h) and its `data` as JSON text, or 0 and
   * NULL. `rpc_data` is borrowed: valid for the call that handed `err`
   * over. */
  int32_t rpc_code;
  const char *rpc_data;
} mcph_error;

/* [any thread] Readies a caller's error struct: its size, MCPH_OK, "". */
static inline void mcph_error_init(mcph_error *err) {
  if (!err)
    return;
  err->struct_size = (uint32_t)sizeof(mcph_error);
  err->code = MCPH_OK;
  err->message[0] = '\0';
  err->rpc_code = 0;
  err->rpc_data = NULL;
}

/* [any thread] Sets `err`'s code and message (`err` may be NULL) and
 * returns `code`, so a callee can write
 * `return mcph_error_set(err, MCPH_EINVAL, "bad %s", what);`. It does not
 * touch err->struct_size, which is the caller's (before 1.6 it did). */
static inline int mcph_error_set(mcph_error *err, int code, const char *fmt,
                                 ...) MCPH_PRINTF(3, 4);
static inline int mcph_error_set(mcph_error *err, int code, const char *fmt,
                                 ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

/* [any thread] The name of a status code, e.g. "MCPH_EAUTH" for
 * MCPH_EAUTH; static. A code this header does not know (a newer host's)
 * gives "MCPH_E?"; (1.6). */
static inline const char *mcph_status_name(int code) {
  switch (code) {
  case MCPH_OK:
    return "MCPH_OK";
  case MCPH_EINVAL:
    return "MCPH_EINVAL";
  case MCPH_ENOMEM:
    return "MCPH_ENOMEM";
  case MCPH_EIO:
    return "MCPH_EIO";
  case MCPH_ETIMEDOUT:
    return "MCPH_ETIMEDOUT";
  case MCPH_ECLOSED:
    return "MCPH_ECLOSED";
  case MCPH_ENOTSUP:
    return "MCPH_ENOTSUP";
  case MCPH_EPROTO:
    return "MCPH_EPROTO";
  case MCPH_ESPAWN:
    return "MCPH_ESPAWN";
  case MCPH_ETOOBIG:
    return "MCPH_ETOOBIG";
  case MCPH_ECONNREFUSED:
    return "MCPH_ECONNREFUSED";
  case MCPH_EAUTH:
    return "MCPH_EAUTH";
  case MCPH_ESESSION:
    return "MCPH_ESESSION";
  case MCPH_ECANCELED:
    return "MCPH_ECANCELED";
  case MCPH_ENOTFOUND:
    return "MCPH_ENOTFOUND";
  case MCPH_EABI:
    return "MCPH_EABI";
  case MCPH_EDENIED:
    return "MCPH_EDENIED";
  case MCPH_EBUSY: return "MCPH_EBUSY";
  case MCPH_ELOST: return "MCPH_ELOST";
  default:
    return "MCPH_E?";
  }
}

#endif /* MCPHOST_ABI_H */
