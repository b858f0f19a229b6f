/* Arguments from words, by a tool's inputSchema (arguments.h). */
#include "mcp/arguments.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "mcp/signature.h"
#include "suggest.h"
#include "json_parse.h"
#include "json_write.h"

/* Nested schemas deeper than this are not followed (a hostile schema
 * could nest without end): their values are taken as they are. */
#define MAX_DEPTH 32

/* ---- words ---- */

char *mcp_args_value_text(const char *what, const char *v, unsigned flags,
                          mcp_error *err) {
  if (v[0] != '@') {
    return xstrdup(v);
  }
  const char *path = v + 1;
  if (!*path) {
    mcp_error_set(err, MCP_ERR_USAGE, NULL,
                  "%s: \"@\" needs a file name (or - for stdin)", what);
    return NULL;
  }
  if (strcmp(path, "-") == 0 && !(flags & MCP_ARGS_STDIN)) {
    mcp_error_set(err, MCP_ERR_USAGE, NULL, "%s: stdin cannot be read here",
                  what);
    return NULL;
  }
  size_t len = 0;
  char *text = read_whole_file(path, &len);
  if (!text) {
    mcp_error_set(err, MCP_ERR_USAGE, NULL, "%s: cannot read %s: %s", what,
                  strcmp(path, "-") == 0 ? "stdin" : path, strerror(errno));
    return NULL;
  }
  if (strlen(text) != len) {
    mcp_error_set(err, MCP_ERR_USAGE, NULL, "%s: %s holds a NUL byte: not text",
                  what, path);
    free(text);
    return NULL;
  }
  return text;
}

/* The value part of a word: the text, or a file's content for "@FILE". */
static char *word_value(const char *word, const char *v, unsigned flags,
                        mcp_error *err) {
  char *what = xasprintf("argument \"%s\"", word);
  char *text = mcp_args_value_text(what, v, flags, err);
  free(what);
  return text;
}

int mcp_args_parse_words(int n, char *const *words, unsigned flags, cJSON **out,
                         mcp_error *err) {
  cJSON *list = cJSON_CreateArray();
  for (int i = 0; i < n; i++) {
    const char *w = words[i];
    const char *eq = strchr(w, '=');
    if (!eq || eq == w || (eq == w + 1 && w[0] == ':')) {
      mcp_error_set(err, MCP_ERR_USAGE, NULL,
                    "argument \"%s\" is not KEY=VALUE, KEY:=JSON or "
                    "KEY=@FILE",
                    w);
      goto fail;
    }
    bool json = eq[-1] == ':';
    char *key = xstrndup(w, (size_t)(eq - w) - (json ? 1 : 0));
    char *value = word_value(w, eq + 1, flags, err);
    if (!value) {
      free(key);
      goto fail;
    }
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddStringToObject(entry, "key", key);
    if (json) {
      json_error jerr;
      cJSON *v = json_parse(value, strlen(value), &jerr);
      if (!v) {
        char *where = json_error_text(value, strlen(value), &jerr);
        mcp_error_set(err, MCP_ERR_USAGE, NULL,
                      "argument \"%s\": the value after \":=\" is not JSON "
                      "(%s)",
                      w, where);
        free(where);
        cJSON_Delete(entry);
        free(key);
        free(value);
        goto fail;
      }
      cJSON_AddItemToObject(entry, "json", v);
    } else {
      cJSON_AddStringToObject(entry, "text", value);
    }
    cJSON_AddItemToArray(list, entry);
    free(key);
    free(value);
  }
  *out = list;
  return 0;
fail:
  cJSON_Delete(list);
  return -1;
}

/* ---- coercion ---- */

static const cJSON *member(const cJSON *o, const char *name) {
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, name) : NULL;
}

/* An integer as typed, sent as its token at any size. Only a JSON
 * integer is one: "007" or "2.0" would not be sent back as typed, so a
 * parameter that also takes a string gets them as text (and one that
 * takes only integers refuses them). */
static cJSON *integer_item(const char *s) {
  const char *p = s + (*s == '-');
  if (!*p || strspn(p, "0123456789") != strlen(p)) {
    return NULL;
  }
  return json_number_from_token(s);
}

