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

/* ---- the in-process server ---- */

static void send_result(mcp_inproc_server *srv, const cJSON *id,
                        cJSON *result) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, 1));
  if (result) {
    cJSON_AddItemToObject(m, "result", result);
  } else {
    cJSON *e = cJSON_AddObjectToObject(m, "error");
    cJSON_AddNumberToObject(e, "code", -32601);
    cJSON_AddStringToObject(e, "message", "Method not found");
  }
  char *text = cJSON_PrintUnformatted(m);
  mcp_inproc_send(srv, text, strlen(text));
  cJSON_free(text);
  cJSON_Delete(m);
}

static cJSON *echo_result(const cJSON *params) {
  const cJSON *msg = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(params, "arguments"), "message");
  const char *s = cJSON_IsString(msg) ? msg->valuestring : "";
  size_t n = strlen(s) + 7;
  char *text = malloc(n);
  snprintf(text, n, "Echo: %s", s);
  cJSON *r = cJSON_CreateObject();
  cJSON *c = cJSON_AddArrayToObject(r, "content");
  cJSON *b = cJSON_CreateObject();
  cJSON_AddStringToObject(b, "type", "text");
  cJSON_AddStringToObject(b, "text", text);
  cJSON_AddItemToArray(c, b);
  free(text);
  return r;
}

static void on_message(void *ud, mcp_inproc_server *srv, const char *json,
                       size_t len) {
  (void)ud;
  cJSON *m = cJSON_ParseWithLength(json, len);
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "method"));
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(m, "params");
  if (!method || !id) {
    cJSON_Delete(m);
    return; /* a notification, or an answer */
  }
  cJSON *result = NULL;
  if (strcmp(method, "initialize") == 0) {
    result = cJSON_Parse("{\"protocolVersion\":\"2025-11-25\","
                         "\"capabilities\":{\"tools\":{}},\"serverInfo\":"
                         "{\"name\":\"bench-inproc\",\"version\":\"1\"}}");
  } else if (strcmp(method, "tools/list") == 0) {
    result = cJSON_Parse(
        "{\"tools\":[{\"name\":\"echo\",\"description\":\"Echo a message "
        "back, prefixed with \\\"Echo: \\\".\",\"inputSchema\":{\"type\":"
        "\"object\",\"properties\":{\"message\":{\"type\":\"string\"}},"
        "\"required\":[\"message\"]}}]}");
  } else if (strcmp(method, "tools/call") == 0) {
    result = echo_result(params);
  }
  send_result(srv, id, result);
  cJSON_Delete(m);
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
static void run_calls(bench *b, long n, long k) {
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

static double now_s(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double children_cpu_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
         (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int usage(void) {
  fputs("usage: bench-inproc sdk|stdio [--calls N] [--warmup N] "
        "[--inflight K] [--server PATH]\n",
        stderr);
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    return usage();
  }
  bool sdk = strcmp(argv[1], "sdk") == 0;
  if (!sdk && strcmp(argv[1], "stdio") != 0) {
    return usage();
  }
  long calls = 20000, warmup = 200, inflight = 1;
  const char *server = NULL;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--calls") == 0) {
      calls = atol(argv[i + 1]);
    } else if (strcmp(argv[i], "--warmup") == 0) {
      warmup = atol(argv[i + 1]);
    } else if (strcmp(argv[i], "--inflight") == 0) {
      inflight = atol(argv[i + 1]);
    } else if (strcmp(argv[i], "--server") == 0) {
      server = argv[i + 1];
    } else {
      return usage();
    }
  }
  if (calls < 1 || warmup < 1 || inflight < 1 || (!sdk && !server)) {
    return usage();
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
  if (sdk) {
    fputs("{\"mcpServers\": {\"s\": {\"type\": \"sdk\"}}}\n", f);
  } else {
    cJSON *c = cJSON_CreateObject();
    cJSON *s =
        cJSON_AddObjectToObject(cJSON_AddObjectToObject(c, "mcpServers"), "s");
    cJSON_AddStringToObject(s, "command", server);
    char *text = cJSON_PrintUnformatted(c);
    fputs(text, f);
    cJSON_free(text);
    cJSON_Delete(c);
  }
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
  if (sdk && mcp_inproc_register(
                 b.mc, "s", &(mcp_inproc_callbacks){.on_message = on_message},
                 &srv, NULL, 0) != 0) {
    return 1;
  }
  b.server = 0;
  b.args = cJSON_Parse("{\"message\":\"hi\"}");

  run_calls(&b, warmup, inflight); /* connects, lists, warms up */
  double w0 = now_s(CLOCK_MONOTONIC);
  double c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
  run_calls(&b, calls, inflight);
  double c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
  double w1 = now_s(CLOCK_MONOTONIC);
  long failed = b.failed;

  double child0 = children_cpu_s();
  mcp_client_shutdown(b.mc);
  host_free(b.h);
  mcp_client_free(b.mc);
  double server_cpu = children_cpu_s() - child0; /* stdio: reaped now */
  cJSON_Delete(b.args);
  char rm[96];
  snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
  if (system(rm) != 0) {
    return 1;
  }
  /* The stdio server's CPU covers its whole life (warm-up included):
   * per call over every call it served. */
  double served = (double)(calls + warmup);
  printf("{\"transport\":\"%s\",\"calls\":%ld,\"inflight\":%ld,"
         "\"failed\":%ld,\"seconds\":%.4f,\"calls_per_s\":%.0f,"
         "\"cpu_us_per_call\":%.3f,\"server_cpu_us_per_call\":%.3f}\n",
         sdk ? "sdk" : "stdio", calls, inflight, failed, w1 - w0,
         (double)calls / (w1 - w0), (c1 - c0) * 1e6 / (double)calls,
         sdk ? 0.0 : server_cpu * 1e6 / served);
  return failed ? 1 : 0;
}
