/*
 * bench-harness: drives one MCP client process through one workload and
 * prints one JSON line of figures. The same harness drives every client
 * (mcphost batch and the Node drivers speak the same JSON-lines protocol,
 * see cli/batch.c), so every client is measured the same way.
 *
 *   bench-harness cold  [opts] -- CLIENT ARGV...   run to exit
 *   bench-harness seq   [opts] -- CLIENT ARGV...   one request at a time
 *   bench-harness conc  [opts] -- CLIENT ARGV...   --inflight requests at once
 *   bench-harness big   [opts] -- CLIENT ARGV...   one large answer
 *   bench-harness multi [opts] -- CLIENT ARGV...   --requests FILE at once
 *
 * Only the client's own cost is counted:
 *   - CPU is the client's process CPU clock (clock_getcpuclockid: all its
 *     threads, nanoseconds), plus that of its forks that did not exec
 *     (mcphost's guardian). Servers are separate processes and never
 *     counted; getrusage/wait4 would add reaped children, /proc/PID/stat
 *     has 10 ms ticks.
 *   - Peak RSS is VmHWM of the client process.
 *   - For `cold`, both are read at the client's exit, stopped there by
 *     ptrace (PTRACE_O_TRACEEXIT), while its memory map still exists.
 *     A traced process also stops at every signal it is sent (a child's
 *     SIGCHLD) until the harness lets it go on, which moves its wall
 *     time by when the harness gets a CPU: `cold --untraced` measures
 *     the wall alone, from the spawn to the reap, untraced.
 *   - For the other modes they are read before the first and after the
 *     last measured request, so start-up and shut-down are not per-call
 *     cost.
 *
 * Requests are JSON lines; "@ID@" in them is replaced by the request id
 * (1, 2, ...), and answers are matched by their "id". Options:
 *   --request JSON         the measured request (seq, conc, big)
 *   --calls N, --inflight K, --warmup N (unmeasured requests first)
 *   --warmup-request JSON  what the warm-up sends (default: --request)
 *   --init JSON            one request before the warm-up: initialize,
 *                          when the "client" is a server talked to directly
 *   --requests FILE        multi: one request per line, all written at once
 *   --expect-bytes N       big: the answer must be at least this long
 *   --lat-out FILE         seq: every latency, in microseconds
 *   --stderr FILE          where the client's stderr goes (/dev/null)
 *   --untraced             cold: the wall alone, the client not traced
 * The client may also be a stdio MCP server itself (after --init): that
 * is the floor with no client at all.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
#include <stdarg.h>
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("bench-harness: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- measuring another process ---------------------------------------- */

static int64_t proc_cpu_ns(pid_t pid) {
  clockid_t cid;
  struct timespec ts;
  if (clock_getcpuclockid(pid, &cid) != 0 || clock_gettime(cid, &ts) != 0)
    return -1;
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static size_t read_file(const char *path, char *buf, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  size_t n = 0;
  while (n + 1 < size) {
    ssize_t r = read(fd, buf + n, size - 1 - n);
    if (r <= 0)
      break;
    n += (size_t)r;
  }
  close(fd);
  buf[n] = '\0';
  return n;
}

/* A field of /proc/PID/status in kB ("VmHWM", "VmRSS"), or -1. */
static long proc_status_kb(pid_t pid, const char *field) {
  char path[64], buf[4096];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  if (!read_file(path, buf, sizeof buf))
    return -1;
  size_t fl = strlen(field);
  for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (strncmp(l, field, fl) == 0 && l[fl] == ':')
      return atol(l + fl + 1);
  return -1;
}

/* /proc/PID/cmdline, NULs and all; returns its length. */
static size_t proc_cmdline(pid_t pid, char *buf, size_t size) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
  return read_file(path, buf, size);
}

/* The client's CPU: its own, plus its direct children that share its
 * command line (forks without exec, like mcphost's guardian). */
static int64_t client_cpu_ns(pid_t pid) {
  int64_t total = proc_cpu_ns(pid);
  if (total < 0)
    return -1;
  char self[4096], other[4096], path[64], kids[8192];
  size_t selflen = proc_cmdline(pid, self, sizeof self);
  snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
  if (!selflen || !read_file(path, kids, sizeof kids))
    return total;
  for (char *p = kids; *p;) {
    char *end;
    long k = strtol(p, &end, 10);
    if (end == p)
      break;
    p = end;
    while (*p == ' ')
      p++;
    size_t n = proc_cmdline((pid_t)k, other, sizeof other);
    if (n == selflen && memcmp(self, other, n) == 0) {
      int64_t c = proc_cpu_ns((pid_t)k);
      if (c > 0)
        total += c;
    }
  }
  return total;
}

