/* The plugin loader and registry: finds plugin files along the search
 * path, checks each one's ABI before calling it, initializes it, and maps
 * the transport types they serve to the first plugin found for each. A
 * plugin that fails to load is recorded with its reason and never stops
 * the host. */
#ifndef MCPHOST_PLUGINS_H
#define MCPHOST_PLUGINS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <mcphost/mcphost.h>

typedef struct plugin {
  char *path;        /* the file */
  bool loaded;       /* initialized and usable */
  char *error;       /* why it was refused (loaded == false) */
  char *id, *name, *version, *description; /* copies; NULL if unknown */
  unsigned abi_major, abi_minor;
  void *ctx;         /* the plugin's own state from init */
  const mcph_entry *entry;
  const mcph_transport_factory *transport; /* NULL: serves no transport */
} plugin;

/* One transport type, and who serves it. */
typedef struct type_binding {
  char *type;
  plugin *winner;     /* first in search order */
  plugin **shadowed;  /* later plugins offering the same type */
  size_t nshadowed;
} type_binding;

typedef struct registry {
  plugin **plugins; /* in search order */
  size_t nplugins;
  type_binding *types;
  size_t ntypes;
  char **dirs;      /* the search path actually used, in order */
  size_t ndirs;
  /* dirs[builtin - 1] is the built-in directory (0: none), which may
   * also be owned by the owner of the mcphost executable. */
  size_t builtin;
} registry;

void registry_init(registry *r);
/* Calls every loaded plugin's deinit (in reverse load order) and frees. */
void registry_free(registry *r);

/* Appends a directory to the search path (duplicates are dropped). */
void registry_add_dir(registry *r, const char *dir);
/* Appends the built-in directory, last: beside the user and root, the
 * owner of the mcphost executable may own it (trusted_fs.h). */
void registry_add_builtin_dir(registry *r, const char *dir);

/* Loads every "*.so" of every directory in order (files in a directory in
 * name order). `host` is the table handed to each plugin's init. Only
 * trusted places are used (trusted_fs.h): a relative directory, or a
 * directory or file that is another user's or writable by others, is
 * refused with the reason as a record of its own; each file is opened
 * without following a link and loaded through that open file. */
void registry_load_all(registry *r, const mcph_host *host);

/* Loads the file `name` of the checked directory `dir_fd` (`dir` names
 * it); `also`: one more owner trusted for it, or NULL. Returns the record
 * (also appended to r->plugins). */
plugin *registry_load_file(registry *r, const mcph_host *host, int dir_fd,
                           const char *dir, const char *name,
                           const uid_t *also);

const type_binding *registry_find_type(const registry *r, const char *type);

/* A one-line description of the search path, for error messages. */
char *registry_dirs_text(const registry *r);

#endif
