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

void cli_print_server_details(cli *c, const mcp_server_status *st) {
  unsigned cols = cli_term_cols(STDOUT_FILENO);
  if (st->protocol_version) {
    printf("    protocol: %s", cli_esc(c, st->protocol_version));
    printf(" (%s)\n", st->era ? cli_esc(c, st->era) : "unknown");
  }
  char *caps = capabilities_text(st->capabilities);
  char *e = cli_esc_lines(c, caps);
  printf("    capabilities:\n");
  cli_print_wrapped(e, 6, cols);
  free(e);
  free(caps);
  if (st->instructions && *st->instructions) {
    printf("    instructions:\n");
    e = cli_esc_lines(c, st->instructions);
    cli_print_wrapped(e, 6, cols);
    free(e);
  }
}
