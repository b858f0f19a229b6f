/* Commands that plugins add (mcph.command/1). The servers service they
 * use (mcph.host.servers/1) is the client's (mcp/servers_service.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util.h"

/* ---- plugin commands ---- */

/* A loaded plugin's command extension, or NULL. */
static const mcph_commands *commands_of(plugin *p) {
  const mcph_commands *cs = plugin_extension(p, MCPH_EXT_COMMAND);
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
  for (size_t i = 0; i < host_registry(c->h)->nplugins; i++) {
    plugin *p = host_registry(c->h)->plugins[i];
    /* A deferred plugin that does not list the name stays asleep. */
    const mcph_commands *cs =
        plugin_may_offer_command(p, name) ? commands_of(p) : NULL;
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

const char **cli_plugin_command_names(const cli *c, size_t *n) {
  const char **names = NULL;
  *n = 0;
  for (size_t i = 0; i < host_registry(c->h)->nplugins; i++) {
    plugin *p = host_registry(c->h)->plugins[i];
    if (!p->loaded) {
      continue;
    }
    /* A deferred plugin's list says its names without waking it. */
    const mcph_provides *pr = p->provides;
    if (!p->initialized && pr && MCPH_HAS(pr, mcph_provides, commands) &&
        pr->commands) {
      for (const char *const *k = pr->commands; *k; k++) {
        names = xrealloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = *k;
      }
      continue;
    }
    const mcph_commands *cs = commands_of(p);
    for (size_t k = 0; cs && k < cs->count; k++) {
      const mcph_command *cmd = command_at(cs, k);
      if (cmd->name) {
        names = xrealloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = cmd->name;
      }
    }
  }
  return names;
}

void cli_print_plugin_commands(const cli *c, FILE *f) {
  bool any = false;
  for (size_t i = 0; i < host_registry(c->h)->nplugins; i++) {
    const mcph_commands *cs = commands_of(host_registry(c->h)->plugins[i]);
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
  run->owner = pc->p;
  mcph_error err;
  mcph_error_init(&err);
  int st = pc->cmd->start(pc->p->ctx, run, argc, (const char *const *)argv,
                          c->json, &err);
  if (st != MCPH_OK) {
    out_error("%s: %s", argv[0],
              err.message[0] ? err.message : "the command failed to start");
    return cli_exit_code(
        &(mcp_error){.kind = mcp_error_kind_of_status(st)});
  }
  if (host_run_until(c->h, &run->done, 0) == -2 && !run->done) {
    if (pc->cmd->interrupt) {
      host_clear_interrupt(c->h);
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
}
