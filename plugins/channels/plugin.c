/*
 * The channels feature plugin (mcphost.feature.channels).
 *
 * A server that declares capabilities.experimental["claude/channel"] may
 * push "notifications/claude/channel" {content, meta}. A server is
 * admitted when, in this order, it declared the capability, the
 * enterprise policy leaves channels on (managed settings
 * "channelsEnabled"), and the session's allow list names it: the option
 * --channels NAME[,NAME...], or, without that option, the servers a
 * `mcphost channels listen` listens to. Anything else is skipped, and
 * `mcphost servers -v` says why.
 *
 *   mcphost channels listen [--server NAME]... [--count N] [--json]
 * keeps the admitted servers connected and prints each message (format.h).
 *
 * Permission relay: when a tool call needs an "ask" answer, the question
 * goes as "notifications/claude/channel/permission_request" {request_id,
 * tool_name, description, input_preview} to every admitted server named
 * by --channels; "notifications/claude/channel/permission" {request_id,
 * behavior: "allow"|"deny"} from a server that got it answers it. Free
 * text never does. The host races this against the terminal prompt.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <mcphost/mcphost.h>

#include "alloc.h"
#include "format.h"
#include "plugin_info.h"
#include "write_all.h"

#define PREVIEW_BYTES 200

enum verdict { V_UNKNOWN, V_ADMITTED, V_SKIPPED };

/* What the plugin knows of one configured server. */
typedef struct chan_server {
  struct chan_server *next;
  char *name;
  mcph_server *srv; /* while connected */
  int verdict;
  char *why;      /* the reason it was skipped */
  bool target;    /* listened to by `channels listen` */
  bool announced; /* its verdict was reported on stderr */
  bool failed;    /* could not connect, and will not retry */
} chan_server;

/* An open permission question. */
typedef struct perm_q {
  struct perm_q *next;
  mcph_permission_request *req;
  char id[6];
  char *params; /* the permission_request params, JSON text */
  char **sent;  /* names of the servers that got it */
  size_t nsent;
} perm_q;

typedef struct chan_plugin {
  const mcph_host *host;
  const mcph_host_features *svc;
  const mcph_host_servers *servers; /* NULL on a host older than 1.5 */
  chan_server *list;
  perm_q *perms;
  bool in_ask; /* inside perm_ask: questions are checked when it returns */
  char *note;  /* the last describe() line */
  /* channels listen */
  mcph_run *run;
  bool starting; /* inside start(): verdicts may come before all targets */
  bool json;
  long left; /* messages still to print; -1: no limit */
  unsigned long printed;
  strbuf out;
} chan_plugin;


static void say(chan_plugin *pl, const char *fmt, ...) MCPH_PRINTF(2, 3);
/* A line for the person running the command, on stderr. */
static void say(chan_plugin *pl, const char *fmt, ...) {
  (void)pl;
  va_list ap;
  va_start(ap, fmt);
  fputs("mcphost: channels: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static chan_server *record(chan_plugin *pl, const char *name) {
  for (chan_server *cs = pl->list; cs; cs = cs->next)
    if (strcmp(cs->name, name) == 0)
      return cs;
  chan_server *cs = xcalloc(1, sizeof *cs);
  cs->name = xstrdup(name);
  cs->next = pl->list;
  pl->list = cs;
  return cs;
}

/* ---- admission ---- */

/* The --channels list contains `name`. NULL list: not given. */
static bool in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0)
      return true;
    p = end ? end + 1 : NULL;
  }
  return false;
}

static const char *allow_list(chan_plugin *pl) {
  const char *v = pl->svc->option(pl->host, "channels");
  return v && *v ? v : NULL;
}

static bool policy_off(chan_plugin *pl) {
  const char *v = pl->servers ? pl->servers->policy(pl->host, "channelsEnabled")
                              : NULL;
  return v && strcmp(v, "false") == 0;
}

#define POLICY_OFF_WHY                                                         \
  "channels are turned off by the enterprise policy (channelsEnabled: "       \
  "false in the managed settings)"

static bool declares_channel(chan_plugin *pl, const mcph_server *srv) {
  cJSON *caps = cJSON_Parse(pl->svc->server_capabilities(pl->host, srv));
  const cJSON *exp = cJSON_GetObjectItemCaseSensitive(caps, "experimental");
  const cJSON *ch = cJSON_GetObjectItemCaseSensitive(exp, "claude/channel");
  bool yes = cJSON_IsObject(ch) || cJSON_IsTrue(ch);
  cJSON_Delete(caps);
  return yes;
}

