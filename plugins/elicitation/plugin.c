/*
 * The elicitation feature plugin (mcphost.feature.elicitation): answers
 * servers' "elicitation/create" requests, form mode and URL mode (MCP
 * 2025-11-25), and shows "notifications/elicitation/complete".
 *
 * This file is the glue to the host: the entry, the capability, the
 * options, checking a request before anything is shown, and servers
 * going away. How a request is answered is in flow.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mcphost/plugin.h>
#include <mcphost/rpc.h>

#include "elicit.h"
#include "hook.h"

#define DEFAULT_HOOK_TIMEOUT_MS 60000

void elicit_log(elicit_plugin *pl, int level, const char *server,
                const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  pl->host->log(pl->host, level, server ? server : PLUGIN_ID, line);
}

/* ---- options ---- */

static const mcph_option option_list[] = {PLUGIN_OPTIONS};

static const mcph_options options = {
    .struct_size = sizeof(mcph_options),
    .options = option_list,
    .count = sizeof option_list / sizeof option_list[0],
};

int elicit_policy(elicit_plugin *pl, const char **hook) {
  const char *v = pl->svc->option(pl->host, "elicitation");
  *hook = NULL;
  if (!v || !*v) /* not given: a person at a terminal is asked */
    return pl->svc->interactive(pl->host) ? POLICY_ASK : POLICY_DECLINE;
  int kind = elicit_policy_word(v, hook);
  if (kind >= 0)
    return kind;
  /* A typo must not turn into a silent accept or a silent ask: decline,
   * and say so once per value. */
  if (!pl->warned_policy || strcmp(pl->warned_policy, v) != 0) {
    elicit_log(pl, MCPH_LOG_WARN, NULL,
               "unknown elicitation policy \"%.100s\" (ask, decline, cancel, "
               "accept-defaults, hook:COMMAND, off); declining",
               v);
    free(pl->warned_policy);
    pl->warned_policy = xstrdup(v);
  }
  return POLICY_DECLINE;
}

static char *option_copy(elicit_plugin *pl, const char *name) {
  const char *v = pl->svc->option(pl->host, name);
  return v && *v ? xstrdup(v) : NULL;
}

/* ---- the feature ---- */

static const char *f_capabilities(void *ctx) {
  elicit_plugin *pl = ctx;
  const char *hook;
  free(pl->caps);
  pl->caps = NULL;
  if (elicit_policy(pl, &hook) == POLICY_OFF)
    return NULL;
  pl->caps = xstrdup(ELICIT_CAPS);
  return pl->caps;
}

static void respond_error(elicit_plugin *pl, mcph_request *req, int code,
                          const char *server, const char *msg) {
  elicit_log(pl, MCPH_LOG_WARN, server, "elicitation refused: %s", msg);
  pl->svc->respond_error(pl->host, req, code, msg);
}

static int f_on_request(void *ctx, mcph_server *server, const char *method,
                        const char *params_json, mcph_request *req,
                        mcph_error *err) {
  elicit_plugin *pl = ctx;
  (void)err;
  const char *name = pl->svc->server_name(pl->host, server);
  if (strcmp(method, "elicitation/create") != 0) {
    respond_error(pl, req, MCPH_RPC_METHOD_NOT_FOUND, name, "method not found");
    return 0;
  }
  const char *hook;
  int policy = elicit_policy(pl, &hook);
  if (policy == POLICY_OFF) {
    /* Without the capability the server should not have asked. */
    pl->svc->respond_error(pl->host, req, MCPH_RPC_METHOD_NOT_FOUND,
                           "elicitation is turned off in this client "
                           "(elicitation=off)");
    elicit_log(pl, MCPH_LOG_INFO, name,
               "elicitation/create refused: elicitation=off");
    return 0;
  }
  elicitation *e = xcalloc(1, sizeof *e);
  e->pl = pl;
  e->server = server;
  e->req = req;
  e->server_name = xstrdup(name);
  e->policy = policy;
  e->hook = hook ? xstrdup(hook) : NULL;
  e->hook_before = option_copy(pl, "elicitation-hook-before");
  e->hook_after = option_copy(pl, "elicitation-hook-after");
  e->hook_timeout_ms =
      hook_timeout_option(pl->host, pl->svc, "elicitation-hook-timeout",
                          DEFAULT_HOOK_TIMEOUT_MS, PLUGIN_ID);

  char why[600];
  cJSON *params = cJSON_Parse(params_json);
  int rc = elicit_read_request(e, params, why, sizeof why);
  cJSON_Delete(params);
  if (rc != 0) {
    respond_error(pl, req, MCPH_RPC_INVALID_PARAMS, name, why);
    flow_free(e); /* never listed, never shown */
    return 0;
  }
  e->next = pl->list;
  pl->list = e;
  if (e->url_mode) {
    char reason[300], *rebuilt = NULL;
    if (url_check(e->url, &e->url_host, &rebuilt, reason, sizeof reason) != 0) {
      /* Refused before any hook or person sees it: such a URL is never
       * opened, whoever would agree. */
      char line[1400];
      snprintf(line, sizeof line,
               "refused to open the URL it sent (%s); declined: %.1000s",
               reason, e->url);
      tty_note(pl, name, line);
      elicit_log(pl, MCPH_LOG_WARN, name, "elicitation: %s", line);
      flow_finish(e, flow_action("decline"));
      return 0;
    }
    /* What is shown, asked and opened is what curl parsed. */
    free(e->url);
    e->url = rebuilt;
  }
  flow_start(e);
  return 0;
}

