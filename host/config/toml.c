/* The TOML subset reader (toml.h): one pass over the text, building JSON
 * as it goes. Tables and keys are JSON objects; a key or table defined
 * twice is an error, as TOML has it. */
#include "config/toml.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct toml {
  const char *p, *end;
  int line;
  char *why;
  cJSON *defined; /* {"a\x1fb": true}: tables given a [header] */
} toml;

static bool fail(toml *t, const char *fmt, const char *arg) {
  if (!t->why) {
    t->why = xasprintf(fmt, arg ? arg : "");
  }
  return false;
}

static void skip_blank(toml *t) {
  while (t->p < t->end && (*t->p == ' ' || *t->p == '\t')) {
    t->p++;
  }
}

/* Blanks, comments and newlines (inside arrays). */
static void skip_space(toml *t) {
  for (;;) {
    skip_blank(t);
    if (t->p < t->end && *t->p == '#') {
      while (t->p < t->end && *t->p != '\n') {
        t->p++;
      }
    }
    if (t->p < t->end && (*t->p == '\n' || *t->p == '\r')) {
      t->line += *t->p == '\n';
      t->p++;
      continue;
    }
    return;
  }
}

/* The rest of the line must be blank or a comment. */
static bool end_of_line(toml *t) {
  skip_blank(t);
  if (t->p < t->end && *t->p == '#') {
    while (t->p < t->end && *t->p != '\n') {
      t->p++;
    }
  }
  if (t->p < t->end && *t->p == '\r') {
    t->p++;
  }
  if (t->p < t->end && *t->p != '\n') {
    char rest[48];
    size_t n = (size_t)(t->end - t->p);
    n = n < sizeof rest - 1 ? n : sizeof rest - 1;
    memcpy(rest, t->p, n);
    rest[n] = '\0';
    rest[strcspn(rest, "\r\n")] = '\0';
    return fail(t, "unexpected text after a value: \"%s\"", rest);
  }
  return true;
}

