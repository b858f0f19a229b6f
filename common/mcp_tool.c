/* What a tools/list item says about itself (mcp_tool.h). */
#include "mcp_tool.h"

#include <string.h>

const char *mcp_tool_task_support(const cJSON *tool) {
  const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(tool, "execution"), "taskSupport"));
  if (v && strcmp(v, "required") == 0) {
    return "required";
  }
  if (v && strcmp(v, "optional") == 0) {
    return "optional";
  }
  return "forbidden";
}
