/* The session's JSON-RPC traffic: what it sends, the server's requests
 * and notifications (its log messages in its log file), what comes in
 * sanitized, the roots it is given. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mcp/feature_plugins.h"
#include "util.h"
#include "mcp/era.h"
#include "mcp/era_headers.h"
#include "mcp/log_level.h"
#include "mcp/mrtr.h"
#include "mcp/roots_settle.h"
#include "mcp/session_internal.h"
#include "json_parse.h"
#include "json_write.h"
#include "redact.h"
#include "safety/sanitize.h"
#include "text_escape.h"
#include "trusted_fs.h"

/* ---- JSON-RPC plumbing ---- */

static int rpc_send(void *ud, const char *json, size_t len, char *why,
                    size_t why_len) {
  session *s = ud;
  if (!s->transport_started || s->transport_closed) {
    snprintf(why, why_len, "not connected");
    return MCPH_ECLOSED;
  }
  if (s->h->verbosity >= 3)
    host_log(s->h, MCPH_LOG_TRACE, s->cfg->name, "-> %.*s",
             len > 2000 ? 2000 : (int)len, json);
  mcph_error err;
  mcph_error_init(&err);
  int rc;
  if (s->era == ERA_MODERN &&
      MCPH_HAS(s->tf, mcph_transport_factory, send_headers) &&
      s->tf->send_headers) {
    /* 2026-07-28 over HTTP: the headers each message carries. */
    cJSON *msg = json_parse(json, len, NULL);
    size_t n = 0;
    char **hdrs = era_message_headers(msg, s->tool_headers, &n);
    cJSON_Delete(msg);
    rc = s->tf->send_headers(s->t, json, len, (const char *const *)hdrs, n,
                             &err);
    era_headers_free(hdrs);
  } else {
    rc = s->tf->send(s->t, json, len, &err);
  }
  if (rc != 0)
    snprintf(why, why_len, "%s", err.message[0] ? err.message : "send failed");
  return rc;
}

/* roots/list: the roots this server was given (roots.h). */
static cJSON *roots_result(session *s) {
  cJSON *res = cJSON_CreateObject();
  cJSON_AddItemToObject(res, "roots",
                        s->roots ? cJSON_Duplicate(s->roots, 1)
                                 : cJSON_CreateArray());
  return res;
}

/* The request a legacy server's own request belongs to: MCP ties them
 * only by the transport (an HTTP response stream) or by the request's
 * progressToken sent back in _meta; 0 when nothing ties it. */
static int64_t request_origin(session *s, const cJSON *params) {
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(meta, "progressToken");
  return tok ? rpc_origin_of_token(s->rpc, tok) : 0;
}

static void on_request(void *ud, const char *method, const cJSON *params,
                       const cJSON *id) {
  session *s = ud;
  if (strcmp(method, "ping") == 0) {
    rpc_respond(s->rpc, id, cJSON_CreateObject());
  } else if (s->on_request &&
             s->on_request(s->on_request_ud, s, method, params, id,
                           request_origin(s, params))) {
    /* the front end answers it (session_answer) */
  } else if (strcmp(method, "roots/list") == 0 && s->roots_declared) {
    rpc_respond(s->rpc, id, roots_result(s));
    roots_settle_asked(s);
  } else if (features_request(s, method, params, id)) {
    /* a feature plugin answers it */
  } else {
    host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name,
             "server asked for unsupported method %s", method);
    rpc_respond_error(s->rpc, id, MCPH_RPC_METHOD_NOT_FOUND,
                      "Method not found");
  }
}

void session_answer(session *s, const cJSON *id, cJSON *result, int code,
                    const char *message, const cJSON *data) {
  if (mrtr_answer(s, id, result, code, message)) {
    cJSON_Delete(result); /* an input offered to the front end */
    return;
  }
  /* A modern server sends no requests of its own: an answer that is no
   * offer's (one withdrawn, answered late) is nobody's. */
  if (!s->rpc || s->transport_closed || s->era == ERA_MODERN) {
    cJSON_Delete(result);
    return;
  }
  if (result) {
    rpc_respond(s->rpc, id, result);
  } else {
    rpc_respond_error_data(s->rpc, id, code, message,
                           data ? cJSON_Duplicate(data, 1) : NULL);
  }
}

/* The server's log file, <logs>/<name>.log (mode 0600), opened on first
 * use in the checked log directory (trusted_fs.h), never through a link;
 * <name> is the server name made a file name as for NAME.stderr.log. A directory or file
 * that fails the checks is said once, and the lines go to stderr only. */
static FILE *server_log_file(session *s) {
  if (s->server_log || s->server_log_failed) {
    return s->server_log;
  }
  s->server_log_failed = true;
  const char *dir = s->h->paths[MCPH_PATH_LOGS];
  if (!dir) {
    return NULL; /* no home: no files */
  }
  char why[PATH_MAX + 128];
  int dfd = trusted_fs_open_dir(dir, TRUSTED_FS_CREATE, why, sizeof why);
  if (dfd < 0) {
    host_log(s->h, MCPH_LOG_WARN, s->cfg->name,
             "not writing the server's log file: %s", why);
    return NULL;
  }
  char base[128];
  trusted_fs_file_name(s->cfg->name, base, sizeof base - 8);
  strcat(base, ".log");
  int fd = trusted_fs_open_file(dfd, dir, base, O_WRONLY | O_CREAT | O_APPEND,
                                0600, why, sizeof why);
  close(dfd);
  if (fd >= 0) {
    s->server_log = fdopen(fd, "a");
  }
  if (!s->server_log) {
    if (fd >= 0) {
      close(fd);
    } else {
      host_log(s->h, MCPH_LOG_WARN, s->cfg->name,
               "not writing the server's log file: %s", why);
    }
    return NULL;
  }
  s->server_log_failed = false;
  return s->server_log;
}

