/* Commands that act on one server: call a tool, read a resource, get a
 * prompt. Only the server named is connected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "json_parse.h"
#include "json_write.h"
#include "util.h"

/* What `call` takes after the command: TOOL, its options (--no-validate,
 * --follow-links[=N], --task, --detach, --args JSON|@FILE) anywhere, before
 * or after TOOL and the arguments, and the argument words. "--" ends the
 * options: a word after it is an argument even if it begins with '-'. */
typedef struct call_words {
  const char *tool;
  const char *args_option; /* --args: JSON or @FILE */
  bool no_validate;
  unsigned follow_links; /* --follow-links[=N]: the most read, or 0 */
  bool task, detach; /* --task, --detach (mcp/tasks.h) */
  int nwords;
  char **words; /* the argument words, gathered in argv */
} call_words;

static const char *const call_options[] = {"--no-validate", "--follow-links",
                                           "--task", "--detach", "--args"};
#define NCALL_OPTIONS (sizeof call_options / sizeof *call_options)

/* A word that begins with '-' and is no option of call's: refused before
 * TOOL, or when it has no '=' (after TOOL, "-k=v" is an argument whose
 * key begins with '-'). */
static int unknown_option(cli *c, const char *a) {
  if (cli_global_option_arity(a) >= 0) {
    /* Of the global options only --json, -v, -q and --timeout may follow
     * the command (main.c). */
    cli_error(c, NULL,
              "call: \"%s\" is a global option: it goes before the command", a);
    return EXIT_USAGE;
  }
  return cli_unknown(c, "call: unknown option", a, call_options, NCALL_OPTIONS,
                     "; an argument that begins with '-' goes after \"--\"");
}

/* Takes one option at argv[*i] (moving *i past its value); returns
 * EXIT_OK, EXIT_USAGE with the reason printed, or -1 when the word is no
 * option of call's. */
static int call_option(cli *c, int argc, char **argv, int *i, call_words *w) {
  const char *a = argv[*i];
  unsigned links = 0;
  if (cli_follow_links_option(c, a, &links) != EXIT_OK) {
    return EXIT_USAGE;
  }
  if (links) {
    w->follow_links = links;
  } else if (strcmp(a, "--no-validate") == 0) {
    w->no_validate = true;
  } else if (strcmp(a, "--task") == 0) {
    w->task = true;
  } else if (strcmp(a, "--detach") == 0) {
    w->detach = true;
  } else if (strcmp(a, "--args") == 0 || strncmp(a, "--args=", 7) == 0) {
    const char *v = a[6] == '=' ? a + 7 : *i + 1 < argc ? argv[++*i] : NULL;
    if (!v) {
      cli_error(c, NULL, "--args needs a JSON object or @FILE");
      return EXIT_USAGE;
    }
    w->args_option = v;
  } else {
    return -1;
  }
  return EXIT_OK;
}

static int split_call_words(cli *c, int argc, char **argv, call_words *w) {
  int kept = 1; /* argument words are moved down to argv[1...] */
  bool options = true;
  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
    if (options && strcmp(a, "--") == 0) {
      options = false;
      continue;
    }
    if (options && a[0] == '-') {
      int rc = call_option(c, argc, argv, &i, w);
      if (rc != -1 && rc != EXIT_OK) {
        return rc;
      }
      if (rc == EXIT_OK) {
        continue;
      }
      if (!strchr(a, '=') || !w->tool) {
        return unknown_option(c, a);
      }
    }
    if (!w->tool) {
      w->tool = a;
    } else {
      argv[kept++] = a;
    }
  }
  w->nwords = kept - 1;
  w->words = argv + 1;
  return EXIT_OK;
}

/* The JSON object of --args or of a single JSON word: text, "@FILE" or
 * "@-" (stdin). Its text, checked (mcphost_free), or NULL with the error
 * printed. */
