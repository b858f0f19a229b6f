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

/* A stub whose code reads more than its own options defines what else:
 * "env:NAME" for an environment variable, "path:ALT|ALT" for a file
 * ("$VAR/rest" when VAR is an absolute path, else the next alternative;
 * "~/rest" under an absolute HOME), NULL-terminated. Its note
 * (common/plugin_note.h) records them with its code's answers when none
 * is there; the host then answers from the note and opens the stub only
 * when one is (or an option of it has a value). A read left out here is
 * an answer the host gives wrongly: name every one. */
extern const char *const stub_reads[];

#endif
