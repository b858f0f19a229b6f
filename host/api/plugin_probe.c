/* The child of mcphost_plugin_check (`mcphost plugin check`): the program
 * started again as `PROGRAM __plugin-probe FILE` with MCPHOST_PLUGIN_PROBE
 * set (plugin_check.c takes it over before main), loads FILE alone with the
 * host's own loader (host_load_plugin_file: the same checks, dlopen, entry and
 * init as at every start), then initializes it if it is deferred, asks it for
 * every extension the host knows and compares that with what its provides list
 * says. It reports on fd 0, which its parent made the write end of a pipe
 * (it is moved away at once and /dev/null put in its place), one JSON
 * object a line:
 *   {"step": S[, ...]}   before each step that runs the plugin's code
 *                        (open, entry, impl, init, inspect, deinit), so
 *                        that a crash or a hang is put down to its step;
 *   {"service": ID, "offered": B}   each host service it looked up;
 *   {"report": {...}}    what was found (plugin_check.c prints it);
 *   {"step": "end"}      the process is about to exit by itself.
 * Whatever the plugin writes to stdout or stderr goes to the parent's
 * other pipes. A crash stays a death by signal even under a sanitizer
 * (its handler is replaced), so the verdict is the same in every build. */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "api/plugin_probe.h"
#include "core/host.h"
#include "core/plugin_record.h"
#include "elf_file.h"
#include "mcp/client.h"
#include "util.h"

/* The child's exit codes (the CLI's): it reported, a bad command line,
 * no host. */
enum { PROBE_OK = 0, PROBE_USAGE = 2, PROBE_NO_HOST = 3 };

/* The one process-wide state of the child, kept reachable for the leak
 * checker when the plugin ends the process in the middle of a step. */
static struct probe {
  int fd; /* the report pipe */
  host *h;
  mcp_client *mc;
  bool opened, looked_up, initialized, impl, end;
  const mcph_entry *entry; /* the entry, once looked up */
  cJSON *services;         /* [{id, offered}] */
  cJSON *errors, *warnings;
} probe = {.fd = -1};

static void emit(cJSON *o) {
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  if (!s) {
    return;
  }
  size_t n = strlen(s);
  s[n] = '\n'; /* the NUL is not sent */
  for (size_t off = 0; off <= n;) {
    ssize_t w = write(probe.fd, s + off, n + 1 - off);
    if (w <= 0) {
      break;
    }
    off += (size_t)w;
  }
  free(s);
}

static void emit_step(const char *name) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "step", name);
  emit(o);
}

static void problem(const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void problem(const char *cls, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  strbuf b;
  sb_init(&b);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  if (cls) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "class", cls);
    cJSON_AddStringToObject(e, "message", sb_str(&b));
    cJSON_AddItemToArray(probe.errors, e);
  } else {
    cJSON_AddItemToArray(probe.warnings, cJSON_CreateString(sb_str(&b)));
  }
  sb_free(&b);
}

/* ---- what the loader lets us see ---- */

static void entry_facts(cJSON *o, const mcph_entry *e) {
  if (e->id) {
    cJSON_AddStringToObject(o, "id", e->id);
  }
  if (e->name) {
    cJSON_AddStringToObject(o, "name", e->name);
  }
  if (e->version) {
    cJSON_AddStringToObject(o, "version", e->version);
  }
  char abi[32];
  snprintf(abi, sizeof abi, "%u.%u", e->abi_major, e->abi_minor);
  cJSON_AddStringToObject(o, "abi", abi);
}

