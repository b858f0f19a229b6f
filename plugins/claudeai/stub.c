/* The claude.ai plugin's file in the plugin directory: its entry says
 * what it provides (the connectors as a server source, the
 * claudeai-proxy transport, its auth provider) and names the
 * implementation, which the host opens from its implementation
 * directory only when one of them is needed: a listing while the
 * connectors may be wanted (has_servers, ABI 1.7: the opt-in variable or
 * setting), a claudeai-proxy server, a remote server's authorization. */
#include <stdlib.h>

#include <mcphost/mcphost.h>

#include "optin.h"
#include "plugin_info.h"

static int stub_has_servers(const mcph_host *host) {
  (void)host;
  const char *h = getenv("HOME");
  return optin_maybe(h && h[0] == '/' ? h : NULL);
}

static const char *const stub_types[] = {"claudeai-proxy", NULL};
static const mcph_transport_type_info stub_info[] = {
    CLAUDEAI_TYPE_INFO,
    {sizeof(mcph_transport_type_info), NULL, 0},
};
static const char *const stub_extensions[] = {
    MCPH_EXT_SERVER_SOURCE, MCPH_EXT_TRANSPORT, MCPH_EXT_AUTH, NULL};

static const mcph_provides stub_provides = {
    .struct_size = sizeof(mcph_provides),
    .transport_types = stub_types,
    .extensions = stub_extensions,
    .implementation = "claudeai.so",
    .transport_info = stub_info,
    .has_servers = stub_has_servers,
    .source_description = CLAUDEAI_SOURCE,
};

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = CLAUDEAI_ID,
    .name = CLAUDEAI_NAME,
    .version = CLAUDEAI_VERSION,
    .description = CLAUDEAI_DESCRIPTION,
    .init = NULL,
    .get_extension = NULL,
    .deinit = NULL,
    .provides = &stub_provides,
};
