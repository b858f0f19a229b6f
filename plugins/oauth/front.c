/* The OAuth plugin's implementation as the host opens it: the auth
 * provider's questions that need neither libcurl nor OpenSSL, answered
 * here, and the rest of the plugin (plugin.c and all it calls, linking
 * both) opened from feature-oauth-flows.so beside this file only when a
 * server has something for it.
 *
 * At each connection to a remote server the host asks every auth
 * provider for its Authorization value. Opening the whole plugin for
 * that mapped libcurl and some 25 libraries (6.5 MiB, 5 M instructions
 * with curl_global_init and OpenSSL's SHA-256 of the credential key) for
 * a server that has no credential and no "oauth" settings, the common
 * case. So: a server with "oauth" settings, a stored credential or a
 * needs-auth cache entry, a 401 or 403 challenge, or an `mcp` command
 * opens the rest, which then answers every question as before (the
 * servers asked about meanwhile are told to it first, so a challenge
 * finds their configuration). */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_file.h"
#include "oauth.h"
#include "plugin_info.h"
#include "trusted_fs.h"
#include "util.h"

#define FLOWS_FILE "feature-oauth-flows.so"
/* At most this many commands of the rest are served (it has three). */
#define FRONT_COMMANDS 4

/* A server asked about before the rest was opened. */
typedef struct seen {
  char *name;
  char *config_json;
  struct seen *next;
} seen;

typedef struct front {
  const mcph_host *host;
  const mcph_host_secrets *secrets;
  seen *seen;
  bool tried; /* the rest was opened, or could not be */
  const mcph_entry *flows;
  void *ctx;
  const mcph_auth_provider *auth;
  const mcph_commands *commands; /* the rest's */
  mcph_command cmd[FRONT_COMMANDS];
  mcph_commands cmds; /* the same, called with this plugin's context */
} front;

/* An object of this file, for dladdr(). */
static const char here;

/* The directory of this file: the host opened it as /proc/self/fd/N. */
static int own_dir(char *dir, size_t n, uid_t *owner) {
  Dl_info info;
  if (!dladdr(&here, &info) || !info.dli_fname) {
    return -1;
  }
  ssize_t len = readlink(info.dli_fname, dir, n - 1);
  if (len <= 0) { /* not a /proc/self/fd name: the path itself */
    snprintf(dir, n, "%s", info.dli_fname);
  } else {
    dir[len] = '\0';
  }
  struct stat st;
  char *slash = strrchr(dir, '/');
  if (dir[0] != '/' || !slash || stat(dir, &st) != 0) {
    return -1;
  }
  *slash = '\0';
  *owner = st.st_uid;
  return 0;
}

/* Opens the rest, checked as the host checks an implementation (the
 * directory and file owned by the user, root or this file's owner; a
 * whole ELF file); false with the reason logged. */