static void on_step(void *ud, plugin *p, plugin_step st, const void *what) {
  (void)ud;
  (void)p;
  cJSON *o = cJSON_CreateObject();
  switch (st) {
  case PLUGIN_STEP_OPEN:
    probe.opened = true;
    cJSON_AddStringToObject(o, "step", "open");
    break;
  case PLUGIN_STEP_ENTRY:
    probe.entry = what;
    probe.looked_up = true;
    cJSON_AddStringToObject(o, "step", "entry");
    /* Read before anything of the plugin runs but its constructors;
     * only what the loader reads too, and only if its major is ours
     * (another major's struct may be laid out otherwise). */
    if (probe.entry && probe.entry->abi_major == MCPH_ABI_MAJOR &&
        MCPH_HAS(probe.entry, mcph_entry, description)) {
      entry_facts(cJSON_AddObjectToObject(o, "entry"), probe.entry);
    }
    break;
  case PLUGIN_STEP_IMPL:
    probe.impl = true;
    cJSON_AddStringToObject(o, "step", "impl");
    cJSON_AddStringToObject(o, "file", what);
    break;
  case PLUGIN_STEP_INIT:
    probe.initialized = true;
    cJSON_AddStringToObject(o, "step", "init");
    break;
  }
  emit(o);
}

static void on_service(void *ud, const plugin *p, const char *id,
                       const void *answer) {
  (void)ud;
  (void)p;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "service", id ? id : "");
  cJSON_AddBoolToObject(o, "offered", answer != NULL);
  cJSON_AddItemToArray(probe.services, cJSON_Duplicate(o, 1));
  emit(o);
}

static const plugin_watch watch = {on_step, on_service, NULL};

/* ---- a refused plugin: which class of refusal ---- */

static const char *refusal_class(const plugin *p) {
  if (!probe.opened) {
    return "file";
  }
  if (!probe.looked_up) {
    return "load"; /* dlopen() refused it */
  }
  if (!probe.entry) {
    return "entry";
  }
  if (probe.initialized) {
    return "init";
  }
  if (probe.impl) {
    return "load"; /* its implementation could not be loaded */
  }
  const mcph_entry *e = probe.entry;
  if (e->abi_major != MCPH_ABI_MAJOR || strstr(p->error, "too small") != NULL) {
    return "abi";
  }
  return "entry";
}

/* FILE's symbols (elf_file.h): 0, -1 with `why` when they cannot be
 * read, -2 when the file cannot be opened. */
static int read_elf(const char *path, elf_info *ei, char *why, size_t n) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    return -2;
  }
  int rc = elf_info_read(fd, ei, why, n);
  close(fd);
  return rc;
}

/* The symbols FILE needs that neither the process nor a library it
 * names has: why dlopen() failed, all of them (dlerror() names one). */
static void unresolved(const char *path, cJSON *report) {
  elf_info ei;
  char why[256];
  if (read_elf(path, &ei, why, sizeof why) != 0) {
    return;
  }
  void **libs = xcalloc(ei.libraries.n + 1, sizeof *libs);
  for (size_t i = 0; i < ei.libraries.n; i++) {
    libs[i] = dlopen(ei.libraries.v[i], RTLD_LAZY | RTLD_LOCAL);
  }
  cJSON *list = cJSON_AddArrayToObject(report, "unresolved");
  for (size_t i = 0; i < ei.needs.n; i++) {
    const char *s = ei.needs.v[i];
    bool found = dlsym(RTLD_DEFAULT, s) != NULL;
    for (size_t k = 0; !found && k < ei.libraries.n; k++) {
      found = libs[k] && dlsym(libs[k], s) != NULL;
    }
    if (!found) {
      cJSON_AddItemToArray(list, cJSON_CreateString(s));
    }
  }
  free(libs); /* never closed, as the host closes no library */
  elf_info_free(&ei);
}

/* The exports the warning names (all are in the report's list). */
#define EXPORTS_NAMED 20

/* What FILE exports beyond the entry: nothing, when built as the ABI
 * asks (hidden visibility, the version script). */
