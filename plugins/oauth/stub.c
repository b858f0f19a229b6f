/* The OAuth plugin's file in the plugin directory: its entry says what
 * it provides (the auth provider and its commands) and names
 * the implementation, which the host opens from its implementation
 * directory only when one of them is first needed (ABI 1.6 deferred
 * init), so that libcurl and OpenSSL are not mapped by runs that use
 * no remote server. Its global option, --oauth-browser, is declared
 * here too, so that parsing it does not load them either. */
#include <mcphost/mcphost.h>

#include "plugin_info.h"

static const char *const stub_commands[] = {PLUGIN_COMMANDS, NULL};
static const char *const stub_extensions[] = {MCPH_EXT_AUTH, MCPH_EXT_COMMAND,
                                              NULL};

static const mcph_option stub_option_list[] = {
    {OAUTH_BROWSER_OPTION, "MODE", OAUTH_BROWSER_HELP},
};
static const mcph_options stub_options = {
    .struct_size = sizeof(mcph_options),
    .options = stub_option_list,
    .count = 1,
};

static const mcph_provides stub_provides = {
    .struct_size = sizeof(mcph_provides),
    .commands = stub_commands,
    .extensions = stub_extensions,
    .implementation = "feature-oauth.so",
    .options = &stub_options,
};

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = PLUGIN_NAME,
    .version = PLUGIN_VERSION,
    .description = PLUGIN_DESCRIPTION,
    .init = NULL,
    .get_extension = NULL,
    .deinit = NULL,
    .provides = &stub_provides,
};
