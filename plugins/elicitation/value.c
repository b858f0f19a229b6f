/* Values against fields: checking, reading what a person typed, checking
 * a hook's answer, showing a value. See schema.h. One set of rules serves
 * the terminal, the hooks and the schema's own defaults, so that they can
 * never disagree about what is valid. */
#include "schema.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "elicit.h"

/* Integers beyond this lose precision as JSON numbers (doubles). */
#define MAX_SAFE_INTEGER 9007199254740991.0

static bool nope(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool nope(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return false;
}

long value_utf8_len(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  long count = 0;
  while (*p) {
    unsigned c = *p;
    int extra = c < 0x80             ? 0
                : (c & 0xE0) == 0xC0 ? 1
                : (c & 0xF0) == 0xE0 ? 2
                : (c & 0xF8) == 0xF0 ? 3
                                     : -1;
    if (extra < 0 || (extra == 1 && c < 0xC2) || (c == 0xF4 && p[1] > 0x8F) ||
        c > 0xF4 || (c == 0xE0 && p[1] < 0xA0) || (c == 0xF0 && p[1] < 0x90) ||
        (c == 0xED && p[1] > 0x9F))
      return -1;
    for (int i = 1; i <= extra; i++)
      if ((p[i] & 0xC0) != 0x80)
        return -1;
    p += extra + 1;
    count++;
  }
  return count;
}

/* ---- formats ---- */

static bool has_space_or_control(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p <= 0x20 || *p == 0x7F)
      return true;
  return false;
}

/* name@domain.tld: the shape, not deliverability. */
static bool is_email(const char *s) {
  const char *at = strchr(s, '@');
  if (!at || at == s || strchr(at + 1, '@') || has_space_or_control(s))
    return false;
  const char *domain = at + 1;
  const char *dot = strrchr(domain, '.');
  return dot && dot != domain && dot[1] != '\0' &&
         strstr(domain, "..") == NULL && domain[0] != '.';
}

/* RFC 3986: scheme ":" and something after it. */
static bool is_uri(const char *s) {
  if (!isalpha((unsigned char)s[0]) || has_space_or_control(s))
    return false;
  const char *p = s + 1;
  while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
    p++;
  return *p == ':' && p[1] != '\0';
}

static bool digits(const char *s, int count) {
  for (int i = 0; i < count; i++)
    if (!isdigit((unsigned char)s[i]))
      return false;
  return true;
}

static int num(const char *s, int count) {
  int v = 0;
  for (int i = 0; i < count; i++)
    v = v * 10 + (s[i] - '0');
  return v;
}

/* YYYY-MM-DD, a real calendar day. Returns the length read, or 0. */
static size_t read_date(const char *s) {
  if (!digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' ||
      !digits(s + 8, 2))
    return 0;
  int y = num(s, 4), m = num(s + 5, 2), d = num(s + 8, 2);
  static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1 || d > days[m - 1])
    return 0;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (m == 2 && d == 29 && !leap)
    return 0;
  return 10;
}

static bool is_date(const char *s) {
  return read_date(s) == 10 && !s[10];
}

/* RFC 3339: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM). */
static bool is_date_time(const char *s) {
  if (read_date(s) != 10)
    return false;
  s += 10;
  if (*s != 'T' && *s != 't')
    return false;
  s++;
  if (!digits(s, 2) || s[2] != ':' || !digits(s + 3, 2) || s[5] != ':' ||
      !digits(s + 6, 2) || num(s, 2) > 23 || num(s + 3, 2) > 59 ||
      num(s + 6, 2) > 60)
    return false;
  s += 8;
  if (*s == '.') {
    s++;
    if (!isdigit((unsigned char)*s))
      return false;
    while (isdigit((unsigned char)*s))
      s++;
  }
  if ((*s == 'Z' || *s == 'z') && !s[1])
    return true;
  return (*s == '+' || *s == '-') && digits(s + 1, 2) && s[3] == ':' &&
         digits(s + 4, 2) && num(s + 1, 2) <= 23 && num(s + 4, 2) <= 59 &&
         !s[6];
}

