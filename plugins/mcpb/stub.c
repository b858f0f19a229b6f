/* The bundle plugin's file in the plugin directory: its entry says what
 * it provides (the bundle command and installed bundles as servers) and
 * names the implementation, which the host opens from its
 * implementation directory only when the command runs or a bundle is
 * installed (ABI 1.7 has_servers): a run with no bundle maps none of
 * the plugin's code. */
#include <errno.h>
#include <sys/stat.h>

#include <mcphost/mcphost.h>

#include "plugin_info.h"
#include "store_root.h"

/* No bundles directory, no bundle to list; anything else (an empty or
 * unreadable directory too) is the implementation's to say. */
static int stub_has_servers(const mcph_host *host) {
  (void)host;
  char root[4096];
  struct stat st;
  return store_root(root, sizeof root) < 0 || stat(root, &st) == 0 ||
         errno != ENOENT;
}

static const char *const stub_commands[] = {MCPB_COMMAND, NULL};
static const char *const stub_extensions[] = {MCPH_EXT_COMMAND,
                                              MCPH_EXT_SERVER_SOURCE, NULL};

static const mcph_provides stub_provides = {
    .struct_size = sizeof(mcph_provides),
    .commands = stub_commands,
    .extensions = stub_extensions,
    .implementation = "feature-mcpb.so",
    .has_servers = stub_has_servers,
    .source_description = MCPB_SOURCE,
};

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = MCPB_ID,
    .name = MCPB_NAME,
    .version = MCPB_VERSION,
    .description = MCPB_DESCRIPTION,
    .init = NULL,
    .get_extension = NULL,
    .deinit = NULL,
    .provides = &stub_provides,
};
