#include "subst.h"

#include "alloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct var {
  char *name;        /* without ${ } */
  char *value;       /* scalar text, or NULL for a list */
  const cJSON *list; /* a list value (borrowed) */
} var;

typedef struct vars {
  var *v;
  size_t n;
} vars;

static void vars_add(vars *vs, const char *name, const char *value,
                     const cJSON *list) {
  vs->v = xrealloc(vs->v, (vs->n + 1) * sizeof *vs->v);
  vs->v[vs->n].name = xstrdup(name);
  vs->v[vs->n].value = value ? xstrdup(value) : NULL;
  vs->v[vs->n].list = list;
  vs->n++;
}

static void vars_free(vars *vs) {
  for (size_t i = 0; i < vs->n; i++) {
    free(vs->v[i].name);
    free(vs->v[i].value);
  }
  free(vs->v);
}

static const var *vars_find(const vars *vs, const char *name, size_t len) {
  for (size_t i = 0; i < vs->n; i++) {
    if (strlen(vs->v[i].name) == len &&
        strncmp(vs->v[i].name, name, len) == 0) {
      return &vs->v[i];
    }
  }
  return NULL;
}

/* One pass over `s`: each ${NAME} with a scalar variable is replaced by
 * its value, literally; the rest is copied. A new string. */
static char *expand(const vars *vs, const char *s) {
  size_t cap = strlen(s) + 1, len = 0;
  char *out = malloc(cap);
  if (!out) {
    abort();
  }
  while (*s) {
    const char *close = NULL;
    const var *v = NULL;
    if (s[0] == '$' && s[1] == '{' && (close = strchr(s + 2, '}'))) {
      v = vars_find(vs, s + 2, (size_t)(close - s - 2));
    }
    const char *piece = s;
    size_t plen = 1;
    if (v && v->value) {
      piece = v->value;
      plen = strlen(v->value);
      s = close + 1;
    } else {
      s++;
    }
    if (len + plen + 1 > cap) {
      cap = (len + plen + 1) * 2;
      char *grown = realloc(out, cap);
      if (!grown) {
        abort();
      }
      out = grown;
    }
    memcpy(out + len, piece, plen);
    len += plen;
  }
  out[len] = '\0';
  return out;
}

char *subst_scalar(const cJSON *value) {
  if (cJSON_IsString(value)) {
    return xstrdup(value->valuestring);
  }
  if (cJSON_IsBool(value)) {
    return xstrdup(cJSON_IsTrue(value) ? "true" : "false");
  }
  if (cJSON_IsNumber(value)) {
    char buf[64];
    double d = value->valuedouble;
    if (d == (double)(long long)d && d < 1e15 && d > -1e15) {
      snprintf(buf, sizeof buf, "%lld", (long long)d);
    } else {
      snprintf(buf, sizeof buf, "%.17g", d);
    }
    return xstrdup(buf);
  }
  return NULL;
}

/* A user value that counts as given: not null, not "", not an empty
 * list, no empty element. */
static bool given(const cJSON *v) {
  if (!v || cJSON_IsNull(v)) {
    return false;
  }
  if (cJSON_IsString(v)) {
    return v->valuestring[0] != '\0';
  }
  if (cJSON_IsArray(v)) {
    if (cJSON_GetArraySize(v) == 0) {
      return false;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
      if (!given(e)) {
        return false;
      }
    }
  }
  return true;
}

void subst_dirs_default(subst_dirs *d, char *buf, size_t n) {
  const char *home = getenv("HOME");
  if (!home || !*home) {
    home = "/";
  }
  size_t q = n / 4;
  snprintf(buf, q, "%s", home);
  snprintf(buf + q, q, "%s/Desktop", home);
  snprintf(buf + 2 * q, q, "%s/Documents", home);
  snprintf(buf + 3 * q, q, "%s/Downloads", home);
  d->home = buf;
  d->desktop = buf + q;
  d->documents = buf + 2 * q;
  d->downloads = buf + 3 * q;
}

/* The array `args` substituted into a new array. */
static cJSON *expand_args(const vars *vs, const cJSON *args) {
  cJSON *out = cJSON_CreateArray();
  const cJSON *a;
  cJSON_ArrayForEach(a, args) {
    if (!cJSON_IsString(a)) {
      continue;
    }
    const char *s = a->valuestring;
    size_t len = strlen(s);
    const var *v = NULL;
    if (strncmp(s, "${user_config.", 14) == 0 && len > 15 &&
        s[len - 1] == '}' && !memchr(s + 2, '}', len - 3)) {
      v = vars_find(vs, s + 2, len - 3);
    }
    if (v && v->list) {
      const cJSON *e;
      cJSON_ArrayForEach(e, v->list) {
        char *t = subst_scalar(e);
        cJSON_AddItemToArray(out, cJSON_CreateString(t ? t : ""));
        free(t);
      }
      continue;
    }
    if (v && v->value && !*v->value) {
      cJSON_AddItemToArray(out, cJSON_CreateString(s));
      continue;
    }
    char *t = expand(vs, s);
    cJSON_AddItemToArray(out, cJSON_CreateString(t));
    free(t);
  }
  return out;
}

