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

struct plugin;

/* The table a plugin is handed: each plugin has its own (ABI 1.6), so the
 * host knows who calls. `api` comes first: the host gets back from the
 * pointer it handed out to its owner and the plugin (NULL for the host's
 * own table). */
typedef struct plugin_handle {
  mcph_host api;
  void *owner;       /* the host object */
  struct plugin *p;  /* the plugin calling, or NULL */
} plugin_handle;

typedef struct plugin {
  char *path;        /* the file */
  bool loaded;       /* usable: initialized, or deferred (see below) */
  char *error;       /* why it was refused (loaded == false) */
  /* The entry's (NULL if unknown): static in a plugin's code, which is
   * never unloaded, or in its note, freed with the record. */
  const char *id, *name, *version, *description;
  unsigned abi_major, abi_minor;
  void *ctx;         /* the plugin's own state from init */
  const mcph_entry *entry;
  const mcph_transport_factory *transport; /* NULL: serves no transport */
  /* The transport types it serves (the factory's, or for a deferred
   * plugin its provides list's); NULL: none. */
  const char *const *types;
  plugin_handle handle; /* its own host table */
  /* ABI 1.6 deferred init: the entry's provides list, and whether init
   * ran. A deferred plugin is `loaded` and not `initialized` until the
   * host first needs it (plugin_extension, plugin_transport). */
  const mcph_provides *provides;
  bool initialized;
  /* For a stub with an implementation (provides->implementation):
   * whether a load reached the implementation's init (then it is not
   * tried again: init must not run twice). */
  int fd;    /* the checked open file it was loaded through (kept open) */
  uid_t owner; /* that file's owner (its implementation may be theirs) */
  /* Its name in its directory was a link (the file is elsewhere), so its
   * implementation is not looked for beside that directory. */
  bool linked;
  bool init_ran;
  bool options_refused; /* its broken options table was reported */
  /* A stub read from its note (common/plugin_note.h), not opened: entry
   * and provides are the note's until its own code is needed (then
   * `described` turns false, and the stub's own replace them). */
  struct plugin_note *note;
  bool described;
  const struct plugin_watch *watch; /* the registry's when it was loaded */
} plugin;

/* One transport type, and who serves it. */
typedef struct type_binding {
  char *type;
  plugin *winner;     /* first in search order */
  unsigned flags;     /* the winner's MCPH_TRANSPORT_* for it (ABI 1.6) */
  plugin **shadowed;  /* later plugins offering the same type */
  size_t nshadowed;
} type_binding;

/* The steps of a load, each seen by a watcher (plugin_watch) just before
 * it runs, so that a crash or a hang in the plugin's code is put down to
 * the step it happened in (mcphost plugin check). */
typedef enum plugin_step {
  PLUGIN_STEP_OPEN,  /* checked, then dlopen(): its constructors run */
  PLUGIN_STEP_ENTRY, /* the entry symbol was looked up: `what` is the
                        mcph_entry, or NULL when there is none */
  PLUGIN_STEP_IMPL,  /* a stub's implementation is opened: `what` is its
                        file name (the constructors run) */
  PLUGIN_STEP_INIT   /* the entry's init is called */
} plugin_step;

typedef struct plugin_watch {
  void (*step)(void *ud, plugin *p, plugin_step step, const void *what);
  /* A plugin looked the host service `id` up; `answer`: the table, or
   * NULL when the host has none. */
  void (*service)(void *ud, const plugin *p, const char *id,
                  const void *answer);
  void *ud;
} plugin_watch;

/* The implementation directory last checked for a stub
 * (plugin_impl_check), open, for the next stub of the same directory and
 * owner. */
typedef struct impl_dir_cache {
  char *dir; /* NULL: the one beside the directory being loaded */
  uid_t owner;
  int fd;
  bool open;   /* fd is the directory's */
  bool beside; /* `dir` is the scanned directory it is beside (impl_scan) */
} impl_dir_cache;

