#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../names.h"
#include "../roots.h"
#include "../util.h"
#include "cli.h"

/* Connecting many servers: all are queued, remote ones first, and at most
 * `local_limit` local (stdio) and `remote_limit` remote connects run at
 * once, as Claude Code does; each finished connect starts the next. */
typedef struct connect_queue {
  session **queue;
  size_t n, next_local, next_remote;
  size_t running_local, running_remote;
  size_t local_limit, remote_limit;
  size_t unsettled;
  uint64_t timeout_ms;
  bool done;
} connect_queue;

static bool is_local(const session *s) {
  return strcmp(s->cfg->type, "stdio") == 0 || strcmp(s->cfg->type, "sdk") == 0;
}

static void start_more(connect_queue *q);

static void on_state(void *ud, session *s) {
  connect_queue *q = ud;
  if (!session_is_settled(s) || s->on_state_ud != q)
    return;
  s->on_state = NULL; /* counted once */
  if (is_local(s))
    q->running_local--;
  else
    q->running_remote--;
  if (--q->unsettled == 0)
    q->done = true;
  start_more(q);
}

/* Starts queued connects up to the limits. A connect may settle at once
 * (a config error), which re-enters through on_state: that is fine, the
 * counters are updated before each start. */
static void start_more(connect_queue *q) {
  for (size_t i = 0; i < q->n; i++) {
    session *s = q->queue[i];
    if (s->state != SESS_IDLE)
      continue;
    bool local = is_local(s);
    if (local ? q->running_local >= q->local_limit
              : q->running_remote >= q->remote_limit)
      continue;
    if (local)
      q->running_local++;
    else
      q->running_remote++;
    session_connect(s, q->timeout_ms);
  }
}

static size_t env_count(const char *name, size_t fallback) {
  const char *v = getenv(name);
  char *end;
  unsigned long n = v ? strtoul(v, &end, 10) : 0;
  return v && *v && !*end && n > 0 ? (size_t)n : fallback;
}

long cli_find_server(const cli *c, const char *name) {
  const config *cfg = &c->h->cfg;
  for (size_t i = 0; i < cfg->nservers; i++)
    if (strcmp(cfg->servers[i].name, name) == 0)
      return (long)i;
  /* A name as it appears in mcp__<server>__<tool> is normalized, and
   * shortened when long (names.h). */
  long found = -1;
  for (size_t i = 0; i < cfg->nservers; i++) {
    char *n = name_normalize(cfg->servers[i].name);
    char *part = name_server_part(cfg->servers[i].name, c->lim.name_chars);
    bool match = strcmp(n, name) == 0 || strcmp(part, name) == 0;
    free(n);
    free(part);
    if (match && found < 0)
      found = (long)i;
  }
  return found;
}

session *cli_new_session(cli *c, size_t idx) {
  session *s = session_new(c->h, &c->h->cfg.servers[idx]);
  if (c->log_level)
    s->log_level = xstrdup(c->log_level);
  session_set_roots(
      s, roots_for_server(
             c->h, s->cfg,
             &(roots_options){.dirs = (const char *const *)c->root_dirs,
                              .ndirs = c->nroot_dirs,
                              .none = c->no_roots,
                              .cwd = c->h->paths[MCPH_PATH_CWD]}));
  return s;
}

session *cli_session(cli *c, size_t idx) {
  if (!c->sessions) {
    c->nsessions = c->h->cfg.nservers;
    c->sessions = xcalloc(c->nsessions ? c->nsessions : 1, sizeof *c->sessions);
  }
  if (!c->sessions[idx])
    c->sessions[idx] = cli_new_session(c, idx);
  return c->sessions[idx];
}

size_t cli_connect(cli *c, const size_t *idx, size_t n) {
  connect_queue q = {
      .queue = xcalloc(n ? n : 1, sizeof *q.queue),
      .local_limit = env_count("MCP_SERVER_CONNECTION_BATCH_SIZE", 3),
      .remote_limit = env_count("MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE", 20),
      .timeout_ms = c->connect_timeout_ms,
  };
  /* Remote servers first: they mostly wait on the network. */
  size_t nlocal = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = 0; k < n; k++) {
      session *s = cli_session(c, idx[k]);
      if (is_local(s) != (pass == 1))
        continue;
      /* One a plugin started connecting (mcph.host.servers/1) is waited
       * for like the others. */
      bool joining = s->state == SESS_CONNECTING && !s->on_state;
      if (s->state != SESS_IDLE && !joining)
        continue;
      s->on_state = on_state;
      s->on_state_ud = &q;
      q.queue[q.n++] = s;
      nlocal += pass == 1;
      if (joining) {
        if (is_local(s))
          q.running_local++;
        else
          q.running_remote++;
      }
    }
  q.unsettled = q.n;
  q.done = q.n == 0;
  start_more(&q);
  if (!q.done) {
    /* Each session has its own initialize deadline; this outer one only
     * guards against a transport that never reports anything, allowing
     * for the waves of the queue. */
    size_t waves = (nlocal + q.local_limit - 1) / q.local_limit + 1;
    uint64_t deadline = loop_now_ms() + (c->connect_timeout_ms + 2000) * waves;
    int rc = host_run_until(c->h, &q.done, deadline);
    for (size_t k = 0; k < q.n; k++) {
      session *s = q.queue[k];
      if (!session_is_settled(s)) {
        s->fail = rc == -2 ? FAIL_INTERRUPTED : FAIL_TIMEOUT;
        if (!s->error)
          s->error = xstrdup(rc == -2 ? "interrupted" : "connect timed out");
      }
    }
  }
  size_t ok = 0;
  for (size_t k = 0; k < n; k++) {
    session *s = c->sessions[idx[k]];
    if (s->on_state == on_state)
      s->on_state = NULL;
    ok += s->state == SESS_READY;
  }
  free(q.queue);
  return ok;
}

