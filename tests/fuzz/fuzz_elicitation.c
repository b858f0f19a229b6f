/* Fuzz target: a server's elicitation/create in form mode, the rules of
 * plugins/elicitation (schema.c, value.c) that flow.c and the terminal
 * apply to it. The input is a JSON object {"requestedSchema": S,
 * "answer": A, "typed": T} (or the schema alone).
 *  - A schema is accepted only when it is an object of type "object"
 *    whose properties, at most SCHEMA_MAX_FIELDS of distinct names, each
 *    have one of the allowed primitive types (string, number, integer,
 *    boolean; an array only as a multi-select enum of strings), in the
 *    very order given, with the required ones marked and every default
 *    valid. A refusal names the property at fault when one is.
 *  - The defaults (accept-defaults): every required field has one, else
 *    the refusal names each that has none; the content built is valid.
 *  - A hook's answer A, once checked, has an action of the three, content
 *    only with "accept", only fields of the schema, every required one,
 *    each value valid; checked again it is the same.
 *  - What a person typed, T, turned into a value for each field, is
 *    valid for that field.
 * "Valid" is judged here from the schema's JSON, apart from value.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_json.h"
#include "fuzz_utf8.h"
#include "schema.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static const cJSON *get(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

static bool is_type(const cJSON *prop, const char *type) {
  const char *t = cJSON_GetStringValue(get(prop, "type"));
  return t && strcmp(t, type) == 0;
}

/* `s` is one of the choices of an enum or oneOf/anyOf list. */
static bool among(const cJSON *list, bool titled, const char *s) {
  const cJSON *it;
  cJSON_ArrayForEach(it, list) {
    const char *v = cJSON_GetStringValue(titled ? get(it, "const") : it);
    if (v && strcmp(v, s) == 0) {
      return true;
    }
  }
  return false;
}

