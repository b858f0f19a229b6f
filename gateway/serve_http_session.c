/* The gateway's HTTP sessions (serve_http.h): one gateway client
 * (serve.c) per Mcp-Session-Id, and its streams.
 *
 * A POST's request gets a stream that carries what belongs to it (its
 * progress, a question asked for it, its answer) and ends with the
 * answer; the standalone stream (GET) carries the rest (list_changed,
 * logging). Every event has an id "<stream>-<seq>" and is kept in its
 * stream's log (bounded) until the stream is delivered, so that a client
 * whose connection broke resumes with GET and Last-Event-ID and gets
 * what followed. A request answered at once is answered with JSON.
 *
 * A session is active while a request of it is in flight or a stream of
 * it is open; once neither holds, it is idle from its last request (or
 * answer, or closed stream) and ends after gw_http.idle_ms, or sooner
 * when the table is full and it is the idlest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/serve_http.h"
#include "json_write.h"

/* What a stream keeps for resumption, and how many finished streams a
 * session keeps whose connection broke before they were delivered. */
#define LOG_MAX_EVENTS 1024
#define LOG_MAX_BYTES (8u << 20)
#define KEEP_UNDELIVERED 16

typedef struct gw_event {
  unsigned long seq;
  char *json; /* owned */
  size_t len;
  struct gw_event *next;
} gw_event;

struct gw_stream {
  gw_session *s;
  unsigned no;
  unsigned long seq; /* the last event's */
  cJSON *reqs;       /* a POST's request ids still unanswered (owned) */
  bool standalone;   /* the GET stream */
  bool choosing;     /* the POST is handled: JSON or SSE is not known */
  gw_event *head, *tail;
  size_t count, bytes;
  gw_conn *cn; /* the connection carrying it, or NULL */
  gw_stream *next;
};

struct gw_session {
  gw_http *h;
  char id[33];
  gw *g;
  gw_stream *streams;
  gw_stream *standalone;
  unsigned next_no;
  uint64_t last_ms; /* its last request, answer or closed stream */
  gw_session *next;
};

static bool stream_complete(const gw_stream *st) {
  return !st->standalone && cJSON_GetArraySize(st->reqs) == 0;
}

static void write_event(gw_stream *st, const gw_event *e) {
  strbuf b;
  sb_init(&b);
  sb_printf(&b, "id: %u-%lu\ndata: ", st->no, e->seq);
  sb_add(&b, e->json, e->len);
  sb_adds(&b, "\n\n");
  gw_conn_write(st->cn, b.data, b.len);
  sb_free(&b);
}

static void stream_free(gw_stream *st) {
  gw_session *s = st->s;
  for (gw_stream **p = &s->streams; *p; p = &(*p)->next) {
    if (*p == st) {
      *p = st->next;
      break;
    }
  }
  if (s->standalone == st) {
    s->standalone = NULL;
  }
  if (st->cn) {
    gw_conn_abort(st->cn);
  }
  while (st->head) {
    gw_event *e = st->head;
    st->head = e->next;
    free(e->json);
    free(e);
  }
  cJSON_Delete(st->reqs);
  free(st);
}

static gw_stream *stream_new(gw_session *s, bool standalone) {
  gw_stream *st = xcalloc(1, sizeof *st);
  st->s = s;
  st->no = s->next_no++;
  st->standalone = standalone;
  st->reqs = cJSON_CreateArray();
  st->next = s->streams;
  s->streams = st;
  /* Finished streams nobody resumed: the oldest go. */
  size_t kept = 0;
  for (gw_stream *o = s->streams, *next; o; o = next) {
    next = o->next;
    if (!o->cn && stream_complete(o) && ++kept > KEEP_UNDELIVERED) {
      stream_free(o);
    }
  }
  return st;
}

static void stream_push(gw_stream *st, char *json) {
  gw_event *e = xcalloc(1, sizeof *e);
  e->seq = ++st->seq;
  e->json = json;
  e->len = strlen(json);
  if (st->tail) {
    st->tail->next = e;
  } else {
    st->head = e;
  }
  st->tail = e;
  st->count++;
  st->bytes += e->len;
  while (st->head != e &&
         (st->count > LOG_MAX_EVENTS || st->bytes > LOG_MAX_BYTES)) {
    gw_event *old = st->head;
    st->head = old->next;
    st->count--;
    st->bytes -= old->len;
    free(old->json);
    free(old);
  }
  if (st->cn && !st->choosing) {
    write_event(st, e);
  }
}

