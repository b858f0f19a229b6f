/* The client API's plugins (sdk/include/mcphost/client.h, "plugins"):
 * the loaded plugins and their search path as JSON, and the commands
 * plugins add (mcph.command/1), found and run as `mcphost NAME` runs
 * them. The servers service's finish() ends a run (mcp/servers_service.c;
 * the run is the MCP client's, so a plugin that finishes late writes into
 * live memory). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "core/plugin_record.h"
#include "core/plugins.h"
#include "mcp/error.h"
#include "suggest.h"
#include "util.h"

/* A JSON value as the caller's text: MCPHOST_OK, or MCPHOST_ENOMEM. */
static int give_json(cJSON *v, char **json, size_t *len, mcphost_error *err) {
  char *text = v ? cJSON_PrintUnformatted(v) : NULL;
  cJSON_Delete(v);
  if (!text) {
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  }
  *json = text;
  if (len) {
    *len = strlen(text);
  }
  return MCPHOST_OK;
}

/* The checks every function of this file makes first. */
static int check_call(const char *fn, mcphost_client *c, unsigned flags,
                      unsigned known, char **json, mcphost_error *err) {
  if (json) {
    *json = NULL;
  }
  if (!c || !json) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "%s: %s is NULL", fn,
                    c ? "json" : "the client");
  }
  if (flags & ~known) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "%s: unknown flags 0x%x", fn,
                    flags & ~known);
  }
  if (api_on_loop_thread(c)) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "%s waits for the loop: not from its thread (a "
                    "callback)",
                    fn);
  }
  return MCPHOST_OK;
}

/* ---- mcphost_plugins_json ---- */

typedef struct plugins_job {
  mcphost_client *c;
  cJSON *out;
} plugins_job;

/* Where dirs[i] of the search path came from (host_new's order). */
static const char *dir_origin(const registry *r, size_t i) {
  if (r->builtin == i + 1) {
    return "built-in";
  }
  return i < r->ngiven ? "plugin_dirs" : "MCPHOST_PLUGIN_PATH";
}

static void plugins_on_loop(void *ud) {
  plugins_job *j = ud;
  const registry *r = host_registry(j->c->h);
  cJSON *o = cJSON_CreateObject();
  cJSON *path = cJSON_AddArrayToObject(o, "searchPath");
  for (size_t i = 0; i < r->ndirs; i++) {
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "dir", r->dirs[i]);
    cJSON_AddStringToObject(d, "origin", dir_origin(r, i));
    char why[300];
    if (!plugin_dir_usable(r->dirs[i], why, sizeof why)) {
      cJSON_AddStringToObject(d, "missing", why);
    }
    cJSON_AddItemToArray(path, d);
  }
  cJSON *ps = cJSON_AddArrayToObject(o, "plugins");
  for (size_t i = 0; i < r->nplugins; i++) {
    cJSON_AddItemToArray(ps, plugin_record_json(r, r->plugins[i]));
  }
  /* The types the library serves itself: the last nbuiltin. */
  cJSON *bs = cJSON_AddArrayToObject(o, "builtin");
  for (size_t k = r->ntypes - r->nbuiltin; k < r->ntypes; k++) {
    const type_binding *tb = &r->types[k];
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", tb->type);
    cJSON_AddStringToObject(b, "id", tb->winner->id ? tb->winner->id : "");
    cJSON_AddStringToObject(b, "description",
                            tb->winner->description ? tb->winner->description
                                                    : "");
    cJSON_AddBoolToObject(b, "local", registry_type_is_local(r, tb->type));
    cJSON_AddItemToArray(bs, b);
  }
  j->out = o;
}

int mcphost_plugins_json(mcphost_client *c, unsigned flags, char **json,
                         size_t *len, mcphost_error *err) {
  api_clear_error(err);
  int rc = check_call("mcphost_plugins_json", c, flags, 0, json, err);
  if (rc != MCPHOST_OK) {
    return rc;
  }
  plugins_job j = {.c = c};
  if (api_run_on_loop(c, plugins_on_loop, &j) != 0) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_plugins_json: the client's loop has ended");
  }
  return give_json(j.out, json, len, err);
}

