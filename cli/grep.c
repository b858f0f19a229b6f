/* mcphost grep [-i] PATTERN [SERVER] [--json]: the tools, prompts,
 * resources and resource templates of every server (or SERVER) whose
 * name, title, URI or description matches a POSIX extended regular
 * expression. Names and descriptions are matched as the session keeps
 * them (sanitized: mcp/session.h), each line of a description alone; the
 * match is highlighted on a terminal only (cli_colour). */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "display_width.h"

typedef struct grep_run {
  cli *c;
  regex_t re;
  bool colour;
  unsigned cols; /* 0: not a terminal */
  cJSON *json;   /* --json: the matches */
  size_t matches;
} grep_run;

/* Whether one line of `s` (or `s` itself) matches. */
static bool line_matches(const grep_run *g, const char *s, size_t len) {
  char *one = xstrndup(s, len);
  bool m = regexec(&g->re, one, 0, NULL, 0) == 0;
  free(one);
  return m;
}

static bool text_matches(const grep_run *g, const char *s) {
  for (const char *line = s; line && *line;) {
    const char *nl = strchr(line, '\n');
    if (line_matches(g, line, nl ? (size_t)(nl - line) : strlen(line))) {
      return true;
    }
    line = nl ? nl + 1 : NULL;
  }
  return false;
}

/* `shown` (escaped, for one line) with each match painted. */
static void paint_matches(const grep_run *g, strbuf *out, const char *shown) {
  const char *p = shown;
  int flags = 0;
  regmatch_t m;
  while (g->colour && *p && regexec(&g->re, p, 1, &m, flags) == 0) {
    size_t so = (size_t)m.rm_so, eo = (size_t)m.rm_eo;
    if (eo == so) { /* an empty match paints nothing: step over a byte */
      sb_add(out, p, so + 1);
      p += so + 1;
    } else {
      sb_add(out, p, so);
      cli_paint(out, true, CLI_STYLE_MATCH, p + so, eo - so);
      p += eo;
    }
    flags = REG_NOTBOL;
  }
  sb_adds(out, p);
}

/* Prints one line of server text after `lead` (ours, not painted):
 * escaped, cut to the terminal, the matches painted. */
static void print_line(grep_run *g, const char *lead, const char *text,
                       size_t len) {
  char *one = xstrndup(text, len);
  const char *shown = cli_esc(g->c, one);
  size_t indent = display_width(lead, strlen(lead));
  char *cut = g->cols > indent + 8
                  ? limits_cut_to_width(shown, g->cols - indent)
                  : NULL;
  strbuf b;
  sb_init(&b);
  paint_matches(g, &b, cut ? cut : shown);
  printf("%s%s\n", lead, sb_str(&b));
  sb_free(&b);
  free(cut);
  free(one);
}

/* The lines of a description that match, indented; or its first line
 * with text (cli_first_line) when only the name matched. */
static void print_description(grep_run *g, const char *desc) {
  if (!desc || !*desc) {
    return;
  }
  bool any = false;
  for (const char *line = desc; line && *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    if (line_matches(g, line, len)) {
      print_line(g, "    ", line, len);
      any = true;
    }
    line = nl ? nl + 1 : NULL;
  }
  size_t len = 0;
  bool more = false;
  const char *first = cli_first_line(desc, &len, &more);
  if (!any && first) {
    print_line(g, "    ", first, len);
  }
}

static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* One listed item: `kind` (tool, prompt, resource, template); `name` the
 * mcp__ name of a tool or prompt, NULL for a resource (its URI names
 * it). */
static void grep_item(grep_run *g, const char *server, const char *kind,
                      const cJSON *item, const char *name) {
  static const char *const fields[] = {"name", "title", "uri", "uriTemplate",
                                       "description"};
  cJSON *matched = cJSON_CreateArray();
  if (name && line_matches(g, name, strlen(name))) {
    cJSON_AddItemToArray(matched, cJSON_CreateString("name"));
  }
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    const char *v = str_of(item, fields[i]);
    bool dup = name && strcmp(fields[i], "name") == 0 &&
               cJSON_GetArraySize(matched) > 0;
    if (v && !dup && text_matches(g, v)) {
      cJSON_AddItemToArray(matched, cJSON_CreateString(fields[i]));
    }
  }
  if (cJSON_GetArraySize(matched) == 0) {
    cJSON_Delete(matched);
    return;
  }
  g->matches++;
  if (g->json) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", kind);
    cJSON_AddStringToObject(o, "server", server);
    if (name) {
      cJSON_AddStringToObject(o, "name", name);
    }
    const cJSON *f;
    cJSON_ArrayForEach(f, item) {
      if (name && strcmp(f->string, "name") == 0) {
        cJSON_AddItemToObject(o, kind, cJSON_Duplicate(f, 1));
      } else if (strcmp(f->string, "inputSchema") != 0 &&
                 strcmp(f->string, "outputSchema") != 0) {
        cJSON_AddItemToObject(o, f->string, cJSON_Duplicate(f, 1));
      }
    }
    cJSON_AddItemToObject(o, "matched", matched);
    cJSON_AddItemToArray(g->json, o);
    return;
  }
  cJSON_Delete(matched);
  /* "tool      mcp__s__t", "resource  s  URI  NAME" */
  char lead[16];
  snprintf(lead, sizeof lead, "%-9s ", kind);
  strbuf head;
  sb_init(&head);
  if (name) {
    sb_adds(&head, name);
  } else {
    const char *uri =
        str_of(item, "uri") ? str_of(item, "uri") : str_of(item, "uriTemplate");
    const char *rname = str_of(item, "name");
    sb_printf(&head, "%s  %s%s%s", server, uri ? uri : "?", rname ? "  " : "",
              rname ? rname : "");
  }
  print_line(g, lead, sb_str(&head), head.len);
  sb_free(&head);
  print_description(g, str_of(item, "description"));
}

