/* Who owns a TCP socket on loopback (sock_owner.h).
 *
 * sock_owner_peer is one exact lookup by the connection's four-tuple, seen
 * from the peer's side: its local address is our peer address, its remote
 * one our local address. sock_owner_listener dumps the listening sockets
 * of each family and keeps those that take connections to 127.0.0.1:PORT. */
#include "sock_owner.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

enum { TCP_STATE_LISTEN = 10 }; /* include/net/tcp_states.h */

/* One inet_diag request and its answers: `on_msg` gets each socket the
 * kernel reports (a dump ends with NLMSG_DONE, a lookup after one).
 * Returns 0, or -1 with `why` filled. */
static int diag_ask(const struct inet_diag_req_v2 *r, bool dump,
                    void (*on_msg)(void *ud, const struct inet_diag_msg *m),
                    void *ud, char *why, size_t why_len) {
  struct {
    struct nlmsghdr nh;
    struct inet_diag_req_v2 r;
  } req;
  memset(&req, 0, sizeof req);
  req.nh.nlmsg_len = sizeof req;
  req.nh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
  req.nh.nlmsg_flags = (__u16)(NLM_F_REQUEST | (dump ? NLM_F_DUMP : 0));
  req.r = *r;
  int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (nl < 0) {
    snprintf(why, why_len, "cannot open socket diagnostics: %s",
             strerror(errno));
    return -1;
  }
  struct timeval tv = {.tv_sec = 1};
  setsockopt(nl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
  int rc = -1;
  if (sendto(nl, &req, sizeof req, 0, (struct sockaddr *)&kernel,
             sizeof kernel) != (ssize_t)sizeof req) {
    snprintf(why, why_len, "cannot ask socket diagnostics: %s",
             strerror(errno));
    goto out;
  }
  union {
    struct nlmsghdr nh;
    char buf[32768];
  } ans;
  for (;;) {
    ssize_t n = recv(nl, &ans, sizeof ans, 0);
    if (n < (ssize_t)sizeof ans.nh) {
      snprintf(why, why_len, "no answer from socket diagnostics%s%s",
               n < 0 ? ": " : "", n < 0 ? strerror(errno) : "");
      goto out;
    }
    size_t left = (size_t)n;
    for (struct nlmsghdr *h = &ans.nh; NLMSG_OK(h, left);
         h = NLMSG_NEXT(h, left)) {
      if (h->nlmsg_type == NLMSG_DONE) {
        rc = 0;
        goto out;
      }
      if (h->nlmsg_type == NLMSG_ERROR) {
        const struct nlmsgerr *e = NLMSG_DATA(h);
        int err = h->nlmsg_len >= NLMSG_LENGTH(sizeof *e) ? -e->error : 0;
        snprintf(why, why_len, "no such socket on this machine (%s)",
                 err ? strerror(err) : "refused");
        goto out;
      }
      if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
          h->nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
        snprintf(why, why_len, "an unexpected answer from socket diagnostics");
        goto out;
      }
      on_msg(ud, NLMSG_DATA(h));
      if (!dump) {
        rc = 0;
        goto out;
      }
    }
  }
out:
  close(nl);
  return rc;
}

/* The address and port of `sa` into the diag id's fields. */
static void put_end(const struct sockaddr_storage *sa, __be32 addr[4],
                    __be16 *port) {
  if (sa->ss_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)sa;
    memcpy(addr, &v4->sin_addr, sizeof v4->sin_addr);
    *port = v4->sin_port;
  } else {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
    memcpy(addr, &v6->sin6_addr, sizeof v6->sin6_addr);
    *port = v6->sin6_port;
  }
}

static void take_uid(void *ud, const struct inet_diag_msg *m) {
  *(uid_t *)ud = (uid_t)m->idiag_uid;
}

int sock_owner_peer(int fd, uid_t *uid, char *why, size_t why_len) {
  struct sockaddr_storage self, peer;
  socklen_t sl = sizeof self, pl = sizeof peer;
  if (getsockname(fd, (struct sockaddr *)&self, &sl) != 0 ||
      getpeername(fd, (struct sockaddr *)&peer, &pl) != 0) {
    snprintf(why, why_len, "cannot read the connection's addresses: %s",
             strerror(errno));
    return -1;
  }
  if (peer.ss_family != AF_INET && peer.ss_family != AF_INET6) {
    snprintf(why, why_len, "not a TCP/IP connection");
    return -1;
  }
  struct inet_diag_req_v2 r;
  memset(&r, 0, sizeof r);
  r.sdiag_family = (__u8)peer.ss_family;
  r.sdiag_protocol = IPPROTO_TCP;
  r.idiag_states = ~0u;
  r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
  r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
  put_end(&peer, r.id.idiag_src, &r.id.idiag_sport);
  put_end(&self, r.id.idiag_dst, &r.id.idiag_dport);
  return diag_ask(&r, false, take_uid, uid, why, why_len);
}

typedef struct listeners {
  unsigned port;
  uid_t want, first, odd;
  int found;
  bool mixed;
} listeners;

/* Whether a listener bound to `a` (of `family`) takes connections to
 * 127.0.0.1: 127.0.0.1 itself, 0.0.0.0, ::, or ::ffff:127.0.0.1. */
static bool takes_loopback4(int family, const __be32 a[4]) {
  static const unsigned char lo4[4] = {127, 0, 0, 1};
  static const unsigned char mapped[16] = {0, 0, 0,    0,    0,   0, 0, 0,
                                           0, 0, 0xff, 0xff, 127, 0, 0, 1};
  static const unsigned char zero[16] = {0};
  if (family == AF_INET) {
    return memcmp(a, lo4, 4) == 0 || memcmp(a, zero, 4) == 0;
  }
  return memcmp(a, zero, 16) == 0 || memcmp(a, mapped, 16) == 0;
}

static void take_listener(void *ud, const struct inet_diag_msg *m) {
  listeners *l = ud;
  if (ntohs(m->id.idiag_sport) != l->port ||
      !takes_loopback4(m->idiag_family, m->id.idiag_src)) {
    return;
  }
  uid_t u = (uid_t)m->idiag_uid;
  if (l->found++ == 0) {
    l->first = u;
  } else if (u != l->first) {
    l->mixed = true;
  }
  if (u != l->want) {
    l->odd = u;
  }
}

int sock_owner_listener(unsigned port, uid_t want, uid_t *uid, char *why,
                        size_t why_len) {
  listeners l = {.port = port, .want = want, .odd = want};
  static const int families[] = {AF_INET, AF_INET6};
  for (size_t i = 0; i < sizeof families / sizeof *families; i++) {
    struct inet_diag_req_v2 r;
    memset(&r, 0, sizeof r);
    r.sdiag_family = (__u8)families[i];
    r.sdiag_protocol = IPPROTO_TCP;
    r.idiag_states = 1u << TCP_STATE_LISTEN;
    if (diag_ask(&r, true, take_listener, &l, why, why_len) != 0) {
      return -1;
    }
  }
  if (l.mixed) {
    *uid = l.odd;
    snprintf(why, why_len,
             "sockets of different users listen on port %u (one is uid %u)",
             port, (unsigned)l.odd);
    return -1;
  }
  *uid = l.first;
  return l.found;
}
