/*
 * mcphost plugin ABI — the plugin entry.
 *
 * A plugin is a shared object that exports exactly one symbol, the data
 * object `mcph_plugin_entry` of type `mcph_entry` (define it with
 * MCPH_PLUGIN_ENTRY). The host
 * reads `struct_size` and `abi_major` first and calls nothing in a plugin
 * whose major differs from its own.
 *
 *   MCPH_PLUGIN_ENTRY = {
 *     .struct_size = sizeof(mcph_entry),
 *     .abi_major = MCPH_ABI_MAJOR, .abi_minor = MCPH_ABI_MINOR,
 *     .id = "com.example.mytransport", .name = "my transport",
 *     .version = "1.0.0", .description = "...",
 *     .init = my_init, .get_extension = my_get_extension,
 *     .deinit = my_deinit,
 *     .provides = &my_provides,   (1.6, optional: deferred init)
 *   };
 *
 * Each plugin gets its own `mcph_host` table (1.6): the host knows which
 * plugin calls it, and attributes logs, options, secrets and commands to
 * it. A plugin must use the table it was given, never another plugin's.
 */
#ifndef MCPHOST_PLUGIN_H
#define MCPHOST_PLUGIN_H

#include "abi.h"
#include "host.h"
#include "transport.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mcph_options; /* feature.h */

/* The name of the exported entry symbol. */
#define MCPH_ENTRY_SYMBOL "mcph_plugin_entry"

/* What a plugin offers, known without running it (1.6). With it, the
 * host defers the plugin's init until it needs one of these: a transport
 * of a listed type is created, a listed extension is asked for (a feature
 * before the first connection's handshake, a command when its name is
 * run or listed in --help, options when the command line is parsed).
 * Every list is static and NULL-terminated, or NULL when empty.
 *
 * Precedence, when the list and the running plugin differ (they should
 * not: keep them the same):
 *   - transport types: the list's are bound at load, and only they; the
 *     factory's `types` are not read for a plugin with a provides list
 *     (a type missing from the list is never routed to it);
 *   - extensions: before init the list alone decides (an id not listed
 *     is never asked for, and never wakes the plugin); once initialized,
 *     get_extension's answer decides, for any id (a feature left out of
 *     the list, because it only serves the plugin's own servers, joins
 *     the connections made after the plugin is initialized for its
 *     transport, server source or command; 1.7 hosts);
 *   - server source: listed, the plugin is initialized for each listing
 *     unless `has_servers` (1.7) says it has none;
 *   - commands: before init a command word not listed does not wake the
 *     plugin; once initialized its command extension is searched;
 *   - transport_info: the list's until init, the factory's type_info
 *     after (when the factory has one);
 *   - requests, notifications: for people (mcphost plugins), and since
 *     1.7, for a plugin asleep through `capabilities`, what wakes it;
 *     routing always uses the feature's own lists, read after init;
 *   - options: when the list has them (`options`, below), they alone
 *     are the plugin's global options, before and after init, and the
 *     extension MCPH_EXT_OPTIONS is never asked for. */
