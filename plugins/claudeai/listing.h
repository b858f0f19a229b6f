/* The claude.ai connectors of the logged-in user: one request,
 *   GET {MCPHOST_CLAUDEAI_API_BASE, default https://api.anthropic.com}
 *       /v1/mcp_servers?limit=LISTING_LIMIT
 * with the claude.ai token and the headers Claude Code sends, a 5 s
 * timeout, no redirects followed (the token goes to that host only), and
 * its answer {"data": [{"id", "display_name", "url"}, ...]} turned into
 * the server source's document (server_source.h, "scope": "claudeai"):
 *   {"scope": "claudeai", "mcpServers": {"claude.ai <display_name>":
 *     {"type": "claudeai-proxy", "url": <upstream>, "id": <id>}, ...}}
 * A name whose normalized form (every character outside [A-Za-z0-9_-]
 * as "_") another connector has already gets " (2)", " (3)", ... until it
 * is unique, as Claude Code names them. Blocks the loop thread for at
 * most the timeout. */
#ifndef MCPHOST_CLAUDEAI_LISTING_H
#define MCPHOST_CLAUDEAI_LISTING_H

#include <stddef.h>

#include "creds.h"

#define LISTING_TIMEOUT_MS 5000
/* Connectors asked for (limit=); an answer that lists more is refused. */
#define LISTING_LIMIT 1000

/* The document (a new string: free it), or NULL with `why` filled: no
 * usable token (naming the file and the fault), or the request failed. */
char *listing_fetch(creds *c, char *why, size_t size);

/* The document for the body of a listing answer (`len` bytes of `text`);
 * NULL with `why` when the body is not a listing. */
char *listing_document(const char *text, size_t len, char *why, size_t size);

#endif
