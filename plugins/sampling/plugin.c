/*
 * The sampling feature plugin (mcphost.feature.sampling): answers servers'
 * "sampling/createMessage" through a hook command, so that a server that
 * needs a model can be served by a script or a local model. Off by
 * default, as in Claude Code: without --sampling=hook:COMMAND no
 * "sampling" capability is declared and a request is declined.
 *
 * The hook gets the request's params (with "server", the configured name)
 * as one JSON object on stdin and prints the CreateMessageResult; what it
 * prints is checked (answer.c) before the server gets it. Running it is
 * common/hook.h's, as for elicitation hooks.
 *
 * A server cannot make the hook run without bound: at most MAX_RUNNING
 * hooks run for one server at a time, MAX_WAITING more wait their turn
 * (oldest first), and any further request is declined. A request that
 * comes while no call of this client to that server is in flight (the
 * server asks for itself: during a list, or unprompted) is declined
 * unless --sampling-outside-calls names the server.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/feature.h>
#include <mcphost/plugin.h>
#include <mcphost/rpc.h>

#include "alloc.h"
#include "hook.h"
#include "plugin_info.h"
#include "sampling.h"

#define DEFAULT_HOOK_TIMEOUT_MS 120000
/* The spec's code for a request the user rejected. */
#define SAMPLING_DECLINED (-1)
/* Per server: hooks running at once, and requests waiting for a turn. */
#define MAX_RUNNING 4
#define MAX_WAITING 16

typedef struct sampling_plugin sampling_plugin;

/* One request being answered by the hook, or waiting for its turn. */
typedef struct sample {
  sampling_plugin *pl;
  mcph_server *server;
  mcph_request *req;
  char *server_name;
  char *input; /* the hook's input, while it waits */
  hook_run *run;
  struct sample *next;
} sample;

struct sampling_plugin {
  const mcph_host *host;
  const mcph_host_features *svc;
  sample *list; /* oldest first */
  char *warned; /* the unknown policy value already warned about */
};

