#include "core/plugins.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/plugin_impl.h"
#include "elf_file.h"
#include "plugin_note.h"
#include "trusted_fs.h"
#include "util.h"

void registry_init(registry *r) { memset(r, 0, sizeof *r); }

static void plugin_free(plugin *p) {
  plugin_note_free(p->note);
  free(p->path);
  free(p->error);
  free(p);
}

void registry_free(registry *r) {
  for (size_t i = r->nplugins; i-- > 0;) {
    plugin *p = r->plugins[i];
    if (p->loaded && p->initialized &&
        MCPH_HAS(p->entry, mcph_entry, deinit) && p->entry->deinit)
      p->entry->deinit(p->ctx);
    /* Never dlclose(): timers or threads may still point into the code,
     * and sanitizers want the symbols for their reports. */
    plugin_free(p);
  }
  free(r->plugins);
  for (size_t i = 0; i < r->ntypes; i++) {
    free(r->types[i].type);
    free(r->types[i].shadowed);
  }
  free(r->types);
  for (size_t i = 0; i < r->ndirs; i++)
    free(r->dirs[i]);
  free(r->dirs);
  impl_dir_cache_free(&r->impl_dir);
  registry_init(r);
}

void registry_add_dir(registry *r, const char *dir) {
  if (!dir || !*dir)
    return;
  for (size_t i = 0; i < r->ndirs; i++)
    if (strcmp(r->dirs[i], dir) == 0)
      return;
  r->dirs = xrealloc(r->dirs, (r->ndirs + 1) * sizeof *r->dirs);
  r->dirs[r->ndirs++] = xstrdup(dir);
}

void registry_add_builtin_dir(registry *r, const char *dir) {
  registry_add_dir(r, dir);
  for (size_t i = 0; dir && i < r->ndirs; i++) {
    if (strcmp(r->dirs[i], dir) == 0) {
      r->builtin = i + 1;
    }
  }
}

char *registry_dirs_text(const registry *r) {
  strbuf b;
  sb_init(&b);
  for (size_t i = 0; i < r->ndirs; i++)
    sb_printf(&b, "%s%s", i ? ", " : "", r->dirs[i]);
  if (r->ndirs == 0)
    sb_adds(&b, "(no plugin directories)");
  return sb_take(&b);
}

const type_binding *registry_find_type(const registry *r, const char *type) {
  for (size_t i = 0; i < r->ntypes; i++)
    if (strcmp(r->types[i].type, type) == 0)
      return &r->types[i];
  return NULL;
}

/* What the plugin says of `type` (its factory's or provides' type info),
 * else the rule for plugins from before ABI 1.6. */
static unsigned type_flags(const plugin *p, const char *type) {
  const mcph_transport_type_info *info = NULL;
  if (p->transport && MCPH_HAS(p->transport, mcph_transport_factory,
                               type_info)) {
    info = p->transport->type_info;
  } else if (p->provides &&
             MCPH_HAS(p->provides, mcph_provides, transport_info)) {
    info = p->provides->transport_info;
  }
  for (; info && info->type; info = (const mcph_transport_type_info *)(
                                 (const char *)info + info->struct_size)) {
    if (info->struct_size < sizeof *info) {
      break; /* a malformed list: nothing more can be read of it */
    }
    if (strcmp(info->type, type) == 0) {
      return info->flags;
    }
  }
  return strcmp(type, "stdio") == 0 ? MCPH_TRANSPORT_LOCAL
                                    : MCPH_TRANSPORT_REMOTE;
}

bool registry_type_is_local(const registry *r, const char *type) {
  const type_binding *tb = registry_find_type(r, type);
  if (!tb) {
    return strcmp(type, "stdio") == 0;
  }
  return (tb->flags & MCPH_TRANSPORT_LOCAL) != 0;
}

