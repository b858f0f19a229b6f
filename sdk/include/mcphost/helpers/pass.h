/*
 * mcphost plugin SDK, optional helper (header only): a transport composed
 * over another through "mcph.host.transports/1" (transport.h), e.g. a
 * transport that finds its URL in a lockfile and then speaks ws or sse.
 * What the composing transport does not change goes down to the inner
 * transport as it is, and every event comes up to the host as the inner
 * transport reported it. The tree's ws-ide, sse-ide and claudeai-proxy
 * are built on it.
 *
 * Use: embed an mcph_pass in the composing transport, mcph_pass_init()
 * it, replace the callbacks of `down` it changes (an override reaches
 * its transport through ((mcph_pass *)ud)->owner and may end with the
 * mcph_pass_up_* function it replaced), then mcph_pass_create() the
 * inner one and call the mcph_pass_* functions from the factory's.
 *
 * Threads: [loop] only.
 */
#ifndef MCPHOST_HELPERS_PASS_H
#define MCPHOST_HELPERS_PASS_H

#include <stddef.h>
#include <string.h>

#include "../transport.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mcph_pass {
  const mcph_transport_factory *f; /* the inner transport's, after create */
  mcph_transport *inner;           /* owned: mcph_pass_destroy() ends it */
  const mcph_transport_events *up; /* the host's, valid until destroy */
  mcph_transport_events down;      /* given to the inner transport */
  void *owner;                     /* the composing transport */
} mcph_pass;

#define MCPH_PASS_UP_(ud) (((mcph_pass *)(ud))->up)
/* Whether the host's events have `field` (its ABI) and set it. */
#define MCPH_PASS_UP_HAS_(ud, field)                                           \
  (MCPH_HAS(MCPH_PASS_UP_(ud), mcph_transport_events, field) &&                \
   MCPH_PASS_UP_(ud)->field)

/* [loop] The events, each passed up as it came (`ud` is the mcph_pass).
 * An event the host has no callback for (an older ABI) goes up as
 * on_error, as the transports report it; on_auth_required then goes
 * nowhere (the on_send_failed that follows says it). */
static inline void mcph_pass_up_message(void *ud, const char *json,
                                        size_t len) {
  MCPH_PASS_UP_(ud)->on_message(MCPH_PASS_UP_(ud)->ud, json, len);
}

static inline void mcph_pass_up_error(void *ud, int code, const char *message) {
  MCPH_PASS_UP_(ud)->on_error(MCPH_PASS_UP_(ud)->ud, code, message);
}

static inline void mcph_pass_up_close(void *ud, int code, const char *reason) {
  MCPH_PASS_UP_(ud)->on_close(MCPH_PASS_UP_(ud)->ud, code, reason);
}

static inline void mcph_pass_up_send_failed(void *ud, int code,
                                            const char *message,
                                            const char *json, size_t len) {
  if (MCPH_PASS_UP_HAS_(ud, on_send_failed)) {
    MCPH_PASS_UP_(ud)->on_send_failed(MCPH_PASS_UP_(ud)->ud, code, message,
                                      json, len);
  } else {
    mcph_pass_up_error(ud, code, message);
  }
}

static inline void mcph_pass_up_dropped(void *ud, int code, const char *message,
                                        const char *head, size_t head_len,
                                        size_t total) {
  if (MCPH_PASS_UP_HAS_(ud, on_message_dropped)) {
    MCPH_PASS_UP_(ud)->on_message_dropped(MCPH_PASS_UP_(ud)->ud, code, message,
                                          head, head_len, total);
  } else {
    mcph_pass_up_error(ud, code, message);
  }
}

static inline void mcph_pass_up_session_reset(void *ud, const char *message) {
  if (MCPH_PASS_UP_HAS_(ud, on_session_reset)) {
    MCPH_PASS_UP_(ud)->on_session_reset(MCPH_PASS_UP_(ud)->ud, message);
  } else {
    mcph_pass_up_error(ud, MCPH_ESESSION, message);
  }
}

static inline void mcph_pass_up_auth_required(void *ud,
                                              const mcph_auth_challenge *ch) {
  if (MCPH_PASS_UP_HAS_(ud, on_auth_required)) {
    MCPH_PASS_UP_(ud)->on_auth_required(MCPH_PASS_UP_(ud)->ud, ch);
  }
}

/* [loop] Sets up `p` with `down` passing every event to `up` (the
 * host's) and `owner` for the overrides. */
static inline void mcph_pass_init(mcph_pass *p, const mcph_transport_events *up,
                                  void *owner) {
  memset(p, 0, sizeof *p);
  p->up = up;
  p->owner = owner;
  p->down.struct_size = sizeof(mcph_transport_events);
  p->down.ud = p;
  p->down.on_message = mcph_pass_up_message;
  p->down.on_error = mcph_pass_up_error;
  p->down.on_close = mcph_pass_up_close;
  p->down.on_send_failed = mcph_pass_up_send_failed;
  p->down.on_message_dropped = mcph_pass_up_dropped;
  p->down.on_session_reset = mcph_pass_up_session_reset;
  p->down.on_auth_required = mcph_pass_up_auth_required;
}

/* [loop] Creates the inner transport: `type` with `config_json`, `server`
 * naming it in its logs, p->down as its events. MCPH_OK, or the code of
 * svc->create() with its reason in `err`. */
static inline int mcph_pass_create(mcph_pass *p,
                                   const mcph_host_transports *svc,
                                   const mcph_host *host, const char *type,
                                   const char *server, const char *config_json,
                                   mcph_error *err) {
  mcph_transport_params ip;
  memset(&ip, 0, sizeof ip);
  ip.struct_size = sizeof ip;
  ip.type = type;
  ip.server_name = server;
  ip.config_json = config_json;
  ip.events = &p->down;
  return svc->create(host, &ip, &p->f, &p->inner, err);
}

/* [loop] The factory's calls, passed down to the inner transport. */
static inline int mcph_pass_start(mcph_pass *p, mcph_error *err) {
  return p->f->start(p->inner, err);
}

static inline int mcph_pass_send(mcph_pass *p, const char *json, size_t len,
                                 mcph_error *err) {
  return p->f->send(p->inner, json, len, err);
}

static inline void mcph_pass_close(mcph_pass *p) {
  p->f->close(p->inner);
}

/* [loop] Destroys the inner transport (once; p->inner is NULL after). */
static inline void mcph_pass_destroy(mcph_pass *p) {
  if (p->inner) {
    p->f->destroy(p->inner);
    p->inner = NULL;
  }
}

static inline const char *mcph_pass_session_id(mcph_pass *p) {
  return MCPH_HAS(p->f, mcph_transport_factory, session_id) && p->f->session_id
             ? p->f->session_id(p->inner)
             : NULL;
}

static inline void mcph_pass_set_protocol_version(mcph_pass *p,
                                                  const char *version) {
  if (MCPH_HAS(p->f, mcph_transport_factory, set_protocol_version) &&
      p->f->set_protocol_version) {
    p->f->set_protocol_version(p->inner, version);
  }
}

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_HELPERS_PASS_H */
