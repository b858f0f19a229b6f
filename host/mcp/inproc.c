/* In-process servers and the built-in transport "sdk" (inproc.h). */
#include "mcp/inproc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/loop.h"
#include "core/plugins.h"
#include "mcp/client_internal.h"
#include "util.h"

struct inproc_conn;

struct mcp_inproc_server {
  mcp_client *mc;
  char *name;
  mcp_inproc_callbacks cb;
  struct inproc_conn *conn; /* the open connection, or NULL */
  struct mcp_inproc_server *next;
};

/* One message in the queue, or the end of the connection. */
typedef enum { TO_SERVER, TO_CLIENT, END_CONN } item_kind;

typedef struct item {
  item_kind kind;
  char *text; /* malloc'd, len + 1 bytes: the client may take it */
  size_t len;
  struct item *next;
} item;

/* The transport: one connection between a session and a server. */
typedef struct inproc_conn {
  mcp_client *mc;
  char *entry;  /* the configured server's name, for messages */
  char *target; /* the registered name it connects to */
  mcph_transport_events ev;
  mcp_inproc_server *srv;       /* attached server, or NULL */
  item *head, *tail;            /* in the order sent, both ways */
  loop_timer *timer;            /* the drain, while the queue is not empty */
  bool started, closing, ended; /* ended: on_close was called */
  int end_code;                 /* for on_close */
  char *end_reason;
  bool draining, destroyed; /* destroy from inside a drain: freed after */
} inproc_conn;

static void conn_free(inproc_conn *c);

static mcp_inproc_server *find_server(const mcp_client *mc, const char *name) {
  for (mcp_inproc_server *s = mc->inproc; s; s = s->next) {
    if (strcmp(s->name, name) == 0) {
      return s;
    }
  }
  return NULL;
}

/* ---- the queue ---- */

static void drain(void *ud);

static void arm(inproc_conn *c) {
  if (!c->timer && !c->draining) {
    c->timer = loop_timer_start(c->mc->h->loop, 0, drain, c);
  }
}

static void push(inproc_conn *c, item_kind kind, char *text, size_t len) {
  item *it = xmalloc(sizeof *it);
  *it = (item){.kind = kind, .text = text, .len = len};
  if (c->tail) {
    c->tail->next = it;
  } else {
    c->head = it;
  }
  c->tail = it;
  arm(c);
}

static char *copy_text(const char *json, size_t len) {
  char *t = xmalloc(len + 1);
  memcpy(t, json, len);
  t[len] = '\0';
  return t;
}

/* The server hears of the end of its connection, once. */
static void detach(inproc_conn *c, bool tell) {
  mcp_inproc_server *srv = c->srv;
  if (!srv) {
    return;
  }
  c->srv = NULL;
  srv->conn = NULL;
  if (tell && srv->cb.on_close) {
    srv->cb.on_close(srv->cb.ud, srv, MCP_INPROC_DISCONNECTED);
  }
}

/* Ends the connection for the session: no more messages either way. */
static void end_conn(inproc_conn *c) {
  c->ended = true;
  detach(c, true);
  c->ev.on_close(c->ev.ud, c->end_code, c->end_reason);
}

static void deliver(inproc_conn *c, item *it) {
  switch (it->kind) {
  case TO_SERVER:
    if (c->srv) {
      mcp_inproc_server *srv = c->srv;
      srv->cb.on_message(srv->cb.ud, srv, it->text, it->len);
    }
    free(it->text);
    break;
  case TO_CLIENT:
    if (c->ended) {
      free(it->text);
    } else if (MCPH_HAS(&c->ev, mcph_transport_events, on_message_owned) &&
               c->ev.on_message_owned) {
      c->ev.on_message_owned(c->ev.ud, it->text, it->len); /* taken */
    } else {
      c->ev.on_message(c->ev.ud, it->text, it->len);
      free(it->text);
    }
    break;
  case END_CONN:
    if (!c->ended) {
      end_conn(c);
    }
    break;
  }
  free(it);
}

