/* What the tests of the client API (libmcphost.so.1) share: a client of
 * one server, and a home of their own. */
#ifndef MCPHOST_TEST_CLIENT_TEST_H
#define MCPHOST_TEST_CLIENT_TEST_H

#include <mcphost/client.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* A configuration holding the one server `name` running `command`. */
static inline char *config_of(const char *name, const char *command,
                              const char *arg) {
  static char buf[4096];
  snprintf(buf, sizeof buf,
           "{\"mcpServers\": {\"%s\": {\"command\": \"%s\", \"args\": "
           "[%s%s%s]}}}",
           name, command, arg ? "\"" : "", arg ? arg : "", arg ? "\"" : "");
  return buf;
}

/* A client of options `o`, or NULL with the library's error said on
 * stderr. */
static inline mcphost_client *client_made(const mcphost_options *o) {
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_client_new(o, &c, &err);
  if (rc != MCPHOST_OK)
    fprintf(stderr, "  client: %s: %s\n", mcphost_status_name(rc), err.message);
  return c;
}

/* Loads the configuration of a deferred client (mcphost_load_config):
 * the server `spec` given as the CLI's --server ("NAME=COMMAND") or the
 * file `config` as its --mcp-config, alone (strict). The status; the
 * error in *err (NULL: said on stderr). */
static inline int client_load(mcphost_client *c, const char *spec,
                              const char *config, mcphost_error *err) {
  const char *specs[] = {spec}, *configs[] = {config};
  mcphost_config_sources s = MCPHOST_CONFIG_SOURCES_INIT;
  if (spec) {
    s.server_specs = specs;
    s.nserver_specs = 1;
  }
  if (config) {
    s.configs = configs;
    s.nconfigs = 1;
  }
  s.strict = 1;
  mcphost_error own = MCPHOST_ERROR_INIT;
  int rc = mcphost_load_config(c, &s, err ? err : &own);
  if (rc != MCPHOST_OK && !err)
    fprintf(stderr, "  load: %s\n", own.message);
  return rc;
}

static inline mcphost_client *client_of(const char *config, int mode,
                                        mcphost_notify_fn notify,
                                        mcphost_request_fn request, void *ud) {
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {config};
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1;
  o.loop_mode = mode;
  o.on_notify = notify;
  o.on_request = request;
  o.ud = ud;
  return client_made(&o);
}

/* A home of its own, as the configuration's scopes read it: HOME,
 * XDG_CONFIG_HOME (with a private mcphost/ for the user's settings),
 * XDG_STATE_HOME, XDG_CACHE_HOME and the enterprise directory under it,
 * so nothing of the machine's is read: made from `home`, a mkdtemp
 * template ("/tmp/NAME.XXXXXX"), and the environment set. 0, or -1 when it
 * could not be made. */
static inline int client_home_make(char *home) {
  if (!mkdtemp(home))
    return -1;
  char path[4200];
  setenv("HOME", home, 1);
  snprintf(path, sizeof path, "%s/config", home);
  setenv("XDG_CONFIG_HOME", path, 1);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/config/mcphost", home);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/state", home);
  setenv("XDG_STATE_HOME", path, 1);
  snprintf(path, sizeof path, "%s/cache", home);
  setenv("XDG_CACHE_HOME", path, 1);
  snprintf(path, sizeof path, "%s/system", home);
  setenv("MCPHOST_SYSTEM_CONFIG_DIR", path, 1);
  unsetenv("MCPHOST_APPROVE_PROJECT_SERVERS");
  return 0;
}

/* Writes `text` to `path` (made or emptied). 0, or -1. */
static inline int client_write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  int rc = fputs(text, f) < 0 ? -1 : 0;
  return fclose(f) != 0 ? -1 : rc;
}

static inline void client_home_remove(const char *home) {
  char rm[4300];
  snprintf(rm, sizeof rm, "rm -rf '%s'", home);
  if (system(rm) != 0)
    fprintf(stderr, "could not remove %s\n", home);
}

#endif