/* One server log message as one line of its file: controls, newlines
 * included, shown as escapes (text_escape.h), so that a server cannot
 * forge lines or reach a terminal that shows the file; no secrets. */
static void server_log_line(session *s, const char *level, const char *text) {
  FILE *f = server_log_file(s);
  if (!f) {
    return;
  }
  time_t now = time(NULL);
  struct tm tm;
  char stamp[32];
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", gmtime_r(&now, &tm));
  fprintf(f, "%sZ %s %s\n", stamp, level, text);
  fflush(f);
}

/* `s` redacted and escaped for one log line; free with free(). */
static char *log_text(const char *s) {
  char *clean = redact(s);
  char *line = text_escape(clean, strlen(clean), TEXT_ESCAPE_NEWLINES, NULL);
  free(clean);
  return line ? line : xstrdup("(out of memory)");
}

static void on_notification(void *ud, const char *method,
                            const cJSON *params) {
  session *s = ud;
  if (strcmp(method, "notifications/message") == 0) {
    const cJSON *lvl = cJSON_GetObjectItemCaseSensitive(params, "level");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(params, "data");
    const cJSON *logger = cJSON_GetObjectItemCaseSensitive(params, "logger");
    char *json = cJSON_IsString(data) ? NULL : json_print(data);
    const char *raw = json ? json : cJSON_GetStringValue(data);
    char *msg = log_text(raw ? raw : "");
    char *lname = log_text(cJSON_IsString(logger) ? logger->valuestring : "");
    int rank = mcp_log_level_rank(cJSON_GetStringValue(lvl));
    const char *known = mcp_log_level_name(rank);
    int level = mcp_log_level_shown(rank);
    server_log_line(s, known ? known : "info", msg);
    /* A server's own log lines show with -v, however loud, labelled with
     * the server's own level: they are its news, not mcphost's. */
    if (level < MCPH_LOG_INFO) {
      level = MCPH_LOG_INFO;
    }
    host_log_labeled(s->h, level, known ? known : "info", s->cfg->name,
                     "server log%s%s: %s", *lname ? " " : "", lname, msg);
    free(msg);
    free(lname);
    cJSON_free(json);
  } else if (str_starts(method, "notifications/") &&
             strstr(method, "/list_changed")) {
    host_log(s->h, MCPH_LOG_INFO, s->cfg->name, "%s", method);
  } else {
    host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name, "notification %s", method);
  }
  if (strcmp(method, "notifications/cancelled") == 0)
    features_cancelled(s, params);
  if (strcmp(method, "notifications/tools/list_changed") == 0 &&
      !s->prelisting) {
    cJSON_Delete(s->tool_headers); /* the schemas are listed again */
    s->tool_headers = NULL;
  }
  features_notify(s, method, params);
  if (s->on_notify)
    s->on_notify(s->on_notify_ud, s, method, params);
}

/* The server -> host direction: every message is sanitized here, by
 * what it is (sanitize.h), before the session, the host or a plugin
 * sees it. A response is what its request said (rpc_request_opts.kind);
 * what a server pushes names things or, for a channel, reaches a model. */
static void on_inbound(void *ud, cJSON *msg, int kind) {
  session *s = ud;
  sanitize_kind k = SANITIZE_NAMES;
  if (kind >= 0) {
    k = (sanitize_kind)kind;
  } else {
    const char *m =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
    if (m && (strcmp(m, "notifications/claude/channel") == 0 ||
              strcmp(m, "sampling/createMessage") == 0)) {
      k = SANITIZE_MODEL;
    }
  }
  sanitize_message(msg, s->h->sanitize, k);
}

static void on_rpc_warning(void *ud, const char *message) {
  session *s = ud;
  host_log(s->h, MCPH_LOG_WARN, s->cfg->name, "%s", message);
}

static void on_rpc_debug(void *ud, const char *message) {
  session *s = ud;
  host_log(s->h, MCPH_LOG_DEBUG, s->cfg->name, "%s", message);
}

rpc_handlers session_rpc_handlers(session *s) {
  return (rpc_handlers){.ud = s,
                        .send = rpc_send,
                        .on_request = on_request,
                        .on_notification = on_notification,
                        .on_warning = on_rpc_warning,
                        .on_debug = on_rpc_debug,
                        .inbound = on_inbound};
}

int session_set_roots(session *s, cJSON *roots) {
  if (roots && !cJSON_IsArray(roots)) {
    cJSON_Delete(roots);
    return -1;
  }
  bool same = (!roots && !s->roots) ||
              (roots && s->roots && cJSON_Compare(roots, s->roots, true));
  cJSON_Delete(s->roots);
  s->roots = roots;
  if (same || s->state != SESS_READY || s->era == ERA_MODERN)
    return 0; /* modern: each request declares what it has */
  if (!s->roots_declared)
    return 1;
  /* A server asks roots/list again; an empty set is a set too. */
  rpc_notify(s->rpc, "notifications/roots/list_changed", NULL);
  return 0;
}
