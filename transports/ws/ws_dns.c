/* Name resolution in a short-lived thread; see ws_dns.h. */
#include "ws_dns.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct ws_dns {
  const mcph_host *host;
  ws_dns_cb cb;
  void *ud;
  char *name;
  pthread_t thread;
  int fds[2]; /* the worker writes one byte to fds[1] when done */
  mcph_watch *w;
  bool joined;
  /* Written by the worker, read on the loop once it is joined. */
  int gai;
  char address[INET6_ADDRSTRLEN];
};

static void *worker(void *arg) {
  ws_dns *d = arg;
  struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
                           .ai_flags = AI_ADDRCONFIG};
  struct addrinfo *res = NULL;
  d->gai = getaddrinfo(d->name, NULL, &hints, &res);
  if (d->gai == 0) {
    const struct addrinfo *a = res;
    for (; a; a = a->ai_next) {
      const void *p = NULL;
      if (a->ai_family == AF_INET) {
        p = &((const struct sockaddr_in *)(const void *)a->ai_addr)->sin_addr;
      } else if (a->ai_family == AF_INET6) {
        p = &((const struct sockaddr_in6 *)(const void *)a->ai_addr)->sin6_addr;
      }
      if (p && inet_ntop(a->ai_family, p, d->address, sizeof d->address)) {
        break;
      }
    }
    if (!a) {
      d->gai = EAI_NONAME;
    }
    freeaddrinfo(res);
  }
  char one = 1;
  while (write(d->fds[1], &one, 1) < 0 && errno == EINTR) {
  }
  return NULL;
}

static void dns_free(ws_dns *d) {
  if (d->w) {
    d->host->fd_unwatch(d->host, d->w);
  }
  if (!d->joined) {
    pthread_join(d->thread, NULL);
  }
  close(d->fds[0]);
  close(d->fds[1]);
  free(d->name);
  free(d);
}

static void on_done(void *ud, int fd, unsigned events) {
  ws_dns *d = ud;
  (void)fd;
  (void)events;
  /* The worker wrote its byte last: it is ending. Joined before its
   * answer is read, so that the join orders the memory. */
  pthread_join(d->thread, NULL);
  d->joined = true;
  if (d->gai == 0) {
    d->cb(d->ud, 0, d->address, NULL);
  } else {
    d->cb(d->ud, MCPH_ECONNREFUSED, NULL, gai_strerror(d->gai));
  }
  dns_free(d);
}

ws_dns *ws_dns_start(const mcph_host *host, const char *name, ws_dns_cb cb,
                     void *ud) {
  ws_dns *d = calloc(1, sizeof *d);
  if (!d) {
    return NULL;
  }
  d->host = host;
  d->cb = cb;
  d->ud = ud;
  if (!(d->name = strdup(name)) || pipe2(d->fds, O_CLOEXEC) != 0) {
    free(d->name);
    free(d);
    return NULL;
  }
  if (pthread_create(&d->thread, NULL, worker, d) != 0) {
    close(d->fds[0]);
    close(d->fds[1]);
    free(d->name);
    free(d);
    return NULL;
  }
  if (host->fd_watch(host, d->fds[0], MCPH_FD_READ, on_done, d, &d->w) != 0) {
    d->w = NULL;
    dns_free(d);
    return NULL;
  }
  return d;
}

void ws_dns_cancel(ws_dns *d) {
  if (d) {
    dns_free(d);
  }
}