/* ---- mcphost_plugin_get, mcphost_plugin_type ---- */

typedef struct plugin_job {
  mcphost_client *c;
  size_t i, k;
  mcphost_plugin_info *info;
  const char **type, **shadowed_by;
  int rc;
} plugin_job;

/* Plugin i of mcphost_plugin_get's numbering: the files, then each
 * plugin record the library binds its own types to; NULL past them. */
static plugin *plugin_at(const registry *r, size_t i, bool *builtin) {
  *builtin = i >= r->nplugins;
  if (i < r->nplugins) {
    return r->plugins[i];
  }
  size_t k = i - r->nplugins;
  for (size_t t = r->ntypes - r->nbuiltin; t < r->ntypes; t++) {
    plugin *w = r->types[t].winner;
    bool seen = false;
    for (size_t u = r->ntypes - r->nbuiltin; u < t && !seen; u++) {
      seen = r->types[u].winner == w;
    }
    if (!seen && k-- == 0) {
      return w;
    }
  }
  return NULL;
}

static void plugin_get_on_loop(void *ud) {
  plugin_job *j = ud;
  const registry *r = host_registry(j->c->h);
  bool builtin;
  plugin *p = plugin_at(r, j->i, &builtin);
  if (!p) {
    j->rc = MCPHOST_ENOTFOUND;
    return;
  }
  mcphost_plugin_info v = {.struct_size = j->info->struct_size,
                           .file = p->path,
                           .loaded = p->loaded,
                           .id = p->id,
                           .name = p->name,
                           .version = p->version,
                           .description = p->description,
                           .abi_major = p->abi_major,
                           .abi_minor = p->abi_minor,
                           .error = p->error,
                           .builtin = builtin};
  /* A built-in transport has no entry to ask. */
  v.permission_decider = !builtin && plugin_offers(p, MCPH_EXT_PERMISSION);
  const char *source;
  if (!builtin && plugin_server_source(p, &source)) {
    v.server_source = source ? source : "";
  }
  for (const char *const *t = p->types; t && *t; t++) {
    v.ntypes++;
  }
  /* The fields the caller's size covers, and no byte more. */
  size_t n = j->info->struct_size < sizeof v ? j->info->struct_size : sizeof v;
  memcpy(j->info, &v, n);
  j->rc = MCPHOST_OK;
}

int mcphost_plugin_get(mcphost_client *c, size_t i, mcphost_plugin_info *info,
                       mcphost_error *err) {
  api_clear_error(err);
  if (!c || !info || !API_HAS(info, mcphost_plugin_info, file)) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "mcphost_plugin_get: %s",
                    !c ? "no client"
                       : "no info, or its struct_size is too small");
  }
  plugin_job j = {.c = c, .i = i, .info = info};
  if (api_on_loop_thread(c) || api_run_on_loop(c, plugin_get_on_loop, &j)) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_plugin_get: not from the loop's thread");
  }
  if (j.rc == MCPHOST_ENOTFOUND) {
    return api_fail(err, MCPHOST_ENOTFOUND, 0, NULL,
                    "mcphost_plugin_get: no plugin file %zu", i);
  }
  return j.rc;
}

static void plugin_type_on_loop(void *ud) {
  plugin_job *j = ud;
  const registry *r = host_registry(j->c->h);
  j->rc = MCPHOST_ENOTFOUND;
  bool builtin;
  const plugin *p = plugin_at(r, j->i, &builtin);
  if (!p) {
    return;
  }
  size_t k = 0;
  for (const char *const *t = p->types; t && *t; t++, k++) {
    if (k == j->k) {
      const type_binding *tb = registry_find_type(r, *t);
      *j->type = *t;
      *j->shadowed_by = tb && tb->winner != p ? tb->winner->path : NULL;
      j->rc = MCPHOST_OK;
      return;
    }
  }
}