static void f_on_notification(void *ctx, mcph_server *server,
                              const char *method, const char *params_json) {
  elicit_plugin *pl = ctx;
  if (strcmp(method, "notifications/elicitation/complete") != 0)
    return;
  cJSON *params = cJSON_Parse(params_json);
  const char *id = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(params, "elicitationId"));
  const char *name = pl->svc->server_name(pl->host, server);
  url_pending **pp = &pl->urls;
  while (id && *pp && !((*pp)->server == server && strcmp((*pp)->id, id) == 0))
    pp = &(*pp)->next;
  if (id && *pp) {
    url_pending *u = *pp;
    *pp = u->next;
    pl->nurls--;
    char *clean = text_clean(id, false);
    char line[600];
    snprintf(line, sizeof line, "the URL elicitation %.400s is complete",
             clean);
    tty_note(pl, name, line);
    free(clean);
    free(u->server_name);
    free(u->id);
    free(u);
  } else {
    /* The spec: ignore completions for unknown or finished ids. */
    elicit_log(pl, MCPH_LOG_DEBUG, name,
               "elicitation complete for an unknown id; ignored");
  }
  cJSON_Delete(params);
}

/* The signature is the ABI's (mcph_feature.on_server). */
// cppcheck-suppress constParameter
static void f_on_server(void *ctx, mcph_server *server, int event) {
  elicit_plugin *pl = ctx;
  if (event != MCPH_SERVER_DISCONNECTED)
    return;
  tty_withdraw_server(pl, server, "the server disconnected");
  for (elicitation **pp = &pl->list; *pp;) {
    elicitation *e = *pp;
    if (e->server == server)
      flow_abandon(e); /* unlinks it */
    else
      pp = &e->next;
  }
  for (url_pending **pp = &pl->urls; *pp;) {
    url_pending *u = *pp;
    if (u->server == server) {
      *pp = u->next;
      free(u->server_name);
      free(u->id);
      free(u);
      pl->nurls--;
    } else {
      pp = &u->next;
    }
  }
}

/* The server no longer wants an answer: the prompt or hook stops, and
 * the "cancel" given back is not sent (the host drops it). */
// cppcheck-suppress constParameter
static void f_on_cancelled(void *ctx, mcph_server *server, mcph_request *req) {
  elicit_plugin *pl = ctx;
  (void)server;
  for (elicitation *e = pl->list; e; e = e->next)
    if (e->req == req) {
      elicit_log(pl, MCPH_LOG_INFO, e->server_name,
                 "elicitation withdrawn by the server");
      tty_withdraw(pl, e, "the server withdrew it");
      flow_finish(e, flow_action("cancel"));
      return;
    }
}

static const char *const requests[] = {PLUGIN_REQUESTS, NULL};
static const char *const notifications[] = {PLUGIN_NOTIFICATIONS, NULL};

static const mcph_feature feature = {
    .struct_size = sizeof(mcph_feature),
    .capabilities = f_capabilities,
    .requests = requests,
    .notifications = notifications,
    .on_request = f_on_request,
    .on_notification = f_on_notification,
    .on_server = f_on_server,
    .on_cancelled = f_on_cancelled,
};

/* ---- the plugin ---- */

static int plugin_init(const mcph_host *host, void **plugin_ctx,
                       mcph_error *err) {
  if (!MCPH_HAS(host, mcph_host, get_service) ||
      host->abi_major != MCPH_ABI_MAJOR)
    return mcph_error_set(err, MCPH_EABI,
                          "elicitation: the host lacks services this plugin "
                          "needs (built for ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  const mcph_host_features *svc =
      host->get_service(host, MCPH_SERVICE_FEATURES);
  if (!MCPH_HAS(svc, mcph_host_features, interactive))
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "elicitation: the host does not offer %s",
                          MCPH_SERVICE_FEATURES);
  elicit_plugin *pl = calloc(1, sizeof *pl);
  if (!pl)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  pl->host = host;
  pl->svc = svc;
  *plugin_ctx = pl;
  return 0;
}

static const void *plugin_get_extension(void *ctx, const char *id) {
  (void)ctx;
  if (id && strcmp(id, MCPH_EXT_FEATURE) == 0)
    return &feature;
  if (id && strcmp(id, MCPH_EXT_OPTIONS) == 0)
    return &options;
  return NULL;
}

static void plugin_deinit(void *ctx) {
  elicit_plugin *pl = ctx;
  /* The terminal first: nothing more is shown or asked. Then whatever is
   * still open gets "cancel", which frees the host's request (its server
   * is gone by now: the answer is dropped). */
  tty_free(pl);
  while (pl->list)
    flow_abandon(pl->list);
  while (pl->urls) {
    url_pending *u = pl->urls;
    pl->urls = u->next;
    free(u->server_name);
    free(u->id);
    free(u);
  }
  url_free_browsers(pl);
  free(pl->caps);
  free(pl->warned_policy);
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