/* Decides for a connected server; the reason of a skip in *why. */
static int admit(chan_plugin *pl, const chan_server *cs,
                 const mcph_server *srv, const char **why) {
  *why = NULL;
  if (!declares_channel(pl, srv))
    *why = "server did not declare the claude/channel capability";
  else if (policy_off(pl))
    *why = POLICY_OFF_WHY;
  else if (allow_list(pl) && !in_list(allow_list(pl), cs->name))
    *why = "not in the session's allow list (--channels)";
  else if (!allow_list(pl) && !(pl->run && cs->target))
    *why = "channels are not enabled for this session (--channels NAME, or "
           "mcphost channels listen)";
  return *why ? V_SKIPPED : V_ADMITTED;
}

static void decide(chan_plugin *pl, chan_server *cs) {
  const char *why;
  cs->verdict = admit(pl, cs, cs->srv, &why);
  free(cs->why);
  cs->why = why ? xstrdup(why) : NULL;
}

/* ---- channels listen ---- */

static void finish(chan_plugin *pl, int code) {
  if (!pl->run)
    return;
  mcph_run *run = pl->run;
  pl->run = NULL;
  pl->servers->finish(pl->host, run, code);
}

/* Everything listened to is decided, and nothing admitted is left. */
static void check_listen(chan_plugin *pl) {
  if (!pl->run || pl->starting)
    return;
  bool alive = false, failed = false, skipped = false;
  for (chan_server *cs = pl->list; cs; cs = cs->next) {
    if (!cs->target)
      continue;
    if (cs->failed)
      failed = true;
    else if (cs->verdict == V_UNKNOWN || cs->verdict == V_ADMITTED)
      alive = true; /* still connecting, or admitted and not given up */
    else
      skipped = true;
  }
  if (alive)
    return;
  say(pl, "no server left to listen to");
  finish(pl, failed && !skipped ? 3 : 8);
}

/* Writes the pending output; blocking: a reader that stops reading holds
 * the listener back rather than losing messages. */
static void flush_out(chan_plugin *pl) {
  bool gone = write_all(STDOUT_FILENO, pl->out.data, pl->out.len) < 0;
  pl->out.len = 0;
  if (gone) { /* the reader went away: nothing more to do */
    finish(pl, 0);
  }
}

static void announce(chan_plugin *pl, chan_server *cs) {
  if (!pl->run || !cs->target || cs->announced || cs->verdict == V_UNKNOWN)
    return;
  cs->announced = true;
  if (cs->verdict == V_ADMITTED)
    say(pl, "listening to %s", cs->name);
  else
    say(pl, "%s skipped: %s", cs->name, cs->why);
}

static void on_message(chan_plugin *pl, chan_server *cs, const char *params) {
  if (cs->verdict != V_ADMITTED) {
    mcph_logf(pl->host, MCPH_LOG_INFO, cs->name,
              "channel message dropped: %s", cs->why ? cs->why : "not admitted");
    return;
  }
  if (!pl->run || !cs->target) {
    mcph_logf(pl->host, MCPH_LOG_INFO, cs->name,
              "channel message not shown: no `mcphost channels listen` runs");
    return;
  }
  cJSON *p = cJSON_Parse(params);
  const char *why = NULL;
  if (!chan_format(&pl->out, cs->name, p, pl->json, &why))
    mcph_logf(pl->host, MCPH_LOG_WARN, cs->name,
              "channel message ignored: %s", why);
  cJSON_Delete(p);
  if (!why) {
    pl->printed++;
    flush_out(pl);
    if (pl->left > 0 && --pl->left == 0)
      finish(pl, 0);
  }
}

static const char listen_usage[] =
    "usage: mcphost [--channels NAME,...] channels listen [--server NAME]... "
    "[--count N] [--json]";

