#include <stddef.h>
#include <string.h>

#include "plugin_info.h"

const char *sampling_policy_word(const char *v, int *unknown) {
  *unknown = 0;
  if (!v || !*v || strcmp(v, "decline") == 0) {
    return NULL;
  }
  if (strncmp(v, "hook:", 5) == 0 && v[5]) {
    return v + 5;
  }
  *unknown = 1;
  return NULL;
}
