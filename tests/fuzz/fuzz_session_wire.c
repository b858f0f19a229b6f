/* Fuzz target: the session socket's messages (cli/daemon/daemon.h,
 * daemon_wire.c), over a real socketpair. The first byte picks:
 *  - even: a round trip. The rest, cut at its NULs, is argv (its first
 *    byte says how many words) and the environment; daemon_send_request
 *    sends them with this process's cwd and fds 0-2, daemon_recv_request
 *    must give back the very cwd, argv and environment, fds that are
 *    this process's 0-2, NULL-terminated lists pointing into the blob; a
 *    status and a stop request come back as their type with nothing
 *    else; a reply of the same bytes comes back whole.
 *  - odd: raw bytes from a caller, written in chunks (the first with 0, 3,
 *    4 or 5 fds attached), then the end. A plain model of the format
 *    says what daemon_recv_request must do: refuse what is not a
 *    request (short header, wrong magic, more fds than it takes), a
 *    length over 16 MiB, a body cut short, a command without its three
 *    fds, a malformed command line or count, an unknown type, each with
 *    its reason; accept a status or stop request, and a command line
 *    split as the model splits it. The same bytes as a reply: refused
 *    when short or over 16 MiB, else exactly the text.
 * No descriptor leaks: the lowest free one is the same after a run. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/daemon/daemon.h"
#include "fuzz_chunks.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

extern char **environ;

#define MAX_BODY (16u << 20)
#define HEADER_LEN 11

static bool same_file(int a, int b) {
  struct stat x, y;
  return a >= 0 && b >= 0 && fstat(a, &x) == 0 && fstat(b, &y) == 0 &&
         x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static bool inside(const daemon_request *r, size_t len, const char *p) {
  return p >= r->blob && p + strlen(p) < r->blob + len + 1;
}

/* The words of `s` (`n` bytes) cut at each NUL; the last one ends at
 * the end. A new array of `*count` pointers into a new copy (words[0]'s
 * block, freed with it), with one more NUL after the last: glibc's
 * getenv reads an entry's first two bytes even when the first ends it,
 * which a real environment block has (the long run's one finding was
 * this harness's: an empty last entry at the end of its allocation). */
static char **words_of(const unsigned char *s, size_t n, size_t *count) {
  char *copy = calloc(1, n + 2);
  char **w = malloc((n + 2) * sizeof *w);
  if (!copy || !w) {
    abort();
  }
  memcpy(copy, s, n);
  size_t k = 0;
  for (char *p = copy;; p += strlen(p) + 1) {
    w[k++] = p;
    if (p + strlen(p) >= copy + n) {
      break;
    }
  }
  w[k] = NULL;
  *count = k;
  return w;
}

