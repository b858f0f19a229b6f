#include "config/config_expand.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "url_canon.h"

static bool name_start(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool name_char(char ch) {
  return name_start(ch) || (ch >= '0' && ch <= '9');
}

/* Where each "${" closes: one pass with a stack, so finding the end of a
 * default never rescans the text (a hostile value full of "${" stays
 * linear). Positions are offsets into the whole string. */
typedef struct braces {
  size_t *open, *close; /* close = SIZE_MAX: never closed */
  size_t n;
} braces;

static void braces_scan(braces *b, const char *s, size_t len) {
  b->n = 0;
  for (size_t i = 0; i + 1 < len; i++)
    b->n += s[i] == '$' && s[i + 1] == '{';
  b->open = xcalloc(b->n ? b->n : 1, sizeof *b->open);
  b->close = xcalloc(b->n ? b->n : 1, sizeof *b->close);
  size_t *stack = xcalloc(b->n ? b->n : 1, sizeof *stack);
  size_t k = 0, depth = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '$' && i + 1 < len && s[i + 1] == '{') {
      b->open[k] = i;
      b->close[k] = SIZE_MAX;
      stack[depth++] = k++;
      i++;
    } else if (s[i] == '}' && depth > 0) {
      b->close[stack[--depth]] = i;
    }
  }
  free(stack);
}

/* The '}' matching the "${" at offset `pos`, or SIZE_MAX. */
static size_t braces_close(const braces *b, size_t pos) {
  size_t lo = 0, hi = b->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (b->open[mid] < pos)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < b->n && b->open[lo] == pos ? b->close[lo] : SIZE_MAX;
}

typedef struct expander {
  const char *s; /* the whole string */
  braces br;
  expand_lookup_fn lookup;
  void *lookup_ud;
  expand_missing_fn missing;
  void *missing_ud;
} expander;

/* Expands s[from, to) into `out`. */
static void expand_range(expander *x, strbuf *out, size_t from, size_t to,
                         int depth) {
  const char *s = x->s;
  size_t i = from;
  while (i < to) {
    /* "${:-TEXT}" names no variable: it is always its default, as in
     * Claude Code (whose "${:-$}" is how a "$" before "{" stays text). */
    if (!(s[i] == '$' && i + 2 < to && s[i + 1] == '{' &&
          (name_start(s[i + 2]) || s[i + 2] == ':'))) {
      sb_addc(out, s[i++]);
      continue;
    }
    size_t n = i + 2, q = n;
    while (q < to && name_char(s[q]))
      q++;
    size_t close = braces_close(&x->br, i);
    bool is_default = q + 1 < to && s[q] == ':' && s[q + 1] == '-';
    if (close == SIZE_MAX || close >= to || (!is_default && close != q)) {
      sb_addc(out, s[i++]); /* not a reference: keep the text */
      continue;
    }
    char *var = xstrndup(s + n, q - n);
    const char *val = q > n ? x->lookup(x->lookup_ud, var) : NULL;
    if (val) {
      sb_adds(out, val);
    } else if (is_default) {
      /* The cap only guards the stack against hostile nesting. */
      if (depth < 64)
        expand_range(x, out, q + 2, close, depth + 1);
      else
        sb_add(out, s + q + 2, close - (q + 2));
    } else {
      if (x->missing)
        x->missing(x->missing_ud, var);
      sb_add(out, s + i, close + 1 - i);
    }
    free(var);
    i = close + 1;
  }
}

static const char *env_lookup(void *ud, const char *name) {
  (void)ud;
  return getenv(name);
}

char *expand_vars(const char *in, expand_lookup_fn lookup, void *lookup_ud,
                  expand_missing_fn missing, void *missing_ud) {
  expander x = {.s = in,
                .lookup = lookup ? lookup : env_lookup,
                .lookup_ud = lookup_ud,
                .missing = missing,
                .missing_ud = missing_ud};
  size_t len = strlen(in);
  braces_scan(&x.br, in, len);
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  expand_range(&x, &b, 0, len, 0);
  free(x.br.open);
  free(x.br.close);
  return sb_take(&b);
}

char *expand_quote(const char *text) {
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  for (const char *p = text; *p; p++) {
    if (p[0] == '$' && p[1] == '{')
      sb_adds(&b, "${:-$}");
    else
      sb_addc(&b, *p);
  }
  return sb_take(&b);
}

typedef struct field_ctx {
  config *c;
  const char *src, *name, *path;
  const expand_rules *rules;
} field_ctx;

static bool withheld(const field_ctx *f, const char *var) {
  return f->rules && f->rules->allowed &&
         !f->rules->allowed(f->rules->allowed_ud, var);
}

static const char *rules_lookup(void *ud, const char *var) {
  field_ctx *f = ud;
  if (withheld(f, var)) {
    config_warn_server(
        f->c, f->name,
        "%s: server \"%s\": ${%s} not expanded: not in "
        "allowedEnvVars (%s) (at %s)",
        f->src, f->name, var,
        f->rules->allowed_origin ? f->rules->allowed_origin : "?", f->path);
    return NULL;
  }
  return getenv(var);
}