static void bind_type(registry *r, plugin *p, const char *type) {
  for (size_t i = 0; i < r->ntypes; i++) {
    type_binding *t = &r->types[i];
    if (strcmp(t->type, type) == 0) {
      t->shadowed = xrealloc(t->shadowed, (t->nshadowed + 1) * sizeof *t->shadowed);
      t->shadowed[t->nshadowed++] = p;
      return;
    }
  }
  r->types = xrealloc(r->types, (r->ntypes + 1) * sizeof *r->types);
  type_binding t = {
      .type = xstrdup(type), .winner = p, .flags = type_flags(p, type)};
  /* Before the built-in ones, which stay last. */
  size_t at = r->ntypes++ - r->nbuiltin;
  memmove(&r->types[at + 1], &r->types[at], r->nbuiltin * sizeof t);
  r->types[at] = t;
}

void registry_bind_builtin(registry *r, plugin *p) {
  for (const char *const *t = p->types; t && *t; t++) {
    size_t before = r->ntypes;
    bind_type(r, p, *t);
    r->nbuiltin += r->ntypes - before;
  }
}

/* The fields a 1.0 entry must cover; deinit is optional. */
#define ENTRY_MIN_SIZE                                                         \
  (offsetof(mcph_entry, get_extension) +                                \
   sizeof(((mcph_entry *)0)->get_extension))

/* Tells the load's watcher (plugins.h) which step comes now. */
static void step(plugin *p, plugin_step st, const void *what) {
  if (p->watch && p->watch->step) {
    p->watch->step(p->watch->ud, p, st, what);
  }
}

static plugin *refuse(plugin *p, char *why) {
  free(p->error);
  p->error = why;
  p->loaded = false;
  return p;
}

static const plugin *find_id(const registry *r, const char *id) {
  for (size_t i = 0; i < r->nplugins; i++)
    if (r->plugins[i]->loaded && strcmp(r->plugins[i]->id, id) == 0)
      return r->plugins[i];
  return NULL;
}

/* dlerror()'s text without the name it starts with ("NAME: ..."). */
static const char *dl_reason(const char *e, const char *name) {
  size_t n = strlen(name);
  if (e && strncmp(e, name, n) == 0 && e[n] == ':' && e[n + 1] == ' ') {
    return e + n + 2;
  }
  return e ? e : "unknown error";
}

static bool transport_complete(const mcph_transport_factory *tf) {
  return MCPH_HAS(tf, mcph_transport_factory, destroy) && tf->types &&
         tf->create && tf->start && tf->send && tf->close && tf->destroy;
}

/* A list of the provides struct, if its size covers it. */
#define PROVIDED(pr, field)                                                    \
  (MCPH_HAS(pr, mcph_provides, field) ? (pr)->field : NULL)

static bool listed(const char *const *list, const char *s) {
  for (; list && *list; list++) {
    if (strcmp(*list, s) == 0) {
      return true;
    }
  }
  return false;
}

/* Runs the plugin's init (loading its implementation first for a stub).
 * Returns 0, or an MCPH_E* code with the reason in *why (new string). */
static int init_now(plugin *p, char **why) {
  mcph_error err;
  mcph_error_init(&err);
  const char *impl = p->provides ? PROVIDED(p->provides, implementation)
                                 : NULL;
  if (impl) {
    const mcph_entry *e = NULL;
    step(p, PLUGIN_STEP_IMPL, impl);
    int rc = plugin_impl_open(p, &e, &err);
    if (rc != MCPH_OK) {
      *why = xstrdup(err.message[0] ? err.message : "cannot load it");
      return rc;
    }
    p->entry = e;
  }
  void *ctx = NULL;
  p->init_ran = true;
  step(p, PLUGIN_STEP_INIT, NULL);
  int rc = p->entry->init(&p->handle.api, &ctx, &err);
  if (rc != 0) {
    *why = impl ? xstrdup(err.message[0] ? err.message : "init failed")
                : xasprintf("init failed (%d): %s", rc,
                            err.message[0] ? err.message : "no message");
    return rc < 0 ? rc : MCPH_EIO;
  }
  p->ctx = ctx;
  p->initialized = true;
  return MCPH_OK;
}

/* A plugin with a provides list: its types are bound now, its init runs
 * when it is first needed (ABI 1.6). */
