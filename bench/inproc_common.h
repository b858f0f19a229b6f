/* What bench-inproc (inproc.c, the library's internal API) and
 * bench-inproc-api (inproc_api.c, the public one) share: the command
 * line, the in-process echo server's work, the configuration, the clocks
 * and the JSON line they print. */
#ifndef MCPHOST_BENCH_INPROC_COMMON_H
#define MCPHOST_BENCH_INPROC_COMMON_H

#include <stdbool.h>
#include <stddef.h>

typedef struct inproc_args {
  bool sdk;
  long calls, warmup, inflight;
  const char *server; /* stdio: the server's command */
  const char *loop;   /* bench-inproc-api: "thread" or "caller" */
} inproc_args;

/* Parses `PROG sdk|stdio [--calls N] [--warmup N] [--inflight K]
 * [--server PATH]` (and `[--loop thread|caller]` when `with_loop`): 0, or
 * 2 after the usage on stderr. */
int inproc_parse(int argc, char **argv, bool with_loop, inproc_args *a);

/* The answer to the message `json` (`len` bytes) as JSON text (free with
 * cJSON_free), or NULL when it needs none (a notification, an answer):
 * what the C server (bench-demo-server) does for a message, parse it
 * with cJSON and build the answer with cJSON. */
char *inproc_echo_answer(const char *json, size_t len);

/* The configuration of the one server "s": {"type": "sdk"}, or the
 * command a->server (free with cJSON_free). */
char *inproc_config(const inproc_args *a);

/* The bench: run(ud, warmup, inflight) (it connects, lists, warms up),
 * then run(ud, calls, inflight) timed, wall clock and the process's CPU;
 * end(ud) frees the client (a stdio server is reaped there: its CPU is
 * read around it); then `dir` is removed and the JSON line printed:
 * calls, seconds, calls per second, the process's CPU per call, and for
 * stdio the server's (over every call it served, the warm-up included).
 * *failed: the calls that failed, read at the end. Returns the exit
 * status. */
int inproc_bench(const inproc_args *a, const char *dir,
                 void (*run)(void *ud, long n, long k), void (*end)(void *ud),
                 void *ud, const long *failed);

#endif
