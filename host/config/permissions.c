#include "config/permissions.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

perm_rules *perm_rules_new(void) {
  return xcalloc(1, sizeof(perm_rules));
}

void perm_rules_free(perm_rules *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->n; i++) {
    free(r->rules[i].pattern);
    free(r->rules[i].origin);
    free(r->rules[i].file);
  }
  free(r->rules);
  for (size_t s = 0; s <= SCOPE_LAST; s++)
    free(r->default_origin[s]);
  for (size_t i = 0; i < r->nproject_defaults; i++) {
    free(r->project_defaults[i].file);
    free(r->project_defaults[i].origin);
  }
  free(r->project_defaults);
  free(r);
}

const char *perm_kind_name(perm_kind k) {
  switch (k) {
  case PERM_ALLOW: return "allow";
  case PERM_ASK: return "ask";
  case PERM_DENY: return "deny";
  }
  return "?";
}

static bool parse_kind(const char *s, perm_kind *out) {
  for (perm_kind k = PERM_ALLOW; k <= PERM_DENY; k++)
    if (strcmp(s, perm_kind_name(k)) == 0) {
      *out = k;
      return true;
    }
  return false;
}

void perm_rules_load(perm_rules *r, config *c, const cJSON *permissions,
                     config_scope scope, const char *src, const char *where) {
  if (!cJSON_IsObject(permissions)) {
    config_error(c, "%s: \"permissions\" must be an object (at %s)", src,
                 where);
    return;
  }
  for (perm_kind k = PERM_ALLOW; k <= PERM_DENY; k++) {
    const char *key = perm_kind_name(k);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(permissions, key);
    if (!list)
      continue;
    if (!cJSON_IsArray(list)) {
      config_error(c,
                   "%s: \"%s\" must be an array of rule strings (at "
                   "%s.%s)",
                   src, key, where, key);
      continue;
    }
    int i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, list) {
      if (!cJSON_IsString(it) || it->valuestring[0] == '\0') {
        config_error(c,
                     "%s: a permission rule must be a non-empty string "
                     "(at %s.%s[%d])",
                     src, where, key, i);
      } else if (!str_starts(it->valuestring, "mcp__")) {
        /* Claude Code's settings also hold rules for its built-in tools
         * (Bash(...), Read, ...): not ours, and not an error. */
        config_note(c,
                    "%s: permission rule \"%s\" ignored: not an MCP tool "
                    "(at %s.%s[%d])",
                    src, it->valuestring, where, key, i);
      } else {
        r->rules = xrealloc(r->rules, (r->n + 1) * sizeof *r->rules);
        r->rules[r->n++] = (perm_rule){
            .pattern = xstrdup(it->valuestring),
            .kind = k,
            .scope = scope,
            .file = scope == SCOPE_PROJECT ? xstrdup(src) : NULL,
            .origin = xasprintf("%s settings %s: %s.%s[%d]",
                                config_scope_name(scope), src, where, key, i)};
      }
      i++;
    }
  }
  const cJSON *def = cJSON_GetObjectItemCaseSensitive(permissions, "default");
  if (def) {
    perm_kind k;
    if (!cJSON_IsString(def) || !parse_kind(def->valuestring, &k)) {
      config_error(c,
                   "%s: \"default\" must be \"allow\", \"ask\" or \"deny\" "
                   "(at %s.default)",
                   src, where);
    } else if (scope == SCOPE_PROJECT) {
      r->project_defaults =
          xrealloc(r->project_defaults,
                   (r->nproject_defaults + 1) * sizeof *r->project_defaults);
      r->project_defaults[r->nproject_defaults++] = (perm_file_default){
          .file = xstrdup(src),
          .kind = k,
          .origin = xasprintf("%s settings %s: %s.default",
                              config_scope_name(scope), src, where)};
    } else if (!r->set[scope] || k > r->defaults[scope]) {
      r->set[scope] = true;
      r->defaults[scope] = k;
      free(r->default_origin[scope]);
      r->default_origin[scope] = xasprintf(
          "%s settings %s: %s.default", config_scope_name(scope), src, where);
    }
  }
}

/* A byte of a tool name as normalized: [A-Za-z0-9_-] or '_' (one per
 * UTF-8 character, as name_normalize does). Returns the bytes consumed. */
