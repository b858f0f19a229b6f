#include "manifest.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the schema, as data ---- */

enum ftype {
  F_STRING,
  F_NONEMPTY, /* string of at least one character */
  F_BOOL,
  F_NUMBER,
  F_URL,
  F_EMAIL,
  F_LITERAL,   /* the manifest's own version string */
  F_STRINGS,   /* string[] */
  F_URLS,      /* url[] */
  F_ENUM,      /* one of `values` */
  F_ENUMS,     /* array of one of `values` */
  F_OBJECT,    /* strict object of `sub` */
  F_OBJECTS,   /* array of strict objects of `sub` */
  F_RECORD,    /* record<string, strict object of `sub`> */
  F_ENV,       /* record<string, string> */
  F_META,      /* record<string, record<string, any>> */
  F_DEFAULT,   /* string | number | boolean | string[] */
  F_SIZE,      /* "WIDTHxHEIGHT" */
  F_RESOURCES, /* a string with "${locale}" */
  F_LOCALE,    /* a BCP 47 tag */
};

typedef struct shape shape;

typedef struct field {
  const char *key;
  int type;
  int required;
  int since; /* the first minor version that has it: 1..4 */
  const shape *sub;
  const char *const *values; /* F_ENUM, F_ENUMS */
} field;

struct shape {
  const field *fields;
  size_t count;
};

#define SHAPE(a)                                                               \
  { a, sizeof a / sizeof a[0] }

static const char *const server_types[] = {"python", "node", "binary", "uv",
                                           NULL};
static const char *const platforms[] = {"darwin", "win32", "linux", NULL};
static const char *const option_types[] = {"string",    "number", "boolean",
                                           "directory", "file",   NULL};

static const field author_f[] = {
    {"name", F_STRING, 1, 1, NULL, NULL},
    {"email", F_EMAIL, 0, 1, NULL, NULL},
    {"url", F_URL, 0, 1, NULL, NULL},
};
static const shape author_s = SHAPE(author_f);

static const field repo_f[] = {
    {"type", F_STRING, 1, 1, NULL, NULL},
    {"url", F_URL, 1, 1, NULL, NULL},
};
static const shape repo_s = SHAPE(repo_f);

static const field override_f[] = {
    {"command", F_STRING, 0, 1, NULL, NULL},
    {"args", F_STRINGS, 0, 1, NULL, NULL},
    {"env", F_ENV, 0, 1, NULL, NULL},
};
static const shape override_s = SHAPE(override_f);

static const field mcp_config_f[] = {
    {"command", F_STRING, 1, 1, NULL, NULL},
    {"args", F_STRINGS, 0, 1, NULL, NULL},
    {"env", F_ENV, 0, 1, NULL, NULL},
    {"platform_overrides", F_RECORD, 0, 1, &override_s, NULL},
};
static const shape mcp_config_s = SHAPE(mcp_config_f);

static const field server_f[] = {
    {"type", F_ENUM, 1, 1, NULL, server_types},
    {"entry_point", F_STRING, 1, 1, NULL, NULL},
    {"mcp_config", F_OBJECT, 1, 1, &mcp_config_s, NULL},
};
static const shape server_s = SHAPE(server_f);

static const field tool_f[] = {
    {"name", F_STRING, 1, 1, NULL, NULL},
    {"description", F_STRING, 0, 1, NULL, NULL},
};
static const shape tool_s = SHAPE(tool_f);

static const field prompt_f[] = {
    {"name", F_STRING, 1, 1, NULL, NULL},
    {"description", F_STRING, 0, 1, NULL, NULL},
    {"arguments", F_STRINGS, 0, 1, NULL, NULL},
    {"text", F_STRING, 1, 1, NULL, NULL},
};
static const shape prompt_s = SHAPE(prompt_f);

static const field runtimes_f[] = {
    {"python", F_STRING, 0, 1, NULL, NULL},
    {"node", F_STRING, 0, 1, NULL, NULL},
};
static const shape runtimes_s = SHAPE(runtimes_f);

