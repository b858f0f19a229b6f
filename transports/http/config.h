/*
 * The http transport's configuration: parsed and validated from the
 * server's config JSON by create(), before anything is sent.
 */
#ifndef MCPH_HTTP_CONFIG_H
#define MCPH_HTTP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include <mcphost/host.h>

#define HTTP_DEFAULT_TIMEOUT_MS 60000L
#define HTTP_DEFAULT_MAX_MESSAGE_BYTES ((size_t)64 << 20)

typedef struct http_config {
  char *url;         /* "url", http or https, as configured */
  char *display_url; /* for messages: without credentials or query */
  char **headers;    /* "Name: value" lines from "headers", NULL-terminated */
  long timeout_ms;   /* "timeout": per POST */
  char *ca_file;     /* "tls.caFile", or NULL for the system store */
  char *cert_file;   /* "tls.certFile" (client certificate), or NULL */
  char *key_file;    /* "tls.keyFile", or NULL */
  bool insecure;     /* "tls.insecure": no certificate verification */
  size_t max_message_bytes; /* "maxMessageBytes" */
} http_config;

/* Loop thread. Parses `json` into `cfg` (zeroed by the caller). Returns 0,
 * MCPH_ENOMEM, or MCPH_EINVAL with a message naming the field, e.g.
 * "headers.X-Api-Key" must be a string. Warnings (ignored headers) are
 * logged through `host` for `server`. On error `cfg` holds nothing that
 * needs freeing beyond what http_config_free() frees. */
int http_config_parse(const char *json, const mcph_host *host,
                      const char *server, http_config *cfg, mcph_error *err);

/* Frees what http_config_parse() allocated; `cfg` may be partly filled. */
void http_config_free(http_config *cfg);

#endif /* MCPH_HTTP_CONFIG_H */