int mcphost_plugin_type(mcphost_client *c, size_t i, size_t k,
                        const char **type, const char **shadowed_by,
                        mcphost_error *err) {
  api_clear_error(err);
  if (!c || !type || !shadowed_by) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "mcphost_plugin_type: %s",
                    !c ? "no client" : "type and shadowed_by are needed");
  }
  plugin_job j = {
      .c = c, .i = i, .k = k, .type = type, .shadowed_by = shadowed_by};
  if (api_on_loop_thread(c) || api_run_on_loop(c, plugin_type_on_loop, &j)) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_plugin_type: not from the loop's thread");
  }
  if (j.rc == MCPHOST_ENOTFOUND) {
    return api_fail(err, MCPHOST_ENOTFOUND, 0, NULL,
                    "mcphost_plugin_type: no type %zu of plugin file %zu", k,
                    i);
  }
  return j.rc;
}

typedef struct dir_job {
  mcphost_client *c;
  size_t i;
  const char **dir, **origin;
  char *missing;
  size_t missing_len;
  int rc;
} dir_job;

static void plugin_dir_on_loop(void *ud) {
  dir_job *j = ud;
  const registry *r = host_registry(j->c->h);
  if (j->i >= r->ndirs) {
    j->rc = MCPHOST_ENOTFOUND;
    return;
  }
  *j->dir = r->dirs[j->i];
  *j->origin = dir_origin(r, j->i);
  j->rc = MCPHOST_OK;
}

int mcphost_plugin_dir(mcphost_client *c, size_t i, const char **dir,
                       const char **origin, char *missing, size_t missing_len,
                       mcphost_error *err) {
  api_clear_error(err);
  if (!c || !dir || !origin) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "mcphost_plugin_dir: %s",
                    !c ? "no client" : "dir and origin are needed");
  }
  dir_job j = {.c = c, .i = i, .dir = dir, .origin = origin};
  if (api_on_loop_thread(c) || api_run_on_loop(c, plugin_dir_on_loop, &j)) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_plugin_dir: not from the loop's thread");
  }
  if (j.rc == MCPHOST_ENOTFOUND) {
    return api_fail(err, MCPHOST_ENOTFOUND, 0, NULL,
                    "mcphost_plugin_dir: no directory %zu", i);
  }
  if (missing && missing_len) {
    /* The directory strings live as long as the client: read here. */
    missing[0] = '\0';
    plugin_dir_usable(*dir, missing, missing_len);
  }
  return MCPHOST_OK;
}

/* ---- the commands plugins add ---- */

/* A loaded plugin's command extension, or NULL (a deferred plugin is
 * initialized to give it). */
static const mcph_commands *commands_of(plugin *p) {
  const mcph_commands *cs = plugin_extension(p, MCPH_EXT_COMMAND);
  if (!cs || !MCPH_HAS(cs, mcph_commands, count) || !cs->commands ||
      cs->count == 0 || !MCPH_HAS(&cs->commands[0], mcph_command, interrupt)) {
    return NULL;
  }
  return cs;
}

/* Element k: the array's stride is the plugin's sizeof(mcph_command). */
static const mcph_command *command_at(const mcph_commands *cs, size_t k) {
  return (const mcph_command *)((const char *)cs->commands +
                                k * cs->commands[0].struct_size);
}

/* The command `name` and its plugin, or NULL. A deferred plugin that
 * does not list the name stays asleep. */
static const mcph_command *find_command(const registry *r, const char *name,
                                        plugin **owner) {
  for (size_t i = 0; i < r->nplugins; i++) {
    plugin *p = r->plugins[i];
    const mcph_commands *cs =
        plugin_may_offer_command(p, name) ? commands_of(p) : NULL;
    for (size_t k = 0; cs && k < cs->count; k++) {
      const mcph_command *cmd = command_at(cs, k);
      if (cmd->name && strcmp(cmd->name, name) == 0 && cmd->start) {
        *owner = p;
        return cmd;
      }
    }
  }
  return NULL;
}

