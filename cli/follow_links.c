/* --follow-links (call, prompt): the resource links of a result are read
 * from the server that sent them, never another one, and printed after
 * the result. At most N links (CLI_LINKS_DEFAULT, or --follow-links=N);
 * a URI is read once, and a link to a resource the result embeds (shown
 * already) is not read again. What a linked resource contains is not
 * followed further: resources/read contents carry no links in MCP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cli_follow_links_option(cli *c, const char *word, unsigned *max) {
  static const char opt[] = "--follow-links";
  size_t n = sizeof opt - 1;
  *max = 0;
  if (strncmp(word, opt, n) != 0 || (word[n] && word[n] != '=')) {
    return EXIT_OK;
  }
  if (!word[n]) {
    *max = CLI_LINKS_DEFAULT;
    return EXIT_OK;
  }
  char *end;
  unsigned long v = strtoul(word + n + 1, &end, 10);
  if (!word[n + 1] || *end || v == 0 || v > CLI_LINKS_MAX ||
      word[n + 1] == '-') {
    cli_error(c, NULL,
              "--follow-links=N needs a number of links from 1 to %d, not "
              "\"%s\"",
              CLI_LINKS_MAX, word + n + 1);
    return EXIT_USAGE;
  }
  *max = (unsigned)v;
  return EXIT_OK;
}

static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static bool seen_has(const cJSON *seen, const char *uri) {
  const cJSON *s;
  cJSON_ArrayForEach(s, seen) {
    if (strcmp(s->valuestring, uri) == 0) {
      return true;
    }
  }
  return false;
}

/* The blocks of `content`: an array, or one block. */
static const cJSON *block_at(const cJSON *content, int i) {
  if (cJSON_IsObject(content)) {
    return i == 0 ? content : NULL;
  }
  return cJSON_GetArrayItem(content, i);
}

/* Reads one link and prints it (or adds it to `json_links`). */
static void follow_one(cli *c, const char *server, const char *uri,
                       cJSON *json_links) {
  cJSON *result = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_request rq = cli_request(MCPHOST_OP_READ, server, uri, NULL, 0);
  int rc = cli_run(c, &rq, &result, &err, NULL);
  if (json_links) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "uri", uri);
    if (rc == EXIT_OK) {
      cJSON_AddItemToObject(
          o, "contents",
          cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(result, "contents"),
                          1));
    } else {
      cJSON *e = cJSON_AddObjectToObject(o, "error");
      cJSON_AddNumberToObject(e, "exit", rc);
      cJSON_AddStringToObject(e, "message", err.message);
    }
    cJSON_AddItemToArray(json_links, o);
  } else if (rc == EXIT_OK) {
    if (c->open_line) {
      putchar('\n');
      c->open_line = false;
    }
    printf("[linked resource %s]\n", cli_esc(c, uri));
    out_resource_contents(c,
                          cJSON_GetObjectItemCaseSensitive(result, "contents"));
  }
  if (rc != EXIT_OK) {
    out_error("resource link %s not read: %s", cli_esc(c, uri),
              err.message[0] ? err.message : "failed");
  }
  cJSON_Delete(result);
}

void cli_follow_links(cli *c, const char *server, const cJSON *content,
                      cli_links *l) {
  /* What the result embeds is shown already. */
  const cJSON *b;
  for (int i = 0; (b = block_at(content, i)) != NULL; i++) {
    const char *type = str_of(b, "type");
    const char *uri =
        str_of(cJSON_GetObjectItemCaseSensitive(b, "resource"), "uri");
    if (type && strcmp(type, "resource") == 0 && uri &&
        !seen_has(l->seen, uri)) {
      cJSON_AddItemToArray(l->seen, cJSON_CreateString(uri));
    }
  }
  unsigned skipped = 0;
  for (int i = 0; (b = block_at(content, i)) != NULL; i++) {
    const char *type = str_of(b, "type");
    const char *uri = str_of(b, "uri");
    if (!type || strcmp(type, "resource_link") != 0 || !uri ||
        seen_has(l->seen, uri) || mcphost_interrupted(c->api)) {
      continue;
    }
    cJSON_AddItemToArray(l->seen, cJSON_CreateString(uri));
    if (l->read >= l->max) {
      skipped++;
      continue;
    }
    l->read++;
    follow_one(c, server, uri, l->json);
  }
  if (skipped) {
    fprintf(stderr,
            "mcphost: %u more resource link%s not followed (at most %u; "
            "--follow-links=N)\n",
            skipped, skipped == 1 ? "" : "s", l->max);
  }
}

void cli_print_with_links(cli *c, const char *server, cJSON *result,
                          cli_links *l, void (*print)(cli *c, cJSON *result)) {
  l->seen = cJSON_CreateArray();
  l->json = c->json ? cJSON_CreateArray() : NULL;
  if (!c->json) {
    print(c, result);
  }
  const cJSON *messages = cJSON_GetObjectItemCaseSensitive(result, "messages");
  if (messages) {
    const cJSON *m;
    cJSON_ArrayForEach(m, messages) {
      cli_follow_links(c, server,
                       cJSON_GetObjectItemCaseSensitive(m, "content"), l);
    }
  } else {
    cli_follow_links(c, server,
                     cJSON_GetObjectItemCaseSensitive(result, "content"), l);
  }
  if (c->json) {
    out_cut_result(c, result);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemReferenceToObject(o, "result", result);
    cJSON_AddItemToObject(o, "links", l->json);
    l->json = NULL;
    out_json(o);
    c->result_printed = true;
    cJSON_Delete(o);
  }
  cJSON_Delete(l->seen);
  l->seen = NULL;
}
