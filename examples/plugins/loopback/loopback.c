/*
 * loopback: an example mcphost transport plugin, built out of tree against
 * the installed SDK (see README.md).
 *
 * The "server" at the far end of this transport lives inside the plugin.
 * It answers initialize, ping, tools/list (one tool, "reverse") and
 * tools/call (reverses the "text" argument). With no process or socket in
 * the way, the file shows the transport contract and little else:
 *
 *   create()   validates the configuration, does no I/O;
 *   start()    opens the "connection"; calls nothing back;
 *   send()     hands the message to the server and queues its answer;
 *              the answer reaches the host later, from a host timer,
 *              never from inside send();
 *   close()    drops the answers not delivered yet; on_close(0) follows
 *              exactly once, again from the timer;
 *   destroy()  cancels the timer if it is pending and frees everything.
 *
 * Configuration, e.g. {"mcpServers": {"lb": {"type": "loopback"}}}:
 *   "latencyMs"  optional integer 0..60000 (default 0): how long the
 *                server takes to answer each request.
 *
 * Everything runs on the host's loop thread; the plugin starts no thread.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <mcphost/mcphost.h>

#define PLUGIN_ID "com.example.loopback"
#define PLUGIN_VERSION "1.0.0"
#define LATENCY_MAX_MS 60000

/* The plugin's state, returned by init as plugin_ctx. */
typedef struct plugin {
  const mcph_host *host;
  unsigned long sessions; /* numbers the session ids */
} plugin;

/* One answer from the server, waiting to be delivered. */
typedef struct reply {
  struct reply *next;
  uint64_t due_ms; /* host->now_ms() time at which it may be delivered */
  char *json;      /* from cJSON_PrintUnformatted: free with cJSON_free */
  size_t len;
} reply;

enum state {
  T_NEW,     /* created, not started */
  T_OPEN,    /* started: send() works */
  T_CLOSING, /* close() was called: on_close comes from the timer */
  T_CLOSED   /* on_close was called: only destroy() is left */
};

struct mcph_transport {
  plugin *pl;
  const mcph_host *host;
  const mcph_transport_events *ev; /* the host's; valid until destroy */
  char *name;                      /* the server's name, for logs */
  uint64_t latency_ms;
  enum state state;
  reply *head, *tail; /* in due order, since every reply has one latency */
  mcph_timer *timer;  /* pending while anything is queued or closing */
  char session_id[32];
  char *protocol_version; /* as negotiated by the host; NULL before */
};

/* ---- the server inside the plugin ---- */

/* Reverses UTF-8 text by code point, so multi-byte characters stay whole.
 * Returns a new string (free with free()) or NULL when out of memory. */
static char *reverse_utf8(const char *s) {
  size_t len = strlen(s);
  char *out = malloc(len + 1);
  if (!out)
    return NULL;
  size_t o = 0, end = len;
  while (end > 0) {
    size_t start = end - 1;
    /* Step back over continuation bytes (10xxxxxx) to the lead byte. */
    while (start > 0 && end - start < 4 &&
           ((unsigned char)s[start] & 0xC0) == 0x80)
      start--;
    memcpy(out + o, s + start, end - start);
    o += end - start;
    end = start;
  }
  out[o] = '\0';
  return out;
}

static cJSON *text_content(const char *text) {
  cJSON *content = cJSON_CreateArray();
  cJSON *item = cJSON_CreateObject();
  cJSON_AddStringToObject(item, "type", "text");
  cJSON_AddStringToObject(item, "text", text);
  cJSON_AddItemToArray(content, item);
  return content;
}

static cJSON *initialize_result(const cJSON *params) {
  static const char *const versions[] = {"2025-11-25", "2025-06-18",
                                         "2025-03-26", "2024-11-05", NULL};
  /* Agree to the client's version when we know it, else offer our
   * latest: the client decides whether it can live with that. */
  const char *asked = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(params, "protocolVersion"));
  const char *version = versions[0];
  for (const char *const *v = versions; *v; v++)
    if (asked && strcmp(asked, *v) == 0)
      version = *v;
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "protocolVersion", version);
  cJSON *caps = cJSON_AddObjectToObject(r, "capabilities");
  cJSON_AddObjectToObject(caps, "tools");
  cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
  cJSON_AddStringToObject(info, "name", "loopback");
  cJSON_AddStringToObject(info, "version", PLUGIN_VERSION);
  return r;
}

