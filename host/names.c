#include "names.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static bool name_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-';
}

char *name_normalize(const char *s) {
  strbuf b;
  sb_init(&b);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (name_char(*p)) {
      sb_addc(&b, (char)*p);
      continue;
    }
    sb_addc(&b, '_');
    /* Skip the continuation bytes of a UTF-8 sequence so that one
     * character gives one '_'. */
    while ((p[1] & 0xC0) == 0x80)
      p++;
  }
  return sb_take(&b);
}

char *name_qualify(const char *server, const char *tool) {
  char *s = name_normalize(server), *t = name_normalize(tool);
  char *q = xasprintf("mcp__%s__%s", s, t);
  free(s);
  free(t);
  return q;
}

bool name_parse(const char *ref, char **server, char **tool, bool *qualified) {
  if (str_starts(ref, "mcp__")) {
    const char *rest = ref + 5;
    const char *sep = strstr(rest, "__");
    if (!sep || sep == rest || sep[2] == '\0')
      return false;
    *server = xstrndup(rest, (size_t)(sep - rest));
    *tool = xstrdup(sep + 2);
    *qualified = true;
    return true;
  }
  const char *slash = strchr(ref, '/');
  if (!slash || slash == ref || slash[1] == '\0')
    return false;
  *server = xstrndup(ref, (size_t)(slash - ref));
  *tool = xstrdup(slash + 1);
  *qualified = false;
  return true;
}
