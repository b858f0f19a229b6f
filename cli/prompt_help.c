/* A prompt for people, as `tool` shows a tool: its signature in one line
 * (mcp__s__p(city, state?): prompt arguments are text), the description
 * wrapped to the terminal, and each argument with whether it is required
 * and its description. `prompt PROMPT --help` prints it; so does `tool`
 * when the name is a prompt's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

void cli_print_prompt(cli *c, const char *qualified, const cJSON *prompt) {
  unsigned cols = cli_term_cols(STDOUT_FILENO);
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(prompt, "arguments");
  strbuf sig;
  sb_init(&sig);
  sb_printf(&sig, "%s(", qualified);
  const cJSON *a;
  bool first = true;
  cJSON_ArrayForEach(a, args) {
    const char *n = str_of(a, "name");
    if (!n) {
      continue;
    }
    bool req = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "required"));
    sb_printf(&sig, "%s%s%s", first ? "" : ", ", n, req ? "" : "?");
    first = false;
  }
  sb_adds(&sig, ")");
  printf("%s\n", cli_esc(c, sb_str(&sig)));
  sb_free(&sig);
  const char *title = str_of(prompt, "title");
  if (title) {
    printf("\nTitle: %s\n", cli_esc(c, title));
  }
  const char *desc = str_of(prompt, "description");
  if (desc && *desc) {
    char *e = cli_esc_lines(c, desc);
    putchar('\n');
    cli_print_wrapped(e, 2, cols);
    free(e);
  }
  if (cJSON_GetArraySize(args) == 0) {
    printf("\nArguments: none\n");
  } else {
    printf("\nArguments:\n");
  }
  cJSON_ArrayForEach(a, args) {
    const char *n = str_of(a, "name");
    if (!n) {
      continue;
    }
    bool req = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "required"));
    const char *atitle = str_of(a, "title");
    strbuf line;
    sb_init(&line);
    sb_printf(&line, "%s  string%s", n, req ? ", required" : "");
    if (atitle) {
      sb_printf(&line, ", title \"%s\"", atitle);
    }
    printf("  %s\n", cli_esc(c, sb_str(&line)));
    sb_free(&line);
    const char *ad = str_of(a, "description");
    if (ad && *ad) {
      char *e = cli_esc_lines(c, ad);
      cli_print_wrapped(e, 6, cols);
      free(e);
    }
  }
  printf("\nGet it with: mcphost prompt %s [ARG | NAME=VALUE ...]\n",
         cli_esc(c, qualified));
}

int cmd_prompt_help(cli *c, int argc, char **argv) {
  if (argc < 2) {
    fputs(cli_command_help("prompt"), stdout);
    return EXIT_OK;
  }
  const char *server = NULL;
  cJSON *item = NULL;
  int rc =
      cli_find_item(c, argv[1], MCPHOST_OP_FIND_PROMPT, &server, &item, NULL);
  if (rc != EXIT_OK) {
    return rc;
  }
  if (c->json) {
    out_json(item);
    c->result_printed = true;
  } else {
    char *q = cli_qualify(server, str_of(item, "name"));
    cli_print_prompt(c, q, item);
    free(q);
  }
  cJSON_Delete(item);
  return EXIT_OK;
}