/* Messages delivered in one turn of the loop at most: those queued by
 * the callbacks meanwhile included, so that a request and its answer
 * take one turn; past it the rest waits for the next turn, and the
 * loop's other work is not starved by two sides talking. */
enum { DRAIN_MAX = 64 };

static void drain(void *ud) {
  inproc_conn *c = ud;
  c->timer = NULL;
  c->draining = true;
  for (int n = 0; c->head && n < DRAIN_MAX && !c->destroyed; n++) {
    item *it = c->head;
    c->head = it->next;
    if (!c->head) {
      c->tail = NULL;
    }
    deliver(c, it);
  }
  c->draining = false;
  if (c->destroyed) {
    conn_free(c); /* what is left is dropped */
    return;
  }
  if (c->head) {
    arm(c);
  }
}

/* ---- the transport ---- */

static int t_create(void *ctx, const mcph_transport_params *params,
                    mcph_transport **out, mcph_error *err) {
  (void)err;
  mcp_client *mc = ctx;
  const char *entry = params->server_name ? params->server_name : "?";
  /* "name" was checked with the entry (config_check_entry). */
  cJSON *cfg = cJSON_Parse(params->config_json ? params->config_json : "{}");
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cfg, "name"));
  inproc_conn *c = xcalloc(1, sizeof *c);
  c->mc = mc;
  c->entry = xstrdup(entry);
  c->target = xstrdup(name && *name ? name : entry);
  cJSON_Delete(cfg);
  size_t n = params->events->struct_size < sizeof c->ev
                 ? params->events->struct_size
                 : sizeof c->ev;
  memcpy(&c->ev, params->events, n);
  c->ev.struct_size = (uint32_t)n;
  *out = (mcph_transport *)c;
  return MCPH_OK;
}

static int t_start(mcph_transport *t, mcph_error *err) {
  inproc_conn *c = (inproc_conn *)t;
  mcp_inproc_server *srv = find_server(c->mc, c->target);
  if (!srv) {
    /* Not a configuration error: the program may register it later, and
     * an unreachable server is connected again by its next use. */
    return mcph_error_set(
        err, MCPH_ECONNREFUSED,
        "server \"%s\": no in-process server \"%s\" is registered "
        "in this program (\"type\": \"sdk\" is served by the "
        "program that embeds mcphost, which registers it by that "
        "name)",
        c->entry, c->target);
  }
  if (srv->conn) {
    return mcph_error_set(
        err, MCPH_EBUSY,
        "server \"%s\": in-process server \"%s\" is connected "
        "already (to server \"%s\"): one connection at a time",
        c->entry, c->target, srv->conn->entry);
  }
  srv->conn = c;
  c->srv = srv;
  c->started = true;
  return MCPH_OK;
}

static int t_send(mcph_transport *t, const char *json, size_t len,
                  mcph_error *err) {
  inproc_conn *c = (inproc_conn *)t;
  if (c->closing || c->ended || !c->srv) {
    return mcph_error_set(err, MCPH_ECLOSED, "in-process server \"%s\": closed",
                          c->target);
  }
  push(c, TO_SERVER, copy_text(json, len), len);
  return MCPH_OK;
}

static void t_close(mcph_transport *t) {
  inproc_conn *c = (inproc_conn *)t;
  if (c->closing || c->ended || !c->started) {
    return;
  }
  c->closing = true;
  c->end_code = 0;
  push(c, END_CONN, NULL, 0); /* after what was sent before it */
}

static void conn_free(inproc_conn *c) {
  for (item *it = c->head, *n; it; it = n) {
    n = it->next;
    free(it->text);
    free(it);
  }
  free(c->entry);
  free(c->target);
  free(c->end_reason);
  free(c);
}

static void t_destroy(mcph_transport *t) {
  inproc_conn *c = (inproc_conn *)t;
  if (c->timer) {
    loop_timer_cancel(c->mc->h->loop, c->timer);
    c->timer = NULL;
  }
  detach(c, true);
  if (c->draining) {
    c->destroyed = true; /* drain() frees it when the callback returns */
    return;
  }
  conn_free(c);
}

