/* The first requests of a connection wait until a server that asks for
 * roots right after notifications/initialized has had them.
 *
 * A server such as server-filesystem asks roots/list when it is told
 * "initialized" and applies the answer asynchronously; a tools/call sent
 * at once would reach it before (and be refused outside its old
 * sandbox). So when a legacy session to a local (stdio) server declares
 * roots and answers them itself, the requests made after initialize are
 * held behind one ping:
 * the server reads initialized before the ping, so its roots/list (if
 * any) arrives before the pong. No roots/list by then: the requests go
 * at once. One: a second ping follows the answer, and they go
 * ROOTS_SETTLE_MS (MCPHOST_ROOTS_SETTLE_MS overrides it) plus twice its
 * round trip after its pong: the server's own work on the answer, longer
 * when it is slow (a loaded machine). A server that does not answer a
 * ping holds them ROOTS_PROBE_MS at most each time.
 * Loop thread only. */
#ifndef MCPHOST_MCP_ROOTS_SETTLE_H
#define MCPHOST_MCP_ROOTS_SETTLE_H

#include <stdbool.h>

struct session;

#define ROOTS_SETTLE_MS 100
#define ROOTS_PROBE_MS 2000

/* After notifications/initialized: holds the requests behind the ping
 * when the session offers roots itself; does nothing otherwise. */
void roots_settle_start(struct session *s);
/* The server asked roots/list and was answered. */
void roots_settle_asked(struct session *s);
/* Ends the wait when the connection ended, after its requests were
 * failed (nothing is sent then). */
void roots_settle_end(struct session *s);

#endif
