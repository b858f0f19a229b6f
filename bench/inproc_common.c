/* What the two in-process benches share (inproc_common.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "inproc_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cjson/cJSON.h>

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

char *inproc_echo_answer(const char *json, size_t len) {
  cJSON *m = cJSON_ParseWithLength(json, len);
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "method"));
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(m, "params");
  if (!method || !id) {
    cJSON_Delete(m);
    return NULL; /* a notification, or an answer */
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
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "jsonrpc", "2.0");
  cJSON_AddItemToObject(a, "id", cJSON_Duplicate(id, 1));
  if (result) {
    cJSON_AddItemToObject(a, "result", result);
  } else {
    cJSON *e = cJSON_AddObjectToObject(a, "error");
    cJSON_AddNumberToObject(e, "code", -32601);
    cJSON_AddStringToObject(e, "message", "Method not found");
  }
  char *text = cJSON_PrintUnformatted(a);
  cJSON_Delete(a);
  cJSON_Delete(m);
  return text;
}

int inproc_parse(int argc, char **argv, bool with_loop, inproc_args *a) {
  *a = (inproc_args){.calls = 20000,
                     .warmup = 200,
                     .inflight = 1,
                     .loop = with_loop ? "thread" : NULL};
  bool ok = argc >= 2;
  a->sdk = ok && strcmp(argv[1], "sdk") == 0;
  ok = ok && (a->sdk || strcmp(argv[1], "stdio") == 0);
  for (int i = 2; ok && i < argc; i += 2) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) {
      ok = false;
    } else if (strcmp(argv[i], "--calls") == 0) {
      a->calls = atol(v);
    } else if (strcmp(argv[i], "--warmup") == 0) {
      a->warmup = atol(v);
    } else if (strcmp(argv[i], "--inflight") == 0) {
      a->inflight = atol(v);
    } else if (strcmp(argv[i], "--server") == 0) {
      a->server = v;
    } else if (with_loop && strcmp(argv[i], "--loop") == 0) {
      a->loop = v;
    } else {
      ok = false;
    }
  }
  ok = ok && a->calls > 0 && a->warmup > 0 && a->inflight > 0 &&
       (a->sdk || a->server) &&
       (!with_loop || strcmp(a->loop, "thread") == 0 ||
        strcmp(a->loop, "caller") == 0);
  if (!ok) {
    fprintf(stderr,
            "usage: %s sdk|stdio [--calls N] [--warmup N] [--inflight K] "
            "[--server PATH]%s\n",
            argc ? argv[0] : "bench-inproc",
            with_loop ? " [--loop thread|caller]" : "");
    return 2;
  }
  return 0;
}

char *inproc_config(const inproc_args *a) {
  cJSON *c = cJSON_CreateObject();
  cJSON *s =
      cJSON_AddObjectToObject(cJSON_AddObjectToObject(c, "mcpServers"), "s");
  if (a->sdk) {
    cJSON_AddStringToObject(s, "type", "sdk");
  } else {
    cJSON_AddStringToObject(s, "command", a->server);
  }
  char *text = cJSON_PrintUnformatted(c);
  cJSON_Delete(c);
  return text;
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

int inproc_bench(const inproc_args *a, const char *dir,
                 void (*run)(void *ud, long n, long k), void (*end)(void *ud),
                 void *ud, const long *failed) {
  run(ud, a->warmup, a->inflight);
  double w0 = now_s(CLOCK_MONOTONIC);
  double c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
  run(ud, a->calls, a->inflight);
  double c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
  double w1 = now_s(CLOCK_MONOTONIC);
  double child0 = children_cpu_s();
  end(ud);
  double server_cpu = children_cpu_s() - child0;
  char rm[96];
  snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
  if (system(rm) != 0) {
    return 1;
  }
  double served = (double)(a->calls + a->warmup);
  printf("{\"transport\":\"%s\",%s%s%s\"calls\":%ld,"
         "\"inflight\":%ld,\"failed\":%ld,\"seconds\":%.4f,"
         "\"calls_per_s\":%.0f,\"cpu_us_per_call\":%.3f,"
         "\"server_cpu_us_per_call\":%.3f}\n",
         a->sdk ? "sdk" : "stdio", a->loop ? "\"loop\":\"" : "",
         a->loop ? a->loop : "", a->loop ? "\"," : "", a->calls, a->inflight,
         *failed, w1 - w0, (double)a->calls / (w1 - w0),
         (c1 - c0) * 1e6 / (double)a->calls,
         a->sdk ? 0.0 : server_cpu * 1e6 / served);
  return *failed ? 1 : 0;
}
