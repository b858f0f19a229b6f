/* The client API for a front end (sdk/include/mcphost/client.h, "a front
 * end"): the options of its command line, the configuration loaded once
 * they are set (mcphost_options.defer_config), and its own file
 * descriptors and timers on the client's loop. The mcphost executable is
 * such a front end: it loads its plugins, then parses its command line
 * (the plugins declare options of their own), then loads the
 * configuration. */
#include <mcphost/client.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "config/config_scopes.h"
#include "config/era_policy.h"
#include "config/roots.h"
#include "core/host.h"
#include "core/host_config.h"
#include "core/loop.h"
#include "env_ms.h"
#include "json_parse.h"
#include "mcp/client.h"
#include "mcp/log_level.h"
#include "safety/sanitize.h"
#include "size_limits.h"
#include "util.h"

/* ---- the configuration ---- */

int api_config_check(host *h, const config_sources *src, cJSON ***docs,
                     mcphost_error *err) {
  if (docs)
    *docs = NULL;
  strbuf why;
  sb_init(&why);
  if (h && src->url_type && src->nurls &&
      !registry_find_type(host_registry(h), src->url_type)) {
    const registry *r = host_registry(h);
    sb_printf(&why,
              "--transport \"%s\": no plugin serves this transport type "
              "(known: ",
              src->url_type);
    for (size_t i = 0; i < r->ntypes; i++)
      sb_printf(&why, "%s%s", i ? ", " : "", r->types[i].type);
    sb_printf(&why, "%s)", r->ntypes ? "" : "none");
  } else {
    config tmp;
    config_init(&tmp);
    config_check_dynamic(&tmp, src, docs);
    size_t nerrors = tmp.nerrors;
    for (size_t i = 0; i < nerrors; i++)
      sb_printf(&why, "%sconfig error: %s", i ? "\n" : "", tmp.errors[i]);
    config_free(&tmp); /* it zeroes the counts: read before */
    if (docs && nerrors) {
      config_docs_free(*docs, src->nmcp_configs);
      *docs = NULL;
    }
  }
  int rc = MCPHOST_OK;
  if (why.len)
    rc = api_fail(err, MCPHOST_EUSAGE, 0, NULL, "%s", sb_str(&why));
  sb_free(&why);
  return rc;
}

void api_config_load(mcphost_client *c, const config_sources *src) {
  c->src = *src;
  const char *approve = getenv("MCPHOST_APPROVE_PROJECT_SERVERS");
  if (approve && strcmp(approve, "1") == 0)
    c->src.approve_project = true;
  config_sources with = host_config_with_plugin_sources(c->h, &c->src);
  config *cfg = host_cfg_edit(c->h);
  config_load_scopes(cfg, &with);
  /* Read again on a reload: the check's documents were for this load. */
  c->src.mcp_docs = NULL;
  with.mcp_docs = NULL;
  /* Kept, so mcph.host.config/1 can read them again; a reload runs the
   * hook and reports as this first load does. */
  host_set_config_sources(c->h, &with, api_config_loaded, c);
  api_config_loaded(c, cfg);
  host_config_report(c->h);
  c->nconfig_errors = cfg->nerrors;
  c->config_loaded = true;
}

int mcphost_load_config(mcphost_client *c, const mcphost_config_sources *s,
                        mcphost_error *err) {
  api_clear_error(err);
  if (!c || !s)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_load_config needs a client and its sources");
  int rc = api_sources_check(s, err);
  if (rc != MCPHOST_OK)
    return rc;
  /* Checked before anything is kept; when loaded already, all the same:
   * a front end that shares a loaded client (a session) still refuses a
   * command line's bad sources. */
  config_sources given = {.server_specs = s->server_specs,
                          .nserver_specs = s->nserver_specs,
                          .urls = s->urls,
                          .nurls = s->nurls,
                          .url_type = s->url_type,
                          .mcp_configs = s->configs,
                          .nmcp_configs = s->nconfigs};
  cJSON **docs = NULL;
  rc = s->no_check ? MCPHOST_OK : api_config_check(c->h, &given, &docs, err);
  if (rc != MCPHOST_OK)
    return rc;
  if (c->config_loaded) {
    config_docs_free(docs, s->nconfigs);
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's configuration is loaded already");
  }
  c->bind_approvals =
      API_HAS(s, mcphost_config_sources, bind_approvals) && s->bind_approvals;
  /* Copied: the host keeps the sources to read them again. */
  api_free_strings(c->configs);
  c->configs = api_copy_strings(s->configs, s->nconfigs);
  c->specs = api_copy_strings(s->server_specs, s->nserver_specs);
  c->urls = api_copy_strings(s->urls, s->nurls);
  c->url_type = s->url_type ? xstrdup(s->url_type) : NULL;
  config_sources src = {.server_specs = (const char *const *)c->specs,
                        .nserver_specs = s->nserver_specs,
                        .urls = (const char *const *)c->urls,
                        .nurls = s->nurls,
                        .url_type = c->url_type,
                        .mcp_configs = (const char *const *)c->configs,
                        .nmcp_configs = s->nconfigs,
                        .mcp_docs = docs,
                        .strict = s->strict != 0,
                        .approve_project = s->approve_project != 0,
                        .no_inproc = s->no_inproc != 0};
  api_config_load(c, &src);
  config_docs_free(docs, s->nconfigs);
  return api_client_start(c, err);
}

