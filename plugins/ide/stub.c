/* The IDE plugin's file in the plugin directory: its entry says what it
 * provides (the ws-ide and sse-ide transports, the IDE as a server
 * source, `mcphost ide`, --ide) and names the implementation, which the
 * host opens from its implementation directory only when one of them is
 * needed: a transport of its types, the command, or a listing while the
 * session asks for the IDE (has_servers, ABI 1.7). Its feature (the
 * ide_connected notification, the IDE's own notifications) serves only
 * the plugin's own servers, so it is not listed: it joins once the
 * plugin runs. */
#include <mcphost/mcphost.h>

#include "ide.h"

static int stub_has_servers(const mcph_host *host) {
  const mcph_host_features *svc =
      host->get_service(host, MCPH_SERVICE_FEATURES);
  bool explicit_ask;
  return ide_wanted(host,
                    MCPH_HAS(svc, mcph_host_features, option) ? svc : NULL,
                    &explicit_ask);
}

static const char *const stub_types[] = {IDE_TYPES, NULL};
static const mcph_transport_type_info stub_info[] = {
    IDE_TYPE_INFO,
    {sizeof(mcph_transport_type_info), NULL, 0},
};
static const char *const stub_commands[] = {IDE_COMMAND, NULL};
static const char *const stub_extensions[] = {
    MCPH_EXT_TRANSPORT, MCPH_EXT_SERVER_SOURCE, MCPH_EXT_COMMAND, NULL};
static const mcph_option stub_option_list[] = {
    {IDE_OPTION, NULL, IDE_OPTION_HELP},
};
static const mcph_options stub_options = {
    .struct_size = sizeof(mcph_options),
    .options = stub_option_list,
    .count = 1,
};

static const mcph_provides stub_provides = {
    .struct_size = sizeof(mcph_provides),
    .transport_types = stub_types,
    .commands = stub_commands,
    .extensions = stub_extensions,
    .implementation = "ide.so",
    .transport_info = stub_info,
    .options = &stub_options,
    .has_servers = stub_has_servers,
    .source_description = IDE_SOURCE,
};

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = IDE_PLUGIN_ID,
    .name = IDE_PLUGIN_NAME,
    .version = IDE_PLUGIN_VERSION,
    .description = IDE_PLUGIN_DESCRIPTION,
    .init = NULL,
    .get_extension = NULL,
    .deinit = NULL,
    .provides = &stub_provides,
};
