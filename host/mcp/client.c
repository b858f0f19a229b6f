/* The client's sessions: creation with the front end's settings, the
 * connect queue, connecting on use, the tool-list cache and the close at
 * the end (client.h). The servers service is in servers_service.c, the
 * calls in calls.c. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "config/roots.h"
#include "core/host_config.h"
#include "util.h"
#include "mcp/client_internal.h"
#include "mcp/inproc.h"
#include "mcp/names.h"
#include "suggest.h"

/* The serving plugin says (mcph_transport_type_info, ABI 1.6). */
static bool is_local(const session *s) {
  return registry_type_is_local(&s->h->reg, s->cfg->type);
}

static size_t env_count(const char *name, size_t fallback) {
  const char *v = getenv(name);
  char *end;
  unsigned long n = v ? strtoul(v, &end, 10) : 0;
  return v && *v && !*end && n > 0 ? (size_t)n : fallback;
}

mcp_client *mcp_client_new(host *h) {
  mcp_client *mc = xcalloc(1, sizeof *mc);
  mc->h = h;
  mc->opt = (mcp_client_options){.connect_timeout_ms = MCP_CONNECT_TIMEOUT_MS,
                                 .request_timeout_ms = MCP_REQUEST_TIMEOUT_MS,
                                 .tool_timeout_ms = MCP_TOOL_TIMEOUT_MS,
                                 .list_cache_ttl_ms = 20000,
                                 .server_exit_ms = 2000};
  mc->local_limit = env_count("MCP_SERVER_CONNECTION_BATCH_SIZE", 3);
  mc->remote_limit = env_count("MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE", 20);
  mcp_client_offer_servers_service(mc);
  mcp_client_set_host_hooks(h);
  mcp_inproc_bind(mc);
  return mc;
}

/* The tool item a name found last (client_slot.found) forgotten. */
static void forget_found(client_slot *slot) {
  slot->found = NULL;
  free(slot->found_name);
  slot->found_name = NULL;
}

/* What the resolution of names remembers (the last reference, each
 * server's part of mcp__ names, the tool a name found): made under one
 * limit of a name's length, of no use under another. */
static void forget_names(mcp_client *mc) {
  for (size_t i = 0; mc->slots && i < mc->nslots; i++) {
    client_slot *slot = &mc->slots[i];
    free(slot->part);
    slot->part = NULL;
    slot->part_len = 0;
    forget_found(slot);
  }
  if (mc->last_ref) {
    free(mc->last_ref->ref);
    mc->last_ref->ref = NULL;
  }
}

void mcp_client_set_options(mcp_client *mc, const mcp_client_options *o) {
  if (o->name_chars != mc->opt.name_chars) {
    forget_names(mc);
  }
  mc->opt = *o;
}

const mcp_client_options *mcp_client_get_options(const mcp_client *mc) {
  return &mc->opt;
}

host *mcp_client_host(const mcp_client *mc) {
  return mc->h;
}

/* The slots are made at the first use, once the configuration is loaded;
 * servers are never added afterwards. */
static void ensure_slots(mcp_client *mc) {
  if (mc->slots) {
    return;
  }
  mc->nslots = mc->h->cfg.nservers;
  mc->slots = xcalloc(mc->nslots ? mc->nslots : 1, sizeof *mc->slots);
  mc->pending = xcalloc(mc->nslots ? mc->nslots : 1, sizeof *mc->pending);
  mc->last_ref = xcalloc(1, sizeof *mc->last_ref);
}

size_t mcp_client_nservers(const mcp_client *mc) {
  return mc->slots ? mc->nslots : mc->h->cfg.nservers;
}

bool mcp_client_holds_config(const mcp_client *mc) {
  return mc->slots != NULL;
}

session *mcp_client_peek(const mcp_client *mc, size_t idx) {
  return mc->slots && idx < mc->nslots ? mc->slots[idx].s : NULL;
}

static void start_more(mcp_client *mc);
static void run_all(mcp_waiter **list, session *s);

static void drop_tools(client_slot *slot) {
  cJSON_Delete(slot->tools);
  slot->tools = NULL;
  forget_found(slot);
}

static void restart_slot(void *ud) {
  client_slot *slot = ud;
  slot->restart = NULL;
  session_restart(slot->s);
}

