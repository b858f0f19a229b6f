/* The reason phrase of an HTTP status code, for the gateway's responses
 * (host/cli/serve_http.c) and the remote transports' messages
 * (http_client_reason). Any thread. */
#ifndef MCPHOST_COMMON_HTTP_STATUS_H
#define MCPHOST_COMMON_HTTP_STATUS_H

/* A static string: "Not Found" for 404; "" for a code it does not know. */
const char *http_status_reason(long status);

#endif
