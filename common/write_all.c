/* See write_all.h. */
#include "write_all.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <unistd.h>

static int put_all(int fd, const char *p, size_t n, bool sock) {
  while (n > 0) {
    ssize_t w = sock ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w <= 0) {
      if (w == 0) {
        errno = EIO;
      }
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int write_all(int fd, const void *buf, size_t n) {
  return put_all(fd, buf, n, false);
}

int send_all(int fd, const void *buf, size_t n) {
  return put_all(fd, buf, n, true);
}
