/* mcphost tool TOOL [--json]: what a tool takes, for people. The
 * signature and the schema's reading are the client library's
 * (mcphost_tool_signature, mcphost_schema_type); this file only lays
 * them out on the terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "json_write.h"

/* Nested parameters are listed to this depth. */
#define MAX_NESTING 4

static void print_params(cli *c, const cJSON *schema, const char *prefix,
                         size_t indent, size_t cols, int depth);

char *cli_tool_signature(const char *name, const cJSON *tool) {
  strbuf t;
  sb_init(&t);
  json_write(&t, tool);
  char *sig = NULL;
  if (mcphost_tool_signature(name, t.data, t.len, &sig, NULL) != MCPHOST_OK) {
    sig = xstrdup(name); /* not an object: no parameters to show */
  }
  sb_free(&t);
  return sig;
}

/* The type of `schema_json`'s (`len` bytes) parameter `name` (or of the
 * schema itself when NULL), as the signature shows it; *required as the
 * schema says. A new string (mcphost_free). */
static char *type_of(const char *schema_json, size_t len, const char *name,
                     int *required) {
  char *type = NULL;
  if (mcphost_schema_type(schema_json, len, name, &type, required, NULL) !=
      MCPHOST_OK) {
    /* Only a tree json_write cannot write (none a server's text makes):
     * a type unknown, as for a schema without one. */
    type = xstrdup("any");
  }
  return type;
}

/* One parameter: "  name  type, required, default 2, format uri", its
 * description below, then its members when it is an object. `text`:
 * the schema holding it as JSON text. */
static void print_param(cli *c, const strbuf *text, const cJSON *p,
                        const char *prefix, size_t indent, size_t cols,
                        int depth) {
  int required = 0;
  char *type = type_of(text->data, text->len, p->string, &required);
  strbuf line;
  sb_init(&line);
  sb_printf(&line, "%s%s  %s", prefix, p->string, type);
  if (required) {
    sb_adds(&line, ", required");
  }
  const cJSON *def = cJSON_GetObjectItemCaseSensitive(p, "default");
  if (def) {
    char *d = json_print(def);
    sb_printf(&line, ", default %s", d ? d : "?");
    free(d);
  }
  const char *format =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "format"));
  if (format) {
    sb_printf(&line, ", format %s", format);
  }
  printf("%*s%s\n", (int)indent, "", cli_esc(c, sb_str(&line)));
  sb_free(&line);
  mcphost_free(type);
  const char *desc =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "description"));
  if (desc && *desc) {
    char *e = cli_esc_lines(c, desc);
    cli_print_wrapped(e, indent + 4, cols);
    free(e);
  }
  if (depth >= MAX_NESTING) {
    return;
  }
  const cJSON *items = cJSON_GetObjectItemCaseSensitive(p, "items");
  char *sub = xasprintf(
      "%s%s%s", prefix, p->string,
      cJSON_GetObjectItemCaseSensitive(p, "properties") ? "." : "[].");
  if (cJSON_GetObjectItemCaseSensitive(p, "properties")) {
    print_params(c, p, sub, indent + 2, cols, depth + 1);
  } else if (cJSON_GetObjectItemCaseSensitive(items, "properties")) {
    print_params(c, items, sub, indent + 2, cols, depth + 1);
  }
  free(sub);
}

static void print_params(cli *c, const cJSON *schema, const char *prefix,
                         size_t indent, size_t cols, int depth) {
  strbuf text;
  sb_init(&text);
  json_write(&text, schema);
  const cJSON *p;
  cJSON_ArrayForEach(p,
                     cJSON_GetObjectItemCaseSensitive(schema, "properties")) {
    if (p->string) {
      print_param(c, &text, p, prefix, indent, cols, depth);
    }
  }
  sb_free(&text);
}

/* "read-only, idempotent" from the annotations' hints; "" for none. */
static char *hints(const cJSON *ann) {
  static const struct {
    const char *key, *yes, *no;
  } names[] = {
      {"readOnlyHint", "read-only", "not read-only"},
      {"destructiveHint", "destructive", "not destructive"},
      {"idempotentHint", "idempotent", "not idempotent"},
      {"openWorldHint", "open-world", "closed-world"},
  };
  strbuf b;
  sb_init(&b);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(ann, names[i].key);
    if (cJSON_IsBool(h)) {
      sb_printf(&b, "%s%s", b.len ? ", " : "",
                cJSON_IsTrue(h) ? names[i].yes : names[i].no);
    }
  }
  return sb_take(&b);
}