typedef struct mcph_provides {
  uint32_t struct_size; /* sizeof(mcph_provides) */
  const char *const *transport_types; /* as mcph_transport_factory.types */
  const char *const *requests;        /* as mcph_feature.requests */
  const char *const *notifications;   /* as mcph_feature.notifications */
  const char *const *commands;        /* command words (mcph.command/1) */
  /* Every extension id get_extension answers, e.g. MCPH_EXT_TRANSPORT.
   * Before init the host asks for no other (see Precedence above). */
  const char *const *extensions;
  /* Optional: the file name of the plugin's code in the host's
   * implementation directory ("impl" beside the plugin directory, e.g.
   * lib/mcphost/impl), or NULL. When set, the file in the plugin
   * directory is a stub (its init and get_extension may be NULL): the
   * host opens the implementation only when the plugin is first needed,
   * so the libraries it links (libcurl, OpenSSL) are not mapped before;
   * checks it as any plugin (its entry must have the same id and ABI
   * major) and calls its init, get_extension and deinit instead. */
  const char *implementation;
  /* Optional: per-type information for transport_types, as the
   * factory's type_info (transport.h). */
  const mcph_transport_type_info *transport_info;
  /* Optional (ABI 1.6, appended): the plugin's global command-line
   * options (the table MCPH_EXT_OPTIONS would give, feature.h), or NULL.
   * The host adds them to every command's options and to --help without
   * initializing the plugin; a value given on the command line is kept
   * and read by the plugin, once initialized, with the option call of
   * "mcph.host.features/1". The table is static. */
  const struct mcph_options *options;

  /* ---- ABI 1.7 ---- */
  /* Optional, for a plugin whose extensions list MCPH_EXT_SERVER_SOURCE:
   * [loop] asked, while the plugin is not initialized yet, each time the
   * host would list its servers (whenever it reads its configuration).
   * Return 0 when the plugin surely has no server to list now: the host
   * then lists none for it and leaves it uninitialized (a stub's
   * implementation stays unopened). Nonzero: the host initializes it and
   * asks its server source as usual, which has the last word. So a wrong
   * nonzero costs only the load; a wrong 0 loses servers: answer from
   * what is cheap and certain (an environment variable, an option, a
   * file's existence), and nonzero when unsure. `host` is the plugin's
   * own table (the host's services, and the options its provides list
   * declares, work before init). NULL: the plugin is initialized for
   * every listing. Never called once the plugin is initialized. */
  int (*has_servers)(const mcph_host *host);
  /* Optional (1.7): the server source's description (as
   * mcph_server_source.description), so that `mcphost plugins` shows it
   * without initializing the plugin; NULL: the plugin is initialized to
   * ask its source. */
  const char *source_description;

  /* Optional (1.7), for a plugin whose extensions list MCPH_EXT_FEATURE:
   * [loop] asked at each connection's handshake while the plugin is not
   * initialized, instead of initializing it. Return the capabilities the
   * feature adds to this handshake (as mcph_feature.capabilities: JSON
   * object text, static or valid until the next call), or NULL for none,
   * and leave *init_now 0: the plugin stays asleep, gets no on_server
   * event, and is initialized when a server sends a request or a
   * notification its `requests` or `notifications` list names (then
   * routed to it as usual), or a server is described (`describe`). Once
   * initialized, it first gets MCPH_SERVER_CONNECTED for each server
   * connected meanwhile (and not gone since), in the order they
   * connected. Set *init_now to 1 when the plugin must run from this
   * handshake on (it must act at each connection, or has something to
   * say about its options): the host initializes it and asks its
   * feature instead. `host` is the plugin's own table (its
   * declared options can be read). NULL: the plugin is initialized
   * before the first handshake. */
  const char *(*capabilities)(const mcph_host *host, int *init_now);
} mcph_provides;

typedef struct mcph_entry {
  uint32_t struct_size; /* sizeof(mcph_entry) */
  uint32_t abi_major;   /* MCPH_ABI_MAJOR the plugin was built with */
  uint32_t abi_minor;   /* MCPH_ABI_MINOR the plugin was built with */

  /* Static strings, never freed. `id` is unique and stable, e.g.
   * "mcphost.transport.stdio"; the others are for people. */
  const char *id;
  const char *name;
  const char *version;
  const char *description;

  /* [loop] Called once, after the ABI check (for a plugin with
   * `provides`, when it is first needed). `host` is this plugin's own
   * table and stays valid
   * until deinit returns. The plugin may store its own state in
   * *plugin_ctx; the host passes it back to every call below. Return 0, or
   * a negative MCPH_E* code with `err` filled: the host then refuses the
   * plugin, reports the message, and never calls it again. */
  int (*init)(const mcph_host *host, void **plugin_ctx, mcph_error *err);

  /* [loop] Returns the extension with the given id and revision
   * (e.g. MCPH_EXT_TRANSPORT) or NULL. The returned table is owned by the
   * plugin and must stay valid until deinit. */
  const void *(*get_extension)(void *plugin_ctx, const char *ext_id);

  /* [loop] Called once at host shutdown, after every object the
   * plugin created was destroyed; never for a deferred plugin that was
   * never initialized. May be NULL. The host never dlclose()s a
   * plugin, so static data and threads may outlive deinit. */
  void (*deinit)(void *plugin_ctx);

  /* ---- ABI 1.6 ---- */
  /* What the plugin offers, for deferred init; NULL: init at start-up. */
  const mcph_provides *provides;
} mcph_entry;

/* Defines the plugin's one exported symbol:
 *   MCPH_PLUGIN_ENTRY = { ... }; */
#define MCPH_PLUGIN_ENTRY                                                      \
  MCPH_EXTERN_C MCPH_EXPORT const mcph_entry mcph_plugin_entry;                \
  MCPH_EXTERN_C MCPH_EXPORT const mcph_entry mcph_plugin_entry

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_PLUGIN_H */
