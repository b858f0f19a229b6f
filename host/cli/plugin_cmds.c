/* Commands that plugins add (mcph.command/1), and the servers service
 * (mcph.host.servers/1) through which plugins start and keep the CLI's
 * connections. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "cli.h"

struct mcph_run {
  bool done;
  int rc;
};

static cli *C(const mcph_host *api) {
  return host_from_api(api)->app;
}

/* ---- the servers service ---- */

static size_t svc_count(const mcph_host *api) {
  return C(api)->h->cfg.nservers;
}

static const char *svc_name(const mcph_host *api, size_t i) {
  const config *cfg = &C(api)->h->cfg;
  return i < cfg->nservers ? cfg->servers[i].name : NULL;
}

/* The index of the configured entry named exactly `name`; -1 when none
 * (plugins name servers as configured, never in the mcp__ form). */
static long find_exact(const cli *c, const char *name) {
  const server_config *sc = name ? config_find(&c->h->cfg, name) : NULL;
  return sc ? (long)(sc - c->h->cfg.servers) : -1;
}

static int svc_connect(const mcph_host *api, const char *name, unsigned flags,
                       mcph_error *err) {
  cli *c = C(api);
  long i = find_exact(c, name);
  if (i < 0)
    return mcph_error_set(err, MCPH_ENOTFOUND,
                          "no server named \"%s\" is configured",
                          name ? name : "");
  const server_config *sc = &c->h->cfg.servers[i];
  if (sc->state != SERVER_ACTIVE)
    return mcph_error_set(err, MCPH_EDENIED, "server \"%s\" is %s: %s",
                          sc->name, server_state_name(sc),
                          sc->reason ? sc->reason : "not allowed to start");
  session *s = cli_session(c, (size_t)i);
  if (flags & MCPH_CONNECT_KEEP)
    s->auto_reconnect = true;
  if (s->state == SESS_IDLE)
    session_connect(s, c->connect_timeout_ms);
  else if ((s->state == SESS_FAILED || s->state == SESS_CLOSED) &&
           !session_will_reconnect(s))
    session_restart(s);
  return MCPH_OK;
}

static const char *svc_state(const mcph_host *api, const char *name,
                             const char **why) {
  cli *c = C(api);
  long i = find_exact(c, name);
  if (why)
    *why = NULL;
  if (i < 0)
    return NULL;
  const server_config *sc = &c->h->cfg.servers[i];
  if (sc->state != SERVER_ACTIVE) {
    if (why)
      *why = sc->reason;
    return server_state_name(sc);
  }
  session *s = c->sessions ? c->sessions[i] : NULL;
  if (!s || s->state == SESS_IDLE)
    return "not connected";
  if (why)
    *why = s->error;
  return session_state_name(s);
}

static const char *svc_policy(const mcph_host *api, const char *key) {
  cli *c = C(api);
  const cJSON *v = key ? cJSON_GetObjectItemCaseSensitive(c->h->cfg.managed,
                                                          key)
                       : NULL;
  if (!v)
    return NULL;
  cJSON_free(c->policy_text);
  c->policy_text = cJSON_PrintUnformatted(v);
  return c->policy_text;
}

static void svc_finish(const mcph_host *api, mcph_run *run, int exit_code) {
  (void)api;
  run->done = true;
  run->rc = exit_code;
}

static const mcph_host_servers servers_service = {
    .struct_size = sizeof servers_service,
    .count = svc_count,
    .name = svc_name,
    .connect = svc_connect,
    .state = svc_state,
    .policy = svc_policy,
    .finish = svc_finish,
};

void cli_offer_services(cli *c) {
  c->h->app = c;
  c->h->servers_service = &servers_service;
}

/* ---- plugin commands ---- */

/* A loaded plugin's command extension, or NULL. */
static const mcph_commands *commands_of(const plugin *p) {
  const mcph_commands *cs =
      p->loaded ? p->entry->get_extension(p->ctx, MCPH_EXT_COMMAND) : NULL;
  if (!cs || !MCPH_HAS(cs, mcph_commands, count) || !cs->commands ||
      cs->count == 0 || !MCPH_HAS(&cs->commands[0], mcph_command, interrupt))
    return NULL;
  return cs;
}

/* Element k: the array's stride is the plugin's sizeof(mcph_command). */
static const mcph_command *command_at(const mcph_commands *cs, size_t k) {
  return (const mcph_command *)((const char *)cs->commands +
                                k * cs->commands[0].struct_size);
}

bool cli_find_plugin_command(const cli *c, const char *name,
                             plugin_command *out) {
  for (size_t i = 0; i < c->h->reg.nplugins; i++) {
    const plugin *p = c->h->reg.plugins[i];
    const mcph_commands *cs = commands_of(p);
    if (!cs)
      continue;
    for (size_t k = 0; k < cs->count; k++) {
      const mcph_command *cmd = command_at(cs, k);
      if (cmd->name && strcmp(cmd->name, name) == 0 && cmd->start) {
        *out = (plugin_command){p, cmd};
        return true;
      }
    }
  }
  return false;
}

void cli_print_plugin_commands(const cli *c, FILE *f) {
  bool any = false;
  for (size_t i = 0; i < c->h->reg.nplugins; i++) {
    const mcph_commands *cs = commands_of(c->h->reg.plugins[i]);
    if (!cs)
      continue;
    for (size_t k = 0; k < cs->count; k++) {
      const mcph_command *cmd = command_at(cs, k);
      if (!cmd->name)
        continue;
      if (!any)
        fputs("\nPlugin commands:\n", f);
      any = true;
      const char *usage = cmd->usage ? cmd->usage : cmd->name;
      if (strlen(usage) > 24)
        fprintf(f, "  %s\n  %-24s   %s\n", usage, "", cmd->help ? cmd->help : "");
      else
        fprintf(f, "  %-24s   %s\n", usage, cmd->help ? cmd->help : "");
    }
  }
}

/* How long a command may take to finish after Ctrl-C. */
#define INTERRUPT_GRACE_MS 2000

int cli_run_plugin_command(cli *c, const plugin_command *pc, int argc,
                           char **argv) {
  /* The run outlives this function (until cli_plugin_cmds_free): a
   * plugin that finishes late must not write into freed memory. */
  mcph_run *run = c->run = xcalloc(1, sizeof *run);
  mcph_error err;
  mcph_error_init(&err);
  int st = pc->cmd->start(pc->p->ctx, run, argc, (const char *const *)argv,
                          c->json, &err);
  if (st != MCPH_OK) {
    out_error("%s: %s", argv[0],
              err.message[0] ? err.message : "the command failed to start");
    return cli_exit_code(&(cli_failure){.mcph_status = st});
  }
  if (host_run_until(c->h, &run->done, 0) == -2 && !run->done) {
    if (pc->cmd->interrupt) {
      c->h->interrupted = false;
      pc->cmd->interrupt(pc->p->ctx, run);
      host_run_until(c->h, &run->done, loop_now_ms() + INTERRUPT_GRACE_MS);
    }
    return EXIT_INTERRUPTED;
  }
  return run->rc;
}

void cli_plugin_cmds_free(cli *c) {
  free(c->run);
  c->run = NULL;
  cJSON_free(c->policy_text);
  c->policy_text = NULL;
}