/* Every state change of every session: the connect queue's counters,
 * the tool list (it belongs to the connection it came from), and the
 * waiters. */
static void on_state(void *ud, session *s) {
  mcp_client *mc = ud;
  client_slot *slot = &mc->slots[s->cfg - mc->h->cfg.servers];
  if (mc->state_changed) {
    mc->state_changed(mc->state_changed_ud,
                      (size_t)(s->cfg - mc->h->cfg.servers));
  }
  if (s->state != SESS_READY) {
    drop_tools(slot);
  }
  if (slot->running && session_is_settled(s)) {
    slot->running = false;
    if (is_local(s)) {
      mc->running_local--;
    } else {
      mc->running_remote--;
    }
    start_more(mc);
  }
  if (slot->restart_when_closed &&
      (s->state == SESS_FAILED || s->state == SESS_CLOSED)) {
    /* Not from inside the transport's own callback: on the next turn. */
    slot->restart_when_closed = false;
    slot->restart = loop_timer_start(mc->h->loop, 0, restart_slot, slot);
    return;
  }
  if (s->state == SESS_CONNECTING || session_will_reconnect(s)) {
    slot->connecting = true; /* waiters wait for the outcome */
    return;
  }
  if (!session_is_settled(s) || !slot->connecting) {
    return;
  }
  slot->connecting = false;
  run_all(&slot->waiting, s);
}

static void on_notify(void *ud, session *s, const char *method,
                      const cJSON *params) {
  mcp_client *mc = ud;
  size_t idx = (size_t)(s->cfg - mc->h->cfg.servers);
  if (strcmp(method, "notifications/tools/list_changed") == 0) {
    drop_tools(&mc->slots[idx]);
  }
  if (strcmp(method, "notifications/elicitation/complete") == 0) {
    mcp_ops_elicitation_complete(
        mc, s,
        cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(params, "elicitationId")));
  }
  if (mc->notify) {
    mc->notify(mc->notify_ud, idx, method, params);
  }
}

void mcp_client_on_notify(mcp_client *mc, mcp_notify_fn fn, void *ud) {
  mc->notify = fn;
  mc->notify_ud = ud;
}

void mcp_client_on_state(mcp_client *mc, mcp_state_fn fn, void *ud) {
  mc->state_changed = fn;
  mc->state_changed_ud = ud;
}

static bool on_request(void *ud, session *s, const char *method,
                       const cJSON *params, const cJSON *id, int64_t origin) {
  mcp_client *mc = ud;
  size_t idx = (size_t)(s->cfg - mc->h->cfg.servers);
  return mc->request &&
         mc->request(mc->request_ud, idx, method, params, id,
                     origin > 0 ? mcp_op_of_request(mc, s, origin) : NULL);
}

void mcp_client_on_request(mcp_client *mc, mcp_request_fn fn, void *ud) {
  mc->request = fn;
  mc->request_ud = ud;
}

void mcp_client_answer(mcp_client *mc, size_t idx, const cJSON *id,
                       cJSON *result, int code, const char *message,
                       const cJSON *data) {
  session *s = idx < mcp_client_nservers(mc) ? mcp_client_peek(mc, idx) : NULL;
  if (!s) {
    cJSON_Delete(result);
    return;
  }
  session_answer(s, id, result, code, message, data);
}

session *mcp_client_session(mcp_client *mc, size_t idx) {
  ensure_slots(mc);
  client_slot *slot = &mc->slots[idx];
  if (slot->s) {
    return slot->s;
  }
  /* First use of the server in this process: its configuration's
   * warnings now, not with every command. */
  host_config_report_server(mc->h, mc->h->cfg.servers[idx].name);
  session *s = session_new(mc->h, &mc->h->cfg.servers[idx]);
  if (mc->opt.log_level) {
    s->log_level = xstrdup(mc->opt.log_level);
  }
  if (mc->opt.protocol) {
    s->protocol_override = xstrdup(mc->opt.protocol);
  }
  session_set_roots(
      s, slot->roots
             ? cJSON_Duplicate(slot->roots, 1)
             : roots_for_server(
                   mc->h, s->cfg,
                   &(roots_options){.dirs = mc->opt.root_dirs,
                                    .ndirs = mc->opt.nroot_dirs,
                                    .none = mc->opt.no_roots,
                                    .cwd = mc->h->paths[MCPH_PATH_CWD]}));
  s->auto_reconnect = mc->opt.keep;
  s->on_state = on_state;
  s->on_state_ud = mc;
  s->on_notify = on_notify;
  s->on_notify_ud = mc;
  s->on_request = on_request;
  s->on_request_ud = mc;
  if (mc->opt.capabilities) {
    s->extra_caps = cJSON_Duplicate(mc->opt.capabilities, 1);
  }
  slot->s = s;
  return s;
}