static void on_missing(void *ud, const char *var) {
  field_ctx *f = ud;
  if (withheld(f, var))
    return; /* said already */
  config_warn_server(f->c, f->name,
                     "%s: server \"%s\": ${%s} is not set and has no default; "
                     "left as written (at %s)",
                     f->src, f->name, var, f->path);
}

static const char *unset_lookup(void *ud, const char *var) {
  (void)ud;
  (void)var;
  return NULL;
}

/* What the file alone says of a URL: every variable unset (defaults
 * apply), then the references left without one removed, so that a
 * literal host reads as a URL ("http://h:${PORT}/" is "http://h:/") and
 * one from the environment reads as none. New string. */
static char *literal_url(const char *text) {
  char *fixed = expand_vars(text, unset_lookup, NULL, NULL, NULL);
  char *o = fixed;
  for (const char *p = fixed; *p;) {
    const char *close = strncmp(p, "${", 2) == 0 ? strchr(p, '}') : NULL;
    if (close) {
      p = close + 1;
    } else {
      *o++ = *p++;
    }
  }
  *o = '\0';
  return fixed;
}

static char *expand_item_text(field_ctx *f, const char *text) {
  return expand_vars(text, f->rules ? rules_lookup : NULL, f, on_missing, f);
}

static void expand_item(field_ctx *f, cJSON *item, const char *path) {
  if (!cJSON_IsString(item) || !strchr(item->valuestring, '$'))
    return;
  f->path = path;
  char *v = expand_item_text(f, item->valuestring);
  cJSON_SetValuestring(item, v);
  free(v);
}

/* "scheme://host" of `url` as libcurl reads it (the transports connect
 * by it; url_canon.h), new string, or NULL when it cannot be read. The
 * port may come from the environment. */
static char *origin_of(const char *url) {
  char why[200];
  char *c = url_canon(url, why, sizeof why);
  if (c) {
    char *auth = strstr(c, "://") + 3;
    auth[strcspn(auth, "/")] = '\0';
    char *colon = strrchr(auth, ':');
    char *bracket = strrchr(auth, ']');
    if (colon && (!bracket || colon > bracket)) {
      *colon = '\0';
    }
  }
  return c;
}

/* Whether `url` has the scheme and host of `fixed`; not when either
 * cannot be read as a URL. */
static bool same_scheme_host(const char *fixed, const char *url) {
  char *want = origin_of(fixed), *got = origin_of(url);
  bool same = want && got && strcmp(want, got) == 0;
  free(want);
  free(got);
  return same;
}

/* Expands "url" where the environment cannot move its scheme or host:
 * the URL as the file alone says it (literal_url) must have the same
 * scheme and host as the expanded one, both read by libcurl. */
static int expand_url_guarded(field_ctx *f, cJSON *item, const char *path) {
  if (!cJSON_IsString(item) || !strstr(item->valuestring, "${"))
    return 0;
  f->path = path;
  char *fixed = literal_url(item->valuestring);
  char *v = expand_item_text(f, item->valuestring);
  int rc = 0;
  if (!same_scheme_host(fixed, v)) {
    config_error(f->c,
                 "%s: server \"%s\": refused: a ${VAR} reference would "
                 "set the scheme or host of \"url\"; a project or plugin "
                 "server must name its host literally (at %s)",
                 f->src, f->name, path);
    rc = -1;
  } else {
    cJSON_SetValuestring(item, v);
  }
  free(fixed);
  free(v);
  return rc;
}

int config_expand_entry(config *c, const char *src, const char *where,
                        const char *name, cJSON *entry,
                        const expand_rules *rules) {
  field_ctx f = {.c = c, .src = src, .name = name, .rules = rules};
  int rc = 0;
  static const char *const scalars[] = {"command", "url"};
  for (size_t i = 0; i < 2; i++) {
    char *path = config_path_join(where, scalars[i]);
    cJSON *item = cJSON_GetObjectItemCaseSensitive(entry, scalars[i]);
    if (i == 1 && rules && rules->guard_url)
      rc = expand_url_guarded(&f, item, path);
    else
      expand_item(&f, item, path);
    free(path);
  }
  cJSON *a, *args = cJSON_GetObjectItemCaseSensitive(entry, "args");
  if (!cJSON_IsArray(args))
    args = NULL; /* a wrong type is the transport's to report */
  int i = 0;
  cJSON_ArrayForEach(a, args) {
    char *path = xasprintf("%s.args[%d]", where, i++);
    expand_item(&f, a, path);
    free(path);
  }
  static const char *const maps[] = {"env", "headers"};
  for (size_t m = 0; m < 2; m++) {
    cJSON *map = cJSON_GetObjectItemCaseSensitive(entry, maps[m]);
    if (!cJSON_IsObject(map))
      continue; /* a wrong type is the transport's to report */
    char *base = config_path_join(where, maps[m]);
    cJSON *v;
    cJSON_ArrayForEach(v, map) {
      char *path = config_path_join(base, v->string);
      expand_item(&f, v, path);
      free(path);
    }
    free(base);
  }
  return rc;
}
