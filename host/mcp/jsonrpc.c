#include "mcp/jsonrpc.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "json_parse.h"
#include "json_raw.h"
#include "json_write.h"

typedef struct pending {
  int64_t id;
  /* The id its caller knows it by: its first one, kept when it is sent
   * again under a new id (rpc_reissue, rpc_request_opts.origin). */
  int64_t origin;
  const char *method; /* one of common_methods, or its own copy */
  char *text;         /* the request as sent, for a retry */
  bool held;    /* registered but not sent yet (see rpc_hold) */
  bool retried; /* sent a second time already */
  unsigned char auth_resends; /* sent again after an authorization */
  rpc_done_fn done;
  rpc_progress_fn on_progress;
  void *ud;
  uint64_t due; /* loop_now_ms() when it times out; 0: no deadline runs */
  uint64_t timeout_ms;
  bool progress_resets_deadline;
  bool raw_ok;   /* the caller takes a cJSON_Raw result */
  bool raw_utf8; /* also when it is not ASCII */
  bool method_own; /* `method` is a copy, freed with the request */
  int kind;      /* rpc_request_opts.kind */
  rpc *owner;
  struct pending *next; /* hash chain */
  char sent[];          /* `text` as first sent, in the same block */
} pending;

static void text_free(pending *p) {
  if (p->text != p->sent) {
    free(p->text);
  }
}

/* The table of requests in flight starts at this many buckets and
 * doubles when it holds twice as many requests: a session with a few
 * requests at a time (most) keeps 64 bytes, not 2 KiB. */
#define MIN_BUCKETS 8u

/* Ids of the last requests we cancelled (or that timed out): the peer
 * may still answer them, which is no error (the spec allows a response
 * that crossed the cancellation). Bounded: the oldest is forgotten. */
#define NCANCELLED 64u

/* rpc_request's buffer keeps its room up to this between requests. */
#define SCRATCH_KEEP_MAX ((size_t)16 << 10)

struct rpc {
  loop *loop;
  rpc_handlers h;
  bool hold;
  unsigned paused; /* rpc_pause_deadlines depth */
  size_t nraw;     /* pending requests with raw_ok */
  int64_t next_id;
  size_t npending;
  pending **buckets; /* nbuckets, a power of two; NULL before the first */
  size_t nbuckets;
  struct progress_watch *watches; /* rpc_watch_progress */
  strbuf scratch;                 /* rpc_request's text is written here first */
  /* One timer for every request's deadline (pending.due), armed at the
   * earliest one it was asked for: a request whose deadline comes later,
   * or that ends before it, moves no timer (one timer started and one
   * cancelled per request cost more than the rest of the bookkeeping);
   * when it fires, the requests past their deadline end and it is armed
   * again at the earliest left. Disarmed when no request is left, so
   * that an idle connection never wakes for a deadline that has gone. */
  loop_timer *deadline; /* loop_timer_new's, made with the first one */
  uint64_t deadline_at; /* when `deadline` fires, when armed */
  int64_t cancelled[NCANCELLED];   /* a ring; 0 is no id */
  unsigned ncancelled;             /* ids put in so far (mod NCANCELLED) */
};

/* Progress for a request already answered (a task's tools/call). */
typedef struct progress_watch {
  int64_t id;
  rpc_progress_fn fn;
  void *ud;
  struct progress_watch *next;
} progress_watch;

static pending **bucket(rpc *r, int64_t id) {
  return &r->buckets[(uint64_t)id & (r->nbuckets - 1)];
}

static pending *pending_find(rpc *r, int64_t id) {
  if (!r->nbuckets)
    return NULL;
  for (pending *p = *bucket(r, id); p; p = p->next)
    if (p->id == id)
      return p;
  return NULL;
}

static void pending_unlink(rpc *r, pending *p) {
  for (pending **pp = bucket(r, p->id); *pp; pp = &(*pp)->next) {
    if (*pp == p) {
      *pp = p->next;
      r->npending--;
      r->nraw -= p->raw_ok;
      return;
    }
  }
}

/* Puts `p` in the table under p->id, which grows first when full. */
static void pending_link(rpc *r, pending *p) {
  if (r->npending >= 2 * r->nbuckets) {
    size_t n = r->nbuckets ? 2 * r->nbuckets : MIN_BUCKETS;
    pending **old = r->buckets;
    size_t nold = r->nbuckets;
    r->buckets = xcalloc(n, sizeof *r->buckets);
    r->nbuckets = n;
    for (size_t i = 0; i < nold; i++) {
      while (old[i]) {
        pending *q = old[i];
        old[i] = q->next;
        pending **b = bucket(r, q->id);
        q->next = *b;
        *b = q;
      }
    }
    free(old);
  }
  pending **b = bucket(r, p->id);
  p->next = *b;
  *b = p;
  r->npending++;
  r->nraw += p->raw_ok;
}