/* ---- the connect queue ---- */

/* Starts queued connects up to the limits, in the order queued. A connect
 * may settle at once (a config error) and re-enter through on_state:
 * then the scan runs again. */
static void start_more(mcp_client *mc) {
  if (mc->starting) {
    mc->start_again = true;
    return;
  }
  mc->starting = true;
  do {
    mc->start_again = false;
    for (size_t k = 0; k < mc->npending;) {
      client_slot *slot = &mc->slots[mc->pending[k]];
      bool local = is_local(slot->s);
      if (slot->s->state == SESS_IDLE &&
          (local ? mc->running_local >= mc->local_limit
                 : mc->running_remote >= mc->remote_limit)) {
        k++;
        continue;
      }
      memmove(&mc->pending[k], &mc->pending[k + 1],
              (mc->npending - k - 1) * sizeof *mc->pending);
      mc->npending--;
      slot->queued = false;
      if (slot->s->state != SESS_IDLE) {
        continue;
      }
      slot->running = true;
      if (local) {
        mc->running_local++;
      } else {
        mc->running_remote++;
      }
      slot->connecting = true;
      session_connect(slot->s, mc->opt.connect_timeout_ms);
    }
  } while (mc->start_again);
  mc->starting = false;
}

static void enqueue(mcp_client *mc, size_t idx) {
  client_slot *slot = &mc->slots[idx];
  if (slot->queued || slot->running || slot->s->state != SESS_IDLE) {
    return;
  }
  slot->queued = true;
  slot->connecting = true;
  mc->pending[mc->npending++] = idx;
}

void mcp_client_queue_connect(mcp_client *mc, size_t idx) {
  mcp_client_session(mc, idx);
  enqueue(mc, idx);
  start_more(mc);
}

typedef struct connect_wait {
  mcp_waiter w; /* first: the waiter is the connect_wait */
  size_t *left;
  bool *done;
} connect_wait;

static void on_connect_settled(mcp_waiter *w, session *s) {
  (void)s;
  connect_wait *cw = (connect_wait *)w;
  if (--*cw->left == 0) {
    *cw->done = true;
  }
}

size_t mcp_client_connect(mcp_client *mc, const size_t *idx, size_t n) {
  ensure_slots(mc);
  connect_wait *cw = xcalloc(n ? n : 1, sizeof *cw);
  size_t left = n, nlocal = 0;
  bool done = false;
  /* Remote servers first: they mostly wait on the network. */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t k = 0; k < n; k++) {
      session *s = mcp_client_session(mc, idx[k]);
      if (is_local(s) != (pass == 1)) {
        continue;
      }
      nlocal += pass == 1;
      enqueue(mc, idx[k]);
    }
  }
  for (size_t k = 0; k < n; k++) {
    cw[k] = (connect_wait){
        .w = {.ready = on_connect_settled}, .left = &left, .done = &done};
    client_slot *slot = &mc->slots[idx[k]];
    if (slot->connecting) {
      cw[k].w.idx = idx[k];
      cw[k].w.waiting = true;
      cw[k].w.next = slot->waiting;
      slot->waiting = &cw[k].w;
    } else {
      left--;
    }
  }
  start_more(mc);
  if (left > 0) {
    /* Each session has its own initialize deadline; this outer one only
     * guards against a transport that never reports anything, allowing
     * for the waves of the queue. */
    size_t waves = (nlocal + mc->local_limit - 1) / mc->local_limit + 1;
    uint64_t deadline =
        loop_now_ms() + (mc->opt.connect_timeout_ms + 2000) * waves;
    int rc = host_run_until(mc->h, &done, deadline);
    for (size_t k = 0; k < n; k++) {
      session *s = mc->slots[idx[k]].s;
      if (cw[k].w.waiting) {
        mcp_client_unwait(mc, &cw[k].w);
      }
      if (!session_is_settled(s)) {
        s->fail = rc == -2 ? FAIL_INTERRUPTED : FAIL_TIMEOUT;
        if (!s->error) {
          s->error = xstrdup(rc == -2 ? "interrupted" : "connect timed out");
        }
      }
    }
  }
  free(cw);
  size_t ok = 0;
  for (size_t k = 0; k < n; k++) {
    ok += mc->slots[idx[k]].s->state == SESS_READY;
  }
  return ok;
}