static int cmd_start(void *ctx, mcph_run *run, int argc,
                     const char *const *argv, int global_json,
                     mcph_error *err) {
  chan_plugin *pl = ctx;
  if (!pl->servers)
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "this host offers no servers service");
  if (argc < 2 || strcmp(argv[1], "listen") != 0)
    return mcph_error_set(err, MCPH_EINVAL, "%s", listen_usage);
  const char **names = xcalloc((size_t)argc, sizeof *names);
  size_t nnames = 0;
  long count = -1;
  bool json = global_json != 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--json") == 0) {
      json = true;
    } else if ((strcmp(a, "--server") == 0 || strcmp(a, "--count") == 0) &&
               i + 1 < argc) {
      if (a[2] == 's') {
        names[nnames++] = argv[++i];
      } else {
        char *end;
        errno = 0;
        count = strtol(argv[++i], &end, 10);
        if (errno || *end || count <= 0) {
          free(names);
          return mcph_error_set(err, MCPH_EINVAL,
                                "--count needs a positive number, not \"%s\"",
                                argv[i]);
        }
      }
    } else {
      free(names);
      return mcph_error_set(err, MCPH_EINVAL, "unknown argument \"%s\"; %s",
                            a, listen_usage);
    }
  }
  if (policy_off(pl)) {
    free(names);
    return mcph_error_set(err, MCPH_EDENIED, POLICY_OFF_WHY);
  }
  /* Every named server must exist and be allowed to start. */
  for (size_t k = 0; k < nnames; k++) {
    const char *why = NULL;
    const char *st = pl->servers->state(pl->host, names[k], &why);
    if (!st) {
      mcph_error_set(err, MCPH_ENOTFOUND, "no server named \"%s\" is configured",
                     names[k]);
      free(names);
      return MCPH_ENOTFOUND;
    }
  }
  size_t all = pl->servers->count(pl->host);
  pl->run = run;
  pl->json = json;
  pl->left = count;
  int rc = MCPH_OK;
  size_t started = 0;
  pl->starting = true;
  for (size_t i = 0; i < (nnames ? nnames : all) && rc == MCPH_OK; i++) {
    const char *name = nnames ? names[i] : pl->servers->name(pl->host, i);
    chan_server *cs = record(pl, name);
    mcph_error e;
    mcph_error_init(&e);
    cs->target = true; /* before connect: it may fail at once */
    if (pl->servers->connect(pl->host, name, MCPH_CONNECT_KEEP, &e) != MCPH_OK) {
      cs->target = false;
      if (nnames) /* asked for by name: it must start */
        rc = mcph_error_set(err, e.code, "%s", e.message);
      continue; /* else pending approval, denied, disabled: not a candidate */
    }
    started++;
    if (cs->srv) { /* connected already */
      decide(pl, cs);
      announce(pl, cs);
    }
  }
  pl->starting = false;
  free(names);
  if (rc != MCPH_OK) {
    pl->run = NULL;
    return rc;
  }
  if (started == 0) {
    pl->run = NULL;
    return mcph_error_set(err, MCPH_ENOTFOUND,
                          "no server to listen to (none is configured and "
                          "allowed to start)");
  }
  check_listen(pl);
  return MCPH_OK;
}

static void cmd_interrupt(void *ctx, mcph_run *run) {
  chan_plugin *pl = ctx;
  (void)run;
  flush_out(pl);
  say(pl, "interrupted after %lu messages", pl->printed);
  finish(pl, 130);
}

static const mcph_command command_list[] = {
    {.struct_size = sizeof(mcph_command),
     .name = "channels",
     .usage = "channels listen [--server NAME]... [--count N] [--json]",
     .help = "print the messages channel servers push, as they arrive",
     .start = cmd_start,
     .interrupt = cmd_interrupt},
};

static const mcph_commands commands = {
    .struct_size = sizeof(mcph_commands),
    .commands = command_list,
    .count = 1,
};

/* ---- permission relay ---- */

static bool was_sent(const perm_q *q, const char *name) {
  for (size_t i = 0; i < q->nsent; i++)
    if (strcmp(q->sent[i], name) == 0)
      return true;
  return false;
}

static void send_question(chan_plugin *pl, perm_q *q, chan_server *cs) {
  if (!cs->srv || cs->verdict != V_ADMITTED || was_sent(q, cs->name))
    return;
  mcph_error e;
  mcph_error_init(&e);
  if (pl->svc->notify(pl->host, cs->srv, M_PERM_REQUEST, q->params, &e) !=
      MCPH_OK) {
    mcph_logf(pl->host, MCPH_LOG_WARN, cs->name,
              "cannot relay the permission question: %s", e.message);
    return;
  }
  q->sent = xrealloc(q->sent, (q->nsent + 1) * sizeof *q->sent);
  q->sent[q->nsent++] = xstrdup(cs->name);
  mcph_logf(pl->host, MCPH_LOG_INFO, cs->name,
            "permission question %s relayed", q->id);
}

