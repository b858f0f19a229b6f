/* The messages between a caller and its session (daemon.h). A request:
 * "MCPHS1", the type, a 32-bit length and a body; a DAEMON_RUN body is
 * the cwd, argc in decimal, the argv words and the environ entries, each
 * ending with a NUL, and fds 0, 1 and 2 (and the caller's terminal when
 * it has one) ride with the header's first byte (SCM_RIGHTS). While a command
 * runs, each byte from the caller is a signal number. A reply: a 32-bit length
 * and its text. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/daemon/daemon.h"
#include "terminal_open.h"
#include "util.h"
#include "write_all.h"

extern char **environ;

#define MAGIC "MCPHS1"
#define MAGIC_LEN 6
#define HEADER_LEN (MAGIC_LEN + 1 + 4)
#define MAX_BODY (16u << 20)

/* 0 when all `n` bytes came, 1 at the end before any, -1 otherwise. */
static int read_all(int fd, char *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r == 0 && got == 0) {
      return 1;
    }
    if (r <= 0) {
      return -1;
    }
    got += (size_t)r;
  }
  return 0;
}

static void put_u32(char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) {
    p[i] = (char)((v >> (8 * i)) & 0xff);
  }
}

static uint32_t get_u32(const char *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    v |= (uint32_t)(unsigned char)p[i] << (8 * i);
  }
  return v;
}

/* This process's terminal as a device another process can open again
 * through /proc/PID/fd (an fd of /dev/tty itself cannot be: it means
 * "my controlling terminal", which the session process has none of).
 * With MCPHOST_TTY set, that. An fd (O_CLOEXEC), or -1. */
static int caller_terminal(void) {
  const char *named = getenv("MCPHOST_TTY");
  if (named && *named) {
    return terminal_open(O_RDWR | O_CLOEXEC);
  }
  FILE *f = fopen("/proc/self/stat", "re");
  unsigned long long tty_nr = 0;
  if (f) {
    /* "PID (COMM) STATE PPID PGRP SESSION TTY_NR ...": after the last ')' */
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %llu", &tty_nr) != 1) {
      tty_nr = 0;
    }
    fclose(f);
  }
  if (tty_nr == 0) {
    return -1; /* no controlling terminal */
  }
  dev_t dev = (dev_t)tty_nr;
  for (int i = 0; i < 3; i++) {
    struct stat st;
    if (fstat(i, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == dev) {
      return fcntl(i, F_DUPFD_CLOEXEC, 3);
    }
  }
  unsigned maj = major(dev), min = minor(dev);
  if (maj >= 136 && maj <= 143) { /* a pseudo-terminal, /dev/pts/N */
    char path[64];
    snprintf(path, sizeof path, "/dev/pts/%u", (maj - 136) * 256 + min);
    return open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
  }
  return -1;
}

int daemon_send_request(int fd, int type, int argc, char **argv) {
  strbuf body;
  sb_init(&body);
  int rc = -1;
  if (type == DAEMON_RUN) {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) {
      goto out;
    }
    sb_add(&body, cwd, strlen(cwd) + 1);
    sb_printf(&body, "%d", argc);
    sb_addc(&body, '\0');
    for (int i = 0; i < argc; i++) {
      sb_add(&body, argv[i], strlen(argv[i]) + 1);
    }
    for (char **e = environ; e && *e; e++) {
      sb_add(&body, *e, strlen(*e) + 1);
    }
  }
  if (body.len > MAX_BODY) {
    errno = E2BIG;
    goto out;
  }
  char header[HEADER_LEN];
  memcpy(header, MAGIC, MAGIC_LEN);
  header[MAGIC_LEN] = (char)type;
  put_u32(header + MAGIC_LEN + 1, (uint32_t)body.len);
  struct iovec iov = {.iov_base = header, .iov_len = sizeof header};
  union {
    char buf[CMSG_SPACE(DAEMON_NFDS * sizeof(int))];
    struct cmsghdr align;
  } ctl;
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
  int tty = -1;
  if (type == DAEMON_RUN) {
    /* The terminal too, when there is one: prompts go to it. */
    tty = caller_terminal();
    int fds[DAEMON_NFDS] = {0, 1, 2, tty};
    size_t nfds = tty >= 0 ? 4 : 3;
    msg.msg_control = ctl.buf;
    msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
    struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
    memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
  }
  ssize_t w;
  do {
    w = sendmsg(fd, &msg, MSG_NOSIGNAL);
  } while (w < 0 && errno == EINTR);
  if (tty >= 0) {
    close(tty); /* the session has its own copy now */
  }
  if (w < 0) {
    goto out;
  }
  if ((size_t)w < sizeof header &&
      send_all(fd, header + w, sizeof header - (size_t)w) != 0) {
    goto out;
  }
  rc = body.len ? send_all(fd, body.data, body.len) : 0;
