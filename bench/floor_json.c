/*
 * bench-floor-json: the floor under the 10 MiB result figures. Builds the
 * very line the C bench server sends for big(BYTES) and parses it with
 * cJSON, the parser mcphost uses; prints the median parse time of 5, and
 * the memory it takes: the text itself plus the parsed tree.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long status_kb(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  char l[256];
  long v = -1;
  size_t n = strlen(field);
  while (f && fgets(l, sizeof l, f))
    if (!strncmp(l, field, n) && l[n] == ':')
      v = atol(l + n + 1);
  if (f)
    fclose(f);
  return v;
}

static int cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? strtoul(argv[1], NULL, 10) : 10u << 20;
  static const char line[] =
      "The quick brown fox jumps over the lazy dog; \"quoted\", tab\there.\n";
  size_t ll = sizeof line - 1;
  char *text = malloc(bytes + 1);
  for (size_t i = 0; i < bytes; i += ll)
    memcpy(text + i, line, bytes - i < ll ? bytes - i : ll);
  text[bytes] = '\0';
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
  cJSON_AddNumberToObject(msg, "id", 102);
  cJSON *content = cJSON_AddArrayToObject(
      cJSON_AddObjectToObject(msg, "result"), "content");
  cJSON *block = cJSON_CreateObject();
  cJSON_AddStringToObject(block, "type", "text");
  cJSON_AddStringToObject(block, "text", text);
  cJSON_AddItemToArray(content, block);
  free(text);
  char *wire = cJSON_PrintUnformatted(msg);
  cJSON_Delete(msg);
  size_t len = strlen(wire);

  long rss0 = status_kb("VmRSS");
  uint64_t t[5], p[5];
  long rss_parsed = 0;
  for (int i = 0; i < 5; i++) {
    uint64_t t0 = now_ns();
    cJSON *m = cJSON_ParseWithLength(wire, len);
    t[i] = now_ns() - t0;
    if (!m)
      return 1;
    if (i == 0)
      rss_parsed = status_kb("VmRSS");
    t0 = now_ns();
    char *again = cJSON_PrintUnformatted(m);
    p[i] = now_ns() - t0;
    cJSON_free(again);
    cJSON_Delete(m);
  }
  qsort(t, 5, sizeof t[0], cmp);
  qsort(p, 5, sizeof p[0], cmp);
  printf("{\"mode\":\"floor_json\",\"message_bytes\":%zu,\"text_bytes\":%zu,"
         "\"parse_ms\":%.3f,\"print_ms\":%.3f,\"text_rss_kb\":%ld,"
         "\"parse_rss_kb\":%ld,\"peak_rss_kb\":%ld}\n",
         len, bytes, (double)t[2] / 1e6, (double)p[2] / 1e6, rss0,
         rss_parsed - rss0, status_kb("VmHWM"));
  free(wire);
  return 0;
}