/* `name` went away: the questions it held are no longer held by it. */
static void forget_server(chan_plugin *pl, const char *name) {
  for (perm_q *q = pl->perms; q; q = q->next)
    for (size_t i = 0; i < q->nsent; i++)
      if (strcmp(q->sent[i], name) == 0) {
        free(q->sent[i]);
        q->sent[i] = q->sent[--q->nsent];
        break;
      }
}

static void perm_free(perm_q *q) {
  for (size_t i = 0; i < q->nsent; i++)
    free(q->sent[i]);
  free(q->sent);
  free(q->params);
  free(q);
}

static void perm_unlink(chan_plugin *pl, perm_q *q) {
  for (perm_q **pp = &pl->perms; *pp; pp = &(*pp)->next)
    if (*pp == q) {
      *pp = q->next;
      return;
    }
}

/* Whether a listed server may still take questions: connected and
 * admitted, or still connecting. */
static bool someone_may_answer(chan_plugin *pl) {
  const char *list = allow_list(pl);
  for (chan_server *cs = pl->list; cs; cs = cs->next)
    if (in_list(list, cs->name) && !cs->failed &&
        (cs->verdict == V_UNKNOWN || cs->verdict == V_ADMITTED))
      return true;
  return false;
}

/* A question that no listed server holds, nor can take any more, is
 * given back. */
static void check_questions(chan_plugin *pl) {
  if (pl->in_ask)
    return;
  for (perm_q *q = pl->perms, *next; q; q = next) {
    next = q->next;
    if (q->nsent || someone_may_answer(pl) || pl->host->abi_minor < 5)
      continue;
    perm_unlink(pl, q);
    mcph_permission_request *req = q->req;
    perm_free(q);
    req->reply(req, MCPH_PERMISSION_ABSTAIN,
               "no channel server could take the question");
  }
}

/* Five letters a-z without l, easy to type on a phone. */
static void new_id(chan_plugin *pl, char id[6]) {
  static const char letters[] = "abcdefghijkmnopqrstuvwxyz";
  for (;;) {
    unsigned char r[5];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
      for (size_t i = 0; i < sizeof r; i++)
        r[i] = (unsigned char)rand();
    for (size_t i = 0; i < 5; i++)
      id[i] = letters[r[i] % (sizeof letters - 1)];
    id[5] = '\0';
    bool taken = false;
    for (perm_q *q = pl->perms; q; q = q->next)
      taken |= strcmp(q->id, id) == 0;
    if (!taken)
      return;
  }
}

/* The first PREVIEW_BYTES of the arguments, cut on a character. */
static char *preview(const char *args) {
  size_t n = strlen(args);
  if (n <= PREVIEW_BYTES)
    return xstrdup(args);
  n = PREVIEW_BYTES;
  while (n > 0 && ((unsigned char)args[n] & 0xC0) == 0x80)
    n--;
  char *p = xcalloc(n + 4, 1);
  memcpy(p, args, n);
  memcpy(p + n, "\xE2\x80\xA6", 3); /* … */
  return p;
}

