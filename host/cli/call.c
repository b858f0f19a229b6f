/* Commands that act on one server: call a tool, read a resource, get a
 * prompt. Only the server named is connected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../names.h"
#include "../util.h"
#include "cli.h"

static session *connect_one(cli *c, size_t idx, int *rc) {
  if ((*rc = cli_check_startable(c, idx)) != EXIT_OK)
    return NULL;
  cli_connect(c, &idx, 1);
  session *s = c->sessions[idx];
  if (s->state != SESS_READY) {
    cli_error(c, s->cfg->name, "server \"%s\" failed: %s",
              cli_esc(c, s->cfg->name), s->error ? s->error : "not connected");
    *rc = cli_exit_for_failure(s);
    return NULL;
  }
  return s;
}

/* key=value arguments: the value is JSON when it parses as JSON, else a
 * string. A single argument starting with '{' is the whole object. */
static int parse_arguments(cli *c, int argc, char **argv, cJSON **out) {
  if (argc > 1 && argv[0][0] == '{') {
    cli_error(c, NULL,
              "a JSON object must be the only argument, but \"%s\" follows "
              "it (options go before the arguments)",
              argv[1]);
    return EXIT_USAGE;
  }
  if (argc == 1 && argv[0][0] == '{') {
    cJSON *o = cJSON_Parse(argv[0]);
    if (!cJSON_IsObject(o)) {
      cJSON_Delete(o);
      cli_error(c, NULL, "the arguments are not a valid JSON object: %s",
                argv[0]);
      return EXIT_USAGE;
    }
    *out = o;
    return EXIT_OK;
  }
  cJSON *o = cJSON_CreateObject();
  for (int i = 0; i < argc; i++) {
    const char *eq = strchr(argv[i], '=');
    if (!eq || eq == argv[i]) {
      cli_error(c, NULL,
                "argument \"%s\" is not KEY=VALUE (or pass one JSON "
                "object)%s",
                argv[i],
                cli_global_option(argv[i])
                    ? " (options go before the tool's arguments)"
                    : "");
      cJSON_Delete(o);
      return EXIT_USAGE;
    }
    char *key = xstrndup(argv[i], (size_t)(eq - argv[i]));
    cJSON *v = cJSON_Parse(eq + 1);
    if (!v)
      v = cJSON_CreateString(eq + 1);
    cJSON_DeleteItemFromObjectCaseSensitive(o, key);
    cJSON_AddItemToObject(o, key, v);
    free(key);
  }
  *out = o;
  return EXIT_OK;
}

static void on_progress(cli *c, const cJSON *params) {
  if (!c->quiet_progress) {
    out_progress(c, params);
  }
}

/* Finds the tool or prompt called `want` by listing them all (following
 * cursors: names are assigned over the whole list, names.h). With
 * `normalized`, `want` is the item part of an mcp__ name; otherwise the
 * server's own name. Returns a copy of the item, or NULL with *rc set and
 * the reason printed. */
static cJSON *find_item(cli *c, session *s, const char *method,
                        const char *key, const char *want, bool normalized,
                        int *rc) {
  char *cursor = NULL;
  cJSON *all = cJSON_CreateArray(), *found = NULL;
  *rc = EXIT_OK;
  for (unsigned page = 0; page < 10000; page++) {
    cJSON *params = NULL;
    if (cursor) {
      params = cJSON_CreateObject();
      cJSON_AddStringToObject(params, "cursor", cursor);
    }
    cJSON *result = NULL;
    char why[600];
    *rc = cli_request(c, s, method, params, c->request_timeout_ms, NULL,
                      &result, why, sizeof why);
    if (*rc != EXIT_OK) {
      cli_error(c, s->cfg->name, "%s", why);
      break;
    }
    cJSON *items = cJSON_GetObjectItemCaseSensitive(result, key);
    while (cJSON_IsArray(items) && items->child)
      cJSON_AddItemToArray(all,
                           cJSON_DetachItemViaPointer(items, items->child));
    const char *next = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(result, "nextCursor"));
    bool more = next && *next && (!cursor || strcmp(cursor, next) != 0);
    free(cursor);
    cursor = more ? xstrdup(next) : NULL;
    cJSON_Delete(result);
    if (!more)
      break;
  }
  free(cursor);
  if (*rc == EXIT_OK) {
    const cJSON *it = NULL;
    if (normalized) {
      it = name_find_item(s->cfg->name, all, c->lim.name_chars, want);
    } else {
      cJSON_ArrayForEach(it, all) {
        const char *name = cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(it, "name"));
        if (name && strcmp(name, want) == 0)
          break;
      }
    }
    found = it ? cJSON_Duplicate(it, 1) : NULL;
  }
  cJSON_Delete(all);
  if (!found && *rc == EXIT_OK) {
    cli_error(c, s->cfg->name, "server \"%s\" has no %s named \"%s\"",
              cli_esc(c, s->cfg->name),
              strcmp(key, "tools") == 0 ? "tool" : "prompt", cli_esc(c, want));
    *rc = EXIT_NOT_FOUND;
  }
  return found;
}

static char *item_name(const cJSON *item) {
  return xstrdup(cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(item, "name")));
}