size_t cli_connect_all(cli *c) {
  size_t n = c->h->cfg.nservers;
  size_t *idx = xcalloc(n ? n : 1, sizeof *idx);
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  size_t ok = cli_connect(c, idx, n);
  free(idx);
  return ok;
}

static void on_closed(void *ud, session *s) {
  size_t *open = ud;
  if ((s->state == SESS_CLOSED || s->state == SESS_FAILED) && *open > 0)
    (*open)--;
}

void cli_shutdown(cli *c) {
  cli_esc_free(c);
  cJSON_Delete(c->last_error_data);
  c->last_error_data = NULL;
  size_t open = 0;
  for (size_t i = 0; i < c->nsessions; i++) {
    session *s = c->sessions[i];
    if (!s)
      continue;
    if (s->transport_started && !s->transport_closed) {
      s->on_state = on_closed;
      s->on_state_ud = &open;
      open++;
      if (s->state != SESS_CLOSING)
        session_close(s);
    }
  }
  /* The stdio close sequence takes at most about a second; allow for a
   * slow remote close too, then give up (destroy still kills). */
  uint64_t deadline = loop_now_ms() + 5000;
  c->h->interrupted = false; /* a Ctrl-C must not skip the clean close */
  while (open > 0 && loop_now_ms() < deadline)
    loop_run_once(c->h->loop, (int)(deadline - loop_now_ms()));
  for (size_t i = 0; i < c->nsessions; i++)
    session_free(c->sessions[i]);
  free(c->sessions);
  c->sessions = NULL;
  c->nsessions = 0;
}

typedef struct sync_req {
  cli *c;
  cli_progress_fn progress;
  bool done;
  cJSON *result;
  rpc_status status;
  int code;
  cJSON *data; /* a JSON-RPC error's data, kept for the caller */
  char message[512];
} sync_req;

static void on_sync_done(void *ud, cJSON *result, const rpc_error *err,
                         bool *take) {
  sync_req *r = ud;
  r->done = true;
  if (err) {
    r->status = err->status;
    r->code = err->code;
    r->data = err->data ? cJSON_Duplicate(err->data, 1) : NULL;
    snprintf(r->message, sizeof r->message, "%s", err->message);
    return;
  }
  r->result = result;
  *take = true;
}

static void on_sync_progress(void *ud, const cJSON *params) {
  sync_req *r = ud;
  r->progress(r->c, params);
}

/* The "still running" line: every MCPHOST_STILL_RUNNING_MS (30000) on a
 * terminal while a tool call runs. */
typedef struct still_running {
  cli *c;
  session *s;
  const char *method;
  uint64_t started;
  loop_timer *timer;
} still_running;

static uint64_t still_running_interval(void) {
  const char *v = getenv("MCPHOST_STILL_RUNNING_MS");
  unsigned long long ms = v && *v ? strtoull(v, NULL, 10) : 0;
  return ms ? ms : 30000;
}

static void on_still_running(void *ud) {
  still_running *sr = ud;
  fprintf(stderr, "mcphost: %s on server \"%s\" still running (%llu s)\n",
          sr->method, cli_esc(sr->c, sr->s->cfg->name),
          (unsigned long long)((loop_now_ms() - sr->started) / 1000));
  sr->timer = loop_timer_start(sr->c->h->loop, still_running_interval(),
                               on_still_running, sr);
}

int cli_result_kind(const char *method) {
  return strcmp(method, "tools/call") == 0 ||
                 strcmp(method, "resources/read") == 0 ||
                 strcmp(method, "prompts/get") == 0
             ? SANITIZE_RESULT
             : SANITIZE_NAMES;
}

