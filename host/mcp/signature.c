/* A tool's signature (signature.h). */
#include "mcp/signature.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "json_write.h"

/* Nested objects are shown to this depth, then as "object". */
#define MAX_DEPTH 3

static void add_type(strbuf *b, const cJSON *schema, int depth);

bool mcp_schema_requires(const cJSON *schema, const char *name) {
  const cJSON *r;
  cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(schema, "required")) {
    if (cJSON_IsString(r) && strcmp(r->valuestring, name) == 0) {
      return true;
    }
  }
  return false;
}

static void add_json(strbuf *b, const cJSON *v) {
  char *t = json_print(v);
  sb_adds(b, t ? t : "?");
  free(t);
}

/* "a: T, b?: T = 1" for an object schema's properties. */
static void add_params(strbuf *b, const cJSON *schema, int depth) {
  const cJSON *p;
  bool first = true;
  cJSON_ArrayForEach(p,
                     cJSON_GetObjectItemCaseSensitive(schema, "properties")) {
    if (!p->string) {
      continue;
    }
    sb_printf(b, "%s%s%s: ", first ? "" : ", ", p->string,
              mcp_schema_requires(schema, p->string) ? "" : "?");
    first = false;
    add_type(b, p, depth + 1);
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(p, "default");
    if (def) {
      sb_adds(b, " = ");
      add_json(b, def);
    }
  }
}

static void add_alternatives(strbuf *b, const cJSON *list, int depth) {
  const cJSON *alt;
  bool first = true;
  cJSON_ArrayForEach(alt, list) {
    if (!first) {
      sb_addc(b, '|');
    }
    first = false;
    add_type(b, alt, depth);
  }
}

static void add_type(strbuf *b, const cJSON *schema, int depth) {
  if (!cJSON_IsObject(schema)) {
    sb_adds(b, "any");
    return;
  }
  const cJSON *en = cJSON_GetObjectItemCaseSensitive(schema, "enum");
  const cJSON *cst = cJSON_GetObjectItemCaseSensitive(schema, "const");
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type");
  const cJSON *any = cJSON_GetObjectItemCaseSensitive(schema, "anyOf");
  if (!any) {
    any = cJSON_GetObjectItemCaseSensitive(schema, "oneOf");
  }
  bool nullable =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(schema, "nullable"));
  if (cJSON_IsArray(en) && cJSON_GetArraySize(en) > 0) {
    const cJSON *v;
    bool first = true;
    cJSON_ArrayForEach(v, en) {
      if (!first) {
        sb_addc(b, '|');
      }
      first = false;
      add_json(b, v);
    }
  } else if (cst) {
    add_json(b, cst);
  } else if (cJSON_IsArray(any)) {
    add_alternatives(b, any, depth);
  } else if (cJSON_IsArray(type)) {
    const cJSON *t;
    bool first = true;
    cJSON_ArrayForEach(t, type) {
      if (cJSON_IsString(t)) {
        sb_printf(b, "%s%s", first ? "" : "|", t->valuestring);
        first = false;
      }
    }
  } else if (cJSON_IsString(type) && strcmp(type->valuestring, "array") == 0) {
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(schema, "items");
    if (!items) {
      sb_adds(b, "array");
    } else {
      strbuf inner;
      sb_init(&inner);
      add_type(&inner, items, depth);
      bool plain = strpbrk(sb_str(&inner), "|") == NULL;
      sb_printf(b, plain ? "%s[]" : "(%s)[]", sb_str(&inner));
      sb_free(&inner);
    }
  } else if (cJSON_IsString(type) && strcmp(type->valuestring, "object") == 0 &&
             cJSON_GetObjectItemCaseSensitive(schema, "properties") &&
             depth < MAX_DEPTH) {
    sb_addc(b, '{');
    add_params(b, schema, depth);
    sb_addc(b, '}');
  } else if (cJSON_IsString(type)) {
    sb_adds(b, type->valuestring);
  } else if (cJSON_GetObjectItemCaseSensitive(schema, "properties")) {
    sb_adds(b, "object");
  } else {
    sb_adds(b, "any");
  }
  if (nullable) {
    sb_adds(b, "|null");
  }
}

char *mcp_tool_signature(const char *name, const cJSON *tool) {
  strbuf b;
  sb_init(&b);
  sb_printf(&b, "%s(", name ? name : "");
  add_params(&b, cJSON_GetObjectItemCaseSensitive(tool, "inputSchema"), 0);
  sb_addc(&b, ')');
  return sb_take(&b);
}

char *mcp_schema_type(const cJSON *schema) {
  strbuf b;
  sb_init(&b);
  add_type(&b, schema, 0);
  return sb_take(&b);
}