out:
  sb_free(&body);
  return rc;
}

/* Splits the body into cwd, argv and env (pointers into r->blob). */
static int parse_run_body(daemon_request *r, size_t len, char *why,
                          size_t why_len) {
  char *p = r->blob, *end = r->blob + len;
  size_t nstr = 0;
  for (char *q = p; q < end; q++) {
    nstr += *q == '\0';
  }
  if (len == 0 || end[-1] != '\0' || nstr < 2) {
    snprintf(why, why_len, "a malformed command line");
    return -1;
  }
  r->cwd = p;
  p += strlen(p) + 1;
  char *num_end;
  long argc = strtol(p, &num_end, 10);
  if (*num_end || argc < 1 || (size_t)argc > nstr - 2) {
    snprintf(why, why_len, "a malformed argument count");
    return -1;
  }
  p += strlen(p) + 1;
  r->argc = (int)argc;
  r->argv = xcalloc((size_t)argc + 1, sizeof *r->argv);
  for (long i = 0; i < argc; i++) {
    r->argv[i] = p;
    p += strlen(p) + 1;
  }
  size_t nenv = nstr - 2 - (size_t)argc;
  r->env = xcalloc(nenv + 1, sizeof *r->env);
  for (size_t i = 0; i < nenv; i++) {
    r->env[i] = p;
    p += strlen(p) + 1;
  }
  return 0;
}

int daemon_recv_request(int fd, daemon_request *r, char *why, size_t why_len) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < DAEMON_NFDS; i++) {
    r->fds[i] = -1;
  }
  char header[HEADER_LEN];
  struct iovec iov = {.iov_base = header, .iov_len = sizeof header};
  union {
    char buf[CMSG_SPACE(DAEMON_NFDS * sizeof(int))];
    struct cmsghdr align;
  } ctl;
  struct msghdr msg = {.msg_iov = &iov,
                       .msg_iovlen = 1,
                       .msg_control = ctl.buf,
                       .msg_controllen = sizeof ctl.buf};
  ssize_t n;
  do {
    n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  for (struct cmsghdr *cm = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL; cm;
       cm = CMSG_NXTHDR(&msg, cm)) {
    if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
      size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      int got[DAEMON_NFDS];
      memcpy(got, CMSG_DATA(cm),
             (k < DAEMON_NFDS ? k : DAEMON_NFDS) * sizeof(int));
      for (size_t i = 0; i < k && i < DAEMON_NFDS; i++) {
        r->fds[i] = got[i];
      }
    }
  }
  if (n <= 0 || (msg.msg_flags & MSG_CTRUNC) ||
      ((size_t)n < sizeof header &&
       read_all(fd, header + n, sizeof header - (size_t)n) != 0) ||
      memcmp(header, MAGIC, MAGIC_LEN) != 0) {
    snprintf(why, why_len, "not a request");
    return -1;
  }
  r->type = header[MAGIC_LEN];
  uint32_t len = get_u32(header + MAGIC_LEN + 1);
  if (len > MAX_BODY) {
    snprintf(why, why_len, "a request of %u bytes", (unsigned)len);
    return -1;
  }
  r->blob = xmalloc((size_t)len + 1);
  r->blob[len] = '\0';
  if (len && read_all(fd, r->blob, len) != 0) {
    snprintf(why, why_len, "a request cut short");
    return -1;
  }
  if (r->type == DAEMON_RUN) {
    if (r->fds[0] < 0 || r->fds[1] < 0 || r->fds[2] < 0) {
      snprintf(why, why_len, "a command without its stdin, stdout, stderr");
      return -1;
    }
    return parse_run_body(r, len, why, why_len);
  }
  if (r->type != DAEMON_STATUS && r->type != DAEMON_STOP) {
    snprintf(why, why_len, "a request of unknown type");
    return -1;
  }
  return 0;
}