/* ---- the client process ----------------------------------------------- */

typedef struct client {
  pid_t pid;
  int in;  /* its stdin, or -1 */
  int out; /* its stdout, or -1 */
  uint64_t spawned_ns;
  char *buf; /* stdout not yet consumed */
  size_t len, cap, start, scan;
} client;

static const char *stderr_path = "/dev/null";

static void spawn(client *c, char **argv, bool pipes, bool traced) {
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  if (pipes && (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0))
    die("pipe: %s", strerror(errno));
  c->spawned_ns = now_ns();
  pid_t pid = fork();
  if (pid < 0)
    die("fork: %s", strerror(errno));
  if (pid == 0) {
    if (pipes) {
      dup2(in[0], 0);
      dup2(out[1], 1);
    } else {
      int nul = open("/dev/null", O_RDWR);
      dup2(nul, 0);
      dup2(nul, 1);
    }
    int err = open(stderr_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (err >= 0)
      dup2(err, 2);
    signal(SIGPIPE, SIG_DFL);
    if (traced) {
      ptrace(PTRACE_TRACEME, 0, NULL, NULL);
      raise(SIGSTOP);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "bench-harness: cannot run %s: %s\n", argv[0],
            strerror(errno));
    _exit(127);
  }
  c->pid = pid;
  c->in = pipes ? in[1] : -1;
  c->out = pipes ? out[0] : -1;
  if (pipes) {
    close(in[0]);
    close(out[1]);
  }
}

static void write_all(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      die("writing to the client: %s", strerror(errno));
    s += w;
    n -= (size_t)w;
  }
}

/* Returns the next complete line (without '\n', NUL-terminated; valid
 * until the next call), or NULL at EOF or when `deadline_ns` passes. Each
 * byte is scanned for '\n' once, however long its line. */
