/*
 * The MCPB bundle plugin (mcphost.feature.mcpb).
 *
 *   mcphost bundle install|list|info|verify|configure|enable|disable|
 *                  remove|sign|pack ...        (docs/bundles.md)
 *
 * Life of a bundle: `install` reads the file (or downloads the URL),
 * parses the signature trailer, checks the signature, validates
 * manifest.json, shows the summary, asks the user_config questions,
 * extracts into a private temporary directory beside the target and
 * swaps it into place (cmd_install.c). From then on, whenever the host
 * loads its configuration, the server source below turns each enabled
 * bundle into a server named after its manifest, its command line
 * substituted (subst.h) with the answers kept (store.h and the secrets
 * service).
 *
 * The heavy half (libarchive, libcurl) is mcpb-tools.so, opened only by
 * the commands that need it (tools.h), and OpenSSL's part mcpb-sig.so,
 * which it opens for a signature only (sig.h): listing servers and
 * managing installed bundles maps none of those libraries.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "impl_open.h"
#include "manifest.h"
#include "mcpb.h"
#include "store.h"
#include "subst.h"
#include "text_escape.h"

char *mcpb_esc(const char *s) {
  char *e = text_escape(s ? s : "", s ? strlen(s) : 0,
                        TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  if (!e) {
    abort();
  }
  return e;
}

void mcpb_say(const char *fmt, ...) {
  char line[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  char *e = text_escape(line, strlen(line),
                        TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  fprintf(stderr, "mcphost: bundle: %s\n", e ? e : line);
  free(e);
}

/* Any object of this file: dladdr names the file it was loaded from. */
static const char anchor;

const mcpb_tools *mcpb_tools_get(mcpb_plugin *pl, char *err, size_t n) {
  if (pl->tools) {
    return pl->tools;
  }
  /* impl/mcpb-tools.so beside the directory that holds this plugin. */
  const mcpb_tools *t = mcpb_impl_open(&anchor, "mcpb-tools.so", MCPB_TOOLS_ID,
                                       MCPB_TOOLS_EXT, err, n);
  if (t && t->struct_size < sizeof(mcpb_tools)) {
    snprintf(err, n,
             "mcpb-tools.so is not a library of this build's bundle plugin");
    return NULL;
  }
  pl->tools = t; /* never closed, as the host never closes plugins */
  return t;
}

/* ---- answers ---- */

cJSON *mcpb_values(mcpb_plugin *pl, const char *name, const cJSON *manifest,
                   const cJSON *settings) {
  const cJSON *kept = cJSON_GetObjectItemCaseSensitive(settings, "userConfig");
  cJSON *values =
      cJSON_IsObject(kept) ? cJSON_Duplicate(kept, 1) : cJSON_CreateObject();
  const cJSON *sens = cJSON_GetObjectItemCaseSensitive(settings, "sensitive");
  const cJSON *options =
      cJSON_GetObjectItemCaseSensitive(manifest, "user_config");
  const cJSON *k;
  cJSON_ArrayForEach(k, sens) {
    if (!cJSON_IsString(k) || !pl->secrets ||
        !cJSON_GetObjectItemCaseSensitive(options, k->valuestring)) {
      continue;
    }
    char key[256];
    store_secret_key(name, k->valuestring, key, sizeof key);
    size_t len = 0;
    const char *v = pl->secrets->get(pl->host, key, &len, NULL);
    if (v) {
      cJSON *parsed = cJSON_ParseWithLength(v, len);
      if (parsed) {
        cJSON_DeleteItemFromObjectCaseSensitive(values, k->valuestring);
        cJSON_AddItemToObject(values, k->valuestring, parsed);
      }
    }
  }
  return values;
}

int mcpb_store_values(mcpb_plugin *pl, const char *name, const cJSON *manifest,
                      const cJSON *values, cJSON *settings, char *why,
                      size_t n) {
  const cJSON *options =
      cJSON_GetObjectItemCaseSensitive(manifest, "user_config");
  cJSON *plain = cJSON_CreateObject();
  cJSON *sens = cJSON_CreateArray();
  const cJSON *v;
  int rc = 0;
  cJSON_ArrayForEach(v, values) {
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(options, v->string);
    if (!opt) {
      continue;
    }
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "sensitive"))) {
      cJSON_AddItemToObject(plain, v->string, cJSON_Duplicate(v, 1));
      continue;
    }
    if (!pl->secrets) {
      snprintf(why, n, "the host offers no secrets store for \"%s\"",
               v->string);
      rc = -1;
      break;
    }
    char key[256];
    store_secret_key(name, v->string, key, sizeof key);
    char *text = cJSON_PrintUnformatted(v);
    mcph_error err;
    mcph_error_init(&err);
    int r = pl->secrets->set(pl->host, key, text, strlen(text), &err);
    free(text);
    if (r != MCPH_OK) {
      snprintf(why, n, "cannot store the value of \"%s\": %s", v->string,
               err.message);
      rc = -1;
      break;
    }
    cJSON_AddItemToArray(sens, cJSON_CreateString(v->string));
  }
  cJSON_DeleteItemFromObjectCaseSensitive(settings, "userConfig");
  cJSON_DeleteItemFromObjectCaseSensitive(settings, "sensitive");
  cJSON_AddItemToObject(settings, "userConfig", plain);
  cJSON_AddItemToObject(settings, "sensitive", sens);
  return rc;
}

