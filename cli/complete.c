/* mcphost complete PROMPT|SERVER/URI-TEMPLATE ARG PREFIX [NAME=VALUE...]:
 * the values a server proposes for one argument of a prompt or one
 * variable of a resource template (completion/complete). The other
 * arguments already chosen go as its context from MCP 2025-06-18 on,
 * where the spec has it. Only that server is connected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "json_write.h"
#include "suggest.h"

/* Where `completion/complete` entered MCP, and its context. */
#define COMPLETIONS_SINCE "2025-03-26"
#define CONTEXT_SINCE "2025-06-18"

typedef struct completing {
  size_t idx;
  const char *server; /* its name (the client's) */
  bool is_template;
  char *item;       /* the prompt's real name or the URI template */
  cJSON *names;     /* what ARG may be: string array */
  const char *what; /* "argument" or "variable" */
} completing;

/* The variables of RFC 6570 template `t` ("{a}", "{+b}", "{?c,d*}",
 * "{e:3}") as a string array. */
static cJSON *template_variables(const char *t) {
  cJSON *out = cJSON_CreateArray();
  for (const char *p = strchr(t, '{'); p; p = strchr(p, '{')) {
    const char *end = strchr(p, '}');
    if (!end) {
      break;
    }
    p++;
    if (p < end && strchr("+#./;?&", *p)) {
      p++;
    }
    while (p < end) {
      size_t n = strcspn(p, ",}");
      size_t name = strcspn(p, ":*,}");
      if (name > 0) {
        char *v = xstrndup(p, name);
        cJSON_AddItemToArray(out, cJSON_CreateString(v));
        free(v);
      }
      p += n + (p[n] == ',' ? 1 : 0);
    }
    p = end + 1;
  }
  return out;
}

static bool has_name(const cJSON *names, const char *name, size_t len) {
  const cJSON *n;
  cJSON_ArrayForEach(n, names) {
    if (strlen(n->valuestring) == len &&
        strncmp(n->valuestring, name, len) == 0) {
      return true;
    }
  }
  return false;
}

/* A prompt: its declaration gives the real name and the arguments. */
static int find_prompt(cli *c, const char *ref, completing *w) {
  cJSON *item = NULL;
  int rc =
      cli_find_item(c, ref, MCPHOST_OP_FIND_PROMPT, &w->server, &item, NULL);
  if (rc != EXIT_OK) {
    return rc;
  }
  w->idx = (size_t)cli_find_server(c, w->server);
  w->item = xstrdup(
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "name")));
  w->names = cJSON_CreateArray();
  const cJSON *a;
  cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(item, "arguments")) {
    const char *n =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "name"));
    if (n) {
      cJSON_AddItemToArray(w->names, cJSON_CreateString(n));
    }
  }
  w->what = "argument";
  cJSON_Delete(item);
  return EXIT_OK;
}

/* A resource template, SERVER/URI-TEMPLATE: one the server lists. */
static int find_template(cli *c, size_t idx, const char *uri_template,
                         completing *w) {
  w->idx = idx;
  w->server = mcphost_server_name(c->api, idx);
  const char *server = w->server;
  cJSON *result = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_request rq = cli_request(MCPHOST_OP_LIST, server, "resourceTemplates",
                                   NULL, MCPHOST_REQUEST_IF_DECLARED);
  int rc = cli_run(c, &rq, &result, &err, NULL);
  if (rc != EXIT_OK) {
    cli_fail(c, &err);
    return rc;
  }
  cJSON *known = cJSON_CreateArray();
  const cJSON *t;
  cJSON_ArrayForEach(
      t, cJSON_GetObjectItemCaseSensitive(result, "resourceTemplates")) {
    const char *u = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(t, "uriTemplate"));
    if (u) {
      cJSON_AddItemToArray(known, cJSON_CreateString(u));
    }
  }
  cJSON_Delete(result);
  if (!has_name(known, uri_template, strlen(uri_template))) {
    strbuf hint;
    sb_init(&hint);
    mcp_suggest_array(&hint, uri_template, known);
    cli_error(c, server, "server \"%s\" has no resource template \"%s\"%s",
              cli_esc(c, server), cli_esc(c, uri_template),
              cli_esc(c, sb_str(&hint)));
    sb_free(&hint);
    cJSON_Delete(known);
    return EXIT_NOT_FOUND;
  }
  cJSON_Delete(known);
  w->is_template = true;
  w->item = xstrdup(uri_template);
  w->names = template_variables(uri_template);
  w->what = "variable";
  return EXIT_OK;
}

/* ARG and each NAME=VALUE must be one of w->names. */
static int check_name(cli *c, const completing *w, const char *name,
                      size_t len) {
  if (has_name(w->names, name, len)) {
    return EXIT_OK;
  }
  char *want = xstrndup(name, len);
  strbuf hint;
  sb_init(&hint);
  mcp_suggest_array(&hint, want, w->names);
  cli_error(c, NULL, "%s \"%s\" has no %s \"%s\"%s",
            w->is_template ? "resource template" : "prompt",
            cli_esc(c, w->item), w->what, cli_esc(c, want),
            cli_esc(c, sb_str(&hint)));
  sb_free(&hint);
  free(want);
  return EXIT_USAGE;
}

