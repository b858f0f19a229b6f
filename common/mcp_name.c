/* Names for mcp__SERVER__TOOL (mcp_name.h). */
#include "mcp_name.h"

#include <stdbool.h>
#include <string.h>

#include "alloc.h"

bool mcp_name_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-';
}

char *mcp_name_normalize(const char *s) {
  char *out = xmalloc(strlen(s) + 1);
  mcp_name_normalize_to(s, out);
  return out;
}

size_t mcp_name_normalize_to(const char *s, char *out) {
  size_t k = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (mcp_name_char(*p)) {
      out[k++] = (char)*p;
      continue;
    }
    out[k++] = '_';
    /* One character gives one "_": its continuation bytes are skipped. */
    while ((p[1] & 0xC0) == 0x80) {
      p++;
    }
  }
  out[k] = '\0';
  size_t plen = strlen(MCP_NAME_CLAUDEAI_PREFIX);
  if (strncmp(s, MCP_NAME_CLAUDEAI_PREFIX, plen) != 0) {
    return k;
  }
  /* Claude Code's connector names: "_+" as "_", none at either end. */
  size_t j = 0;
  for (size_t i = 0; i < k; i++) {
    if (out[i] == '_' && (j == 0 || out[j - 1] == '_')) {
      continue;
    }
    out[j++] = out[i];
  }
  if (j > 0 && out[j - 1] == '_') {
    j--;
  }
  out[j] = '\0';
  return j;
}
