/*
 * mcphost plugin ABI — the configuration service, "mcph.host.config/1"
 * (ABI 1.6).
 *
 * A plugin that changed where servers come from (installed a bundle,
 * edited a settings file, learnt of new servers in its own server
 * source) asks the host to read the server sources again.
 *
 * Threads: everything [loop].
 */
#ifndef MCPHOST_CONFIGURATION_H
#define MCPHOST_CONFIGURATION_H

#include "abi.h"
#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_SERVICE_CONFIG "mcph.host.config/1"

typedef struct mcph_host_config {
  uint32_t struct_size; /* sizeof(mcph_host_config) as the host built it */

  /* [loop] Reads every server source again now (the settings and
   * .mcp.json files of every scope, --mcp-config and --server, every
   * plugin's server source, the enterprise policy), with the same checks
   * and messages as at start-up; a bad entry is reported as then and
   * does not make reload fail. From then on "mcph.host.servers/1" lists
   * the servers read, and every string the host returned about the old
   * configuration is stale (abi.h: it was valid until control returned
   * to the loop anyway). Returns MCPH_OK; with the reason in `err` (may
   * be NULL):
   *   MCPH_EINVAL   called from inside a server source's list or
   *                 list_servers (server_source.h), which runs while the
   *                 configuration is being read: it is not read again
   *                 from there;
   *   MCPH_ENOTSUP  before the configuration was first loaded, or while
   *                 connections made with the current one are open, or
   *                 the host's MCP client keeps state per server of it
   *                 (the configuration is kept for them: try again when
   *                 they ended, or read it at start-up instead). */
  int (*reload)(const mcph_host *host, mcph_error *err);
} mcph_host_config;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_CONFIGURATION_H */
