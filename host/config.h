/* Server configuration: the {"mcpServers": {NAME: {...}}} files used by
 * Claude Code and Claude Desktop, and servers given on the command line.
 * A bad entry costs that entry only; every problem is recorded with the
 * file, the server and the field. */
#ifndef MCPHOST_CONFIG_H
#define MCPHOST_CONFIG_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct server_config {
  char *name;
  char *type;   /* "stdio", "http", ... */
  char *source; /* the file it came from, or "command line" */
  cJSON *json;  /* the entry as written (owned) */
} server_config;

typedef struct config {
  server_config *servers;
  size_t nservers;
  char **errors; /* one line each, naming file, server and field */
  size_t nerrors;
  char **warnings;
  size_t nwarnings;
} config;

void config_init(config *c);
void config_free(config *c);

/* Reads one file. `required`: a missing file is an error (a --config
 * argument) rather than silently nothing (.mcp.json). Returns the number
 * of servers added; problems go to c->errors / c->warnings. */
int config_load_file(config *c, const char *path, bool required);

/* Parses a config document held in memory; `source` names it in
 * messages. */
int config_load_text(config *c, const char *text, size_t len,
                     const char *source);

/* Adds a stdio server from a command line "[NAME=]COMMAND [ARG...]",
 * split like a shell does (single and double quotes, backslash), without
 * any expansion. Returns 0 or -1 with an error recorded. */
int config_add_command(config *c, const char *spec);

/* Adds a remote server from "[NAME=]URL" with the given transport type
 * (e.g. "http", "sse"). NAME defaults to the URL's host. Returns 0 or -1
 * with an error recorded. */
int config_add_url(config *c, const char *spec, const char *type);

const server_config *config_find(const config *c, const char *name);

#endif