static const char *const inproc_types[] = {MCP_INPROC_TYPE, NULL};
static const mcph_transport_type_info inproc_info[] = {
    {sizeof(mcph_transport_type_info), MCP_INPROC_TYPE, MCPH_TRANSPORT_LOCAL},
    {sizeof(mcph_transport_type_info), NULL, 0}};

static const mcph_transport_factory inproc_factory = {
    .struct_size = sizeof inproc_factory,
    .types = inproc_types,
    .create = t_create,
    .start = t_start,
    .send = t_send,
    .close = t_close,
    .destroy = t_destroy,
    .type_info = inproc_info,
};

void mcp_inproc_bind(mcp_client *mc) {
  plugin *p = &mc->inproc_builtin;
  p->path = (char *)"(built in)";
  p->id = (char *)"mcphost.inproc";
  p->description = "servers inside the program that embeds libmcphost";
  p->loaded = p->initialized = true;
  p->fd = -1;
  p->transport = &inproc_factory;
  p->types = inproc_types;
  p->ctx = mc;
  registry_bind_builtin(&mc->h->reg, p);
}

/* ---- the server's side ---- */

static int why_set(char *why, size_t why_len, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int why_set(char *why, size_t why_len, int code, const char *fmt, ...) {
  if (why && why_len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
  }
  return code;
}

int mcp_inproc_register(mcp_client *mc, const char *name,
                        const mcp_inproc_callbacks *cb, mcp_inproc_server **out,
                        char *why, size_t why_len) {
  if (!mc || !name || !*name || !cb || !cb->on_message || !out) {
    return why_set(why, why_len, MCPH_EINVAL,
                   "an in-process server needs a client, a name, an "
                   "on_message callback and where to put the handle");
  }
  if (find_server(mc, name)) {
    return why_set(why, why_len, MCPH_EBUSY,
                   "in-process server \"%s\" is registered already", name);
  }
  mcp_inproc_server *srv = xcalloc(1, sizeof *srv);
  srv->mc = mc;
  srv->name = xstrdup(name);
  srv->cb = *cb;
  srv->next = mc->inproc;
  mc->inproc = srv;
  *out = srv;
  return MCPH_OK;
}

int mcp_inproc_send(mcp_inproc_server *srv, const char *json, size_t len) {
  if (!srv || !json || len == 0) {
    return MCPH_EINVAL;
  }
  inproc_conn *c = srv->conn;
  if (!c || c->closing || c->ended) {
    return MCPH_ECLOSED;
  }
  push(c, TO_CLIENT, copy_text(json, len), len);
  return MCPH_OK;
}

bool mcp_inproc_connected(const mcp_inproc_server *srv) {
  return srv && srv->conn && !srv->conn->closing && !srv->conn->ended;
}

const char *mcp_inproc_name(const mcp_inproc_server *srv) {
  return srv ? srv->name : NULL;
}

static void unlink_server(mcp_inproc_server *srv) {
  for (mcp_inproc_server **p = &srv->mc->inproc; *p; p = &(*p)->next) {
    if (*p == srv) {
      *p = srv->next;
      return;
    }
  }
}

void mcp_inproc_unregister(mcp_inproc_server *srv) {
  if (!srv) {
    return;
  }
  inproc_conn *c = srv->conn;
  if (c) {
    detach(c, false);
    if (!c->ended && !c->closing) {
      c->closing = true;
      c->end_code = MCPH_ECLOSED;
      c->end_reason =
          xasprintf("in-process server \"%s\" was unregistered", srv->name);
      push(c, END_CONN, NULL, 0);
    }
  }
  unlink_server(srv);
  free(srv->name);
  free(srv);
}

void mcp_inproc_release(mcp_client *mc) {
  while (mc->inproc) {
    mcp_inproc_server *srv = mc->inproc;
    mc->inproc = srv->next;
    if (srv->conn) {
      /* No session closed it (no mcp_client_shutdown): the connection
       * stays the session's, without its server. */
      detach(srv->conn, true);
    }
    if (srv->cb.on_close) {
      srv->cb.on_close(srv->cb.ud, srv, MCP_INPROC_RELEASED);
    }
    free(srv->name);
    free(srv);
  }
}
