/* The redacted form of a URL from a configuration, for every message and
 * log line that quotes one: the user name and password are left out, and a
 * query (which often carries an API key) and a fragment become "?…". Works
 * on text that does not parse as a URL too, by hand and without libcurl,
 * so that the host (which does not load libcurl) and the transports show
 * the same form. Pure function; any thread. */
#ifndef MCPHOST_URL_REDACT_H
#define MCPHOST_URL_REDACT_H

/* A new string (free()), or NULL when out of memory. */
char *url_redacted(const char *url);

#endif
