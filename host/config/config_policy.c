#include "config/config_policy.h"

#include <ctype.h>

#include <stdlib.h>
#include <string.h>

#include "config/config_approval.h"
#include "util.h"
#include "url_canon.h"

void policy_init(config_policy *p) {
  memset(p, 0, sizeof *p);
}

static void entries_free(policy_entry *e, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(e[i].pattern);
    cJSON_Delete(e[i].command);
    free(e[i].origin);
    free(e[i].text);
  }
  free(e);
}

static void names_free(name_list *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->names[i]);
    free(l->origins[i]);
  }
  free(l->names);
  free(l->origins);
}

void policy_free(config_policy *p) {
  entries_free(p->allow, p->nallow);
  entries_free(p->deny, p->ndeny);
  for (size_t s = 0; s <= SCOPE_LAST; s++)
    free(p->allow_origin[s]);
  free(p->fail_closed);
  names_free(&p->disabled);
  names_free(&p->approved);
  names_free(&p->approved_everywhere);
  names_free(&p->rejected);
  names_free(&p->approve_cli_files);
  names_free(&p->env_allowed[0]);
  names_free(&p->env_allowed[1]);
  free(p->env_allowed_origin);
  for (size_t k = 0; k < 2; k++) {
    cJSON_Delete(p->secrets_allowed[k]);
    free(p->secrets_origin[k]);
  }
  free(p->home);
  cJSON_Delete(p->bound);
  free(p->approve_all_origin);
  policy_init(p);
}

/* One entry: a string (a name) or an object with exactly one of
 * serverName, serverCommand, serverUrl. */
static bool parse_entry(policy_entry *pe, config *c, const cJSON *it,
                        const char *src, const char *path) {
  if (cJSON_IsString(it) && it->valuestring[0]) {
    pe->kind = PE_NAME;
    pe->pattern = xstrdup(it->valuestring);
    return true;
  }
  if (!cJSON_IsObject(it) || cJSON_GetArraySize(it) != 1) {
    config_error(c,
                 "%s: a policy entry must be an object with exactly one "
                 "of \"serverName\", \"serverCommand\", \"serverUrl\" (at "
                 "%s)",
                 src, path);
    return false;
  }
  const cJSON *v = it->child;
  if (strcmp(v->string, "serverName") == 0 ||
      strcmp(v->string, "serverUrl") == 0) {
    if (!cJSON_IsString(v) || v->valuestring[0] == '\0') {
      config_error(c, "%s: \"%s\" must be a non-empty string (at %s.%s)", src,
                   v->string, path, v->string);
      return false;
    }
    pe->kind = v->string[6] == 'N' ? PE_NAME : PE_URL;
    pe->pattern = xstrdup(v->valuestring);
    return true;
  }
  if (strcmp(v->string, "serverCommand") == 0) {
    bool ok = cJSON_IsArray(v) && cJSON_GetArraySize(v) > 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, v) ok = ok && cJSON_IsString(a);
    if (!ok) {
      config_error(c,
                   "%s: \"serverCommand\" must be a non-empty array of "
                   "strings (at %s.serverCommand)",
                   src, path);
      return false;
    }
    pe->kind = PE_COMMAND;
    pe->command = cJSON_Duplicate(v, 1);
    return true;
  }
  config_error(c,
               "%s: unknown policy key \"%s\": use \"serverName\", "
               "\"serverCommand\" or \"serverUrl\" (at %s)",
               src, v->string, path);
  return false;
}

void policy_load_list(config_policy *p, config *c, const cJSON *list,
                      bool allow, config_scope scope, const char *src,
                      const char *where) {
  if (!cJSON_IsArray(list)) {
    config_error(c, "%s: \"%s\" must be an array (at %s)", src,
                 allow ? "allowedMcpServers" : "deniedMcpServers", where);
    /* A broken allow list allows nothing rather than everything. */
    if (!allow)
      return;
  }
  if (allow && !p->allow_set[scope]) {
    p->allow_set[scope] = true;
    p->allow_origin[scope] = xasprintf("%s: %s", src, where);
  }
  int i = 0;
  const cJSON *it, *items = cJSON_IsArray(list) ? list : NULL;
  cJSON_ArrayForEach(it, items) {
    char *path = xasprintf("%s[%d]", where, i++);
    policy_entry pe = {.scope = scope};
    if (parse_entry(&pe, c, it, src, path)) {
      pe.origin = xasprintf("%s: %s", src, path);
      pe.text = cJSON_PrintUnformatted(it);
      policy_entry **arr = allow ? &p->allow : &p->deny;
      size_t *n = allow ? &p->nallow : &p->ndeny;
      *arr = xrealloc(*arr, (*n + 1) * sizeof **arr);
      (*arr)[(*n)++] = pe;
    }
    free(path);
  }
}

