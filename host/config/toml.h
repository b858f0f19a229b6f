/* A reader for the subset of TOML that Codex writes in its config.toml
 * (the [mcp_servers.NAME] tables): comments, [table] headers of bare or
 * quoted keys, dotted keys, basic and literal strings (one line; escapes
 * as TOML has them), integers, floats, booleans, arrays (over several
 * lines too) and inline tables. What it does not read (arrays of tables,
 * multi-line strings, dates) is an error naming the line, never a guess.
 * Pure; any thread. */
#ifndef MCPHOST_CONFIG_TOML_H
#define MCPHOST_CONFIG_TOML_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Parses `text` (`len` bytes) into a new JSON object (caller frees).
 * NULL on error, with *line the line at fault (from 1) and *why a new
 * sentence (caller frees). */
cJSON *toml_parse(const char *text, size_t len, int *line, char **why);

#endif
