/* The loopback redirect target (RFC 8252 §7.3): a listener on 127.0.0.1
 * only, on oauth.callbackPort or a random port, that takes one
 * "GET /callback?..." and answers a short static page; and, in print
 * mode, a redirect URL pasted on the terminal instead (SSH and headless
 * machines), whichever comes first. Nothing the request carries is shown
 * on the page. */
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
  if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 4) != 0) {
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
static const char not_found[] =
    "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

/* Reads one request's target from a connection: a new string or NULL. */
static char *read_target(int c, int64_t deadline) {
  char buf[8192];
  size_t len = 0;
  while (len < sizeof buf - 1) {
    int64_t left = deadline - oauth_now_ms();
    struct pollfd p = {.fd = c, .events = POLLIN};
    if (left <= 0 || poll(&p, 1, (int)(left > 5000 ? 5000 : left)) <= 0) {
      return NULL;
    }
    ssize_t n = read(c, buf + len, sizeof buf - 1 - len);
    if (n <= 0) {
      return NULL;
    }
    len += (size_t)n;
    buf[len] = '\0';
    char *eol = strstr(buf, "\r\n");
    if (eol) {
      if (strncmp(buf, "GET ", 4) != 0) {
        return NULL;
      }
      char *sp = memchr(buf + 4, ' ', (size_t)(eol - buf - 4));
      return sp ? oauth_strndup(buf + 4, (size_t)(sp - buf - 4)) : NULL;
    }
  }
  return NULL;
}

char *callback_wait(oauth_flow *f, int fd, bool paste, int64_t wait_ms,
                    const char *expect_state) {
  (void)expect_state; /* checked by the caller, after iss */
  int64_t deadline = oauth_now_ms() + wait_ms;
  obuf line = {0};
  for (;;) {
    int64_t left = deadline - oauth_now_ms();
    if (left <= 0) {
      snprintf(f->message, sizeof f->message,
               "no authorization response within %lld minutes",
               (long long)(wait_ms / 60000));
      break;
    }
    struct pollfd p[2] = {{.fd = fd, .events = POLLIN},
                          {.fd = 0, .events = POLLIN}};
    if (atomic_load(&f->cancel)) {
      snprintf(f->message, sizeof f->message, "the authorization was ended");
      break;
    }
    /* Short waits: mcphost may be leaving (f->cancel). */
    int n = poll(p, paste ? 2 : 1, (int)(left > 250 ? 250 : left));
    if (n < 0 && errno != EINTR) {
      snprintf(f->message, sizeof f->message, "callback: %s", strerror(errno));
      break;
    }
    if (n <= 0) {
      continue;
    }
    if (p[0].revents & POLLIN) {
      int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
      if (c < 0) {
        continue;
      }
      char *t = read_target(c, oauth_now_ms() + 10000);
      bool ours =
          t && strncmp(t, "/callback", 9) == 0 && (t[9] == '?' || t[9] == '\0');
      const char *answer = ours ? page : not_found;
      if (write(c, answer, strlen(answer)) < 0) {
        /* the browser went away: what it sent still counts */
      }
      close(c);
      if (ours) {
        ob_free(&line);
        return t;
      }
      free(t);
    }
    if (paste && (p[1].revents & (POLLIN | POLLHUP))) {
      char buf[4096];
      ssize_t r = read(0, buf, sizeof buf);
      if (r <= 0) {
        paste = false; /* end of input: the listener alone */
        continue;
      }
      ob_add(&line, buf, (size_t)r);
      char *nl = strchr(line.data, '\n');
      if (nl) {
        *nl = '\0';
        char *u = line.data;
        while (*u == ' ' || *u == '\t') {
          u++;
        }
        size_t ul = strcspn(u, "\r \t");
        if (ul) {
          char *got = oauth_strndup(u, ul);
          ob_free(&line);
          return got;
        }
        line.len = 0;
        line.data[0] = '\0';
      }
    }
  }
  ob_free(&line);
  return NULL;
}
