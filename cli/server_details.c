/* What `servers -v` adds under a connected server for people: the
 * protocol version, the capabilities it declared, and its instructions
 * wrapped to the terminal (server text, escaped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

/* "tools (listChanged), resources (subscribe, listChanged), logging":
 * each capability with the members it turns on (true, or an object). A
 * new string; "none" when there are none. */
static char *capabilities_text(const cJSON *caps) {
  strbuf b;
  sb_init(&b);
  const cJSON *cap;
  cJSON_ArrayForEach(cap, caps) {
    if (!cap->string || cJSON_IsFalse(cap) || cJSON_IsNull(cap)) {
      continue;
    }
    sb_printf(&b, "%s%s", b.len ? ", " : "", cap->string);
    const cJSON *m;
    bool open = false;
    const cJSON *members = cJSON_IsObject(cap) ? cap : NULL;
    cJSON_ArrayForEach(m, members) {
      if (m->string && (cJSON_IsTrue(m) || cJSON_IsObject(m))) {
        sb_printf(&b, "%s%s", open ? ", " : " (", m->string);
        open = true;
      }
    }
    if (open) {
      sb_addc(&b, ')');
    }
  }
  if (!b.len) {
    sb_adds(&b, "none");
  }
  return sb_take(&b);
}

static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

void cli_print_server_details(cli *c, const cJSON *status) {
  unsigned cols = cli_term_cols(STDOUT_FILENO);
  const char *version = str_of(status, "protocolVersion");
  const char *era = str_of(status, "era");
  if (version) {
    printf("    protocol: %s", cli_esc(c, version));
    printf(" (%s)\n", era ? cli_esc(c, era) : "unknown");
  }
  char *caps = capabilities_text(
      cJSON_GetObjectItemCaseSensitive(status, "capabilities"));
  char *e = cli_esc_lines(c, caps);
  printf("    capabilities:\n");
  cli_print_wrapped(e, 6, cols);
  free(e);
  free(caps);
  const char *instructions = str_of(status, "instructions");
  if (instructions && *instructions) {
    printf("    instructions:\n");
    e = cli_esc_lines(c, instructions);
    cli_print_wrapped(e, 6, cols);
    free(e);
  }
}
