/* The HTTP request headers of the 2026-07-28 era (era_headers.h). */
#include "mcp/era_headers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base64.h"
#include "util.h"

char *era_header_value(const char *text, size_t len) {
  bool plain = len == 0 || (text[0] != ' ' && text[0] != '\t' &&
                            text[len - 1] != ' ' && text[len - 1] != '\t');
  for (size_t i = 0; plain && i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    plain = c >= 0x20 && c < 0x7f;
  }
  static const char head[] = "=?base64?", tail[] = "?=";
  if (plain && len >= sizeof head - 1 + sizeof tail - 1 &&
      strncasecmp(text, head, sizeof head - 1) == 0 &&
      memcmp(text + len - (sizeof tail - 1), tail, sizeof tail - 1) == 0) {
    plain = false; /* would read as encoded */
  }
  if (plain) {
    char *out = xmalloc(len + 1);
    memcpy(out, text, len);
    out[len] = '\0';
    return out;
  }
  char *b64 = base64_encode(text, len);
  char *out = xasprintf("%s%s%s", head, b64 ? b64 : "", tail);
  free(b64);
  return out;
}

/* ---- x-mcp-header in a tool's inputSchema ---- */

static bool is_token(const char *s) {
  if (!*s) {
    return false;
  }
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
    if (!ok) {
      return false;
    }
  }
  return true;
}

/* Every "x-mcp-header" key anywhere under `node`. */
static size_t count_all(const cJSON *node) {
  size_t n = 0;
  const cJSON *c;
  cJSON_ArrayForEach(c, node) {
    if (c->string && strcmp(c->string, "x-mcp-header") == 0) {
      n++;
    }
    if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
      n += count_all(c);
    }
  }
  return n;
}

/* The annotations reached through "properties" only, from `schema` at
 * `path` (an array of keys); each checked. Returns false with `why`. */
static bool walk(const cJSON *schema, cJSON *path, cJSON *out, size_t *found,
                 char *why, size_t n) {
  const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
  if (!cJSON_IsObject(props)) {
    return true;
  }
  const cJSON *p;
  cJSON_ArrayForEach(p, props) {
    if (!cJSON_IsObject(p)) {
      continue;
    }
    cJSON *here = cJSON_Duplicate(path, 1);
    cJSON_AddItemToArray(here, cJSON_CreateString(p->string));
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(p, "x-mcp-header");
    if (h) {
      (*found)++;
      const char *type =
          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "type"));
      if (!cJSON_IsString(h) || !is_token(h->valuestring)) {
        snprintf(why, n,
                 "property \"%.100s\": x-mcp-header is not a header name",
                 p->string);
      } else if (!type ||
                 (strcmp(type, "string") != 0 && strcmp(type, "integer") != 0 &&
                  strcmp(type, "boolean") != 0)) {
        snprintf(why, n,
                 "property \"%.100s\": x-mcp-header on a %s, not a string, "
                 "integer or boolean",
                 p->string, type ? type : "property of no single type");
      } else {
        const cJSON *e;
        bool dup = false;
        cJSON_ArrayForEach(e, out) {
          dup |= strcasecmp(e->child->valuestring, h->valuestring) == 0;
        }
        if (dup) {
          snprintf(why, n, "x-mcp-header \"%.100s\" is used twice",
                   h->valuestring);
        } else {
          cJSON *entry = cJSON_CreateArray();
          cJSON_AddItemToArray(entry, cJSON_CreateString(h->valuestring));
          const cJSON *k;
          cJSON_ArrayForEach(k, here) {
            cJSON_AddItemToArray(entry, cJSON_Duplicate(k, 0));
          }
          cJSON_AddItemToArray(out, entry);
        }
      }
      if (*why) {
        cJSON_Delete(here);
        return false;
      }
    }
    bool ok = walk(p, here, out, found, why, n);
    cJSON_Delete(here);
    if (!ok) {
      return false;
    }
  }
  return true;
}

