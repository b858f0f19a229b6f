/* The client API for a program that keeps one client for a long run of
 * tasks (sdk/include/mcphost/client.h, "a session"), as `mcphost
 * session` does: the files its configuration comes from, watched and
 * read again while no connection holds the old one, and its servers
 * closed before the program lets go of what others wait on. */
#include <mcphost/client.h>

#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "config/config_scopes.h"
#include "core/host_config.h"
#include "util.h"

typedef struct session_job {
  mcphost_client *c;
  mcphost_error *err;
  char *json;
  int rc;
} session_job;

static void add_path(cJSON *list, const char *path) {
  if (!path)
    return;
  const cJSON *f;
  cJSON_ArrayForEach(f, list) {
    if (strcmp(f->valuestring, path) == 0)
      return;
  }
  cJSON_AddItemToArray(list, cJSON_CreateString(path));
}

static void files_on_loop(void *ud) {
  session_job *j = ud;
  mcphost_client *c = j->c;
  if (!c->config_loaded) {
    j->rc = api_fail(j->err, MCPHOST_ESTATE, 0, NULL,
                     "the client's configuration is not loaded yet");
    return;
  }
  config_paths p;
  config_paths_init(&p, &c->src);
  cJSON *list = cJSON_CreateArray();
  add_path(list, p.user_settings);
  add_path(list, p.managed_mcp);
  add_path(list, p.managed_settings);
  for (size_t i = 0; i < p.nproject_files; i++)
    add_path(list, p.project_files[i]);
  /* The user's and the managed files again, then the configs given as
   * files (JSON text given is none). */
  for (size_t i = 0; i < p.nscope_files; i++)
    add_path(list, p.scope_files[i]);
  config_paths_free(&p);
  j->json = cJSON_PrintUnformatted(list);
  cJSON_Delete(list);
  j->rc = j->json ? MCPHOST_OK
                  : api_fail(j->err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
}

int mcphost_config_files(mcphost_client *c, char **json, size_t *len,
                         mcphost_error *err) {
  api_clear_error(err);
  if (json)
    *json = NULL;
  if (!c || !json)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_config_files needs a client and a place for "
                    "the list");
  session_job j = {.c = c, .err = err};
  if (api_run_on_loop(c, files_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  if (j.rc == MCPHOST_OK) {
    *json = j.json;
    if (len)
      *len = strlen(j.json);
  }
  return j.rc;
}

static void reload_on_loop(void *ud) {
  session_job *j = ud;
  mcphost_client *c = j->c;
  mcph_error e;
  mcph_error_init(&e);
  if (!c->config_loaded) {
    j->rc = api_fail(j->err, MCPHOST_ESTATE, 0, NULL,
                     "the client's configuration is not loaded yet");
  } else if (host_config_reload(c->h, &e) != MCPH_OK) {
    /* A connection made with it, or state kept per server. */
    j->rc = api_fail(j->err, MCPHOST_ESTATE, 0, NULL, "%s", e.message);
  } else {
    c->nconfig_errors = host_cfg(c->h)->nerrors;
    j->rc = MCPHOST_OK;
  }
}

int mcphost_reload_config(mcphost_client *c, mcphost_error *err) {
  api_clear_error(err);
  if (!c)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_reload_config needs a client");
  session_job j = {.c = c, .err = err};
  if (api_run_on_loop(c, reload_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  return j.rc;
}

void mcphost_client_shutdown(mcphost_client *c) {
  if (c)
    api_client_close(c);
}