static plugin *defer(registry *r, plugin *p, const mcph_provides *pr,
                     const impl_scan *scan) {
  if (!MCPH_HAS(pr, mcph_provides, extensions)) {
    return refuse(p, xasprintf("its provides list is too small (%u bytes)",
                               pr->struct_size));
  }
  if (!PROVIDED(pr, implementation) &&
      (!p->entry->init || !p->entry->get_extension)) {
    return refuse(p, xstrdup("entry lacks id, init or get_extension"));
  }
  p->provides = pr;
  if (PROVIDED(pr, implementation)) {
    /* Checked now, not loaded: a stub copied without its implementation
     * would take its id and types from a working plugin found later (the
     * built-in one) and fail only on use. */
    mcph_error err;
    mcph_error_init(&err);
    if (plugin_impl_check(p, &r->impl_dir, scan, &err) != MCPH_OK) {
      p->provides = NULL;
      return refuse(p, xasprintf("%s; its id and types are left to another "
                                 "plugin",
                                 err.message));
    }
  }
  const char *const *types = PROVIDED(pr, transport_types);
  if (types && *types) {
    if (!listed(pr->extensions, MCPH_EXT_TRANSPORT)) {
      p->error = xstrdup("it lists transport types but not the transport "
                         "extension; ignored");
      return p;
    }
    p->types = types;
    for (const char *const *t = types; *t; t++) {
      bind_type(r, p, *t);
    }
  }
  return p;
}

/* Initializes a deferred plugin; a failure refuses it for good, unless it
 * came before init ran (an implementation not there yet). */
int plugin_init(plugin *p, mcph_error *err) {
  if (p->initialized) {
    return MCPH_OK;
  }
  if (!p->loaded) {
    return mcph_error_set(err, MCPH_ENOTFOUND, "%s", p->error);
  }
  char *why = NULL;
  int rc = init_now(p, &why);
  if (rc != MCPH_OK) {
    mcph_error_set(err, rc, "%s", why);
    if (p->init_ran) {
      refuse(p, why);
    } else {
      free(why);
    }
    return rc;
  }
  return MCPH_OK;
}

bool plugin_offers(plugin *p, const char *id) {
  if (!p->loaded) {
    return false;
  }
  if (!p->initialized) {
    return listed(p->provides->extensions, id);
  }
  return p->entry->get_extension(p->ctx, id) != NULL;
}

bool plugin_may_offer_command(const plugin *p, const char *name) {
  if (!p->loaded || p->initialized || !p->provides) {
    return p->loaded;
  }
  const char *const *cmds = PROVIDED(p->provides, commands);
  return !cmds || listed(cmds, name);
}

/* Opens a stub read from its note, for its own code: its entry and
 * provides list replace the note's. 0, or an MCPH_E* code (logged). */
static int open_stub(plugin *p) {
  if (!p->described) {
    return MCPH_OK;
  }
  char byfd[32], line[512];
  proc_fd_path(byfd, p->fd);
  void *h = dlopen(byfd, RTLD_NOW | RTLD_LOCAL);
  const mcph_entry *e = h ? dlsym(h, MCPH_ENTRY_SYMBOL) : NULL;
  if (!e) {
    snprintf(line, sizeof line, "cannot open %s for its code: %s", p->path,
             dl_reason(dlerror(), byfd));
  } else if (e->abi_major != MCPH_ABI_MAJOR || e->struct_size < sizeof *e ||
             !e->id || strcmp(e->id, p->id) != 0 || !e->provides ||
             !MCPH_HAS(e->provides, mcph_provides, implementation) ||
             !e->provides->implementation) {
    snprintf(line, sizeof line, "%s: its entry is not what its note says",
             p->path);
    e = NULL;
  }
  if (!e) {
    p->handle.api.log(&p->handle.api, MCPH_LOG_WARN, p->id, line);
    return MCPH_EABI;
  }
  p->entry = e;
  p->provides = e->provides;
  p->described = false;
  return MCPH_OK;
}

/* Whether something the stub's code reads is there (plugin_note.h): an
 * option of it with a value, a variable it reads set, a file it reads
 * present or not to be formed. */