static int perm_ask(void *ctx, mcph_permission_request *req) {
  chan_plugin *pl = ctx;
  const char *list = allow_list(pl);
  if (!list)
    return MCPH_ENOTSUP; /* no channel takes questions in this session */
  perm_q *q = xcalloc(1, sizeof *q);
  q->req = req;
  new_id(pl, q->id);
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "request_id", q->id);
  cJSON_AddStringToObject(p, "tool_name", req->tool);
  const char *desc = MCPH_HAS(req, mcph_permission_request, description) &&
                             req->description
                         ? req->description
                         : req->reason;
  cJSON_AddStringToObject(p, "description", desc ? desc : "");
  char *pv = preview(req->arguments_json ? req->arguments_json : "{}");
  cJSON_AddStringToObject(p, "input_preview", pv);
  free(pv);
  q->params = cJSON_PrintUnformatted(p);
  cJSON_Delete(p);
  q->next = pl->perms;
  pl->perms = q;
  /* Ask every listed server that is admitted; connect the others. A
   * connect may fail at once and call back into f_server: the questions
   * are checked once this returns. */
  pl->in_ask = true;
  for (const char *s = list; s && *s;) {
    const char *end = strchr(s, ',');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    char *name = strndup(s, len);
    s = end ? end + 1 : NULL;
    if (!name)
      abort();
    const char *st = pl->servers ? pl->servers->state(pl->host, name, NULL)
                                 : NULL;
    if (st) {
      chan_server *cs = record(pl, name);
      mcph_error e;
      mcph_error_init(&e);
      if (cs->srv) {
        send_question(pl, q, cs);
      } else {
        cs->failed = false; /* before connect: it may fail at once */
        cs->verdict = V_UNKNOWN;
        if (pl->servers->connect(pl->host, name, 0, &e) != MCPH_OK) {
          cs->failed = true;
          mcph_logf(pl->host, MCPH_LOG_WARN, name,
                    "cannot ask it for permission: %s", e.message);
        }
      }
    }
    free(name);
  }
  pl->in_ask = false;
  if (!q->nsent && !someone_may_answer(pl)) {
    perm_unlink(pl, q);
    perm_free(q);
    return MCPH_ENOTSUP;
  }
  check_questions(pl); /* others whose servers failed meanwhile */
  return MCPH_OK;
}

static void perm_cancel(void *ctx, mcph_permission_request *req) {
  chan_plugin *pl = ctx;
  for (perm_q *q = pl->perms; q; q = q->next)
    if (q->req == req) {
      perm_unlink(pl, q);
      perm_free(q);
      return;
    }
}

static void on_answer(chan_plugin *pl, chan_server *cs, const char *params) {
  cJSON *p = cJSON_Parse(params);
  const char *id = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(p, "request_id"));
  const char *behavior = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(p, "behavior"));
  perm_q *q = NULL;
  for (perm_q *it = pl->perms; it && id; it = it->next)
    if (strcmp(it->id, id) == 0 && was_sent(it, cs->name))
      q = it;
  if (!q) {
    mcph_logf(pl->host, MCPH_LOG_WARN, cs->name,
              "permission answer ignored: request_id \"%.40s\" is not a "
              "question open with this server",
              id ? id : "(none)");
  } else if (!behavior ||
             (strcmp(behavior, "allow") != 0 && strcmp(behavior, "deny") != 0)) {
    mcph_logf(pl->host, MCPH_LOG_WARN, cs->name,
              "permission answer ignored: behavior must be \"allow\" or "
              "\"deny\"");
  } else {
    bool allow = strcmp(behavior, "allow") == 0;
    perm_unlink(pl, q);
    mcph_permission_request *req = q->req;
    perm_free(q);
    char why[300];
    snprintf(why, sizeof why, "answered through channel %s", cs->name);
    req->reply(req, allow ? MCPH_PERMISSION_ALLOW : MCPH_PERMISSION_DENY, why);
  }
  cJSON_Delete(p);
}

static const mcph_permission_decider decider = {
    .struct_size = sizeof(mcph_permission_decider),
    .ask = perm_ask,
    .cancel = perm_cancel,
};

/* ---- the feature ---- */

static const char *const notifications[] = {M_MESSAGE, M_PERM_ANSWER, NULL};

/* The client side of the capability, declared only when a server could be
 * admitted (an allow list, or a listen running): a 2026-07-28 server
 * learns from it, in each request's clientCapabilities, that channel
 * messages are wanted, and the host asks for them on the
 * subscriptions/listen stream (docs/channels.md). */
static const char *f_capabilities(void *ctx) {
  chan_plugin *pl = ctx;
  if (policy_off(pl) || (!allow_list(pl) && !pl->run)) {
    return NULL;
  }
  return "{\"experimental\":{\"claude/channel\":{}}}";
}

static void f_notification(void *ctx, mcph_server *srv, const char *method,
                           const char *params_json) {
  chan_plugin *pl = ctx;
  chan_server *cs = record(pl, pl->svc->server_name(pl->host, srv));
  if (strcmp(method, M_PERM_ANSWER) == 0) {
    if (cs->verdict == V_ADMITTED)
      on_answer(pl, cs, params_json);
    else
      mcph_logf(pl->host, MCPH_LOG_WARN, cs->name,
                "permission answer ignored: the server is not admitted as a "
                "channel (%s)",
                cs->why ? cs->why : "not decided");
    return;
  }
  on_message(pl, cs, params_json);
}

