/* Who is at the other end of a loopback TCP connection (serve_http.h).
 *
 * A TCP socket has no SO_PEERCRED; but on loopback the peer's socket is
 * on this machine, and the kernel's socket diagnostics (NETLINK_SOCK_DIAG,
 * what ss(8) reads) say who owns it. One exact lookup by the
 * connection's four-tuple, seen from the peer's side: its local address
 * is our peer address, its remote one our local address. No dump, no
 * parsing of /proc/net/tcp: the answer is one message for one socket. */
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli/serve_http.h"

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

int gw_http_peer_uid(int fd, uid_t *uid, char *why, size_t why_len) {
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
  struct {
    struct nlmsghdr nh;
    struct inet_diag_req_v2 r;
  } req;
  memset(&req, 0, sizeof req);
  req.nh.nlmsg_len = sizeof req;
  req.nh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
  req.nh.nlmsg_flags = NLM_F_REQUEST;
  req.r.sdiag_family = (__u8)peer.ss_family;
  req.r.sdiag_protocol = IPPROTO_TCP;
  req.r.idiag_states = ~0u;
  req.r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
  req.r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
  put_end(&peer, req.r.id.idiag_src, &req.r.id.idiag_sport);
  put_end(&self, req.r.id.idiag_dst, &req.r.id.idiag_dport);

  int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (nl < 0) {
    snprintf(why, why_len, "cannot open socket diagnostics: %s",
             strerror(errno));
    return -1;
  }
  /* The kernel answers at once; the bound only keeps a broken netlink
   * from holding the loop. */
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
    char buf[8192];
  } ans;
  ssize_t n = recv(nl, &ans, sizeof ans, 0);
  if (n < (ssize_t)sizeof ans.nh) {
    snprintf(why, why_len, "no answer from socket diagnostics%s%s",
             n < 0 ? ": " : "", n < 0 ? strerror(errno) : "");
    goto out;
  }
  struct nlmsghdr *h = &ans.nh;
  if (!NLMSG_OK(h, (size_t)n)) {
    snprintf(why, why_len, "a malformed answer from socket diagnostics");
    goto out;
  }
  if (h->nlmsg_type == NLMSG_ERROR) {
    const struct nlmsgerr *e = NLMSG_DATA(h);
    snprintf(why, why_len,
             "the peer's socket is not on this machine's loopback (%s)",
             h->nlmsg_len >= NLMSG_LENGTH(sizeof *e) && e->error
                 ? strerror(-e->error)
                 : "no such socket");
    goto out;
  }
  if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
      h->nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
    snprintf(why, why_len, "an unexpected answer from socket diagnostics");
    goto out;
  }
  const struct inet_diag_msg *m = NLMSG_DATA(h);
  *uid = (uid_t)m->idiag_uid;
  rc = 0;
out:
  close(nl);
  return rc;
}