static void exports(const char *path, cJSON *report) {
  elf_info ei;
  char why[256];
  int rc = read_elf(path, &ei, why, sizeof why);
  if (rc != 0) {
    if (rc == -1) {
      problem(NULL, "its symbols cannot be read: %s", why);
    }
    return;
  }
  cJSON *list = cJSON_AddArrayToObject(report, "exports");
  strbuf more;
  sb_init(&more);
  size_t nmore = 0;
  for (size_t i = 0; i < ei.exports.n; i++) {
    cJSON_AddItemToArray(list, cJSON_CreateString(ei.exports.v[i]));
    if (strcmp(ei.exports.v[i], MCPH_ENTRY_SYMBOL) != 0 &&
        nmore++ < EXPORTS_NAMED) {
      sb_printf(&more, "%s%s", nmore > 1 ? ", " : "", ei.exports.v[i]);
    }
  }
  if (nmore > EXPORTS_NAMED) {
    sb_printf(&more, " and %zu more", nmore - EXPORTS_NAMED);
  }
  if (nmore) {
    problem(NULL,
            "it exports %zu symbol%s beyond %s (%s): build it with hidden "
            "visibility and the SDK's version script "
            "(mcphost_add_plugin)",
            nmore, nmore == 1 ? "" : "s", MCPH_ENTRY_SYMBOL, sb_str(&more));
  }
  sb_free(&more);
  elf_info_free(&ei);
}

/* ---- a loaded plugin: what it really offers ---- */

static const char *const known_extensions[] = {
    MCPH_EXT_TRANSPORT, MCPH_EXT_FEATURE,       MCPH_EXT_OPTIONS,
    MCPH_EXT_COMMAND,   MCPH_EXT_SERVER_SOURCE, MCPH_EXT_PERMISSION,
    MCPH_EXT_AUTH};
#define NKNOWN (sizeof known_extensions / sizeof known_extensions[0])

static cJSON *string_list(const char *const *l) {
  cJSON *a = cJSON_CreateArray();
  for (; l && *l; l++) {
    cJSON_AddItemToArray(a, cJSON_CreateString(*l));
  }
  return a;
}

static bool in(const char *const *l, const char *s) {
  for (; l && *l; l++) {
    if (strcmp(*l, s) == 0) {
      return true;
    }
  }
  return false;
}

/* Says where two lists differ: what `a` (named `an`) has and `b` (`bn`)
 * lacks, and the other way round, as errors of class `cls` (NULL: as
 * warnings). */
static void compare(const char *what, const char *const *a, const char *an,
                    const char *const *b, const char *bn, const char *cls) {
  for (const char *const *s = a; s && *s; s++) {
    if (!in(b, *s)) {
      problem(cls, "%s \"%s\" is in %s but not in %s", what, *s, an, bn);
    }
  }
  for (const char *const *s = b; s && *s; s++) {
    if (!in(a, *s)) {
      problem(cls, "%s \"%s\" is in %s but not in %s", what, *s, bn, an);
    }
  }
}

static void size_fact(cJSON *sizes, const char *name, uint32_t declared,
                      size_t host_size, size_t needed, const char *minor) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "struct", name);
  cJSON_AddNumberToObject(o, "declared", declared);
  cJSON_AddNumberToObject(o, "host", (double)host_size);
  cJSON_AddItemToArray(sizes, o);
  if (declared < needed) {
    problem("abi", "its %s is %u bytes, less than the %zu the host reads", name,
            declared, needed);
  } else if (declared > host_size && minor) {
    problem(NULL,
            "its %s is %u bytes, more than ABI %s's %zu: built against "
            "other headers than it says",
            name, declared, minor, host_size);
  }
}

#define END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* {"name": NAME, K1: V1, K2: V2} into `out`, the values given. */
static void add_named(cJSON *out, const char *name, const char *k1,
                      const char *v1, const char *k2, const char *v2) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  if (v1) {
    cJSON_AddStringToObject(o, k1, v1);
  }
  if (v2) {
    cJSON_AddStringToObject(o, k2, v2);
  }
  cJSON_AddItemToArray(out, o);
}

/* The names of a command table (NULL-terminated, new array); each
 * command into `out`. */
static const char **command_names(const mcph_commands *cs, cJSON *out) {
  const char **names = xcalloc(cs->count + 1, sizeof *names);
  size_t k = 0;
  for (size_t i = 0; i < cs->count; i++) {
    const mcph_command *cmd =
        (const mcph_command *)((const char *)cs->commands +
                               i * cs->commands[0].struct_size);
    if (cmd->name) {
      names[k++] = cmd->name;
      add_named(out, cmd->name, "usage", cmd->usage, "help", cmd->help);
    }
  }
  return names;
}