/* The stream of the request `req` of this session, or NULL. */
static gw_stream *stream_of(gw_session *s, const cJSON *req, int *at) {
  for (gw_stream *st = s->streams; st && req; st = st->next) {
    int i = 0;
    for (const cJSON *id = st->reqs ? st->reqs->child : NULL; id;
         id = id->next, i++) {
      if (cJSON_Compare(id, req, true)) {
        *at = i;
        return st;
      }
    }
  }
  return NULL;
}

/* gw_send_fn: the gateway's message to this session's client. */
static void session_send(void *ud, cJSON *msg, const cJSON *req) {
  gw_session *s = ud;
  int at = -1;
  s->last_ms = mcphost_now_ms();
  gw_stream *st = stream_of(s, req, &at);
  bool response = !cJSON_GetObjectItemCaseSensitive(msg, "method");
  if (!st) {
    if (!s->standalone) {
      s->standalone = stream_new(s, true);
    }
    st = s->standalone;
  }
  char *json = json_print(msg);
  cJSON_Delete(msg);
  if (!json) {
    return;
  }
  if (response && at >= 0) {
    cJSON_DeleteItemFromArray(st->reqs, at);
  }
  stream_push(st, json);
  if (stream_complete(st) && st->cn && !st->choosing) {
    gw_conn_finish(st->cn);
  }
}

/* A cancelled request is not answered: its stream ends without. */
static void request_cancelled(gw_session *s, const cJSON *msg) {
  int at = -1;
  gw_stream *st = stream_of(
      s,
      cJSON_GetObjectItemCaseSensitive(
          cJSON_GetObjectItemCaseSensitive(msg, "params"), "requestId"),
      &at);
  if (!st || st->standalone) {
    return;
  }
  cJSON_DeleteItemFromArray(st->reqs, at);
  if (!stream_complete(st)) {
    return;
  }
  if (st->cn) {
    gw_conn_finish(st->cn);
  } else {
    stream_free(st);
  }
}

gw_session *gw_session_new(gw_http *h, gw_hub *hub) {
  gw_session *s = xcalloc(1, sizeof *s);
  if (gw_http_random_hex(s->id, 16) != 0) {
    free(s);
    return NULL;
  }
  s->h = h;
  s->last_ms = mcphost_now_ms();
  s->next_no = 1; /* 0 is the standalone stream's */
  s->standalone = stream_new(s, true);
  s->g = gw_client_new(hub, session_send, s);
  s->next = h->sessions;
  h->sessions = s;
  h->session_count++;
  return s;
}

/* A request of `s` in flight, or a stream of it open. */
static bool session_active(const gw_session *s) {
  for (const gw_stream *st = s->streams; st; st = st->next) {
    if (st->cn || (!st->standalone && !stream_complete(st))) {
      return true;
    }
  }
  return false;
}

void gw_sessions_expire(gw_http *h) {
  uint64_t now = mcphost_now_ms();
  for (gw_session *s = h->sessions, *next; s; s = next) {
    next = s->next;
    if (!session_active(s) && now - s->last_ms >= h->idle_ms) {
      gw_session_free(s);
    }
  }
}

bool gw_sessions_evict(gw_http *h, uint64_t floor_ms) {
  gw_session *idlest = NULL;
  uint64_t now = mcphost_now_ms();
  /* Newest first: of equally idle ones, the oldest. */
  for (gw_session *s = h->sessions; s; s = s->next) {
    if (!session_active(s) && now - s->last_ms >= floor_ms &&
        (!idlest || s->last_ms <= idlest->last_ms)) {
      idlest = s;
    }
  }
  if (idlest) {
    gw_session_free(idlest);
  }
  return idlest != NULL;
}

gw_session *gw_session_find(gw_http *h, const char *id) {
  gw_sessions_expire(h); /* an expired id is not found, timer or not */
  for (gw_session *s = h->sessions; s && id; s = s->next) {
    if (strcmp(s->id, id) == 0) {
      s->last_ms = mcphost_now_ms();
      return s;
    }
  }
  return NULL;
}