static cJSON *tools_list_result(void) {
  cJSON *r = cJSON_CreateObject();
  cJSON *tools = cJSON_AddArrayToObject(r, "tools");
  cJSON *tool = cJSON_CreateObject();
  cJSON_AddStringToObject(tool, "name", "reverse");
  cJSON_AddStringToObject(tool, "description",
                          "Returns the text reversed, character by "
                          "character.");
  cJSON *schema = cJSON_AddObjectToObject(tool, "inputSchema");
  cJSON_AddStringToObject(schema, "type", "object");
  cJSON *props = cJSON_AddObjectToObject(schema, "properties");
  cJSON *text = cJSON_AddObjectToObject(props, "text");
  cJSON_AddStringToObject(text, "type", "string");
  cJSON_AddStringToObject(text, "description", "the text to reverse");
  cJSON_AddItemToArray(cJSON_AddArrayToObject(schema, "required"),
                       cJSON_CreateString("text"));
  cJSON_AddItemToArray(tools, tool);
  return r;
}

/* tools/call. Returns the result, or NULL with *code and *message set for
 * a JSON-RPC error (an unknown tool is a protocol error in MCP; bad
 * arguments are a tool error the model can read). */
static cJSON *tools_call_result(const cJSON *params, int *code,
                                const char **message) {
  const char *tool =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  if (!tool || strcmp(tool, "reverse") != 0) {
    *code = MCPH_RPC_INVALID_PARAMS;
    *message = "Unknown tool";
    return NULL;
  }
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  const char *text =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "text"));
  cJSON *r = cJSON_CreateObject();
  if (!text) {
    cJSON_AddItemToObject(
        r, "content", text_content("the argument \"text\" must be a string"));
    cJSON_AddBoolToObject(r, "isError", 1);
    return r;
  }
  char *reversed = reverse_utf8(text);
  if (!reversed) {
    cJSON_Delete(r);
    *code = MCPH_RPC_INVALID_REQUEST;
    *message = "out of memory";
    return NULL;
  }
  cJSON_AddItemToObject(r, "content", text_content(reversed));
  free(reversed);
  return r;
}

static cJSON *response(const cJSON *id, cJSON *result, int code,
                       const char *message) {
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "jsonrpc", "2.0");
  cJSON_AddItemToObject(r, "id",
                        id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
  if (result) {
    cJSON_AddItemToObject(r, "result", result);
  } else {
    cJSON *e = cJSON_AddObjectToObject(r, "error");
    cJSON_AddNumberToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", message);
  }
  return r;
}

/* What the server answers to one message from the host: a JSON-RPC
 * response, or NULL for notifications and responses, which need none. */
static cJSON *serve(const char *json, size_t len) {
  cJSON *msg = cJSON_ParseWithLength(json, len);
  if (!cJSON_IsObject(msg)) {
    cJSON_Delete(msg);
    return response(NULL, NULL, MCPH_RPC_PARSE_ERROR, "Parse error");
  }
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  cJSON *answer = NULL;
  if (!id || !cJSON_IsString(method)) {
    answer = NULL; /* a notification, or a response to nothing we asked */
  } else if (strcmp(method->valuestring, "initialize") == 0) {
    answer = response(id, initialize_result(params), 0, NULL);
  } else if (strcmp(method->valuestring, "ping") == 0) {
    answer = response(id, cJSON_CreateObject(), 0, NULL);
  } else if (strcmp(method->valuestring, "tools/list") == 0) {
    answer = response(id, tools_list_result(), 0, NULL);
  } else if (strcmp(method->valuestring, "tools/call") == 0) {
    int code = 0;
    const char *message = NULL;
    cJSON *result = tools_call_result(params, &code, &message);
    answer = response(id, result, code, message);
  } else {
    answer = response(id, NULL, MCPH_RPC_METHOD_NOT_FOUND, "Method not found");
  }
  cJSON_Delete(msg);
  return answer;
}

/* ---- delivery through the host's timer ---- */

static void free_queue(mcph_transport *t) {
  while (t->head) {
    reply *r = t->head;
    t->head = r->next;
    cJSON_free(r->json);
    free(r);
  }
  t->tail = NULL;
}

static void on_timer(void *ud);

/* Makes sure the timer is pending: for when the first queued reply is due,
 * or at once when only a close is waiting. Returns 0 or an MCPH_E* code. */