size_t mcphost_config_errors(const mcphost_client *c) {
  return c ? c->nconfig_errors : 0;
}

/* ---- options ---- */

typedef struct option_job {
  mcphost_client *c;
  const char *name, *value;
  mcphost_error *err;
  int rc;
} option_job;

/* The client's settings with one changed (the MCP client copies the
 * struct and borrows its strings: they are the api client's). */
static void set_client(mcphost_client *c, mcp_client_options o) {
  o.protocol = c->protocol;
  o.log_level = c->log_level;
  o.root_dirs = (const char *const *)c->roots;
  o.nroot_dirs = c->nroots;
  mcp_client_set_options(c->mc, &o);
}

static int bad_value(option_job *j, const char *fmt) {
  return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL, fmt, j->value);
}

static int set_timeout(option_job *j, mcp_client_options *o) {
  uint64_t ms;
  if (!j->value || !ms_parse(j->value, false, &ms))
    return bad_value(j, "--timeout needs a positive number of milliseconds, "
                        "not \"%s\"");
  o->connect_timeout_ms = o->request_timeout_ms = o->tool_timeout_ms = ms;
  o->tool_timeout_total = o->request_timeout_total = true;
  j->c->ask_timeout_ms = ms;
  return MCPHOST_OK;
}

/* "connect-timeout", "request-timeout", "tool-timeout": MS a hard total
 * (connect's has no progress to restart it); NULL the default, restarted
 * at each progress notification. */
static int set_deadline(option_job *j, uint64_t *ms, bool *total,
                        uint64_t fallback) {
  if (!j->value && total) {
    *ms = fallback;
    *total = false;
    return MCPHOST_OK;
  }
  if (!j->value || !ms_parse(j->value, false, ms))
    return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL,
                    "option \"%s\" needs a positive number of "
                    "milliseconds, not \"%s\"",
                    j->name, j->value ? j->value : "");
  if (total)
    *total = true;
  return MCPHOST_OK;
}

/* A number option: ms_parse's digits, from `min` to `max`. */
static int set_number(option_job *j, uint64_t min, uint64_t max,
                      uint64_t *out) {
  uint64_t n;
  if (j->value && ms_parse(j->value, true, &n) && n >= min && n <= max) {
    *out = n;
    return MCPHOST_OK;
  }
  char range[64] = "";
  if (max != UINT64_MAX)
    snprintf(range, sizeof range, " from %llu to %llu", (unsigned long long)min,
             (unsigned long long)max);
  return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL,
                  "option \"%s\" needs a whole number%s, not \"%s\"", j->name,
                  range, j->value ? j->value : "");
}

/* A flag: NULL or "1" sets it, "0" clears it. */
static int set_flag(option_job *j, bool *flag) {
  const char *v = j->value;
  if (v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
    return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL,
                    "option \"%s\" takes no value, 1 or 0; not \"%s\"", j->name,
                    v);
  *flag = !v || v[0] == '1';
  return MCPHOST_OK;
}

static int set_log_level(option_job *j) {
  if (!j->value) {
    free(j->c->log_level);
    j->c->log_level = NULL;
    return MCPHOST_OK;
  }
  if (mcp_log_level_rank(j->value) >= 0) {
    free(j->c->log_level);
    j->c->log_level = xstrdup(j->value);
    return MCPHOST_OK;
  }
  strbuf names;
  sb_init(&names);
  for (int i = 0; i < MCP_LOG_LEVELS; i++)
    sb_printf(&names, "%s%s", i ? ", " : "", mcp_log_level_name(i));
  api_fail(j->err, MCPHOST_EUSAGE, 0, NULL,
           "--log-level must be one of %s; not \"%s\"", sb_str(&names),
           j->value ? j->value : "");
  sb_free(&names);
  return MCPHOST_EUSAGE;
}