static char *read_line(client *c, size_t *len, uint64_t deadline_ns) {
  for (;;) {
    char *nl = c->scan < c->len ? memchr(c->buf + c->scan, '\n', c->len - c->scan)
                                : NULL;
    if (nl) {
      char *line = c->buf + c->start;
      *len = (size_t)(nl - line);
      *nl = '\0';
      c->start = c->scan = (size_t)(nl - c->buf) + 1;
      return line;
    }
    c->scan = c->len;
    if (c->start) { /* only an unfinished line is left: move it once */
      memmove(c->buf, c->buf + c->start, c->len - c->start);
      c->len -= c->start;
      c->scan -= c->start;
      c->start = 0;
    }
    if (c->cap - c->len < 65536) {
      c->cap = c->cap ? c->cap * 2 : 1 << 20;
      c->buf = realloc(c->buf, c->cap);
      if (!c->buf)
        die("out of memory");
    }
    struct pollfd p = {.fd = c->out, .events = POLLIN};
    int64_t left = (int64_t)(deadline_ns - now_ns()) / 1000000;
    if (left <= 0)
      return NULL;
    int r = poll(&p, 1, (int)(left > 60000 ? 60000 : left));
    if (r <= 0)
      continue;
    ssize_t n = read(c->out, c->buf + c->len, c->cap - c->len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return NULL;
    c->len += (size_t)n;
  }
}

/* The id of an answer line, or -1; *ok tells a result from an error.
 * mcphost and the Node drivers print {"id":N,"result":...}; a server
 * talked to directly (the floors) prints {"jsonrpc":"2.0","id":N,
 * "result":...}, or, from the TS SDK, {"result":...,"jsonrpc":"2.0",
 * "id":N}, where the id is the last key. */
static long answer_id(const char *line, bool *ok) {
  static const char key[] = "\"id\":";
  const size_t klen = sizeof key - 1;
  bool result_first = strncmp(line, "{\"result\"", 9) == 0;
  const char *p = NULL;
  *ok = false;
  if (result_first) { /* the last "id": of the line */
    for (const char *e = line + strlen(line); e - line >= (ptrdiff_t)klen; e--)
      if (e[-1] == ':' && memcmp(e - klen, key, klen) == 0) {
        p = e;
        break;
      }
  } else {
    p = strstr(line, key);
    p = p ? p + klen : NULL;
  }
  if (!p)
    return -1;
  while (*p == ' ')
    p++;
  char *end;
  long id = strtol(p, &end, 10);
  *ok = result_first || strncmp(end, ",\"result\"", 9) == 0;
  return id;
}

/* Ends the client: closes its stdin and waits (SIGKILL after 15 s).
 * Returns its exit status as a shell would. */
static int finish(client *c) {
  if (c->in >= 0)
    close(c->in);
  c->in = -1;
  uint64_t deadline = now_ns() + 15000000000ull;
  int st;
  for (;;) {
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r == c->pid)
      break;
    if (now_ns() > deadline) {
      kill(c->pid, SIGKILL);
      waitpid(c->pid, &st, 0);
      break;
    }
    /* Keep its stdout flowing so it can finish writing. */
    if (c->out >= 0) {
      char junk[65536];
      struct pollfd p = {.fd = c->out, .events = POLLIN};
      if (poll(&p, 1, 5) > 0 && read(c->out, junk, sizeof junk) <= 0) {
        close(c->out);
        c->out = -1;
      }
    } else {
      usleep(2000);
    }
  }
  if (c->out >= 0)
    close(c->out);
  free(c->buf);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* ---- requests ----------------------------------------------------------- */

static char *format_request(const char *tmpl, long id, size_t *len) {
  static char *out;
  static size_t cap;
  size_t need = strlen(tmpl) + 32;
  if (need > cap) {
    cap = need;
    out = realloc(out, cap);
  }
  const char *at = strstr(tmpl, "@ID@");
  int n;
  if (at)
    n = snprintf(out, cap, "%.*s%ld%s\n", (int)(at - tmpl), tmpl, id, at + 4);
  else
    n = snprintf(out, cap, "%s\n", tmpl);
  *len = (size_t)n;
  return out;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static double pct(const uint64_t *sorted, size_t n, double p) {
  if (!n)
    return 0;
  /* Nearest rank. */
  size_t k = (size_t)(p / 100.0 * (double)n + 0.999999);
  if (k < 1)
    k = 1;
  if (k > n)
    k = n;
  return (double)sorted[k - 1];
}

static void print_latencies(const char *key, uint64_t *lat, size_t n) {
  qsort(lat, n, sizeof *lat, cmp_u64);
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += (double)lat[i];
  printf(",\"%s_p50_us\":%.1f,\"%s_p90_us\":%.1f,\"%s_p99_us\":%.1f,"
         "\"%s_max_us\":%.1f,\"%s_mean_us\":%.1f",
         key, pct(lat, n, 50) / 1e3, key, pct(lat, n, 90) / 1e3, key,
         pct(lat, n, 99) / 1e3, key, n ? (double)lat[n - 1] / 1e3 : 0, key,
         n ? sum / (double)n / 1e3 : 0);
}

/* Sends one request and waits for its answer; returns its latency in ns,
 * 0 on failure. */
static uint64_t one_call(client *c, const char *tmpl, long id) {
  size_t len;
  const char *req = format_request(tmpl, id, &len);
  uint64_t t0 = now_ns();
  write_all(c->in, req, len);
  for (;;) {
    size_t n;
    char *line = read_line(c, &n, t0 + 120000000000ull);
    if (!line)
      return 0;
    bool ok;
    long got = answer_id(line, &ok);
    uint64_t t = now_ns() - t0;
    if (got == id)
      return ok ? t : 0;
  }
}

/* ---- options ------------------------------------------------------------ */

static struct {
  long calls, warmup, inflight;
  const char *request, *warmup_request, *init_request, *requests_file,
      *lat_out, *label;
  long expect_bytes;
  bool untraced;
} opt = {.calls = 2000, .warmup = 100, .inflight = 64};

static void print_head(const char *mode) {
  printf("{\"mode\":\"%s\"", mode);
  if (opt.label)
    printf(",\"label\":\"%s\"", opt.label);
}

/* ---- modes -------------------------------------------------------------- */

static int run_cold(char **argv) {
  client c = {0};
  spawn(&c, argv, false, true);
  int st;
  if (waitpid(c.pid, &st, 0) < 0 || !WIFSTOPPED(st))
    die("the client did not start under ptrace");
  if (ptrace(PTRACE_SETOPTIONS, c.pid, NULL,
             (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL)) < 0)
    die("ptrace: %s", strerror(errno));
  uint64_t t0 = now_ns(); /* from exec: fork and the stop are not its cost */
  ptrace(PTRACE_CONT, c.pid, NULL, NULL);
  int64_t cpu = -1;
  long hwm = -1;
  uint64_t t_exit = 0;
  for (;;) {
    if (waitpid(c.pid, &st, 0) < 0)
      die("waitpid: %s", strerror(errno));
    if (WIFEXITED(st) || WIFSIGNALED(st))
      break;
    if (!WIFSTOPPED(st))
      continue;
    int sig = WSTOPSIG(st);
    if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
      t_exit = now_ns();
      cpu = client_cpu_ns(c.pid);
      hwm = proc_status_kb(c.pid, "VmHWM");
      sig = 0;
    } else if (sig == SIGTRAP) {
      sig = 0; /* the stop after exec */
    }
    ptrace(PTRACE_CONT, c.pid, NULL, (void *)(long)sig);
  }
  uint64_t t_end = now_ns();
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  print_head("cold");
  printf(",\"wall_ms\":%.3f,\"wall_to_exit_ms\":%.3f,\"cpu_ms\":%.3f,"
         "\"rss_kb\":%ld,\"exit\":%d}\n",
         (double)(t_end - t0) / 1e6, (double)(t_exit - t0) / 1e6,
         (double)cpu / 1e6, hwm, code);
  return code == 0 ? 0 : 1;
}

/* `cold --untraced`: the wall from the spawn (posix_spawn: the harness's
 * own fork is not copied) to the reap, with nothing stopping the client on
 * the way; no CPU or RSS, which only ptrace gets at the exit. */
static int run_cold_untraced(char **argv) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  sigset_t dfl;
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  if (posix_spawn_file_actions_init(&fa) != 0 ||
      posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) ||
      posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
      posix_spawn_file_actions_addopen(&fa, 2, stderr_path,
                                       O_WRONLY | O_CREAT | O_APPEND, 0644) ||
      posix_spawnattr_init(&attr) != 0 ||
      posix_spawnattr_setsigdefault(&attr, &dfl) != 0 ||
      posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF) != 0)
    die("posix_spawn setup failed");
  extern char **environ;
  pid_t pid;
  uint64_t t0 = now_ns();
  int e = posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
  if (e != 0)
    die("cannot run %s: %s", argv[0], strerror(e));
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      die("waitpid: %s", strerror(errno));
  uint64_t t_end = now_ns();
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  print_head("cold");
  printf(",\"untraced\":true,\"wall_ms\":%.3f,\"exit\":%d}\n",
         (double)(t_end - t0) / 1e6, code);
  return code == 0 ? 0 : 1;
}