size_t mcp_client_connect_all(mcp_client *mc) {
  size_t n = mc->h->cfg.nservers;
  size_t *idx = xcalloc(n ? n : 1, sizeof *idx);
  for (size_t i = 0; i < n; i++) {
    idx[i] = i;
  }
  size_t ok = mcp_client_connect(mc, idx, n);
  free(idx);
  return ok;
}

/* ---- connecting on use ---- */

static void add_waiter(mcp_waiter **list, mcp_waiter *w, size_t idx) {
  w->idx = idx;
  w->waiting = true;
  w->next = *list;
  *list = w;
}

/* Waiting lists are built by prepending; waiters run in arrival order. */
static mcp_waiter *reversed(mcp_waiter *list) {
  mcp_waiter *out = NULL;
  while (list) {
    mcp_waiter *next = list->next;
    list->next = out;
    out = list;
    list = next;
  }
  return out;
}

/* Takes the waiting list `*list` (emptied first: a waiter may wait
 * again) and runs it in arrival order. */
static void run_all(mcp_waiter **list, session *s) {
  mcp_waiter *w = reversed(*list);
  *list = NULL;
  while (w) {
    mcp_waiter *next = w->next;
    w->waiting = false;
    w->next = NULL;
    w->ready(w, s);
    w = next;
  }
}

void mcp_client_use(mcp_client *mc, size_t idx, mcp_waiter *w) {
  session *s = mcp_client_session(mc, idx);
  client_slot *slot = &mc->slots[idx];
  if (slot->connecting) {
    add_waiter(&slot->waiting, w, idx);
    return;
  }
  if (s->state == SESS_IDLE) {
    add_waiter(&slot->waiting, w, idx);
    enqueue(mc, idx);
    start_more(mc);
    return;
  }
  if (s->state == SESS_FAILED && s->fail == FAIL_UNREACHABLE) {
    /* Lost, or switched off by the circuit breaker: the next use
     * connects again. */
    add_waiter(&slot->waiting, w, idx);
    session_restart(s);
    return;
  }
  if (s->state == SESS_CLOSING && s->fail == FAIL_UNREACHABLE) {
    /* The breaker is still closing the connection. */
    add_waiter(&slot->waiting, w, idx);
    slot->connecting = true;
    slot->restart_when_closed = true;
    return;
  }
  w->waiting = false;
  w->ready(w, s);
}

void mcp_client_reconnect(mcp_client *mc, size_t idx) {
  session *s = mcp_client_session(mc, idx);
  client_slot *slot = &mc->slots[idx];
  s->reconnect_attempts = 0;
  switch (s->state) {
  case SESS_IDLE:
    enqueue(mc, idx);
    start_more(mc);
    break;
  case SESS_READY:
  case SESS_CLOSING:
    /* Once closed, on_state starts it again; its waiters wait for that. */
    slot->connecting = true;
    slot->restart_when_closed = true;
    session_close(s);
    break;
  case SESS_FAILED:
  case SESS_CLOSED: session_restart(s); break;
  case SESS_CONNECTING: break; /* under way already */
  }
}

static bool unlink_from(mcp_waiter **list, mcp_waiter *w) {
  for (mcp_waiter **p = list; *p; p = &(*p)->next) {
    if (*p == w) {
      *p = w->next;
      return true;
    }
  }
  return false;
}

void mcp_client_unwait(mcp_client *mc, mcp_waiter *w) {
  if (!w->waiting || !mc->slots || w->idx >= mc->nslots) {
    return;
  }
  client_slot *slot = &mc->slots[w->idx];
  if (!unlink_from(&slot->waiting, w)) {
    unlink_from(&slot->waiting_tools, w);
  }
  w->waiting = false;
  w->next = NULL;
}

