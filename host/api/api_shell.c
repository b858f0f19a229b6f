/* The public API for an interactive front end (sdk/include/mcphost/
 * client.h, "an interactive front end"): the client's directories, the
 * loop run by the program (caught up at a prompt, or run until a signal
 * it passed on), the signal its exit reports, and its servers closed
 * before the client is freed; the configuration said again, or loaded
 * apart to be shown. What `mcphost shell`, the command line's start and
 * exit, its completion and batch use. */
#include <mcphost/client.h>

#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "config/config_scopes.h"
#include "config/roots.h"
#include "core/host.h"
#include "core/host_config.h"
#include "core/loop.h"
#include "json_write.h"
#include "util.h"

_Static_assert((int)MCPHOST_PATH_CWD == (int)MCPH_PATH_CWD &&
                   (int)MCPHOST_PATH_STATE == (int)MCPH_PATH_STATE &&
                   (int)MCPHOST_PATH_LOGS == (int)MCPH_PATH_LOGS &&
                   (int)MCPHOST_PATH_CACHE == (int)MCPH_PATH_CACHE,
               "the public paths are the plugin ABI's");

const char *mcphost_path(const mcphost_client *c, int which) {
  /* Set once, when the host is made: read from any thread. */
  return c ? host_path(c->h, which) : NULL;
}

int mcphost_root_resolve(const mcphost_client *c, const char *dir, char **abs,
                         mcphost_error *err) {
  api_clear_error(err);
  if (abs)
    *abs = NULL;
  if (!c || !dir || !abs)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_root_resolve needs a client, a directory and a "
                    "place for the path");
  char why[600];
  *abs =
      roots_resolve_dir(host_path(c->h, MCPH_PATH_CWD), dir, why, sizeof why);
  if (!*abs)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "--root %s: %s", dir, why);
  return MCPHOST_OK;
}

void mcphost_run_ready(mcphost_client *c) {
  if (!c || c->mode != MCPHOST_LOOP_CALLER)
    return;
  const mcphost_client *was = api_enter_loop(c);
  host_run_ready(c->h);
  api_leave_loop(was);
}

int api_run_loop(mcphost_client *c, const int *done, uint64_t deadline_ms,
                 bool interruptible) {
  if (!c || !done)
    return MCPHOST_EUSAGE;
  if (c->mode != MCPHOST_LOOP_CALLER)
    return MCPHOST_ESTATE;
  const mcphost_client *was = api_enter_loop(c);
  int rc = MCPHOST_OK;
  while (!*done) {
    if (interruptible && host_interrupted(c->h)) {
      rc = MCPHOST_ECANCELED;
      break;
    }
    int wait = -1;
    if (deadline_ms) {
      uint64_t now = loop_now_ms();
      if (now >= deadline_ms) {
        rc = MCPHOST_ETIMEDOUT;
        break;
      }
      wait =
          deadline_ms - now > INT32_MAX ? INT32_MAX : (int)(deadline_ms - now);
    }
    loop_run_once(host_loop(c->h), wait);
  }
  api_leave_loop(was);
  return rc;
}

int mcphost_run_interruptible(mcphost_client *c, const int *done,
                              uint64_t deadline_ms) {
  return api_run_loop(c, done, deadline_ms, true);
}

int mcphost_exit_signal(const mcphost_client *c) {
  return c ? host_signal_number(c->h) : 0;
}

void mcphost_interrupt_forget(mcphost_client *c) {
  if (c)
    host_forget_signal(c->h);
}

/* ---- the configuration, said again or loaded apart ---- */

void api_bind_approvals(mcphost_client *c, const config *cfg) {
  char why[1024];
  if (config_bind_approvals(cfg, &c->src, why, sizeof why) < 0)
    host_log_labeled(c->h, MCPH_LOG_WARN, "config warning", NULL,
                     "could not record what the approval binds: %s", why);
}