static char *base_object(cli *c, const char *what, const char *text) {
  mcphost_error err = MCPHOST_ERROR_INIT;
  char *owned = NULL;
  if (mcphost_args_text(what, text, MCPHOST_ARGS_STDIN, &owned, &err) !=
      MCPHOST_OK) {
    cli_error(c, NULL, "%s", err.message);
    return NULL;
  }
  char *why = NULL;
  cJSON *o = json_parse_why(owned, strlen(owned), &why);
  if (why) {
    cli_error(c, NULL, "%s: %s", what, why);
  } else if (!cJSON_IsObject(o)) {
    cli_error(c, NULL,
              "%s: the arguments must be a JSON object ({\"KEY\": VALUE, "
              "...}), not %s",
              what, json_kind(o));
  }
  if (!cJSON_IsObject(o)) {
    mcphost_free(owned);
    owned = NULL;
  }
  cJSON_Delete(o);
  free(why);
  return owned;
}

cJSON *cli_args_words(int n, char *const *words, unsigned flags,
                      mcphost_error *err) {
  char *text = NULL;
  if (mcphost_args_parse(n, (const char *const *)words, flags, &text, err) !=
      MCPHOST_OK) {
    return NULL;
  }
  cJSON *list = json_parse(text, strlen(text), NULL);
  mcphost_free(text);
  return list;
}

/* A word that is JSON rather than KEY=VALUE: it begins with '{' or '['
 * (a KEY cannot). */
static bool json_word(const char *a) {
  return a[0] == '{' || a[0] == '[';
}

/* The arguments of a call as the client API takes them: the base object
 * (--args, or one JSON word) in *args, the KEY=VALUE words
 * (mcphost_args_parse) in *words, to be coerced by the tool's schema once
 * it is found. Both JSON text (mcphost_free). */
static int parse_arguments(cli *c, const call_words *w, char **args,
                           char **words) {
  int argc = w->nwords;
  char **argv = w->words;
  bool json = argc > 0 && json_word(argv[0]);
  if (json && argc > 1) {
    cli_error(c, NULL,
              "a JSON object takes no KEY=VALUE words after it, but \"%s\" "
              "follows it; give the object with --args JSON and the words "
              "after it",
              argv[1]);
    return EXIT_USAGE;
  }
  if (w->args_option && json) {
    cli_error(c, NULL, "--args and a JSON argument both give the arguments");
    return EXIT_USAGE;
  }
  if (w->args_option || json) {
    *args = w->args_option ? base_object(c, "--args", w->args_option)
                           : base_object(c, "call", argv[0]);
    if (!*args) {
      return EXIT_USAGE;
    }
    if (!w->args_option) {
      return EXIT_OK;
    }
  }
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (argc > 0 &&
      mcphost_args_parse(argc, (const char *const *)argv, MCPHOST_ARGS_STDIN,
                         words, &err) != MCPHOST_OK) {
    cli_error(c, NULL, "%s", err.message);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* --json: the result as it is, cut as asked. */
static void print_json_result(cli *c, cJSON *result) {
  out_cut_result(c, result);
  out_json(result);
  c->result_printed = true;
}

/* Prints a result for people (content, else structured content) or, with
 * --json, as it is. */
void cli_print_tool_result(cli *c, cJSON *result) {
  if (c->json) {
    print_json_result(c, result);
    return;
  }
  const cJSON *content = cJSON_GetObjectItemCaseSensitive(result, "content");
  const cJSON *structured =
      cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
  if (cJSON_GetArraySize(content) > 0) {
    out_content(c, content);
  } else if (structured) {
    out_json(structured);
  }
}

int cmd_call(cli *c, int argc, char **argv) {
  call_words w = {0};
  int rc = split_call_words(c, argc, argv, &w);
  if (rc != EXIT_OK) {
    return rc;
  }
  if (!w.tool) {
    fprintf(stderr, "mcphost: usage: mcphost call TOOL [--no-validate] "
                    "[--follow-links[=N]] [--task] [--detach]\n"
                    "                    [--args JSON|@FILE] "
                    "[JSON | KEY=VALUE ...] [-- ARG ...]\n");
    return EXIT_USAGE;
  }
  const char *server = NULL;
  char *tool = NULL, *item = NULL, *args = NULL, *words = NULL;
  cJSON *result = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (mcphost_resolve_ref(c->api, w.tool, "tool", &server, &item, &err) !=
      MCPHOST_OK) {
    rc = cli_fail(c, &err);
    goto out;
  }
  tool = xstrdup(item); /* the real name replaces it once found */
  rc = parse_arguments(c, &w, &args, &words);
  if (rc != EXIT_OK) {
    goto out;
  }
  size_t idx = (size_t)cli_find_server(c, server);
  if ((rc = cli_check_startable(c, idx)) != EXIT_OK) {
    goto out;
  }
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = w.tool;
  rq.arguments = args;
  rq.words = words;
  rq.flags = (w.no_validate ? MCPHOST_REQUEST_NO_CHECK : 0u) |
             (w.task ? MCPHOST_REQUEST_TASK : 0u) |
             (w.detach ? MCPHOST_REQUEST_DETACH : 0u);
  rc = cli_run(c, &rq, &result, &err, &tool);
  if (rc != EXIT_OK) {
    cli_fail(c, &err);
    goto out;
  }
  if (w.detach && cli_print_detached(c, idx, result)) {
    goto out;
  }
  bool failed =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"));
  if (w.follow_links && !failed) {
    cli_links links = {.max = w.follow_links};
    cli_print_with_links(c, server, result, &links, cli_print_tool_result);
  } else {
    cli_print_tool_result(c, result);
  }
  if (failed) {
    fprintf(stderr, "mcphost: tool \"%s\" on server \"%s\" reported an error\n",
            cli_esc(c, tool), cli_esc(c, server));
    rc = EXIT_TOOL_ERROR;
  }
out:
  cJSON_Delete(result);
  mcphost_free(args);
  mcphost_free(words);
  mcphost_free(item);
  free(tool);
  return cli_output_rc(c, rc);
}

int cmd_read(cli *c, int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "mcphost: usage: mcphost read SERVER URI\n");
    return EXIT_USAGE;
  }
  long i = cli_find_server(c, argv[1]);
  if (i < 0) {
    return cli_no_server(c, argv[1]);
  }
  int rc = cli_check_startable(c, (size_t)i);
  if (rc != EXIT_OK) {
    return rc;
  }
  cJSON *result = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_request rq = cli_request(MCPHOST_OP_READ, argv[1], argv[2], NULL, 0);
  rc = cli_run(c, &rq, &result, &err, NULL);
  if (rc != EXIT_OK) {
    cli_fail(c, &err);
    return rc;
  }
  c->result_printed = c->json;
  if (c->json) {
    out_cut_result(c, result);
    out_json(result);
  } else {
    out_resource_contents(c, cJSON_GetObjectItemCaseSensitive(result, "contents"));
  }
  cJSON_Delete(result);
  return cli_output_rc(c, EXIT_OK);
}

