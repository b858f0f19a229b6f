/* The loopback redirect target (RFC 8252 §7.3): a listener on 127.0.0.1
 * only, on oauth.callbackPort or a random port, that waits for the one
 * "GET /callback?..." whose state is the flow's and answers it a short
 * static page; and, in print mode, a redirect URL pasted on the terminal
 * instead (SSH and headless machines), whichever comes first. Any local
 * process can reach the port: a request that is not the response (another
 * path, another or no state) is answered 400 and the wait goes on, and
 * several connections are read at once, each with its own deadline, so
 * that one that says nothing holds up no other. Nothing a request carries
 * is shown on the page or the terminal. */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "flow.h"

int callback_listen(oauth_flow *f, int port, int *bound) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    snprintf(f->message, sizeof f->message, "callback listener: %s",
             strerror(errno));
    return -1;
  }
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET,
                          .sin_port = htons((uint16_t)port),
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 16) != 0) {
    int e = errno;
    close(fd);
    if (e == EADDRINUSE) {
      /* A pinned port is never changed: it is registered with the
       * authorization server. */
      snprintf(f->message, sizeof f->message,
               "the callback port %d (oauth.callbackPort) is in use; find "
               "its owner with: ss -ltnp 'sport = :%d'",
               port, port);
    } else {
      snprintf(f->message, sizeof f->message, "callback listener: %s",
               strerror(e));
    }
    return -1;
  }
  socklen_t len = sizeof a;
  getsockname(fd, (struct sockaddr *)&a, &len);
  *bound = ntohs(a.sin_port);
  return fd;
}

static const char page[] =
    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
    "Connection: close\r\nCache-Control: no-store\r\n\r\n"
    "<!doctype html><title>mcphost</title><p>mcphost received the "
    "authorization response. You may close this window.</p>\n";
static const char not_ours[] =
    "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\n"
    "Content-Length: 46\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n"
    "not the authorization response mcphost awaits\n";

/* Connections read at once: one that sends nothing (or half a request)
 * holds a slot until its own deadline, never the listener; when all are
 * taken the oldest makes room for the newest. */
#define CONNS_MAX 8
#define CONN_MS 10000 /* a request head's time */
#define HEAD_MAX 8192

typedef struct conn {
  int fd; /* -1: free */
  int64_t deadline;
  size_t len;
  char buf[HEAD_MAX];
} conn;

static void conn_close(conn *c, const char *answer) {
  if (answer && write(c->fd, answer, strlen(answer)) < 0) {
    /* the peer went away: nothing to tell it */
  }
  close(c->fd);
  c->fd = -1;
  c->len = 0;
}

/* The request's target when `c` holds a whole request head ("GET target
 * HTTP/1.x" and its headers): a new string; NULL with *done set when the
 * head is complete but not a GET, or will not fit. */
static char *head_target(conn *c, bool *done) {
  c->buf[c->len] = '\0';
  *done = strstr(c->buf, "\r\n\r\n") || strstr(c->buf, "\n\n") ||
          c->len >= HEAD_MAX - 1;
  if (!*done || strncmp(c->buf, "GET ", 4) != 0) {
    return NULL;
  }
  size_t n = strcspn(c->buf + 4, " \r\n");
  return n ? oauth_strndup(c->buf + 4, n) : NULL;
}

/* Whether `url` (a callback target or a pasted URL) is the response to
 * this flow's request: its state is the one sent. Anything else, from a
 * process that can reach the port, or a stale tab, is not an answer. */
static bool is_ours(const char *url, const char *expect_state, bool path) {
  if (path && (strncmp(url, "/callback", 9) != 0 ||
               (url[9] != '?' && url[9] != '\0'))) {
    return false;
  }
  char *st = oauth_query_param(url, "state");
  bool ours = st && expect_state && strcmp(st, expect_state) == 0;
  free(st);
  return ours;
}

/* Reads what arrived on `c`: the target of the awaited response (the
 * connection answered and closed), or NULL (a connection still reading,
 * or refused and closed: *refused counts it). */
static char *conn_read(conn *c, const char *expect_state, int *refused) {
  ssize_t n = read(c->fd, c->buf + c->len, HEAD_MAX - 1 - c->len);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
    return NULL;
  }
  if (n <= 0) {
    conn_close(c, NULL);
    return NULL;
  }
  c->len += (size_t)n;
  bool done;
  char *t = head_target(c, &done);
  if (!done) {
    return NULL;
  }
  if (t && is_ours(t, expect_state, true)) {
    conn_close(c, page);
    return t;
  }
  free(t);
  if ((*refused)++ == 0) { /* once: a flood of them is no news */
    fprintf(stderr, "mcphost: a request to the login's callback that is "
                    "not its response was refused; still waiting\n");
  }
  conn_close(c, not_ours);
  return NULL;
}