typedef struct commands_job {
  mcphost_client *c;
  unsigned flags;
  cJSON *out;
} commands_job;

static void add_command(cJSON *a, const char *name, const mcph_command *cmd) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  if (cmd) {
    cJSON_AddStringToObject(o, "usage", cmd->usage ? cmd->usage : "");
    cJSON_AddStringToObject(o, "help", cmd->help ? cmd->help : "");
  }
  cJSON_AddItemToArray(a, o);
}

static void commands_on_loop(void *ud) {
  commands_job *j = ud;
  const registry *r = host_registry(j->c->h);
  bool help = j->flags & MCPHOST_COMMANDS_HELP;
  j->out = cJSON_CreateArray();
  for (size_t i = 0; i < r->nplugins; i++) {
    plugin *p = r->plugins[i];
    if (!p->loaded) {
      continue;
    }
    /* A deferred plugin's list says its names without waking it. */
    const mcph_provides *pr = p->provides;
    if (!help && !p->initialized && pr &&
        MCPH_HAS(pr, mcph_provides, commands) && pr->commands) {
      for (const char *const *k = pr->commands; *k; k++) {
        add_command(j->out, *k, NULL);
      }
      continue;
    }
    const mcph_commands *cs = commands_of(p);
    for (size_t k = 0; cs && k < cs->count; k++) {
      const mcph_command *cmd = command_at(cs, k);
      if (cmd->name) {
        add_command(j->out, cmd->name, help ? cmd : NULL);
      }
    }
  }
}

int mcphost_commands_json(mcphost_client *c, unsigned flags, char **json,
                          size_t *len, mcphost_error *err) {
  api_clear_error(err);
  int rc = check_call("mcphost_commands_json", c, flags, MCPHOST_COMMANDS_HELP,
                      json, err);
  if (rc != MCPHOST_OK) {
    return rc;
  }
  commands_job j = {.c = c, .flags = flags};
  if (api_run_on_loop(c, commands_on_loop, &j) != 0) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_commands_json: the client's loop has ended");
  }
  return give_json(j.out, json, len, err);
}

/* The names of every command, for "did you mean"; new array of borrowed
 * strings (the plugins'), *n of them. */
static const char **command_names(const registry *r, size_t *n) {
  const char **names = NULL;
  *n = 0;
  for (size_t i = 0; i < r->nplugins; i++) {
    plugin *p = r->plugins[i];
    const mcph_provides *pr = p->provides;
    if (p->loaded && !p->initialized && pr &&
        MCPH_HAS(pr, mcph_provides, commands) && pr->commands) {
      for (const char *const *k = pr->commands; *k; k++) {
        names = xrealloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = *k;
      }
      continue;
    }
    const mcph_commands *cs = p->loaded ? commands_of(p) : NULL;
    for (size_t k = 0; cs && k < cs->count; k++) {
      if (command_at(cs, k)->name) {
        names = xrealloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = command_at(cs, k)->name;
      }
    }
  }
  return names;
}

/* MCPHOST_ENOTFOUND for the command `name`, with the closest names. */
static int command_not_found(mcphost_error *err, const registry *r,
                             const char *name) {
  size_t n;
  const char **names = command_names(r, &n);
  strbuf hint;
  sb_init(&hint);
  mcp_suggest(&hint, name, names, n);
  api_fail(err, MCPHOST_ENOTFOUND, 0, NULL,
           "no plugin offers the command \"%s\"%s", name, sb_str(&hint));
  sb_free(&hint);
  free(names);
  return MCPHOST_ENOTFOUND;
}

typedef struct info_job {
  mcphost_client *c;
  const char *name;
  mcphost_error *err;
  cJSON *out;
} info_job;