/* ---- the tool-list cache ---- */

#define LIST_HINT_FLOOR_MS 1000

const cJSON *mcp_client_cached_tools(mcp_client *mc, size_t idx) {
  if (!mc->slots || idx >= mc->nslots) {
    return NULL;
  }
  client_slot *slot = &mc->slots[idx];
  uint64_t ttl = mc->opt.list_cache_ttl_ms;
  if (slot->s && slot->s->tools_ttl_ms >= 0) {
    /* A 2026-07-28 server's cache hint (ttlMs) shortens it; one below
     * LIST_HINT_FLOOR_MS counts as that, so that the lookups of one
     * command share the listing it made. */
    uint64_t hint = (uint64_t)slot->s->tools_ttl_ms;
    hint = hint < LIST_HINT_FLOOR_MS ? LIST_HINT_FLOOR_MS : hint;
    ttl = hint < ttl ? hint : ttl;
  }
  if (slot->tools && loop_now_ms() - slot->tools_at > ttl) {
    drop_tools(slot); /* stale: list again */
  }
  return slot->tools;
}

const char *mcp_client_tools_error(const mcp_client *mc, size_t idx) {
  return mc->slots && idx < mc->nslots ? mc->slots[idx].tools_error : NULL;
}

static void on_tools(void *ud, session *s, cJSON *items, const char *error) {
  client_slot *slot = ud;
  slot->listing = false;
  free(slot->tools_error);
  slot->tools_error = error ? xstrdup(error) : NULL;
  drop_tools(slot);
  /* A list that arrives after its connection ended is not kept. */
  if (items && s->state == SESS_READY) {
    slot->tools = items;
    slot->tools_at = loop_now_ms();
  } else {
    cJSON_Delete(items);
    if (!error) {
      slot->tools_error = xstrdup("the connection ended while listing");
    }
  }
  run_all(&slot->waiting_tools, s);
}

void mcp_client_want_tools(mcp_client *mc, size_t idx, mcp_waiter *w) {
  session *s = mcp_client_session(mc, idx);
  client_slot *slot = &mc->slots[idx];
  if (mcp_client_cached_tools(mc, idx)) {
    w->waiting = false;
    w->ready(w, s);
    return;
  }
  add_waiter(&slot->waiting_tools, w, idx);
  if (!slot->listing) {
    slot->listing = true;
    session_list(s, "tools/list", "tools", mc->opt.request_timeout_ms, on_tools,
                 slot);
  }
}

/* ---- roots ---- */

void mcp_client_set_roots(mcp_client *mc, long only, const cJSON *roots) {
  ensure_slots(mc);
  for (size_t k = 0; k < mc->nslots; k++) {
    if (only >= 0 && (size_t)only != k) {
      continue;
    }
    cJSON_Delete(mc->slots[k].roots);
    mc->slots[k].roots = cJSON_Duplicate(roots, 1);
    if (mc->slots[k].s) {
      session_set_roots(mc->slots[k].s, cJSON_Duplicate(roots, 1));
    }
  }
}

/* ---- names ---- */

/* The configured server named exactly name[0..n), or -1. */
static long server_named(const config *cfg, const char *name, size_t n) {
  for (size_t i = 0; i < cfg->nservers; i++) {
    const char *s = cfg->servers[i].name;
    if (strncmp(s, name, n) == 0 && s[n] == '\0') {
      return (long)i;
    }
  }
  return -1;
}

long mcp_client_find_server(const mcp_client *mc, const char *name) {
  const config *cfg = &mc->h->cfg;
  long exact = server_named(cfg, name, strlen(name));
  if (exact >= 0) {
    return exact;
  }
  /* A name as it appears in mcp__<server>__<tool> is normalized, and
   * shortened when long (names.h). */
  long found = -1;
  for (size_t i = 0; i < cfg->nservers && found < 0; i++) {
    char *n = name_normalize(cfg->servers[i].name);
    char *part = name_server_part(cfg->servers[i].name, mc->opt.name_chars);
    if (strcmp(n, name) == 0 || strcmp(part, name) == 0) {
      found = (long)i;
    }
    free(n);
    free(part);
  }
  return found;
}

