/* Commands that plugins add (mcph.command/1), found, listed and run
 * through the client API (mcphost_command_info, mcphost_commands_json,
 * mcphost_command_run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util.h"

/* ---- plugin commands ---- */

/* A string member of `o`, NULL when absent or "". */
static const char *given(const cJSON *o, const char *key) {
  const char *s =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
  return s && *s ? s : NULL;
}

/* An API call's JSON, parsed; NULL on an error. */
static cJSON *parsed(int rc, char *json) {
  cJSON *v = rc == MCPHOST_OK ? cJSON_Parse(json) : NULL;
  mcphost_free(json);
  return v;
}

bool cli_find_plugin_command(cli *c, const char *name, plugin_command *out) {
  char *json = NULL;
  int rc = mcphost_command_info(c->api, name, &json, NULL, NULL);
  cJSON *o = parsed(rc, json);
  if (!o) {
    return false;
  }
  /* One block, kept until cli_plugin_cmds_free: the names main.c holds. */
  const char *usage = given(o, "usage"), *help = given(o, "help");
  size_t nn = strlen(name) + 1, nu = usage ? strlen(usage) + 1 : 0,
         nh = help ? strlen(help) + 1 : 0;
  cli_command_info *info = xcalloc(1, sizeof *info + nn + nu + nh);
  char *at = (char *)(info + 1);
  info->name = memcpy(at, name, nn);
  info->usage = usage ? memcpy(at + nn, usage, nu) : NULL;
  info->help = help ? memcpy(at + nn + nu, help, nh) : NULL;
  info->next = c->commands_found;
  c->commands_found = info;
  out->cmd = info;
  cJSON_Delete(o);
  return true;
}

/* The commands the API lists with `flags`, or an empty array. */
static cJSON *commands(const cli *c, unsigned flags) {
  char *json = NULL;
  int rc = mcphost_commands_json(c->api, flags, &json, NULL, NULL);
  cJSON *a = parsed(rc, json);
  return a ? a : cJSON_CreateArray();
}

const char **cli_plugin_command_names(const cli *c, size_t *n) {
  cJSON *a = commands(c, 0);
  /* The array and its strings in one block, freed with the array. */
  size_t count = 0, bytes = 0;
  const cJSON *i;
  cJSON_ArrayForEach(i, a) {
    const char *s = given(i, "name");
    if (s) {
      count++;
      bytes += strlen(s) + 1;
    }
  }
  const char **names = xcalloc(1, (count + 1) * sizeof *names + bytes);
  char *at = (char *)(names + count + 1);
  *n = 0;
  cJSON_ArrayForEach(i, a) {
    const char *s = given(i, "name");
    if (s) {
      size_t len = strlen(s) + 1;
      names[(*n)++] = memcpy(at, s, len);
      at += len;
    }
  }
  cJSON_Delete(a);
  return names;
}

void cli_print_plugin_commands(const cli *c, FILE *f) {
  cJSON *a = commands(c, MCPHOST_COMMANDS_HELP);
  const cJSON *i;
  bool any = false;
  cJSON_ArrayForEach(i, a) {
    const char *name = given(i, "name");
    if (!name) {
      continue;
    }
    if (!any) {
      fputs("\nPlugin commands:\n", f);
    }
    any = true;
    const char *usage = given(i, "usage") ? given(i, "usage") : name;
    const char *help = given(i, "help") ? given(i, "help") : "";
    if (strlen(usage) > 24) {
      fprintf(f, "  %s\n  %-24s   %s\n", usage, "", help);
    } else {
      fprintf(f, "  %-24s   %s\n", usage, help);
    }
  }
  cJSON_Delete(a);
}

int cli_run_plugin_command(cli *c, const plugin_command *pc, int argc,
                           char **argv) {
  mcphost_command cmd = MCPHOST_COMMAND_INIT;
  cmd.name = pc->cmd->name;
  cmd.argc = argc;
  cmd.argv = (const char *const *)argv;
  cmd.json = c->json;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int status = EXIT_OK;
  int rc = mcphost_command_run(c->api, &cmd, &status, &err);
  if (rc == MCPHOST_OK) {
    return status;
  }
  if (rc == MCPHOST_ECANCELED) {
    return EXIT_INTERRUPTED;
  }
  out_error("%s: %s", argv[0], err.message);
  return cli_exit_for_api(rc);
}

void cli_plugin_cmds_free(cli *c) {
  for (cli_command_info *i = c->commands_found, *next; i; i = next) {
    next = i->next;
    free(i);
  }
  c->commands_found = NULL;
}