static void info_on_loop(void *ud) {
  info_job *j = ud;
  const registry *r = host_registry(j->c->h);
  plugin *p;
  const mcph_command *cmd = find_command(r, j->name, &p);
  if (!cmd) {
    command_not_found(j->err, r, j->name);
    return;
  }
  cJSON *a = cJSON_CreateArray();
  add_command(a, cmd->name, cmd);
  j->out = cJSON_DetachItemFromArray(a, 0);
  cJSON_Delete(a);
}

int mcphost_command_info(mcphost_client *c, const char *name, char **json,
                         size_t *len, mcphost_error *err) {
  api_clear_error(err);
  int rc = check_call("mcphost_command_info", c, 0, 0, json, err);
  if (rc == MCPHOST_OK && (!name || !*name)) {
    rc = api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                  "mcphost_command_info: no command name");
  }
  if (rc != MCPHOST_OK) {
    return rc;
  }
  mcphost_error own = MCPHOST_ERROR_INIT;
  info_job j = {.c = c, .name = name, .err = err ? err : &own};
  if (api_run_on_loop(c, info_on_loop, &j) != 0) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_command_info: the client's loop has ended");
  }
  return j.out ? give_json(j.out, json, len, err) : j.err->code;
}

/* How long a command may take to finish once interrupted. */
#define INTERRUPT_GRACE_MS 2000

/* One mcphost_command_run, on its caller's stack: the loop reaches it
 * through c->command and the run's on_finish until it is complete. */
typedef struct api_command {
  mcphost_client *c;
  const mcphost_command *cmd;
  plugin *p;
  const mcph_command *def;
  mcph_run *run;
  loop_timer *grace;
  bool interrupted;
  int status;      /* an MCPHOST_* code, once complete */
  int exit_status; /* the command's, with MCPHOST_OK */
  mcphost_error *err;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  bool complete;
} api_command;

/* On the loop: the run ends for its caller (a finish after this goes to
 * the run alone). */
static void command_complete(api_command *s, int status) {
  if (s->grace) {
    loop_timer_cancel(host_loop(s->c->h), s->grace);
    s->grace = NULL;
  }
  if (s->run) {
    s->run->on_finish = NULL;
  }
  if (s->c->command == s) {
    s->c->command = NULL;
  }
  if (status == MCPHOST_ECANCELED) {
    api_fail(s->err, status, 0, NULL, "%s: interrupted", s->cmd->name);
  }
  pthread_mutex_lock(&s->lock);
  s->status = status;
  s->complete = true;
  pthread_cond_signal(&s->cond);
  pthread_mutex_unlock(&s->lock);
}

static void command_finished(void *ud) {
  api_command *s = ud;
  s->exit_status = s->run->rc;
  command_complete(s, s->interrupted ? MCPHOST_ECANCELED : MCPHOST_OK);
}

static void command_grace_over(void *ud) {
  api_command *s = ud;
  s->grace = NULL;
  command_complete(s, MCPHOST_ECANCELED);
}

static void command_start_on_loop(void *ud) {
  api_command *s = ud;
  mcphost_client *c = s->c;
  if (c->command) {
    api_fail(s->err, MCPHOST_ESTATE, 0, NULL,
             "%s: the plugin command %s runs on this client already",
             s->cmd->name, c->command->cmd->name);
    s->status = MCPHOST_ESTATE;
    s->complete = true;
    return;
  }
  s->def = find_command(host_registry(c->h), s->cmd->name, &s->p);
  if (!s->def) {
    s->status = command_not_found(s->err, host_registry(c->h), s->cmd->name);
    s->complete = true;
    return;
  }
  /* The words live as long as the run: a plugin that goes on after an
   * interrupt may still read them. */
  mcph_run *run = s->run = mcp_client_new_run(c->mc, s->p);
  run->words = xcalloc((size_t)s->cmd->argc + 1, sizeof *run->words);
  for (int i = 0; i < s->cmd->argc; i++) {
    run->words[i] = xstrdup(s->cmd->argv[i]);
  }
  run->on_finish = command_finished;
  run->ud = s;
  c->command = s;
  mcph_error e;
  mcph_error_init(&e);
  int json = API_HAS(s->cmd, mcphost_command, json) && s->cmd->json;
  int st = s->def->start(s->p->ctx, run, s->cmd->argc,
                         (const char *const *)run->words, json, &e);
  if (st != MCPH_OK && !s->complete) {
    run->on_finish = NULL;
    c->command = NULL;
    s->status = api_status_of_kind(mcp_error_kind_of_status(st));
    api_fail(s->err, s->status, 0, NULL, "%s",
             e.message[0] ? e.message : "the command failed to start");
    s->complete = true;
  }
}

