/*
 * mcphost plugin ABI — versions, status codes, the error struct.
 *
 * Every struct that crosses the host/plugin boundary starts with
 * `uint32_t struct_size`. Structs only grow at the end. A reader checks
 * MCPH_HAS(ptr, type, field) before touching a field that a later minor
 * version added. This header compiles as C11 and as C++.
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
 *   1.2  mcph_transport_events.on_message_dropped */
#define MCPH_ABI_MAJOR 1
#define MCPH_ABI_MINOR 2

/* True when a struct written with `struct_size` covers `field`. */
#define MCPH_HAS(ptr, type, field)                                             \
  ((ptr) != NULL &&                                                            \
   (size_t)(ptr)->struct_size >=                                               \
       offsetof(type, field) + sizeof(((type *)0)->field))

/* Status codes. 0 is success; errors are negative. Codes are only ever
 * added, never renumbered. */
enum mcph_status {
  MCPH_OK = 0,
  MCPH_EINVAL = -1,       /* bad argument or bad configuration */
  MCPH_ENOMEM = -2,       /* out of memory */
  MCPH_EIO = -3,          /* I/O error on a pipe, socket or file */
  MCPH_ETIMEDOUT = -4,    /* a deadline passed */
  MCPH_ECLOSED = -5,      /* the transport or connection is closed */
  MCPH_ENOTSUP = -6,      /* operation not supported by this side */
  MCPH_EPROTO = -7,       /* the peer broke the protocol */
  MCPH_ESPAWN = -8,       /* a process could not be started */
  MCPH_ETOOBIG = -9,      /* a message exceeded a configured limit */
  MCPH_ECONNREFUSED = -10,/* the peer refused the connection */
  MCPH_EAUTH = -11,       /* authorization needed or refused */
  MCPH_ESESSION = -12,    /* the server's session expired */
  MCPH_ECANCELED = -13,   /* cancelled by the user or the host */
  MCPH_ENOTFOUND = -14,   /* no such server, tool, plugin, ... */
  MCPH_EABI = -15         /* ABI version or struct size mismatch */
};

#define MCPH_ERROR_MESSAGE_MAX 512

/* An error report. Owned by the caller, filled by the callee. A callee
 * writes at most MCPH_ERROR_MESSAGE_MAX bytes including the NUL. */
typedef struct mcph_error {
  uint32_t struct_size; /* sizeof(mcph_error) */
  int32_t code;         /* an enum mcph_status value */
  char message[MCPH_ERROR_MESSAGE_MAX];
} mcph_error;

static inline void mcph_error_init(mcph_error *err) {
  if (!err)
    return;
  err->struct_size = (uint32_t)sizeof(mcph_error);
  err->code = MCPH_OK;
  err->message[0] = '\0';
}

/* Sets `err` (which may be NULL) and returns `code`, so a callee can write
 * `return mcph_error_set(err, MCPH_EINVAL, "bad %s", what);`. */
static inline int mcph_error_set(mcph_error *err, int code, const char *fmt,
                                 ...) MCPH_PRINTF(3, 4);
static inline int mcph_error_set(mcph_error *err, int code, const char *fmt,
                                 ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->struct_size = (uint32_t)sizeof(mcph_error);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

#endif /* MCPHOST_ABI_H */