/* A word that names a prompt argument: NAME=VALUE, NAME made of letters,
 * digits, '_', '-' and '.'. Anything else ("1+1=2", "a b=c") is a
 * positional value. Sets *name_len. */
static bool named_argument(const char *word, size_t *name_len) {
  size_t n = strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789_-.");
  *name_len = n;
  return n > 0 && word[n] == '=';
}

static bool declares(const cJSON *decl, const char *name, size_t len) {
  const cJSON *d;
  cJSON_ArrayForEach(d, decl) {
    const char *n =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "name"));
    if (n && strlen(n) == len && strncmp(n, name, len) == 0)
      return true;
  }
  return false;
}

/* "city, country" or "none". A new string. */
static char *declared_names(const cJSON *decl) {
  strbuf b;
  sb_init(&b);
  const cJSON *d;
  cJSON_ArrayForEach(d, decl) {
    const char *n =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "name"));
    if (n)
      sb_printf(&b, "%s%s", b.len ? ", " : "", n);
  }
  if (!b.len)
    sb_adds(&b, "none");
  return sb_take(&b);
}

/* Maps prompt arguments: NAME=VALUE for a declared NAME (an undeclared
 * NAME is a usage error: it would silently become a positional value),
 * else the next declared argument in order. */
static int prompt_arguments(cli *c, const char *server, const char *prompt,
                            const cJSON *decl, int argc, char **argv,
                            cJSON **out) {
  cJSON *o = cJSON_CreateObject();
  int next = 0, ndecl = cJSON_GetArraySize(decl);
  for (int i = 0; i < argc; i++) {
    size_t klen;
    if (named_argument(argv[i], &klen)) {
      if (!declares(decl, argv[i], klen)) {
        char *names = declared_names(decl);
        cli_error(c, server,
                  "prompt \"%s\" has no argument \"%.*s\" (its arguments: "
                  "%s); a value containing '=' goes as NAME=VALUE",
                  cli_esc(c, prompt), (int)klen, argv[i], cli_esc(c, names));
        free(names);
        cJSON_Delete(o);
        return EXIT_USAGE;
      }
      char *key = xstrndup(argv[i], klen);
      cJSON_DeleteItemFromObjectCaseSensitive(o, key);
      cJSON_AddStringToObject(o, key, argv[i] + klen + 1);
      free(key);
      continue;
    }
    /* Positional: the next declared argument not yet given. */
    const char *name = NULL;
    while (next < ndecl && !name) {
      const cJSON *d = cJSON_GetArrayItem(decl, next++);
      const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "name"));
      if (n && !cJSON_GetObjectItemCaseSensitive(o, n))
        name = n;
    }
    if (!name) {
      char *names = declared_names(decl);
      cli_error(c, server, "too many arguments: prompt \"%s\" declares %d (%s)",
                cli_esc(c, prompt), ndecl, cli_esc(c, names));
      free(names);
      cJSON_Delete(o);
      return EXIT_USAGE;
    }
    cJSON_AddStringToObject(o, name, argv[i]);
  }
  const cJSON *d;
  cJSON_ArrayForEach(d, decl) {
    const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "name"));
    if (n && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "required")) &&
        !cJSON_GetObjectItemCaseSensitive(o, n)) {
      cli_error(c, server, "missing required prompt argument \"%s\"",
                cli_esc(c, n));
      cJSON_Delete(o);
      return EXIT_USAGE;
    }
  }
  *out = o;
  return EXIT_OK;
}