static void round_trip(const unsigned char *data, size_t len) {
  if (len == 0) {
    return;
  }
  size_t nw;
  char **w = words_of(data + 1, len - 1, &nw);
  int argc = (int)(data[0] % 8 + 1);
  if ((size_t)argc > nw) {
    argc = (int)nw;
  }
  char **saved = environ;
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) {
    abort();
  }
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    abort();
  }
  /* MCPHOST_TTY would make the sender open the terminal: left out, the
   * terminal rides only when this process has one. */
  char **env = w + argc;
  for (char **e = env; *e; e++) {
    if (strncmp(*e, "MCPHOST_TTY=", 12) == 0) {
      **e = '_';
    }
  }
  environ = env;
  int rc = daemon_send_request(sv[0], DAEMON_RUN, argc, w);
  environ = saved;
  if (rc != 0) {
    abort();
  }
  daemon_request r;
  char why[256] = "";
  if (daemon_recv_request(sv[1], &r, why, sizeof why) != 0) {
    abort();
  }
  char count[16];
  size_t blen =
      strlen(cwd) + 1 + (size_t)snprintf(count, sizeof count, "%d", argc) + 1;
  if (r.type != DAEMON_RUN || strcmp(r.cwd, cwd) != 0 || r.argc != argc ||
      r.argv[argc] != NULL || r.cwd != r.blob) {
    abort();
  }
  for (int i = 0; i < argc; i++) {
    blen += strlen(w[i]) + 1;
  }
  for (char **e = env; *e; e++) {
    blen += strlen(*e) + 1;
  }
  for (int i = 0; i < argc; i++) {
    if (strcmp(r.argv[i], w[i]) != 0 || !inside(&r, blen, r.argv[i])) {
      abort();
    }
  }
  size_t k = 0;
  for (; env[k]; k++) {
    if (!r.env[k] || strcmp(r.env[k], env[k]) != 0 ||
        !inside(&r, blen, r.env[k])) {
      abort();
    }
  }
  if (r.env[k] != NULL) {
    abort();
  }
  for (int i = 0; i < 3; i++) {
    if (!same_file(r.fds[i], i)) {
      abort();
    }
  }
  daemon_request_free(&r);

  for (int t = 0; t < 2; t++) {
    int type = t ? DAEMON_STOP : DAEMON_STATUS;
    if (daemon_send_request(sv[0], type, 0, NULL) != 0 ||
        daemon_recv_request(sv[1], &r, why, sizeof why) != 0 ||
        r.type != type || r.argv || r.env || r.cwd || r.fds[0] != -1) {
      abort();
    }
    daemon_request_free(&r);
  }

  char *out = NULL;
  if (daemon_send_reply(sv[0], (const char *)data, len) != 0 ||
      daemon_recv_reply(sv[1], &out) != 0 || memcmp(out, data, len) != 0 ||
      out[len] != '\0') {
    abort();
  }
  free(out);
  close(sv[0]);
  close(sv[1]);
  free(w[0]);
  free(w);
}

/* Writes `s` on `fd` in chunks, the first (never empty) with `nfds`
 * descriptors (0, 1, 2, then 2 again), then ends the stream. At most 64
 * chunks: each is a buffer of the socket's, and nothing reads them yet. */
static void send_raw(int fd, const unsigned char *s, size_t n, int nfds,
                     fuzz_chunks *ch) {
  size_t off = 0;
  bool first = true;
  for (int chunks = 1; off < n; chunks++) {
    size_t k = chunks < 64 ? fuzz_chunks_size(ch, n - off) : n - off;
    if (k == 0) {
      k = 1;
    }
    struct iovec iov = {.iov_base = (void *)(s + off), .iov_len = k};
    union {
      char buf[CMSG_SPACE(5 * sizeof(int))];
      struct cmsghdr align;
    } ctl;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (first && nfds > 0) {
      int fds[5] = {0, 1, 2, 2, 2};
      msg.msg_control = ctl.buf;
      msg.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
      struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
      cm->cmsg_level = SOL_SOCKET;
      cm->cmsg_type = SCM_RIGHTS;
      cm->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
      memcpy(CMSG_DATA(cm), fds, (size_t)nfds * sizeof(int));
    }
    if (sendmsg(fd, &msg, MSG_NOSIGNAL) != (ssize_t)k) {
      abort();
    }
    first = false;
    off += k;
  }
  shutdown(fd, SHUT_WR);
}