/* The text as one JSON type; NULL when it is not one. */
static cJSON *as_type(const char *type, const char *text) {
  if (strcmp(type, "string") == 0) {
    return cJSON_CreateString(text);
  }
  if (strcmp(type, "integer") == 0) {
    return integer_item(text);
  }
  if (strcmp(type, "number") == 0) {
    /* A JSON number, nothing else ("0x10", "inf", " 1", "02134" are
     * not), kept as typed: a number is sent as its token. */
    return json_number_from_token(text);
  }
  if (strcmp(type, "boolean") == 0) {
    return strcmp(text, "true") == 0    ? cJSON_CreateTrue()
           : strcmp(text, "false") == 0 ? cJSON_CreateFalse()
                                        : NULL;
  }
  if (strcmp(type, "null") == 0) {
    return strcmp(text, "null") == 0 ? cJSON_CreateNull() : NULL;
  }
  if (strcmp(type, "array") == 0 || strcmp(type, "object") == 0) {
    cJSON *v = json_parse_str(text);
    if ((type[0] == 'a' && cJSON_IsArray(v)) ||
        (type[0] == 'o' && cJSON_IsObject(v))) {
      return v;
    }
    cJSON_Delete(v);
  }
  return NULL;
}

/* The rule without a schema: JSON when it parses, else the text. */
static cJSON *untyped(const char *text) {
  cJSON *v = json_parse_str(text);
  return v ? v : cJSON_CreateString(text);
}

static cJSON *coerce(const cJSON *schema, const char *text, int depth);

/* An enum without a type: a string member equal to the text, else the
 * member the text is as JSON. */
static cJSON *from_enum(const cJSON *en, const char *text) {
  const cJSON *v;
  cJSON_ArrayForEach(v, en) {
    if (cJSON_IsString(v) && strcmp(v->valuestring, text) == 0) {
      return cJSON_CreateString(text);
    }
  }
  cJSON *j = json_parse_str(text);
  cJSON_ArrayForEach(v, en) {
    if (j && cJSON_Compare(v, j, 1)) {
      return j;
    }
  }
  cJSON_Delete(j);
  return NULL;
}

static bool allows_null(const cJSON *schema, int depth) {
  if (!cJSON_IsObject(schema) || depth > MAX_DEPTH) {
    return false;
  }
  if (cJSON_IsTrue(member(schema, "nullable"))) {
    return true;
  }
  const cJSON *type = member(schema, "type");
  if (cJSON_IsString(type)) {
    return strcmp(type->valuestring, "null") == 0;
  }
  const cJSON *t;
  cJSON_ArrayForEach(t, type) {
    if (cJSON_IsString(t) && strcmp(t->valuestring, "null") == 0) {
      return true;
    }
  }
  const cJSON *alts = member(schema, "anyOf");
  if (!alts) {
    alts = member(schema, "oneOf");
  }
  cJSON_ArrayForEach(t, alts) {
    if (allows_null(t, depth + 1)) {
      return true;
    }
  }
  return false;
}

/* The text as `schema` takes it, or NULL when it cannot be. */
static cJSON *coerce(const cJSON *schema, const char *text, int depth) {
  if (!cJSON_IsObject(schema) || depth > MAX_DEPTH) {
    return untyped(text);
  }
  /* The word null is null wherever the schema allows it, before a
   * string alternative could take it (ns:='"null"' sends the text). */
  if (strcmp(text, "null") == 0 && allows_null(schema, depth)) {
    return cJSON_CreateNull();
  }
  const cJSON *type = member(schema, "type");
  const cJSON *alts = member(schema, "anyOf");
  if (!alts) {
    alts = member(schema, "oneOf");
  }
  if (cJSON_IsString(type)) {
    return as_type(type->valuestring, text);
  }
  if (cJSON_IsArray(type)) {
    const cJSON *t;
    cJSON_ArrayForEach(t, type) {
      cJSON *v = cJSON_IsString(t) ? as_type(t->valuestring, text) : NULL;
      if (v) {
        return v;
      }
    }
    return NULL;
  }
  if (cJSON_IsArray(alts)) {
    const cJSON *alt;
    cJSON_ArrayForEach(alt, alts) {
      cJSON *v = coerce(alt, text, depth + 1);
      if (v) {
        return v;
      }
    }
    return NULL;
  }
  const cJSON *en = member(schema, "enum");
  if (cJSON_IsArray(en)) {
    return from_enum(en, text);
  }
  const cJSON *cst = member(schema, "const");
  if (cst) {
    if (cJSON_IsString(cst)) {
      return strcmp(cst->valuestring, text) == 0 ? cJSON_CreateString(text)
                                                 : NULL;
    }
    cJSON *j = json_parse_str(text);
    if (j && cJSON_Compare(j, cst, 1)) {
      return j;
    }
    cJSON_Delete(j);
    return NULL;
  }
  if (member(schema, "properties")) {
    return as_type("object", text);
  }
  return untyped(text);
}