/* The same of an options table. */
static const char **option_names(const mcph_options *o, cJSON *out) {
  const char **names = xcalloc(o->count + 1, sizeof *names);
  size_t k = 0;
  if (mcph_options_stride(o) == 0) {
    problem("abi",
            "its options table's option_size (%zu) is below the size of "
            "an option (%zu): the host takes none of its options",
            o->option_size, (size_t)MCPH_OPTION_SIZE_1_7);
    return names;
  }
  for (size_t i = 0; o->options && i < o->count; i++) {
    const mcph_option *d = mcph_options_at(o, i);
    if (d->name) {
      names[k++] = d->name;
      add_named(out, d->name, "arg", d->arg, "help", d->help);
    }
  }
  return names;
}

static void inspect_transport(const mcph_transport_factory *tf,
                              const mcph_provides *pr, cJSON *sizes,
                              const char *minor) {
  size_fact(sizes, "mcph_transport_factory", tf->struct_size, sizeof *tf,
            END_OF(mcph_transport_factory, destroy), minor);
  if (!MCPH_HAS(tf, mcph_transport_factory, destroy) || !tf->types ||
      !tf->create || !tf->start || !tf->send || !tf->close || !tf->destroy) {
    problem("mismatch", "its transport extension is incomplete (types, "
                        "create, start, send, close and destroy are "
                        "needed)");
    return;
  }
  if (pr && MCPH_HAS(pr, mcph_provides, transport_types)) {
    compare("transport type", pr->transport_types, "its provides list",
            tf->types, "its transport factory", "mismatch");
  }
}

