/* What sanitizing costs on a large result: a 10 MiB text result is
 * parsed with cJSON, then sanitized (sanitize_json, as the session does
 * for names and with --sanitize=full), for several kinds of text. Prints MB/s for each step and the cost of
 * sanitizing relative to parsing. Built with -DMCPHOST_BENCH=ON, run by
 * hand, never by the tests:  <build>/bin/bench-sanitize-cost [MiB]       */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "safety/sanitize.h"

#define ROUNDS 5

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* `size` bytes of `unit` repeated (cut at a character boundary). */
static char *repeat(const char *unit, size_t size) {
  size_t ulen = strlen(unit);
  char *s = malloc(size + 1);
  size_t n = 0;
  while (n + ulen <= size) {
    memcpy(s + n, unit, ulen);
    n += ulen;
  }
  s[n] = '\0';
  return s;
}

/* ASCII text with one é every `every` bytes. */
static char *sparse(size_t size, size_t every) {
  char *s = repeat("The quick brown fox jumps over the lazy dog. ", size);
  for (size_t i = every; i + 2 < strlen(s); i += every) {
    s[i] = '\xC3';
    s[i + 1] = '\xA9';
  }
  return s;
}

static char *message(const char *text) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  cJSON_AddNumberToObject(m, "id", 1);
  cJSON *r = cJSON_AddObjectToObject(m, "result");
  cJSON *c = cJSON_AddArrayToObject(r, "content");
  cJSON *b = cJSON_CreateObject();
  cJSON_AddStringToObject(b, "type", "text");
  cJSON_AddStringToObject(b, "text", text);
  cJSON_AddItemToArray(c, b);
  char *s = cJSON_PrintUnformatted(m);
  cJSON_Delete(m);
  return s;
}

static void measure(const char *name, char *text) {
  char *msg = message(text);
  size_t len = strlen(msg);
  double parse = 1e9, san = 1e9;
  size_t changed = 0;
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = now_s();
    cJSON *j = cJSON_ParseWithLength(msg, len);
    double t1 = now_s();
    changed = sanitize_json(j);
    double t2 = now_s();
    cJSON_Delete(j);
    if (t1 - t0 < parse)
      parse = t1 - t0;
    if (t2 - t1 < san)
      san = t2 - t1;
  }
  double mb = (double)len / 1e6;
  printf("%-34s %7.1f MB  parse %8.0f MB/s  sanitize %8.0f MB/s  "
         "sanitize/parse %6.1f%%%s\n",
         name, mb, mb / parse, mb / san, 100.0 * san / parse,
         changed ? "  (text changed)" : "");
  free(msg);
  free(text);
}

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 10;
  size_t size = (mib ? mib : 10) << 20;
  printf("best of %d rounds; MB = 10^6 bytes of JSON message\n", ROUNDS);
  measure("ASCII",
          repeat("The quick brown fox jumps over the lazy dog. ", size));
  measure("ASCII, one \u00E9 per 4 KiB", sparse(size, 4096));
  measure("ASCII, one \u00E9 per 100 bytes", sparse(size, 100));
  measure("mixed scripts, already clean",
          repeat("Gr\u00F6\u00DFe caf\u00E9 \u201Cquoted\u201D "
                 "\u65E5\u672C\u8A9E \u0395\u03BB\u03BB"
                 "\u03B7\u03BD\u03B9\u03BA\u03AC \U0001F600 and some "
                 "plain words. ",
                 size));
  measure("CJK only", repeat("\u65E5\u672C\u8A9E\u306E\u30C6"
                             "\u30AD\u30B9\u30C8",
                             size));
  measure("hostile: zero-width, fullwidth, bidi",
          repeat("safe\u200B text \uFF46\uFF55\uFF4C"
                 "\uFF4C \u202Eevil\u202C \uFB01le ",
                 size));
  return 0;
}