/* Sets `value` (taken) at the dotted `key` of `args`, following `schema`
 * for each part: "a.b" is member b of object a unless the schema names a
 * parameter "a.b". */
static int set_path(cJSON *args, const cJSON *schema, const char *key,
                    cJSON *value, int depth, char **why) {
  const cJSON *props = member(schema, "properties");
  const char *dot = strchr(key, '.');
  if (dot && depth >= MAX_DEPTH) {
    *why = xasprintf("key \"%.40s...\" is nested more than %d deep", key,
                     MAX_DEPTH);
    cJSON_Delete(value);
    return -1;
  }
  if (!dot || member(props, key) || dot == key || !dot[1]) {
    cJSON_DeleteItemFromObjectCaseSensitive(args, key);
    cJSON_AddItemToObject(args, key, value);
    return 0;
  }
  char *head = xstrndup(key, (size_t)(dot - key));
  cJSON *child = cJSON_GetObjectItemCaseSensitive(args, head);
  if (!child) {
    child = cJSON_AddObjectToObject(args, head);
  } else if (!cJSON_IsObject(child)) {
    *why = xasprintf("parameter \"%s\" is set both as a value and as an "
                     "object (\"%s\")",
                     head, key);
    free(head);
    cJSON_Delete(value);
    return -1;
  }
  int rc = set_path(child, member(props, head), dot + 1, value, depth + 1, why);
  free(head);
  return rc;
}

/* The schema a dotted key names, or NULL. */
static const cJSON *schema_at(const cJSON *schema, const char *key) {
  for (int depth = 0; schema && depth < MAX_DEPTH; depth++) {
    const cJSON *props = member(schema, "properties");
    const cJSON *whole = member(props, key);
    const char *dot = strchr(key, '.');
    if (whole || !dot) {
      return whole;
    }
    char *head = xstrndup(key, (size_t)(dot - key));
    schema = member(props, head);
    free(head);
    key = dot + 1;
  }
  return NULL;
}

int mcp_args_build(const cJSON *schema, const cJSON *base, const cJSON *words,
                   unsigned flags, cJSON **out, char **why) {
  cJSON *args =
      cJSON_IsObject(base) ? cJSON_Duplicate(base, 1) : cJSON_CreateObject();
  const cJSON *w;
  cJSON_ArrayForEach(w, words) {
    const char *key = cJSON_GetStringValue(member(w, "key"));
    const cJSON *json = member(w, "json");
    const char *text = cJSON_GetStringValue(member(w, "text"));
    if (!key) {
      continue;
    }
    cJSON *v;
    if (json) {
      v = cJSON_Duplicate(json, 1);
    } else {
      const cJSON *ps = schema_at(schema, key);
      v = ps ? coerce(ps, text ? text : "", 0) : untyped(text ? text : "");
      if (!v && (flags & MCP_ARGS_LENIENT)) {
        v = untyped(text ? text : "");
      }
      if (!v) {
        char *type = mcp_schema_type(ps);
        *why = xasprintf("parameter \"%s\" takes %s, not \"%s\" (KEY:=JSON "
                         "sends JSON as it is)",
                         key, type, text ? text : "");
        free(type);
        cJSON_Delete(args);
        return -1;
      }
    }
    if (set_path(args, schema, key, v, 0, why) != 0) {
      cJSON_Delete(args);
      return -1;
    }
  }
  *out = args;
  return 0;
}

/* ---- checking ---- */