static bool path_there(const char *alts) {
  char path[PATH_MAX];
  for (const char *a = alts; *a;) {
    const char *bar = strchr(a, '|');
    size_t n = bar ? (size_t)(bar - a) : strlen(a);
    const char *base = NULL, *rest = a;
    if (a[0] == '$') {
      size_t v = 0; /* not strcspn(): see trusted_fs.c's past_slashes() */
      while (a[1 + v] && a[1 + v] != '/' && a[1 + v] != '|') {
        v++;
      }
      char var[128];
      snprintf(var, sizeof var, "%.*s", (int)v, a + 1);
      base = v < sizeof var ? getenv(var) : NULL;
      rest = a + 1 + v;
    } else if (a[0] == '~' && a[1] == '/') {
      base = getenv("HOME");
      rest = a + 1;
    }
    if (base && base[0] == '/' &&
        (size_t)snprintf(path, sizeof path, "%s%.*s", base,
                         (int)(n - (size_t)(rest - a)), rest) < sizeof path) {
      struct stat st;
      return stat(path, &st) == 0 || errno != ENOENT;
    }
    a += n + (bar ? 1 : 0);
  }
  return true; /* none can be formed: the code is unsure too */
}

static bool inputs_there(plugin *p) {
  const plugin_note *n = p->note;
  const mcph_host *api = &p->handle.api;
  const mcph_host_features *svc = api->get_service(api, MCPH_SERVICE_FEATURES);
  const mcph_options *o = n->provides.options;
  for (size_t i = 0; o && i < o->count; i++) {
    if (!svc || !MCPH_HAS(svc, mcph_host_features, option) ||
        svc->option(api, o->options[i].name)) {
      return true;
    }
  }
  for (const char **v = n->env; v && *v; v++) {
    if (getenv(*v)) {
      return true;
    }
  }
  for (const char **f = n->paths; f && *f; f++) {
    if (path_there(*f)) {
      return true;
    }
  }
  return false;
}

/* The note's has_servers and capabilities: its answers while nothing
 * the stub's code reads is there, else the stub's code's. */
static int note_has_servers(const mcph_host *api) {
  plugin *p = ((const plugin_handle *)api)->p;
  if (p->described && !inputs_there(p)) {
    return p->note->servers;
  }
  if (open_stub(p) != MCPH_OK ||
      !MCPH_HAS(p->provides, mcph_provides, has_servers) ||
      !p->provides->has_servers) {
    return 1; /* unsure: the implementation is asked */
  }
  return p->provides->has_servers(api);
}

static const char *note_capabilities(const mcph_host *api, int *init_now) {
  plugin *p = ((const plugin_handle *)api)->p;
  if (p->described && !inputs_there(p)) {
    *init_now = p->note->caps_init_now;
    return p->note->caps;
  }
  if (open_stub(p) != MCPH_OK ||
      !MCPH_HAS(p->provides, mcph_provides, capabilities) ||
      !p->provides->capabilities) {
    *init_now = 1; /* the implementation says */
    return NULL;
  }
  return p->provides->capabilities(api, init_now);
}

/* The stub's note (`text`, `len` bytes, taken), when the parser takes it
 * (else the file is opened as any plugin: the entry has the last word). */
static plugin_note *read_note(char *text, size_t len) {
  char why[256];
  if (!text) {
    return NULL;
  }
  plugin_note *n = plugin_note_parse(text, len, why, sizeof why);
  free(text);
  if (!n || n->entry.abi_major != MCPH_ABI_MAJOR) {
    plugin_note_free(n);
    return NULL;
  }
  n->provides.has_servers = n->servers_code ? note_has_servers : NULL;
  n->provides.capabilities = n->caps_code ? note_capabilities : NULL;
  return n;
}

bool plugin_may_have_servers(plugin *p) {
  if (!p->loaded || p->initialized || !p->provides ||
      !MCPH_HAS(p->provides, mcph_provides, has_servers) ||
      !p->provides->has_servers) {
    return p->loaded;
  }
  return p->provides->has_servers(&p->handle.api) != 0;
}

const void *plugin_extension(plugin *p, const char *id) {
  if (!plugin_offers(p, id)) {
    return NULL;
  }
  mcph_error err;
  mcph_error_init(&err);
  if (plugin_init(p, &err) != MCPH_OK) {
    return NULL;
  }
  return p->entry->get_extension(p->ctx, id);
}