static int add_root(option_job *j, const mcp_client_options *o) {
  mcphost_client *c = j->c;
  if (!j->value) {
    for (size_t i = 0; i < c->nroots; i++)
      free(c->roots[i]);
    free(c->roots);
    c->roots = NULL;
    c->nroots = 0;
    return MCPHOST_OK;
  }
  if (o->no_roots)
    return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL,
                    "--root and --no-roots exclude each other");
  char why[600];
  char *dir = roots_resolve_dir(host_path(c->h, MCPH_PATH_CWD), j->value, why,
                                sizeof why);
  if (!dir)
    return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL, "--root %s: %s", j->value,
                    why);
  c->roots = xrealloc(c->roots, (c->nroots + 2) * sizeof *c->roots);
  c->roots[c->nroots++] = dir;
  c->roots[c->nroots] = NULL;
  return MCPHOST_OK;
}

/* An option a loaded plugin declares, by name: its declaration. */
static const mcph_option *plugin_option_named(host *h, const char *name) {
  const registry *r = host_registry(h);
  for (size_t i = 0; i < r->nplugins; i++) {
    const mcph_options *o = plugin_options(r->plugins[i]);
    for (size_t k = 0; o && k < o->count; k++) {
      const mcph_option *d = mcph_options_at(o, k);
      if (d->name && strcmp(d->name, name) == 0)
        return d;
    }
  }
  return NULL;
}

static int set_option(option_job *j) {
  mcphost_client *c = j->c;
  const char *n = j->name, *v = j->value;
  mcp_client_options o = *mcp_client_get_options(c->mc);
  int rc = MCPHOST_OK;
  if (strcmp(n, "timeout") == 0) {
    rc = set_timeout(j, &o);
  } else if (strcmp(n, "connect-timeout") == 0) {
    rc = set_deadline(j, &o.connect_timeout_ms, NULL, 0);
  } else if (strcmp(n, "request-timeout") == 0) {
    rc = set_deadline(j, &o.request_timeout_ms, &o.request_timeout_total,
                      MCP_REQUEST_TIMEOUT_MS);
  } else if (strcmp(n, "tool-timeout") == 0) {
    rc = set_deadline(j, &o.tool_timeout_ms, &o.tool_timeout_total,
                      MCP_TOOL_TIMEOUT_MS);
  } else if (strcmp(n, "server-exit") == 0) {
    rc = set_number(j, 0, UINT64_MAX, &o.server_exit_ms);
  } else if (strcmp(n, "list-cache-ttl") == 0) {
    rc = set_number(j, 0, UINT64_MAX, &o.list_cache_ttl_ms);
  } else if (strcmp(n, "name-chars") == 0) {
    uint64_t chars = 0;
    rc = set_number(j, LIMIT_NAME_CHARS_MIN, LIMIT_NAME_CHARS_MAX, &chars);
    o.name_chars = rc == MCPHOST_OK ? (size_t)chars : o.name_chars;
  } else if (strcmp(n, "protocol") == 0) {
    era_policy pol;
    if (v && !era_policy_parse(v, &pol))
      return bad_value(j, "--protocol must be auto, modern or legacy; not "
                          "\"%s\"");
    free(c->protocol);
    c->protocol = v ? xstrdup(v) : NULL;
  } else if (strcmp(n, "log-level") == 0) {
    rc = set_log_level(j);
  } else if (strcmp(n, "root") == 0) {
    rc = add_root(j, &o);
  } else if (strcmp(n, "no-roots") == 0) {
    rc = set_flag(j, &o.no_roots);
    if (rc == MCPHOST_OK && o.no_roots && c->nroots)
      return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL,
                      "--root and --no-roots exclude each other");
  } else if (strcmp(n, "sanitize") == 0) {
    sanitize_mode mode;
    if (!v || !sanitize_mode_parse(v, &mode))
      return bad_value(j, "--sanitize must be full, display or off; not "
                          "\"%s\"");
    host_set_sanitize(c->h, mode);
    return MCPHOST_OK;
  } else if (strcmp(n, "verbose") == 0) {
    if (!v || v[0] < '0' || v[0] > '3' || v[1])
      return bad_value(j, "--verbose must be 0, 1, 2 or 3; not \"%s\"");
    host_set_verbosity(c->h, v[0] - '0');
    return MCPHOST_OK;
  } else if (strcmp(n, "quiet") == 0) {
    /* "0" turns it off again: a session's next command without -q. */
    if (v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
      return bad_value(j, "quiet must be 1, 0 or no value (on); not \"%s\"");
    host_set_quiet(c->h, !v || v[0] == '1');
    return MCPHOST_OK;
  } else if (strcmp(n, "allow") == 0) {
    return api_set_allow(c, v, j->err);
  } else if (strcmp(n, "ask-timeout") == 0) {
    return api_set_ask_timeout(c, v, j->err);
  } else if (strcmp(n, "capabilities") == 0) {
    /* Alone too: what a new connection declares beside the library's. */
    cJSON *caps = v ? json_parse(v, strlen(v), NULL) : NULL;
    if (v && !cJSON_IsObject(caps)) {
      cJSON_Delete(caps);
      return bad_value(j, "capabilities must be a JSON object; not \"%s\"");
    }
    o.capabilities = caps;
    mcp_client_set_options(c->mc, &o);
    cJSON_Delete(c->capabilities);
    c->capabilities = caps;
    return MCPHOST_OK;
  } else if (strcmp(n, "keep") == 0) {
    /* Alone, not through set_client: a front end that gives the MCP
     * client its roots and protocol itself keeps them. */
    rc = set_flag(j, &o.keep);
    if (rc == MCPHOST_OK)
      mcp_client_set_options(c->mc, &o);
    return rc;
  } else {
    const mcph_option *d = plugin_option_named(c->h, n);
    if (!d)
      return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL,
                      "no option named \"%s\" (neither the library's nor "
                      "a loaded plugin's)",
                      n);
    if (d->arg && !v)
      return api_fail(j->err, MCPHOST_EUSAGE, 0, NULL,
                      "option \"%s\" needs a value", n);
    host_set_plugin_option(c->h, n, d->arg ? v : NULL);
    return MCPHOST_OK;
  }
  if (rc == MCPHOST_OK)
    set_client(c, o);
  return rc;
}

