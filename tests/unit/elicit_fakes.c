/* What the elicitation plugin's terminal and flow provide to the files
 * its unit tests compile (schema.c, value.c, text.c, proc.c, url.c,
 * alloc.c): nothing shown, a bare answer. */
#include "elicit.h"

void tty_note(elicit_plugin *pl, const char *server, const char *text) {
  (void)pl;
  (void)server;
  (void)text;
}
cJSON *flow_action(const char *action) {
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "action", action);
  return a;
}