const mcph_options *plugin_options(plugin *p) {
  if (!p->loaded) {
    return NULL;
  }
  const mcph_options *o =
      p->provides ? PROVIDED(p->provides, options) : NULL;
  if (!o) {
    o = plugin_extension(p, MCPH_EXT_OPTIONS);
  }
  if (!o || !MCPH_HAS(o, mcph_options, count)) {
    return NULL;
  }
  if (o->count && (!o->options || mcph_options_stride(o) == 0)) {
    if (!p->options_refused) {
      p->options_refused = true;
      mcph_logf(&p->handle.api, MCPH_LOG_ERROR, p->id,
                "its options table is broken (%s): none of its options is "
                "taken",
                o->options ? "option_size is below the size of an option"
                           : "no options array");
    }
    return NULL;
  }
  return o;
}

const mcph_transport_factory *plugin_transport(plugin *p, mcph_error *err) {
  if (p->transport) {
    return p->transport;
  }
  if (plugin_init(p, err) != MCPH_OK) {
    return NULL;
  }
  const mcph_transport_factory *tf =
      p->entry->get_extension(p->ctx, MCPH_EXT_TRANSPORT);
  if (!tf || !transport_complete(tf)) {
    mcph_error_set(err, MCPH_EABI, "%s offers no complete transport extension",
                   p->path);
    return NULL;
  }
  p->transport = tf;
  return tf;
}

/* Loads the checked file open as `fd` through that fd, so the code that
 * runs is the file that was checked, whatever the path now names. The fd
 * stays open as long as the process: the library's name is
 * /proc/self/fd/N, which must keep meaning it (dladdr, sanitizers), and
 * the host never unloads a plugin. */
static plugin *load(registry *r, plugin *p, int fd, const struct stat *st,
                    const impl_scan *scan) {
  p->fd = fd;
  char byfd[32];
  proc_fd_path(byfd, fd);
  step(p, PLUGIN_STEP_OPEN, NULL);
  char bad[256], *text;
  size_t len;
  /* One read of the file's head for both; a watcher (plugin check) wants
   * the stub's own code, not its note. */
  if (elf_check_note(fd, st, r->watch ? NULL : PLUGIN_NOTE_OWNER,
                     PLUGIN_NOTE_TYPE, &text, &len, bad, sizeof bad) != 0) {
    close(fd); /* dlopen() would die of SIGBUS on a file cut short */
    return refuse(p, xasprintf("cannot load: %s", bad));
  }
  p->note = read_note(text, len);
  p->described = p->note != NULL;
  const mcph_entry *entry = p->note ? &p->note->entry : NULL;
  char sym_error[512] = "";
  if (!entry) {
    void *h = dlopen(byfd, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char *e = dlerror(); /* process-wide: copy at once */
      close(fd);
      return refuse(p, xasprintf("cannot load: %s", dl_reason(e, byfd)));
    }
    entry = dlsym(h, MCPH_ENTRY_SYMBOL);
    if (!entry) {
      /* process-wide: copy at once; it names the fd, not the file */
      snprintf(sym_error, sizeof sym_error, "%s", dl_reason(dlerror(), byfd));
    }
  }
  step(p, PLUGIN_STEP_ENTRY, entry);
  if (!entry) {
    return refuse(p, xasprintf("not an mcphost plugin: no \"%s\" symbol (%s)",
                               MCPH_ENTRY_SYMBOL, sym_error));
  }
  /* Read the version before anything else in the plugin. */
  p->abi_major = entry->abi_major;
  p->abi_minor = entry->abi_minor;
  if (entry->abi_major != MCPH_ABI_MAJOR)
    return refuse(p, xasprintf("built for plugin ABI %u.%u; this mcphost "
                               "speaks ABI %d.%d",
                               entry->abi_major, entry->abi_minor,
                               MCPH_ABI_MAJOR, MCPH_ABI_MINOR));
  if (entry->struct_size < ENTRY_MIN_SIZE)
    return refuse(p, xasprintf("entry struct too small (%u bytes, ABI 1.0 "
                               "needs %zu)",
                               entry->struct_size, (size_t)ENTRY_MIN_SIZE));
  if (!entry->id || !*entry->id)
    return refuse(p, xstrdup("entry lacks id, init or get_extension"));
  p->id = entry->id;
  p->name = entry->name;
  p->version = entry->version;
  p->description = entry->description;
  const plugin *dup = find_id(r, entry->id);
  if (dup)
    return refuse(p, xasprintf("plugin id \"%s\" already loaded from %s",
                               entry->id, dup->path));

  p->entry = entry;
  p->handle.api = r->tmpl;
  p->handle.owner = r->owner;
  p->handle.p = p;
  p->loaded = true;
  if (MCPH_HAS(entry, mcph_entry, provides) && entry->provides) {
    return defer(r, p, entry->provides, scan);
  }
  if (!entry->init || !entry->get_extension)
    return refuse(p, xstrdup("entry lacks id, init or get_extension"));
  char *why = NULL;
  if (init_now(p, &why) != MCPH_OK) {
    return refuse(p, why);
  }
  const mcph_transport_factory *tf =
      entry->get_extension(p->ctx, MCPH_EXT_TRANSPORT);
  if (tf) {
    if (!transport_complete(tf)) {
      /* Loaded, but serves no type: say why in `mcphost plugins`. */
      p->error = xstrdup("its transport extension is incomplete; ignored");
      return p;
    }
    p->transport = tf;
    p->types = tf->types;
    for (const char *const *t = tf->types; *t; t++)
      bind_type(r, p, *t);
  }
  return p;
}