int cmd_call(cli *c, int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "mcphost: usage: mcphost call TOOL [JSON | KEY=VALUE ...]\n");
    return EXIT_USAGE;
  }
  size_t idx;
  char *tool = NULL;
  bool qualified;
  cJSON *args = NULL;
  char why[600];
  int rc = cli_resolve_ref(c, argv[1], "tool", &idx, &tool, &qualified, why,
                           sizeof why);
  if (rc != EXIT_OK) {
    cli_error(c, NULL, "%s", why);
    return rc;
  }
  rc = parse_arguments(c, argc - 2, argv + 2, &args);
  if (rc != EXIT_OK)
    goto out;
  /* A denied tool never even starts its server. */
  if ((rc = cli_permission_precheck(c, idx, tool, qualified)) != EXIT_OK)
    goto out;
  session *s = connect_one(c, idx, &rc);
  if (!s)
    goto out;
  char *description = NULL;
  if (qualified) {
    /* The mcp__ form is normalized: find the tool's real name. */
    cJSON *item = find_item(c, s, "tools/list", "tools", tool, true, &rc);
    if (!item)
      goto out;
    free(tool);
    tool = item_name(item);
    const char *d = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(item, "description"));
    description = d ? xstrdup(d) : NULL;
    cJSON_Delete(item);
  }
  rc = cli_check_permission(c, idx, tool, description, args);
  free(description);
  if (rc != EXIT_OK)
    goto out;
  cJSON *result = NULL;
  rc = cli_call_tool(c, s, tool, args, on_progress, &result, why, sizeof why);
  if (rc != EXIT_OK) {
    cli_error(c, s->cfg->name, "%s", why);
    goto out;
  }
  bool is_error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"));
  if (is_error && !qualified) {
    /* The SDKs answer an unknown tool with a result whose isError says
     * "not found": the list tells that from the tool's own error. */
    int lrc;
    cJSON *item = find_item(c, s, "tools/list", "tools", tool, false, &lrc);
    cJSON_Delete(item);
    if (lrc == EXIT_NOT_FOUND) {
      cJSON_Delete(result);
      rc = EXIT_NOT_FOUND;
      goto out;
    }
  }
  if (c->json) {
    out_cut_result(c, result);
    out_json(result);
    c->result_printed = true;
  } else {
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(result, "content");
    const cJSON *structured =
        cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
    if (cJSON_GetArraySize(content) > 0)
      out_content(c, content);
    else if (structured)
      out_json(structured);
  }
  if (is_error) {
    fprintf(stderr, "mcphost: tool \"%s\" on server \"%s\" reported an error\n",
            cli_esc(c, tool), cli_esc(c, s->cfg->name));
    rc = EXIT_TOOL_ERROR;
  }
  cJSON_Delete(result);
out:
  cJSON_Delete(args);
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
    cli_error(c, NULL, "no server named \"%s\" is configured", argv[1]);
    return EXIT_NOT_FOUND;
  }
  int rc = EXIT_OK;
  session *s = connect_one(c, (size_t)i, &rc);
  if (!s)
    return rc;
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "uri", argv[2]);
  cJSON *result = NULL;
  char why[600];
  rc = cli_request(c, s, "resources/read", params, c->request_timeout_ms,
                   on_progress, &result, why, sizeof why);
  if (rc != EXIT_OK) {
    cli_error(c, s->cfg->name, "%s", why);
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
static int prompt_arguments(cli *c, const char *prompt, const cJSON *decl,
                            int argc, char **argv, cJSON **out) {
  cJSON *o = cJSON_CreateObject();
  int next = 0, ndecl = cJSON_GetArraySize(decl);
  for (int i = 0; i < argc; i++) {
    size_t klen;
    if (named_argument(argv[i], &klen)) {
      if (!declares(decl, argv[i], klen)) {
        char *names = declared_names(decl);
        cli_error(c, NULL,
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
      cli_error(c, NULL, "too many arguments: prompt \"%s\" declares %d (%s)",
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
      cli_error(c, NULL, "missing required prompt argument \"%s\"",
                cli_esc(c, n));
      cJSON_Delete(o);
      return EXIT_USAGE;
    }
  }
  *out = o;
  return EXIT_OK;
}

int cmd_prompt(cli *c, int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "mcphost: usage: mcphost prompt PROMPT [ARG | NAME=VALUE ...]\n");
    return EXIT_USAGE;
  }
  size_t idx;
  char *name = NULL;
  bool qualified;
  char why[600];
  int rc = cli_resolve_ref(c, argv[1], "prompt", &idx, &name, &qualified, why,
                           sizeof why);
  if (rc != EXIT_OK) {
    cli_error(c, NULL, "%s", why);
    return rc;
  }
  cJSON *item = NULL, *args = NULL, *result = NULL;
  session *s = connect_one(c, idx, &rc);
  if (!s)
    goto out;
  /* The declaration gives the real name and the argument order. */
  item = find_item(c, s, "prompts/list", "prompts", name, qualified, &rc);
  if (!item)
    goto out;
  free(name);
  name = item_name(item);
  rc = prompt_arguments(c, name,
                        cJSON_GetObjectItemCaseSensitive(item, "arguments"),
                        argc - 2, argv + 2, &args);
  if (rc != EXIT_OK)
    goto out;
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "name", name);
  cJSON_AddItemToObject(params, "arguments", args);
  args = NULL;
  rc = cli_request(c, s, "prompts/get", params, c->request_timeout_ms,
                   on_progress, &result, why, sizeof why);
  if (rc != EXIT_OK) {
    cli_error(c, s->cfg->name, "%s", why);
    goto out;
  }
  if (c->json) {
    out_cut_result(c, result);
    out_json(result);
    c->result_printed = true;
  } else {
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(result, "messages")) {
      out_role(
          c, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "role")));
      out_content(c, cJSON_GetObjectItemCaseSensitive(m, "content"));
    }
  }
out:
  cJSON_Delete(item);
  cJSON_Delete(args);
  cJSON_Delete(result);
  free(name);
  return cli_output_rc(c, rc);
}
