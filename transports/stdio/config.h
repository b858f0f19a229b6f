/*
 * The stdio transport's configuration: parsed and validated from the
 * server's config JSON by create(), before anything is started.
 */
#ifndef MCPH_STDIO_CONFIG_H
#define MCPH_STDIO_CONFIG_H

#include <stddef.h>

#include <mcphost/abi.h>

#define STDIO_DEFAULT_MAX_MESSAGE_BYTES ((size_t)64 << 20)

typedef struct stdio_config {
  char *command; /* as configured; never empty */
  char **argv;   /* NULL-terminated: command, then "args" */
  char **env;    /* NULL-terminated "KEY=value" from "env"; may be empty */
  char *cwd;     /* "cwd", or NULL to inherit the host's */
  size_t max_message_bytes; /* "maxMessageBytes" */
} stdio_config;

/* Loop thread. Parses `json` into `cfg` (which the caller zeroes first).
 * Returns 0, MCPH_ENOMEM, or MCPH_EINVAL with a message in `err` naming the
 * field, e.g. "args[2]" must be a string. On error `cfg` holds nothing
 * that needs freeing beyond what stdio_config_free() frees. */
int stdio_config_parse(const char *json, stdio_config *cfg, mcph_error *err);

/* Frees what stdio_config_parse() allocated; `cfg` may be partly filled. */
void stdio_config_free(stdio_config *cfg);

#endif /* MCPH_STDIO_CONFIG_H */