/* Tools and prompts under their mcp__ names, as `tools` lists them. */
static void grep_named(grep_run *g, size_t idx, const cJSON *items,
                       const char *kind) {
  const char *server = mcphost_server_name(g->c->api, idx);
  size_t n = 0, i = 0;
  char **names =
      cli_names_assign(server, items, g->c->lim.name_chars, &n, NULL);
  const cJSON *it;
  cJSON_ArrayForEach(it, items) {
    const char *q = i < n ? names[i] : NULL;
    i++;
    if (q) {
      grep_item(g, server, kind, it, q);
    }
  }
  mcphost_free(names);
}

static void grep_server(grep_run *g, size_t idx, const listing *l) {
  const char *server = mcphost_server_name(g->c->api, idx);
  grep_named(g, idx, l->items[L_TOOLS], "tool");
  grep_named(g, idx, l->items[L_PROMPTS], "prompt");
  const cJSON *r;
  cJSON_ArrayForEach(r, l->items[L_RESOURCES]) {
    grep_item(g, server, "resource", r, NULL);
  }
  cJSON_ArrayForEach(r, l->items[L_TEMPLATES]) {
    grep_item(g, server, "template", r, NULL);
  }
}

int cmd_grep(cli *c, int argc, char **argv) {
  cli_utf8_ctype();
  bool icase = false, words_only = false;
  const char *pattern = NULL;
  int kept = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!words_only && strcmp(a, "--") == 0) {
      words_only = true;
    } else if (!words_only &&
               (strcmp(a, "-i") == 0 || strcmp(a, "--ignore-case") == 0)) {
      icase = true;
    } else if (!words_only && a[0] == '-' && a[1]) {
      cli_error(c, NULL,
                "grep: unknown option \"%s\"; try 'mcphost grep "
                "--help'",
                a);
      return EXIT_USAGE;
    } else if (!pattern) {
      pattern = a;
    } else {
      argv[kept++] = argv[i];
    }
  }
  if (!pattern) {
    fprintf(stderr, "mcphost: usage: mcphost grep [-i] PATTERN [SERVER]\n");
    return EXIT_USAGE;
  }
  grep_run g = {.c = c};
  int err = regcomp(&g.re, pattern,
                    REG_EXTENDED | REG_NEWLINE | (icase ? REG_ICASE : 0));
  if (err != 0) {
    char why[256];
    regerror(err, &g.re, why, sizeof why);
    cli_error(c, NULL, "grep: bad regular expression \"%s\": %s",
              cli_esc(c, pattern), why);
    return EXIT_USAGE;
  }
  size_t *idx = NULL, n = 0;
  int rc = cli_targets(c, kept, argv, &idx, &n, true);
  if (rc != EXIT_OK) {
    regfree(&g.re);
    return rc;
  }
  rc = cli_connect_report(c, idx, n);
  listing *ls = cli_list_many(c, idx, n,
                              1u << L_TOOLS | 1u << L_PROMPTS |
                                  1u << L_RESOURCES | 1u << L_TEMPLATES);
  g.colour = !c->json && cli_colour(STDOUT_FILENO);
  g.cols = c->json ? 0 : cli_term_cols(STDOUT_FILENO);
  g.json = c->json ? cJSON_CreateArray() : NULL;
  for (size_t k = 0; k < n; k++) {
    for (int kind = 0; kind < L_KINDS; kind++) {
      if (ls[k].error[kind]) {
        out_error("server \"%s\": %s", mcphost_server_name(c->api, idx[k]),
                  ls[k].error[kind]);
        rc = rc == EXIT_OK ? EXIT_PROTOCOL : rc;
      }
    }
    grep_server(&g, idx[k], &ls[k]);
  }
  if (g.json) {
    out_json(g.json);
    c->result_printed = true;
    cJSON_Delete(g.json);
  }
  if (g.matches == 0 && rc == EXIT_OK) {
    if (!c->json) {
      fprintf(stderr, "mcphost: nothing matches \"%s\"\n", cli_esc(c, pattern));
    }
    rc = EXIT_NOT_FOUND;
  }
  cli_listing_free(ls, n);
  free(idx);
  regfree(&g.re);
  return rc;
}
