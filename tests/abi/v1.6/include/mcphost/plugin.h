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
 *     get_extension's answer decides, for any id;
 *   - commands: before init a command word not listed does not wake the
 *     plugin; once initialized its command extension is searched;
 *   - transport_info: the list's until init, the factory's type_info
 *     after (when the factory has one);
 *   - requests, notifications: for people (mcphost plugins); routing
 *     always uses the feature's own lists, read after init;
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