void daemon_request_free(daemon_request *r) {
  for (int i = 0; i < DAEMON_NFDS; i++) {
    if (r->fds[i] >= 0) {
      close(r->fds[i]);
    }
  }
  free(r->argv);
  free(r->env);
  free(r->blob);
  free(r->tty_env);
  memset(r, 0, sizeof *r);
  for (int i = 0; i < DAEMON_NFDS; i++) {
    r->fds[i] = -1;
  }
}

int daemon_send_reply(int fd, const char *text, size_t len) {
  char header[4];
  put_u32(header, (uint32_t)len);
  return send_all(fd, header, sizeof header) == 0 &&
                 (len == 0 || send_all(fd, text, len) == 0)
             ? 0
             : -1;
}

int daemon_recv_reply(int fd, char **out) {
  char header[4];
  int rc = read_all(fd, header, sizeof header);
  if (rc != 0) {
    return rc;
  }
  uint32_t len = get_u32(header);
  if (len > MAX_BODY) {
    return -1;
  }
  char *text = xmalloc((size_t)len + 1);
  text[len] = '\0';
  if (len && read_all(fd, text, len) != 0) {
    free(text);
    return -1;
  }
  *out = text;
  return 0;
}

int daemon_peer(int fd, uid_t *uid, pid_t *pid) {
  struct ucred cr;
  socklen_t len = sizeof cr;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0) {
    return -1;
  }
  *uid = cr.uid;
  *pid = cr.pid;
  return 0;
}

int daemon_dial(const daemon_place *p, char *why, size_t why_len) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  if (strlen(p->socket) >= sizeof sa.sun_path) {
    snprintf(why, why_len, "%s: the path is too long for a socket", p->socket);
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(sa.sun_path, p->socket, strlen(p->socket) + 1);
  struct stat st;
  if (lstat(p->socket, &st) != 0) {
    /* No session, the common case: not strerror(), whose translation
     * lookup is a cold command's only use of a 64 KiB window of glibc's
     * code (trusted_fs.c's past_slashes()). */
    snprintf(why, why_len, "%s: %s", p->socket,
             errno == ENOENT ? "No such file or directory" : strerror(errno));
    return -1;
  }
  if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid() ||
      (st.st_mode & 077) != 0) {
    snprintf(why, why_len,
             "%s is not a socket of this user closed to others (mode %03o)",
             p->socket, (unsigned)(st.st_mode & 0777));
    errno = EPERM;
    return -1;
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    snprintf(why, why_len, "socket: %s", strerror(errno));
    return -1;
  }
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
    int e = errno;
    snprintf(why, why_len, "%s: %s", p->socket, strerror(e));
    close(fd);
    errno = e;
    return -1;
  }
  uid_t uid;
  pid_t pid;
  if (daemon_peer(fd, &uid, &pid) != 0 || uid != geteuid()) {
    snprintf(why, why_len, "%s is served by another user's process", p->socket);
    close(fd);
    errno = EPERM;
    return -1;
  }
  return fd;
}
