/* Holding the first requests for a server's roots (roots_settle.h). */
#include "mcp/roots_settle.h"

#include <stdlib.h>
#include <string.h>

#include "core/host.h"
#include "core/plugins.h"
#include "env_ms.h"
#include "mcp/era.h"
#include "mcp/session.h"
#include "util.h"

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

/* Who the server says it is: its serverInfo's name and version, as
 * "name\nversion" (new string), or NULL when it gave neither. */
static char *identity(const session *s) {
  const char *name = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(s->server_info, "name"));
  const char *version = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(s->server_info, "version"));
  if (!name || !version) {
    return NULL;
  }
  return xasprintf("%s\n%s", name, version);
}

/* The hold ended with the server's verdict: `quiet` when it asked no
 * roots/list before the pong. Kept for its next start when it changed
 * (or the era found at this connect waits to be written with it). */
static void keep_verdict(session *s, bool quiet) {
  char *who = quiet ? identity(s) : NULL;
  bool same = who ? s->roots_quiet && strcmp(who, s->roots_quiet) == 0
                  : !s->roots_quiet;
  if (!same || s->era_unsaved) {
    era_roots_quiet(s, who);
  }
  free(who);
}

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
  if (!s->roots_read) {
    keep_verdict(s, !s->roots_asked);
  }
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
  s->roots_skipped = false;
  if (s->era == ERA_MODERN || !s->roots || s->roots_hold ||
      !registry_type_is_local(&s->h->reg, session_type(s))) {
    return;
  }
  /* The same server (entry and serverInfo) asked nothing when told
   * initialized at its last start: no ping, no round trip before the
   * first request. Should it ask now, the verdict is forgotten and its
   * next start holds them again. */
  char *who = s->roots_quiet ? identity(s) : NULL;
  bool quiet = who && strcmp(who, s->roots_quiet) == 0;
  free(who);
  if (quiet) {
    /* Read all the same: a bad MCPHOST_ROOTS_SETTLE_MS is said whether
     * or not this start needs it. */
    (void)settle_ms();
    host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
             "it asked no roots at its last start: requests not held");
    s->roots_skipped = true;
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
  } else if (s->roots_skipped) {
    s->roots_skipped = false;
    keep_verdict(s, false);
  }
}

void roots_settle_end(session *s) {
  if (s->era_unsaved) {
    era_roots_quiet(s, s->roots_quiet); /* the era, the roots unknown */
  }
  if (s->roots_timer) {
    loop_timer_cancel(s->h->loop, s->roots_timer);
    s->roots_timer = NULL;
  }
  if (s->roots_hold) {
    release(s); /* nothing is pending any more: nothing is sent */
  }
}