static void option_on_loop(void *ud) {
  option_job *j = ud;
  j->rc = set_option(j);
}

int mcphost_set_option(mcphost_client *c, const char *name, const char *value,
                       mcphost_error *err) {
  api_clear_error(err);
  if (!c || !name || !*name)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_set_option needs a client and a name");
  option_job j = {.c = c, .name = name, .value = value, .err = err};
  if (api_run_on_loop(c, option_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  return j.rc;
}

typedef struct get_option_job {
  mcphost_client *c;
  const char *name;
  int64_t value;
  int rc;
} get_option_job;

static void get_option_on_loop(void *ud) {
  get_option_job *j = ud;
  host *h = j->c->h;
  const mcp_client_options *o = mcp_client_get_options(j->c->mc);
  const char *n = j->name;
  j->rc = MCPHOST_OK;
  if (strcmp(n, "sanitize") == 0)
    j->value = (int64_t)host_sanitize(h);
  else if (strcmp(n, "verbose") == 0)
    j->value = host_verbosity(h);
  else if (strcmp(n, "quiet") == 0)
    j->value = host_quiet(h);
  else if (strcmp(n, "no-roots") == 0)
    j->value = o->no_roots;
  else if (strcmp(n, "keep") == 0)
    j->value = o->keep;
  else if (strcmp(n, "timeout") == 0 || strcmp(n, "tool-timeout") == 0)
    j->value = (int64_t)o->tool_timeout_ms;
  else if (strcmp(n, "connect-timeout") == 0)
    j->value = (int64_t)o->connect_timeout_ms;
  else if (strcmp(n, "request-timeout") == 0)
    j->value = (int64_t)o->request_timeout_ms;
  else if (strcmp(n, "server-exit") == 0)
    j->value = (int64_t)o->server_exit_ms;
  else if (strcmp(n, "list-cache-ttl") == 0)
    j->value = (int64_t)o->list_cache_ttl_ms;
  else if (strcmp(n, "name-chars") == 0)
    j->value = (int64_t)o->name_chars;
  else
    j->rc = MCPHOST_ENOTFOUND;
}

int mcphost_get_option(mcphost_client *c, const char *name, int64_t *value,
                       mcphost_error *err) {
  api_clear_error(err);
  if (!c || !name || !value)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_get_option needs a client, a name and a place "
                    "for the value");
  get_option_job j = {.c = c, .name = name};
  if (api_run_on_loop(c, get_option_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  if (j.rc != MCPHOST_OK)
    return api_fail(err, j.rc, 0, NULL,
                    "no option \"%s\" to read (those read are sanitize, "
                    "verbose, quiet, no-roots, keep, timeout, "
                    "connect-timeout, request-timeout, tool-timeout, "
                    "server-exit, list-cache-ttl and name-chars)",
                    name);
  *value = j.value;
  return MCPHOST_OK;
}

int mcphost_plugin_option(const mcphost_client *c, size_t i,
                          mcphost_option_info *out) {
  if (!c || !out || !API_HAS(out, mcphost_option_info, plugin))
    return MCPHOST_EUSAGE;
  if (!c->popts_read) {
    /* Read once: the plugins are loaded with the client, for its life. */
    mcphost_client *w = (mcphost_client *)c;
    const registry *r = host_registry(c->h);
    for (size_t p = 0; p < r->nplugins; p++) {
      const mcph_options *o = plugin_options(r->plugins[p]);
      for (size_t k = 0; o && k < o->count; k++) {
        const mcph_option *d = mcph_options_at(o, k);
        w->popts = xrealloc(w->popts, (w->npopts + 1) * sizeof *w->popts);
        w->popts[w->npopts++] =
            (mcphost_option_info){.struct_size = sizeof(mcphost_option_info),
                                  .name = d->name,
                                  .arg = d->arg,
                                  .help = d->help,
                                  .plugin = r->plugins[p]->id};
      }
    }
    w->popts_read = true;
  }
  if (i >= c->npopts)
    return MCPHOST_ENOTFOUND;
  const mcphost_option_info *d = &c->popts[i];
  out->name = d->name;
  out->arg = d->arg;
  out->help = d->help;
  out->plugin = d->plugin;
  return MCPHOST_OK;
}

void api_frontend_free(mcphost_client *c) {
  api_shell_free(c);
  api_free_strings(c->allow);
  free(c->popts);
  api_free_strings(c->specs);
  api_free_strings(c->urls);
  free(c->url_type);
  cJSON_Delete(c->capabilities);
  free(c->protocol);
  free(c->log_level);
  for (size_t i = 0; i < c->nroots; i++)
    free(c->roots[i]);
  free(c->roots);
}

/* ---- the loop: the front end's own descriptors and timers ---- */

_Static_assert((int)MCPHOST_FD_READ == (int)LOOP_READ &&
                   (int)MCPHOST_FD_WRITE == (int)LOOP_WRITE &&
                   (int)MCPHOST_FD_ERROR == (int)LOOP_ERROR &&
                   (int)MCPHOST_FD_HUP == (int)LOOP_HUP,
               "the public events are the loop's");

int mcphost_watch_fd(mcphost_client *c, int fd, unsigned events,
                     mcphost_fd_fn fn, void *ud, mcphost_watch **out,
                     mcphost_error *err) {
  api_clear_error(err);
  if (out)
    *out = NULL;
  if (!c || fd < 0 || !fn || !out)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_watch_fd needs a client, a descriptor, a "
                    "callback and a place for the watch");
  loop_watch *w = NULL;
  if (loop_watch_fd(host_loop(c->h), fd, events, fn, ud, &w) != 0)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "descriptor %d cannot be watched (a regular file, or "
                    "watched already)",
                    fd);
  *out = (mcphost_watch *)w;
  return MCPHOST_OK;
}

int mcphost_watch_update(mcphost_client *c, mcphost_watch *w, unsigned events,
                         mcphost_error *err) {
  api_clear_error(err);
  if (!c || !w)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_watch_update needs a client and a watch");
  if (loop_watch_update(host_loop(c->h), (loop_watch *)w, events) != 0)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "the watch cannot wait for these events");
  return MCPHOST_OK;
}

void mcphost_unwatch(mcphost_client *c, mcphost_watch *w) {
  if (c && w)
    loop_unwatch(host_loop(c->h), (loop_watch *)w);
}

mcphost_timer *mcphost_timer_start(mcphost_client *c, uint64_t delay_ms,
                                   mcphost_fn fn, void *ud) {
  if (!c || !fn)
    return NULL;
  return (mcphost_timer *)loop_timer_start(host_loop(c->h), delay_ms, fn, ud);
}

void mcphost_timer_cancel(mcphost_client *c, mcphost_timer *t) {
  if (c && t)
    loop_timer_cancel(host_loop(c->h), (loop_timer *)t);
}

int mcphost_post(mcphost_client *c, mcphost_fn fn, void *ud,
                 mcphost_error *err) {
  api_clear_error(err);
  if (!c || !fn)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_post needs a client and a function");
  if (loop_post(host_loop(c->h), fn, ud) != 0)
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  return MCPHOST_OK;
}

uint64_t mcphost_now_ms(void) {
  return loop_now_ms();
}

int mcphost_run_until(mcphost_client *c, const int *done,
                      uint64_t deadline_ms) {
  return api_run_loop(c, done, deadline_ms, false);
}