static bool open_flows(front *f) {
  if (f->tried) {
    return f->flows != NULL;
  }
  f->tried = true;
  char dir[PATH_MAX], why[PATH_MAX + 128];
  uid_t owner = 0;
  int fd = -1;
  void *h = NULL;
  if (own_dir(dir, sizeof dir, &owner) != 0) {
    snprintf(why, sizeof why, "cannot tell where %s is", FLOWS_FILE);
  } else {
    int dfd = trusted_fs_open_dir_owned_by(dir, 0, owner, why, sizeof why);
    fd = dfd < 0 ? -1
                 : trusted_fs_open_code_owned_by(dfd, dir, FLOWS_FILE, owner,
                                                 why, sizeof why);
    if (dfd >= 0) {
      close(dfd);
    }
    if (fd >= 0 && elf_check_loadable(fd, why, sizeof why) != 0) {
      close(fd);
      fd = -1;
    }
  }
  if (fd >= 0) {
    /* Through the checked open file, kept open: never closed. */
    char byfd[32];
    proc_fd_path(byfd, fd);
    h = dlopen(byfd, RTLD_NOW | RTLD_LOCAL);
    const char *e = h ? NULL : dlerror();
    snprintf(why, sizeof why, "%s", e ? e : "");
  }
  const mcph_entry *e = h ? dlsym(h, MCPH_ENTRY_SYMBOL) : NULL;
  mcph_error err;
  mcph_error_init(&err);
  if (h && (!e || !e->init || !e->get_extension || !e->id ||
            strcmp(e->id, PLUGIN_ID) != 0)) {
    snprintf(why, sizeof why, "it is not the OAuth plugin's");
    e = NULL;
  } else if (e && e->init(f->host, &f->ctx, &err) != MCPH_OK) {
    snprintf(why, sizeof why, "%s", err.message);
    e = NULL;
  }
  if (!e) {
    char line[sizeof dir + sizeof why + 64];
    snprintf(line, sizeof line, "cannot load %s/%s: %s", dir, FLOWS_FILE, why);
    f->host->log(f->host, MCPH_LOG_ERROR, OAUTH_ID, line);
    if (fd >= 0 && !h) {
      close(fd);
    }
    return false;
  }
  char line[sizeof dir + 64];
  snprintf(line, sizeof line, "loaded %s/%s", dir, FLOWS_FILE);
  f->host->log(f->host, MCPH_LOG_DEBUG, OAUTH_ID, line);
  f->flows = e;
  f->auth = e->get_extension(f->ctx, MCPH_EXT_AUTH);
  f->commands = e->get_extension(f->ctx, MCPH_EXT_COMMAND);
  /* The servers asked about so far, so that a challenge finds them. */
  for (seen *s = f->seen; s && f->auth; s = s->next) {
    f->auth->authorization(f->ctx, s->name, s->config_json);
  }
  return f->auth != NULL;
}

typedef struct peek {
  const char *section; /* NULL: the top level */
  const char *key;
  bool found;
} peek;

static int peek_fn(void *ud, mcph_secret_update *u) {
  peek *p = ud;
  cJSON *doc = u->value ? cJSON_ParseWithLength(u->value, u->len) : NULL;
  const cJSON *in =
      p->section ? cJSON_GetObjectItemCaseSensitive(doc, p->section) : doc;
  p->found = cJSON_GetObjectItemCaseSensitive(in, p->key) != NULL;
  cJSON_Delete(doc);
  return MCPH_OK;
}

/* Whether the shared document `file` has `key` (in `section`); true when
 * it cannot be told, so that the rest decides. */
static bool has_key(front *f, const char *file, const char *section,
                    const char *key) {
  if (!f->secrets || !MCPH_HAS(f->secrets, mcph_host_secrets, update)) {
    return true;
  }
  peek p = {.section = section, .key = key};
  mcph_error err;
  mcph_error_init(&err);
  int rc = f->secrets->update(
      f->host, file, MCPH_SECRET_SHARED | MCPH_SECRET_PEEK, peek_fn, &p, &err);
  return rc != MCPH_OK || p.found;
}

/* Whether the rest has something for `server`: "oauth" settings, a
 * stored credential, or an entry in the needs-auth cache. */
static bool wanted(front *f, const char *server, const cJSON *cfg) {
  if (cJSON_GetObjectItemCaseSensitive(cfg, "oauth")) {
    return true;
  }
  char *key = oauth_server_key(server, cfg);
  bool yes = !key || has_key(f, "credentials.json", "mcpOAuth", key) ||
             has_key(f, "mcp-needs-auth-cache.json", NULL, key);
  free(key);
  return yes;
}

static const char *authorization(void *ctx, const char *server,
                                 const char *config_json) {
  front *f = ctx;
  if (f->flows) {
    return f->auth->authorization(f->ctx, server, config_json);
  }
  cJSON *cfg = cJSON_Parse(config_json);
  bool remote = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cfg, "url"));
  bool want = remote && wanted(f, server, cfg);
  cJSON_Delete(cfg);
  if (!remote) {
    return NULL;
  }
  if (!want) {
    seen *s = xcalloc(1, sizeof *s);
    s->name = xstrdup(server);
    s->config_json = xstrdup(config_json);
    s->next = f->seen;
    f->seen = s;
    return NULL;
  }
  return open_flows(f) ? f->auth->authorization(f->ctx, server, config_json)
                       : NULL;
}