static void slog(sampling_plugin *pl, int level, const char *server,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void slog(sampling_plugin *pl, int level, const char *server,
                 const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  pl->host->log(pl->host, level, server ? server : "sampling", line);
}

/* ---- options ---- */

static const mcph_option option_list[] = {PLUGIN_OPTIONS};

static const mcph_options options = {
    .struct_size = sizeof(mcph_options),
    .options = option_list,
    .count = sizeof option_list / sizeof option_list[0],
};

/* The hook's command, or NULL for decline (the default; an unknown value
 * declines too, with one warning per value). */
static const char *policy_hook(sampling_plugin *pl) {
  const char *v = pl->svc->option(pl->host, "sampling");
  int unknown;
  const char *hook = sampling_policy_word(v, &unknown);
  if (!unknown) {
    return hook;
  }
  if (!pl->warned || strcmp(pl->warned, v) != 0) {
    slog(pl, MCPH_LOG_WARN, NULL,
         "unknown sampling policy \"%.100s\" (decline, hook:COMMAND); "
         "declining",
         v);
    free(pl->warned);
    pl->warned = xstrdup(v);
  }
  return NULL;
}

/* Whether --sampling-outside-calls names `server` ("*": every server). */
static bool outside_allowed(sampling_plugin *pl, const char *server) {
  const char *v = pl->svc->option(pl->host, "sampling-outside-calls");
  for (const char *p = v; p && *p;) {
    size_t n = strcspn(p, ",");
    if ((n == 1 && *p == '*') ||
        (n == strlen(server) && strncmp(p, server, n) == 0)) {
      return true;
    }
    p += n + (p[n] == ',');
  }
  return false;
}

/* ---- answering ---- */

static void unlink_sample(sample *sm) {
  for (sample **pp = &sm->pl->list; *pp; pp = &(*pp)->next) {
    if (*pp == sm) {
      *pp = sm->next;
      return;
    }
  }
}

static void sample_free(sample *sm) {
  free(sm->server_name);
  free(sm->input);
  free(sm);
}

/* Ends a request with an error: to the server, and on stderr. */
static void refuse(sampling_plugin *pl, mcph_request *req, const char *server,
                   int code, const char *msg) {
  slog(pl, MCPH_LOG_WARN, server, "sampling/createMessage failed: %s", msg);
  pl->svc->respond_error(pl->host, req, code, msg);
}

/* Answers the request of `sm` with what its hook did. */
static void answer(sample *sm, hook_status st, const char *output,
                   const char *why) {
  sampling_plugin *pl = sm->pl;
  char msg[800];
  if (st != HOOK_OK) {
    snprintf(msg, sizeof msg, "the sampling hook failed: %s%s", why,
             st == HOOK_TIMEOUT ? " (option sampling-hook-timeout)" : "");
    refuse(pl, sm->req, sm->server_name, MCPH_RPC_INTERNAL_ERROR, msg);
    return;
  }
  char reason[400];
  cJSON *result = sampling_check_answer(output, reason, sizeof reason);
  if (!result) {
    snprintf(msg, sizeof msg, "the sampling hook's answer is invalid: %s",
             reason);
    refuse(pl, sm->req, sm->server_name, MCPH_RPC_INTERNAL_ERROR, msg);
    return;
  }
  char *text = cJSON_PrintUnformatted(result);
  cJSON_Delete(result);
  mcph_error err;
  mcph_error_init(&err);
  if (pl->svc->respond(pl->host, sm->req, text, &err) != MCPH_OK) {
    snprintf(msg, sizeof msg, "the sampling hook's answer was refused: %s",
             err.message);
    refuse(pl, sm->req, sm->server_name, MCPH_RPC_INTERNAL_ERROR, msg);
  } else {
    slog(pl, MCPH_LOG_INFO, sm->server_name,
         "sampling/createMessage answered by the hook");
  }
  cJSON_free(text);
}

static void pump(sampling_plugin *pl, const mcph_server *server);

static void on_hook_done(void *ud, hook_status st, const char *output,
                         const char *why) {
  sample *sm = ud;
  sampling_plugin *pl = sm->pl;
  sm->run = NULL; /* freed after this call */
  unlink_sample(sm);
  answer(sm, st, output, why);
  pump(pl, sm->server); /* its turn is over: the next one's */
  sample_free(sm);
}

/* Starts the hook of `sm` (waiting, in the list); on failure answers and
 * frees it. Returns whether it runs. */
static bool start(sample *sm) {
  sampling_plugin *pl = sm->pl;
  const char *hook = policy_hook(pl);
  char why[400], msg[600];
  if (!hook) {
    snprintf(why, sizeof why, "the sampling policy changed to decline");
  } else {
    sm->run = hook_start(
        pl->host, hook, sm->input,
        hook_timeout_option(pl->host, pl->svc, "sampling-hook-timeout",
                            DEFAULT_HOOK_TIMEOUT_MS, "sampling"),
        on_hook_done, sm, why, sizeof why);
  }
  free(sm->input);
  sm->input = NULL;
  if (sm->run) {
    return true;
  }
  unlink_sample(sm);
  snprintf(msg, sizeof msg, "the sampling hook failed: %s", why);
  refuse(pl, sm->req, sm->server_name, MCPH_RPC_INTERNAL_ERROR, msg);
  sample_free(sm);
  return false;
}

/* Hooks running and requests waiting for `server`. */
static void count(const sampling_plugin *pl, const mcph_server *server,
                  size_t *running, size_t *waiting) {
  *running = *waiting = 0;
  for (const sample *sm = pl->list; sm; sm = sm->next) {
    if (sm->server == server) {
      *(sm->run ? running : waiting) += 1;
    }
  }
}

/* Starts the oldest waiting requests of `server` while it has turns. */
static void pump(sampling_plugin *pl, const mcph_server *server) {
  size_t running, waiting;
  count(pl, server, &running, &waiting);
  while (running < MAX_RUNNING && waiting > 0) {
    sample *next = NULL;
    for (sample *sm = pl->list; sm && !next; sm = sm->next) {
      if (sm->server == server && !sm->run) {
        next = sm;
      }
    }
    waiting--;
    running += start(next);
  }
}

/* Declines `req` with `msg`: to the server, and on stderr. */
static void decline(sampling_plugin *pl, mcph_request *req, const char *name,
                    const char *msg) {
  slog(pl, MCPH_LOG_WARN, name, "sampling/createMessage declined: %s", msg);
  pl->svc->respond_error(pl->host, req, SAMPLING_DECLINED, msg);
}

static int f_on_request(void *ctx, mcph_server *server, const char *method,
                        const char *params_json, mcph_request *req,
                        mcph_error *err) {
  sampling_plugin *pl = ctx;
  (void)err;
  const char *name = pl->svc->server_name(pl->host, server);
  if (strcmp(method, "sampling/createMessage") != 0) {
    pl->svc->respond_error(pl->host, req, MCPH_RPC_METHOD_NOT_FOUND,
                           "method not found");
    return 0;
  }
  const char *hook = policy_hook(pl);
  if (!hook) {
    slog(pl, MCPH_LOG_INFO, name,
         "sampling/createMessage declined (sampling=decline)");
    pl->svc->respond_error(pl->host, req, SAMPLING_DECLINED,
                           "sampling declined: this client answers "
                           "sampling/createMessage only through a hook "
                           "(--sampling=hook:COMMAND)");
    return 0;
  }
  /* A host that cannot tell counts as outside a call: fail closed. */
  bool in_call = MCPH_HAS(pl->svc, mcph_host_features, in_call) &&
                 pl->svc->in_call && pl->svc->in_call(pl->host, req);
  if (!in_call && !outside_allowed(pl, name)) {
    decline(pl, req, name,
            "sampling declined: no call of this client to the server is in "
            "flight, and a server's request outside a call is answered only "
            "when the user allows it (--sampling-outside-calls=SERVER)");
    return 0;
  }
  size_t running, waiting;
  count(pl, server, &running, &waiting);
  if (running >= MAX_RUNNING && waiting >= MAX_WAITING) {
    char msg[300];
    snprintf(msg, sizeof msg,
             "sampling declined: %d requests of this server are being "
             "answered and %d wait, the most this client takes; ask again "
             "when they are answered",
             MAX_RUNNING, MAX_WAITING);
    decline(pl, req, name, msg);
    return 0;
  }
  char *input = sampling_hook_input(name, params_json);
  if (!input) {
    refuse(pl, req, name, MCPH_RPC_INVALID_PARAMS,
           "sampling/createMessage needs params with a \"messages\" array");
    return 0;
  }
  sample *sm = xcalloc(1, sizeof *sm);
  *sm = (sample){.pl = pl, .server = server, .req = req};
  sm->server_name = xstrdup(name);
  sm->input = input;
  sample **tail = &pl->list;
  while (*tail) {
    tail = &(*tail)->next;
  }
  *tail = sm; /* oldest first: turns in the order asked */
  if (running < MAX_RUNNING) {
    start(sm);
  } else {
    slog(pl, MCPH_LOG_INFO, name,
         "sampling/createMessage waits for the hook (%d running)", MAX_RUNNING);
  }
  return 0;
}

/* Stops the hook of `sm`, if it runs, and answers (the answer is dropped
 * by the host: the server withdrew the request or is gone). */
static void abandon(sample *sm, const char *why) {
  if (sm->run) {
    hook_abort(sm->run);
  }
  sm->run = NULL;
  unlink_sample(sm);
  sm->pl->svc->respond_error(sm->pl->host, sm->req, MCPH_RPC_INTERNAL_ERROR,
                             why);
  sample_free(sm);
}

// cppcheck-suppress constParameter
static void f_on_server(void *ctx, mcph_server *server, int event) {
  sampling_plugin *pl = ctx;
  if (event != MCPH_SERVER_DISCONNECTED) {
    return;
  }
  for (sample *sm = pl->list, *next; sm; sm = next) {
    next = sm->next;
    if (sm->server == server) {
      abandon(sm, "the server disconnected");
    }
  }
}

// cppcheck-suppress constParameter
static void f_on_cancelled(void *ctx, mcph_server *server, mcph_request *req) {
  sampling_plugin *pl = ctx;
  for (sample *sm = pl->list; sm; sm = sm->next) {
    if (sm->req == req) {
      slog(pl, MCPH_LOG_INFO, sm->server_name,
           "sampling/createMessage withdrawn by the server");
      abandon(sm, "withdrawn");
      pump(pl, server);
      return;
    }
  }
}

/* Declared only when a hook will answer. */
static const char *f_capabilities(void *ctx) {
  sampling_plugin *pl = ctx;
  return policy_hook(pl) ? SAMPLING_CAPS : NULL;
}

static const char *const requests[] = {PLUGIN_REQUESTS, NULL};

static const mcph_feature feature = {
    .struct_size = sizeof(mcph_feature),
    .capabilities = f_capabilities,
    .requests = requests,
    .on_request = f_on_request,
    .on_server = f_on_server,
    .on_cancelled = f_on_cancelled,
};

/* ---- the plugin ---- */

static int plugin_init(const mcph_host *host, void **plugin_ctx,
                       mcph_error *err) {
  if (!MCPH_HAS(host, mcph_host, get_service) ||
      host->abi_major != MCPH_ABI_MAJOR) {
    return mcph_error_set(err, MCPH_EABI,
                          "sampling: the host lacks services this plugin "
                          "needs (built for ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  const mcph_host_features *svc =
      host->get_service(host, MCPH_SERVICE_FEATURES);
  if (!MCPH_HAS(svc, mcph_host_features, interactive)) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "sampling: the host does not offer %s",
                          MCPH_SERVICE_FEATURES);
  }
  sampling_plugin *pl = xcalloc(1, sizeof *pl);
  pl->host = host;
  pl->svc = svc;
  *plugin_ctx = pl;
  return 0;
}

static const void *plugin_get_extension(void *ctx, const char *id) {
  (void)ctx;
  if (id && strcmp(id, MCPH_EXT_FEATURE) == 0) {
    return &feature;
  }
  if (id && strcmp(id, MCPH_EXT_OPTIONS) == 0) {
    return &options;
  }
  return NULL;
}

static void plugin_deinit(void *ctx) {
  sampling_plugin *pl = ctx;
  while (pl->list) {
    abandon(pl->list, "the client is closing");
  }
  free(pl->warned);
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
    .init = plugin_init,
    .get_extension = plugin_get_extension,
    .deinit = plugin_deinit,
};
