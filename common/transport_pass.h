/* A transport composed over another (mcph.host.transports/1): the IDE's
 * ws-ide and sse-ide over ws and sse, claude.ai's claudeai-proxy over
 * http. The one pass-through of both: what the composing transport does
 * not change goes down to the inner transport, and every event comes up
 * to the host as the inner transport reported it. Loop thread.
 *
 * Use: embed a transport_pass in the composing transport, pass_init() it,
 * replace the callbacks of `down` it changes (an override reaches its
 * transport through ((transport_pass *)ud)->owner and may end with the
 * pass_up_* function it replaced), then pass_create() the inner one and
 * call the pass_* functions from the factory's. */
#ifndef MCPHOST_COMMON_TRANSPORT_PASS_H
#define MCPHOST_COMMON_TRANSPORT_PASS_H

#include <mcphost/mcphost.h>

typedef struct transport_pass {
  const mcph_transport_factory *f; /* the inner transport's, after create */
  mcph_transport *inner;           /* owned: pass_destroy() ends it */
  const mcph_transport_events *up; /* the host's, valid until destroy */
  mcph_transport_events down;      /* given to the inner transport */
  void *owner;                     /* the composing transport */
} transport_pass;

/* Sets up `p` with `down` passing every event to `up` (the host's) and
 * `owner` for the overrides. */
void pass_init(transport_pass *p, const mcph_transport_events *up,
               void *owner);

/* Creates the inner transport: `type` with `config_json`, `server` naming
 * it in its logs, p->down as its events. MCPH_OK, or the code of
 * svc->create() with its reason in `err`. */
int pass_create(transport_pass *p, const mcph_host_transports *svc,
                const mcph_host *host, const char *type, const char *server,
                const char *config_json, mcph_error *err);

/* The events, each passed up as it came (`ud` is the transport_pass). An
 * event the host has no callback for (an older ABI) goes up as
 * on_error, as the transports report it; on_auth_required then goes
 * nowhere (the on_send_failed that follows says it). */
void pass_up_message(void *ud, const char *json, size_t len);
void pass_up_error(void *ud, int code, const char *message);
void pass_up_close(void *ud, int code, const char *reason);
void pass_up_send_failed(void *ud, int code, const char *message,
                         const char *json, size_t len);
void pass_up_dropped(void *ud, int code, const char *message,
                     const char *head, size_t head_len, size_t total);
void pass_up_session_reset(void *ud, const char *message);
void pass_up_auth_required(void *ud, const mcph_auth_challenge *ch);

/* The factory's calls, passed down to the inner transport. */
int pass_start(transport_pass *p, mcph_error *err);
int pass_send(transport_pass *p, const char *json, size_t len,
              mcph_error *err);
void pass_close(transport_pass *p);
/* Destroys the inner transport (once; p->inner is NULL after). */
void pass_destroy(transport_pass *p);
const char *pass_session_id(transport_pass *p);
void pass_set_protocol_version(transport_pass *p, const char *version);

#endif