/* A limit such as minLength, or -1 when absent. */
static double lim(const cJSON *prop, const char *k) {
  const cJSON *v = get(prop, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static size_t code_points(const char *s) {
  size_t i = 0, n = strlen(s), count = 0;
  uint32_t cp;
  while (i < n && fuzz_utf8_next((const unsigned char *)s, n, &i, &cp)) {
    count++;
  }
  return count;
}

/* `v` is a value the property `prop` of the schema allows. */
static bool valid(const cJSON *prop, const cJSON *v) {
  if (is_type(prop, "boolean")) {
    return cJSON_IsBool(v);
  }
  if (is_type(prop, "number") || is_type(prop, "integer")) {
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
      return false;
    }
    double d = v->valuedouble;
    const cJSON *lo = get(prop, "minimum"), *hi = get(prop, "maximum");
    if (is_type(prop, "integer") &&
        (d != floor(d) || fabs(d) > 9007199254740991.0)) {
      return false;
    }
    return (!lo || d >= lo->valuedouble) && (!hi || d <= hi->valuedouble);
  }
  if (is_type(prop, "array")) {
    const cJSON *items = get(prop, "items"), *any = get(items, "anyOf");
    if (!cJSON_IsArray(v)) {
      return false;
    }
    double count = 0;
    for (const cJSON *a = v->child; a; a = a->next, count++) {
      if (!cJSON_IsString(a) ||
          !among(any ? any : get(items, "enum"), any != NULL, a->valuestring)) {
        return false;
      }
      for (const cJSON *b = v->child; b != a; b = b->next) {
        if (strcmp(a->valuestring, b->valuestring) == 0) {
          return false;
        }
      }
    }
    double lo = lim(prop, "minItems"), hi = lim(prop, "maxItems");
    return (lo < 0 || count >= lo) && (hi < 0 || count <= hi);
  }
  if (!is_type(prop, "string") || !cJSON_IsString(v)) {
    return false;
  }
  const cJSON *one_of = get(prop, "oneOf"), *en = get(prop, "enum");
  if (one_of || en) {
    return among(one_of ? one_of : en, one_of != NULL, v->valuestring);
  }
  const char *s = v->valuestring;
  if (!fuzz_utf8_valid(s, strlen(s))) {
    return false;
  }
  double n = (double)code_points(s);
  double lo = lim(prop, "minLength"), hi = lim(prop, "maxLength");
  return (lo < 0 || n >= lo) && (hi < 0 || n <= hi);
}

/* The schema's property of that name. */
static const cJSON *prop_of(const cJSON *schema, const char *name) {
  return get(get(schema, "properties"), name);
}

static bool required(const cJSON *schema, const char *name) {
  const cJSON *r;
  cJSON_ArrayForEach(r, get(schema, "required")) {
    if (cJSON_IsString(r) && strcmp(r->valuestring, name) == 0) {
      return true;
    }
  }
  return false;
}

static void check_form(const cJSON *schema, const form *f) {
  const cJSON *props = get(schema, "properties");
  fuzz_must(cJSON_IsObject(schema) &&
            (!get(schema, "type") || is_type(schema, "object")));
  fuzz_must(f->nfields <= SCHEMA_MAX_FIELDS &&
            f->nfields == (size_t)cJSON_GetArraySize(props));
  const cJSON *p = props ? props->child : NULL;
  for (size_t i = 0; i < f->nfields; i++, p = p->next) {
    const field *fd = &f->fields[i];
    fuzz_must(p && strcmp(p->string, fd->name) == 0);
    for (size_t j = 0; j < i; j++) {
      fuzz_must(strcmp(f->fields[j].name, fd->name) != 0);
    }
    static const char *const kinds[] = {"string",  "number", "integer",
                                        "boolean", "string", "array"};
    fuzz_must(fd->kind <= FIELD_MULTI && is_type(p, kinds[fd->kind]));
    fuzz_must((fd->kind == FIELD_ENUM) ==
              (is_type(p, "string") && (get(p, "enum") || get(p, "oneOf"))));
    if (fd->kind == FIELD_MULTI) {
      const cJSON *items = get(p, "items");
      fuzz_must(cJSON_IsArray(get(items, "anyOf")) ||
                cJSON_IsArray(get(items, "enum")));
      fuzz_must(!get(items, "type") || is_type(items, "string"));
    }
    fuzz_must(fd->required == required(schema, fd->name));
    const cJSON *def = get(p, "default");
    fuzz_must((fd->def != NULL) == (def != NULL));
    fuzz_must(!def || valid(p, def));
  }
}

/* A refused schema: the reason names the property at fault, if any
 * property is one the rules refuse alone. */
static void check_refusal(const cJSON *schema, const char *why) {
  fuzz_must(why[0] != '\0');
  const cJSON *props = get(schema, "properties"), *p;
  if (!cJSON_IsObject(schema) || !cJSON_IsObject(props) ||
      cJSON_GetArraySize(props) > SCHEMA_MAX_FIELDS) {
    return;
  }
  cJSON_ArrayForEach(p, props) {
    if (!cJSON_IsObject(p) || !cJSON_IsString(get(p, "type")) ||
        is_type(p, "object")) {
      char *quoted = malloc(strlen(p->string) + 3);
      strcat(strcat(strcpy(quoted, "\""), p->string), "\"");
      /* The first such property is named unless an earlier one, or the
       * schema's own keys, failed first: some property is named. */
      fuzz_must(strstr(why, "property \"") || strstr(why, "requestedSchema") ||
                strstr(why, quoted));
      free(quoted);
      return;
    }
  }
}

static void check_content(const cJSON *schema, const form *f,
                          const cJSON *content) {
  fuzz_must(cJSON_IsObject(content));
  const cJSON *v;
  cJSON_ArrayForEach(v, content) {
    const cJSON *p = prop_of(schema, v->string);
    fuzz_must(p && valid(p, v));
    for (const cJSON *w = content->child; w != v; w = w->next) {
      fuzz_must(strcmp(w->string, v->string) != 0);
    }
  }
  for (size_t i = 0; i < f->nfields; i++) {
    fuzz_must(!f->fields[i].required || get(content, f->fields[i].name));
  }
}

static void check_answer(const cJSON *schema, const form *f,
                         const cJSON *answer) {
  char why[500] = "";
  cJSON *out = value_check_answer(f, answer, why, sizeof why);
  if (!out) {
    fuzz_must(why[0] != '\0');
    return;
  }
  const char *action = cJSON_GetStringValue(get(out, "action"));
  fuzz_must(action &&
            (strcmp(action, "accept") == 0 || strcmp(action, "decline") == 0 ||
             strcmp(action, "cancel") == 0));
  fuzz_must(strcmp(action, cJSON_GetStringValue(get(answer, "action"))) == 0);
  const cJSON *content = get(out, "content");
  fuzz_must((content != NULL) == (strcmp(action, "accept") == 0));
  fuzz_must(cJSON_GetArraySize(out) == (content ? 2 : 1));
  if (content) {
    check_content(schema, f, content);
  }
  cJSON *again = value_check_answer(f, out, why, sizeof why);
  fuzz_must(again && cJSON_Compare(again, out, true));
  cJSON_Delete(again);
  cJSON_Delete(out);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  cJSON *doc = cJSON_ParseWithLength((const char *)data, len);
  const cJSON *schema = get(doc, "requestedSchema");
  if (!schema) {
    schema = doc;
  }
  form f;
  char why[500] = "";
  if (schema_parse(schema, &f, why, sizeof why) != 0) {
    check_refusal(schema, why);
    cJSON_Delete(doc);
    return 0;
  }
  check_form(schema, &f);
  cJSON *content = schema_defaults(&f, why, sizeof why);
  if (content) {
    check_content(schema, &f, content);
    cJSON_Delete(content);
  } else {
    /* The first field without one is named (the list is cut at 400
     * bytes). */
    size_t i = 0;
    while (i < f.nfields && !(f.fields[i].required && !f.fields[i].def)) {
      i++;
    }
    fuzz_must(i < f.nfields && (strlen(f.fields[i].name) > 300 ||
                                strstr(why, f.fields[i].name) != NULL));
  }
  const cJSON *answer = get(doc, "answer");
  if (answer) {
    check_answer(schema, &f, answer);
  }
  const char *typed = cJSON_GetStringValue(get(doc, "typed"));
  for (size_t i = 0; typed && i < f.nfields; i++) {
    cJSON *v = value_from_input(&f.fields[i], typed, why, sizeof why);
    fuzz_must(v ? valid(prop_of(schema, f.fields[i].name), v) : why[0] != '\0');
    cJSON_Delete(v);
  }
  schema_free(&f);
  cJSON_Delete(doc);
  return 0;
}