int api_sources_check(const mcphost_config_sources *s, mcphost_error *err) {
  if (!API_HAS(s, mcphost_config_sources, no_check))
    return api_fail(err, MCPHOST_EABI, 0, NULL,
                    "mcphost_config_sources.struct_size %u is too small",
                    (unsigned)s->struct_size);
  if ((s->nserver_specs && !s->server_specs) || (s->nurls && !s->urls) ||
      (s->nconfigs && !s->configs))
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_config_sources: a count without its array");
  return MCPHOST_OK;
}

void api_shell_free(mcphost_client *c) {
  api_free_strings(c->set_specs);
  api_free_strings(c->set_urls);
  api_free_strings(c->set_configs);
  free(c->set_url_type);
}

int mcphost_set_config_sources(mcphost_client *c,
                               const mcphost_config_sources *s,
                               mcphost_error *err) {
  api_clear_error(err);
  if (!c || !s)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_set_config_sources needs a client and its "
                    "sources");
  int rc = api_sources_check(s, err);
  if (rc != MCPHOST_OK)
    return rc;
  api_shell_free(c);
  c->set_specs = api_copy_strings(s->server_specs, s->nserver_specs);
  c->set_urls = api_copy_strings(s->urls, s->nurls);
  c->set_configs = api_copy_strings(s->configs, s->nconfigs);
  c->set_url_type = s->url_type ? xstrdup(s->url_type) : NULL;
  c->set_src =
      (config_sources){.server_specs = (const char *const *)c->set_specs,
                       .nserver_specs = s->nserver_specs,
                       .urls = (const char *const *)c->set_urls,
                       .nurls = s->nurls,
                       .url_type = c->set_url_type,
                       .mcp_configs = (const char *const *)c->set_configs,
                       .nmcp_configs = s->nconfigs,
                       .strict = s->strict != 0,
                       .approve_project = s->approve_project != 0,
                       .no_inproc = s->no_inproc != 0};
  c->sources = &c->set_src;
  return MCPHOST_OK;
}

typedef struct preview_job {
  mcphost_client *c;
  config_sources src;
  cJSON *out;
} preview_job;

static void preview_on_loop(void *ud) {
  preview_job *j = ud;
  config_sources with = host_config_with_plugin_sources(j->c->h, &j->src);
  config cfg;
  config_init(&cfg);
  config_load_scopes(&cfg, &with);
  for (size_t i = 0; i < cfg.nservers; i++) {
    const server_config *s = &cfg.servers[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", s->name);
    cJSON_AddStringToObject(o, "scope", config_server_scope(s));
    cJSON_AddStringToObject(o, "state", server_state_name(s));
    if (s->reason)
      cJSON_AddStringToObject(o, "reason", s->reason);
    if (s->state == SERVER_SKIPPED && s->winner)
      cJSON_AddStringToObject(o, "winner", s->winner);
    cJSON_AddItemToArray(j->out, o);
  }
  config_free(&cfg);
}

int mcphost_config_preview(mcphost_client *c, const mcphost_config_sources *s,
                           char **result_json, mcphost_error *err) {
  api_clear_error(err);
  if (result_json)
    *result_json = NULL;
  if (!c || !s || !result_json)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_config_preview needs a client, its sources and "
                    "a place for the result");
  int rc = api_sources_check(s, err);
  if (rc != MCPHOST_OK)
    return rc;
  const char *approve = getenv("MCPHOST_APPROVE_PROJECT_SERVERS");
  preview_job j = {
      .c = c,
      .src = {.server_specs = s->server_specs,
              .nserver_specs = s->nserver_specs,
              .urls = s->urls,
              .nurls = s->nurls,
              .url_type = s->url_type,
              .mcp_configs = s->configs,
              .nmcp_configs = s->nconfigs,
              .strict = s->strict != 0,
              .approve_project = s->approve_project != 0 ||
                                 (approve && strcmp(approve, "1") == 0),
              .no_inproc = s->no_inproc != 0},
      .out = cJSON_CreateArray()};
  if (api_run_on_loop(c, preview_on_loop, &j) != 0) {
    cJSON_Delete(j.out);
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  }
  *result_json = json_print(j.out);
  cJSON_Delete(j.out);
  if (!*result_json)
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "cannot write the result");
  return MCPHOST_OK;
}