static plugin *add_record(registry *r, char *path) {
  plugin *p = xcalloc(1, sizeof *p);
  p->path = path;
  p->fd = -1;
  p->watch = r->watch;
  r->plugins = xrealloc(r->plugins, (r->nplugins + 1) * sizeof *r->plugins);
  r->plugins[r->nplugins++] = p;
  return p;
}

/* The plugin file `name` in `dir_fd`, checked; -1 with the reason in
 * *why (the caller's to free). Not inlined: the reason's buffer (4 KiB)
 * is on the stack only for the open, not under the loading after it. */
static __attribute__((noinline)) int
open_plugin_file(int dir_fd, const char *dir, const char *name,
                 const uid_t *also, struct stat *st, bool *linked, char **why) {
  char text[PATH_MAX + 128];
  int fd = trusted_fs_open_code_stat(dir_fd, dir, name, also, st, linked, text,
                                     sizeof text);
  if (fd < 0) {
    *why = xstrdup(text);
  }
  return fd;
}

plugin *registry_load_file(registry *r, int dir_fd,
                           const char *dir, const char *name,
                           const uid_t *also) {
  plugin *p = add_record(r, path_join(dir, name));
  char *why = NULL;
  struct stat st;
  impl_scan scan = {.dir_fd = dir_fd, .dir = dir, .also = also};
  int fd = open_plugin_file(dir_fd, dir, name, also, &st, &scan.linked, &why);
  if (fd < 0) {
    return refuse(p, why);
  }
  scan.owner = st.st_uid;
  return load(r, p, fd, &st, &scan);
}

static bool is_plugin_name(const char *name) {
  size_t n = strlen(name);
  return n > 3 && strcmp(name + n - 3, ".so") == 0 && name[0] != '.';
}

static int by_name(const void *a, const void *b) {
  return strcoll(*(char *const *)a, *(char *const *)b); /* as alphasort */
}

/* The plugin files' names in the directory open as `dfd`, in alphasort's
 * order: read from `dfd` itself, where scandirat() opened the directory
 * once more (an open, an fstat and a close). The count with *out (each
 * name and the array the caller's to free), or -1 with errno. Not
 * inlined: its buffer is on the stack only while the names are read. */
static __attribute__((noinline)) int plugin_names(int dfd, char ***out) {
  _Alignas(struct dirent64) char buf[2048];
  char **names = NULL;
  size_t n = 0, cap = 0;
  ssize_t got;
  while ((got = getdents64(dfd, buf, sizeof buf)) > 0) {
    for (size_t at = 0; at < (size_t)got;) {
      const struct dirent64 *d = (const void *)(buf + at);
      at += d->d_reclen;
      if (!is_plugin_name(d->d_name)) {
        continue;
      }
      if (n == cap) {
        cap = cap ? 2 * cap : 16;
        names = xrealloc(names, cap * sizeof *names);
      }
      names[n++] = xstrdup(d->d_name);
    }
  }
  if (got < 0) {
    int err = errno;
    for (size_t i = 0; i < n; i++) {
      free(names[i]);
    }
    free(names);
    errno = err;
    return -1;
  }
  if (n > 1) {
    qsort(names, n, sizeof *names, by_name);
  }
  *out = names;
  return (int)n;
}

