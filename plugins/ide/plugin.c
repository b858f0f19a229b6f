/*
 * The IDE plugin (mcphost.ide): connects mcphost to the IDE it runs in,
 * as Claude Code does.
 *
 * Discovery (a server source): with --ide, CLAUDE_CODE_AUTO_CONNECT_IDE
 * =true or CLAUDE_CODE_SSE_PORT=PORT, the lockfiles the IDE plugins
 * write (lockfile.h) are read and one is chosen (select.h); it joins the
 * configuration as the server "ide", of type ws-ide or sse-ide
 * (transport.c). A stale or refused lockfile is reported and skipped.
 * Asked for explicitly (--ide, the port), finding no IDE is an error;
 * auto-connection without one is quiet.
 *
 * The feature: when an IDE connection is initialized, the host tells the
 * IDE with the notification ide_connected {pid} (mcphost's pid, which
 * the IDE records), and the IDE's own notifications (selection_changed,
 * at_mentioned, diagnostics_changed) go to `mcphost ide watch`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ide.h"
#include "ide_util.h"
#include "lockfile.h"
#include "select.h"

/* ---- the server source ---- */

static void report_skipped(const ide_plugin *pl, const ide_locks *l,
                           long chosen) {
  for (size_t i = 0; i < l->n; i++) {
    const char *why = ide_lock_skip_reason(&l->v[i]);
    if ((long)i == chosen || !why) {
      continue;
    }
    mcph_logf(pl->host, l->v[i].error ? MCPH_LOG_WARN : MCPH_LOG_INFO,
              PLUGIN_ID, "IDE lockfile %s skipped: %s", l->v[i].path, why);
  }
}

static int list_servers(void *ctx, mcph_server_source_emit_fn emit,
                        void *emit_ud, mcph_error *err) {
  ide_plugin *pl = ctx;
  bool explicit_ask = false;
  if (!ide_wanted(pl->host, pl->svc, &explicit_ask)) {
    return MCPH_OK;
  }
  const char *port = getenv("CLAUDE_CODE_SSE_PORT");
  ide_locks l = {0};
  ide_locks_scan(&l, pl->host->get_path(pl->host, MCPH_PATH_CWD));
  char *why = NULL;
  int none = 0;
  long pick = ide_select(&l, port && *port ? port : NULL, &why, &none);
  int rc = MCPH_OK;
  if (pick >= 0) {
    report_skipped(pl, &l, pick); /* else the message below names them */
    char *entry = ide_server_entry(&l.v[pick]);
    char *doc =
        xasprintf("{\"mcpServers\":{\"" IDE_SERVER_NAME "\":%s}}", entry);
    emit(emit_ud, doc, strlen(doc));
    mcph_logf(pl->host, MCPH_LOG_INFO, PLUGIN_ID,
              "IDE %s (port %d, pid %ld) from %s", l.v[pick].ide_name,
              l.v[pick].port, l.v[pick].pid, l.v[pick].path);
    free(doc);
    free(entry);
  } else if (none && !explicit_ask) {
    mcph_logf(pl->host, MCPH_LOG_INFO, PLUGIN_ID, "%s", why);
  } else {
    rc = mcph_error_set(err, MCPH_ENOTFOUND, "%s", why);
  }
  free(why);
  ide_locks_free(&l);
  return rc;
}

static const mcph_server_source source = {
    .struct_size = sizeof(mcph_server_source),
    .description = PLUGIN_SOURCE,
    .list_servers = list_servers,
};

/* ---- the feature ---- */

static const char *const notifications[] = {"selection_changed", "at_mentioned",
                                            "diagnostics_changed", NULL};

static void f_notification(void *ctx, mcph_server *srv, const char *method,
                           const char *params_json) {
  ide_plugin *pl = ctx;
  const char *name = pl->svc->server_name(pl->host, srv);
  if (!ide_transport_serves(pl, name)) {
    return; /* another server's notification of that name: not the IDE's */
  }
  ide_watch_notification(pl, name, method, params_json);
}

static void f_server(void *ctx, mcph_server *srv, int event) {
  ide_plugin *pl = ctx;
  const char *name = pl->svc->server_name(pl->host, srv);
  if (event == MCPH_SERVER_CONNECTED && ide_transport_serves(pl, name)) {
    char params[64];
    snprintf(params, sizeof params, "{\"pid\":%ld}", (long)getpid());
    mcph_error e;
    mcph_error_init(&e);
    if (pl->svc->notify(pl->host, srv, "ide_connected", params, &e) !=
        MCPH_OK) {
      mcph_logf(pl->host, MCPH_LOG_WARN, name,
                "cannot tell the IDE it is connected: %s", e.message);
    }
  }
  ide_watch_server_event(pl, name, event);
}

static const char *f_describe(void *ctx, const mcph_server *srv) {
  ide_plugin *pl = ctx;
  const char *name = pl->svc->server_name(pl->host, srv);
  if (!ide_transport_serves(pl, name)) {
    return NULL;
  }
  free(pl->note);
  pl->note = xstrdup("ide: model-visible tools getDiagnostics and "
                         "executeCode (tools --all lists every one)");
  return pl->note;
}

static const mcph_feature feature = {
    .struct_size = sizeof(mcph_feature),
    .notifications = notifications,
    .on_notification = f_notification,
    .on_server = f_server,
    .describe = f_describe,
};

static const mcph_option option_list[] = {
    {IDE_OPTION, NULL, IDE_OPTION_HELP},
};

static const mcph_options options = {
    .struct_size = sizeof(mcph_options),
    .options = option_list,
    .count = 1,
};

/* ---- entry ---- */

static int p_init(const mcph_host *host, void **ctx, mcph_error *err) {
  const mcph_host_features *svc =
      host->get_service(host, MCPH_SERVICE_FEATURES);
  if (!svc || !MCPH_HAS(svc, mcph_host_features, option)) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "the host offers no " MCPH_SERVICE_FEATURES);
  }
  ide_plugin *pl = xcalloc(1, sizeof *pl);
  pl->host = host;
  pl->svc = svc;
  const mcph_host_servers *servers =
      host->get_service(host, MCPH_SERVICE_SERVERS);
  if (servers && MCPH_HAS(servers, mcph_host_servers, finish)) {
    pl->servers = servers;
  }
  const mcph_host_transports *tr =
      host->get_service(host, MCPH_SERVICE_TRANSPORTS);
  if (tr && MCPH_HAS(tr, mcph_host_transports, create)) {
    pl->transports = tr;
  }
  *ctx = pl;
  return MCPH_OK;
}

static const void *p_get_extension(void *ctx, const char *id) {
  ide_plugin *pl = ctx;
  if (strcmp(id, MCPH_EXT_TRANSPORT) == 0) {
    return &ide_transport_factory;
  }
  if (strcmp(id, MCPH_EXT_SERVER_SOURCE) == 0) {
    return &source;
  }
  if (strcmp(id, MCPH_EXT_FEATURE) == 0) {
    return &feature;
  }
  if (strcmp(id, MCPH_EXT_OPTIONS) == 0) {
    return &options;
  }
  if (strcmp(id, MCPH_EXT_COMMAND) == 0 && pl->servers) {
    return &ide_commands;
  }
  return NULL;
}

static void p_deinit(void *ctx) {
  ide_plugin *pl = ctx;
  free(pl->note);
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