void policy_names_add(name_list *l, const char *name, const char *origin) {
  l->names = xrealloc(l->names, (l->n + 1) * sizeof *l->names);
  l->origins = xrealloc(l->origins, (l->n + 1) * sizeof *l->origins);
  l->names[l->n] = xstrdup(name);
  l->origins[l->n++] = xstrdup(origin);
}

void policy_load_names(name_list *l, config *c, const cJSON *list,
                       const char *what, const char *src, const char *where) {
  if (!cJSON_IsArray(list)) {
    config_error(c, "%s: must be an array of %s names (at %s)", src, what,
                 where);
    return;
  }
  int i = 0;
  const cJSON *it;
  cJSON_ArrayForEach(it, list) {
    if (!cJSON_IsString(it)) {
      config_error(c, "%s: a %s name must be a string (at %s[%d])", src, what,
                   where, i);
    } else {
      char *origin = xasprintf("%s: %s[%d]", src, where, i);
      policy_names_add(l, it->valuestring, origin);
      free(origin);
    }
    i++;
  }
}

static const char *names_find(const name_list *l, const char *name) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->names[i], name) == 0)
      return l->origins[i];
  return NULL;
}

/* The inner URL of a proxy URL (…?mcp_url=<percent-encoded>), new
 * string, or NULL. */
static char *unwrap_proxy_url(const char *url) {
  const char *q = strchr(url, '?');
  if (!q)
    return NULL;
  for (const char *p = q + 1; *p;) {
    size_t n = strcspn(p, "&#");
    if (n > 8 && strncmp(p, "mcp_url=", 8) == 0) {
      strbuf b;
      sb_init(&b);
      for (size_t i = 8; i < n; i++) {
        int hi, lo;
        if (p[i] == '%' && i + 2 < n &&
            (hi = hex_digit((unsigned char)p[i + 1])) >= 0 &&
            (lo = hex_digit((unsigned char)p[i + 2])) >= 0) {
          sb_addc(&b, (char)(hi << 4 | lo));
          i += 2;
        } else {
          sb_addc(&b, p[i] == '+' ? ' ' : p[i]);
        }
      }
      return sb_take(&b);
    }
    p += n;
    if (*p != '&')
      break;
    p++;
  }
  return NULL;
}

/* The pattern with its scheme and host in lower case, as url_canon
 * gives URLs (new string). */
static char *pattern_canon(const char *pattern) {
  char *p = xstrdup(pattern);
  char *sep = strstr(p, "://");
  char *end = sep ? sep + 3 + strcspn(sep + 3, "/?#") : p;
  for (char *c = p; c < end; c++) {
    *c = (char)tolower((unsigned char)*c);
  }
  return p;
}

bool policy_url_match(const char *pattern, const char *url) {
  char why[200];
  char *canon = url_canon(url, why, sizeof why);
  if (!canon) {
    return false;
  }
  char *pat = pattern_canon(pattern);
  bool m = glob_match(pat, canon);
  /* "https://host" names the same server as "https://host/". */
  size_t n = strlen(canon);
  if (!m && n > 0 && canon[n - 1] == '/' &&
      strchr(strstr(canon, "://") + 3, '/') == canon + n - 1) {
    canon[n - 1] = '\0';
    m = glob_match(pat, canon);
  }
  free(pat);
  free(canon);
  return m;
}

static const char *entry_url(const server_config *s) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s->json, "url"));
}

/* [command, args...] of a stdio server (new array), or NULL. */
static cJSON *command_array(const server_config *s) {
  const char *cmd = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(s->json, "command"));
  if (strcmp(s->type, "stdio") != 0 || !cmd)
    return NULL;
  cJSON *a = cJSON_CreateArray();
  cJSON_AddItemToArray(a, cJSON_CreateString(cmd));
  const cJSON *arg;
  cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(s->json, "args"))
      cJSON_AddItemToArray(a, cJSON_Duplicate(arg, 1));
  return a;
}

