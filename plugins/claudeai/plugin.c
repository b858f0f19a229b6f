/*
 * The claude.ai connectors (mcphost.claudeai): the MCP servers a person
 * configured on claude.ai, reached through Anthropic's MCP proxy with the
 * claude.ai login of Claude Code, as Claude Code brings them in. Opt-in
 * (optin.h); relies on endpoints Anthropic does not document
 * (docs/claudeai.md).
 *
 * Three parts, all on the loop thread:
 *   - a server source (mcph.server-source/1): the connectors, listed once
 *     per run (listing.h) and then given from memory, named
 *     "claude.ai <display_name>" under the scope "claudeai";
 *   - the transport type "claudeai-proxy" over http (proxy.h);
 *   - an auth provider (mcph.auth/1) giving those servers the claude.ai
 *     token, read-only from Claude Code's credentials file (creds.h).
 * A failure to list is one line with -v and no connectors, never an
 * error: the other servers are not concerned.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <mcphost/mcphost.h>

#include "creds.h"
#include "listing.h"
#include "optin.h"
#include "plugin_info.h"
#include "proxy.h"

typedef struct plugin_ctx {
  const mcph_host *host;
  creds creds;
  char session_id[40];
  proxy_shared shared;
  bool listed;    /* the listing was made (or found not wanted) this run */
  char *document; /* its document, or NULL: no connectors */
} plugin_ctx;

static char *home_dir(void) {
  const char *h = getenv("HOME");
  return h && h[0] == '/' ? strdup(h) : NULL;
}

/* A random UUID (version 4) for X-Mcp-Client-Session-Id. */
static void new_session_id(char out[40]) {
  unsigned char b[16] = {0};
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n <= 0) {
      break;
    }
    got += (size_t)n;
  }
  b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
  b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
  snprintf(out, 40,
           "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x"
           "%02x",
           b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
           b[11], b[12], b[13], b[14], b[15]);
}

proxy_shared *proxy_shared_of(void *ctx) {
  return &((plugin_ctx *)ctx)->shared;
}

/* ---- the server source ---- */

static void list_once(plugin_ctx *c) {
  if (c->listed) {
    return;
  }
  c->listed = true;
  char *home = home_dir();
  char why[1024];
  if (!optin_enabled(home, why, sizeof why)) {
    if (why[0]) {
      mcph_logf(c->host, MCPH_LOG_INFO, NULL, "%s", why);
    }
    free(home);
    return;
  }
  free(home);
  c->document = listing_fetch(&c->creds, why, sizeof why);
  if (!c->document) {
    mcph_logf(c->host, MCPH_LOG_INFO, NULL, "no claude.ai connectors: %s", why);
  }
}

static int list_servers(void *ctx, mcph_server_source_emit_fn emit,
                        void *emit_ud, mcph_error *err) {
  (void)err;
  plugin_ctx *c = ctx;
  list_once(c);
  if (c->document) {
    emit(emit_ud, c->document, strlen(c->document));
  }
  return MCPH_OK;
}

static const mcph_server_source source = {
    .struct_size = sizeof source,
    .description = PLUGIN_SOURCE,
    .list_servers = list_servers,
};

/* ---- the auth provider ---- */

static const char *authorization(void *ctx, const char *server,
                                 const char *config_json) {
  (void)server;
  plugin_ctx *c = ctx;
  cJSON *cfg = cJSON_Parse(config_json);
  const char *type =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cfg, "type"));
  bool ours = type && strcmp(type, "claudeai-proxy") == 0;
  cJSON_Delete(cfg);
  if (!ours) {
    return NULL;
  }
  creds_refresh(&c->creds);
  return c->creds.bearer;
}

/* The 401 rule is the transport's (proxy.h): what reaches the host has
 * already been refused with the token on disk. */
static int challenge(void *ctx, const char *server,
                     const mcph_auth_challenge *ch) {
  (void)ctx;
  (void)server;
  (void)ch;
  return MCPH_ENOTSUP;
}

static const mcph_auth_provider provider = {
    .struct_size = sizeof provider,
    .authorization = authorization,
    .challenge = challenge,
};

/* ---- the entry ---- */

static int init(const mcph_host *host, void **out, mcph_error *err) {
  plugin_ctx *c = calloc(1, sizeof *c);
  if (!c) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  c->host = host;
  char *home = home_dir();
  creds_init(&c->creds, home);
  free(home);
  new_session_id(c->session_id);
  c->shared = (proxy_shared){
      .host = host, .creds = &c->creds, .session_id = c->session_id};
  *out = c;
  return MCPH_OK;
}

static const void *get_extension(void *ctx, const char *id) {
  (void)ctx;
  if (strcmp(id, MCPH_EXT_SERVER_SOURCE) == 0) {
    return &source;
  }
  if (strcmp(id, MCPH_EXT_TRANSPORT) == 0) {
    return &proxy_factory;
  }
  if (strcmp(id, MCPH_EXT_AUTH) == 0) {
    return &provider;
  }
  return NULL;
}

static void deinit(void *ctx) {
  plugin_ctx *c = ctx;
  creds_free(&c->creds);
  free(c->document);
  free(c);
}

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = PLUGIN_NAME,
    .version = PLUGIN_VERSION,
    .description = PLUGIN_DESCRIPTION,
    .init = init,
    .get_extension = get_extension,
    .deinit = deinit,
};