static uint32_t u32_at(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* A decimal count as the format has it: spaces, a plus sign, digits;
 * -1 for anything else (a minus sign makes it less than one). */
static long count_of(const char *s) {
  while (isspace((unsigned char)*s)) {
    s++;
  }
  s += *s == '+';
  if (!*s || strspn(s, "0123456789") != strlen(s)) {
    return -1;
  }
  long v = 0;
  for (; *s && v <= 100000000; s++) {
    v = v * 10 + (*s - '0');
  }
  return v;
}

/* What the model expects of a raw request: NULL when accepted, else a
 * part of the reason. */
static const char *model_request(const unsigned char *s, size_t n, int nfds) {
  if (n == 0 || nfds > DAEMON_NFDS || n < HEADER_LEN ||
      memcmp(s, "MCPHS1", 6) != 0) {
    return "not a request";
  }
  uint32_t blen = u32_at(s + 7);
  if (blen > MAX_BODY) {
    return "a request of";
  }
  if (n - HEADER_LEN < blen) {
    return "cut short";
  }
  if (s[6] == DAEMON_STATUS || s[6] == DAEMON_STOP) {
    return NULL;
  }
  if (s[6] != DAEMON_RUN) {
    return "unknown type";
  }
  if (nfds < 3) {
    return "without its stdin";
  }
  const unsigned char *b = s + HEADER_LEN;
  size_t nul = 0;
  for (size_t i = 0; i < blen; i++) {
    nul += b[i] == 0;
  }
  if (blen == 0 || b[blen - 1] != 0 || nul < 2) {
    return "malformed command line";
  }
  long argc = count_of((const char *)b + strlen((const char *)b) + 1);
  if (argc < 1 || (size_t)argc > nul - 2) {
    return "malformed argument count";
  }
  return NULL;
}

static void check_raw(const unsigned char *s, size_t n, int nfds,
                      const daemon_request *r, int rc, const char *why) {
  const char *want = model_request(s, n, nfds);
  if ((rc == 0) != (want == NULL) || (want && !strstr(why, want))) {
    abort();
  }
  for (int i = 0; i < DAEMON_NFDS; i++) {
    if (!want &&
        (i < nfds ? !same_file(r->fds[i], i < 3 ? i : 2) : r->fds[i] != -1)) {
      abort();
    }
  }
  if (want) {
    return;
  }
  if (r->type != s[6]) {
    abort();
  }
  if (r->type != DAEMON_RUN) {
    if (r->argv || r->env || r->cwd) {
      abort();
    }
    return;
  }
  /* cwd, the count, argc words, the rest the environment. */
  size_t blen = u32_at(s + 7), nw;
  char **w = words_of(s + HEADER_LEN, blen - 1, &nw);
  long argc = count_of(w[1]);
  if (strcmp(r->cwd, w[0]) != 0 || r->argc != argc ||
      !inside(r, blen, r->cwd)) {
    abort();
  }
  for (size_t i = 0; i < nw - 2; i++) {
    const char *got = i < (size_t)argc ? r->argv[i] : r->env[i - (size_t)argc];
    if (!got || strcmp(got, w[i + 2]) != 0 || !inside(r, blen, got)) {
      abort();
    }
  }
  if (r->argv[argc] || r->env[nw - 2 - (size_t)argc]) {
    abort();
  }
  free(w[0]);
  free(w);
}

static void raw(const unsigned char *data, size_t len) {
  if (len == 0) {
    return;
  }
  static const int fd_counts[] = {3, 3, 0, 4, 5, 3, 3, 3};
  int nfds = fd_counts[data[0] & 7];
  data++;
  len--;
  fuzz_chunks ch;
  fuzz_chunks_init(&ch, &data, &len);
  if (len == 0) {
    nfds = 0; /* no byte to carry them */
  }
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    abort();
  }
  send_raw(sv[0], data, len, nfds, &ch);
  daemon_request r;
  char why[256] = "";
  int rc = daemon_recv_request(sv[1], &r, why, sizeof why);
  check_raw(data, len, nfds, &r, rc, why);
  daemon_request_free(&r);
  close(sv[0]);
  close(sv[1]);

  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    abort();
  }
  send_raw(sv[0], data, len, 0, &ch);
  char *out = NULL;
  rc = daemon_recv_reply(sv[1], &out);
  uint32_t rlen = len >= 4 ? u32_at(data) : 0;
  int want = len == 0                                       ? 1
             : len < 4 || rlen > MAX_BODY || len - 4 < rlen ? -1
                                                            : 0;
  if (rc != want ||
      (rc == 0 && (memcmp(out, data + 4, rlen) != 0 || out[rlen] != '\0')) ||
      (rc != 0 && out)) {
    abort();
  }
  free(out);
  close(sv[0]);
  close(sv[1]);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  /* Everything is written before it is read: within a socket's buffer. */
  if (len < 1 || len > 32768) {
    return 0;
  }
  int lowest = dup(0);
  if (lowest < 0) {
    abort();
  }
  close(lowest);
  if (data[0] & 1) {
    raw(data + 1, len - 1);
  } else {
    round_trip(data + 1, len - 1);
  }
  int now = dup(0);
  if (now != lowest) {
    abort(); /* a descriptor leaked */
  }
  close(now);
  return 0;
}