static void inspect(plugin *p, cJSON *report) {
  const mcph_provides *pr = p->provides;
  /* A struct larger than ours is expected only of a newer minor. */
  char own_minor[16];
  snprintf(own_minor, sizeof own_minor, "%d.%d", MCPH_ABI_MAJOR,
           MCPH_ABI_MINOR);
  const char *minor = p->abi_minor <= MCPH_ABI_MINOR ? own_minor : NULL;
  cJSON *sizes = cJSON_AddArrayToObject(report, "sizes");
  size_fact(sizes, "mcph_entry", p->entry->struct_size, sizeof(mcph_entry),
            END_OF(mcph_entry, get_extension), minor);
  if (pr) {
    size_fact(sizes, "mcph_provides", pr->struct_size, sizeof *pr,
              END_OF(mcph_provides, extensions), minor);
    cJSON *pj = cJSON_AddObjectToObject(report, "provides");
    cJSON_AddItemToObject(pj, "transportTypes",
                          string_list(pr->transport_types));
    cJSON_AddItemToObject(pj, "extensions", string_list(pr->extensions));
    cJSON_AddItemToObject(pj, "commands", string_list(pr->commands));
    cJSON_AddItemToObject(pj, "requests", string_list(pr->requests));
    cJSON_AddItemToObject(pj, "notifications", string_list(pr->notifications));
    const char *impl =
        MCPH_HAS(pr, mcph_provides, implementation) ? pr->implementation : NULL;
    if (impl) {
      cJSON_AddStringToObject(pj, "implementation", impl);
    }
  }
  cJSON_AddBoolToObject(report, "deferred", pr != NULL);

  /* Initialized as its first use would (a stub's implementation first). */
  mcph_error err;
  mcph_error_init(&err);
  if (plugin_init(p, &err) != MCPH_OK) {
    /* Before its init ran: its implementation could not be loaded. */
    problem(probe.initialized ? "init" : "load", "%s", err.message);
    return;
  }
  emit_step("inspect");
  cJSON *answered = cJSON_AddArrayToObject(report, "extensions");
  size_t nanswered = 0;
  const void *ext[NKNOWN];
  for (size_t i = 0; i < NKNOWN; i++) {
    ext[i] = p->entry->get_extension(p->ctx, known_extensions[i]);
    if (ext[i]) {
      cJSON_AddItemToArray(answered, cJSON_CreateString(known_extensions[i]));
      nanswered++;
    }
    bool listed = pr && in(pr->extensions, known_extensions[i]);
    if (pr && listed && !ext[i]) {
      problem("mismatch",
              "its provides list names the extension %s, which its "
              "get_extension does not give",
              known_extensions[i]);
    } else if (pr && !listed && ext[i] &&
               !(strcmp(known_extensions[i], MCPH_EXT_OPTIONS) == 0 &&
                 MCPH_HAS(pr, mcph_provides, options) && pr->options) &&
               /* Since 1.7 a feature left out joins once the plugin is
                * initialized for something else (plugin.h). */
               !(strcmp(known_extensions[i], MCPH_EXT_FEATURE) == 0 &&
                 p->abi_minor >= 7)) {
      problem("mismatch",
              "its get_extension gives %s, which its provides list does "
              "not name: the host never asks for it before the plugin is "
              "initialized",
              known_extensions[i]);
    }
  }
  if (nanswered == 0) {
    problem(NULL, "it offers none of the extensions this host knows");
  }
  if (ext[0]) {
    inspect_transport(ext[0], pr, sizes, minor);
  } else if (pr && MCPH_HAS(pr, mcph_provides, transport_types) &&
             pr->transport_types && *pr->transport_types) {
    problem("mismatch", "its provides list names transport types but it has no "
                        "transport extension");
  }
  const mcph_feature *f = ext[1];
  if (f && !MCPH_HAS(f, mcph_feature, on_server)) {
    size_fact(sizes, "mcph_feature", f->struct_size, sizeof *f,
              END_OF(mcph_feature, on_server), minor);
  } else if (f) {
    size_fact(sizes, "mcph_feature", f->struct_size, sizeof *f,
              END_OF(mcph_feature, on_server), minor);
    cJSON *fj = cJSON_AddObjectToObject(report, "feature");
    cJSON_AddItemToObject(fj, "requests", string_list(f->requests));
    cJSON_AddItemToObject(fj, "notifications", string_list(f->notifications));
    if (pr) {
      compare("request", pr->requests, "its provides list", f->requests,
              "its feature", NULL);
      compare("notification", pr->notifications, "its provides list",
              f->notifications, "its feature", NULL);
    }
  }
  const mcph_options *o = ext[2];
  const mcph_options *po =
      pr && MCPH_HAS(pr, mcph_provides, options) ? pr->options : NULL;
  const mcph_options *shown = po ? po : o;
  if (shown) {
    size_fact(sizes, "mcph_options", shown->struct_size, sizeof *shown,
              END_OF(mcph_options, count), minor);
    if (MCPH_HAS(shown, mcph_options, count)) {
      const char **names =
          option_names(shown, cJSON_AddArrayToObject(report, "options"));
      if (po && o && MCPH_HAS(o, mcph_options, count)) {
        cJSON *tmp = cJSON_CreateArray();
        const char **ext_names = option_names(o, tmp);
        compare("option", names, "its provides list", ext_names,
                "its options extension (never read)", NULL);
        free(ext_names);
        cJSON_Delete(tmp);
      }
      free(names);
    }
  }
  const mcph_commands *cs = ext[3];
  if (cs) {
    size_fact(sizes, "mcph_commands", cs->struct_size, sizeof *cs,
              END_OF(mcph_commands, count), minor);
    if (MCPH_HAS(cs, mcph_commands, count) && cs->commands && cs->count) {
      size_fact(sizes, "mcph_command", cs->commands[0].struct_size,
                sizeof(mcph_command), END_OF(mcph_command, interrupt), minor);
      if (MCPH_HAS(&cs->commands[0], mcph_command, interrupt)) {
        const char **names =
            command_names(cs, cJSON_AddArrayToObject(report, "commands"));
        if (pr && MCPH_HAS(pr, mcph_provides, commands) && pr->commands) {
          compare("command", pr->commands, "its provides list", names,
                  "its command extension", "mismatch");
        }
        free(names);
      }
    }
  }
}

