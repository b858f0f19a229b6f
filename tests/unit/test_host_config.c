/* "mcph.host.config/1" (host_config.c): a reload reads the sources
 * again and runs the application's hook, and is refused while the MCP
 * client keeps per-server state indexed by the current configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "core/host.h"
#include "core/host_config.h"
#include "mcp/client.h"

static char dir[] = "/tmp/mcphost-host-config-XXXXXX";
static char file[sizeof dir + 16], settings[sizeof dir + 16];
static const char *configs[1];

static void write_servers(const char *names) {
  FILE *f = fopen(file, "w");
  CHECK(f != NULL);
  if (!f) {
    return;
  }
  fputs("{\"mcpServers\": {", f);
  for (const char *n = names; *n; n++) {
    fprintf(f, "%s\"%c\": {\"command\": \"true\"}", n == names ? "" : ", ",
            *n);
  }
  fputs("}}\n", f);
  fclose(f);
}

static int loaded_calls;

static void on_loaded(void *ud, const config *cfg) {
  (void)cfg;
  CHECK(ud == &loaded_calls);
  loaded_calls++;
}

/* A host with the servers of `names` loaded from the --mcp-config file. */
static host *new_host(const char *names) {
  host *h = host_new(&(host_options){.builtin_plugin_dir = dir});
  write_servers(names);
  configs[0] = file;
  config_sources o = {.cwd = dir,
                      .home = dir,
                      .user_settings = settings,
                      .system_dir = dir,
                      .mcp_configs = configs,
                      .nmcp_configs = 1,
                      .strict = true};
  config_load_scopes(&h->cfg, &o);
  host_set_config_sources(h, &o, on_loaded, &loaded_calls);
  loaded_calls = 0;
  return h;
}

static int reload(host *h, mcph_error *err) {
  mcph_error_init(err);
  return host_config_service()->reload(&h->self.api, err);
}

TEST(test_reload_reads_again_and_runs_the_hook) {
  host *h = new_host("a");
  CHECK(h->cfg.nservers == 1);
  write_servers("bc");
  mcph_error err;
  CHECK(reload(h, &err) == MCPH_OK);
  CHECK(h->cfg.nservers == 2);
  CHECK(loaded_calls == 1);
  host_free(h);
}

TEST(test_reload_refused_while_the_client_holds_slots) {
  host *h = new_host("a");
  mcp_client *mc = mcp_client_new(h);
  CHECK(!mcp_client_holds_config(mc));
  /* Per-server state without a session (batch's roots command). */
  cJSON *roots = cJSON_CreateArray();
  mcp_client_set_roots(mc, -1, roots);
  cJSON_Delete(roots);
  CHECK(mcp_client_holds_config(mc));
  write_servers("bc");
  mcph_error err;
  CHECK(reload(h, &err) == MCPH_ENOTSUP);
  CHECK_CONTAINS(err.message, "MCP client holds state");
  /* Nothing changed: the slots still match the configuration. */
  CHECK(h->cfg.nservers == 1);
  CHECK(mcp_client_nservers(mc) == h->cfg.nservers);
  CHECK(loaded_calls == 0);
  mcp_client_shutdown(mc);
  host_free(h);
  mcp_client_free(mc);
}

static void setup(void) {
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    exit(1);
  }
  snprintf(file, sizeof file, "%s/servers.json", dir);
  snprintf(settings, sizeof settings, "%s/settings.json", dir);
}

static void cleanup(void) {
  unlink(file);
  rmdir(dir);
}

int main(void) {
  setup();
  static const test_case tests[] = {
      T(test_reload_reads_again_and_runs_the_hook),
      T(test_reload_refused_while_the_client_holds_slots)};
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  cleanup();
  return rc;
}