static void warm(client *c, long *id) {
  /* --init: one request first (initialize, for a server talked to
   * directly). */
  if (opt.init_request && !one_call(c, opt.init_request, ++*id))
    die("the --init request failed");
  const char *w = opt.warmup_request ? opt.warmup_request : opt.request;
  for (long i = 0; i < opt.warmup; i++)
    if (!one_call(c, w, ++*id))
      die("warm-up request %ld failed", *id);
}

static int run_seq(char **argv) {
  client c = {0};
  spawn(&c, argv, true, false);
  long id = 0;
  warm(&c, &id);
  uint64_t *lat = calloc((size_t)opt.calls, sizeof *lat);
  long errors = 0;
  int64_t cpu0 = client_cpu_ns(c.pid);
  uint64_t t0 = now_ns();
  for (long i = 0; i < opt.calls; i++) {
    lat[i] = one_call(&c, opt.request, ++id);
    if (!lat[i])
      errors++;
  }
  uint64_t t1 = now_ns();
  int64_t cpu1 = client_cpu_ns(c.pid);
  long hwm = proc_status_kb(c.pid, "VmHWM");
  if (opt.lat_out) {
    FILE *f = fopen(opt.lat_out, "w");
    if (!f)
      die("%s: %s", opt.lat_out, strerror(errno));
    for (long i = 0; i < opt.calls; i++)
      fprintf(f, "%.3f\n", (double)lat[i] / 1e3);
    fclose(f);
  }
  int code = finish(&c);
  print_head("seq");
  printf(",\"calls\":%ld,\"errors\":%ld,\"wall_ms\":%.3f,"
         "\"cpu_per_call_us\":%.3f,\"rss_kb\":%ld,\"exit\":%d",
         opt.calls, errors, (double)(t1 - t0) / 1e6,
         (double)(cpu1 - cpu0) / 1e3 / (double)opt.calls, hwm, code);
  print_latencies("lat", lat, (size_t)opt.calls);
  printf("}\n");
  free(lat);
  return errors ? 1 : 0;
}

