/* Writing all of a buffer to a blocking descriptor: the one loop that
 * goes on after a short write and after EINTR, for the host's files,
 * sockets and stdout and the plugins' files. (A descriptor the loop
 * watches for POLLOUT is written a part at a time by its owner instead.)
 * Any thread. */
#ifndef MCPHOST_COMMON_WRITE_ALL_H
#define MCPHOST_COMMON_WRITE_ALL_H

#include <stddef.h>

/* Writes the `n` bytes at `buf` to `fd` with write(2). 0 when all went,
 * else -1 with errno set (EIO when write() wrote nothing); how much went
 * before is not said: the caller gives the descriptor up. */
int write_all(int fd, const void *buf, size_t n);

/* The same with send(2) and MSG_NOSIGNAL, for a socket: a peer that went
 * away is EPIPE, not a SIGPIPE that ends the process. */
int send_all(int fd, const void *buf, size_t n);

#endif