static size_t norm_char(const char *p, char *out) {
  unsigned char ch = (unsigned char)*p;
  if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '*') {
    *out = (char)ch;
    return 1;
  }
  *out = '_';
  size_t n = 1;
  if (ch >= 0xC0)
    while ((((unsigned char)p[n]) & 0xC0) == 0x80)
      n++;
  return n;
}

static char *normalize_pattern(const char *pattern) {
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  for (const char *p = pattern; *p;) {
    char ch;
    p += norm_char(p, &ch);
    sb_addc(&b, ch);
  }
  /* "mcp__server" alone names every tool of the server. */
  if (!strchr(b.data + 5, '*') && !strstr(b.data + 5, "__"))
    sb_adds(&b, "__*");
  return sb_take(&b);
}

bool perm_pattern_match(const char *pattern, const char *qualified) {
  if (!str_starts(pattern, "mcp__"))
    return false;
  char *p = normalize_pattern(pattern);
  bool m = glob_match(p, qualified);
  free(p);
  return m;
}

/* A project file's rules speak only for the approved servers it
 * defines itself. */
static bool in_effect(config_scope scope, const char *file,
                      const server_config *sc) {
  if (scope != SCOPE_PROJECT)
    return true;
  return sc && sc->scope == SCOPE_PROJECT && sc->state == SERVER_ACTIVE &&
         file && sc->source && strcmp(file, sc->source) == 0;
}

/* The `default` of scope `s` that governs `sc`: *kind and *origin; false
 * when that scope gives none. */
static bool scope_default(const perm_rules *r, int s, const server_config *sc,
                          perm_kind *kind, const char **origin) {
  if (s != SCOPE_PROJECT) {
    if (!r->set[s])
      return false;
    *kind = r->defaults[s];
    *origin = r->default_origin[s];
    return true;
  }
  for (size_t i = 0; i < r->nproject_defaults; i++) {
    const perm_file_default *d = &r->project_defaults[i];
    if (in_effect(SCOPE_PROJECT, d->file, sc)) {
      *kind = d->kind;
      *origin = d->origin;
      return true;
    }
  }
  return false;
}

static const perm_rule *first_match(const perm_rules *r, perm_kind k,
                                    const char *qualified,
                                    const server_config *sc, int max_scope) {
  const perm_rule *best = NULL;
  for (size_t i = 0; i < r->n; i++) {
    const perm_rule *rule = &r->rules[i];
    if (rule->kind != k || (int)rule->scope > max_scope ||
        !in_effect(rule->scope, rule->file, sc) ||
        !perm_pattern_match(rule->pattern, qualified))
      continue;
    /* Report the rule of the highest scope: it is the one that binds. */
    if (!best || rule->scope < best->scope)
      best = rule;
  }
  return best;
}

perm_verdict perm_decide(const perm_rules *r, const char *qualified,
                         const server_config *sc) {
  perm_verdict v = {.kind = PERM_ALLOW};
  if (!r)
    return v;
  const perm_rule *rule =
      first_match(r, PERM_DENY, qualified, sc, SCOPE_LAST);
  if (!rule)
    rule = first_match(r, PERM_ASK, qualified, sc, SCOPE_LAST);
  if (rule) {
    v.kind = rule->kind;
    v.rule = rule;
    return v;
  }
  /* The strictest default, and the highest scope that tightened it. */
  perm_kind def = PERM_ALLOW;
  int lock = -1;
  const char *origin = NULL;
  for (int s = SCOPE_ENTERPRISE; s <= SCOPE_LAST; s++) {
    perm_kind k;
    const char *o;
    if (!scope_default(r, s, sc, &k, &o) || k == PERM_ALLOW)
      continue;
    if (lock < 0)
      lock = s;
    if (k > def) {
      def = k;
      origin = o;
    }
  }
  if (lock < 0)
    return v;
  rule = first_match(r, PERM_ALLOW, qualified, sc, lock);
  if (rule) {
    v.rule = rule;
    return v;
  }
  v.kind = def;
  v.default_origin = origin;
  return v;
}

char *perm_describe(const perm_verdict *v) {
  if (v->rule)
    return xasprintf("%s rule \"%s\" (%s)", perm_kind_name(v->rule->kind),
                     v->rule->pattern, v->rule->origin);
  if (v->default_origin)
    return xasprintf("default \"%s\" (%s)", perm_kind_name(v->kind),
                     v->default_origin);
  return xstrdup("no rule matched: allowed by default");
}
