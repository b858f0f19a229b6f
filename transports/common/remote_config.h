/*
 * The configuration the remote transports (http, sse) share, parsed and
 * validated from the server's config JSON by create(), before anything is
 * sent:
 *
 *   "url"              http or https with a host (required)
 *   "headers"          an object of strings, sent with every request to
 *                      the server's origin and nowhere else (url.h)
 *   "timeout"          ms, 1 to 2147483647: the deadline of each POST
 *   "maxMessageBytes"  1024 to 2^32: the largest message taken
 *   "tls"              {"caFile", "certFile", "keyFile": readable files,
 *                      "insecure": true or false}
 *   "headersHelper"    a command printing more headers (headers_helper.h)
 *
 * Which URLs "url" takes is the transport's (remote_url_rule): http and
 * https for http and sse (url_check_http), ws and wss for ws.
 *
 * "type" and unknown keys are accepted and ignored. Every message quotes
 * the URL in its redacted form only (url_redacted()).
 */
#ifndef MCPH_REMOTE_CONFIG_H
#define MCPH_REMOTE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include <mcphost/host.h>

#include "url_rule.h"

#define REMOTE_DEFAULT_TIMEOUT_MS 60000L
#define REMOTE_DEFAULT_MAX_MESSAGE_BYTES ((size_t)64 << 20)

typedef struct remote_config {
  char *url;         /* "url", as configured */
  char *display_url; /* its redacted form, for messages */
  char **headers;    /* "Name: value" lines from "headers", NULL-terminated */
  long timeout_ms;   /* "timeout" */
  char *ca_file;     /* "tls.caFile", or NULL for the system store */
  char *cert_file;   /* "tls.certFile" (client certificate), or NULL */
  char *key_file;    /* "tls.keyFile", or NULL */
  bool insecure;     /* "tls.insecure": no certificate verification */
  size_t max_message_bytes; /* "maxMessageBytes" */
  char *headers_helper;     /* "headersHelper", or NULL */
} remote_config;

/* Loop thread. Parses `json` into `cfg` (zeroed by the caller). Returns
 * 0, MCPH_ENOMEM, or MCPH_EINVAL with a message naming the field, e.g.
 * "headers.X-Api-Key" must be a string. Configured headers the transport
 * sets itself (Accept, Content-Type, Mcp-Session-Id, ...) are ignored
 * with a warning logged through `host` for `server`; `transport` names
 * the transport in it ("http"). On error `cfg` holds nothing to free. */
int remote_config_parse(const char *json, const remote_url_rule *rule,
                        const mcph_host *host, const char *server,
                        const char *transport, remote_config *cfg,
                        mcph_error *err);

/* Loop thread. Merges the headers a headersHelper printed (`json`, a
 * JSON object of strings) over cfg->headers: a name the helper gives
 * replaces the configured one (case-insensitively), under the rules of
 * "headers" (names, values, the transport's own headers). Returns 0,
 * MCPH_ENOMEM, MCPH_EPROTO for output that is not a JSON object, or
 * MCPH_EINVAL naming the header ("headersHelper.X-Key" must be a
 * string); cfg->headers is unchanged on failure. */
int remote_config_merge_headers(remote_config *cfg, const char *json,
                                const mcph_host *host, const char *server,
                                const char *transport, mcph_error *err);

/* Whether `value` can be sent as a header value: no control character
 * but tab, no DEL. The rule of "headers", the headersHelper's and the
 * host's set_authorization. Pure. */
bool remote_config_header_value_ok(const char *value);

/* Frees what remote_config_parse() allocated; `cfg` may be partly
 * filled. */
void remote_config_free(remote_config *cfg);

#endif /* MCPH_REMOTE_CONFIG_H */
