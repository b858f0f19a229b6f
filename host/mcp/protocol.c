#include "mcp/protocol.h"

#include <stdio.h>
#include <string.h>

const char *const mcp_protocol_versions[] = {"2025-11-25", "2025-06-18",
                                             "2025-03-26", "2024-11-05", NULL};

const char *mcp_protocol_latest(void) {
  return mcp_protocol_versions[0];
}

bool mcp_protocol_supported(const char *v) {
  for (const char *const *p = mcp_protocol_versions; v && *p; p++) {
    if (strcmp(*p, v) == 0) {
      return true;
    }
  }
  return false;
}

void mcp_protocol_list(char *buf, size_t n) {
  size_t used = 0;
  if (n == 0) {
    return;
  }
  buf[0] = '\0';
  for (const char *const *p = mcp_protocol_versions; *p && used < n; p++) {
    int w = snprintf(buf + used, n - used, "%s%s",
                     p == mcp_protocol_versions ? "" : ", ", *p);
    if (w < 0) {
      return;
    }
    used += (size_t)w;
  }
}

const char *const mcp_protocol_modern_versions[] = {"2026-07-28", NULL};

const char *mcp_protocol_modern_latest(void) {
  return mcp_protocol_modern_versions[0];
}

bool mcp_protocol_modern_supported(const char *v) {
  for (const char *const *p = mcp_protocol_modern_versions; v && *p; p++) {
    if (strcmp(*p, v) == 0) {
      return true;
    }
  }
  return false;
}

const char *mcp_protocol_modern_pick(const cJSON *offered) {
  if (!cJSON_IsArray(offered)) {
    return NULL;
  }
  for (const char *const *p = mcp_protocol_modern_versions; *p; p++) {
    const cJSON *v;
    cJSON_ArrayForEach(v, offered) {
      if (cJSON_IsString(v) && strcmp(v->valuestring, *p) == 0) {
        return *p;
      }
    }
  }
  return NULL;
}
