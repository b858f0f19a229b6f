/* Roots: the directories mcphost offers a server as its workspace
 * (roots/list). A server that takes roots may treat them as its sandbox:
 * @modelcontextprotocol/server-filesystem replaces the directories it was
 * started with by the client's roots. So which roots a server gets is the
 * user's choice, in this order:
 *   --no-roots            none, and the roots capability is not declared;
 *   --root DIR...         those, for every server;
 *   "roots": [...]        the server entry's own list ([] = none);
 *   otherwise             the working directory, as Claude Code does,
 *                         except "/" (the whole disk is never offered
 *                         unless asked for with --root / or "roots").
 * A server's "cwd" is never a root unless listed. Loop thread only. */
#ifndef MCPHOST_ROOTS_H
#define MCPHOST_ROOTS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"

typedef struct roots_options {
  const char *const *dirs; /* --root, resolved by roots_resolve_dir */
  size_t ndirs;
  bool none;       /* --no-roots */
  const char *cwd; /* the working directory (absolute) */
} roots_options;

/* Checks the "roots" key of server entry `e` at JSON path `where`: absent,
 * or an array of non-empty strings. Records an error naming `src`, the
 * server and the element at fault and returns false otherwise. */
bool roots_check_entry(config *c, const char *src, const char *where,
                       const char *name, const cJSON *e);

/* Resolves a directory the user named: `path` relative to `base` (an
 * absolute directory) unless absolute, "~/" from $HOME, symbolic links
 * resolved. Returns a new string, or NULL with `why` filled when it is not
 * an existing directory. */
char *roots_resolve_dir(const char *base, const char *path, char *why,
                        size_t why_len);

/* What roots_offer says of a server's roots: a line at `level`
 * (MCPH_LOG_*) about server `server`. */
typedef void (*roots_note_fn)(void *ud, int level, const char *server,
                              const char *message);
/* The roots/list "roots" array server `sc` gets (a new array the caller
 * owns), or NULL when roots are off (--no-roots: declare no capability).
 * A listed root that is not a directory is left out with a warning to
 * `note` (may be NULL) naming the file, the server and the element.
 * roots_for_server (core/host.h) says them on the host's log. */
cJSON *roots_offer(const server_config *sc, const roots_options *o,
                   roots_note_fn note, void *ud);

/* One root object {"uri": "file://...", "name": "<last component>"} for an
 * absolute path, the path percent-encoded as RFC 3986 and RFC 8089 want. */
cJSON *roots_entry(const char *abs_path);

#endif