static int arm(mcph_transport *t) {
  if (t->timer)
    return MCPH_OK;
  uint64_t delay = 0;
  if (t->head) {
    uint64_t now = t->host->now_ms(t->host);
    delay = t->head->due_ms > now ? t->head->due_ms - now : 0;
  }
  return t->host->timer_start(t->host, delay, on_timer, t, &t->timer);
}

/* Ends the transport: on_close, exactly once. Only from the timer. */
static void finish(mcph_transport *t, int code, const char *reason) {
  if (t->timer) {
    t->host->timer_cancel(t->host, t->timer);
    t->timer = NULL;
  }
  free_queue(t);
  t->state = T_CLOSED;
  t->ev->on_close(t->ev->ud, code, reason);
  /* The host may destroy us only after this returns: nothing below. */
}

/* The timer: delivers every reply that is due. We are not inside any call
 * from the host here, so calling its callbacks is safe, and from inside
 * on_message the host may call send() or close() again. */
static void on_timer(void *ud) {
  mcph_transport *t = ud;
  t->timer = NULL; /* a fired timer is freed by the host: forget it */
  uint64_t now = t->host->now_ms(t->host);
  while (t->head && t->head->due_ms <= now) {
    reply *r = t->head;
    t->head = r->next;
    if (!t->head)
      t->tail = NULL;
    t->ev->on_message(t->ev->ud, r->json, r->len);
    cJSON_free(r->json);
    free(r);
  }
  if (t->head) {
    if (arm(t) != MCPH_OK)
      finish(t, MCPH_ENOMEM,
             "loopback: cannot start a timer to deliver "
             "the server's answers");
  } else if (t->state == T_CLOSING) {
    finish(t, MCPH_OK, "closed");
  }
}

/* Queues the server's answer; the timer delivers it. */
static int queue_reply(mcph_transport *t, cJSON *answer, mcph_error *err) {
  reply *r = calloc(1, sizeof *r);
  if (r)
    r->json = cJSON_PrintUnformatted(answer);
  if (!r || !r->json) {
    free(r);
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  r->len = strlen(r->json);
  r->due_ms = t->host->now_ms(t->host) + t->latency_ms;
  reply *prev = t->tail;
  if (prev)
    prev->next = r;
  else
    t->head = r;
  t->tail = r;
  int rc = arm(t);
  if (rc != MCPH_OK) {
    /* No timer, no delivery: take the reply back and fail the send. */
    if (prev)
      prev->next = NULL;
    else
      t->head = NULL;
    t->tail = prev;
    cJSON_free(r->json);
    free(r);
    return mcph_error_set(err, rc, "cannot start a host timer");
  }
  return MCPH_OK;
}

/* ---- the transport functions ---- */

static int parse_config(const char *config_json, uint64_t *latency_ms,
                        mcph_error *err) {
  *latency_ms = 0;
  cJSON *cfg = config_json ? cJSON_Parse(config_json) : NULL;
  if (!cJSON_IsObject(cfg)) {
    cJSON_Delete(cfg);
    return mcph_error_set(err, MCPH_EINVAL,
                          "the server entry is not a JSON object");
  }
  int rc = MCPH_OK;
  /* Other fields ("type", and any we do not know) are ignored. */
  const cJSON *latency = cJSON_GetObjectItemCaseSensitive(cfg, "latencyMs");
  if (latency) {
    double v = cJSON_IsNumber(latency) ? latency->valuedouble : -1;
    if (v < 0 || v > LATENCY_MAX_MS || v != (double)(long)v)
      rc = mcph_error_set(err, MCPH_EINVAL,
                          "\"latencyMs\" must be an integer from 0 to %d",
                          LATENCY_MAX_MS);
    else
      *latency_ms = (uint64_t)v;
  }
  cJSON_Delete(cfg);
  return rc;
}

static int lb_create(void *plugin_ctx, const mcph_transport_params *params,
                     mcph_transport **out, mcph_error *err) {
  /* A newer host passes bigger structs; an older one smaller. Check that
   * what we read is there. */
  if (!MCPH_HAS(params, mcph_transport_params, events) || !params->events ||
      !MCPH_HAS(params->events, mcph_transport_events, on_close) ||
      !params->events->on_message || !params->events->on_close)
    return mcph_error_set(err, MCPH_EABI,
                          "loopback: incomplete transport params");
  uint64_t latency_ms;
  int rc = parse_config(params->config_json, &latency_ms, err);
  if (rc != MCPH_OK)
    return rc;
  mcph_transport *t = calloc(1, sizeof *t);
  if (!t)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  t->name = strdup(params->server_name ? params->server_name : "loopback");
  if (!t->name) {
    free(t);
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  t->pl = plugin_ctx;
  t->host = t->pl->host;
  t->ev = params->events; /* the host keeps it valid until destroy */
  t->latency_ms = latency_ms;
  t->state = T_NEW;
  *out = t;
  return MCPH_OK;
}

static int lb_start(mcph_transport *t, mcph_error *err) {
  if (t->state != T_NEW)
    return mcph_error_set(err, MCPH_EINVAL, "already started");
  /* A real transport would spawn or dial here and report the outcome
   * later. Connecting to ourselves cannot fail. */
  t->state = T_OPEN;
  snprintf(t->session_id, sizeof t->session_id, "loopback-%lu",
           ++t->pl->sessions);
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "open, session %s",
            t->session_id);
  return MCPH_OK;
}

static int lb_send(mcph_transport *t, const char *json, size_t len,
                   mcph_error *err) {
  if (t->state != T_OPEN)
    return mcph_error_set(err, MCPH_ECLOSED, "the loopback server is %s",
                          t->state == T_NEW ? "not started" : "closed");
  /* `json` is borrowed: serve() reads it now and keeps nothing. */
  cJSON *answer = serve(json, len);
  if (!answer)
    return MCPH_OK;
  int rc = queue_reply(t, answer, err);
  cJSON_Delete(answer);
  return rc;
}

static void lb_close(mcph_transport *t) {
  if (t->state != T_OPEN)
    return; /* never started, closing already, or ended */
  t->state = T_CLOSING;
  /* The server hangs up: answers not delivered yet are dropped, as on a
   * real connection closed under them, and on_close(0) follows at once
   * -- from the timer, not from here. */
  free_queue(t);
  if (t->timer) {
    t->host->timer_cancel(t->host, t->timer);
    t->timer = NULL;
  }
  if (arm(t) != MCPH_OK)
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "cannot start a timer to finish closing");
}