static const field compat_f[] = {
    {"claude_desktop", F_STRING, 0, 1, NULL, NULL},
    {"platforms", F_ENUMS, 0, 1, NULL, platforms},
    {"runtimes", F_OBJECT, 0, 1, &runtimes_s, NULL},
};
static const shape compat_s = SHAPE(compat_f);

static const field option_f[] = {
    {"type", F_ENUM, 1, 1, NULL, option_types},
    {"title", F_STRING, 1, 1, NULL, NULL},
    {"description", F_STRING, 1, 1, NULL, NULL},
    {"required", F_BOOL, 0, 1, NULL, NULL},
    {"default", F_DEFAULT, 0, 1, NULL, NULL},
    {"multiple", F_BOOL, 0, 1, NULL, NULL},
    {"sensitive", F_BOOL, 0, 1, NULL, NULL},
    {"min", F_NUMBER, 0, 1, NULL, NULL},
    {"max", F_NUMBER, 0, 1, NULL, NULL},
};
static const shape option_s = SHAPE(option_f);

static const field icon_f[] = {
    {"src", F_STRING, 1, 3, NULL, NULL},
    {"size", F_SIZE, 1, 3, NULL, NULL},
    {"theme", F_NONEMPTY, 0, 3, NULL, NULL},
};
static const shape icon_s = SHAPE(icon_f);

static const field l10n_f[] = {
    {"resources", F_RESOURCES, 1, 3, NULL, NULL},
    {"default_locale", F_LOCALE, 1, 3, NULL, NULL},
};
static const shape l10n_s = SHAPE(l10n_f);

static const field top_f[] = {
    {"$schema", F_STRING, 0, 1, NULL, NULL},
    {"dxt_version", F_LITERAL, 0, 1, NULL, NULL},
    {"manifest_version", F_LITERAL, 0, 1, NULL, NULL},
    {"name", F_STRING, 1, 1, NULL, NULL},
    {"display_name", F_STRING, 0, 1, NULL, NULL},
    {"version", F_STRING, 1, 1, NULL, NULL},
    {"description", F_STRING, 1, 1, NULL, NULL},
    {"long_description", F_STRING, 0, 1, NULL, NULL},
    {"author", F_OBJECT, 1, 1, &author_s, NULL},
    {"repository", F_OBJECT, 0, 1, &repo_s, NULL},
    {"homepage", F_URL, 0, 1, NULL, NULL},
    {"documentation", F_URL, 0, 1, NULL, NULL},
    {"support", F_URL, 0, 1, NULL, NULL},
    {"icon", F_STRING, 0, 1, NULL, NULL},
    {"icons", F_OBJECTS, 0, 3, &icon_s, NULL},
    {"screenshots", F_STRINGS, 0, 1, NULL, NULL},
    {"localization", F_OBJECT, 0, 3, &l10n_s, NULL},
    {"server", F_OBJECT, 1, 1, &server_s, NULL},
    {"tools", F_OBJECTS, 0, 1, &tool_s, NULL},
    {"tools_generated", F_BOOL, 0, 1, NULL, NULL},
    {"prompts", F_OBJECTS, 0, 1, &prompt_s, NULL},
    {"prompts_generated", F_BOOL, 0, 1, NULL, NULL},
    {"keywords", F_STRINGS, 0, 1, NULL, NULL},
    {"license", F_STRING, 0, 1, NULL, NULL},
    {"privacy_policies", F_URLS, 0, 2, NULL, NULL},
    {"compatibility", F_OBJECT, 0, 1, &compat_s, NULL},
    {"user_config", F_RECORD, 0, 1, &option_s, NULL},
    {"_meta", F_META, 0, 3, NULL, NULL},
};
static const shape top_s = SHAPE(top_f);

/* ---- issues ---- */

typedef struct vctx {
  manifest_report *r;
  int minor;       /* 1..4 */
  const char *ver; /* "0.1".."0.4" */
} vctx;

