/* The Authorization value the host gives a remote transport
 * (mcph_transport_factory.set_authorization, ABI 1.6), kept as one header
 * line, and the one rule for which Authorization a request carries: the
 * host's value when it gave one, replacing a configured "Authorization"
 * header; else the configured headers as they are. Requests already
 * under way keep the headers they were built with. Loop thread (the
 * transport's). */
#ifndef MCPHOST_TRANSPORT_AUTHORIZATION_H
#define MCPHOST_TRANSPORT_AUTHORIZATION_H

#include <stdbool.h>

#include <curl/curl.h>

/* Replaces *line (malloc'd "Authorization: VALUE", or NULL) by one for
 * `value`; NULL clears it (back to the configuration's). Returns
 * MCPH_OK, MCPH_EINVAL for a value that cannot be a header
 * (remote_config_header_value_ok; *line is unchanged) or MCPH_ENOMEM. */
int authorization_set(char **line, const char *value);

/* Appends the configured header lines `configured` (NULL-terminated
 * "Name: value", may be NULL) to *list, leaving out a configured
 * Authorization when `line` is set, and then `line`. Returns false when
 * out of memory (*list holds what was appended; free it). */
bool authorization_headers(struct curl_slist **list, char *const *configured,
                           const char *line);

#endif
