/* requestedSchema parsed into fields; see schema.h. A schema that does not
 * follow the spec's restricted subset is refused with a sentence that
 * names the property and what is wrong, so that the server's author can
 * fix it: the plugin never guesses at a form it cannot show. */
#include "schema.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elicit.h"

static int fail(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return -1;
}

static const cJSON *get(const cJSON *o, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static char *opt_string(const cJSON *o, const char *key) {
  const cJSON *v = get(o, key);
  return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

/* A non-negative integer limit such as minLength; -1 when absent. */
static int limit(const cJSON *prop, const char *key, const char *name,
                 long *out, char *why, size_t n) {
  const cJSON *v = get(prop, key);
  *out = -1;
  if (!v)
    return 0;
  if (!cJSON_IsNumber(v) || v->valuedouble < 0 ||
      v->valuedouble != floor(v->valuedouble) || v->valuedouble > 1e9)
    return fail(why, n, "property \"%s\": %s must be a non-negative integer",
                name, key);
  *out = (long)v->valuedouble;
  return 0;
}

static int bound(const cJSON *prop, const char *key, const char *name,
                 bool *has, double *out, char *why, size_t n) {
  const cJSON *v = get(prop, key);
  *has = false;
  if (!v)
    return 0;
  if (!cJSON_IsNumber(v))
    return fail(why, n, "property \"%s\": %s must be a number", name, key);
  *has = true;
  *out = v->valuedouble;
  return 0;
}

/* Choices from an array of strings, or of {const, title} objects. */
static int parse_choices(field *f, const cJSON *arr, bool titled,
                         const char *what, char *why, size_t n) {
  if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
    return fail(why, n, "property \"%s\": %s must be a non-empty array",
                f->name, what);
  size_t count = (size_t)cJSON_GetArraySize(arr);
  if (count > SCHEMA_MAX_CHOICES)
    return fail(why, n, "property \"%s\": %s has %zu choices (at most %d)",
                f->name, what, count, SCHEMA_MAX_CHOICES);
  f->choices = xcalloc(count, sizeof *f->choices);
  const cJSON *it;
  cJSON_ArrayForEach(it, arr) {
    const char *value = NULL, *title = NULL;
    if (titled) {
      value = cJSON_GetStringValue(get(it, "const"));
      title = cJSON_GetStringValue(get(it, "title"));
    } else {
      value = cJSON_GetStringValue(it);
    }
    if (!value)
      return fail(why, n,
                  titled ? "property \"%s\": every entry of %s needs a "
                           "string \"const\""
                         : "property \"%s\": %s must hold strings only",
                  f->name, what);
    for (size_t i = 0; i < f->nchoices; i++)
      if (strcmp(f->choices[i].value, value) == 0)
        return fail(why, n, "property \"%s\": %s lists \"%s\" twice", f->name,
                    what, value);
    choice *c = &f->choices[f->nchoices++];
    c->value = xstrdup(value);
    c->title = title ? xstrdup(title) : NULL;
  }
  return 0;
}

static int parse_string(field *f, const cJSON *prop, char *why, size_t n) {
  const cJSON *one_of = get(prop, "oneOf");
  const cJSON *en = get(prop, "enum");
  if (one_of || en) {
    f->kind = FIELD_ENUM;
    if (one_of)
      return parse_choices(f, one_of, true, "oneOf", why, n);
    if (parse_choices(f, en, false, "enum", why, n) != 0)
      return -1;
    const cJSON *names = get(prop, "enumNames"); /* legacy titles */
    if (!names)
      return 0;
    if (!cJSON_IsArray(names) ||
        (size_t)cJSON_GetArraySize(names) != f->nchoices)
      return fail(why, n,
                  "property \"%s\": enumNames must be an array as long as "
                  "enum",
                  f->name);
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, names) {
      if (i == f->nchoices)
        break;
      if (!cJSON_IsString(it))
        return fail(why, n, "property \"%s\": enumNames must hold strings",
                    f->name);
      f->choices[i++].title = xstrdup(it->valuestring);
    }
    return 0;
  }
  f->kind = FIELD_STRING;
  if (limit(prop, "minLength", f->name, &f->min_len, why, n) != 0 ||
      limit(prop, "maxLength", f->name, &f->max_len, why, n) != 0)
    return -1;
  if (f->max_len >= 0 && f->min_len > f->max_len)
    return fail(why, n, "property \"%s\": minLength %ld exceeds maxLength %ld",
                f->name, f->min_len, f->max_len);
  const cJSON *fmt = get(prop, "format");
  if (!fmt)
    return 0;
  if (!cJSON_IsString(fmt))
    return fail(why, n, "property \"%s\": format must be a string", f->name);
  /* Other formats are left unchecked rather than refused: a later spec
   * revision may add some, and a plain string is still answerable. */
  static const struct {
    const char *name;
    field_format format;
  } formats[] = {{"email", FORMAT_EMAIL},
                 {"uri", FORMAT_URI},
                 {"date", FORMAT_DATE},
                 {"date-time", FORMAT_DATE_TIME}};
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
    if (strcmp(fmt->valuestring, formats[i].name) == 0)
      f->format = formats[i].format;
  return 0;
}

static int parse_multi(field *f, const cJSON *prop, char *why, size_t n) {
  f->kind = FIELD_MULTI;
  const cJSON *items = get(prop, "items");
  if (!cJSON_IsObject(items))
    return fail(why, n,
                "property \"%s\": an array needs \"items\" with \"enum\" or "
                "\"anyOf\" (only multi-select enums are allowed)",
                f->name);
  const cJSON *any_of = get(items, "anyOf");
  const cJSON *en = get(items, "enum");
  if (!any_of && !en)
    return fail(why, n,
                "property \"%s\": items need \"enum\" or \"anyOf\" (only "
                "multi-select enums are allowed)",
                f->name);
  const cJSON *type = get(items, "type");
  if (type &&
      !(cJSON_IsString(type) && strcmp(type->valuestring, "string") == 0))
    return fail(why, n, "property \"%s\": items must be of type \"string\"",
                f->name);
  if (any_of ? parse_choices(f, any_of, true, "items.anyOf", why, n)
             : parse_choices(f, en, false, "items.enum", why, n))
    return -1;
  if (limit(prop, "minItems", f->name, &f->min_items, why, n) != 0 ||
      limit(prop, "maxItems", f->name, &f->max_items, why, n) != 0)
    return -1;
  if (f->max_items >= 0 && f->min_items > f->max_items)
    return fail(why, n, "property \"%s\": minItems %ld exceeds maxItems %ld",
                f->name, f->min_items, f->max_items);
  if (f->min_items > (long)f->nchoices)
    return fail(why, n,
                "property \"%s\": minItems %ld is more than the %zu choices",
                f->name, f->min_items, f->nchoices);
  return 0;
}

static int parse_field(field *f, const cJSON *prop, char *why, size_t n) {
  f->min_len = f->max_len = f->min_items = f->max_items = -1;
  if (!cJSON_IsObject(prop))
    return fail(why, n, "property \"%s\" must be an object", f->name);
  const cJSON *type = get(prop, "type");
  if (!cJSON_IsString(type))
    return fail(why, n, "property \"%s\" needs a \"type\" string", f->name);
  f->title = opt_string(prop, "title");
  f->description = opt_string(prop, "description");
  const char *t = type->valuestring;
  int rc;
  if (strcmp(t, "string") == 0) {
    rc = parse_string(f, prop, why, n);
  } else if (strcmp(t, "number") == 0 || strcmp(t, "integer") == 0) {
    f->kind = t[0] == 'n' ? FIELD_NUMBER : FIELD_INTEGER;
    rc = bound(prop, "minimum", f->name, &f->has_min, &f->min, why, n);
    if (rc == 0)
      rc = bound(prop, "maximum", f->name, &f->has_max, &f->max, why, n);
    if (rc == 0 && f->has_min && f->has_max && f->min > f->max)
      rc = fail(why, n, "property \"%s\": minimum %g exceeds maximum %g",
                f->name, f->min, f->max);
  } else if (strcmp(t, "boolean") == 0) {
    f->kind = FIELD_BOOLEAN;
    rc = 0;
  } else if (strcmp(t, "array") == 0) {
    rc = parse_multi(f, prop, why, n);
  } else if (strcmp(t, "object") == 0) {
    rc = fail(why, n,
              "property \"%s\" is an object: nested objects are not allowed "
              "(the schema must be flat)",
              f->name);
  } else {
    rc = fail(why, n,
              "property \"%s\" has unknown type \"%s\" (string, number, "
              "integer, boolean or array)",
              f->name, t);
  }
  if (rc != 0)
    return rc;
  const cJSON *def = get(prop, "default");
  if (def) {
    char reason[256];
    if (!value_check(f, def, reason, sizeof reason))
      return fail(why, n, "property \"%s\": its default is invalid: %s",
                  f->name, reason);
    f->def = cJSON_Duplicate(def, true);
    if (!f->def)
      abort();
  }
  return 0;
}

int schema_parse(const cJSON *schema, form *out, char *why, size_t n) {
  memset(out, 0, sizeof *out);
  if (!cJSON_IsObject(schema))
    return fail(why, n, "requestedSchema must be a JSON object");
  const cJSON *type = get(schema, "type");
  if (type &&
      !(cJSON_IsString(type) && strcmp(type->valuestring, "object") == 0))
    return fail(why, n, "requestedSchema must have \"type\": \"object\"");
  const cJSON *props = get(schema, "properties");
  if (props && !cJSON_IsObject(props))
    return fail(why, n, "requestedSchema.properties must be an object");
  size_t count = props ? (size_t)cJSON_GetArraySize(props) : 0;
  if (count > SCHEMA_MAX_FIELDS)
    return fail(why, n, "requestedSchema has %zu properties (at most %d)",
                count, SCHEMA_MAX_FIELDS);
  out->fields = xcalloc(count ? count : 1, sizeof *out->fields);
  const cJSON *prop;
  cJSON_ArrayForEach(prop, props) {
    if (out->nfields == count || !prop->string)
      break;
    for (size_t i = 0; i < out->nfields; i++)
      if (out->fields[i].name &&
          strcmp(out->fields[i].name, prop->string) == 0) {
        fail(why, n, "property \"%s\" appears twice", prop->string);
        goto bad;
      }
    field *f = &out->fields[out->nfields];
    f->name = xstrdup(prop->string);
    out->nfields++;
    if (parse_field(f, prop, why, n) != 0)
      goto bad;
  }
  const cJSON *required = get(schema, "required");
  if (required && !cJSON_IsArray(required)) {
    fail(why, n, "requestedSchema.required must be an array of names");
    goto bad;
  }
  const cJSON *r;
  cJSON_ArrayForEach(r, required) {
    field *f = NULL;
    for (size_t i = 0; cJSON_IsString(r) && i < out->nfields && !f; i++)
      if (out->fields[i].name &&
          strcmp(out->fields[i].name, r->valuestring) == 0)
        f = &out->fields[i];
    if (!cJSON_IsString(r)) {
      fail(why, n, "requestedSchema.required must hold strings only");
      goto bad;
    }
    if (!f) {
      fail(why, n, "required names \"%s\", which is not a property",
           r->valuestring);
      goto bad;
    }
    f->required = true;
  }
  return 0;
bad:
  schema_free(out);
  return -1;
}

void schema_free(form *f) {
  for (size_t i = 0; i < f->nfields; i++) {
    field *x = &f->fields[i];
    free(x->name);
    free(x->title);
    free(x->description);
    for (size_t j = 0; j < x->nchoices; j++) {
      free(x->choices[j].value);
      free(x->choices[j].title);
    }
    free(x->choices);
    cJSON_Delete(x->def);
  }
  free(f->fields);
  memset(f, 0, sizeof *f);
}

cJSON *schema_defaults(const form *f, char *why, size_t n) {
  char missing[400] = "";
  size_t nmissing = 0;
  for (size_t i = 0; i < f->nfields; i++) {
    if (f->fields[i].required && !f->fields[i].def) {
      size_t len = strlen(missing);
      snprintf(missing + len, sizeof missing - len, "%s\"%s\"",
               nmissing ? ", " : "", f->fields[i].name);
      nmissing++;
    }
  }
  if (nmissing) {
    snprintf(why, n, "required field%s %s %s no default",
             nmissing > 1 ? "s" : "", missing, nmissing > 1 ? "have" : "has");
    return NULL;
  }
  cJSON *content = cJSON_CreateObject();
  if (!content)
    abort();
  for (size_t i = 0; i < f->nfields; i++) {
    if (f->fields[i].def) {
      cJSON *v = cJSON_Duplicate(f->fields[i].def, true);
      if (!v)
        abort();
      cJSON_AddItemToObject(content, f->fields[i].name, v);
    }
  }
  return content;
}
