/* mcphost plugin check FILE [--json]: whether mcphost can load a plugin,
 * and what it offers. The check is the library's (mcphost_plugin_check:
 * the plugin runs in a child process); this prints its report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util.h"

/* A string member of `o`, or NULL (also when `o` is no object). */
static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_IsObject(o)
             ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key))
             : NULL;
}

/* ---- printing ---- */

static void print_list(cli *c, const char *label, const cJSON *a,
                       const char *key) {
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) == 0) {
    return;
  }
  printf("  %-12s", label);
  bool first = true;
  for (const cJSON *i = a->child; i; i = i->next) {
    const char *s = cJSON_IsString(i)
                        ? i->valuestring
                        : cJSON_GetStringValue(cJSON_GetObjectItem(i, key));
    if (s) {
      printf("%s%s", first ? "" : ", ", cli_esc(c, s));
      first = false;
    }
  }
  putchar('\n');
}

static void print_output(cli *c, const char *label, const cJSON *r) {
  const char *s = str_of(r, label);
  if (!s || !*s) {
    return;
  }
  printf("  %s:\n", label);
  char *lines = cli_esc_lines(c, s);
  for (char *save = NULL, *l = strtok_r(lines, "\n", &save); l;
       l = strtok_r(NULL, "\n", &save)) {
    printf("    %s\n", l);
  }
  free(lines);
}

static void print_report(cli *c, const cJSON *r) {
  const cJSON *pl = cJSON_GetObjectItem(r, "plugin");
  const char *reason = str_of(r, "reason");
  printf("%s: %s%s%s\n", cli_esc(c, str_of(r, "file")), str_of(r, "verdict"),
         reason ? ": " : "", reason ? cli_esc(c, reason) : "");
  if (str_of(pl, "id")) {
    printf("  %-12s%s %s%s%s%s\n", "plugin", cli_esc(c, str_of(pl, "id")),
           str_of(pl, "version") ? cli_esc(c, str_of(pl, "version")) : "?",
           str_of(pl, "name") ? " (" : "",
           str_of(pl, "name") ? cli_esc(c, str_of(pl, "name")) : "",
           str_of(pl, "name") ? ")" : "");
  }
  if (str_of(pl, "description")) {
    printf("  %-12s%s\n", "description", cli_esc(c, str_of(pl, "description")));
  }
  if (str_of(pl, "abi")) {
    printf("  %-12s%s (this mcphost: %d.%d)\n", "ABI",
           cli_esc(c, str_of(pl, "abi")), MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  const cJSON *pr = cJSON_GetObjectItem(r, "provides");
  if (cJSON_IsTrue(cJSON_GetObjectItem(r, "deferred"))) {
    const char *impl = str_of(pr, "implementation");
    printf("  %-12syes (a provides list)%s%s\n", "deferred",
           impl ? "; implementation " : "", impl ? cli_esc(c, impl) : "");
  }
  const cJSON *ts = cJSON_GetObjectItem(pl, "transports");
  if (cJSON_GetArraySize(ts) > 0) {
    printf("  %-12s", "transports");
    for (const cJSON *t = ts->child; t; t = t->next) {
      printf("%s%s (%s)", t == ts->child ? "" : ", ",
             cli_esc(c, str_of(t, "type")),
             cJSON_IsTrue(cJSON_GetObjectItem(t, "local")) ? "local"
                                                           : "remote");
    }
    putchar('\n');
  }
  const cJSON *f = cJSON_GetObjectItem(r, "feature");
  print_list(c, "requests", cJSON_GetObjectItem(f, "requests"), NULL);
  print_list(c, "notices", cJSON_GetObjectItem(f, "notifications"), NULL);
  print_list(c, "commands", cJSON_GetObjectItem(r, "commands"), "name");
  print_list(c, "options", cJSON_GetObjectItem(r, "options"), "name");
  if (str_of(pl, "serverSource")) {
    printf("  %-12s%s\n", "servers", cli_esc(c, str_of(pl, "serverSource")));
  }
  print_list(c, "extensions", cJSON_GetObjectItem(r, "extensions"), NULL);
  const cJSON *sv = cJSON_GetObjectItem(r, "services");
  if (cJSON_GetArraySize(sv) > 0) {
    printf("  %-12s", "services");
    for (const cJSON *s = sv->child; s; s = s->next) {
      printf("%s%s%s", s == sv->child ? "" : ", ",
             cli_esc(c, str_of(s, "service")),
             cJSON_IsTrue(cJSON_GetObjectItem(s, "offered"))
                 ? ""
                 : " (not offered)");
    }
    putchar('\n');
  }
  print_list(c, "exports", cJSON_GetObjectItem(r, "exports"), NULL);
  print_list(c, "unresolved", cJSON_GetObjectItem(r, "unresolved"), NULL);
  const cJSON *sz = cJSON_GetObjectItem(r, "sizes");
  if (cJSON_GetArraySize(sz) > 0) {
    printf("  %-12s", "sizes");
    for (const cJSON *s = sz->child; s; s = s->next) {
      printf("%s%s %d (host %d)", s == sz->child ? "" : ", ",
             cli_esc(c, str_of(s, "struct")),
             (int)cJSON_GetNumberValue(cJSON_GetObjectItem(s, "declared")),
             (int)cJSON_GetNumberValue(cJSON_GetObjectItem(s, "host")));
    }
    putchar('\n');
  }
  const cJSON *ws = cJSON_GetObjectItem(r, "warnings");
  for (const cJSON *w = ws ? ws->child : NULL; w; w = w->next) {
    printf("  warning: %s\n", cli_esc(c, w->valuestring));
  }
  const cJSON *es = cJSON_GetObjectItem(r, "errors");
  for (const cJSON *e = es ? es->child : NULL; e; e = e->next) {
    printf("  error (%s): %s\n", cli_esc(c, str_of(e, "class")),
           cli_esc(c, str_of(e, "message")));
  }
  print_output(c, "stdout", r);
  print_output(c, "stderr", r);
}

/* ---- the command ---- */

static int usage(void) {
  fprintf(stderr, "mcphost: usage: mcphost plugin check FILE.so [--json]\n");
  return EXIT_USAGE;
}

static int check(cli *c, const char *file) {
  char *json = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_plugin_check(c->api, file,
                                c->timeout_given ? c->request_timeout_ms : 0,
                                &json, NULL, &err);
  if (rc == MCPHOST_ECANCELED) {
    return EXIT_INTERRUPTED;
  }
  cJSON *r = rc == MCPHOST_OK ? cJSON_Parse(json) : NULL;
  mcphost_free(json);
  if (!r) {
    cli_error(c, NULL, "%s", rc != MCPHOST_OK ? err.message : "out of memory");
    return EXIT_SERVER;
  }
  int code = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "exitCode"));
  if (c->json) {
    out_json(r);
    c->result_printed = true;
  } else {
    print_report(c, r);
  }
  cJSON_Delete(r);
  return code;
}

int cmd_plugin(cli *c, int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "check") != 0) {
    if (argc >= 2) {
      cli_error(c, NULL, "plugin: unknown subcommand \"%s\" (check)", argv[1]);
    }
    return usage();
  }
  if (argc != 3 || argv[2][0] == '-' || !argv[2][0]) {
    return usage();
  }
  return check(c, argv[2]);
}
