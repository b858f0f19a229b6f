/* What a long-running front end such as `mcphost batch` needs beside its
 * operations (sdk/include/mcphost/client.h, "a long-running front end"):
 * whether a server may start, and roots changed while servers run. */
#include <mcphost/client.h>

#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "config/roots.h"
#include "json_parse.h"
#include "json_write.h"
#include "util.h"

typedef struct roots_job {
  mcphost_client *c;
  const char *server, *dirs_json;
  char **roots_json;
  mcphost_error *err;
  int rc;
} roots_job;

/* The roots of `dirs` (a JSON array of directories), resolved against the
 * working directory; NULL with the element at fault in `err`. */
static cJSON *roots_of(mcphost_client *c, const cJSON *dirs,
                       mcphost_error *err) {
  cJSON *roots = cJSON_CreateArray();
  char why[700];
  int i = 0;
  const cJSON *d;
  cJSON_ArrayForEach(d, dirs) {
    bool named = cJSON_IsString(d) && d->valuestring[0];
    char *dir = named ? roots_resolve_dir(host_path(c->h, MCPH_PATH_CWD),
                                          d->valuestring, why, sizeof why)
                      : NULL;
    if (!dir) {
      api_fail(err, MCPHOST_EUSAGE, 0, NULL, "\"roots\"[%d]: %s", i,
               named ? why : "must be a directory path");
      cJSON_Delete(roots);
      return NULL;
    }
    cJSON_AddItemToArray(roots, roots_entry(dir));
    free(dir);
    i++;
  }
  return roots;
}

static void roots_on_loop(void *ud) {
  roots_job *j = ud;
  mcphost_client *c = j->c;
  if (mcp_client_get_options(c->mc)->no_roots) {
    j->rc =
        api_fail(j->err, MCPHOST_EUSAGE, 0, NULL, "roots are off (--no-roots)");
    return;
  }
  long only = -1;
  if (j->server) {
    size_t idx;
    j->rc = api_find_server(c, j->server, &idx, j->err);
    if (j->rc != MCPHOST_OK)
      return;
    only = (long)idx;
  }
  cJSON *dirs = json_parse(j->dirs_json, strlen(j->dirs_json), NULL);
  cJSON *roots = cJSON_IsArray(dirs) ? roots_of(c, dirs, j->err) : NULL;
  if (!cJSON_IsArray(dirs)) {
    api_fail(j->err, MCPHOST_EUSAGE, 0, j->server,
             "\"roots\" must be a list of directories");
  }
  cJSON_Delete(dirs);
  if (!roots) {
    j->rc = MCPHOST_EUSAGE;
    return;
  }
  mcp_client_set_roots(c->mc, only, roots);
  if (j->roots_json)
    *j->roots_json = json_print(roots);
  cJSON_Delete(roots);
  j->rc = MCPHOST_OK;
}

int mcphost_set_roots(mcphost_client *c, const char *server,
                      const char *dirs_json, char **roots_json,
                      mcphost_error *err) {
  api_clear_error(err);
  if (roots_json)
    *roots_json = NULL;
  if (!c || !c->mc || !dirs_json)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_set_roots needs a loaded client and the "
                    "directories");
  roots_job j = {.c = c,
                 .server = server,
                 .dirs_json = dirs_json,
                 .roots_json = roots_json,
                 .err = err};
  if (api_run_on_loop(c, roots_on_loop, &j) != 0)
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  return j.rc;
}
