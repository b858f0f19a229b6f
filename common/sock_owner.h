/* Who owns a TCP socket on this machine's loopback, asked of the kernel's
 * socket diagnostics (NETLINK_SOCK_DIAG, what ss(8) reads). A TCP
 * connection has no SO_PEERCRED; on loopback both ends are local, and the
 * kernel knows the uid that made each socket. Two questions:
 *
 *   - the gateway, on a connection it accepted: whose is the other end?
 *   - a client, before it sends a secret to 127.0.0.1:PORT (the IDE's
 *     token): whose is the socket listening there?
 *
 * Each is one request and its answer; no /proc parsing. Any thread (no
 * global state; the netlink socket lives for the call); the kernel
 * answers at once, and a receive bound of 1 s keeps a broken netlink
 * from holding the caller. Compiled into the host and into plugins. */
#ifndef MCPHOST_COMMON_SOCK_OWNER_H
#define MCPHOST_COMMON_SOCK_OWNER_H

#include <stddef.h>
#include <sys/types.h>

/* The uid that owns the peer's socket of the loopback TCP connection
 * `fd`. Returns 0, or -1 with `why` filled (the caller refuses then). */
int sock_owner_peer(int fd, uid_t *uid, char *why, size_t why_len);

/* The owner of what listens for TCP connections to 127.0.0.1:`port`: a
 * socket bound to 127.0.0.1 or to a wildcard address (0.0.0.0, ::),
 * the IPv6 ones included since they take IPv4 connections too. Returns
 * the number found (0: nothing listens), with `*uid` set to their owner
 * when they all have one; -1 with `why` filled on an error, or when two
 * of them have different owners (`*uid` is then the first that is not
 * `want`). */
int sock_owner_listener(unsigned port, uid_t want, uid_t *uid, char *why,
                        size_t why_len);

#endif
