/* What a stub's own sources define for plugin_stub.c, when its
 * plugin_info.h asks for them (ABI 1.7, mcph_provides in plugin.h). */
#ifndef MCPH_PLUGIN_STUB_H
#define MCPH_PLUGIN_STUB_H

#include <mcphost/mcphost.h>

/* PLUGIN_SOURCE: whether the server source has servers to list now
 * (mcph_provides.has_servers); the implementation is opened only if so. */
int stub_has_servers(const mcph_host *host);

/* PLUGIN_STUB_CAPABILITIES: the client capabilities the feature declares
 * (mcph_provides.capabilities), *init_now set when the implementation
 * must be opened at once (to warn of an option value it alone knows). */
const char *stub_capabilities(const mcph_host *host, int *init_now);

#endif
