/*
 * bench-inproc-api: bench-inproc (inproc.c) through the public library,
 * libmcphost.so.1 and <mcphost/client.h> alone, as an embedding program
 * makes the call: the same echo tool of a server registered in the
 * process with mcphost_inproc_register ("type": "sdk") or of
 * bench-demo-server over stdio, each call an mcphost_start whose `done`
 * counts it, one after the other or up to INFLIGHT at once. The loop is
 * the library's own thread (--loop thread, the default: every call
 * crosses from this thread to it and back) or this thread's poll()
 * (--loop caller).
 *
 *   bench-inproc-api sdk|stdio [--calls N] [--warmup N] [--inflight K]
 *                    [--server PATH] [--loop thread|caller]
 *
 * Prints bench-inproc's JSON line; CPU per call is the process's, the
 * library's thread included.
 */
#include <mcphost/client.h>

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "inproc_common.h"

static void on_message(void *ud, mcphost_inproc *srv, const char *json,
                       size_t len) {
  (void)ud;
  char *text = inproc_echo_answer(json, len);
  if (text) {
    mcphost_inproc_send(srv, text, strlen(text), NULL);
    cJSON_free(text);
  }
}

typedef struct bench {
  mcphost_client *c;
  int caller; /* MCPHOST_LOOP_CALLER */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  long started, done, failed;
} bench;

static void on_done(void *ud, const char *result, size_t len,
                    const mcphost_error *err) {
  (void)len;
  bench *b = ud;
  pthread_mutex_lock(&b->lock);
  b->done++;
  if (!result && b->failed++ == 0) {
    fprintf(stderr, "bench-inproc-api: %s\n", err ? err->message : "?");
  }
  pthread_cond_signal(&b->cond);
  pthread_mutex_unlock(&b->lock);
}

/* Runs `n` calls, at most `k` at once, to their end. */
static void run_calls(void *ud, long n, long k) {
  bench *b = ud;
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.server = "s";
  rq.name = "echo";
  rq.arguments = "{\"message\":\"hi\"}";
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = on_done;
  cb.ud = b;
  pthread_mutex_lock(&b->lock);
  b->started = b->done = 0;
  while (b->done < n && !b->failed) {
    while (b->started < n && b->started - b->done < k) {
      b->started++;
      pthread_mutex_unlock(&b->lock);
      mcphost_start(b->c, &rq, &cb, NULL);
      pthread_mutex_lock(&b->lock);
    }
    if (b->done >= n) {
      break;
    }
    if (b->caller) {
      pthread_mutex_unlock(&b->lock);
      struct pollfd p = {.fd = mcphost_fd(b->c), .events = POLLIN};
      poll(&p, 1, mcphost_timeout_ms(b->c));
      mcphost_perform(b->c);
      pthread_mutex_lock(&b->lock);
    } else {
      pthread_cond_wait(&b->cond, &b->lock);
    }
  }
  pthread_mutex_unlock(&b->lock);
}

static void end_bench(void *ud) {
  bench *b = ud;
  mcphost_client_free(b->c);
}

int main(int argc, char **argv) {
  inproc_args a;
  if (inproc_parse(argc, argv, true, &a) != 0) {
    return 2;
  }
  int caller = strcmp(a.loop, "caller") == 0;
  /* A home of its own: no user settings, no state of another run. */
  char dir[] = "/tmp/bench-inproc-api-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  setenv("HOME", dir, 1);
  setenv("XDG_CONFIG_HOME", dir, 1);
  setenv("XDG_STATE_HOME", dir, 1);
  setenv("XDG_CACHE_HOME", dir, 1);
  char *config = inproc_config(&a);
  const char *configs[] = {config};
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1;
  o.loop_mode = caller ? MCPHOST_LOOP_CALLER : MCPHOST_LOOP_THREAD;
  bench b = {.caller = caller,
             .lock = PTHREAD_MUTEX_INITIALIZER,
             .cond = PTHREAD_COND_INITIALIZER};
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_client_new(&o, &b.c, &err);
  cJSON_free(config);
  if (rc != MCPHOST_OK) {
    fprintf(stderr, "bench-inproc-api: %s\n", err.message);
    return 1;
  }
  mcphost_inproc *srv = NULL;
  mcphost_inproc_callbacks cb = MCPHOST_INPROC_CALLBACKS_INIT;
  cb.on_message = on_message;
  if (a.sdk && mcphost_inproc_register(b.c, "s", &cb, &srv, &err) != 0) {
    fprintf(stderr, "bench-inproc-api: %s\n", err.message);
    return 1;
  }

  return inproc_bench(&a, dir, run_calls, end_bench, &b, &b.failed);
}