/* ---- checking ---- */

static const choice *find_choice(const field *f, const char *value) {
  for (size_t i = 0; i < f->nchoices; i++)
    if (strcmp(f->choices[i].value, value) == 0)
      return &f->choices[i];
  return NULL;
}

static bool check_string(const field *f, const char *s, char *why, size_t n) {
  long len = value_utf8_len(s);
  if (len < 0)
    return nope(why, n, "not valid UTF-8 text");
  if (f->min_len >= 0 && len < f->min_len)
    return nope(why, n, "too short: %ld characters, at least %ld", len,
                f->min_len);
  if (f->max_len >= 0 && len > f->max_len)
    return nope(why, n, "too long: %ld characters, at most %ld", len,
                f->max_len);
  switch (f->format) {
  case FORMAT_EMAIL:
    return is_email(s) ||
           nope(why, n, "not an email address (name@example.com)");
  case FORMAT_URI:
    return is_uri(s) ||
           nope(why, n, "not a URI (scheme:..., e.g. https://example.com)");
  case FORMAT_DATE:
    return is_date(s) || nope(why, n, "not a date (YYYY-MM-DD)");
  case FORMAT_DATE_TIME:
    return is_date_time(s) ||
           nope(why, n, "not a date-time (YYYY-MM-DDTHH:MM:SSZ or +HH:MM)");
  case FORMAT_NONE: break;
  }
  return true;
}

static bool check_number(const field *f, double v, char *why, size_t n) {
  if (!isfinite(v))
    return nope(why, n, "not a finite number");
  if (f->kind == FIELD_INTEGER && (v != floor(v) || fabs(v) > MAX_SAFE_INTEGER))
    return nope(why, n, "not a whole number");
  if (f->has_min && v < f->min)
    return nope(why, n, "%g is below the minimum %g", v, f->min);
  if (f->has_max && v > f->max)
    return nope(why, n, "%g is above the maximum %g", v, f->max);
  return true;
}

bool value_check(const field *f, const cJSON *v, char *why, size_t n) {
  switch (f->kind) {
  case FIELD_STRING:
    return cJSON_IsString(v) ? check_string(f, v->valuestring, why, n)
                             : nope(why, n, "not a string");
  case FIELD_NUMBER:
  case FIELD_INTEGER:
    return cJSON_IsNumber(v) ? check_number(f, v->valuedouble, why, n)
                             : nope(why, n, "not a number");
  case FIELD_BOOLEAN:
    return cJSON_IsBool(v) || nope(why, n, "not true or false");
  case FIELD_ENUM:
    if (!cJSON_IsString(v))
      return nope(why, n, "not a string");
    return find_choice(f, v->valuestring) ||
           nope(why, n, "\"%.100s\" is not one of the choices", v->valuestring);
  case FIELD_MULTI: {
    if (!cJSON_IsArray(v))
      return nope(why, n, "not a list of choices");
    long count = 0;
    for (const cJSON *a = v->child; a; a = a->next, count++) {
      if (!cJSON_IsString(a) || !find_choice(f, a->valuestring))
        return nope(why, n, "%s%.100s%s is not one of the choices",
                    cJSON_IsString(a) ? "\"" : "",
                    cJSON_IsString(a) ? a->valuestring : "an item",
                    cJSON_IsString(a) ? "\"" : "");
      for (const cJSON *b = v->child; b != a; b = b->next)
        if (strcmp(b->valuestring, a->valuestring) == 0)
          return nope(why, n, "\"%.100s\" is chosen twice", a->valuestring);
    }
    if (f->min_items >= 0 && count < f->min_items)
      return nope(why, n, "choose at least %ld", f->min_items);
    if (f->max_items >= 0 && count > f->max_items)
      return nope(why, n, "choose at most %ld", f->max_items);
    return true;
  }
  }
  return nope(why, n, "unknown field kind");
}

/* ---- what a person typed ---- */

