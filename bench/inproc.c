/*
 * bench-inproc: what one tools/call costs through the client library when
 * the server lives in the same process ("type": "sdk", mcp/inproc.h)
 * against the same call to the C server over stdio (bench-demo-server).
 * The client is built as the CLI builds it (host, client, plugins, the
 * configuration scopes) and every call takes the one pipeline
 * (mcp_client_start, MCP_OP_CALL_TOOL, the result passed on as batch
 * passes it), either one after the other or with up to INFLIGHT at once.
 * The in-process server does what the C server does for a call: parse
 * the message (cJSON), answer "Echo: <message>" built with cJSON.
 *
 *   bench-inproc sdk|stdio [--calls N] [--warmup N] [--inflight K]
 *                [--server PATH]
 *
 * Prints one JSON line: calls, seconds, calls per second, this process's
 * CPU per call (for sdk the server's work included; for stdio the
 * server is another process and not counted), and the server's CPU per
 * call for stdio (its rusage, read when it was reaped at the end).
 * Instructions per call: run it under callgrind with two --calls values
 * and divide the difference (bench/README.md, "In-process servers").
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/host.h"
#include "core/host_config.h"
#include "mcp/calls.h"
#include "mcp/client.h"
#include "mcp/inproc.h"

#include "inproc_common.h"

/* ---- the in-process server ---- */

static void on_message(void *ud, mcp_inproc_server *srv, const char *json,
                       size_t len) {
  (void)ud;
  char *text = inproc_echo_answer(json, len);
  if (text) {
    mcp_inproc_send(srv, text, strlen(text));
    cJSON_free(text);
  }
}

/* ---- the client ---- */

typedef struct bench {
  host *h;
  mcp_client *mc;
  size_t server;
  cJSON *args;
  long started, done, total, failed;
  long inflight;
} bench;

static void start_one(bench *b);

static void on_done(void *ud, cJSON *result, const mcp_error *err) {
  bench *b = ud;
  b->done++;
  b->inflight--;
  b->failed += err != NULL || result == NULL;
  if (err && b->failed == 1) {
    fprintf(stderr, "bench-inproc: %s\n", err->message ? err->message : "?");
  }
  cJSON_Delete(result);
}

static void start_one(bench *b) {
  mcp_call call = {.kind = MCP_OP_CALL_TOOL,
                   .server = b->server,
                   .name = "echo",
                   .arguments = b->args,
                   .raw_result = true};
  mcp_call_callbacks cb = {.done = on_done, .ud = b};
  b->started++;
  b->inflight++;
  mcp_client_start(b->mc, &call, &cb);
}

/* Runs `n` calls, at most `k` at once, to their end. */
static void run_calls(void *ud, long n, long k) {
  bench *b = ud;
  b->started = b->done = 0;
  b->total = n;
  while (b->done < n && !b->failed) {
    while (b->started < n && b->inflight < k) {
      start_one(b);
    }
    if (b->done < n) {
      loop_run_once(host_loop(b->h), 1000);
    }
  }
}

/* close_run: shutdown, host_free, then the client. */
static void end_bench(void *ud) {
  bench *b = ud;
  mcp_client_shutdown(b->mc);
  host_free(b->h);
  mcp_client_free(b->mc);
  cJSON_Delete(b->args);
}

int main(int argc, char **argv) {
  inproc_args a;
  if (inproc_parse(argc, argv, false, &a) != 0) {
    return 2;
  }
  char dir[] = "/tmp/bench-inproc-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char cfg_path[64], empty[64];
  snprintf(cfg_path, sizeof cfg_path, "%s/servers.json", dir);
  snprintf(empty, sizeof empty, "%s/settings.json", dir);
  FILE *f = fopen(cfg_path, "w");
  if (!f) {
    perror(cfg_path);
    return 1;
  }
  char *servers = inproc_config(&a);
  fputs(servers, f);
  cJSON_free(servers);
  fclose(f);
  setenv("XDG_STATE_HOME", dir, 1);

  /* As cli_main: the host, the client, the build's plugins, the
   * options, the configuration. */
  bench b = {0};
  b.h = host_new(&(host_options){.builtin_plugin_dir = BENCH_PLUGIN_DIR});
  b.mc = mcp_client_new(b.h);
  host_load_plugins(b.h);
  mcp_client_set_options(b.mc,
                         &(mcp_client_options){.connect_timeout_ms = 30000,
                                               .request_timeout_ms = 60000,
                                               .tool_timeout_ms = 600000,
                                               .server_exit_ms = 2000,
                                               .name_chars = 64,
                                               .list_cache_ttl_ms = 20000});
  const char *configs[] = {cfg_path};
  config_sources o = {.cwd = dir,
                      .home = dir,
                      .user_settings = empty,
                      .system_dir = dir,
                      .mcp_configs = configs,
                      .nmcp_configs = 1,
                      .strict = true};
  config_load_scopes(host_cfg_edit(b.h), &o);
  host_set_config_sources(b.h, &o, NULL, NULL);
  mcp_inproc_server *srv = NULL;
  if (a.sdk && mcp_inproc_register(
                   b.mc, "s", &(mcp_inproc_callbacks){.on_message = on_message},
                   &srv, NULL, 0) != 0) {
    return 1;
  }
  b.server = 0;
  b.args = cJSON_Parse("{\"message\":\"hi\"}");

  return inproc_bench(&a, dir, run_calls, end_bench, &b, &b.failed);
}