/* Removes `p` from the table and calls its completion. */
static void pending_finish(rpc *r, pending *p, cJSON *result,
                           const rpc_error *err) {
  pending_unlink(r, p);
  if (!r->npending)
    loop_timer_disarm(r->loop, r->deadline);
  bool take = false;
  p->done(p->ud, result, err, &take);
  if (result && !take)
    cJSON_Delete(result);
  if (p->method_own) {
    free((char *)p->method);
  }
  text_free(p);
  free(p);
}

static void warn(rpc *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void warn(rpc *r, const char *fmt, ...) {
  if (!r->h.on_warning)
    return;
  strbuf b;
  sb_init(&b);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  r->h.on_warning(r->h.ud, sb_str(&b));
  sb_free(&b);
}

rpc *rpc_new(loop *l, const rpc_handlers *h) {
  rpc *r = xcalloc(1, sizeof *r);
  r->loop = l;
  r->h = *h;
  r->next_id = 1;
  return r;
}

void rpc_free(rpc *r) {
  if (!r)
    return;
  rpc_fail_all(r, RPC_ERR_CLOSED, "connection closed");
  loop_timer_free(r->loop, r->deadline);
  while (r->watches) {
    progress_watch *w = r->watches;
    r->watches = w->next;
    free(w);
  }
  sb_free(&r->scratch);
  free(r->buckets);
  free(r);
}

void rpc_watch_progress(rpc *r, int64_t id, rpc_progress_fn fn, void *ud) {
  progress_watch *w = xcalloc(1, sizeof *w);
  *w = (progress_watch){.id = id, .fn = fn, .ud = ud, .next = r->watches};
  r->watches = w;
}

void rpc_unwatch_progress(rpc *r, int64_t id) {
  for (progress_watch **pp = &r->watches; *pp; pp = &(*pp)->next) {
    if ((*pp)->id == id) {
      progress_watch *w = *pp;
      *pp = w->next;
      free(w);
      return;
    }
  }
}

size_t rpc_pending_count(const rpc *r) {
  return r->npending;
}

size_t rpc_pending_of(const rpc *r, const char *const *methods) {
  size_t n = 0;
  for (size_t b = 0; b < r->nbuckets && n < r->npending; b++) {
    for (const pending *p = r->buckets[b]; p; p = p->next) {
      for (const char *const *m = methods; *m; m++) {
        if (p->method && strcmp(p->method, *m) == 0) {
          n++;
          break;
        }
      }
    }
  }
  return n;
}

static int send_json(rpc *r, cJSON *msg, char *why, size_t why_len) {
  strbuf text;
  sb_init(&text);
  if (json_write(&text, msg) != 0) {
    snprintf(why, why_len, "a message that cannot be written as JSON");
    return -EINVAL;
  }
  int rc = r->h.send(r->h.ud, text.data, text.len, why, why_len);
  sb_free(&text);
  return rc;
}

/* Tells the peer we gave up on request `p`. Never for initialize: the
 * spec forbids cancelling it (the connection is closed instead). */
static void send_cancelled(rpc *r, const pending *p, const char *reason) {
  if (strcmp(p->method, "initialize") == 0 || p->held)
    return;
  int64_t id = p->id;
  cJSON *params = cJSON_CreateObject();
  cJSON_AddNumberToObject(params, "requestId", (double)id);
  if (reason)
    cJSON_AddStringToObject(params, "reason", reason);
  rpc_notify(r, "notifications/cancelled", params);
  r->cancelled[r->ncancelled++ % NCANCELLED] = id;
}

static bool was_cancelled(const rpc *r, int64_t id) {
  for (unsigned i = 0; i < NCANCELLED; i++) {
    if (r->cancelled[i] == id) {
      return true;
    }
  }
  return false;
}

static void on_deadline(void *ud);

/* Arms the deadline timer for `due` unless it fires before then. */
static void deadline_arm(rpc *r, uint64_t due) {
  if (loop_timer_armed(r->deadline) && r->deadline_at <= due)
    return;
  if (!r->deadline && !(r->deadline = loop_timer_new(r->loop, on_deadline, r)))
    abort(); /* out of memory, as xmalloc */
  uint64_t now = loop_now_ms();
  loop_timer_arm(r->loop, r->deadline, due > now ? due - now : 0);
  r->deadline_at = due;
}

/* Ends `p`, past its deadline. */
static void time_out(rpc *r, pending *p) {
  send_cancelled(r, p, "timed out");
  char msg[256];
  snprintf(msg, sizeof msg, "%s timed out", p->method);
  rpc_error err = {.status = RPC_ERR_TIMEOUT, .message = msg};
  pending_finish(r, p, NULL, &err);
}

static int cmp_due(const void *a, const void *b) {
  const pending *x = *(pending *const *)a, *y = *(pending *const *)b;
  if (x->due != y->due)
    return x->due < y->due ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* The deadline timer: the requests past their deadline end, earliest
 * first (ids in start order among equal ones), each looked up again (an
 * ending one's completion may end or start others); then the timer is
 * armed for the earliest deadline left. */
static void on_deadline(void *ud) {
  rpc *r = ud;
  uint64_t now = loop_now_ms();
  size_t n = 0;
  for (size_t i = 0; i < r->nbuckets; i++)
    for (const pending *p = r->buckets[i]; p; p = p->next)
      n += p->due && p->due <= now;
  if (n) {
    pending **list = xcalloc(n, sizeof *list);
    size_t k = 0;
    for (size_t i = 0; i < r->nbuckets; i++)
      for (pending *p = r->buckets[i]; p; p = p->next)
        if (p->due && p->due <= now)
          list[k++] = p;
    qsort(list, n, sizeof *list, cmp_due);
    int64_t *ids = xcalloc(n, sizeof *ids);
    for (size_t i = 0; i < n; i++)
      ids[i] = list[i]->id;
    free(list);
    for (size_t i = 0; i < n; i++) {
      pending *p = pending_find(r, ids[i]);
      if (p && p->due && p->due <= now)
        time_out(r, p);
    }
    free(ids);
  }
  uint64_t next = 0;
  for (size_t i = 0; i < r->nbuckets; i++)
    for (const pending *p = r->buckets[i]; p; p = p->next)
      if (p->due && (!next || p->due < next))
        next = p->due;
  if (next)
    deadline_arm(r, next);
}

/* The decimal text of an id (>= 1), NUL-terminated, and its length:
 * printf's parsing of its format cost more than the rest of writing a
 * small request. */
static size_t id_text(int64_t id, char buf[24]) {
  char digits[24], *p = digits + sizeof digits;
  uint64_t u = (uint64_t)id;
  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  size_t n = (size_t)(digits + sizeof digits - p);
  memcpy(buf, p, n);
  buf[n] = '\0';
  return n;
}

/* Appends `params` to `b` with a "_meta": {"progressToken": ID} member,
 * as if it were its last: the text is written, not a tree changed (on
 * every call, the usual case). A "_meta" the caller gave keeps its other
 * members, the token replaced. */
static int write_params_with_token(strbuf *b, cJSON *params, const char *idtext,
                                   size_t idlen) {
  cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
  if (meta || !cJSON_IsObject(params)) {
    if (!cJSON_IsObject(meta)) {
      cJSON_DeleteItemFromObjectCaseSensitive(params, "_meta");
      meta = cJSON_AddObjectToObject(params, "_meta");
    }
    cJSON_DeleteItemFromObjectCaseSensitive(meta, "progressToken");
    cJSON_AddRawToObject(meta, "progressToken", idtext);
    return json_write(b, params);
  }
  if (json_write(b, params) != 0)
    return -1;
  b->len--; /* its closing brace */
  if (params->child)
    sb_addc(b, ',');
  sb_addl(b, "\"_meta\":{\"progressToken\":");
  sb_add(b, idtext, idlen);
  sb_addl(b, "}}");
  return 0;
}

/* The methods most requests are: a request of one of them names it here,
 * without a copy of its own (2,000 calls in flight: 64 KB fewer), and
 * writes it as the JSON string it is (none needs an escape). */
static const struct common_method {
  const char *name, *quoted;
  size_t quoted_len;
} common_methods[] = {
#define COMMON_METHOD(m)                                                       \
  { m, "\"" m "\"", sizeof m + 1 }
    COMMON_METHOD("tools/call"),     COMMON_METHOD("tools/list"),
    COMMON_METHOD("prompts/get"),    COMMON_METHOD("prompts/list"),
    COMMON_METHOD("resources/read"), COMMON_METHOD("resources/list"),
    COMMON_METHOD("ping"),           COMMON_METHOD("tasks/get"),
    COMMON_METHOD("tasks/result"),
#undef COMMON_METHOD
};

static const struct common_method *common_method(const char *method) {
  for (size_t i = 0; i < sizeof common_methods / sizeof common_methods[0];
       i++) {
    if (strcmp(method, common_methods[i].name) == 0) {
      return &common_methods[i];
    }
  }
  return NULL;
}

int64_t rpc_request(rpc *r, const char *method, cJSON *params,
                    const rpc_request_opts *opts, rpc_done_fn done) {
  int64_t id = r->next_id++;
  char idtext[24];
  size_t idlen = id_text(id, idtext);
  const struct common_method *common = common_method(method);
  /* The message is written as text, members in the order a tree of them
   * would print: no tree of it is built only to be printed. */
  /* Written in the rpc's own buffer, then kept at its size until the
   * answer, for a resend: a buffer of room reserved per request would be
   * held as long (2,000 requests in flight: 200 KiB). */
  strbuf t = r->scratch;
  sb_init(&r->scratch);
  t.len = 0;
  sb_reserve(&t, 256); /* a tools/call of small arguments */
  sb_addl(&t, "{\"jsonrpc\":\"2.0\",\"id\":");
  sb_add(&t, idtext, idlen);
  sb_addl(&t, ",\"method\":");
  if (common) {
    sb_add(&t, common->quoted, common->quoted_len);
  } else {
    json_write_string(&t, method);
  }
  if (opts && opts->on_progress && !params)
    params = cJSON_CreateObject();
  int bad = 0;
  if (params) {
    sb_addl(&t, ",\"params\":");
    bad = opts && opts->on_progress
              ? write_params_with_token(&t, params, idtext, idlen)
              : json_write(&t, params);
    cJSON_Delete(params);
  }
  sb_addc(&t, '}');
  size_t text_len = t.len;
  /* The request and its text in one block. */
  pending *p = bad ? NULL : xmalloc(sizeof *p + text_len + 1);
  if (p) {
    *p = (pending){.text = p->sent};
    memcpy(p->sent, t.data, text_len + 1);
  }
  if (t.cap > SCRATCH_KEEP_MAX) {
    sb_free(&t);
  }
  r->scratch = t;
  if (bad) {
    return -EINVAL;
  }
  bool held = r->hold && !(opts && opts->urgent);
  if (!held) {
    char why[256] = "";
    int rc = r->h.send(r->h.ud, p->text, text_len, why, sizeof why);
    if (rc < 0) { /* the caller reports it; the transport says why */
      free(p);
      return rc;
    }
  }
  p->id = id;
  p->origin = opts && opts->origin > 0 ? opts->origin : id;
  p->method = common ? common->name : NULL;
  if (!p->method) {
    p->method = xstrdup(method);
    p->method_own = true;
  }
  p->held = held;
  p->done = done;
  p->on_progress = opts ? opts->on_progress : NULL;
  p->ud = opts ? opts->ud : NULL;
  p->owner = r;
  p->raw_ok = opts && opts->raw_result;
  p->raw_utf8 = opts && opts->raw_utf8;
  p->kind = opts ? opts->kind : 0;
  if (opts && opts->timeout_ms) {
    p->timeout_ms = opts->timeout_ms;
    p->progress_resets_deadline = opts->progress_resets_deadline;
    if (!r->paused) {
      p->due = loop_now_ms() + opts->timeout_ms;
      deadline_arm(r, p->due);
    }
  }
  pending_link(r, p);
  return id;
}

int rpc_notify(rpc *r, const char *method, cJSON *params) {
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
  cJSON_AddStringToObject(msg, "method", method);
  if (params)
    cJSON_AddItemToObject(msg, "params", params);
  char why[256] = "";
  int rc = send_json(r, msg, why, sizeof why);
  cJSON_Delete(msg);
  return rc;
}

bool rpc_fail(rpc *r, int64_t id, rpc_status status, const char *message) {
  pending *p = pending_find(r, id);
  if (!p)
    return false;
  rpc_error err = {.status = status, .message = message};
  pending_finish(r, p, NULL, &err);
  return true;
}

static int cmp_pending(const void *a, const void *b) {
  int64_t x = (*(pending *const *)a)->id, y = (*(pending *const *)b)->id;
  return x < y ? -1 : x > y;
}

void rpc_hold(rpc *r, bool on) {
  r->hold = on;
  if (on)
    return;
  /* Send what was held, oldest first. */
  pending **list = xcalloc(r->npending ? r->npending : 1, sizeof *list);
  size_t n = 0;
  for (size_t i = 0; i < r->nbuckets; i++)
    for (pending *p = r->buckets[i]; p; p = p->next)
      if (p->held)
        list[n++] = p;
  qsort(list, n, sizeof *list, cmp_pending);
  int64_t *ids = xcalloc(n ? n : 1, sizeof *ids);
  for (size_t i = 0; i < n; i++)
    ids[i] = list[i]->id;
  free(list);
  /* A failed send completes its request, which may start others: look
   * each one up again. */
  for (size_t i = 0; i < n; i++) {
    pending *p = pending_find(r, ids[i]);
    if (!p || !p->held)
      continue;
    p->held = false;
    char why[256] = "";
    if (r->h.send(r->h.ud, p->text, strlen(p->text), why, sizeof why) < 0) {
      rpc_error err = {.status = RPC_ERR_TRANSPORT,
                       .message = why[0] ? why : "cannot send"};
      pending_finish(r, p, NULL, &err);
    }
  }
  free(ids);
}

bool rpc_retry(rpc *r, int64_t id) {
  pending *p = pending_find(r, id);
  if (!p || p->retried)
    return false;
  p->retried = true;
  if (r->hold) {
    p->held = true;
    return true;
  }
  char why[256] = "";
  return r->h.send(r->h.ud, p->text, strlen(p->text), why, sizeof why) >= 0;
}

int64_t rpc_reissue(rpc *r, int64_t id) {
  pending *p = pending_find(r, id);
  if (!p || p->retried)
    return 0;
  cJSON *msg = json_parse(p->text, strlen(p->text), NULL);
  if (!msg)
    return 0;
  int64_t nid = r->next_id++;
  char idtext[24];
  snprintf(idtext, sizeof idtext, "%" PRId64, nid);
  cJSON_ReplaceItemInObjectCaseSensitive(msg, "id", cJSON_CreateRaw(idtext));
  cJSON *meta = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(msg, "params"), "_meta");
  if (cJSON_HasObjectItem(meta, "progressToken"))
    cJSON_ReplaceItemInObjectCaseSensitive(meta, "progressToken",
                                           cJSON_CreateRaw(idtext));
  char *text = json_print(msg);
  cJSON_Delete(msg);
  if (!text)
    return 0;
  pending_unlink(r, p);
  p->id = nid;
  p->retried = true;
  text_free(p);
  p->text = text;
  pending_link(r, p);
  if (r->hold) {
    p->held = true;
    return nid;
  }
  char why[256] = "";
  r->h.send(r->h.ud, p->text, strlen(p->text), why, sizeof why);
  return nid;
}

bool rpc_retry_auth(rpc *r, int64_t id) {
  pending *p = pending_find(r, id);
  if (!p || p->auth_resends >= RPC_MAX_AUTH_RESENDS)
    return false;
  p->auth_resends++;
  if (r->hold) {
    p->held = true;
    return true;
  }
  char why[256] = "";
  return r->h.send(r->h.ud, p->text, strlen(p->text), why, sizeof why) >= 0;
}

void rpc_retry_all(rpc *r, const char *message) {
  r->hold = true;
  bool again = true;
  while (again) {
    again = false;
    for (size_t i = 0; i < r->nbuckets && !again; i++)
      for (pending *p = r->buckets[i]; p; p = p->next) {
        if (p->held)
          continue;
        if (p->retried) {
          rpc_error err = {.status = RPC_ERR_TRANSPORT, .message = message};
          pending_finish(r, p, NULL, &err);
          again = true; /* the table may have changed: start over */
          break;
        }
        p->retried = p->held = true;
      }
  }
}

void rpc_fail_held(rpc *r, rpc_status status, const char *message) {
  bool again = true;
  while (again) {
    again = false;
    for (size_t i = 0; i < r->nbuckets && !again; i++)
      for (pending *p = r->buckets[i]; p; p = p->next)
        if (p->held) {
          rpc_error err = {.status = status, .message = message};
          pending_finish(r, p, NULL, &err);
          again = true; /* the table may have changed: start over */
          break;
        }
  }
}

bool rpc_fail_unusable(rpc *r, const char *head, size_t len, const char *why) {
  int64_t id = rpc_scan_id(head, len);
  if (id < 0 || !pending_find(r, id))
    return false;
  rpc_error err = {.status = RPC_ERR_TRANSPORT, .message = why};
  pending_finish(r, pending_find(r, id), NULL, &err);
  return true;
}

static bool parse_id(const cJSON *id, int64_t *out);

int64_t rpc_id_of(const char *json, size_t len) {
  cJSON *msg = json_parse(json, len, NULL);
  int64_t id = -1;
  const cJSON *idj = cJSON_GetObjectItemCaseSensitive(msg, "id");
  if (!parse_id(idj, &id))
    id = -1;
  cJSON_Delete(msg);
  return id;
}

/* The request first sent as `id`, now under another id. Ids only grow,
 * so no live request has `id` as its own id then. */
static pending *pending_find_origin(rpc *r, int64_t id) {
  for (size_t i = 0; i < r->nbuckets; i++)
    for (pending *p = r->buckets[i]; p; p = p->next)
      if (p->origin == id)
        return p;
  return NULL;
}

void rpc_cancel(rpc *r, int64_t id, const char *reason) {
  pending *p = pending_find(r, id);
  if (!p)
    p = pending_find_origin(r, id);
  if (!p)
    return;
  send_cancelled(r, p, reason);
  char msg[256];
  snprintf(msg, sizeof msg, "%s cancelled: %s", p->method,
           reason ? reason : "by the user");
  rpc_error err = {.status = RPC_ERR_CANCELLED, .message = msg};
  pending_finish(r, p, NULL, &err);
}

/* Completion callbacks may start or finish other requests, so the table
 * is walked from the start after each completion. */
static pending *any_pending(rpc *r) {
  for (size_t i = 0; i < r->nbuckets; i++)
    if (r->buckets[i])
      return r->buckets[i];
  return NULL;
}

void rpc_cancel_all(rpc *r, const char *reason) {
  pending *p;
  while (r->npending && (p = any_pending(r)))
    rpc_cancel(r, p->id, reason);
}

void rpc_pause_deadlines(rpc *r) {
  if (r->paused++)
    return;
  for (size_t i = 0; i < r->nbuckets; i++)
    for (pending *p = r->buckets[i]; p; p = p->next)
      p->due = 0;
  loop_timer_disarm(r->loop, r->deadline);
}

void rpc_resume_deadlines(rpc *r) {
  if (!r->paused || --r->paused)
    return;
  uint64_t now = loop_now_ms();
  for (size_t i = 0; i < r->nbuckets; i++)
    for (pending *p = r->buckets[i]; p; p = p->next)
      if (p->timeout_ms && !p->due) {
        p->due = now + p->timeout_ms;
        deadline_arm(r, p->due);
      }
}

void rpc_fail_all(rpc *r, rpc_status status, const char *message) {
  pending *p;
  while (r->npending && (p = any_pending(r))) {
    rpc_error err = {.status = status, .message = message};
    pending_finish(r, p, NULL, &err);
  }
}

int rpc_respond(rpc *r, const cJSON *id, cJSON *result) {
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
  cJSON_AddItemToObject(msg, "id", cJSON_Duplicate(id, 1));
  cJSON_AddItemToObject(msg, "result", result ? result : cJSON_CreateObject());
  char why[256] = "";
  int rc = send_json(r, msg, why, sizeof why);
  cJSON_Delete(msg);
  return rc;
}

int rpc_respond_error(rpc *r, const cJSON *id, int code, const char *message) {
  return rpc_respond_error_data(r, id, code, message, NULL);
}

int rpc_respond_error_data(rpc *r, const cJSON *id, int code,
                           const char *message, cJSON *data) {
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
  cJSON_AddItemToObject(msg, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
  cJSON *e = cJSON_AddObjectToObject(msg, "error");
  cJSON_AddNumberToObject(e, "code", code);
  cJSON_AddStringToObject(e, "message", message);
  if (data) {
    cJSON_AddItemToObject(e, "data", data);
  }
  char why[256] = "";
  int rc = send_json(r, msg, why, sizeof why);
  cJSON_Delete(msg);
  return rc;
}

/* Our ids are integers; accept them back as numbers or, leniently, as
 * decimal strings (some servers stringify ids). A number is one of ours
 * only as the plain integer we wrote: one whose token was kept
 * (json_parse.h: 16 digits or more, 1e400, 1.0) is not, though its
 * double may equal one (9007199254740993 reads as 9007199254740992). */
static bool parse_id(const cJSON *id, int64_t *out) {
  if (cJSON_IsNumber(id)) {
    double d = id->valuedouble;
    if (id->valuestring || d != floor(d) || d < 1 || d >= 1e15)
      return false;
    *out = (int64_t)d;
    return true;
  }
  if (cJSON_IsString(id)) {
    char *end;
    errno = 0;
    long long v = strtoll(id->valuestring, &end, 10);
    if (errno || *end || end == id->valuestring || v < 1)
      return false;
    *out = v;
    return true;
  }
  return false;
}

int64_t rpc_origin_of_token(rpc *r, const cJSON *token) {
  int64_t id;
  pending *p;
  if (!parse_id(token, &id) || !(p = pending_find(r, id)) ||
      !p->on_progress) {
    return 0; /* not a token of a request in flight */
  }
  return p->origin;
}

static void route_progress(rpc *r, const cJSON *params) {
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(params, "progressToken");
  int64_t id;
  pending *p;
  if (!parse_id(tok, &id))
    return; /* a token we never sent */
  if (!(p = pending_find(r, id)) || !p->on_progress) {
    for (const progress_watch *w = r->watches; w; w = w->next)
      if (w->id == id) {
        w->fn(w->ud, params);
        return;
      }
    return; /* progress after the result, or for a token we never sent */
  }
  if (p->progress_resets_deadline && p->due && !r->paused) {
    /* A long call that reports progress is alive: give it a new
     * deadline rather than killing it (a later one: the timer, armed
     * for an earlier one, finds it then). */
    p->due = loop_now_ms() + p->timeout_ms;
  }
  p->on_progress(p->ud, params);
}

static void handle_response(rpc *r, cJSON *msg) {
  const cJSON *idj = cJSON_GetObjectItemCaseSensitive(msg, "id");
  int64_t id;
  pending *p = NULL;
  bool has_id = parse_id(idj, &id);
  if (has_id)
    p = pending_find(r, id);
  if (!p) {
    char *s = json_print(idj);
    if (has_id && was_cancelled(r, id)) {
      if (r->h.on_debug) {
        strbuf b;
        sb_init(&b);
        sb_printf(&b, "dropped the late response to cancelled request %s",
                  s ? s : "?");
        r->h.on_debug(r->h.ud, sb_str(&b));
        sb_free(&b);
      }
    } else {
      warn(r, "dropped a response with unknown id %s", s ? s : "?");
    }
    free(s);
    return;
  }
  cJSON *error = cJSON_GetObjectItemCaseSensitive(msg, "error");
  if (error) {
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(error, "code");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(error, "message");
    rpc_error err = {
        .status = RPC_ERR_REMOTE,
        .code = cJSON_IsNumber(code) ? code->valueint : MCPH_RPC_INTERNAL_ERROR,
        .message = cJSON_IsString(m) ? m->valuestring : "(no message)",
        .data = cJSON_GetObjectItemCaseSensitive(error, "data"),
    };
    pending_finish(r, p, NULL, &err);
    return;
  }
  cJSON *result = cJSON_DetachItemFromObjectCaseSensitive(msg, "result");
  if (!result) {
    rpc_error err = {.status = RPC_ERR_REMOTE,
                     .code = MCPH_RPC_INVALID_REQUEST,
                     .message = "response has neither result nor error"};
    pending_finish(r, p, NULL, &err);
    return;
  }
  pending_finish(r, p, result, NULL);
}

/* `own`: `json` itself, when the caller gives it up (rpc_receive_owned):
 * the result is then minified where it is and the buffer becomes it. */
static bool receive_raw(rpc *r, const char *json, size_t len, char *own) {
  json_raw_info in;
  if (!json_raw_response(json, len, &in))
    return false;
  pending *p = pending_find(r, in.id);
  if (!p || !p->raw_ok || (!in.ascii && !p->raw_utf8))
    return false; /* the ordinary path says what is wrong, if anything */
  size_t off = in.result_off, n = in.result_len, m = n;
  char *text;
  if (own) {
    if (in.compact)
      memmove(own, own + off, n);
    else
      m = json_raw_minify(own + off, n, own);
    text = realloc(own, m + 1); /* shrinks: the rest given back */
    if (!text)
      abort();
  } else {
    text = xmalloc(n + 1);
    if (in.compact)
      memcpy(text, json + off, n);
    else
      m = json_raw_minify(json + off, n, text);
  }
  text[m] = '\0';
  /* A node made a raw one by hand: cJSON_CreateRaw would copy a text
   * only for it to be replaced. It carries what the scan found
   * (rpc_raw_length, rpc_raw_has), so no one reads 10 MiB again to
   * learn it. */
  cJSON *result = cJSON_CreateNull();
  if (!result)
    abort();
  result->type = cJSON_Raw;
  result->valuestring = text; /* freed by cJSON_Delete (default hooks) */
  result->valuedouble = (double)m;
  result->valueint = RPC_RAW_SCANNED | (in.is_error ? RPC_RAW_IS_ERROR : 0) |
                     (in.type_other ? RPC_RAW_TYPE_OTHER : 0);
  pending_finish(r, p, result, NULL);
  return true;
}

size_t rpc_raw_length(const cJSON *raw) {
  return raw->valueint & RPC_RAW_SCANNED ? (size_t)raw->valuedouble
                                         : strlen(raw->valuestring);
}

/* The kind of the pending request `msg` answers, or -1. */
static int inbound_kind(rpc *r, const cJSON *msg) {
  if (!cJSON_IsObject(msg) || cJSON_GetObjectItemCaseSensitive(msg, "method"))
    return -1;
  int64_t id;
  const pending *p = NULL;
  if (parse_id(cJSON_GetObjectItemCaseSensitive(msg, "id"), &id))
    p = pending_find(r, id);
  return p ? p->kind : -1;
}

/* A message that is not JSON (json_parse's *jerr): said once, and the
 * request it answered failed, if its id can be read. */
static void receive_invalid(rpc *r, const char *json, size_t len,
                            const json_error *jerr) {
  char why[240];
  snprintf(why, sizeof why,
           "the server's answer (%zu bytes) is not valid JSON or is nested "
           "too deeply (%s, at byte %zu)",
           len, jerr->what, jerr->offset);
  warn(r, "dropped a message that is not valid JSON (%zu bytes)", len);
  rpc_fail_unusable(r, json, len, why); /* the id may come last */
}

static void receive_message(rpc *r, cJSON *msg);

void rpc_receive(rpc *r, const char *json, size_t len) {
  /* A result whose caller only passes it on skips the tree when it can
   * (json_raw.h), whatever its size: the scan costs less than parsing
   * even a 100-byte answer, and far less than parsing and printing it. */
  if (r->nraw && receive_raw(r, json, len, NULL))
    return;
  json_error jerr;
  cJSON *msg = json_parse(json, len, &jerr);
  if (!msg) {
    receive_invalid(r, json, len, &jerr);
    return;
  }
  receive_message(r, msg);
}

void rpc_receive_owned(rpc *r, char *json, size_t len) {
  if (r->nraw && receive_raw(r, json, len, json))
    return;
  json_error jerr;
  cJSON *msg = json_parse_owned(json, len, &jerr);
  if (!msg) {
    receive_invalid(r, json, len, &jerr);
    free(json);
    return;
  }
  receive_message(r, msg);
}

/* A parsed message, taken (deleted here). */
static void receive_message(rpc *r, cJSON *msg) {
  /* The one entry point of the peer's text: the owner sees it before
   * anything else does. */
  if (r->h.inbound)
    r->h.inbound(r->h.ud, msg, inbound_kind(r, msg));
  if (cJSON_IsArray(msg)) {
    /* MCP since 2025-06-18 has no batches; answer once, cleanly. */
    warn(r, "rejected a JSON-RPC batch of %d messages",
         cJSON_GetArraySize(msg));
    rpc_respond_error(r, NULL, MCPH_RPC_INVALID_REQUEST,
                      "JSON-RPC batches are not supported");
    goto out;
  }
  if (!cJSON_IsObject(msg)) {
    warn(r, "dropped a message that is not a JSON object");
    goto out;
  }
  const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  if (cJSON_IsString(method)) {
    if (id && !cJSON_IsNull(id)) {
      if (!cJSON_IsNumber(id) && !cJSON_IsString(id)) {
        rpc_respond_error(r, NULL, MCPH_RPC_INVALID_REQUEST,
                          "invalid request id");
        goto out;
      }
      if (r->h.on_request)
        r->h.on_request(r->h.ud, method->valuestring, params, id);
      else
        rpc_respond_error(r, id, MCPH_RPC_METHOD_NOT_FOUND, "Method not found");
    } else if (strcmp(method->valuestring, "notifications/progress") == 0) {
      route_progress(r, params);
    } else if (r->h.on_notification) {
      r->h.on_notification(r->h.ud, method->valuestring, params);
    }
  } else if (id) {
    handle_response(r, msg);
  } else {
    warn(r, "dropped a message that is neither request, notification nor "
            "response");
  }
out:
  cJSON_Delete(msg);
}

char *rpc_error_text(const char *message, int code) {
  char num[16];
  snprintf(num, sizeof num, "%d", code);
  const char *m = message && *message ? message : "(no message)";
  /* The code as a whole number in the text, not part of another one. */
  for (const char *p = strstr(m, num); p; p = strstr(p + 1, num)) {
    bool before = p > m && p[-1] >= '0' && p[-1] <= '9';
    char after = p[strlen(num)];
    if (!before && !(after >= '0' && after <= '9'))
      return xstrdup(m);
  }
  return xasprintf("%s (error %d)", m, code);
}