/* On the loop: the plugin's interrupt, and its grace to finish; without
 * an interrupt the run is given up at once. */
static void command_interrupt_on_loop(void *ud) {
  mcphost_client *c = ud;
  api_command *s = c->command;
  if (!s || s->complete) {
    return;
  }
  if (s->interrupted || !s->def->interrupt) {
    command_complete(s, MCPHOST_ECANCELED);
    return;
  }
  s->interrupted = true;
  s->grace = loop_timer_start(host_loop(c->h), INTERRUPT_GRACE_MS,
                              command_grace_over, s);
  s->def->interrupt(s->p->ctx, s->run);
}

int mcphost_command_run(mcphost_client *c, const mcphost_command *cmd,
                        int *exit_status, mcphost_error *err) {
  api_clear_error(err);
  if (exit_status) {
    *exit_status = 0;
  }
  const char *bad = !c ? "no client"
                    : !cmd || !API_HAS(cmd, mcphost_command, argv)
                        ? "no command, or its struct_size is too small"
                    : !cmd->name || !*cmd->name ? "the command has no name"
                    : cmd->argc < 1 || !cmd->argv
                        ? "argc must be 1 or more, with argv"
                        : NULL;
  if (bad) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "mcphost_command_run: %s",
                    bad);
  }
  for (int i = 0; i < cmd->argc; i++) {
    if (!cmd->argv[i]) {
      return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                      "mcphost_command_run: %s: argv[%d] is NULL", cmd->name,
                      i);
    }
  }
  if (api_on_loop_thread(c)) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_command_run waits for the loop: not from its "
                    "thread (a callback)");
  }
  mcphost_error own = MCPHOST_ERROR_INIT;
  api_command s = {.c = c, .cmd = cmd, .err = err ? err : &own};
  pthread_mutex_init(&s.lock, NULL);
  pthread_cond_init(&s.cond, NULL);
  if (api_run_on_loop(c, command_start_on_loop, &s) != 0) {
    s.status = api_fail(err, MCPHOST_ESTATE, 0, NULL,
                        "mcphost_command_run: the client's loop has ended");
    s.complete = true;
  }
  if (c->mode == MCPHOST_LOOP_CALLER) {
    /* The loop is this thread's: a signal the host takes (the CLI's
     * Ctrl-C) interrupts as mcphost_command_interrupt does. */
    host *h = c->h;
    while (!s.complete) {
      if (host_interrupted(h)) {
        if (!s.interrupted && s.def->interrupt) {
          host_clear_interrupt(h);
        }
        command_interrupt_on_loop(c);
        continue;
      }
      loop_run_once(host_loop(h), -1);
    }
  } else {
    pthread_mutex_lock(&s.lock);
    while (!s.complete) {
      pthread_cond_wait(&s.cond, &s.lock);
    }
    pthread_mutex_unlock(&s.lock);
  }
  pthread_cond_destroy(&s.cond);
  pthread_mutex_destroy(&s.lock);
  if (s.status == MCPHOST_OK && exit_status) {
    *exit_status = s.exit_status;
  }
  return s.status;
}

void mcphost_command_interrupt(mcphost_client *c) {
  if (c) {
    loop_post(host_loop(c->h), command_interrupt_on_loop, c);
  }
}
