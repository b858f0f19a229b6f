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
#include "sampling.h"

#define SAMPLING_ID "mcphost.feature.sampling"
#define DEFAULT_HOOK_TIMEOUT_MS 120000
/* The spec's code for a request the user rejected. */
#define SAMPLING_DECLINED (-1)

typedef struct sampling_plugin sampling_plugin;

/* One request being answered by the hook. */
typedef struct sample {
  sampling_plugin *pl;
  mcph_server *server;
  mcph_request *req;
  char *server_name;
  hook_run *run;
  struct sample *next;
} sample;

struct sampling_plugin {
  const mcph_host *host;
  const mcph_host_features *svc;
  sample *list;
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

static const mcph_option option_list[] = {
    {"sampling", "POLICY", "decline|hook:CMD (default decline)"},
    {"sampling-hook-timeout", "SECONDS", "how long the hook may run (120)"},
};

static const mcph_options options = {
    .struct_size = sizeof(mcph_options),
    .options = option_list,
    .count = sizeof option_list / sizeof option_list[0],
};

/* The hook's command, or NULL for decline (the default; an unknown value
 * declines too, with one warning per value). */
static const char *policy_hook(sampling_plugin *pl) {
  const char *v = pl->svc->option(pl->host, "sampling");
  if (!v || !*v || strcmp(v, "decline") == 0) {
    return NULL;
  }
  if (strncmp(v, "hook:", 5) == 0 && v[5]) {
    return v + 5;
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
  free(sm);
}

/* Ends a request with an error: to the server, and on stderr. */
static void refuse(sampling_plugin *pl, mcph_request *req, const char *server,
                   int code, const char *msg) {
  slog(pl, MCPH_LOG_WARN, server, "sampling/createMessage failed: %s", msg);
  pl->svc->respond_error(pl->host, req, code, msg);
}

static void on_hook_done(void *ud, hook_status st, const char *output,
                         const char *why) {
  sample *sm = ud;
  sampling_plugin *pl = sm->pl;
  sm->run = NULL; /* freed after this call */
  unlink_sample(sm);
  char msg[800];
  if (st != HOOK_OK) {
    snprintf(msg, sizeof msg, "the sampling hook failed: %s%s", why,
             st == HOOK_TIMEOUT ? " (option sampling-hook-timeout)" : "");
    refuse(pl, sm->req, sm->server_name, MCPH_RPC_INTERNAL_ERROR, msg);
    sample_free(sm);
    return;
  }
  char reason[400];
  cJSON *answer = sampling_check_answer(output, reason, sizeof reason);
  if (!answer) {
    snprintf(msg, sizeof msg, "the sampling hook's answer is invalid: %s",
             reason);
    refuse(pl, sm->req, sm->server_name, MCPH_RPC_INTERNAL_ERROR, msg);
    sample_free(sm);
    return;
  }
  char *text = cJSON_PrintUnformatted(answer);
  cJSON_Delete(answer);
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
  sample_free(sm);
}

/* The hook's input: the params with "server" first. A new string. */
static char *hook_input(const char *server, const cJSON *params) {
  cJSON *in = cJSON_CreateObject();
  cJSON_AddStringToObject(in, "server", server);
  const cJSON *it;
  cJSON_ArrayForEach(it, params) {
    if (strcmp(it->string, "server") != 0) {
      cJSON_AddItemToObject(in, it->string, cJSON_Duplicate(it, 1));
    }
  }
  char *text = cJSON_PrintUnformatted(in);
  cJSON_Delete(in);
  return text;
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
  cJSON *params = cJSON_Parse(params_json);
  if (!cJSON_IsObject(params) ||
      !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(params, "messages"))) {
    cJSON_Delete(params);
    refuse(pl, req, name, MCPH_RPC_INVALID_PARAMS,
           "sampling/createMessage needs params with a \"messages\" array");
    return 0;
  }
  char *input = hook_input(name, params);
  cJSON_Delete(params);
  sample *sm = xcalloc(1, sizeof *sm);
  *sm = (sample){.pl = pl, .server = server, .req = req};
  sm->server_name = xstrdup(name);
  char why[400], msg[600];
  sm->run =
      hook_start(pl->host, hook, input,
                 hook_timeout_option(pl->host, pl->svc, "sampling-hook-timeout",
                                     DEFAULT_HOOK_TIMEOUT_MS, "sampling"),
                 on_hook_done, sm, why, sizeof why);
  cJSON_free(input);
  if (!sm->run) {
    snprintf(msg, sizeof msg, "the sampling hook failed: %s", why);
    refuse(pl, req, name, MCPH_RPC_INTERNAL_ERROR, msg);
    sample_free(sm);
    return 0;
  }
  sm->next = pl->list;
  pl->list = sm;
  return 0;
}

/* Stops the hook of `sm` and answers (the answer is dropped by the host:
 * the server withdrew the request or is gone). */
static void abandon(sample *sm, const char *why) {
  hook_abort(sm->run);
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
  (void)server;
  for (sample *sm = pl->list; sm; sm = sm->next) {
    if (sm->req == req) {
      slog(pl, MCPH_LOG_INFO, sm->server_name,
           "sampling/createMessage withdrawn by the server");
      abandon(sm, "withdrawn");
      return;
    }
  }
}

/* Declared only when a hook will answer. */
static const char *f_capabilities(void *ctx) {
  sampling_plugin *pl = ctx;
  return policy_hook(pl) ? "{\"sampling\":{}}" : NULL;
}

static const char *const requests[] = {"sampling/createMessage", NULL};

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
    .id = SAMPLING_ID,
    .name = "sampling",
    .version = "1.0.0",
    .description = "Answers servers' sampling/createMessage through a hook "
                   "command (--sampling=hook:COMMAND; off by default).",
    .init = plugin_init,
    .get_extension = plugin_get_extension,
    .deinit = plugin_deinit,
};
