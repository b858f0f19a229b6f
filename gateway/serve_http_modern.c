/* mcphost serve --http for a 2026-07-28 (modern) client: no session,
 * each POST its own gateway client (serve.h) for the one request it
 * carries, the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers
 * checked against the body, the answer as JSON, or as an SSE stream when
 * notifications come first (progress, a listen's). The connection's end
 * cancels what is in flight (the era's cancellation). Loop thread
 * only. */
#include <stdlib.h>
#include <string.h>

#include <mcphost/rpc.h>

#include "gateway/serve_http.h"
#include "json_write.h"

/* One modern request and the client serving it. */
typedef struct mpost {
  gw_http *h;
  gw_conn *cn; /* NULL once the connection closed */
  gw *g;
  cJSON *id;     /* the request's (owned) */
  bool sse;      /* an SSE response runs */
  bool answered; /* its response went out */
  bool posted;   /* mpost_free is due on the loop */
} mpost;

static void mpost_free(void *ud) {
  mpost *m = ud;
  if (m->cn) {
    gw_conn_on_gone(m->cn, NULL, NULL);
  }
  gw_client_free(m->g); /* cancels what still runs */
  cJSON_Delete(m->id);
  free(m);
}

/* Frees `m` on the next loop turn: its client may be the caller. */
static void mpost_done(mpost *m) {
  if (!m->posted) {
    m->posted = true;
    if (mcphost_post(cli_api(m->h->c), mpost_free, m, NULL) != MCPHOST_OK) {
      abort(); /* the loop's queue is never full */
    }
  }
}

static void mpost_gone(void *ud) {
  mpost *m = ud;
  m->cn = NULL;
  mpost_done(m);
}

static void sse_event(gw_conn *cn, const char *json) {
  char *ev = xasprintf("event: message\ndata: %s\n\n", json);
  gw_conn_write(cn, ev, strlen(ev));
  free(ev);
}

static void mpost_send(void *ud, cJSON *msg, const cJSON *req) {
  (void)req; /* everything of this client is its one request's */
  mpost *m = ud;
  bool response =
      !cJSON_GetObjectItemCaseSensitive(msg, "method") &&
      cJSON_Compare(cJSON_GetObjectItemCaseSensitive(msg, "id"), m->id, true);
  /* The gateway's own unknown method is 404 (the era's HTTP binding); a
   * backend's -32601 passed through is its answer, 200 like the rest. */
  int status = response && gw_client_no_method(m->g) ? 404 : 200;
  char *json = json_print(msg);
  cJSON_Delete(msg);
  if (!m->cn || m->answered || !json) {
    goto out;
  }
  if (response) {
    gw_conn *cn = m->cn;
    m->cn = NULL;
    m->answered = true;
    if (m->sse) {
      gw_conn_on_gone(cn, NULL, NULL);
      sse_event(cn, json);
      gw_conn_finish(cn);
    } else {
      /* Written first: the connection then takes its next request. */
      gw_conn_respond(cn, status, "application/json", NULL, json);
      gw_conn_on_gone(cn, NULL, NULL);
    }
    mpost_done(m);
    goto out;
  }
  if (!m->sse) {
    m->sse = true;
    gw_conn_start_sse(m->cn, NULL, NULL);
  }
  if (m->cn) {
    sse_event(m->cn, json);
  }
out:
  free(json);
}

/* 400 with a JSON-RPC error for the request `id`. */
static void refuse(gw_conn *cn, const cJSON *id, int code, const char *why,
                   cJSON *data) {
  cJSON *m = gw_msg_error(id, code, why, data);
  char *body = json_print(m);
  cJSON_Delete(m);
  gw_conn_respond(cn, 400, "application/json", NULL, body);
  free(body);
}

/* Whether header `value` says `want`. A value beyond visible ASCII
 * comes as "=?base64?...?=", not decoded here: such a name is refused. */
static bool header_is(const char *value, const char *want) {
  return value && want && strcmp(value, want) == 0;
}

void gw_modern_post(gw_http *h, gw_conn *cn, const cJSON *msg,
                    const gw_modern_headers *hd, const char *body, size_t len) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  if (!method || !id) {
    /* A notification (cancelled: closing the stream did it already);
     * the era's clients send no responses. */
    gw_conn_respond(cn, 202, NULL, NULL, NULL);
    return;
  }
  const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(params, "_meta"),
      "io.modelcontextprotocol/protocolVersion"));
  const char *name = NULL;
  if (strcmp(method, "tools/call") == 0 || strcmp(method, "prompts/get") == 0) {
    name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  } else if (strcmp(method, "resources/read") == 0) {
    name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "uri"));
  }
  if (!header_is(hd->version, v)) {
    refuse(cn, id, MCPH_RPC_HEADER_MISMATCH,
           "the MCP-Protocol-Version header must equal _meta's "
           "protocolVersion",
           NULL);
    return;
  }
  if (!header_is(hd->method, method)) {
    refuse(cn, id, MCPH_RPC_HEADER_MISMATCH,
           "the Mcp-Method header must equal the request's method", NULL);
    return;
  }
  if (name && !header_is(hd->name, name)) {
    refuse(cn, id, MCPH_RPC_HEADER_MISMATCH,
           "the Mcp-Name header must equal the request's name or uri", NULL);
    return;
  }
  const char *why = NULL;
  cJSON *data = NULL;
  int code = gw_modern_check(params, &why, &data);
  if (code) {
    refuse(cn, id, code, why, data);
    return;
  }
  mpost *m = xcalloc(1, sizeof *m);
  if (!gw_conn_on_gone(cn, mpost_gone, m)) {
    /* serve_http.c reads no request while one is owed an answer. */
    free(m);
    gw_conn_respond(cn, 500, "text/plain; charset=utf-8", NULL,
                    "the connection already waits for an answer\n");
    return;
  }
  m->h = h;
  m->cn = cn;
  m->id = cJSON_Duplicate(id, 1);
  m->g = gw_client_new(h->hub, mpost_send, m);
  gw_client_message(m->g, body, len);
}