/* ---- the process ---- */

static void on_exit_marker(void) {
  if (!probe.end) {
    emit_step("exit"); /* exit() called from within the plugin */
  }
}

/* A fatal signal ends the process by that signal, whatever a sanitizer
 * would have made of it (an exit status of its own). */
static void on_fatal(int sig) {
  signal(sig, SIG_DFL);
  raise(sig);
}

static void catch_fatal_signals(void) {
  static char altstack[64 * 1024]; /* a stack overflow has none left */
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    sigaction(sigs[i], &sa, NULL);
  }
}

int plugin_probe_main(int argc, char **argv) {
  if (argc != 3 || argv[2][0] != '/') {
    fprintf(stderr, "mcphost: %s is mcphost plugin check's own\n",
            PLUGIN_PROBE_WORD);
    return PROBE_USAGE;
  }
  probe.fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
  int null = open("/dev/null", O_RDONLY);
  if (probe.fd < 0 || null < 0 || dup2(null, 0) < 0) {
    return PROBE_NO_HOST;
  }
  close(null);
  struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  catch_fatal_signals();
  atexit(on_exit_marker);
  probe.services = cJSON_CreateArray();
  probe.errors = cJSON_CreateArray();
  probe.warnings = cJSON_CreateArray();
  const char *path = argv[2];

  probe.h = host_new(&(host_options){0});
  if (!probe.h) {
    return PROBE_NO_HOST;
  }
  /* Before the plugin: its init may look the servers service up. */
  probe.mc = mcp_client_new(probe.h);
  plugin *p = host_load_plugin_file(probe.h, path, &watch);
  cJSON *report = cJSON_CreateObject();
  if (!p->loaded) {
    problem(refusal_class(p), "%s", p->error);
    if (probe.opened && !probe.looked_up &&
        strstr(p->error, "undefined symbol")) {
      unresolved(path, report);
    }
  } else {
    if (p->abi_minor > MCPH_ABI_MINOR) {
      problem(NULL,
              "it is built for ABI %u.%u, newer than this mcphost's %d.%d: "
              "what later minors added is not offered, and it must find "
              "that out from struct sizes",
              p->abi_major, p->abi_minor, MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
    }
    inspect(p, report);
    /* The loader's own note (a table it ignores), unless said already. */
    if (p->error && p->loaded && cJSON_GetArraySize(probe.errors) == 0) {
      problem("mismatch", "%s", p->error);
    }
  }
  if (probe.opened) {
    exports(path, report);
  }
  const char *slash = strrchr(path, '/');
  if (slash - path >= 5 && strncmp(slash - 5, "/impl", 5) == 0) {
    problem(NULL,
            "it is in an implementation directory (impl): the host loads "
            "what is there only through its stub or its plugin, never as a "
            "plugin of its own");
  }
  fflush(stdout); /* what the plugin printed, before the report */
  cJSON *pj = plugin_record_json(host_registry(probe.h), p);
  cJSON *types = cJSON_GetObjectItem(pj, "transports");
  for (cJSON *t = types ? types->child : NULL; t; t = t->next) {
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(t, "type"));
    cJSON_AddBoolToObject(t, "local",
                          registry_type_is_local(host_registry(probe.h), type));
  }
  cJSON_AddItemToObject(report, "plugin", pj);
  cJSON_AddItemToObject(report, "services", probe.services);
  cJSON_AddItemToObject(report, "errors", probe.errors);
  cJSON_AddItemToObject(report, "warnings", probe.warnings);
  probe.services = probe.errors = probe.warnings = NULL;
  cJSON *line = cJSON_CreateObject();
  cJSON_AddItemToObject(line, "report", report);
  emit(line);

  emit_step("deinit");
  mcp_client_shutdown(probe.mc);
  host_free(probe.h); /* the plugin's deinit */
  mcp_client_free(probe.mc);
  probe.h = NULL;
  probe.mc = NULL;
  fflush(stdout);
  probe.end = true;
  emit_step("end");
  return PROBE_OK;
}
