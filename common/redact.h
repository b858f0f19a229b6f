/* Keeping secrets out of logs and error messages. Text about to be
 * logged or printed as an error may quote a server, an HTTP exchange or a
 * configuration: the values of token-like fields and Authorization
 * headers in it are replaced by "[REDACTED]". Recognized shapes, with the
 * field names matched case-insensitively:
 *   JSON       "access_token": "v"   (also escaped inside a JSON string,
 *              \"access_token\":\"v\", and with single quotes)
 *   form/query access_token=v         (up to &, whitespace, quote, ;,)]})
 *   header     Authorization: v       (to the end of the line)
 * Fields: access_token, refresh_token, id_token, assertion, subject_token,
 * client_secret, authorization, proxy-authorization; in JSON also with a
 * prefix (oauth_access_token), never with a suffix (access_token_expiry
 * is not a secret). Only string values are replaced. A quoted value cut
 * off by the end of the text (a log line truncated mid-token) is redacted
 * to the end. Pure function; any thread. */
#ifndef MCPHOST_REDACT_H
#define MCPHOST_REDACT_H

#define REDACTED "[REDACTED]"

/* Returns a new string (free with free()): `text` with secrets replaced. */
char *redact(const char *text);

#endif
