/*
 * The sse transport's configuration: parsed and validated from the
 * server's config JSON by create(), before anything is started.
 */
#ifndef MCPH_SSE_CONFIG_H
#define MCPH_SSE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include <mcphost/abi.h>

#define SSE_DEFAULT_TIMEOUT_MS 60000L
#define SSE_DEFAULT_MAX_MESSAGE_BYTES ((size_t)64 << 20)

typedef struct sse_config {
  char *url;       /* "url": the SSE endpoint, http or https */
  char **headers;  /* NULL-terminated "Name: value" lines from "headers" */
  long timeout_ms; /* "timeout": the deadline of each POST */
  char *ca_file;   /* "tls.caFile", or NULL for the system store */
  char *cert_file; /* "tls.certFile" (client certificate), or NULL */
  char *key_file;  /* "tls.keyFile", or NULL */
  bool insecure;   /* "tls.insecure": no certificate verification */
  size_t max_message_bytes; /* "maxMessageBytes": per SSE event */
} sse_config;

/* Loop thread. Parses `json` into `cfg` (which the caller zeroes first).
 * Returns 0, MCPH_ENOMEM, or MCPH_EINVAL with a message in `err` naming
 * the field, e.g. "headers.X-Key" must be a string. On error `cfg` holds
 * nothing that needs freeing. */
int sse_config_parse(const char *json, sse_config *cfg, mcph_error *err);

/* True when the configured headers set `name` (case-insensitive). */
bool sse_config_has_header(const sse_config *cfg, const char *name);

/* Frees what sse_config_parse() allocated; `cfg` may be partly filled. */
void sse_config_free(sse_config *cfg);

#endif /* MCPH_SSE_CONFIG_H */