bool era_tool_headers(const cJSON *tool, cJSON **map, char *why, size_t n) {
  const cJSON *schema = cJSON_GetObjectItemCaseSensitive(tool, "inputSchema");
  *map = NULL;
  why[0] = '\0';
  size_t all = count_all(schema), found = 0;
  if (all == 0) {
    return true;
  }
  cJSON *out = cJSON_CreateArray(), *path = cJSON_CreateArray();
  bool ok = walk(schema, path, out, &found, why, n);
  cJSON_Delete(path);
  if (ok && found != all) {
    snprintf(why, n,
             "x-mcp-header where only \"properties\" may lead (items, a "
             "combinator, a condition or a $ref)");
    ok = false;
  }
  if (!ok) {
    cJSON_Delete(out);
    return false;
  }
  *map = out;
  return true;
}

/* ---- a message's headers ---- */

static void add(char ***v, size_t *k, const char *name, char *value) {
  *v = xrealloc(*v, (2 * *k + 3) * sizeof **v);
  (*v)[2 * *k] = xstrdup(name);
  (*v)[2 * *k + 1] = value;
  (*v)[2 * *k + 2] = NULL;
  (*k)++;
}

/* The header value of an argument, or NULL (absent, null, an object...). */
static char *arg_value(const cJSON *v) {
  if (cJSON_IsString(v)) {
    return era_header_value(v->valuestring, strlen(v->valuestring));
  }
  if (cJSON_IsBool(v)) {
    return xstrdup(cJSON_IsTrue(v) ? "true" : "false");
  }
  if (cJSON_IsNumber(v)) {
    /* An integer as decimal: the token as sent in the body when it is
     * one (json_parse.h), at any size. */
    const char *tok = v->valuestring;
    if (tok && strspn(tok + (*tok == '-'), "0123456789") ==
                   strlen(tok + (*tok == '-'))) {
      return xstrdup(tok);
    }
    char buf[64];
    /* The range test first, so that the cast is defined. */
    if (fabs(v->valuedouble) < 9.2e18 &&
        v->valuedouble == (double)(long long)v->valuedouble) {
      snprintf(buf, sizeof buf, "%lld", (long long)v->valuedouble);
    } else {
      snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
    }
    return xstrdup(buf);
  }
  return NULL;
}

char **era_message_headers(const cJSON *msg, const cJSON *tools,
                           size_t *count) {
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  *count = 0;
  if (!method) {
    return NULL;
  }
  char **v = NULL;
  size_t k = 0;
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
  const char *pv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
      meta, "io.modelcontextprotocol/protocolVersion"));
  if (pv) {
    add(&v, &k, "MCP-Protocol-Version", xstrdup(pv));
  }
  bool request = cJSON_HasObjectItem(msg, "id");
  if (request) {
    add(&v, &k, "Mcp-Method", era_header_value(method, strlen(method)));
  }
  const char *key = NULL;
  if (strcmp(method, "tools/call") == 0 || strcmp(method, "prompts/get") == 0) {
    key = "name";
  } else if (strcmp(method, "resources/read") == 0) {
    key = "uri";
  }
  const char *name =
      key ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, key))
          : NULL;
  if (request && name) {
    add(&v, &k, "Mcp-Name", era_header_value(name, strlen(name)));
  }
  const cJSON *map = request && name && strcmp(method, "tools/call") == 0
                         ? cJSON_GetObjectItemCaseSensitive(tools, name)
                         : NULL;
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  const cJSON *entry;
  cJSON_ArrayForEach(entry, map) {
    const cJSON *at = args;
    for (const cJSON *p = entry->child->next; p && at; p = p->next) {
      at = cJSON_GetObjectItemCaseSensitive(at, p->valuestring);
    }
    char *val = at ? arg_value(at) : NULL;
    if (val) {
      char hname[160];
      snprintf(hname, sizeof hname, "Mcp-Param-%s", entry->child->valuestring);
      add(&v, &k, hname, val);
    }
  }
  *count = k;
  return v;
}

void era_headers_free(char **headers) {
  for (char **p = headers; p && *p; p++) {
    free(*p);
  }
  free(headers);
}
