/* The reason phrase of an HTTP status code, for the gateway's responses
 * (gateway/serve_http.c) and the remote transports' messages
 * (http_client_reason); and the one classification of an HTTP error
 * status for every remote transport (http, sse, ws). Any thread. */
#ifndef MCPHOST_COMMON_HTTP_STATUS_H
#define MCPHOST_COMMON_HTTP_STATUS_H

#include <stdbool.h>

/* A static string: "Not Found" for 404; "" for a code it does not know. */
const char *http_status_reason(long status);

/* What an HTTP error status means (mcphost/transport.h): MCPH_EAUTH for
 * 401 and 403 (authorization is needed: exit 7, the login hint, the auth
 * provider), MCPH_EIO for a 5xx, else MCPH_EPROTO. */
int http_status_error(long status);

/* Whether the status asks for authorization: http_status_error() is
 * MCPH_EAUTH. */
bool http_status_is_auth(long status);

#endif