/* Takes a new connection into a free slot, or the oldest one's. */
static void conn_accept(int fd, conn *cs) {
  int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (c < 0) {
    return;
  }
  conn *slot = &cs[0];
  for (int i = 0; i < CONNS_MAX; i++) {
    if (cs[i].fd < 0) {
      slot = &cs[i];
      break;
    }
    if (cs[i].deadline < slot->deadline) {
      slot = &cs[i];
    }
  }
  if (slot->fd >= 0) {
    conn_close(slot, NULL);
  }
  slot->fd = c;
  slot->len = 0;
  slot->deadline = oauth_now_ms() + CONN_MS;
}

/* A line pasted on the terminal: the URL on it as a new string once a
 * whole line came, else NULL. *eof is set at the end of input. */
static char *paste_read(strbuf *line, bool *eof) {
  char buf[4096];
  ssize_t r = read(0, buf, sizeof buf);
  if (r <= 0) {
    *eof = true;
    return NULL;
  }
  sb_add(line, buf, (size_t)r);
  char *nl = strchr(line->data, '\n');
  if (!nl) {
    return NULL;
  }
  *nl = '\0';
  char *u = line->data;
  while (*u == ' ' || *u == '\t') {
    u++;
  }
  size_t ul = strcspn(u, "\r \t");
  char *got = ul ? oauth_strndup(u, ul) : NULL;
  line->len = 0;
  line->data[0] = '\0';
  return got;
}

char *callback_wait(oauth_flow *f, int fd, bool paste, int64_t wait_ms,
                    const char *expect_state) {
  int64_t deadline = oauth_now_ms() + wait_ms;
  strbuf line = {0};
  conn *cs = oauth_calloc(CONNS_MAX, sizeof *cs);
  for (int i = 0; i < CONNS_MAX; i++) {
    cs[i].fd = -1;
  }
  char *got = NULL;
  int refused = 0;
  while (!got) {
    int64_t now = oauth_now_ms(), left = deadline - now;
    if (left <= 0) {
      snprintf(f->message, sizeof f->message,
               "no authorization response within %lld minutes",
               (long long)(wait_ms / 60000));
      break;
    }
    if (atomic_load(&f->cancel)) {
      snprintf(f->message, sizeof f->message, "the authorization was ended");
      break;
    }
    struct pollfd p[2 + CONNS_MAX];
    p[0] = (struct pollfd){.fd = fd, .events = POLLIN};
    p[1] = (struct pollfd){.fd = paste ? 0 : -1, .events = POLLIN};
    for (int i = 0; i < CONNS_MAX; i++) {
      if (cs[i].fd >= 0 && cs[i].deadline <= now) {
        conn_close(&cs[i], NULL); /* said too little in its time */
      }
      p[2 + i] = (struct pollfd){.fd = cs[i].fd, .events = POLLIN};
    }
    /* Short waits: mcphost may be leaving (f->cancel). */
    int n = poll(p, 2 + CONNS_MAX, (int)(left > 250 ? 250 : left));
    if (n < 0 && errno != EINTR) {
      snprintf(f->message, sizeof f->message, "callback: %s", strerror(errno));
      break;
    }
    if (n <= 0) {
      continue;
    }
    for (int i = 0; i < CONNS_MAX && !got; i++) {
      if (cs[i].fd >= 0 && (p[2 + i].revents & (POLLIN | POLLHUP | POLLERR))) {
        got = conn_read(&cs[i], expect_state, &refused);
      }
    }
    if (!got && (p[0].revents & POLLIN)) {
      conn_accept(fd, cs);
    }
    if (!got && paste && (p[1].revents & (POLLIN | POLLHUP))) {
      bool eof = false;
      got = paste_read(&line, &eof);
      paste = !eof; /* end of input: the listener alone */
      if (got && !is_ours(got, expect_state, false)) {
        fprintf(stderr, "mcphost: that URL is not this login's response "
                        "(another state); paste the URL the browser ends "
                        "on\n");
        free(got);
        got = NULL;
      }
    }
  }
  for (int i = 0; i < CONNS_MAX; i++) {
    if (cs[i].fd >= 0) {
      conn_close(&cs[i], NULL);
    }
  }
  free(cs);
  sb_free(&line);
  return got;
}
