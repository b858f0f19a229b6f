/* Reading an id from a message cut short; see rpc_scan.h. */
#include "mcp/rpc_scan.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Skips one JSON string starting at s[i] == '"'; returns the index after
 * its closing quote, or len when it does not end in range. */
static size_t skip_string(const char *s, size_t i, size_t len) {
  for (i++; i < len; i++) {
    if (s[i] == '\\')
      i++;
    else if (s[i] == '"')
      return i + 1;
  }
  return len;
}

int64_t rpc_scan_id(const char *s, size_t len) {
  size_t i = 0;
  int depth = 0;
  bool want_key = false; /* at depth 1, the next string is a key */
  while (i < len) {
    char c = s[i];
    if (c == '"') {
      size_t end = skip_string(s, i, len);
      if (depth == 1 && want_key) {
        bool is_id = end - i == 4 && memcmp(s + i, "\"id\"", 4) == 0;
        want_key = false;
        i = end;
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
                           s[i] == '\r' || s[i] == ':'))
          i++;
        if (is_id) {
          if (i < len && s[i] == '"') /* a string id: we only send numbers */
            return -1;
          char *endp;
          char buf[32];
          size_t n = 0;
          while (i + n < len && n < sizeof buf - 1 &&
                 ((s[i + n] >= '0' && s[i + n] <= '9') || s[i + n] == '-'))
            n++;
          memcpy(buf, s + i, n);
          buf[n] = '\0';
          long long v = n ? strtoll(buf, &endp, 10) : 0;
          return n && v >= 1 ? v : -1;
        }
        continue;
      }
      i = end;
      continue;
    }
    if (c == '{' || c == '[') {
      depth++;
      want_key = depth == 1 && c == '{';
    } else if (c == '}' || c == ']') {
      depth--;
    } else if (c == ',' && depth == 1) {
      want_key = true;
    }
    i++;
  }
  return -1;
}
