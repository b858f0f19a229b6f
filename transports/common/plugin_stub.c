/*
 * The file in the plugin directory for a transport whose code is loaded
 * on first use (ABI 1.6 host-driven deferred init).
 *
 * The http and sse transports link libcurl, which maps some thirty
 * libraries and initializes OpenSSL: about 8 MB and 6-12 ms that every
 * command paid, even one that talks to no HTTP server
 * (bench/results/2026-11-30-findings.md, A). So this stub holds no code
 * at all: its entry says what the transport provides (its types, the
 * transport extension) and names the implementation file, and the host
 * opens the implementation from its implementation directory
 * (lib/mcphost/impl, beside lib/mcphost/plugins) only when the first
 * transport of those types is created (host/core/plugin_impl.c).
 *
 * Compiled once per transport (mcphost_add_lazy_transport in
 * cmake/McphostPlugin.cmake), with:
 *   plugin_info.h   the transport's id, name, version, description and
 *                   types (PLUGIN_*), shared with its implementation;
 *   LAZY_IMPL_FILE  the implementation's file name.
 */
#include <mcphost/mcphost.h>

#include "plugin_info.h"

#ifndef LAZY_IMPL_FILE
#error "LAZY_IMPL_FILE must name the implementation's file"
#endif

static const char *const stub_types[] = {PLUGIN_TYPES, NULL};
static const char *const stub_extensions[] = {MCPH_EXT_TRANSPORT, NULL};
static const mcph_transport_type_info stub_info[] = {PLUGIN_TYPE_INFO,
                                                     {0, NULL, 0}};

static const mcph_provides stub_provides = {
    .struct_size = sizeof(mcph_provides),
    .transport_types = stub_types,
    .extensions = stub_extensions,
    .implementation = LAZY_IMPL_FILE,
    .transport_info = stub_info,
};

/* The implementation's id, name, version and description, so that
 * `mcphost plugins` shows the transport as it is before it is loaded. */
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