static char *trimmed(const char *s, size_t len) {
  while (len && isspace((unsigned char)*s)) {
    s++;
    len--;
  }
  while (len && isspace((unsigned char)s[len - 1]))
    len--;
  char *t = xmalloc(len + 1);
  memcpy(t, s, len);
  t[len] = '\0';
  return t;
}

/* A number as people write it: optional sign, digits, optional fraction
 * and exponent. Not "inf", "nan" or hex, which strtod() would take. */
static bool number_syntax(const char *s, bool integer) {
  if (*s == '+' || *s == '-')
    s++;
  if (!isdigit((unsigned char)*s))
    return false;
  while (isdigit((unsigned char)*s))
    s++;
  if (integer)
    return !*s;
  if (*s == '.') {
    s++;
    if (!isdigit((unsigned char)*s))
      return false;
    while (isdigit((unsigned char)*s))
      s++;
  }
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-')
      s++;
    if (!isdigit((unsigned char)*s))
      return false;
    while (isdigit((unsigned char)*s))
      s++;
  }
  return !*s;
}

/* A choice by its number (1-based), value, or title (any case). */
static const choice *pick(const field *f, const char *s) {
  if (*s && strspn(s, "0123456789") == strlen(s) && strlen(s) < 6) {
    long i = strtol(s, NULL, 10);
    return i >= 1 && (size_t)i <= f->nchoices ? &f->choices[i - 1] : NULL;
  }
  const choice *c = find_choice(f, s);
  for (size_t i = 0; !c && i < f->nchoices; i++)
    if (f->choices[i].title && strcasecmp(f->choices[i].title, s) == 0)
      c = &f->choices[i];
  for (size_t i = 0; !c && i < f->nchoices; i++)
    if (strcasecmp(f->choices[i].value, s) == 0)
      c = &f->choices[i];
  return c;
}

static cJSON *parse_input(const field *f, const char *s, char *why, size_t n) {
  switch (f->kind) {
  case FIELD_STRING: return cJSON_CreateString(s);
  case FIELD_NUMBER:
  case FIELD_INTEGER:
    if (!number_syntax(s, f->kind == FIELD_INTEGER)) {
      nope(why, n,
           f->kind == FIELD_INTEGER ? "not a whole number" : "not a number");
      return NULL;
    }
    return cJSON_CreateNumber(strtod(s, NULL));
  case FIELD_BOOLEAN: {
    static const char *const yes[] = {"y", "yes", "true", "t", "1", "on"};
    static const char *const no[] = {"n", "no", "false", "f", "0", "off"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
      if (strcasecmp(s, yes[i]) == 0)
        return cJSON_CreateTrue();
      if (strcasecmp(s, no[i]) == 0)
        return cJSON_CreateFalse();
    }
    nope(why, n, "answer y or n");
    return NULL;
  }
  case FIELD_ENUM: {
    const choice *c = pick(f, s);
    if (!c) {
      nope(why, n, "not one of the choices: type its number (1-%zu) or value",
           f->nchoices);
      return NULL;
    }
    return cJSON_CreateString(c->value);
  }
  case FIELD_MULTI: {
    cJSON *arr = cJSON_CreateArray();
    const char *p = s;
    while (arr) {
      const char *comma = strchr(p, ',');
      size_t len = comma ? (size_t)(comma - p) : strlen(p);
      char *item = trimmed(p, len);
      const choice *c = *item ? pick(f, item) : NULL;
      if (*item && !c) {
        nope(why, n, "\"%.60s\" is not one of the choices (1-%zu or a value)",
             item, f->nchoices);
        free(item);
        cJSON_Delete(arr);
        return NULL;
      }
      free(item);
      bool dup = false;
      for (const cJSON *a = arr->child; c && a && !dup; a = a->next)
        dup = strcmp(a->valuestring, c->value) == 0;
      if (c && !dup)
        cJSON_AddItemToArray(arr, cJSON_CreateString(c->value));
      if (!comma)
        break;
      p = comma + 1;
    }
    return arr;
  }
  }
  return NULL;
}