/* Finds the configured server a "mcp__<server>__<rest>" reference means:
 * the longest server part (names.h) that prefixes it wins, so servers
 * whose names contain "__" still resolve. Sets *rest to the item part. */
static long resolve_qualified(const mcp_client *mc, const char *ref,
                              const char **rest) {
  const config *cfg = &mc->h->cfg;
  ref_memo *memo = mc->slots ? mc->last_ref : NULL;
  if (memo && memo->ref && strcmp(memo->ref, ref) == 0) {
    *rest = ref + memo->rest;
    return memo->server;
  }
  long best = -1;
  size_t best_len = 0;
  for (size_t i = 0; i < cfg->nservers; i++) {
    char buf[NAME_PART_BUF], *n;
    client_slot *slot = mc->slots && i < mc->nslots ? &mc->slots[i] : NULL;
    size_t len;
    if (slot && slot->part) {
      n = slot->part;
      len = slot->part_len;
    } else {
      len = name_server_part_buf(cfg->servers[i].name, mc->opt.name_chars, buf,
                                 &n);
      if (slot) { /* kept: each call's reference is resolved */
        slot->part = n == buf ? xstrndup(buf, len) : n;
        slot->part_len = len;
        n = slot->part;
      }
    }
    if (strncmp(ref + 5, n, len) == 0 && strncmp(ref + 5 + len, "__", 2) == 0 &&
        ref[5 + len + 2] != '\0' && len > best_len) {
      best = (long)i;
      best_len = len;
    }
    if (n != buf && !slot)
      free(n);
  }
  if (best >= 0) {
    *rest = ref + 5 + best_len + 2;
    if (memo) {
      free(memo->ref);
      memo->ref = xstrdup(ref);
      memo->server = best;
      memo->rest = 5 + best_len + 2;
    }
  }
  return best;
}

void mcp_client_suggest_servers(const mcp_client *mc, const char *name,
                                strbuf *out) {
  const config *cfg = &mc->h->cfg;
  const char **names =
      xcalloc(cfg->nservers ? cfg->nservers : 1, sizeof *names);
  for (size_t i = 0; i < cfg->nservers; i++) {
    names[i] = cfg->servers[i].name;
  }
  mcp_suggest(out, name, names, cfg->nservers);
  free(names);
}

int mcp_client_resolve_ref(const mcp_client *mc, const char *ref,
                           const char *what, size_t *server_idx, char **item,
                           bool *qualified, mcp_error *err) {
  char *srv = NULL, *it = NULL;
  if (str_starts(ref, "mcp__")) {
    /* The usual case, a configured server's mcp__ name: found without
     * taking the reference apart (a match implies what name_parse
     * checks: a server part, "__", an item part). */
    const char *rest = NULL;
    long i = resolve_qualified(mc, ref, &rest);
    if (i >= 0) {
      *qualified = true;
      *server_idx = (size_t)i;
      *item = xstrdup(rest);
      return 0;
    }
  }
  const char *slash = strchr(ref, '/');
  if (!str_starts(ref, "mcp__") && slash && slash != ref && slash[1]) {
    /* SERVER/TOOL of a server's own name, the usual case: found without a
     * copy of the server part (name_parse reads the same parts). */
    long i = server_named(&mc->h->cfg, ref, (size_t)(slash - ref));
    if (i >= 0) {
      *qualified = false;
      *server_idx = (size_t)i;
      *item = xstrdup(slash + 1);
      return 0;
    }
  }
  if (!name_parse(ref, &srv, &it, qualified)) {
    mcp_error_set(err, MCP_ERR_USAGE, NULL,
                  "\"%s\" is not a %s reference: use mcp__SERVER__%s or "
                  "SERVER/%s",
                  ref, what, what, what);
    return -1;
  }
  long i;
  if (*qualified) {
    const char *rest = NULL;
    i = resolve_qualified(mc, ref, &rest);
    if (i >= 0) {
      free(it);
      it = xstrdup(rest);
    }
  } else {
    i = mcp_client_find_server(mc, srv);
  }
  if (i < 0) {
    strbuf hint;
    sb_init(&hint);
    mcp_client_suggest_servers(mc, srv, &hint);
    mcp_error_set(err, MCP_ERR_NOT_FOUND, NULL,
                  "no server named \"%s\" is configured%s", srv,
                  sb_str(&hint));
    sb_free(&hint);
    free(srv);
    free(it);
    return -1;
  }
  free(srv);
  *server_idx = (size_t)i;
  *item = it;
  return 0;
}