static int challenge(void *ctx, const char *server,
                     const mcph_auth_challenge *ch) {
  front *f = ctx;
  return open_flows(f) ? f->auth->challenge(f->ctx, server, ch) : MCPH_ENOTSUP;
}

/* Opened for a server that has a cache entry (authorization() did). */
static const char *needs_auth(void *ctx, const char *server,
                              const char *config_json) {
  front *f = ctx;
  return f->flows && MCPH_HAS(f->auth, mcph_auth_provider, needs_auth) &&
                 f->auth->needs_auth
             ? f->auth->needs_auth(f->ctx, server, config_json)
             : NULL;
}

/* ---- the commands: the rest's, called with the rest's context ---- */

/* Its i-th command: every element is as long as the first says. */
static const mcph_command *rest_command(front *f, size_t i) {
  const char *first = (const char *)f->commands->commands;
  return (const mcph_command *)(const void *)(first + i * f->commands->commands
                                                              ->struct_size);
}

#define COMMAND_AT(i)                                                          \
  static int start##i(void *ctx, mcph_run *run, int argc,                      \
                      const char *const *argv, int global_json,                \
                      mcph_error *err) {                                       \
    front *f = ctx;                                                            \
    return rest_command(f, i)->start(f->ctx, run, argc, argv, global_json,     \
                                     err);                                     \
  }                                                                            \
  static void interrupt##i(void *ctx, mcph_run *run) {                         \
    front *f = ctx;                                                            \
    rest_command(f, i)->interrupt(f->ctx, run);                                \
  }
COMMAND_AT(0)
COMMAND_AT(1)
COMMAND_AT(2)
COMMAND_AT(3)

typedef int (*start_fn)(void *, mcph_run *, int, const char *const *, int,
                        mcph_error *);
typedef void (*interrupt_fn)(void *, mcph_run *);
static const start_fn starts[FRONT_COMMANDS] = {start0, start1, start2, start3};
static const interrupt_fn interrupts[FRONT_COMMANDS] = {interrupt0, interrupt1,
                                                        interrupt2, interrupt3};

/* The rest's commands as this plugin's (NULL without them). */
static const mcph_commands *commands(front *f) {
  if (!open_flows(f) || !f->commands || !f->commands->count ||
      f->commands->commands->struct_size < sizeof(mcph_command)) {
    return NULL;
  }
  size_t n = f->commands->count;
  n = n < FRONT_COMMANDS ? n : FRONT_COMMANDS;
  for (size_t i = 0; i < n; i++) {
    const mcph_command *c = rest_command(f, i);
    f->cmd[i] = (mcph_command){sizeof(mcph_command),
                               c->name,
                               c->usage,
                               c->help,
                               starts[i],
                               c->interrupt ? interrupts[i] : NULL};
  }
  f->cmds = (mcph_commands){sizeof(mcph_commands), f->cmd, n};
  return &f->cmds;
}

static const mcph_auth_provider provider = {
    .struct_size = sizeof provider,
    .authorization = authorization,
    .challenge = challenge,
    .needs_auth = needs_auth,
};

static int init(const mcph_host *host, void **ctx, mcph_error *err) {
  (void)err;
  front *f = xcalloc(1, sizeof *f);
  f->host = host;
  f->secrets = host->get_service(host, MCPH_SERVICE_SECRETS);
  *ctx = f;
  return MCPH_OK;
}

static const void *get_extension(void *ctx, const char *id) {
  front *f = ctx;
  if (strcmp(id, MCPH_EXT_AUTH) == 0) {
    return &provider;
  }
  if (strcmp(id, MCPH_EXT_COMMAND) == 0) {
    return commands(f);
  }
  return NULL;
}

static void deinit(void *ctx) {
  front *f = ctx;
  if (f->flows && f->flows->deinit) {
    f->flows->deinit(f->ctx);
  }
  while (f->seen) {
    seen *s = f->seen;
    f->seen = s->next;
    free(s->name);
    free(s->config_json);
    free(s);
  }
  free(f);
}

MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = PLUGIN_NAME,
    .version = PLUGIN_VERSION,
    .description = PLUGIN_DESCRIPTION,
    .init = init,
    .get_extension = get_extension,
    .deinit = deinit,
};