cJSON *value_from_input(const field *f, const char *text, char *why, size_t n) {
  char *s = trimmed(text, strlen(text));
  if (value_utf8_len(s) < 0) {
    free(s);
    nope(why, n, "not valid UTF-8 text");
    return NULL;
  }
  cJSON *v = parse_input(f, s, why, n);
  free(s);
  if (v && !value_check(f, v, why, n)) {
    cJSON_Delete(v);
    return NULL;
  }
  return v;
}

/* ---- answers ---- */

cJSON *value_check_answer(const form *f, const cJSON *answer, char *why,
                          size_t n) {
  if (!cJSON_IsObject(answer)) {
    nope(why, n, "the answer is not a JSON object");
    return NULL;
  }
  const char *action =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "action"));
  if (!action ||
      (strcmp(action, "accept") != 0 && strcmp(action, "decline") != 0 &&
       strcmp(action, "cancel") != 0)) {
    nope(why, n, "\"action\" must be \"accept\", \"decline\" or \"cancel\"");
    return NULL;
  }
  cJSON *out = flow_action(action);
  if (strcmp(action, "accept") != 0 || !f)
    return out; /* content only travels with a form's accept */
  const cJSON *content = cJSON_GetObjectItemCaseSensitive(answer, "content");
  if (content && !cJSON_IsObject(content)) {
    nope(why, n, "\"content\" must be an object");
    goto bad;
  }
  for (const cJSON *v = content ? content->child : NULL; v; v = v->next) {
    const field *fd = NULL;
    for (size_t i = 0; i < f->nfields && !fd; i++)
      if (strcmp(f->fields[i].name, v->string) == 0)
        fd = &f->fields[i];
    if (!fd) {
      nope(why, n,
           "\"content\" has \"%.100s\", which the schema does not ask for",
           v->string);
      goto bad;
    }
    char reason[200];
    if (!value_check(fd, v, reason, sizeof reason)) {
      nope(why, n, "field \"%s\": %s", fd->name, reason);
      goto bad;
    }
    for (const cJSON *w = content->child; w != v; w = w->next)
      if (strcmp(w->string, v->string) == 0) {
        nope(why, n, "field \"%s\" appears twice", v->string);
        goto bad;
      }
  }
  for (size_t i = 0; i < f->nfields; i++)
    if (f->fields[i].required &&
        !cJSON_GetObjectItemCaseSensitive(content, f->fields[i].name)) {
      nope(why, n, "required field \"%s\" is missing", f->fields[i].name);
      goto bad;
    }
  cJSON *copy = content ? cJSON_Duplicate(content, true) : cJSON_CreateObject();
  if (!copy)
    abort();
  cJSON_AddItemToObject(out, "content", copy);
  return out;
bad:
  cJSON_Delete(out);
  return NULL;
}

/* ---- showing ---- */

char *value_show(const field *f, const cJSON *v) {
  if (!v)
    return xstrdup("(empty)");
  if (f->kind == FIELD_ENUM || f->kind == FIELD_MULTI) {
    size_t cap = 64, len = 0;
    char *s = xmalloc(cap);
    s[0] = '\0';
    const cJSON *item = f->kind == FIELD_ENUM ? v : v->child;
    for (; item; item = f->kind == FIELD_ENUM ? NULL : item->next) {
      const choice *c = find_choice(f, item->valuestring);
      const char *title = c && c->title ? c->title : NULL;
      size_t need = strlen(item->valuestring) + (title ? strlen(title) : 0) + 8;
      if (len + need >= cap) {
        cap = (len + need) * 2;
        char *bigger = xrealloc(s, cap);
        s = bigger;
      }
      len +=
          (size_t)snprintf(s + len, cap - len, "%s%s%s%s%s", len ? ", " : "",
                           title ? title : item->valuestring, title ? " (" : "",
                           title ? item->valuestring : "", title ? ")" : "");
    }
    return len ? s : (free(s), xstrdup("(none)"));
  }
  char *text = cJSON_PrintUnformatted(v);
  if (!text)
    abort();
  char *copy = xstrdup(text);
  cJSON_free(text);
  return copy;
}