static void add_issue(vctx *v, int kind, const char *path, const char *fmt,
                      ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t n = strlen(path) + strlen(msg) + 3;
  char *text = malloc(n);
  manifest_issue *grown =
      realloc(v->r->issues, (v->r->count + 1) * sizeof *grown);
  if (!text || !grown) {
    abort();
  }
  snprintf(text, n, "%s%s%s", path, *path ? ": " : "", msg);
  v->r->issues = grown;
  v->r->issues[v->r->count].kind = kind;
  v->r->issues[v->r->count].text = text;
  v->r->count++;
  if (kind == MANIFEST_ERROR) {
    v->r->errors++;
  }
}

/* zod's name for what was found. */
static const char *received(const cJSON *j) {
  if (cJSON_IsNull(j)) {
    return "null";
  }
  if (cJSON_IsBool(j)) {
    return "boolean";
  }
  if (cJSON_IsNumber(j)) {
    return "number";
  }
  if (cJSON_IsString(j)) {
    return "string";
  }
  if (cJSON_IsArray(j)) {
    return "array";
  }
  return "object";
}

static void expected(vctx *v, const char *path, const char *what,
                     const cJSON *j) {
  add_issue(v, MANIFEST_ERROR, path, "Expected %s, received %s", what,
            received(j));
}

/* A deeper path; a very long one is cut (it is only shown). */
static void join_path(char *out, size_t n, const char *path, const char *key) {
  if (snprintf(out, n, "%s%s%s", path, *path ? "." : "", key) >= (int)n) {
    out[n - 1] = '\0';
  }
}

static void index_path(char *out, size_t n, const char *path, int i) {
  char num[16];
  snprintf(num, sizeof num, "%d", i);
  join_path(out, n, path, num);
}

/* ---- formats ---- */

static bool is_url(const char *s) {
  if (!isalpha((unsigned char)s[0])) {
    return false;
  }
  size_t i = 1;
  while (isalnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' ||
         s[i] == '.') {
    i++;
  }
  if (s[i] != ':') {
    return false;
  }
  for (const char *p = s; *p; p++) {
    if ((unsigned char)*p <= 0x20 || *p == 0x7f) {
      return false;
    }
  }
  static const char *const special[] = {"http", "https", "ws", "wss", "ftp"};
  for (size_t k = 0; k < sizeof special / sizeof special[0]; k++) {
    size_t n = strlen(special[k]);
    if (n == i && strncasecmp(s, special[k], n) == 0) {
      const char *rest = s + i + 1;
      while (*rest == '/') {
        rest++;
      }
      return *rest != '\0' && *rest != '?' && *rest != '#' && *rest != ':';
    }
  }
  return s[i + 1] != '\0' || strncasecmp(s, "file", i) == 0;
}

/* zod's email pattern: ^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-\.]*)[A-Z0-9_+-]@
 * ([A-Z0-9][A-Z0-9\-]*\.)+[A-Z]{2,}$, case-insensitive. */
static bool is_email(const char *s) {
  const char *at = strchr(s, '@');
  if (!at || at == s || s[0] == '.' || strstr(s, "..")) {
    return false;
  }
  for (const char *p = s; p < at; p++) {
    if (!isalnum((unsigned char)*p) && !strchr("_'+-.", *p)) {
      return false;
    }
  }
  char last = at[-1];
  if (!isalnum((unsigned char)last) && !strchr("_+-", last)) {
    return false;
  }
  const char *d = at + 1;
  const char *tld = strrchr(d, '.');
  if (!tld || tld == d) {
    return false;
  }
  size_t labels_ok = 1;
  for (const char *p = d; p < tld;) {
    if (!isalnum((unsigned char)*p)) {
      labels_ok = 0;
      break;
    }
    while (p < tld && (isalnum((unsigned char)*p) || *p == '-')) {
      p++;
    }
    if (p < tld && *p != '.') {
      labels_ok = 0;
      break;
    }
    if (p < tld) {
      p++;
    }
  }
  size_t tl = strlen(tld + 1);
  for (const char *p = tld + 1; *p; p++) {
    if (!isalpha((unsigned char)*p)) {
      return false;
    }
  }
  return labels_ok && tl >= 2;
}