cJSON *subst_server(const cJSON *manifest, const char *dirname,
                    const cJSON *values, const subst_dirs *dirs, char *why,
                    size_t n) {
  const cJSON *server = cJSON_GetObjectItemCaseSensitive(manifest, "server");
  const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(server, "mcp_config");
  const cJSON *command = cJSON_GetObjectItemCaseSensitive(cfg, "command");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(cfg, "args");
  const cJSON *env = cJSON_GetObjectItemCaseSensitive(cfg, "env");
  const cJSON *ov = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(cfg, "platform_overrides"), "linux");
  if (cJSON_IsObject(ov)) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(ov, "command");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(ov, "args");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(ov, "env");
    if (cJSON_IsString(c) && *c->valuestring) {
      command = c;
    }
    if (cJSON_IsArray(a)) {
      args = a;
    }
    if (cJSON_IsObject(e)) {
      env = e;
    }
  }
  if (!cJSON_IsString(command) || !*command->valuestring) {
    snprintf(why, n, "the manifest has no server.mcp_config.command");
    return NULL;
  }
  const cJSON *options =
      cJSON_GetObjectItemCaseSensitive(manifest, "user_config");
  const cJSON *o;
  cJSON_ArrayForEach(o, options) {
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "required")) &&
        !given(cJSON_GetObjectItemCaseSensitive(values, o->string))) {
      snprintf(why, n,
               "the required setting \"%s\" has no value (mcphost bundle "
               "configure NAME %s=VALUE)",
               o->string, o->string);
      return NULL;
    }
  }

  vars sys = {0};
  vars_add(&sys, "__dirname", dirname, NULL);
  vars_add(&sys, "HOME", dirs->home, NULL);
  vars_add(&sys, "DESKTOP", dirs->desktop, NULL);
  vars_add(&sys, "DOCUMENTS", dirs->documents, NULL);
  vars_add(&sys, "DOWNLOADS", dirs->downloads, NULL);
  vars_add(&sys, "pathSeparator", "/", NULL);
  vars_add(&sys, "/", "/", NULL);
  /* The user's values over the defaults, the defaults' own ${HOME}...
   * expanded first. `expanded` owns the defaults' new strings. */
  vars all = {0};
  for (size_t i = 0; i < sys.n; i++) {
    vars_add(&all, sys.v[i].name, sys.v[i].value, NULL);
  }
  cJSON *expanded = cJSON_CreateObject();
  cJSON_ArrayForEach(o, options) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(values, o->string);
    if (!v || cJSON_IsNull(v)) {
      const cJSON *def = cJSON_GetObjectItemCaseSensitive(o, "default");
      if (!def) {
        continue;
      }
      cJSON *copy;
      if (cJSON_IsString(def)) {
        char *t = expand(&sys, def->valuestring);
        copy = cJSON_CreateString(t);
        free(t);
      } else if (cJSON_IsArray(def)) {
        copy = cJSON_CreateArray();
        const cJSON *e;
        cJSON_ArrayForEach(e, def) {
          char *s = subst_scalar(e);
          char *t = expand(&sys, s ? s : "");
          cJSON_AddItemToArray(copy, cJSON_CreateString(t));
          free(t);
          free(s);
        }
      } else {
        copy = cJSON_Duplicate(def, 1);
      }
      cJSON_AddItemToObject(expanded, o->string, copy);
      v = copy;
    }
    char name[600];
    snprintf(name, sizeof name, "user_config.%s", o->string);
    char *s = subst_scalar(v);
    vars_add(&all, name, s, cJSON_IsArray(v) ? v : NULL);
    free(s);
  }
  /* Values for keys the manifest does not declare are ignored. */

  cJSON *out = cJSON_CreateObject();
  char *c = expand(&all, command->valuestring);
  cJSON_AddStringToObject(out, "command", c);
  free(c);
  cJSON_AddItemToObject(out, "args",
                        cJSON_IsArray(args) ? expand_args(&all, args)
                                            : cJSON_CreateArray());
  cJSON *envo = cJSON_CreateObject();
  const cJSON *e;
  cJSON_ArrayForEach(e, env) {
    if (cJSON_IsString(e)) {
      char *t = expand(&all, e->valuestring);
      cJSON_AddStringToObject(envo, e->string, t);
      free(t);
    }
  }
  cJSON_AddItemToObject(out, "env", envo);
  cJSON_Delete(expanded);
  vars_free(&all);
  vars_free(&sys);
  return out;
}
