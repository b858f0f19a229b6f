/* Holding the first requests for a server's roots (roots_settle.h). */
#include "mcp/roots_settle.h"

#include <stdlib.h>

#include "core/host.h"
#include "core/plugins.h"
#include "env_ms.h"
#include "mcp/era.h"
#include "mcp/session.h"

static uint64_t settle_ms(void) {
  return env_ms("MCPHOST_ROOTS_SETTLE_MS", ROOTS_SETTLE_MS, true, NULL);
}

static void release(session *s) {
  s->roots_hold = false;
  s->roots_asked = false;
  s->roots_read = false;
  if (!s->reinitializing && !s->auth_pending && !s->prelisting) {
    rpc_hold(s->rpc, false);
  }
}

static void on_settled(void *ud) {
  session *s = ud;
  s->roots_timer = NULL; /* a fired timer frees itself */
  host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
           "roots given; sending the requests held for them");
  release(s);
}

static void on_pong(void *ud, cJSON *result, const rpc_error *err, bool *take);

static void ping(session *s) {
  uint64_t ms = s->connect_timeout_ms && s->connect_timeout_ms < ROOTS_PROBE_MS
                    ? s->connect_timeout_ms
                    : ROOTS_PROBE_MS;
  rpc_request_opts o = {.timeout_ms = ms, .ud = s, .urgent = true};
  s->roots_ping_ms = loop_now_ms();
  if (rpc_request(s->rpc, "ping", NULL, &o, on_pong) < 0) {
    release(s);
  }
}

static void on_pong(void *ud, cJSON *result, const rpc_error *err, bool *take) {
  (void)result;
  (void)take;
  session *s = ud;
  if (!s->roots_hold || (err && err->status == RPC_ERR_CLOSED)) {
    return; /* the connection ended: roots_settle_end follows */
  }
  uint64_t ms = settle_ms();
  if (!s->roots_asked || ms == 0) {
    release(s);
    return;
  }
  if (!s->roots_read) {
    /* Its answer is read once this one is: the settle starts from there,
     * longer when the server is slow to answer (a loaded machine). */
    s->roots_read = true;
    ping(s);
    return;
  }
  ms += 2 * (loop_now_ms() - s->roots_ping_ms);
  s->roots_timer = loop_timer_start(s->h->loop, ms, on_settled, s);
  if (!s->roots_timer) {
    release(s);
  }
}

void roots_settle_start(session *s) {
  /* Modern servers get roots in each request's input_required. Only a
   * local server's messages come in one stream, in the order it sent
   * them (over HTTP its roots/list comes on another stream than the
   * pong): only there does the ping tell. */
  if (s->era == ERA_MODERN || !s->roots || s->roots_hold ||
      !registry_type_is_local(&s->h->reg, session_type(s))) {
    return;
  }
  s->roots_hold = true;
  s->roots_asked = false;
  s->roots_read = false;
  rpc_hold(s->rpc, true);
  ping(s);
}

void roots_settle_asked(session *s) {
  if (s->roots_hold) {
    s->roots_asked = true;
  }
}

void roots_settle_end(session *s) {
  if (s->roots_timer) {
    loop_timer_cancel(s->h->loop, s->roots_timer);
    s->roots_timer = NULL;
  }
  if (s->roots_hold) {
    release(s); /* nothing is pending any more: nothing is sent */
  }
}