const char *gw_session_id(const gw_session *s) {
  return s->id;
}

size_t gw_session_count(const gw_http *h) {
  return h->session_count;
}

void gw_session_free(gw_session *s) {
  for (gw_session **p = &s->h->sessions; *p; p = &(*p)->next) {
    if (*p == s) {
      *p = s->next;
      s->h->session_count--;
      break;
    }
  }
  gw_client_free(s->g); /* sends nothing more */
  while (s->streams) {
    stream_free(s->streams);
  }
  free(s);
}

void gw_session_post(gw_session *s, gw_conn *cn, const cJSON *msg,
                     const char *body, size_t len) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  if (!method || !id) {
    /* A notification, or the client's answer to a question. */
    gw_client_message(s->g, body, len);
    if (method && strcmp(method, "notifications/cancelled") == 0) {
      request_cancelled(s, msg);
    }
    gw_conn_respond(cn, 202, NULL, NULL, NULL);
    return;
  }
  gw_stream *st = stream_new(s, false);
  cJSON_AddItemToArray(st->reqs, cJSON_Duplicate(id, 1));
  st->cn = cn;
  st->choosing = true;
  gw_client_message(s->g, body, len);
  st->choosing = false;
  if (stream_complete(st) && st->count == 1) {
    /* Answered at once: one JSON response, nothing to resume. */
    char *hdr = xasprintf("Mcp-Session-Id: %s\r\n", s->id);
    st->cn = NULL;
    gw_conn_respond(cn, 200, "application/json", hdr, st->head->json);
    free(hdr);
    stream_free(st);
    return;
  }
  gw_conn_start_sse(cn, st, s->id);
  /* The priming event: the client may resume from here. */
  char prime[48];
  int n = snprintf(prime, sizeof prime, "id: %u-0\ndata: \n\n", st->no);
  gw_conn_write(cn, prime, (size_t)n);
  for (gw_event *e = st->head; e && st->cn; e = e->next) {
    write_event(st, e);
  }
  if (st->cn && stream_complete(st)) {
    gw_conn_finish(st->cn);
  }
}

void gw_session_get(gw_session *s, gw_conn *cn, const char *last_event_id) {
  gw_stream *st = s->standalone;
  unsigned long after = 0;
  bool resume = last_event_id != NULL;
  if (resume) {
    unsigned no = 0;
    int used = 0;
    if (sscanf(last_event_id, "%u-%lu%n", &no, &after, &used) != 2 ||
        last_event_id[used] != '\0' || no >= s->next_no) {
      gw_conn_respond(cn, 400, "text/plain", NULL,
                      "Last-Event-ID is not one of this gateway's\n");
      return;
    }
    for (st = s->streams; st && st->no != no; st = st->next) {
    }
  } else if (!st) {
    st = s->standalone = stream_new(s, true);
  }
  if (!st) {
    /* A stream of this session delivered (or dropped for the bound):
     * nothing more comes on it. */
    gw_conn_respond(cn, 204, NULL, NULL, NULL);
    return;
  }
  if (st->cn) {
    gw_conn_respond(cn, 409, "text/plain", NULL,
                    "that stream is already open on another connection\n");
    return;
  }
  if (stream_complete(st) && (!st->tail || st->tail->seq <= after)) {
    /* Nothing follows, and nothing will. */
    gw_conn_respond(cn, 204, NULL, NULL, NULL);
    stream_free(st);
    return;
  }
  st->cn = cn;
  gw_conn_start_sse(cn, st, s->id);
  char prime[48];
  int n = snprintf(prime, sizeof prime, "id: %u-%lu\ndata: \n\n", st->no,
                   resume ? after : st->seq);
  gw_conn_write(cn, prime, (size_t)n);
  for (gw_event *e = st->head; resume && e && st->cn; e = e->next) {
    if (e->seq > after) {
      write_event(st, e);
    }
  }
  if (st->cn && stream_complete(st)) {
    gw_conn_finish(st->cn);
  }
}

void gw_session_conn_gone(gw_stream *st, bool delivered) {
  st->cn = NULL;
  st->s->last_ms = mcphost_now_ms();
  if (delivered && stream_complete(st)) {
    stream_free(st);
  }
}
