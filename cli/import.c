/* mcphost mcp import CLIENT: copies servers from another client's files
 * into mcphost's scopes, through the client API (mcphost_import_read
 * reads them, mcphost_config_import writes them: docs/config.md).
 *
 *   claude-desktop  its mcpServers go to --scope (local)
 *   claude-code     the user servers (mcpServers) go to the user scope,
 *                   this project's (projects["DIR"].mcpServers) to the
 *                   local scope, and this project's approvals of .mcp.json
 *                   servers come along; --scope puts every server in that
 *                   one scope
 *   cursor, vscode, windsurf, codex: into --scope (local)
 *
 * --from FILE reads another file of the same shape. An entry already
 * there with the same content, under its name or as an earlier renamed
 * copy (NAME_1, NAME_2, ...), is skipped as "already there"; a different
 * one with the same name is imported as NAME_1 (as Claude Code does).
 * .mcp.json files need no import: mcphost reads them where they are. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "json_write.h"
#include "util.h"

static void print_list(const char *label, const cJSON *names) {
  if (cJSON_GetArraySize(names) == 0)
    return;
  printf("  %s:", label);
  const cJSON *n;
  cJSON_ArrayForEach(n, names) printf(" %s", n->valuestring);
  printf("\n");
}

/* Writes `servers` to `scope`; returns an exit code. */
static int import_into(cli *c, const char *scope, const cJSON *servers,
                       const char *from) {
  if (cJSON_GetArraySize(servers) == 0)
    return EXIT_OK;
  char *text = json_print(servers);
  char *res = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = EXIT_OK;
  if (mcphost_config_import(c->api, scope, text, &res, &err) != MCPHOST_OK) {
    fprintf(stderr, "mcphost: %s\n", cli_esc(c, err.message));
    rc = EXIT_SERVER;
  } else {
    cJSON *r = cli_api_json(res);
    const cJSON *added = cJSON_GetObjectItemCaseSensitive(r, "added");
    printf("From %s into %s:\n", cli_esc(c, from),
           cli_esc(c, cJSON_GetStringValue(
                          cJSON_GetObjectItemCaseSensitive(r, "where"))));
    print_list("imported", added);
    print_list("already there", cJSON_GetObjectItemCaseSensitive(r, "skipped"));
    size_t n = 0;
    const char **names =
        xcalloc((size_t)cJSON_GetArraySize(added) + 1, sizeof *names);
    const cJSON *it;
    cJSON_ArrayForEach(it, added) names[n++] = it->valuestring;
    cli_warn_skipped(c, names, n);
    free(names);
    cJSON_Delete(r);
  }
  free(text);
  return rc;
}

/* Carries a Claude Code project's .mcp.json choices over. */
static int import_choices(cli *c, const cJSON *project, const char *key,
                          const char *choice) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(project, key);
  size_t n = (size_t)cJSON_GetArraySize(list);
  if (n == 0)
    return EXIT_OK;
  /* Names alone: Claude Code keeps no record of what it approved. A
   * name mcphost approved before keeps its record; any other is pending
   * until "mcphost mcp approve NAME" shows what it runs. */
  char *names = json_print(list);
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = EXIT_OK;
  if (mcphost_project_choice(c->api, choice, names, MCPHOST_CHOICE_BY_NAME,
                             NULL, &err) != MCPHOST_OK) {
    fprintf(stderr, "mcphost: %s\n", cli_esc(c, err.message));
    rc = EXIT_SERVER;
  } else {
    printf("Project choices for %s: %zu %s\n",
           cli_esc(c, cJSON_GetStringValue(
                          cJSON_GetObjectItemCaseSensitive(project, "key"))),
           n, strcmp(choice, "approve") == 0 ? "approved" : "rejected");
  }
  free(names);
  return rc;
}

static void print_notes(cli *c, const cJSON *notes) {
  const cJSON *it;
  cJSON_ArrayForEach(it, notes) {
    printf("  note: %s\n", cli_esc(c, it->valuestring));
  }
}

static const char import_usage[] =
    "mcphost: usage: mcphost mcp import cursor|vscode|windsurf|codex|"
    "claude-desktop|claude-code [-s local|user|project] [--from FILE]\n";

int cmd_mcp_import(cli *c, int argc, char **argv) {
  static const struct option longopts[] = {
      {"scope", required_argument, NULL, 's'},
      {"from", required_argument, NULL, 'f'},
      {NULL, 0, NULL, 0}};
  const char *scope = NULL;
  const char *from = NULL;
  optind = 0;
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, "s:f:", longopts, NULL)) != -1) {
    if (opt == 's' && cli_mcp_scope(optarg)) {
      scope = optarg;
    } else if (opt == 'f') {
      from = optarg;
    } else {
      fputs(import_usage, stderr);
      return EXIT_USAGE;
    }
  }
  if (argc - optind != 1) {
    fputs(import_usage, stderr);
    return EXIT_USAGE;
  }
  const char *client = argv[optind];
  char *text = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int st = mcphost_import_read(c->api, client, from, &text, &err);
  if (st == MCPHOST_EUSAGE) {
    fputs(import_usage, stderr);
    return EXIT_USAGE;
  }
  if (st != MCPHOST_OK) {
    fprintf(stderr, "mcphost: cannot import: %s\n", cli_esc(c, err.message));
    return EXIT_NOT_FOUND;
  }
  cJSON *r = cli_api_json(text);
  const char *path =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "file"));
  const cJSON *it;
  cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(r, "rejected")) {
    fprintf(stderr, "mcphost: %s\n", cli_esc(c, it->valuestring));
  }
  const cJSON *servers = cJSON_GetObjectItemCaseSensitive(r, "servers");
  const cJSON *notes = cJSON_GetObjectItemCaseSensitive(r, "notes");
  const cJSON *project = cJSON_GetObjectItemCaseSensitive(r, "project");
  int rc = EXIT_OK;
  if (strcmp(client, "claude-desktop") == 0) {
    rc = import_into(c, scope ? scope : "local", servers, path);
    print_notes(c, notes);
    if (cJSON_GetArraySize(servers) == 0)
      printf("No servers to import from %s\n", cli_esc(c, path));
  } else if (project) { /* claude-code */
    const cJSON *local = cJSON_GetObjectItemCaseSensitive(project, "servers");
    rc = import_into(c, scope ? scope : "user", servers, path);
    int rc2 = import_into(c, scope ? scope : "local", local, path);
    rc = rc != EXIT_OK ? rc : rc2;
    if (rc == EXIT_OK)
      rc = import_choices(c, project, "enabledMcpjsonServers", "approve");
    if (rc == EXIT_OK)
      rc = import_choices(c, project, "disabledMcpjsonServers", "reject");
    if (cJSON_GetArraySize(servers) + cJSON_GetArraySize(local) == 0)
      printf("No servers to import from %s\n", cli_esc(c, path));
  } else {
    rc = import_into(c, scope ? scope : "local", servers, path);
    if (cJSON_GetArraySize(servers) == 0)
      printf("No servers to import from %s\n", cli_esc(c, path));
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(r, "skipped")) {
      printf("  skipped %s: %s\n",
             cli_esc(c, cJSON_GetStringValue(
                            cJSON_GetObjectItemCaseSensitive(it, "name"))),
             cli_esc(c, cJSON_GetStringValue(
                            cJSON_GetObjectItemCaseSensitive(it, "why"))));
    }
    print_notes(c, notes);
  }
  cJSON_Delete(r);
  return rc;
}