static bool entry_matches(const policy_entry *pe, const server_config *s,
                          bool deny) {
  switch (pe->kind) {
  case PE_NAME: return glob_match(pe->pattern, s->name);
  case PE_COMMAND: {
    cJSON *a = command_array(s);
    bool m = a && cJSON_Compare(a, pe->command, 1);
    cJSON_Delete(a);
    return m;
  }
  case PE_URL: {
    const char *url = entry_url(s);
    if (!url)
      return false;
    /* As libcurl reads it (the transports connect by it); a deny entry
     * also catches the text as written. */
    if (policy_url_match(pe->pattern, url) ||
        (deny && glob_match(pe->pattern, url)))
      return true;
    /* A proxy wrapper must not hide a denied URL; it does not earn an
     * allowed one either (the connection goes to the proxy). */
    char *inner = deny ? unwrap_proxy_url(url) : NULL;
    bool m = inner && policy_url_match(pe->pattern, inner);
    free(inner);
    return m;
  }
  }
  return false;
}

/* Whether a list holds a serverUrl entry. */
static bool has_url_rule(const policy_entry *e, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (e[i].kind == PE_URL)
      return true;
  return false;
}

/* Why the allow/deny lists refuse `s` (new string), or NULL. */
static char *policy_refusal(const config_policy *p, const server_config *s) {
  if (p->fail_closed)
    return xstrdup(p->fail_closed);
  const char *url = entry_url(s);
  if (url &&
      (has_url_rule(p->deny, p->ndeny) || has_url_rule(p->allow, p->nallow))) {
    /* No rule can be applied to what cannot be read: fail closed. */
    char why[200];
    char *canon = url_canon(url, why, sizeof why);
    if (!canon)
      return xasprintf("its url cannot be checked against the serverUrl "
                       "policy: %s",
                       why);
    free(canon);
  }
  for (size_t i = 0; i < p->ndeny; i++)
    if (entry_matches(&p->deny[i], s, true))
      return xasprintf("denied by deniedMcpServers entry %s (%s)",
                       p->deny[i].text, p->deny[i].origin);
  bool any = false;
  strbuf where;
  sb_init(&where);
  for (int sc = SCOPE_ENTERPRISE; sc <= SCOPE_LAST; sc++) {
    if (!p->allow_set[sc] || (p->managed_only && sc != SCOPE_ENTERPRISE))
      continue;
    sb_printf(&where, "%s%s", any ? "; " : "", p->allow_origin[sc]);
    any = true;
  }
  if (!any) {
    sb_free(&where);
    return NULL; /* no allow list: all allowed */
  }
  size_t considered = 0;
  for (size_t i = 0; i < p->nallow; i++) {
    const policy_entry *pe = &p->allow[i];
    if (p->managed_only && pe->scope != SCOPE_ENTERPRISE)
      continue;
    considered++;
    if (entry_matches(pe, s, false)) {
      sb_free(&where);
      return NULL;
    }
  }
  char *why = considered == 0
                  ? xasprintf("not allowed: allowedMcpServers is empty (%s)",
                              sb_str(&where))
                  : xasprintf("not in allowedMcpServers (%s)", sb_str(&where));
  sb_free(&where);
  return why;
}

bool policy_env_allowed(const config_policy *p, const char *var) {
  for (size_t k = 0; k < 2; k++) {
    if (!p->env_allowed_set[k])
      continue;
    bool ok = false;
    for (size_t i = 0; i < p->env_allowed[k].n && !ok; i++)
      ok = glob_match(p->env_allowed[k].names[i], var);
    if (!ok)
      return false;
  }
  return true;
}

/* Whether `v` is an array of non-empty strings; else an error at
 * `where`.`key`. */
static bool strings_ok(config *c, const cJSON *v, const char *key,
                       const char *src, const char *where) {
  bool ok = cJSON_IsArray(v);
  const cJSON *it;
  cJSON_ArrayForEach(it, (ok ? v : NULL)) ok =
      ok && cJSON_IsString(it) && it->valuestring[0];
  if (!ok)
    config_error(c,
                 "%s: \"%s\" must be an array of non-empty strings (at "
                 "%s.%s)",
                 src, key, where, key);
  return ok;
}

