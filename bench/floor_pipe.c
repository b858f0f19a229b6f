/*
 * bench-floor-pipe: the floor under the stdio latency figures. A request
 * line goes through pipes between C processes that do no work but copy it
 * on, and its answer line comes back the same way:
 *
 *   --hops 1  parent <-> echo                  a raw pipe round trip
 *   --hops 2  parent <-> relay <-> echo        what bench-harness measures
 *                                              with a client that costs
 *                                              nothing (the relay is the
 *                                              client's place)
 *   --epoll   the relay waits in epoll_wait() before each read, as a
 *             client built on an event loop does (a wait and a read for
 *             each side, 6 system calls a round trip instead of 4): the
 *             floor of such a client, beside the plain relay's
 *
 * Lines have the sizes of the echo workload's request and answer. Prints
 * one JSON line: latency percentiles, and the relay's CPU per round trip
 * (the parent's own for --hops 1).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Reads one line from fd into buf (blocking); returns its length with the
 * '\n', 0 at EOF. Lines here are short and never split across two. */
typedef struct {
  int fd;
  int ep; /* an epoll set holding fd to wait in before reading, or -1 */
  char buf[65536];
  size_t len;
} reader;

static size_t read_line(reader *r, char *out) {
  for (;;) {
    char *nl = memchr(r->buf, '\n', r->len);
    if (nl) {
      size_t n = (size_t)(nl - r->buf) + 1;
      memcpy(out, r->buf, n);
      memmove(r->buf, r->buf + n, r->len - n);
      r->len -= n;
      return n;
    }
    struct epoll_event ev;
    while (r->ep >= 0 &&
           !(epoll_wait(r->ep, &ev, 1, -1) == 1 && ev.data.fd == r->fd))
      ;
    ssize_t k = read(r->fd, r->buf + r->len, sizeof r->buf - r->len);
    if (k <= 0)
      return 0;
    r->len += (size_t)k;
  }
}

static void write_all(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w <= 0)
      exit(1);
    s += w;
    n -= (size_t)w;
  }
}

/* The server end: answers each line with a line of `answer` bytes. */
static void echo(int in, int out, const char *answer) {
  static reader r;
  r.fd = in;
  r.ep = -1;
  char line[65536];
  while (read_line(&r, line))
    write_all(out, answer, strlen(answer));
  exit(0);
}

/* The client's place: passes lines both ways, one request at a time.
 * Reports its CPU per round trip on `report`. */
static void relay(int up_in, int up_out, int down_in, int down_out, int report,
                  bool use_epoll) {
  static reader from_parent, from_server;
  from_parent.fd = up_in;
  from_server.fd = down_in;
  from_parent.ep = from_server.ep = -1;
  if (use_epoll) {
    int ep = epoll_create1(0);
    struct epoll_event a = {.events = EPOLLIN, .data.fd = up_in};
    struct epoll_event b = {.events = EPOLLIN, .data.fd = down_in};
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, up_in, &a) ||
        epoll_ctl(ep, EPOLL_CTL_ADD, down_in, &b))
      exit(1);
    from_parent.ep = from_server.ep = ep;
  }
  char line[65536];
  size_t n;
  long trips = 0;
  uint64_t c0 = 0;
  while ((n = read_line(&from_parent, line))) {
    if (trips == 1000) /* after the warm-up */
      c0 = cpu_ns();
    write_all(down_out, line, n);
    n = read_line(&from_server, line);
    write_all(up_out, line, n);
    trips++;
  }
  double per = trips > 1000 ? (double)(cpu_ns() - c0) / (double)(trips - 1000) : 0;
  dprintf(report, "%.3f\n", per / 1e3);
  exit(0);
}

static int cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int hops = 1;
  long calls = 20000;
  bool use_epoll = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--epoll"))
      use_epoll = true;
    else if (i + 1 < argc && !strcmp(argv[i], "--hops"))
      hops = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "--calls"))
      calls = atol(argv[++i]);
  }
  const char *request =
      "{\"jsonrpc\":\"2.0\",\"id\":1234,\"method\":\"tools/call\",\"params\":"
      "{\"name\":\"echo\",\"arguments\":{\"message\":\"hello from the "
      "benchmark\"}}}\n";
  const char *answer =
      "{\"jsonrpc\":\"2.0\",\"id\":1234,\"result\":{\"content\":[{\"type\":"
      "\"text\",\"text\":\"Echo: hello from the benchmark\"}]}}\n";
  int a[2], b[2], rep[2];
  if (pipe(a) || pipe(b) || pipe(rep))
    return 1;
  /* a: parent -> first child, b: first child -> parent */
  if (fork() == 0) {
    close(a[1]);
    close(b[0]);
    if (hops == 1)
      echo(a[0], b[1], answer);
    int c[2], d[2];
    if (pipe(c) || pipe(d))
      exit(1);
    if (fork() == 0) {
      close(c[1]);
      close(d[0]);
      echo(c[0], d[1], answer);
    }
    close(c[0]);
    close(d[1]);
    relay(a[0], b[1], d[0], c[1], rep[1], use_epoll);
  }
  close(a[0]);
  close(b[1]);
  close(rep[1]);
  reader r = {.fd = b[0], .ep = -1};
  char line[65536];
  long warm = 1000;
  uint64_t *lat = calloc((size_t)calls, sizeof *lat);
  uint64_t c0 = 0;
  for (long i = 0; i < warm + calls; i++) {
    if (i == warm)
      c0 = cpu_ns();
    uint64_t t0 = now_ns();
    write_all(a[1], request, strlen(request));
    if (!read_line(&r, line))
      return 1;
    if (i >= warm)
      lat[i - warm] = now_ns() - t0;
  }
  double parent_cpu = (double)(cpu_ns() - c0) / (double)calls / 1e3;
  close(a[1]);
  char rbuf[64] = "";
  ssize_t k = read(rep[0], rbuf, sizeof rbuf - 1);
  rbuf[k > 0 ? k : 0] = '\0';
  while (wait(NULL) > 0)
    ;
  qsort(lat, (size_t)calls, sizeof *lat, cmp);
  printf("{\"mode\":\"floor_pipe\",\"hops\":%d,\"epoll\":%s,\"calls\":%ld,"
         "\"lat_p50_us\":%.1f,\"lat_p99_us\":%.1f,\"cpu_per_call_us\":%s}\n",
         hops, use_epoll && hops == 2 ? "true" : "false", calls,
         (double)lat[calls / 2] / 1e3,
         (double)lat[(size_t)((double)calls * 0.99)] / 1e3,
         hops == 1 ? (snprintf(rbuf, sizeof rbuf, "%.3f", parent_cpu), rbuf)
                   : strtok(rbuf, "\n"));
  free(lat);
  return 0;
}
