/*
 * mcphost plugin ABI — commands of the command line, and the servers
 * service they use (ABI 1.5).
 *
 * A plugin adds `mcphost NAME ...` commands by offering the extension
 * "mcph.command/1". The host lists them in --help, parses the global
 * options before the command name as usual, loads the configuration, and
 * hands the rest of the command line to start(). The command runs on the
 * loop, using the host services (get_service), and ends with the service
 * call finish(run, exit_code). Ctrl-C calls interrupt(); a command that
 * has not finished soon after is ended by the host with exit code 130.
 *
 * The servers service "mcph.host.servers/1" lets any plugin (a command,
 * a feature) start and keep connections to the configured servers. The
 * connections are the host's: every feature sees them through on_server,
 * and the host closes them at exit.
 *
 * Threads: everything on the loop thread.
 */
#ifndef MCPHOST_COMMAND_H
#define MCPHOST_COMMAND_H

#include "abi.h"
#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_EXT_COMMAND "mcph.command/1"
#define MCPH_SERVICE_SERVERS "mcph.host.servers/1"

typedef struct mcph_run mcph_run; /* one running command (the host's) */

/* Each element of the array starts with its size, so the struct can grow
 * like every other: all elements of one array have the same size. */
typedef struct mcph_command {
  uint32_t struct_size; /* sizeof(mcph_command) */
  const char *name;  /* the command word, e.g. "channels" */
  const char *usage; /* e.g. "channels listen [--server NAME]... [--json]" */
  const char *help;  /* one line for --help */
  /* [loop] Starts the command. argv[0] is the command's name; the strings live
   * until the command finished. Return MCPH_OK when it runs (it ends
   * later, or even now, with finish()); or a negative MCPH_E* code with
   * `err` filled, and then the host prints the message and exits with
   * 2 for MCPH_EINVAL (a usage error), 6 for MCPH_ENOTFOUND, 8 for
   * MCPH_EDENIED, 7 for MCPH_EAUTH, 5 for MCPH_ETIMEDOUT, else 3. `global_json`
   * is 1 when --json came before the command. */
  int (*start)(void *plugin_ctx, mcph_run *run, int argc,
               const char *const *argv, int global_json, mcph_error *err);
  /* [loop] The user interrupted: finish soon. May be NULL. */
  void (*interrupt)(void *plugin_ctx, mcph_run *run);
} mcph_command;

/* The extension a plugin returns for MCPH_EXT_COMMAND. */
typedef struct mcph_commands {
  uint32_t struct_size; /* sizeof(mcph_commands) */
  const mcph_command *commands;
  size_t count;
} mcph_commands;

/* connect() flags. */
enum mcph_connect_flags {
  /* Reconnect when the connection is lost, as the connection manager does
   * for long-lived processes (up to 5 attempts, backoff 1 s to 30 s). */
  MCPH_CONNECT_KEEP = 1u << 0
};

/* The host service: get_service(MCPH_SERVICE_SERVERS). Strings returned
 * follow the one rule of abi.h: the host's, valid until control returns
 * to the loop (a reload within the same turn does not pull them away);
 * copy what you keep. (Since 1.6; before, they lived only until the next
 * call of the same function, of connect() or of a reload.) */
typedef struct mcph_host_servers {
  uint32_t struct_size; /* sizeof(mcph_host_servers) as the host built it */
  /* [loop] The configured servers, in priority order: names 0..count-1. */
  size_t (*count)(const mcph_host *host);
  const char *(*name)(const mcph_host *host, size_t index);
  /* [loop] Connects the configured server `name`, or keeps the connection that
   * is already there. Every feature's on_server hears CONNECTED when it
   * is ready, and FAILED when the attempt failed for good. Either may
   * come before connect returns (a server that cannot even start fails at
   * once): a caller must be ready for its own on_server to run inside
   * this call. Returns MCPH_OK; MCPH_ENOTFOUND (no such server) or
   * MCPH_EDENIED (pending approval, rejected, denied or disabled), with
   * the reason in `err` (which may be NULL). */
  int (*connect)(const mcph_host *host, const char *name, unsigned flags,
                 mcph_error *err);
  /* [loop] A server's state as `mcphost servers` shows it ("connected",
   * "connecting", "failed", "needs-auth", "not connected", or the
   * configuration's "pending", "denied", ...), and in *why its error or
   * reason (NULL when none). NULL for an unknown name. */
  const char *(*state)(const mcph_host *host, const char *name,
                       const char **why);
  /* [loop] A key of the enterprise (managed) settings as JSON text, e.g.
   * policy(host, "channelsEnabled") -> "false"; NULL when not set. */
  const char *(*policy)(const mcph_host *host, const char *key);
  /* [loop] Ends a command this plugin started, with the process exit code (see
   * mcphost --help). Once per run; `run` is dead afterwards. */
  void (*finish)(const mcph_host *host, mcph_run *run, int exit_code);
} mcph_host_servers;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_COMMAND_H */