static bool type_is(const char *type, const cJSON *v) {
  if (strcmp(type, "string") == 0) {
    return cJSON_IsString(v);
  }
  if (strcmp(type, "integer") == 0) {
    return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble);
  }
  if (strcmp(type, "number") == 0) {
    return cJSON_IsNumber(v);
  }
  if (strcmp(type, "boolean") == 0) {
    return cJSON_IsBool(v);
  }
  if (strcmp(type, "null") == 0) {
    return cJSON_IsNull(v);
  }
  if (strcmp(type, "array") == 0) {
    return cJSON_IsArray(v);
  }
  if (strcmp(type, "object") == 0) {
    return cJSON_IsObject(v);
  }
  return true; /* a type this check does not know is not refused */
}

/* `path` names the value checked ("" at the top, "a.b[2]" within): each
 * level is a link on the stack, made into text only for a message, so
 * that a check that passes writes no path and allocates nothing. */
typedef struct arg_path {
  const struct arg_path *up;
  const char *key; /* a member's name, or NULL for the element `index` */
  int index;
} arg_path;

static void path_write(strbuf *b, const arg_path *p) {
  if (!p) {
    return;
  }
  path_write(b, p->up);
  if (p->key) {
    if (b->len) {
      sb_addc(b, '.');
    }
    sb_adds(b, p->key);
  } else {
    sb_printf(b, "[%d]", p->index);
  }
}

/* The keywords of a schema the check reads, each the first of its name
 * (as cJSON_GetObjectItemCaseSensitive finds it), gathered in one pass
 * over the schema rather than one search per keyword. */
typedef struct schema_kw {
  const cJSON *type, *any_of, *one_of, *en, *nullable, *properties, *required,
      *items, *additional;
} schema_kw;

static void kw_first(const cJSON **slot, const cJSON *m) {
  if (!*slot) {
    *slot = m;
  }
}

static void kw_gather(const cJSON *schema, schema_kw *k) {
  memset(k, 0, sizeof *k);
  if (!cJSON_IsObject(schema)) {
    return;
  }
  for (const cJSON *m = schema->child; m; m = m->next) {
    const char *s = m->string;
    const cJSON **slot = NULL;
    if (!s) {
      continue;
    }
    switch (s[0]) {
    case 'a':
      slot = !strcmp(s, "anyOf")                  ? &k->any_of
             : !strcmp(s, "additionalProperties") ? &k->additional
                                                  : NULL;
      break;
    case 'e': slot = !strcmp(s, "enum") ? &k->en : NULL; break;
    case 'i': slot = !strcmp(s, "items") ? &k->items : NULL; break;
    case 'n': slot = !strcmp(s, "nullable") ? &k->nullable : NULL; break;
    case 'o': slot = !strcmp(s, "oneOf") ? &k->one_of : NULL; break;
    case 'p': slot = !strcmp(s, "properties") ? &k->properties : NULL; break;
    case 'r': slot = !strcmp(s, "required") ? &k->required : NULL; break;
    case 't': slot = !strcmp(s, "type") ? &k->type : NULL; break;
    default: break;
    }
    if (slot) {
      kw_first(slot, m);
    }
  }
}

static int check_value(const cJSON *schema, const cJSON *v,
                       const arg_path *path, int depth, char **why);

static bool is_required(const schema_kw *k, const char *name) {
  const cJSON *r;
  cJSON_ArrayForEach(r, k->required) {
    if (cJSON_IsString(r) && strcmp(r->valuestring, name) == 0) {
      return true;
    }
  }
  return false;
}