/* A directory refused as a whole is a record of its own, so that
 * `mcphost plugins` says why nothing in it was loaded. */
static void refuse_dir(registry *r, const char *dir, const char *why) {
  refuse(add_record(r, xstrdup(dir)),
         xasprintf("plugin directory refused, nothing in it loaded: %s", why));
}

/* Opens the search path's directory `dir` with its trust rule: whoever
 * owns the executable controls mcphost already, so trusting them for its
 * built-in directory adds nobody (a build tree of a user's, run by root).
 * Returns the fd, with *also pointing at `exe_owner` for the built-in
 * directory (else NULL), or -1 with errno and the reason in *why (the
 * caller's to free). Not inlined, for open_plugin_file's reason: the
 * plugins are loaded after it. */
static __attribute__((noinline)) int open_dir(const registry *r,
                                              const char *dir, uid_t *exe_owner,
                                              const uid_t **also, char **why) {
  /* On the heap, where the reason goes anyway: with the walk below it,
   * 4 KiB more of stack here made this the deepest of every command's
   * start (one page more resident). */
  size_t text_len = PATH_MAX + 128;
  char *text = xmalloc(text_len);
  struct stat exe;
  *also = NULL;
  if (r->builtin && strcmp(r->dirs[r->builtin - 1], dir) == 0 &&
      stat("/proc/self/exe", &exe) == 0) {
    *exe_owner = exe.st_uid;
    *also = exe_owner;
  }
  int fd = *also
               ? trusted_fs_open_dir_owned_by(dir, 0, **also, text, text_len)
               : trusted_fs_open_dir(dir, 0, text, text_len);
  if (fd < 0) {
    *why = text;
  } else {
    free(text);
  }
  return fd;
}

void registry_load_all(registry *r) {
  for (size_t i = 0; i < r->ndirs; i++) {
    const char *dir = r->dirs[i];
    char *why = NULL;
    if (dir[0] != '/') {
      /* It would mean a different place in every working directory: a
       * repository's plugins/ would run as the user's code. */
      refuse_dir(r, dir, "a relative path; give an absolute one");
      continue;
    }
    uid_t exe_owner;
    const uid_t *also;
    int dfd = open_dir(r, dir, &exe_owner, &also, &why);
    if (dfd < 0) {
      if (errno != ENOENT) {
        refuse_dir(r, dir, why); /* a missing directory is no error */
      }
      free(why);
      continue;
    }
    char **names = NULL;
    int n = plugin_names(dfd, &names);
    if (n < 0) {
      refuse_dir(r, dir, strerror(errno));
      close(dfd);
      continue;
    }
    for (int k = 0; k < n; k++) {
      registry_load_file(r, dfd, dir, names[k], also);
      free(names[k]);
    }
    free(names);
    close(dfd);
  }
}

plugin *registry_load_path(registry *r, const char *path) {
  const char *slash = strrchr(path, '/');
  if (path[0] != '/' || !slash || !slash[1]) {
    return refuse(add_record(r, xstrdup(path)),
                  xstrdup("not an absolute path to a file"));
  }
  char *dir = slash == path ? xstrdup("/")
                            : xasprintf("%.*s", (int)(slash - path), path);
  char *why = NULL;
  uid_t exe_owner;
  const uid_t *also;
  plugin *p;
  int dfd = open_dir(r, dir, &exe_owner, &also, &why);
  if (dfd < 0) {
    p = refuse(add_record(r, xstrdup(path)),
               xasprintf("its directory is refused: %s", why));
    free(why);
  } else {
    p = registry_load_file(r, dfd, dir, slash + 1, also);
    close(dfd);
  }
  free(dir);
  return p;
}