/* The request's params; NULL with the error said. */
static cJSON *complete_params(cli *c, const completing *w, int argc,
                              char **argv, const char *version) {
  cJSON *params = cJSON_CreateObject();
  cJSON *ref = cJSON_AddObjectToObject(params, "ref");
  cJSON_AddStringToObject(ref, "type",
                          w->is_template ? "ref/resource" : "ref/prompt");
  cJSON_AddStringToObject(ref, w->is_template ? "uri" : "name", w->item);
  cJSON *arg = cJSON_AddObjectToObject(params, "argument");
  cJSON_AddStringToObject(arg, "name", argv[2]);
  cJSON_AddStringToObject(arg, "value", argv[3]);
  cJSON *ctx = NULL;
  for (int i = 4; i < argc; i++) {
    const char *eq = strchr(argv[i], '=');
    if (!eq || eq == argv[i]) {
      cli_error(c, NULL,
                "complete: \"%s\" is not NAME=VALUE (the other arguments "
                "as context)",
                argv[i]);
      goto fail;
    }
    size_t len = (size_t)(eq - argv[i]);
    if (check_name(c, w, argv[i], len) != EXIT_OK) {
      goto fail;
    }
    if (!ctx) {
      ctx = cJSON_CreateObject();
    }
    char *key = xstrndup(argv[i], len);
    cJSON_DeleteItemFromObjectCaseSensitive(ctx, key);
    cJSON_AddStringToObject(ctx, key, eq + 1);
    free(key);
  }
  if (ctx && version && strcmp(version, CONTEXT_SINCE) < 0) {
    fprintf(stderr,
            "mcphost: warning: the context is not sent: MCP %s (server "
            "\"%s\") predates it (%s)\n",
            version, cli_esc(c, w->server), CONTEXT_SINCE);
    cJSON_Delete(ctx);
  } else if (ctx) {
    cJSON *context = cJSON_AddObjectToObject(params, "context");
    cJSON_AddItemToObject(context, "arguments", ctx);
  }
  return params;
fail:
  cJSON_Delete(ctx);
  cJSON_Delete(params);
  return NULL;
}

static void print_values(cli *c, const cJSON *completion) {
  const cJSON *values = cJSON_GetObjectItemCaseSensitive(completion, "values");
  const cJSON *v;
  int shown = 0;
  cJSON_ArrayForEach(v, values) {
    if (cJSON_IsString(v)) {
      printf("%s\n", cli_esc(c, v->valuestring));
      shown++;
    }
  }
  const cJSON *total = cJSON_GetObjectItemCaseSensitive(completion, "total");
  bool more =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(completion, "hasMore"));
  if (cJSON_IsNumber(total) && total->valuedouble > shown) {
    fprintf(stderr, "mcphost: %d of %.0f values shown\n", shown,
            total->valuedouble);
  } else if (more) {
    fprintf(stderr, "mcphost: the server has more values than these %d\n",
            shown);
  }
}

int cmd_complete(cli *c, int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "mcphost: usage: mcphost complete PROMPT|SERVER/"
                    "URI-TEMPLATE ARG PREFIX [NAME=VALUE ...]\n");
    return EXIT_USAGE;
  }
  completing w = {0};
  cJSON *params = NULL, *result = NULL, *status = NULL;
  char *params_text = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc;
  /* SERVER/URI-TEMPLATE is told from SERVER/PROMPT by its "://" or "{". */
  const char *slash = strchr(argv[1], '/');
  const char *rest = slash ? slash + 1 : "";
  if (strncmp(argv[1], "mcp__", 5) != 0 && slash &&
      (strstr(rest, "://") || strchr(rest, '{'))) {
    char *server = xstrndup(argv[1], (size_t)(slash - argv[1]));
    long i = cli_find_server(c, server);
    rc = i < 0 ? cli_no_server(c, server) : cli_check_startable(c, (size_t)i);
    free(server);
    if (rc == EXIT_OK) {
      rc = find_template(c, (size_t)i, rest, &w);
    }
  } else {
    rc = find_prompt(c, argv[1], &w);
  }
  if (rc != EXIT_OK) {
    goto out;
  }
  if ((rc = check_name(c, &w, argv[2], strlen(argv[2]))) != EXIT_OK) {
    goto out;
  }
  status = cli_server_status(c, w.server, 0);
  const char *server = w.server;
  const char *version = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(status, "protocolVersion"));
  if (version && strcmp(version, COMPLETIONS_SINCE) >= 0 &&
      !cJSON_GetObjectItemCaseSensitive(
          cJSON_GetObjectItemCaseSensitive(status, "capabilities"),
          "completions")) {
    cli_error(c, server,
              "server \"%s\" does not offer completions (its capabilities "
              "lack \"completions\")",
              cli_esc(c, server));
    rc = EXIT_PROTOCOL;
    goto out;
  }
  params = complete_params(c, &w, argc, argv, version);
  if (!params) {
    rc = EXIT_USAGE;
    goto out;
  }
  params_text = json_print(params);
  mcphost_request rq = cli_request(MCPHOST_OP_REQUEST, server,
                                   "completion/complete", params_text, 0);
  rc = cli_run(c, &rq, &result, &err, NULL);
  if (rc != EXIT_OK) {
    cli_fail(c, &err);
    goto out;
  }
  if (c->json) {
    out_json(result);
    c->result_printed = true;
  } else {
    print_values(c, cJSON_GetObjectItemCaseSensitive(result, "completion"));
  }
out:
  free(params_text);
  cJSON_Delete(status);
  cJSON_Delete(params);
  cJSON_Delete(result);
  cJSON_Delete(w.names);
  free(w.item);
  return rc;
}