typedef struct registry {
  mcph_host tmpl; /* the table each plugin's handle is a copy of */
  void *owner;    /* the host, for plugin_handle.owner */
  plugin **plugins; /* in search order */
  size_t nplugins;
  type_binding *types;
  size_t ntypes;
  char **dirs;      /* the search path actually used, in order */
  size_t ndirs;
  /* dirs[builtin - 1] is the built-in directory (0: none), which may
   * also be owned by the owner of the mcphost executable. */
  size_t builtin;
  /* dirs[0 .. ngiven) are the host's options' (the CLI's --plugin-dir,
   * mcphost_options.plugin_dirs); the rest MCPHOST_PLUGIN_PATH's, but
   * the built-in one. */
  size_t ngiven;
  const plugin_watch *watch; /* NULL: none (the caller's, borrowed) */
  impl_dir_cache impl_dir;
  /* The plugin directory being loaded, open, and the owner its walk
   * trusted beside the user and root (NULL: none); -1 between loads. */
  int loading_fd;
  const uid_t *loading_also;
  /* The last nbuiltin of types are built in (registry_bind_builtin):
   * kept last, so a plugin's type is found without passing them. */
  size_t nbuiltin;
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
 * name order); a stub that carries its note is read, not opened
 * (plugin_note.h), unless the registry has a watcher (plugin check's).
 * Each plugin's init gets its own copy of r->tmpl. Only trusted places
 * are used (trusted_fs.h): a relative directory, or a directory or file
 * that is another user's or writable by others, is refused with the
 * reason as a record of its own; each file is opened without following a
 * link and loaded through that open file. */
void registry_load_all(registry *r);

/* Loads the file `name` of the checked directory `dir_fd` (`dir` names
 * it); `also`: one more owner trusted for it, or NULL. Returns the record
 * (also appended to r->plugins). */
plugin *registry_load_file(registry *r, int dir_fd,
                           const char *dir, const char *name,
                           const uid_t *also);

/* Loads the one file `path` (absolute), its directory checked as
 * registry_load_all checks one of the search path (the built-in
 * directory's rule included). Returns the record (also appended). */
plugin *registry_load_path(registry *r, const char *path);

const type_binding *registry_find_type(const registry *r, const char *type);

/* Binds each of p->types to `p`, a transport the library has built in (no
 * file, no init: `p` is loaded and initialized, with `transport` and
 * `ctx` set and `path` saying where it comes from, e.g. "(built in)").
 * `p` is the caller's and is not in r->plugins (never listed, never
 * deinitialized); it must outlive every use of the binding. Bound before
 * the plugins load, a built-in type wins: a plugin's of that name is
 * listed as shadowed by it. Built-in types stay at the end of `types`,
 * so looking up a plugin's type costs nothing more. */
void registry_bind_builtin(registry *r, plugin *p);

/* Whether servers of `type` are local (a process on this machine), from
 * the serving plugin's type info; without it, "stdio" is local and every
 * other type remote. */
bool registry_type_is_local(const registry *r, const char *type);

/* Whether a loaded plugin offers the extension `id`, without running it:
 * a deferred plugin's provides list says, an initialized one is asked. */
bool plugin_offers(plugin *p, const char *id);

/* Whether `name` may be a command of p: false only for a deferred plugin
 * whose provides list names its commands and not this one, so finding a
 * command does not initialize every plugin that has some. */
bool plugin_may_offer_command(const plugin *p, const char *name);

/* Whether a loaded plugin may have servers to list: false only for a
 * deferred plugin whose provides list's has_servers (ABI 1.7) says it
 * has none now, so listing the configuration does not initialize it. */
bool plugin_may_have_servers(plugin *p);

/* The extension `id` of a loaded plugin, or NULL. A deferred plugin whose
 * provides list names `id` is initialized first (and its implementation
 * loaded); if that fails it is refused (p->loaded false, p->error says
 * why) and NULL is returned. */
const void *plugin_extension(plugin *p, const char *id);

/* The global options of a loaded plugin (mcph_options, feature.h), or
 * NULL: its provides list's when it has them (the plugin is not
 * initialized for them), else its MCPH_EXT_OPTIONS extension's. */
const mcph_options *plugin_options(plugin *p);

/* Initializes a loaded plugin now if it is deferred (its implementation
 * first), as its first use would. 0 (also when initialized already), or
 * an MCPH_E* code with the reason in `err`; a failure of init refuses it
 * (p->error says why). */
int plugin_init(plugin *p, mcph_error *err);

/* The transport factory of a plugin bound to a type, initializing a
 * deferred plugin first. NULL with the reason in `err` when it cannot be
 * loaded; a failure before the implementation's init ran is tried again
 * at the next call. */
const mcph_transport_factory *plugin_transport(plugin *p, mcph_error *err);

/* A one-line description of the search path, for error messages. */
char *registry_dirs_text(const registry *r);

#endif