static bool is_size(const char *s) {
  size_t a = strspn(s, "0123456789");
  if (a == 0 || s[a] != 'x') {
    return false;
  }
  size_t b = strspn(s + a + 1, "0123456789");
  return b > 0 && s[a + 1 + b] == '\0';
}

/* ^[A-Za-z0-9]{2,8}(?:-[A-Za-z0-9]{1,8})*$ */
static bool is_locale(const char *s) {
  size_t first = 1;
  while (*s) {
    size_t n = 0;
    while (isalnum((unsigned char)s[n])) {
      n++;
    }
    if (n < (first ? 2u : 1u) || n > 8) {
      return false;
    }
    s += n;
    first = 0;
    if (*s == '-') {
      s++;
      if (!*s) {
        return false;
      }
    } else if (*s) {
      return false;
    }
  }
  return !first;
}

static bool has_locale_placeholder(const char *s) {
  for (; *s; s++) {
    if (strncasecmp(s, "${locale}", 9) == 0) {
      return true;
    }
  }
  return false;
}

/* ---- walking ---- */

static void check_shape(vctx *v, const cJSON *obj, const shape *sh,
                        const char *path);

static void check_strings(vctx *v, const cJSON *j, const char *path,
                          bool urls) {
  if (!cJSON_IsArray(j)) {
    expected(v, path, "array", j);
    return;
  }
  int i = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, j) {
    char p[512];
    index_path(p, sizeof p, path, i++);
    if (!cJSON_IsString(e)) {
      expected(v, p, "string", e);
    } else if (urls && !is_url(e->valuestring)) {
      add_issue(v, MANIFEST_ERROR, p, "Invalid url");
    }
  }
}

static void enum_issue(vctx *v, const char *path, const field *f,
                       const cJSON *j) {
  char list[256] = "";
  size_t used = 0;
  for (size_t k = 0; f->values[k]; k++) {
    if (f->values == server_types && strcmp(f->values[k], "uv") == 0 &&
        v->minor < 4) {
      continue;
    }
    used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'",
                             k ? " | " : "", f->values[k]);
    if (used >= sizeof list) {
      break;
    }
  }
  if (cJSON_IsString(j)) {
    add_issue(v, MANIFEST_ERROR, path,
              "Invalid enum value. Expected %s, received '%s'", list,
              j->valuestring);
  } else {
    add_issue(v, MANIFEST_ERROR, path, "Expected %s, received %s", list,
              received(j));
  }
}

static bool in_enum(const vctx *v, const field *f, const char *s) {
  for (size_t k = 0; f->values[k]; k++) {
    if (f->values == server_types && strcmp(f->values[k], "uv") == 0 &&
        v->minor < 4) {
      continue;
    }
    if (strcmp(f->values[k], s) == 0) {
      return true;
    }
  }
  return false;
}