void policy_load_secrets(config_policy *p, config *c, const cJSON *v, size_t k,
                         const char *src, const char *where) {
  if (!cJSON_IsObject(v)) {
    config_error(c,
                 "%s: \"allowedServerSecrets\" must be an object of "
                 "server names (at %s)",
                 src, where);
    return;
  }
  cJSON *kept = cJSON_CreateObject();
  const cJSON *srv;
  cJSON_ArrayForEach(srv, v) {
    char *path = config_path_join(where, srv->string);
    bool ok = cJSON_IsObject(srv);
    if (!ok)
      config_error(c,
                   "%s: must be an object with \"envVars\", \"files\" "
                   "or \"xaa\" (at %s)",
                   src, path);
    const cJSON *it;
    cJSON_ArrayForEach(it, (ok ? srv : NULL)) {
      if (strcmp(it->string, "envVars") == 0) {
        ok = strings_ok(c, it, it->string, src, path) && ok;
      } else if (strcmp(it->string, "files") == 0) {
        ok = strings_ok(c, it, it->string, src, path) && ok;
        const cJSON *f;
        cJSON_ArrayForEach(f, (ok ? it : NULL)) {
          if (f->valuestring[0] != '/' && !str_starts(f->valuestring, "~/")) {
            config_error(c,
                         "%s: \"%s\": a file must be an absolute or "
                         "\"~/\" path (at %s.files)",
                         src, f->valuestring, path);
            ok = false;
          }
        }
      } else if (strcmp(it->string, "xaa") == 0) {
        if (!cJSON_IsBool(it)) {
          config_error(c, "%s: \"xaa\" must be true or false (at %s.xaa)", src,
                       path);
          ok = false;
        }
      } else {
        config_error(c,
                     "%s: unknown key \"%s\": use \"envVars\", "
                     "\"files\" or \"xaa\" (at %s)",
                     src, it->string, path);
        ok = false;
      }
    }
    if (ok)
      cJSON_AddItemToObject(kept, srv->string, cJSON_Duplicate(srv, 1));
    free(path);
  }
  cJSON_Delete(p->secrets_allowed[k]);
  p->secrets_allowed[k] = kept;
  free(p->secrets_origin[k]);
  p->secrets_origin[k] = xasprintf("%s: %s", src, where);
}

/* Whether the allowed path `pattern` ("~/" for the home directory) is
 * the file `path`: the same file once links are resolved, or the same
 * text when either cannot be resolved. */
static bool same_file(const char *home, const char *pattern, const char *path) {
  char *want = str_starts(pattern, "~/") && home
                   ? xasprintf("%s/%s", home, pattern + 2)
                   : xstrdup(pattern);
  char *a = realpath(want, NULL), *b = realpath(path, NULL);
  bool same = a && b ? strcmp(a, b) == 0 : strcmp(want, path) == 0;
  free(a);
  free(b);
  free(want);
  return same;
}

const char *policy_secret_allowed(const config_policy *p, const char *name,
                                  const cJSON *r) {
  const char *kind =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "kind"));
  const char *value =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "value"));
  if (!kind || !value)
    return NULL;
  for (size_t k = 0; k < 2; k++) {
    const cJSON *srv =
        cJSON_GetObjectItemCaseSensitive(p->secrets_allowed[k], name);
    bool ok = false;
    const cJSON *it;
    if (strcmp(kind, "variable") == 0) {
      cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(srv, "envVars"))
          ok = ok || glob_match(it->valuestring, value);
    } else if (strcmp(kind, "file") == 0) {
      cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(srv, "files"))
          ok = ok || same_file(p->home, it->valuestring, value);
    } else if (strcmp(kind, "identity provider") == 0) {
      ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(srv, "xaa"));
    }
    if (ok)
      return p->secrets_origin[k];
  }
  return NULL;
}

