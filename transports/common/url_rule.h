/* How a remote transport checks its configured "url" (remote_config.h):
 * `check` returns true, or false with the reason (never quoting the
 * URL); `schemes` names what it takes, for the message ("http or
 * https"). The http and sse transports use url_http_rule (url.h); ws has
 * its own (transports/ws/ws_url.h), as it does not load libcurl. */
#ifndef MCPH_URL_RULE_H
#define MCPH_URL_RULE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct remote_url_rule {
  const char *schemes;
  bool (*check)(const char *url, char *why, size_t why_len);
} remote_url_rule;

#endif
