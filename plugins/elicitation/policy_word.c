#include <stddef.h>
#include <string.h>

#include "plugin_info.h"

int elicit_policy_word(const char *v, const char **hook) {
  static const struct {
    const char *name;
    int kind;
  } names[] = {{"ask", POLICY_ASK},
               {"decline", POLICY_DECLINE},
               {"cancel", POLICY_CANCEL},
               {"accept-defaults", POLICY_ACCEPT_DEFAULTS},
               {"off", POLICY_OFF}};
  *hook = NULL;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    if (strcmp(v, names[i].name) == 0) {
      return names[i].kind;
    }
  }
  if (strncmp(v, "hook:", 5) == 0 && v[5]) {
    *hook = v + 5;
    return POLICY_HOOK;
  }
  return -1;
}