/* A project server's approval state, bound to its entry. */
static void apply_project(const config_policy *p, config *c, server_config *s) {
  const char *origin = names_find(&p->rejected, s->name);
  if (origin) {
    s->state = SERVER_REJECTED;
    s->reason = xasprintf("project server rejected (%s); \"mcphost mcp "
                          "approve %s\" approves it",
                          origin, s->name);
    return;
  }
  const char *by_name = names_find(&p->approved, s->name);
  const char *everywhere = names_find(&p->approved_everywhere, s->name);
  const char *blanket = everywhere ? everywhere : p->approve_all_origin;
  bool covered = names_find(&p->approve_cli_files, s->source) != NULL;
  bool cli = covered && p->approve_cli;
  const cJSON *rec = cJSON_GetObjectItemCaseSensitive(p->bound, s->name);
  char *what = approval_summary(s->raw, s->file_perms, "; ");
  if ((by_name || blanket) && rec) {
    if (approval_matches(rec, s->source, s->raw, s->file_perms))
      goto out; /* approved as it is */
    const char *unchecked = approval_unavailable();
    if (unchecked && !cli) {
      s->state = SERVER_PENDING;
      s->reason = xasprintf("project server from %s: its approval cannot be "
                            "checked (%s)",
                            s->source, unchecked);
      goto out;
    }
    free(s->changes);
    s->changes = approval_diff(rec, s->source, s->raw, s->file_perms);
    if (!cli) {
      s->state = SERVER_PENDING;
      s->reason = xasprintf(
          "project server from %s changed since approval (%s); it now "
          "runs %s; run \"mcphost mcp approve %s\" to approve it as it is",
          s->source, s->changes, what, s->name);
    }
    goto out;
  }
  if (by_name && !cli) {
    /* A name alone (an older mcphost, a hand edit, Claude Code) says
     * nothing of what was approved: shown, and approved again. */
    s->state = SERVER_PENDING;
    s->reason = xasprintf(
        "project server from %s was approved by name only (%s), with no "
        "record of what it runs; it runs %s: run \"mcphost mcp approve "
        "%s\" to approve it as it is",
        s->source, by_name, what, s->name);
    goto out;
  }
  if (blanket && !by_name) {
    /* A blanket switch approves whatever a server runs, in every
     * repository. It binds entries only where this repository's servers
     * were approved one by one before (a record of approvals exists) or
     * --approve-project speaks for them; a first use elsewhere is
     * pending (docs/security.md). */
    const char *switch_name = everywhere
                                  ? "enabledMcpjsonServers at the top level "
                                    "of the settings, a name approved in "
                                    "every repository"
                                  : "enableAllProjectMcpServers";
    const char *unchecked = approval_unavailable();
    if (cli || (cJSON_GetArraySize(p->bound) > 0 && !unchecked)) {
      s->bind_approval = !unchecked;
      config_warn_server(
          c, s->name,
          "%s: project server \"%s\" approved by %s (%s), whatever "
          "it runs; approving it now as: %s",
          s->source, s->name, switch_name, blanket, what);
      goto out;
    }
    char *because =
        unchecked ? xasprintf("approvals cannot be checked (%s)", unchecked)
                  : xstrdup("it is honoured only in a repository where "
                            "\"mcphost mcp approve\" was used");
    s->state = SERVER_PENDING;
    s->reason = xasprintf(
        "project server from %s: %s (%s) approves it whatever it runs, but "
        "%s; it runs %s: run \"mcphost mcp approve %s\"%s",
        s->source, switch_name, blanket, because, what, s->name,
        covered ? " (or pass --approve-project)" : "");
    free(because);
    goto out;
  }
  if (cli)
    goto out;
  s->state = SERVER_PENDING;
  s->reason = xasprintf("project server from %s awaiting approval (it runs "
                        "%s): run \"mcphost mcp approve %s\"%s",
                        s->source, what, s->name,
                        covered ? " (or pass --approve-project)" : "");
out:
  free(what);
}

void policy_apply(const config_policy *p, config *c, server_config *s) {
  free(s->reason);
  s->reason = NULL;
  s->state = SERVER_ACTIVE;
  s->bind_approval = false;
  free(s->changes);
  s->changes = NULL;
  char *why = policy_refusal(p, s);
  if (why) {
    s->state = SERVER_DENIED;
    s->reason = why;
    return;
  }
  const char *origin = names_find(&p->disabled, s->name);
  if (origin) {
    s->state = SERVER_DISABLED;
    s->reason = xasprintf("disabled in disabledMcpServers (%s)", origin);
    return;
  }
  if (s->scope == SCOPE_PROJECT)
    apply_project(p, c, s);
}

const char *policy_reserved(const char *name, config_scope scope) {
  if (scope != SCOPE_PLUGIN && str_starts(name, "plugin:"))
    return "names starting with \"plugin:\" are reserved for servers that "
           "plugins provide";
  if (scope != SCOPE_PLUGIN && str_starts(name, CONFIG_CLAUDEAI_PREFIX))
    return "names starting with \"" CONFIG_CLAUDEAI_PREFIX "\" are reserved "
           "for claude.ai connectors";
  return NULL;
}

char *policy_signature(const server_config *s) {
  cJSON *cmd = command_array(s);
  if (cmd) {
    char *text = cJSON_PrintUnformatted(cmd);
    char *sig = xasprintf("stdio:%s", text);
    cJSON_free(text);
    cJSON_Delete(cmd);
    return sig;
  }
  const char *url = entry_url(s);
  if (!url)
    return NULL;
  char *inner = unwrap_proxy_url(url);
  char *sig = xasprintf("url:%s", inner ? inner : url);
  free(inner);
  return sig;
}