static void lb_destroy(mcph_transport *t) {
  if (!t)
    return;
  if (t->timer)
    t->host->timer_cancel(t->host, t->timer);
  free_queue(t);
  free(t->protocol_version);
  free(t->name);
  free(t);
}

static const char *lb_session_id(mcph_transport *t) {
  return t->state == T_NEW ? NULL : t->session_id;
}

static void lb_set_protocol_version(mcph_transport *t, const char *version) {
  /* An HTTP transport would send it as MCP-Protocol-Version from now on;
   * here it only shows up in the log. */
  char *copy = version ? strdup(version) : NULL;
  free(t->protocol_version);
  t->protocol_version = copy;
  mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "protocol version %s",
            copy ? copy : "(none)");
}

/* ---- the plugin ---- */

static const char *const lb_types[] = {"loopback", NULL};

static const mcph_transport_factory lb_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = lb_types,
    .create = lb_create,
    .start = lb_start,
    .send = lb_send,
    .close = lb_close,
    .destroy = lb_destroy,
    .session_id = lb_session_id,
    .set_protocol_version = lb_set_protocol_version,
};

static int lb_init(const mcph_host *host, void **plugin_ctx, mcph_error *err) {
  /* Refuse a host whose table lacks what we call, rather than crash. */
  if (!MCPH_HAS(host, mcph_host, now_ms) || host->abi_major != MCPH_ABI_MAJOR ||
      !host->log || !host->timer_start || !host->timer_cancel || !host->now_ms)
    return mcph_error_set(err, MCPH_EABI,
                          "loopback: the host lacks the services it needs "
                          "(built for ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  plugin *pl = calloc(1, sizeof *pl);
  if (!pl)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  pl->host = host;
  *plugin_ctx = pl;
  return MCPH_OK;
}

static const void *lb_get_extension(void *plugin_ctx, const char *id) {
  (void)plugin_ctx;
  return id && strcmp(id, MCPH_EXT_TRANSPORT) == 0 ? &lb_factory : NULL;
}

static void lb_deinit(void *plugin_ctx) {
  free(plugin_ctx);
}

/* The one exported symbol. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = "loopback transport (example)",
    .version = PLUGIN_VERSION,
    .description = "A transport whose server lives in the plugin and "
                   "offers one tool, reverse.",
    .init = lb_init,
    .get_extension = lb_get_extension,
    .deinit = lb_deinit,
};