int cli_request(cli *c, session *s, const char *method, cJSON *params,
                uint64_t timeout_ms, cli_progress_fn progress, cJSON **result,
                char *why, size_t why_len) {
  sync_req r = {.c = c, .progress = progress};
  /* What the request names, for telling "no such tool" from other
   * errors (cli_exit_code). */
  const cJSON *named = cJSON_GetObjectItemCaseSensitive(params, "name");
  if (!named)
    named = cJSON_GetObjectItemCaseSensitive(params, "uri");
  char *item = cJSON_IsString(named) ? xstrdup(named->valuestring) : NULL;
  rpc_request_opts o = {.timeout_ms = timeout_ms,
                        .on_progress = progress ? on_sync_progress : NULL,
                        .ud = &r,
                        .progress_resets_deadline = true,
                        .kind = cli_result_kind(method)};
  int64_t id = session_request(s, method, params, &o, on_sync_done, why,
                               why_len);
  if (id < 0) {
    free(item);
    return s->state == SESS_READY ? EXIT_PROTOCOL : EXIT_SERVER;
  }
  /* A person waiting on a long tool call sees that it is still alive. */
  still_running sr = {.c = c, .s = s, .method = method,
                      .started = loop_now_ms()};
  if (strcmp(method, "tools/call") == 0 && isatty(2) && !c->quiet_progress)
    sr.timer = loop_timer_start(c->h->loop, still_running_interval(),
                                on_still_running, &sr);
  int rc = host_run_until(c->h, &r.done, 0);
  if (sr.timer)
    loop_timer_cancel(c->h->loop, sr.timer);
  if (rc == -2 && !r.done) {
    free(item);
    rpc_cancel(s->rpc, id, "interrupted by the user");
    snprintf(why, why_len, "%s: interrupted", method);
    return EXIT_INTERRUPTED;
  }
  c->last_error_code = 0;
  if (r.status != RPC_ERR_REMOTE)
    cJSON_Delete(r.data);
  switch (r.status) {
  case RPC_OK:
    free(item);
    *result = r.result;
    return EXIT_OK;
  case RPC_ERR_REMOTE: {
    char *text = rpc_error_text(r.message, r.code);
    snprintf(why, why_len, "server \"%s\": %s failed: %s", s->cfg->name, method,
             text);
    free(text);
    c->last_error_code = r.code;
    cJSON_Delete(c->last_error_data);
    c->last_error_data = r.data;
    break;
  }
  case RPC_ERR_TIMEOUT:
    snprintf(why, why_len, "server \"%s\": %s timed out after %llu ms",
             s->cfg->name, method, (unsigned long long)timeout_ms);
    break;
  case RPC_ERR_CLOSED:
    snprintf(why, why_len, "server \"%s\" went away during %s: %s",
             s->cfg->name, method, r.message);
    break;
  case RPC_ERR_TRANSPORT:
    snprintf(why, why_len, "server \"%s\": %s failed: %s", s->cfg->name,
             method, r.message);
    break;
  case RPC_ERR_CANCELLED:
  case RPC_ERR_LOCAL: snprintf(why, why_len, "%s", r.message); break;
  }
  int code = cli_exit_code(&(cli_failure){.s = s,
                                          .status = r.status,
                                          .rpc_code = r.code,
                                          .message = r.message,
                                          .item = item});
  free(item);
  return code;
}

/* Finds the configured server a "mcp__<server>__<rest>" reference means:
 * the longest server part (names.h) that prefixes it wins, so servers
 * whose names contain "__" still resolve. Sets *rest to the item part. */
static long resolve_qualified(const cli *c, const char *ref,
                              const char **rest) {
  const config *cfg = &c->h->cfg;
  long best = -1;
  size_t best_len = 0;
  for (size_t i = 0; i < cfg->nservers; i++) {
    char *n = name_server_part(cfg->servers[i].name, c->lim.name_chars);
    size_t len = strlen(n);
    if (strncmp(ref + 5, n, len) == 0 && strncmp(ref + 5 + len, "__", 2) == 0 &&
        ref[5 + len + 2] != '\0' && len > best_len) {
      best = (long)i;
      best_len = len;
    }
    free(n);
  }
  if (best >= 0)
    *rest = ref + 5 + best_len + 2;
  return best;
}

/* See cli.h. */
int cli_resolve_ref(const cli *c, const char *ref, const char *what,
                    size_t *server_idx, char **item, bool *qualified,
                    char *why, size_t why_len) {
  char *srv = NULL, *it = NULL;
  if (!name_parse(ref, &srv, &it, qualified)) {
    snprintf(why, why_len,
             "\"%s\" is not a %s reference: use mcp__SERVER__%s or "
             "SERVER/%s",
             ref, what, what, what);
    return EXIT_USAGE;
  }
  long i;
  if (*qualified) {
    const char *rest = NULL;
    i = resolve_qualified(c, ref, &rest);
    if (i >= 0) {
      free(it);
      it = xstrdup(rest);
    }
  } else {
    i = cli_find_server(c, srv);
  }
  if (i < 0) {
    snprintf(why, why_len, "no server named \"%s\" is configured", srv);
    free(srv);
    free(it);
    return EXIT_NOT_FOUND;
  }
  free(srv);
  *server_idx = (size_t)i;
  *item = it;
  return EXIT_OK;
}

