/* Milliseconds given as text: the one strict parser of --timeout and of
 * every *_MS / *_TIMEOUT environment variable (MCP_TIMEOUT,
 * MCPHOST_SERVE_REQUEST_MS, MCPHOST_OAUTH_TIMEOUT_MS, ...), for the host
 * and the plugins. Decimal digits only: "30s", "1e3", " 5", "-1" and a
 * number past 2^53 are refused, never read as a part of themselves.
 * Any thread. */
#ifndef MCPHOST_COMMON_ENV_MS_H
#define MCPHOST_COMMON_ENV_MS_H

#include <stdbool.h>
#include <stdint.h>

/* Whether `text` is a number of milliseconds (0 only when `zero_ok`);
 * sets *ms when it is. */
bool ms_parse(const char *text, bool zero_ok, uint64_t *ms);

/* The variable `name` as milliseconds, or `fallback` when it is unset or
 * empty. A value ms_parse() refuses is warned about on stderr, once per
 * variable and process ("mcphost: warning: ignoring NAME=\"VALUE\": not a
 * positive number of milliseconds"), and `fallback` is used. `given`
 * (may be NULL) tells whether the variable set the value. */
uint64_t env_ms(const char *name, uint64_t fallback, bool zero_ok, bool *given);

#endif
