/* See log_level.h. */
#include "mcp/log_level.h"

#include <string.h>

#include <mcphost/mcphost.h>

static const struct {
  const char *name;
  int shown;
} levels[MCP_LOG_LEVELS] = {
    {"debug", MCPH_LOG_DEBUG}, {"info", MCPH_LOG_INFO},
    {"notice", MCPH_LOG_INFO}, {"warning", MCPH_LOG_WARN},
    {"error", MCPH_LOG_ERROR}, {"critical", MCPH_LOG_ERROR},
    {"alert", MCPH_LOG_ERROR}, {"emergency", MCPH_LOG_ERROR},
};

int mcp_log_level_rank(const char *name) {
  for (int i = 0; name && i < MCP_LOG_LEVELS; i++) {
    if (strcmp(name, levels[i].name) == 0) {
      return i;
    }
  }
  return -1;
}

const char *mcp_log_level_name(int rank) {
  return rank >= 0 && rank < MCP_LOG_LEVELS ? levels[rank].name : NULL;
}

int mcp_log_level_shown(int rank) {
  return rank >= 0 && rank < MCP_LOG_LEVELS ? levels[rank].shown
                                            : MCPH_LOG_INFO;
}
