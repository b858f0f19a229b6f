/*
 * The file in the plugin directory for a plugin whose code is loaded on
 * first use (ABI 1.6 host-driven deferred init): the http, sse and ws
 * transports, the OAuth plugin, the claude.ai, IDE and bundle plugins
 * (server sources, ABI 1.7) and the elicitation, sampling and channels
 * features.
 *
 * The http and sse transports link libcurl, which maps some thirty
 * libraries and initializes OpenSSL: about 8 MB and 6-12 ms that every
 * command paid, even one that talks to no HTTP server
 * (bench/results/2026-11-30-findings.md, A). So this stub holds no code
 * at all: its entry says what the plugin provides (transport types,
 * commands, extensions, global options) and names the implementation
 * file, and the host opens the implementation from its implementation
 * directory (lib/mcphost/impl, beside lib/mcphost/plugins) only when one
 * of them is first needed (host/core/plugin_impl.c).
 *
 * Compiled once per plugin (mcphost_add_plugin_stub in
 * cmake/McphostPlugin.cmake), with:
 *   plugin_info.h   the plugin's id, name, version and description
 *                   (PLUGIN_*), shared with its implementation, and what
 *                   it provides:
 *     PLUGIN_TYPES, PLUGIN_TYPE_INFO  the transport types served and
 *                   what each is (a transport);
 *     PLUGIN_COMMANDS   the commands it adds;
 *     PLUGIN_EXTENSIONS the extensions it offers (a transport's
 *                   MCPH_EXT_TRANSPORT when it names none);
 *     PLUGIN_OPTIONS    the global options it declares (mcph_option
 *                   elements), parsed without loading it;
 *     PLUGIN_REQUESTS, PLUGIN_NOTIFICATIONS  the server requests and
 *                   notifications a feature handles;
 *     PLUGIN_SOURCE     a server source's description (ABI 1.7): the
 *                   stub's sources then define stub_has_servers(), asked
 *                   before the plugin is opened whether it has servers;
 *     PLUGIN_STUB_CAPABILITIES  a feature whose stub's sources define
 *                   stub_capabilities() (ABI 1.7): the client
 *                   capabilities each handshake declares, without the
 *                   implementation;
 *   LAZY_IMPL_FILE  the implementation's file name.
 */
#include <mcphost/mcphost.h>

#include "plugin_info.h"
#include "plugin_stub.h"

#ifndef LAZY_IMPL_FILE
#error "LAZY_IMPL_FILE must name the implementation's file"
#endif
#ifndef PLUGIN_EXTENSIONS
#define PLUGIN_EXTENSIONS MCPH_EXT_TRANSPORT
#endif

#ifdef PLUGIN_TYPES
static const char *const stub_types[] = {PLUGIN_TYPES, NULL};
static const mcph_transport_type_info stub_info[] = {PLUGIN_TYPE_INFO,
                                                     {0, NULL, 0}};
#endif
#ifdef PLUGIN_COMMANDS
static const char *const stub_commands[] = {PLUGIN_COMMANDS, NULL};
#endif
static const char *const stub_extensions[] = {PLUGIN_EXTENSIONS, NULL};
#ifdef PLUGIN_OPTIONS
static const mcph_option stub_option_list[] = {PLUGIN_OPTIONS};
static const mcph_options stub_options = {
    .struct_size = sizeof(mcph_options),
    .options = stub_option_list,
    .count = sizeof stub_option_list / sizeof stub_option_list[0],
    .option_size = sizeof(mcph_option),
};
#endif

#ifdef PLUGIN_REQUESTS
static const char *const stub_requests[] = {PLUGIN_REQUESTS, NULL};
#endif
#ifdef PLUGIN_NOTIFICATIONS
static const char *const stub_notifications[] = {PLUGIN_NOTIFICATIONS, NULL};
#endif
static const mcph_provides stub_provides = {
    .struct_size = sizeof(mcph_provides),
#ifdef PLUGIN_TYPES
    .transport_types = stub_types,
    .transport_info = stub_info,
#endif
#ifdef PLUGIN_COMMANDS
    .commands = stub_commands,
#endif
    .extensions = stub_extensions,
    .implementation = LAZY_IMPL_FILE,
#ifdef PLUGIN_OPTIONS
    .options = &stub_options,
#endif
#ifdef PLUGIN_REQUESTS
    .requests = stub_requests,
#endif
#ifdef PLUGIN_NOTIFICATIONS
    .notifications = stub_notifications,
#endif
#ifdef PLUGIN_SOURCE
    .has_servers = stub_has_servers,
    .source_description = PLUGIN_SOURCE,
#endif
#ifdef PLUGIN_STUB_CAPABILITIES
    .capabilities = stub_capabilities,
#endif
};

/* The implementation's id, name, version and description, so that
 * `mcphost plugins` shows the plugin as it is before it is loaded. */
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
