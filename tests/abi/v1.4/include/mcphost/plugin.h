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
 *   };
 */
#ifndef MCPHOST_PLUGIN_H
#define MCPHOST_PLUGIN_H

#include "abi.h"
#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The name of the exported entry symbol. */
#define MCPH_ENTRY_SYMBOL "mcph_plugin_entry"

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

  /* Loop thread. Called once, after the ABI check. `host` stays valid
   * until deinit returns. The plugin may store its own state in
   * *plugin_ctx; the host passes it back to every call below. Return 0, or
   * a negative MCPH_E* code with `err` filled: the host then refuses the
   * plugin, reports the message, and never calls it again. */
  int (*init)(const mcph_host *host, void **plugin_ctx, mcph_error *err);

  /* Loop thread. Returns the extension with the given id and revision
   * (e.g. MCPH_EXT_TRANSPORT) or NULL. The returned table is owned by the
   * plugin and must stay valid until deinit. */
  const void *(*get_extension)(void *plugin_ctx, const char *ext_id);

  /* Loop thread. Called once at host shutdown, after every object the
   * plugin created was destroyed. May be NULL. The host never dlclose()s a
   * plugin, so static data and threads may outlive deinit. */
  void (*deinit)(void *plugin_ctx);
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