/* A prompt's messages for people or, with --json, as they are. */
static void print_prompt_result(cli *c, cJSON *result) {
  if (c->json) {
    print_json_result(c, result);
    return;
  }
  const cJSON *m;
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(result, "messages")) {
    out_role(c,
             cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "role")));
    out_content(c, cJSON_GetObjectItemCaseSensitive(m, "content"));
  }
}

int cmd_prompt(cli *c, int argc, char **argv) {
  /* --follow-links[=N] right after PROMPT. */
  cli_links links = {0};
  while (argc > 2 && strncmp(argv[2], "--follow-links", 14) == 0) {
    unsigned max = 0;
    if (cli_follow_links_option(c, argv[2], &max) != EXIT_OK) {
      return EXIT_USAGE;
    }
    if (!max) {
      break; /* "--follow-linksX": a value of the prompt */
    }
    links.max = max;
    memmove(argv + 2, argv + 3, (size_t)(argc - 2) * sizeof *argv);
    argc--;
  }
  if (argc < 2) {
    fprintf(stderr, "mcphost: usage: mcphost prompt PROMPT "
                    "[--follow-links[=N]] [ARG | NAME=VALUE ...]\n");
    return EXIT_USAGE;
  }
  const char *server = NULL;
  char *name = NULL, *args_text = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  cJSON *item = NULL, *args = NULL, *result = NULL;
  /* The declaration gives the real name and the argument order. */
  int rc =
      cli_find_item(c, argv[1], MCPHOST_OP_FIND_PROMPT, &server, &item, NULL);
  if (rc != EXIT_OK) {
    goto out;
  }
  name = xstrdup(cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(item, "name")));
  rc = prompt_arguments(c, server, name,
                        cJSON_GetObjectItemCaseSensitive(item, "arguments"),
                        argc - 2, argv + 2, &args);
  if (rc != EXIT_OK) {
    goto out;
  }
  args_text = json_print(args);
  mcphost_request rq = cli_request(MCPHOST_OP_GET_PROMPT, server, name,
                                   args_text, MCPHOST_REQUEST_EXACT_NAME);
  rc = cli_run(c, &rq, &result, &err, NULL);
  if (rc != EXIT_OK) {
    cli_fail(c, &err);
    goto out;
  }
  if (links.max) {
    cli_print_with_links(c, server, result, &links, print_prompt_result);
  } else {
    print_prompt_result(c, result);
  }
out:
  cJSON_Delete(item);
  cJSON_Delete(args);
  cJSON_Delete(result);
  free(args_text);
  free(name);
  return cli_output_rc(c, rc);
}