static void f_server(void *ctx, mcph_server *srv, int event) {
  chan_plugin *pl = ctx;
  chan_server *cs = record(pl, pl->svc->server_name(pl->host, srv));
  if (event == MCPH_SERVER_CONNECTED) {
    cs->srv = srv;
    cs->failed = false;
    decide(pl, cs);
    announce(pl, cs);
    for (perm_q *q = pl->perms; q; q = q->next)
      if (in_list(allow_list(pl), cs->name))
        send_question(pl, q, cs);
  } else if (event == MCPH_SERVER_DISCONNECTED) {
    cs->srv = NULL;
    forget_server(pl, cs->name); /* asked again if it comes back */
  } else if (event == MCPH_SERVER_FAILED) {
    cs->srv = NULL;
    cs->failed = true;
    forget_server(pl, cs->name);
    if (pl->run && cs->target) {
      const char *why = NULL;
      pl->servers->state(pl->host, cs->name, &why);
      /* Through the host's log: it redacts what a server may have put in
       * the error. */
      mcph_logf(pl->host, MCPH_LOG_WARN, cs->name, "channels: cannot listen: %s",
                why ? why : "connection lost");
    }
  }
  check_questions(pl);
  check_listen(pl);
}

static const char *f_describe(void *ctx, const mcph_server *srv) {
  chan_plugin *pl = ctx;
  const char *name = pl->svc->server_name(pl->host, srv);
  chan_server *cs = record(pl, name);
  free(pl->note);
  pl->note = NULL;
  if (!cs->srv)
    return NULL;
  decide(pl, cs);
  size_t n = strlen(name) + (cs->why ? strlen(cs->why) : 0) + 64;
  pl->note = xcalloc(n, 1);
  if (cs->verdict == V_ADMITTED)
    snprintf(pl->note, n, "channels: admitted");
  else
    snprintf(pl->note, n, "channels: skipped: %s", cs->why);
  return pl->note;
}

static const mcph_feature feature = {
    .struct_size = sizeof(mcph_feature),
    .capabilities = f_capabilities,
    .notifications = notifications,
    .on_notification = f_notification,
    .on_server = f_server,
    .describe = f_describe,
};

static const mcph_option option_list[] = {PLUGIN_OPTIONS};

static const mcph_options options = {
    .struct_size = sizeof(mcph_options),
    .options = option_list,
    .count = 1,
};

/* ---- entry ---- */

static int p_init(const mcph_host *host, void **ctx, mcph_error *err) {
  const mcph_host_features *svc = host->get_service(host, MCPH_SERVICE_FEATURES);
  if (!svc || !MCPH_HAS(svc, mcph_host_features, interactive))
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "the host offers no " MCPH_SERVICE_FEATURES);
  chan_plugin *pl = xcalloc(1, sizeof *pl);
  pl->host = host;
  pl->svc = svc;
  const mcph_host_servers *servers = host->get_service(host, MCPH_SERVICE_SERVERS);
  if (servers && MCPH_HAS(servers, mcph_host_servers, finish))
    pl->servers = servers;
  *ctx = pl;
  return MCPH_OK;
}

static const void *p_get_extension(void *ctx, const char *id) {
  chan_plugin *pl = ctx;
  if (strcmp(id, MCPH_EXT_FEATURE) == 0)
    return &feature;
  if (strcmp(id, MCPH_EXT_OPTIONS) == 0)
    return &options;
  if (strcmp(id, MCPH_EXT_PERMISSION) == 0)
    return &decider;
  if (strcmp(id, MCPH_EXT_COMMAND) == 0 && pl->servers)
    return &commands;
  return NULL;
}

static void p_deinit(void *ctx) {
  chan_plugin *pl = ctx;
  while (pl->list) {
    chan_server *cs = pl->list;
    pl->list = cs->next;
    free(cs->name);
    free(cs->why);
    free(cs);
  }
  while (pl->perms) {
    perm_q *q = pl->perms;
    pl->perms = q->next;
    perm_free(q);
  }
  free(pl->note);
  sb_free(&pl->out);
  free(pl);
}

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = PLUGIN_NAME,
    .version = PLUGIN_VERSION,
    .description = PLUGIN_DESCRIPTION,
    .init = p_init,
    .get_extension = p_get_extension,
    .deinit = p_deinit,
};
