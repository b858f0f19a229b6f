#include "config/era_policy.h"

#include <stddef.h>
#include <string.h>

bool era_policy_parse(const char *text, era_policy *out) {
  static const struct {
    const char *name;
    era_policy policy;
  } map[] = {{"auto", ERA_POLICY_AUTO},
             {"modern", ERA_POLICY_MODERN},
             {"legacy", ERA_POLICY_LEGACY}};
  for (size_t i = 0; text && i < sizeof map / sizeof map[0]; i++) {
    if (strcmp(text, map[i].name) == 0) {
      *out = map[i].policy;
      return true;
    }
  }
  return false;
}
