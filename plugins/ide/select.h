/*
 * Which IDE a session connects to, as Claude Code chooses: among the
 * trusted lockfiles whose pid is running and whose workspaceFolders
 * contain the working directory, the only one; with several, the one
 * whose port CLAUDE_CODE_SSE_PORT names, else an error listing them.
 * CLAUDE_CODE_SSE_PORT (set by the IDE for its own terminal) may also
 * stand alone: the port selects the lockfile, which must still be live
 * and hold the working directory.
 *
 * Plain functions, any thread.
 */
#ifndef MCPH_IDE_SELECT_H
#define MCPH_IDE_SELECT_H

#include "lockfile.h"

/* Why a lockfile is not a candidate, or NULL when it is: a static
 * string ("stale: pid not running", "working directory outside its
 * workspace") or lk->error. */
const char *ide_lock_skip_reason(const ide_lock *lk);

/* Picks the lockfile to connect to. `sse_port` is CLAUDE_CODE_SSE_PORT
 * (NULL when unset). Returns its index in `l`, or -1 and a new message
 * in *why (free with free()) naming the lockfiles and why none or
 * several fit; *none is set when no lockfile is a candidate at all (and
 * no port was asked for), which auto-connection takes quietly. */
long ide_select(const ide_locks *l, const char *sse_port, char **why,
                int *none);

/* The server entry for lockfile `lk`, as JSON text of one server object:
 * {"type": "ws-ide"|"sse-ide", "url": ..., "ideName": ..., "authToken":
 * ... (only when it has one), "ideRunningInWindows": b}. New string. */
char *ide_server_entry(const ide_lock *lk);

#endif
