/*
 * One libwebsockets context on a libuv loop of its own, nested in the
 * host's epoll: the loop's backend fd (an epoll fd) is a host fd watch,
 * and its next timeout a host timer; a pump is uv_run(UV_RUN_NOWAIT)
 * until nothing is due. No thread. (Debian's lws 4.1.6 is built without
 * external-poll support, so its libuv event library is the way into a
 * loop that is not its own.)
 *
 * The 4.1.6 bugs worked around here:
 *   - lws's uv timer is re-armed only from its idle handler, so a timer
 *     lws starts from a host call (a connect) is kicked with
 *     lws_cancel_service() (ws_loop_kick);
 *   - destroying a context on a foreign loop never finishes: a second
 *     lws_context_destroy() completes it (ws_loop_destroy).
 * (The third, the clean close, is in ws_lws.c.)
 *
 * Loop thread only. ws_loop_pump() must not be called from inside an lws
 * callback; ws_loop_kick() may.
 */
#ifndef MCPH_WS_LOOP_H
#define MCPH_WS_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include <libwebsockets.h>
#include <uv.h>

#include <mcphost/host.h>

typedef struct ws_loop {
  const mcph_host *host;
  uv_loop_t uv;
  bool uv_ok;
  struct lws_context *ctx; /* NULL once lws destroyed it (pcontext) */
  struct lws_vhost *vh;
  mcph_watch *watch;
  mcph_timer *timer;  /* uv's next timeout */
  uint64_t timer_due; /* its deadline on uv's clock (uv_now), ms */
  mcph_timer *kick;   /* a pump soon */
} ws_loop;

typedef struct ws_loop_tls {
  /* wss: OpenSSL is initialized and the vhost gets its client context
   * (the CA store: the system's whole bundle unless ca_file). For ws://
   * neither: loading the bundle cost a plain connection 236 M
   * instructions and 1.7 MiB resident. */
  bool use_tls;
  const char *ca_file, *cert_file, *key_file; /* or NULL */
  const char *proxy; /* "host:port", or NULL for none */
} ws_loop_tls;

/* [loop] Creates the loop, the context and its one vhost. `protocols` and
 * `user` go to lws. Returns 0, or an MCPH_E* code with the reason. */
int ws_loop_init(ws_loop *l, const mcph_host *host,
                 const struct lws_protocols *protocols, void *user,
                 const ws_loop_tls *tls, mcph_error *err);

/* [loop] Asks for a pump soon (a zero-delay timer) after a call into lws
 * that changed what it waits for (a write wanted, a connect). */
void ws_loop_kick(ws_loop *l);

/* [loop] Runs what is due now (uv_run without waiting, as a pump of the
 * host loop does): after lws_callback_on_writable() from a host call,
 * the write goes out at once, without a zero-delay timer and another
 * turn of the host loop first. Never from inside an lws callback. */
void ws_loop_pump(ws_loop *l);

/* [loop] Destroys the context (its connections close without callbacks
 * the transport acts on), the loop and the watches. Safe on a zeroed or
 * half-made ws_loop. */
void ws_loop_destroy(ws_loop *l);

/* [any] Routes lws's log to `host` (NULL: back to stderr, before the
 * plugin goes away). lws keeps one log function per process. */
void ws_loop_log_to(const mcph_host *host);

#endif