static int check_object(const schema_kw *k, const cJSON *o,
                        const arg_path *path, int depth, char **why) {
  const cJSON *props = k->properties;
  const cJSON *r;
  cJSON_ArrayForEach(r, k->required) {
    if (cJSON_IsString(r) &&
        !cJSON_GetObjectItemCaseSensitive(o, r->valuestring)) {
      strbuf b;
      sb_init(&b);
      path_write(&b, &(arg_path){.up = path, .key = r->valuestring});
      *why = xasprintf("missing required parameter \"%s\"", sb_str(&b));
      sb_free(&b);
      return -1;
    }
  }
  const cJSON *extra = k->additional;
  /* Listed properties close the object unless it says otherwise: a
   * misspelt key is the likelier mistake than a parameter the schema
   * forgot (JSON Schema's own default is open). */
  bool closed =
      cJSON_IsObject(props) && !cJSON_IsTrue(extra) && !cJSON_IsObject(extra);
  const cJSON *m;
  cJSON_ArrayForEach(m, o) {
    const cJSON *ps = member(props, m->string);
    arg_path here = {.up = path, .key = m->string};
    int rc = 0;
    if (!ps && closed) {
      size_t n = (size_t)cJSON_GetArraySize(props), i = 0;
      const char **names = xcalloc(n ? n : 1, sizeof *names);
      const cJSON *p;
      cJSON_ArrayForEach(p, props) {
        names[i++] = p->string;
      }
      strbuf where, b;
      sb_init(&where);
      path_write(&where, &here);
      sb_init(&b);
      sb_printf(&b, "unknown parameter \"%s\"", sb_str(&where));
      sb_free(&where);
      mcp_suggest(&b, m->string, names, i);
      free(names);
      *why = sb_take(&b);
      rc = -1;
    } else if (ps && cJSON_IsNull(m) && !is_required(k, m->string)) {
      /* null for a parameter that may be left out is sent: it says "not
       * given" (SEP-2243 omits the header for it); the server decides. */
    } else if (ps) {
      rc = check_value(ps, m, &here, depth + 1, why);
    } else if (cJSON_IsObject(extra)) {
      rc = check_value(extra, m, &here, depth + 1, why);
    }
    if (rc != 0) {
      return rc;
    }
  }
  return 0;
}

/* Whether `v` fits `schema` (nothing said); the first fit of anyOf. */
static bool fits(const cJSON *schema, const cJSON *v, int depth) {
  char *why = NULL;
  int rc = check_value(schema, v, NULL, depth, &why);
  free(why);
  return rc == 0;
}

static int wrong_type(const cJSON *schema, const cJSON *v, const arg_path *path,
                      char **why) {
  char *type = mcp_schema_type(schema);
  char *got = json_print(v);
  strbuf b;
  sb_init(&b);
  path_write(&b, path);
  *why = xasprintf("parameter \"%s\" takes %s, not %s", sb_str(&b), type,
                   got ? got : "?");
  sb_free(&b);
  free(got);
  free(type);
  return -1;
}

static int check_value(const cJSON *schema, const cJSON *v,
                       const arg_path *path, int depth, char **why) {
  if (!cJSON_IsObject(schema) || depth > MAX_DEPTH) {
    return 0;
  }
  schema_kw k;
  kw_gather(schema, &k);
  if (cJSON_IsNull(v) && cJSON_IsTrue(k.nullable)) {
    return 0;
  }
  const cJSON *alts = k.any_of ? k.any_of : k.one_of;
  if (cJSON_IsArray(alts) && cJSON_GetArraySize(alts) > 0) {
    const cJSON *alt;
    cJSON_ArrayForEach(alt, alts) {
      if (fits(alt, v, depth + 1)) {
        return 0;
      }
    }
    return wrong_type(schema, v, path, why);
  }
  const cJSON *type = k.type;
  if (cJSON_IsString(type) && !type_is(type->valuestring, v)) {
    return wrong_type(schema, v, path, why);
  }
  if (cJSON_IsArray(type)) {
    bool any = false;
    const cJSON *t;
    cJSON_ArrayForEach(t, type) {
      any = any || (cJSON_IsString(t) && type_is(t->valuestring, v));
    }
    if (!any) {
      return wrong_type(schema, v, path, why);
    }
  }
  const cJSON *en = k.en;
  if (cJSON_IsArray(en)) {
    bool in = false;
    const cJSON *e;
    cJSON_ArrayForEach(e, en) {
      in = in || cJSON_Compare(e, v, 1);
    }
    if (!in) {
      return wrong_type(schema, v, path, why);
    }
  }
  if (cJSON_IsObject(v) && (k.properties || k.required)) {
    return check_object(&k, v, path, depth, why);
  }
  const cJSON *items = k.items;
  if (cJSON_IsArray(v) && cJSON_IsObject(items)) {
    int i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, v) {
      int rc = check_value(items, it, &(arg_path){.up = path, .index = i++},
                           depth + 1, why);
      if (rc != 0) {
        return rc;
      }
    }
  }
  return 0;
}

int mcp_args_check(const cJSON *schema, const cJSON *args, char **why) {
  if (!cJSON_IsObject(schema)) {
    return 0;
  }
  schema_kw k;
  kw_gather(schema, &k);
  return check_object(&k, args, NULL, 0, why);
}