static void check_value(vctx *v, const field *f, const cJSON *j,
                        const char *path) {
  switch (f->type) {
  case F_STRING:
  case F_NONEMPTY:
  case F_URL:
  case F_EMAIL:
  case F_SIZE:
  case F_RESOURCES:
  case F_LOCALE:
  case F_LITERAL:
    if (!cJSON_IsString(j)) {
      if (f->type == F_LITERAL) {
        add_issue(v, MANIFEST_ERROR, path,
                  "Invalid literal value, expected \"%s\"", v->ver);
      } else {
        expected(v, path, "string", j);
      }
      return;
    }
    break;
  default: break;
  }
  const char *s = cJSON_IsString(j) ? j->valuestring : NULL;
  switch (f->type) {
  case F_NONEMPTY:
    if (!*s) {
      add_issue(v, MANIFEST_ERROR, path,
                "String must contain at least 1 character(s)");
    }
    break;
  case F_URL:
    if (!is_url(s)) {
      add_issue(v, MANIFEST_ERROR, path, "Invalid url");
    }
    break;
  case F_EMAIL:
    if (!is_email(s)) {
      add_issue(v, MANIFEST_ERROR, path, "Invalid email");
    }
    break;
  case F_SIZE:
    if (!is_size(s)) {
      add_issue(v, MANIFEST_ERROR, path,
                "size must be in the format \"WIDTHxHEIGHT\" (e.g., "
                "\"16x16\")");
    }
    break;
  case F_RESOURCES:
    if (!has_locale_placeholder(s)) {
      add_issue(v, MANIFEST_ERROR, path,
                "resources must include a \"${locale}\" placeholder");
    }
    break;
  case F_LOCALE:
    if (!is_locale(s)) {
      add_issue(v, MANIFEST_ERROR, path,
                "default_locale must be a valid BCP 47 locale identifier");
    }
    break;
  case F_LITERAL:
    if (strcmp(s, v->ver) != 0) {
      add_issue(v, MANIFEST_ERROR, path,
                "Invalid literal value, expected \"%s\"", v->ver);
    }
    break;
  case F_BOOL:
    if (!cJSON_IsBool(j)) {
      expected(v, path, "boolean", j);
    }
    break;
  case F_NUMBER:
    if (!cJSON_IsNumber(j)) {
      expected(v, path, "number", j);
    }
    break;
  case F_STRINGS:
  case F_URLS: check_strings(v, j, path, f->type == F_URLS); break;
  case F_ENUM:
    if (!cJSON_IsString(j) || !in_enum(v, f, j->valuestring)) {
      enum_issue(v, path, f, j);
    }
    break;
  case F_ENUMS: {
    if (!cJSON_IsArray(j)) {
      expected(v, path, "array", j);
      break;
    }
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, j) {
      char p[512];
      index_path(p, sizeof p, path, i++);
      if (!cJSON_IsString(e) || !in_enum(v, f, e->valuestring)) {
        enum_issue(v, p, f, e);
      }
    }
    break;
  }
  case F_OBJECT: check_shape(v, j, f->sub, path); break;
  case F_OBJECTS: {
    if (!cJSON_IsArray(j)) {
      expected(v, path, "array", j);
      break;
    }
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, j) {
      char p[512];
      index_path(p, sizeof p, path, i++);
      check_shape(v, e, f->sub, p);
    }
    break;
  }
  case F_RECORD:
  case F_ENV:
  case F_META: {
    if (!cJSON_IsObject(j)) {
      expected(v, path, "object", j);
      break;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, j) {
      char p[512];
      join_path(p, sizeof p, path, e->string ? e->string : "");
      if (f->type == F_RECORD) {
        check_shape(v, e, f->sub, p);
      } else if (f->type == F_ENV && !cJSON_IsString(e)) {
        expected(v, p, "string", e);
      } else if (f->type == F_META && !cJSON_IsObject(e)) {
        expected(v, p, "object", e);
      }
    }
    break;
  }
  case F_DEFAULT: {
    bool ok = cJSON_IsString(j) || cJSON_IsNumber(j) || cJSON_IsBool(j);
    if (cJSON_IsArray(j)) {
      ok = true;
      const cJSON *e;
      cJSON_ArrayForEach(e, j) {
        ok = ok && cJSON_IsString(e);
      }
    }
    if (!ok) {
      add_issue(v, MANIFEST_ERROR, path, "Invalid input");
    }
    break;
  }
  default: break;
  }
}

static const field *find_field(const vctx *v, const shape *sh,
                               const char *key) {
  for (size_t i = 0; i < sh->count; i++) {
    if (sh->fields[i].since <= v->minor &&
        strcmp(sh->fields[i].key, key) == 0) {
      return &sh->fields[i];
    }
  }
  return NULL;
}