/* ---- the end ---- */

void mcp_client_track(mcp_client *mc, struct mcp_op *op) {
  mcp_op_link(&mc->ops, op);
}

void mcp_client_untrack(mcp_client *mc, struct mcp_op *op) {
  mcp_op_unlink(&mc->ops, op);
}

void mcp_client_cancel_all(mcp_client *mc) {
  mcp_ops_cancel_all(mc);
}

/* How long the close at the end may take: a stdio server's time to exit
 * (the stdio transport's MCPHOST_STDIO_EXIT_MS), its second between
 * SIGTERM and SIGKILL, and room; at least the 5 s a remote close gets. */
static uint64_t shutdown_wait_ms(const mcp_client *mc) {
  uint64_t wait = mc->opt.server_exit_ms + 3000;
  return wait > 5000 ? wait : 5000;
}

static void on_closed(void *ud, session *s) {
  size_t *open = ud;
  if ((s->state == SESS_CLOSED || s->state == SESS_FAILED) && *open > 0) {
    (*open)--;
  }
}

void mcp_client_shutdown(mcp_client *mc) {
  if (mc->shut) {
    return;
  }
  mc->shut = true;
  /* Calls still running end as interrupted, before their sessions go. */
  mcp_ops_cancel_all(mc);
  size_t open = 0;
  for (size_t i = 0; i < mc->nslots; i++) {
    client_slot *slot = &mc->slots[i];
    if (slot->restart) {
      loop_timer_cancel(mc->h->loop, slot->restart);
    }
    session *s = slot->s;
    if (!s) {
      continue;
    }
    s->on_notify = NULL;
    s->on_request = NULL;
    s->on_state = NULL;
    if (s->transport_started && !s->transport_closed) {
      s->on_state = on_closed;
      s->on_state_ud = &open;
      open++;
      if (s->state != SESS_CLOSING) {
        session_close(s);
      }
    }
  }
  /* A stdio server has its time to exit after the end of its stdin, then
   * SIGTERM and, a second later, SIGKILL; allow that and a slow remote
   * close, then give up (destroy still kills). A Ctrl-C, before or
   * during the wait, cuts each server's time short (session_hurry), but
   * the close still runs to its end. */
  uint64_t deadline = loop_now_ms() + shutdown_wait_ms(mc);
  bool hurry = false;
  while (open > 0 && loop_now_ms() < deadline) {
    if (!hurry && mc->h->interrupted && mc->h->signal_number == SIGINT) {
      hurry = true;
      for (size_t i = 0; i < mc->nslots; i++) {
        if (mc->slots[i].s) {
          session_hurry(mc->slots[i].s);
        }
      }
    }
    mc->h->interrupted = false; /* a Ctrl-C must not skip the clean close */
    loop_run_once(mc->h->loop, (int)(deadline - loop_now_ms()));
  }
  for (size_t i = 0; i < mc->nslots; i++) {
    session_free(mc->slots[i].s);
    drop_tools(&mc->slots[i]);
    cJSON_Delete(mc->slots[i].roots);
    free(mc->slots[i].tools_error);
    free(mc->slots[i].part);
  }
  free(mc->slots);
  free(mc->pending);
  if (mc->last_ref) {
    free(mc->last_ref->ref);
    free(mc->last_ref);
    mc->last_ref = NULL;
  }
  mc->slots = NULL;
  mc->pending = NULL;
  mc->nslots = mc->npending = 0;
}

void mcp_client_free(mcp_client *mc) {
  if (!mc) {
    return;
  }
  mcp_inproc_release(mc);
  for (struct mcph_run *r = mc->runs, *next; r; r = next) {
    next = r->next;
    for (char **w = r->words; w && *w; w++) {
      free(*w);
    }
    free(r->words);
    free(r);
  }
  free(mc);
}

struct mcph_run *mcp_client_new_run(mcp_client *mc, const plugin *owner) {
  struct mcph_run *r = xcalloc(1, sizeof *r);
  r->owner = owner;
  r->next = mc->runs;
  mc->runs = r;
  return r;
}