static void add_utf8(strbuf *b, uint32_t cp) {
  char o[4];
  size_t n;
  if (cp < 0x80) {
    o[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    o[0] = (char)(0xc0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3f));
    n = 2;
  } else if (cp < 0x10000) {
    o[0] = (char)(0xe0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[2] = (char)(0x80 | (cp & 0x3f));
    n = 3;
  } else {
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    n = 4;
  }
  sb_add(b, o, n);
}

/* A basic ("...") or literal ('...') string at t->p; a new string. */
static char *string(toml *t) {
  char q = *t->p;
  if (t->end - t->p >= 3 && t->p[1] == q && t->p[2] == q) {
    fail(t, "multi-line strings are not read here%s", NULL);
    return NULL;
  }
  t->p++;
  strbuf b;
  sb_init(&b);
  while (t->p < t->end && *t->p != q) {
    char ch = *t->p++;
    if (ch == '\n') {
      break;
    }
    if (ch != '\\' || q == '\'') {
      sb_addc(&b, ch);
      continue;
    }
    if (t->p >= t->end) {
      break;
    }
    char e = *t->p++;
    char plain = e == 'b'    ? '\b'
                 : e == 't'  ? '\t'
                 : e == 'n'  ? '\n'
                 : e == 'f'  ? '\f'
                 : e == 'r'  ? '\r'
                 : e == '"'  ? '"'
                 : e == '\\' ? '\\'
                             : 0;
    if (plain) {
      sb_addc(&b, plain);
    } else if (e == 'u' || e == 'U') {
      int digits = e == 'u' ? 4 : 8;
      char hex[9] = {0};
      bool cut = t->end - t->p < digits;
      if (!cut) {
        memcpy(hex, t->p, (size_t)digits);
      }
      char *stop;
      unsigned long cp = strtoul(hex, &stop, 16);
      /* Too few digits before the end of the text is as bad as a wrong
       * one (it was read as the string's end). */
      if (cut || *stop || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        sb_free(&b);
        fail(t, "bad \\%s escape in a string", e == 'u' ? "u" : "U");
        return NULL;
      }
      add_utf8(&b, (uint32_t)cp);
      t->p += digits;
    } else {
      sb_free(&b);
      char bad[3] = {'\\', e, 0};
      fail(t, "unknown escape \"%s\" in a string", bad);
      return NULL;
    }
  }
  if (t->p >= t->end || *t->p != q) {
    sb_free(&b);
    fail(t, "a string is not closed on its line%s", NULL);
    return NULL;
  }
  t->p++;
  return sb_take(&b);
}

/* One key part: bare (A-Za-z0-9_-) or quoted. A new string. */
static char *key_part(toml *t) {
  skip_blank(t);
  if (t->p < t->end && (*t->p == '"' || *t->p == '\'')) {
    return string(t);
  }
  const char *s = t->p;
  while (t->p < t->end &&
         (strchr("_-", *t->p) || (*t->p >= 'a' && *t->p <= 'z') ||
          (*t->p >= 'A' && *t->p <= 'Z') || (*t->p >= '0' && *t->p <= '9'))) {
    t->p++;
  }
  if (t->p == s) {
    fail(t, "a key is expected here%s", NULL);
    return NULL;
  }
  return xstrndup(s, (size_t)(t->p - s));
}

/* A dotted key into `parts` (new strings); returns how many, 0 on error. */
static size_t key_path(toml *t, char **parts, size_t max) {
  size_t n = 0;
  for (;;) {
    if (n == max) {
      fail(t, "a key has too many parts%s", NULL);
      goto bad;
    }
    parts[n] = key_part(t);
    if (!parts[n]) {
      goto bad;
    }
    n++;
    skip_blank(t);
    if (t->p < t->end && *t->p == '.') {
      t->p++;
      continue;
    }
    return n;
  }
bad:
  for (size_t i = 0; i < n; i++) {
    free(parts[i]);
  }
  return 0;
}

/* The object at `parts` under `root`, made on the way; NULL (and the
 * error) when a part is a value already. */
static cJSON *walk(toml *t, cJSON *root, char **parts, size_t n) {
  cJSON *o = root;
  for (size_t i = 0; i < n; i++) {
    cJSON *next = cJSON_GetObjectItemCaseSensitive(o, parts[i]);
    if (!next) {
      next = cJSON_AddObjectToObject(o, parts[i]);
    } else if (!cJSON_IsObject(next)) {
      fail(t, "\"%s\" is a value already, not a table", parts[i]);
      return NULL;
    }
    o = next;
  }
  return o;
}

static cJSON *value(toml *t);

static cJSON *array(toml *t) {
  t->p++; /* '[' */
  cJSON *a = cJSON_CreateArray();
  for (;;) {
    skip_space(t);
    if (t->p < t->end && *t->p == ']') {
      t->p++;
      return a;
    }
    cJSON *v = value(t);
    if (!v) {
      cJSON_Delete(a);
      return NULL;
    }
    cJSON_AddItemToArray(a, v);
    skip_space(t);
    if (t->p < t->end && *t->p == ',') {
      t->p++;
    } else if (t->p >= t->end || *t->p != ']') {
      cJSON_Delete(a);
      fail(t, "an array needs ',' or ']' here%s", NULL);
      return NULL;
    }
  }
}

static bool key_value(toml *t, cJSON *table);

static cJSON *inline_table(toml *t) {
  t->p++; /* '{' */
  cJSON *o = cJSON_CreateObject();
  skip_blank(t);
  if (t->p < t->end && *t->p == '}') {
    t->p++;
    return o;
  }
  for (;;) {
    if (!key_value(t, o)) {
      cJSON_Delete(o);
      return NULL;
    }
    skip_blank(t);
    if (t->p < t->end && *t->p == ',') {
      t->p++;
      continue;
    }
    if (t->p < t->end && *t->p == '}') {
      t->p++;
      return o;
    }
    cJSON_Delete(o);
    fail(t, "an inline table needs ',' or '}' on its line%s", NULL);
    return NULL;
  }
}

static cJSON *scalar(toml *t) {
  const char *s = t->p;
  while (t->p < t->end && !strchr(" \t\r\n,]}#", *t->p)) {
    t->p++;
  }
  char *w = xstrndup(s, (size_t)(t->p - s));
  cJSON *v = NULL;
  if (strcmp(w, "true") == 0 || strcmp(w, "false") == 0) {
    v = cJSON_CreateBool(w[0] == 't');
  } else if (*w) {
    /* Digits with '_' between them; no dates or times. */
    strbuf num;
    sb_init(&num);
    bool ok = !strchr(w, ':') &&
              !(strchr(w, '-') && w[0] != '-' && strchr(w + 1, '-'));
    for (const char *c = w; ok && *c; c++) {
      if (*c != '_') {
        sb_addc(&num, *c);
      }
    }
    char *end = NULL;
    double d = ok ? strtod(sb_str(&num), &end) : 0;
    if (ok && end && !*end && num.len) {
      v = cJSON_CreateNumber(d);
    }
    sb_free(&num);
  }
  if (!v) {
    fail(t,
         "\"%s\" is not a value this reader knows (a string, number, "
         "boolean, array or inline table)",
         *w ? w : "(nothing)");
  }
  free(w);
  return v;
}

static cJSON *value(toml *t) {
  skip_blank(t);
  if (t->p >= t->end) {
    fail(t, "a value is expected%s", NULL);
    return NULL;
  }
  if (*t->p == '"' || *t->p == '\'') {
    char *s = string(t);
    cJSON *v = s ? cJSON_CreateString(s) : NULL;
    free(s);
    return v;
  }
  if (*t->p == '[') {
    return array(t);
  }
  if (*t->p == '{') {
    return inline_table(t);
  }
  return scalar(t);
}

static bool key_value(toml *t, cJSON *table) {
  char *parts[16];
  size_t n = key_path(t, parts, 16);
  if (n == 0) {
    return false;
  }
  bool ok = false;
  cJSON *v = NULL;
  cJSON *o = walk(t, table, parts, n - 1);
  skip_blank(t);
  if (!o) {
    goto out;
  }
  if (t->p >= t->end || *t->p != '=') {
    fail(t, "'=' is expected after the key \"%s\"", parts[n - 1]);
    goto out;
  }
  t->p++;
  if (cJSON_GetObjectItemCaseSensitive(o, parts[n - 1])) {
    fail(t, "the key \"%s\" is defined twice", parts[n - 1]);
    goto out;
  }
  v = value(t);
  if (v) {
    cJSON_AddItemToObject(o, parts[n - 1], v);
    ok = true;
  }
out:
  for (size_t i = 0; i < n; i++) {
    free(parts[i]);
  }
  return ok;
}

/* A [table] header: the table key-values that follow go into. */
static cJSON *header(toml *t, cJSON *root) {
  t->p++; /* '[' */
  if (t->p < t->end && *t->p == '[') {
    fail(t, "arrays of tables ([[...]]) are not read here%s", NULL);
    return NULL;
  }
  char *parts[16];
  size_t n = key_path(t, parts, 16);
  if (n == 0) {
    return NULL;
  }
  cJSON *o = NULL;
  strbuf id;
  sb_init(&id);
  for (size_t i = 0; i < n; i++) {
    sb_printf(&id, "%s%s", i ? "\x1f" : "", parts[i]);
  }
  skip_blank(t);
  if (t->p >= t->end || *t->p != ']') {
    fail(t, "a table header needs ']'%s", NULL);
  } else if (cJSON_GetObjectItemCaseSensitive(t->defined, sb_str(&id))) {
    fail(t, "the table [%s] is defined twice",
         strchr(sb_str(&id), '\x1f') ? parts[n - 1] : sb_str(&id));
  } else {
    t->p++;
    o = walk(t, root, parts, n);
    if (o) {
      cJSON_AddTrueToObject(t->defined, sb_str(&id));
    }
  }
  sb_free(&id);
  for (size_t i = 0; i < n; i++) {
    free(parts[i]);
  }
  return o;
}

cJSON *toml_parse(const char *text, size_t len, int *line, char **why) {
  toml t = {.p = text, .end = text + len, .line = 1};
  t.defined = cJSON_CreateObject();
  cJSON *root = cJSON_CreateObject(), *table = root;
  bool ok = true;
  while (ok) {
    skip_space(&t);
    if (t.p >= t.end) {
      break;
    }
    if (*t.p == '[') {
      table = header(&t, root);
      ok = table && end_of_line(&t);
    } else {
      ok = key_value(&t, table) && end_of_line(&t);
    }
  }
  cJSON_Delete(t.defined);
  if (!ok) {
    cJSON_Delete(root);
    *line = t.line;
    *why = t.why ? t.why : xstrdup("cannot be read");
    return NULL;
  }
  return root;
}