/* ---- the server source ---- */

static int src_list(void *ctx, mcph_server_source_emit_fn emit, void *ud,
                    mcph_error *err) {
  mcpb_plugin *pl = ctx;
  store s;
  char why[600];
  if (store_open(&s, false, why, sizeof why) < 0) {
    return mcph_error_set(err, MCPH_EIO, "installed bundles: %s", why);
  }
  size_t count = 0;
  char **names = store_list(&s, &count);
  cJSON *doc = cJSON_CreateObject();
  /* Installed bundles: scope "bundle", named after their manifests. */
  cJSON_AddStringToObject(doc, "scope", "bundle");
  cJSON *servers = cJSON_AddObjectToObject(doc, "mcpServers");
  subst_dirs dirs;
  char dbuf[4 * 1024];
  subst_dirs_default(&dirs, dbuf, sizeof dbuf);
  for (size_t i = 0; i < count; i++) {
    cJSON *m = store_manifest(&s, names[i]);
    cJSON *st = store_settings(&s, names[i]);
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(st, "enabled");
    if (!m) {
      mcph_logf(pl->host, MCPH_LOG_WARN, PLUGIN_ID,
                "bundle %s: %s/%s/manifest.json cannot be read; skipped",
                names[i], s.root, names[i]);
    } else if (!cJSON_IsFalse(en)) {
      char dir[8192];
      snprintf(dir, sizeof dir, "%s/%s", s.root, names[i]);
      cJSON *values = mcpb_values(pl, names[i], m, st);
      cJSON *entry = subst_server(m, dir, values, &dirs, why, sizeof why);
      if (entry) {
        cJSON_AddItemToObject(servers, names[i], entry);
      } else {
        mcph_logf(pl->host, MCPH_LOG_WARN, PLUGIN_ID,
                  "bundle %s is not started: %s", names[i], why);
      }
      cJSON_Delete(values);
    }
    cJSON_Delete(st);
    cJSON_Delete(m);
  }
  char *text = cJSON_PrintUnformatted(doc);
  emit(ud, text, strlen(text));
  free(text);
  cJSON_Delete(doc);
  store_names_free(names, count);
  store_close(&s);
  return MCPH_OK;
}

static const mcph_server_source source = {
    .struct_size = sizeof(mcph_server_source),
    .description = PLUGIN_SOURCE,
    .list_servers = src_list,
};

/* ---- the command ---- */

static int c_start(void *ctx, mcph_run *run, int argc, const char *const *argv,
                   int json, mcph_error *err) {
  mcpb_plugin *pl = ctx;
  if (argc < 2) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "bundle: a subcommand is needed: install, list, "
                          "info, verify, configure, enable, disable, remove, "
                          "sign or pack");
  }
  if (strcmp(argv[1], "install") == 0) {
    return mcpb_cmd_install(pl, run, argc - 1, argv + 1, json);
  }
  return mcpb_cmd_manage(pl, run, argc - 1, argv + 1, json);
}

static void c_interrupt(void *ctx, mcph_run *run) {
  mcpb_plugin *pl = ctx;
  (void)run;
  mcpb_install_interrupt(pl);
}

static const mcph_command command_list[] = {{
    .struct_size = sizeof(mcph_command),
    .name = MCPB_COMMAND,
    .usage = "bundle install FILE|URL [--yes] [--config KEY=VALUE]... "
             "[--trust CA.pem] [--strict] [--insecure] | list [--json] | "
             "info NAME|FILE [--json] | verify FILE [--trust CA.pem] "
             "[--json] | configure NAME KEY=VALUE... | enable NAME | "
             "disable NAME | remove NAME | sign FILE --cert C --key K "
             "[--chain PEM]... | pack DIR [OUT]",
    .help = "install, verify, configure and manage MCPB bundles",
    .start = c_start,
    .interrupt = c_interrupt,
}};

static const mcph_commands commands = {
    .struct_size = sizeof(mcph_commands),
    .commands = command_list,
    .count = 1,
};

/* ---- entry ---- */

static int p_init(const mcph_host *host, void **ctx, mcph_error *err) {
  const mcph_host_servers *servers =
      host->get_service(host, MCPH_SERVICE_SERVERS);
  if (!servers || !MCPH_HAS(servers, mcph_host_servers, finish)) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "the host offers no " MCPH_SERVICE_SERVERS);
  }
  mcpb_plugin *pl = calloc(1, sizeof *pl);
  if (!pl) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  pl->host = host;
  pl->servers = servers;
  const mcph_host_ui *ui = host->get_service(host, MCPH_SERVICE_UI);
  if (ui && MCPH_HAS(ui, mcph_host_ui, progress)) {
    pl->ui = ui;
  }
  const mcph_host_secrets *sec = host->get_service(host, MCPH_SERVICE_SECRETS);
  if (sec && MCPH_HAS(sec, mcph_host_secrets, remove)) {
    pl->secrets = sec;
  }
  *ctx = pl;
  return MCPH_OK;
}

static const void *p_get_extension(void *ctx, const char *id) {
  (void)ctx;
  if (strcmp(id, MCPH_EXT_COMMAND) == 0) {
    return &commands;
  }
  if (strcmp(id, MCPH_EXT_SERVER_SOURCE) == 0) {
    return &source;
  }
  return NULL;
}

static void p_deinit(void *ctx) {
  mcpb_install_stop(ctx);
  free(ctx);
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