static void print_tool(cli *c, const char *qualified, const cJSON *t) {
  /* 0 (no terminal, or one too narrow): cli_print_wrapped's 80. */
  unsigned cols = cli_term_cols(STDOUT_FILENO);
  if (cols < 40) {
    cols = 0;
  }
  char *sig = cli_tool_signature(qualified, t);
  printf("%s\n", cli_esc(c, sig));
  mcphost_free(sig);
  const char *title =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "title"));
  const cJSON *ann = cJSON_GetObjectItemCaseSensitive(t, "annotations");
  if (!title) {
    title =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ann, "title"));
  }
  if (title) {
    printf("\nTitle: %s\n", cli_esc(c, title));
  }
  const char *desc =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "description"));
  if (desc && *desc) {
    char *e = cli_esc_lines(c, desc);
    putchar('\n');
    cli_print_wrapped(e, 2, cols);
    free(e);
  }
  const cJSON *in = cJSON_GetObjectItemCaseSensitive(t, "inputSchema");
  if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(in, "properties")) >
      0) {
    printf("\nParameters:\n");
    print_params(c, in, "", 2, cols, 0);
  } else {
    printf("\nParameters: none\n");
  }
  const cJSON *out = cJSON_GetObjectItemCaseSensitive(t, "outputSchema");
  if (out) {
    strbuf text;
    sb_init(&text);
    json_write(&text, out);
    char *type = type_of(text.data, text.len, NULL, NULL);
    printf("\nOutput: %s\n", cli_esc(c, type));
    mcphost_free(type);
    sb_free(&text);
  }
  char *h = hints(ann);
  if (*h) {
    printf("\nAnnotations: %s\n", h);
  }
  free(h);
  const char *task = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(t, "execution"), "taskSupport"));
  if (task) {
    printf("\nTask support: %s\n", cli_esc(c, task));
  }
}

/* `ref` as a prompt of `server`: shown (EXIT_OK, `err` cleared), or the
 * tool's error in `err` stays (its exit returned). */
static int show_prompt(cli *c, const char *ref, const char *server,
                       mcphost_error *err) {
  cJSON *prompt = NULL;
  mcphost_error perr = MCPHOST_ERROR_INIT;
  size_t idx = (size_t)cli_find_server(c, server);
  if (!(cli_server_state(c, idx).caps & MCPHOST_CAP_PROMPTS) ||
      cli_find_item(c, ref, MCPHOST_OP_FIND_PROMPT, &server, &prompt, &perr) !=
          EXIT_OK) {
    return cli_exit_for_api(err->code);
  }
  *err = (mcphost_error)MCPHOST_ERROR_INIT;
  if (c->json) {
    out_json(prompt);
    c->result_printed = true;
  } else {
    const char *real =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(prompt, "name"));
    char *q = cli_qualify(server, real);
    cli_print_prompt(c, q, prompt);
    free(q);
  }
  cJSON_Delete(prompt);
  return EXIT_OK;
}

int cmd_tool(cli *c, int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "mcphost: usage: mcphost tool TOOL|PROMPT [--json]\n");
    return EXIT_USAGE;
  }
  const char *server = NULL;
  cJSON *tool = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc =
      cli_find_item(c, argv[1], MCPHOST_OP_FIND_TOOL, &server, &tool, &err);
  if (rc != EXIT_OK && err.code != MCPHOST_OK &&
      (err.code == MCPHOST_ENOTFOUND ||
       !(cli_server_state(c, (size_t)cli_find_server(c, server)).caps &
         MCPHOST_CAP_TOOLS))) {
    /* A prompt of that name is shown as one (prompt_help.c). */
    rc = show_prompt(c, argv[1], server, &err);
  }
  if (rc != EXIT_OK) {
    cli_fail(c, &err);
    goto out;
  }
  if (!tool) {
    goto out; /* the prompt was shown */
  }
  if (c->json) {
    out_json(tool);
    c->result_printed = true;
  } else {
    const char *real =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tool, "name"));
    char *q = cli_qualify(server, real);
    print_tool(c, q, tool);
    free(q);
  }
out:
  cJSON_Delete(tool);
  return rc;
}
