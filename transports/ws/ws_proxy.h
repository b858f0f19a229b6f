/* The proxy for a WebSocket URL from the environment, by the rules of
 * libcurl (which the http transports follow): wss uses https_proxy or
 * HTTPS_PROXY, ws uses http_proxy (lower case only, as curl), either
 * falls back to all_proxy / ALL_PROXY; no_proxy / NO_PROXY lists hosts
 * (and their subdomains) reached directly, "*" all of them. Only http://
 * proxies are supported (libwebsockets tunnels through CONNECT). Loop
 * thread (getenv). */
#ifndef MCPH_WS_PROXY_H
#define MCPH_WS_PROXY_H

#include <stdbool.h>
#include <stddef.h>

#include "ws_url.h"

/* Sets *out to the proxy as lws_set_proxy() takes it ("[user:pass@]host:
 * port", new) or NULL for none. Returns false for a proxy variable that
 * cannot be used, with the reason in `why` (it names the variable). */
bool ws_proxy_for(const ws_url *u, char **out, char *why, size_t why_len);

#endif