static int run_conc(char **argv) {
  client c = {0};
  spawn(&c, argv, true, false);
  long id = 0;
  warm(&c, &id);
  long first = id + 1, sent = 0, done = 0, errors = 0;
  uint64_t *start = calloc((size_t)opt.calls, sizeof *start);
  uint64_t *lat = calloc((size_t)opt.calls, sizeof *lat);
  int64_t cpu0 = client_cpu_ns(c.pid);
  uint64_t t0 = now_ns();
  while (done < opt.calls) {
    /* Top up to --inflight, in one write. */
    static char batch[1 << 16];
    size_t blen = 0;
    while (sent < opt.calls && sent - done < opt.inflight &&
           blen + 4096 < sizeof batch) {
      size_t len;
      const char *req = format_request(opt.request, first + sent, &len);
      memcpy(batch + blen, req, len);
      blen += len;
      start[sent++] = now_ns();
    }
    if (blen)
      write_all(c.in, batch, blen);
    size_t n;
    char *line = read_line(&c, &n, now_ns() + 120000000000ull);
    if (!line)
      die("the client stopped answering after %ld of %ld", done, opt.calls);
    bool ok;
    long got = answer_id(line, &ok);
    uint64_t t = now_ns();
    if (got < first || got >= first + sent)
      continue;
    lat[got - first] = t - start[got - first];
    if (!ok)
      errors++;
    done++;
  }
  uint64_t t1 = now_ns();
  int64_t cpu1 = client_cpu_ns(c.pid);
  long hwm = proc_status_kb(c.pid, "VmHWM");
  int code = finish(&c);
  double secs = (double)(t1 - t0) / 1e9;
  print_head("conc");
  printf(",\"calls\":%ld,\"inflight\":%ld,\"errors\":%ld,\"wall_ms\":%.3f,"
         "\"calls_per_s\":%.1f,\"cpu_per_call_us\":%.3f,\"rss_kb\":%ld,"
         "\"exit\":%d",
         opt.calls, opt.inflight, errors, secs * 1e3,
         (double)opt.calls / secs,
         (double)(cpu1 - cpu0) / 1e3 / (double)opt.calls, hwm, code);
  print_latencies("lat", lat, (size_t)opt.calls);
  printf("}\n");
  free(start);
  free(lat);
  return errors ? 1 : 0;
}

static int run_big(char **argv) {
  client c = {0};
  spawn(&c, argv, true, false);
  long id = 0;
  warm(&c, &id);
  long rss0 = proc_status_kb(c.pid, "VmHWM");
  int64_t cpu0 = client_cpu_ns(c.pid);
  size_t len;
  const char *req = format_request(opt.request, ++id, &len);
  uint64_t t0 = now_ns();
  write_all(c.in, req, len);
  size_t n = 0;
  bool ok = false;
  long got = -1;
  while (got != id) {
    char *line = read_line(&c, &n, t0 + 300000000000ull);
    if (!line)
      die("no answer to the large request");
    got = answer_id(line, &ok);
  }
  uint64_t t1 = now_ns();
  int64_t cpu1 = client_cpu_ns(c.pid);
  long hwm = proc_status_kb(c.pid, "VmHWM");
  int code = finish(&c);
  bool big_enough = (long)n >= opt.expect_bytes;
  print_head("big");
  printf(",\"wall_ms\":%.3f,\"cpu_ms\":%.3f,\"rss_kb\":%ld,"
         "\"rss_before_kb\":%ld,\"answer_bytes\":%zu,\"ok\":%s,\"exit\":%d}\n",
         (double)(t1 - t0) / 1e6, (double)(cpu1 - cpu0) / 1e6, hwm, rss0, n,
         ok && big_enough ? "true" : "false", code);
  return ok && big_enough ? 0 : 1;
}

