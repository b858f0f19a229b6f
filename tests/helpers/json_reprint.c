/* Reads JSON lines on stdin and writes each again as
 * cJSON_PrintUnformatted() prints it: the reference that mcphost batch's
 * own writer must match byte for byte (test_batch.sh). Exits 1 on a line
 * that does not parse. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t len = 0, cap = 0;
  char *text = NULL;
  do {
    if (len == cap) {
      cap = cap ? cap * 2 : 1 << 16;
      char *more = realloc(text, cap);
      if (!more) {
        free(text);
        return 2;
      }
      text = more;
    }
    len += fread(text + len, 1, cap - len, stdin);
  } while (!feof(stdin) && !ferror(stdin));
  for (size_t start = 0; start < len;) {
    char *nl = memchr(text + start, '\n', len - start);
    size_t end = nl ? (size_t)(nl - text) : len;
    cJSON *v = cJSON_ParseWithLength(text + start, end - start);
    char *s = v ? cJSON_PrintUnformatted(v) : NULL;
    if (!s) {
      fprintf(stderr, "json-reprint: line at byte %zu is not JSON\n", start);
      return 1;
    }
    fputs(s, stdout);
    fputc('\n', stdout);
    cJSON_free(s);
    cJSON_Delete(v);
    start = end + 1;
  }
  free(text);
  return 0;
}