static void check_shape(vctx *v, const cJSON *obj, const shape *sh,
                        const char *path) {
  if (!cJSON_IsObject(obj)) {
    expected(v, path, "object", obj);
    return;
  }
  for (size_t i = 0; i < sh->count; i++) {
    const field *f = &sh->fields[i];
    if (f->since > v->minor) {
      continue;
    }
    char p[512];
    join_path(p, sizeof p, path, f->key);
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, f->key);
    if (!j) {
      if (f->required) {
        add_issue(v, MANIFEST_ERROR, p, "Required");
      }
      continue;
    }
    check_value(v, f, j, p);
  }
  char unknown[512] = "";
  size_t used = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, obj) {
    const char *key = e->string ? e->string : "";
    if (find_field(v, sh, key) || used >= sizeof unknown) {
      continue;
    }
    used += (size_t)snprintf(unknown + used, sizeof unknown - used, "%s'%s'",
                             used ? ", " : "", key);
  }
  if (used) {
    add_issue(v, MANIFEST_UNKNOWN, path, "Unrecognized key(s) in object: %s",
              unknown);
  }
}

/* ---- entry points ---- */

static const char *version_of(const cJSON *j) {
  static const char *const known[] = {"0.1", "0.2", "0.3", "0.4"};
  if (!cJSON_IsString(j)) {
    return NULL;
  }
  for (size_t i = 0; i < 4; i++) {
    if (strcmp(j->valuestring, known[i]) == 0) {
      return known[i];
    }
  }
  return NULL;
}

void manifest_validate(const cJSON *doc, manifest_report *r) {
  memset(r, 0, sizeof *r);
  vctx v = {.r = r};
  const char *ver =
      version_of(cJSON_GetObjectItemCaseSensitive(doc, "manifest_version"));
  if (!ver) {
    ver = version_of(cJSON_GetObjectItemCaseSensitive(doc, "dxt_version"));
  }
  if (!ver || !cJSON_IsObject(doc)) {
    add_issue(&v, MANIFEST_ERROR, "",
              "Unrecognized or unsupported manifest version");
    return;
  }
  r->version = ver;
  v.ver = ver;
  v.minor = ver[2] - '0';
  check_shape(&v, doc, &top_s, "");
}

void manifest_report_free(manifest_report *r) {
  for (size_t i = 0; i < r->count; i++) {
    free(r->issues[i].text);
  }
  free(r->issues);
  memset(r, 0, sizeof *r);
}

char *manifest_report_join(const manifest_report *r, int kind) {
  size_t n = 1;
  for (size_t i = 0; i < r->count; i++) {
    if (r->issues[i].kind == kind) {
      n += strlen(r->issues[i].text) + 2;
    }
  }
  if (n == 1) {
    return NULL;
  }
  char *out = calloc(n, 1);
  if (!out) {
    abort();
  }
  for (size_t i = 0; i < r->count; i++) {
    if (r->issues[i].kind == kind) {
      if (*out) {
        strcat(out, "; ");
      }
      strcat(out, r->issues[i].text);
    }
  }
  return out;
}

/* Where JSON.parse would stop, in its words as far as they can be told
 * apart: after '{' or ',' in an object a key is expected. */
cJSON *manifest_parse(const char *text, size_t len, char *err, size_t n) {
  const char *end = NULL;
  cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (doc) {
    return doc;
  }
  size_t pos = end && end >= text ? (size_t)(end - text) : 0;
  if (pos > len) {
    pos = len;
  }
  size_t back = pos;
  while (back > 0 && isspace((unsigned char)text[back - 1])) {
    back--;
  }
  char before = back > 0 ? text[back - 1] : '\0';
  if (pos >= len) {
    snprintf(err, n,
             "Invalid JSON in manifest file: Unexpected end of JSON "
             "input");
  } else if ((before == ',' || before == '{') && text[pos] != '"') {
    snprintf(err, n,
             "Invalid JSON in manifest file: Expected double-quoted property "
             "name in JSON at position %zu",
             pos);
  } else {
    snprintf(err, n,
             "Invalid JSON in manifest file: Unexpected token in JSON at "
             "position %zu",
             pos);
  }
  return NULL;
}