static int run_multi(char **argv) {
  FILE *f = fopen(opt.requests_file, "r");
  if (!f)
    die("%s: %s", opt.requests_file, strerror(errno));
  char *all = NULL;
  size_t all_len = 0, cap = 0;
  char line[65536];
  long count = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (!*line)
      continue;
    size_t len;
    const char *req = format_request(line, ++count, &len);
    if (all_len + len + 1 > cap) {
      cap = (all_len + len + 1) * 2;
      all = realloc(all, cap);
    }
    memcpy(all + all_len, req, len);
    all_len += len;
  }
  fclose(f);
  client c = {0};
  spawn(&c, argv, true, false);
  uint64_t t0 = now_ns();
  write_all(c.in, all, all_len);
  long done = 0, errors = 0;
  while (done < count) {
    size_t n;
    char *l = read_line(&c, &n, t0 + 300000000000ull);
    if (!l)
      die("the client stopped answering after %ld of %ld", done, count);
    bool ok;
    long got = answer_id(l, &ok);
    if (got >= 1 && got <= count) {
      done++;
      errors += !ok;
    }
  }
  uint64_t t1 = now_ns();
  int64_t cpu = client_cpu_ns(c.pid);
  long hwm = proc_status_kb(c.pid, "VmHWM");
  int code = finish(&c);
  print_head("multi");
  printf(",\"requests\":%ld,\"errors\":%ld,\"wall_ms\":%.3f,"
         "\"wall_from_spawn_ms\":%.3f,\"cpu_ms\":%.3f,\"rss_kb\":%ld,"
         "\"exit\":%d}\n",
         count, errors, (double)(t1 - t0) / 1e6,
         (double)(t1 - c.spawned_ns) / 1e6, (double)cpu / 1e6, hwm, code);
  free(all);
  return errors ? 1 : 0;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"calls", required_argument, NULL, 'n'},
      {"warmup", required_argument, NULL, 'w'},
      {"inflight", required_argument, NULL, 'k'},
      {"request", required_argument, NULL, 'r'},
      {"warmup-request", required_argument, NULL, 'W'},
      {"init", required_argument, NULL, 'I'},
      {"requests", required_argument, NULL, 'R'},
      {"lat-out", required_argument, NULL, 'o'},
      {"expect-bytes", required_argument, NULL, 'b'},
      {"stderr", required_argument, NULL, 'e'},
      {"label", required_argument, NULL, 'l'},
      {"untraced", no_argument, NULL, 'u'},
      {NULL, 0, NULL, 0}};
  if (argc < 2)
    die("usage: bench-harness cold|seq|conc|big|multi [OPTIONS] -- CLIENT...");
  const char *mode = argv[1];
  int o;
  optind = 2;
  while ((o = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
    switch (o) {
    case 'n': opt.calls = atol(optarg); break;
    case 'w': opt.warmup = atol(optarg); break;
    case 'k': opt.inflight = atol(optarg); break;
    case 'r': opt.request = optarg; break;
    case 'W': opt.warmup_request = optarg; break;
    case 'I': opt.init_request = optarg; break;
    case 'R': opt.requests_file = optarg; break;
    case 'o': opt.lat_out = optarg; break;
    case 'b': opt.expect_bytes = atol(optarg); break;
    case 'e': stderr_path = optarg; break;
    case 'l': opt.label = optarg; break;
    case 'u': opt.untraced = true; break;
    default: die("bad option");
    }
  }
  if (optind >= argc)
    die("no client command after --");
  char **client_argv = argv + optind;
  signal(SIGPIPE, SIG_IGN);
  if (strcmp(mode, "cold") == 0)
    return opt.untraced ? run_cold_untraced(client_argv)
                        : run_cold(client_argv);
  if (strcmp(mode, "multi") == 0) {
    if (!opt.requests_file)
      die("multi needs --requests FILE");
    return run_multi(client_argv);
  }
  if (!opt.request)
    die("%s needs --request JSON", mode);
  if (opt.calls < 1)
    die("--calls must be at least 1");
  if (strcmp(mode, "seq") == 0)
    return run_seq(client_argv);
  if (strcmp(mode, "conc") == 0)
    return run_conc(client_argv);
  if (strcmp(mode, "big") == 0)
    return run_big(client_argv);
  die("unknown mode %s", mode);
}
