#include "config/config_scopes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config_approval.h"
#include "config/config_expand.h"
#include "config/config_policy.h"
#include "config/config_trust.h"
#include "config/permissions.h"
#include "util.h"
#include "settings_paths.h"

/* ---- paths ---- */

static char *user_settings_default(void) {
  char *home = user_home();
  char *path = settings_user_file(home);
  free(home);
  if (!path) {
    fputs("mcphost: out of memory\n", stderr); /* as the x* allocators */
    abort();
  }
  return path;
}

static char *dir_file(const char *dir, const char *file) {
  size_t n = strlen(dir);
  /* path_join adds the '/' (and costs no printf: a start makes some
   * ten of these); "/" has its own. */
  return n && dir[n - 1] == '/' ? str_concat(dir, file) : path_join(dir, file);
}

/* Whether an --mcp-config argument is JSON text (its first character
 * past blanks is "{"), not a file's path. Not strspn(): see trusted_fs.c's
 * past_slashes(). */
static bool json_text(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
    s++;
  }
  return *s == '{';
}

void config_paths_init(config_paths *p, const config_sources *o) {
  memset(p, 0, sizeof *p);
  /* getcwd's own allocation, not a PATH_MAX buffer here: with the calls
   * below it, that made this the deepest stack of every command's start
   * (one page more resident). */
  p->cwd = o->cwd ? xstrdup(o->cwd) : getcwd(NULL, 0);
  /* getcwd() names the directory as the kernel reaches it, with no link,
   * "." or ".." in it: realpath() would only ask each component again (a
   * readlink each). A directory given is resolved. */
  char *real = o->cwd ? realpath(p->cwd, NULL) : NULL;
  if (!p->cwd) {
    p->cwd = xstrdup("/");
  }
  p->project_key = real ? real : xstrdup(p->cwd);
  char *home = o->home ? xstrdup(o->home) : user_home();
  p->home = home && *home ? home : xstrdup("/");
  if (home && !*home) {
    free(home);
  }
  p->user_settings =
      o->user_settings ? xstrdup(o->user_settings) : user_settings_default();
  const char *sys = o->system_dir;
  p->system_dir = xstrdup(sys && *sys ? sys : settings_system_dir());
  p->managed_mcp = dir_file(p->system_dir, CONFIG_MANAGED_MCP);
  p->managed_settings = dir_file(p->system_dir, CONFIG_MANAGED_SETTINGS);

  const char *scope_files[] = {p->user_settings, p->managed_mcp,
                               p->managed_settings};
  for (size_t i = 0; i < 3 + o->nmcp_configs; i++) {
    const char *f = i < 3 ? scope_files[i] : o->mcp_configs[i - 3];
    if (json_text(f))
      continue; /* JSON text on the command line, not a file */
    p->scope_files =
        xrealloc(p->scope_files, (p->nscope_files + 1) * sizeof(char *));
    p->scope_files[p->nscope_files++] = xstrdup(f);
  }

  /* The working directory and its parents, up to the repository root,
   * $HOME, the file-system boundary or the root. $HOME and its parents
   * are never a repository root: a dotfiles repository in $HOME would
   * make the user's own settings part of every project's tree. */
  char *home_real = realpath(p->home, NULL);
  char *dir = xstrdup(p->project_key);
  /* The last directory's stat, as the next one's parent: one stat a
   * level, not two. */
  struct stat here;
  bool here_known = false;
  for (;;) {
    p->project_files =
        xrealloc(p->project_files, (p->nproject_files + 1) * sizeof(char *));
    p->project_files[p->nproject_files++] = dir_file(dir, CONFIG_PROJECT_FILE);
    bool home_or_above = trust_path_within(p->home, dir) ||
                         (home_real && trust_path_within(home_real, dir));
    char *git = dir_file(dir, ".git");
    struct stat st;
    bool repo = !home_or_above && lstat(git, &st) == 0;
    free(git);
    if (repo) {
      p->repo_root = xstrdup(dir);
      break;
    }
    if (strcmp(dir, "/") == 0 || strcmp(dir, p->home) == 0 ||
        (home_real && strcmp(dir, home_real) == 0))
      break;
    char *parent = xstrdup(dir);
    char *slash = strrchr(parent, '/');
    if (!slash) {
      free(parent);
      break;
    }
    if (slash == parent)
      slash[1] = '\0';
    else
      *slash = '\0';
    struct stat up;
    if (!here_known) {
      here_known = stat(dir, &here) == 0;
    }
    bool up_known = stat(parent, &up) == 0;
    bool boundary = here_known && up_known && here.st_dev != up.st_dev;
    here = up;
    here_known = up_known;
    free(dir);
    dir = parent;
    if (boundary)
      break;
  }
  free(dir);
  free(home_real);
}

char *config_project_tree(const config_paths *p, const char *file) {
  if (p->repo_root)
    return xstrdup(p->repo_root);
  const char *slash = strrchr(file, '/');
  if (!slash || slash == file)
    return xstrdup("/");
  return xstrndup(file, (size_t)(slash - file));
}

void config_paths_free(config_paths *p) {
  free(p->cwd);
  free(p->project_key);
  free(p->home);
  free(p->user_settings);
  free(p->system_dir);
  free(p->managed_mcp);
  free(p->managed_settings);
  for (size_t i = 0; i < p->nproject_files; i++)
    free(p->project_files[i]);
  free(p->project_files);
  free(p->repo_root);
  for (size_t i = 0; i < p->nscope_files; i++)
    free(p->scope_files[i]);
  free(p->scope_files);
  memset(p, 0, sizeof *p);
}

int config_project_file_foreign(const config_paths *p, const char *file,
                                int fd, char *why, size_t why_len) {
  struct stat st;
  if ((fd >= 0 ? fstat(fd, &st) : stat(file, &st)) < 0)
    return 0;
  for (size_t i = 0; i < p->nscope_files; i++) {
    struct stat other;
    if (stat(p->scope_files[i], &other) == 0 && other.st_dev == st.st_dev &&
        other.st_ino == st.st_ino) {
      snprintf(why, why_len,
               "%s: refused: it is the same file as %s, of another scope "
               "(a link?); a project file must be its own file",
               file, p->scope_files[i]);
      return -1;
    }
  }
  return 0;
}

/* ---- reading ---- */

typedef struct loader {
  config *c;
  config_policy pol;
  const config_sources *o;
  config_paths paths;
} loader;

static bool env_allowed(void *ud, const char *var) {
  return policy_env_allowed(ud, var);
}

/* Whether a project or plugin entry may read each of the user's secrets
 * it names (approval_reads() "secret" items: oauth.clientSecretEnv,
 * oauth.privateKeyFile, tls.keyFile, oauth.xaa): only where the user's
 * settings allow that name, path or grant for that server. The file
 * chose the server, and so where the secret goes. */
static bool secrets_allowed(loader *L, const char *src, const char *path,
                            const char *name, const cJSON *e) {
  cJSON *reads = approval_reads(e);
  bool ok = true;
  const cJSON *r;
  cJSON_ArrayForEach(r, reads) {
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "secret")) ||
        policy_secret_allowed(&L->pol, name, r))
      continue;
    const char *key =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "key"));
    const char *kind =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "kind"));
    const char *value =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "value"));
    const char *list = strcmp(kind, "variable") == 0 ? "envVars"
                       : strcmp(kind, "file") == 0   ? "files"
                                                     : "xaa";
    char *what =
        strcmp(list, "xaa") == 0
            ? xstrdup("your identity provider's grant")
            : xasprintf("the %s %s",
                        strcmp(list, "envVars") == 0 ? "environment variable"
                                                     : "file",
                        value);
    char *allow = strcmp(list, "xaa") == 0 ? xstrdup("true")
                                           : xasprintf("[\"%s\"]", value);
    config_error(L->c,
                 "%s: server \"%s\": refused: %s reads %s, which a project "
                 "or plugin server gets only where your settings allow it "
                 "(%s: \"allowedServerSecrets\": {\"%s\": {\"%s\": %s}}) "
                 "(at %s.%s)",
                 src, name, key, what, L->paths.user_settings, name, list,
                 allow, path, key);
    free(what);
    free(allow);
    ok = false;
  }
  cJSON_Delete(reads);
  return ok;
}

/* Adds the servers of one {NAME: {...}} object, validated and expanded,
 * without any name check: merge() settles clashes afterwards. */
static void stage_servers(loader *L, const cJSON *servers, config_scope scope,
                          const char *src, const char *where,
                          const char *prefix, const char *label) {
  config *c = L->c;
  if (!cJSON_IsObject(servers)) {
    config_error(c, "%s: \"mcpServers\" must be an object (at %s)", src, where);
    return;
  }
  /* Scopes the user did not write expand only what allowedEnvVars
   * allows, and never into a URL's scheme or host. */
  const config_policy *pol = &L->pol;
  expand_rules rules = {.allowed =
                            pol->env_allowed_set[0] || pol->env_allowed_set[1]
                                ? env_allowed
                                : NULL,
                        .allowed_ud = &L->pol,
                        .allowed_origin = pol->env_allowed_origin,
                        .guard_url = true};
  bool untrusted = scope == SCOPE_PROJECT || SCOPE_IS_PROVIDED(scope);
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    if (!e->string || e->string[0] == '\0') {
      config_error(c, "%s: a server has an empty name (at %s)", src, where);
      continue;
    }
    char *path = config_path_join(where, e->string);
    char *name = str_concat(prefix ? prefix : "", e->string);
    const char *reserved = policy_reserved(name, scope);
    const char *type = NULL;
    if (label && !str_starts(name, CONFIG_CLAUDEAI_PREFIX))
      config_error(c,
                   "%s: server \"%s\": refused: a claude.ai connector's name "
                   "starts with \"" CONFIG_CLAUDEAI_PREFIX "\" (at %s)",
                   src, name, path);
    else if (reserved)
      config_error(c, "%s: server \"%s\": refused: %s (at %s)", src, name,
                   reserved, path);
    else if (!untrusted || secrets_allowed(L, src, path, name, e))
      type = config_check_entry(c, src, path, name, e);
    cJSON *json = type ? cJSON_Duplicate(e, 1) : NULL;
    if (json && config_expand_entry(c, src, path, name, json,
                                    untrusted ? &rules : NULL) < 0) {
      cJSON_Delete(json);
      json = NULL;
    }
    if (json) {
      server_config *s = config_append(c, name, type, src, json);
      s->scope = scope;
      s->scope_label = label;
      s->raw = cJSON_Duplicate(e, 1);
    }
    free(name);
    free(path);
  }
}

static void stage_doc(loader *L, const cJSON *doc, config_scope scope,
                      const char *src, const char *where, bool required) {
  char *path = config_path_join(where, "mcpServers");
  const cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
  if (servers)
    stage_servers(L, servers, scope, src, path, NULL, NULL);
  else if (required)
    config_warn(L->c, "%s: no \"mcpServers\" object; nothing to load", src);
  free(path);
}

static bool read_bool(config *c, const cJSON *doc, const char *key,
                      const char *src, const char *where, bool *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, key);
  if (!v)
    return false;
  if (!cJSON_IsBool(v)) {
    char *path = config_path_join(where, key);
    config_error(c, "%s: \"%s\" must be true or false (at %s)", src, key, path);
    free(path);
    return false;
  }
  *out = cJSON_IsTrue(v);
  return true;
}

/* The settings keys of a settings document or a project record at
 * `where` (empty: the top level). Policy lists only where `policy`. */
static void read_settings(loader *L, const cJSON *doc, config_scope scope,
                          const char *src, const char *where, bool policy) {
  config *c = L->c;
  config_policy *p = &L->pol;
  static const char *const lists[] = {"allowedMcpServers", "deniedMcpServers"};
  for (size_t i = 0; i < 2 && policy; i++) {
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(doc, lists[i]);
    if (l) {
      char *path = config_path_join(where, lists[i]);
      policy_load_list(p, c, l, i == 0, scope, src, path);
      free(path);
    }
  }
  bool b;
  if (scope == SCOPE_ENTERPRISE &&
      read_bool(c, doc, "allowManagedMcpServersOnly", src, where, &b))
    p->managed_only = b;
  struct {
    const char *key;
    name_list *l;
  } names[] = {{"disabledMcpServers", &p->disabled},
               {"enabledMcpjsonServers",
                scope == SCOPE_LOCAL ? &p->approved : &p->approved_everywhere},
               {"disabledMcpjsonServers", &p->rejected}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(doc, names[i].key);
    if (l) {
      char *path = config_path_join(where, names[i].key);
      policy_load_names(names[i].l, c, l, "server", src, path);
      free(path);
    }
  }
  if (read_bool(c, doc, "enableAllProjectMcpServers", src, where, &b) && b &&
      !p->approve_all_origin) {
    char *path = config_path_join(where, "enableAllProjectMcpServers");
    p->approve_all_origin = xasprintf("%s: %s", src, path);
    free(path);
  }
  const cJSON *bound = cJSON_GetObjectItemCaseSensitive(doc, APPROVAL_KEY);
  if (bound && scope == SCOPE_LOCAL) {
    if (cJSON_IsObject(bound)) {
      cJSON_Delete(p->bound);
      p->bound = cJSON_Duplicate(bound, 1);
    } else {
      char *path = config_path_join(where, APPROVAL_KEY);
      config_error(c, "%s: \"%s\" must be an object (at %s)", src, APPROVAL_KEY,
                   path);
      free(path);
    }
  }
  const cJSON *envs = cJSON_GetObjectItemCaseSensitive(doc, "allowedEnvVars");
  if (envs && policy) {
    size_t k = scope == SCOPE_ENTERPRISE ? 1 : 0;
    char *path = config_path_join(where, "allowedEnvVars");
    p->env_allowed_set[k] = true;
    policy_load_names(&p->env_allowed[k], c, envs, "variable", src, path);
    char *origin = xasprintf("%s%s%s: %s",
                             p->env_allowed_origin ? p->env_allowed_origin : "",
                             p->env_allowed_origin ? "; " : "", src, path);
    free(p->env_allowed_origin);
    p->env_allowed_origin = origin;
    free(path);
  }
  const cJSON *secrets =
      cJSON_GetObjectItemCaseSensitive(doc, "allowedServerSecrets");
  if (secrets && policy) {
    char *path = config_path_join(where, "allowedServerSecrets");
    policy_load_secrets(p, c, secrets, scope == SCOPE_ENTERPRISE ? 1 : 0, src,
                        path);
    free(path);
  }
  const cJSON *perms = cJSON_GetObjectItemCaseSensitive(doc, "permissions");
  if (perms) {
    char *path = config_path_join(where, "permissions");
    perm_rules_load(c->perms, c, perms, scope, src, path);
    free(path);
  }
}

/* A file's document; *broken says it exists but could not be used. */
static cJSON *read_doc(config *c, const char *path, bool *broken) {
  size_t before = c->nerrors;
  cJSON *doc = config_read_json(c, path, false);
  if (broken)
    *broken = !doc && c->nerrors > before;
  return doc;
}

/* A server source's document may say "scope": "claudeai": its servers
 * are claude.ai connectors, named "claude.ai <name>" as Claude Code names
 * them rather than "plugin:<id>:<name>" (the "claude.ai " names are
 * theirs alone, policy_reserved), shown under that scope, and otherwise
 * plugin servers: lowest priority, deduplicated against the others.
 * "scope": "bundle": installed MCPB bundles, named after their manifests
 * without a prefix, in the scope of that name below the plugin scope. */
static const char *source_label(loader *L, const cJSON *doc, const char *src) {
  const cJSON *scope = cJSON_GetObjectItemCaseSensitive(doc, "scope");
  if (!scope)
    return NULL;
  if (cJSON_IsString(scope) && strcmp(scope->valuestring, "claudeai") == 0)
    return "claudeai";
  if (cJSON_IsString(scope) && strcmp(scope->valuestring, "bundle") == 0)
    return "bundle";
  config_error(L->c,
               "%s: its server source gave \"scope\" other than "
               "\"claudeai\" or \"bundle\"; its servers are not used",
               src);
  return "";
}

/* The IDE connection (types ws-ide and sse-ide) is named "ide", as
 * Claude Code names it (its tools are mcp__ide__*), and belongs to the
 * session as a command-line server does: a plugin's server "ide" of one
 * of those types is taken out and staged in the dynamic scope. */
static void stage_plugin_ide(loader *L, cJSON *servers, const char *src) {
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(servers, "ide");
  const char *type =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "type"));
  if (!config_type_is_ide(type))
    return;
  cJSON *entry = cJSON_DetachItemFromObjectCaseSensitive(servers, "ide");
  cJSON *one = cJSON_CreateObject();
  cJSON_AddItemToObject(one, "ide", entry);
  stage_servers(L, one, SCOPE_DYNAMIC, src, "mcpServers", NULL, NULL);
  cJSON_Delete(one);
}

static void on_plugin_servers(void *ud, const char *plugin_id, const char *json,
                              size_t len) {
  loader *L = ud;
  char *src = xasprintf("plugin %s", plugin_id ? plugin_id : "?");
  cJSON *doc = config_parse_json(L->c, json ? json : "", json ? len : 0, src);
  const char *label = doc ? source_label(L, doc, src) : NULL;
  if (doc && (!label || *label)) {
    cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
    /* "bundle": installed bundles, in a scope of their own, named after
     * their manifests; "claudeai": connectors; else plugin:<id>:<name>. */
    bool bundles = label && strcmp(label, "bundle") == 0;
    char *prefix =
        label ? NULL : xasprintf("plugin:%s:", plugin_id ? plugin_id : "?");
    if (cJSON_IsObject(servers))
      stage_plugin_ide(L, servers, src);
    if (servers)
      stage_servers(L, servers, bundles ? SCOPE_BUNDLE : SCOPE_PLUGIN, src,
                    "mcpServers", prefix, bundles ? NULL : label);
    else
      config_error(L->c,
                   "%s: its server source gave no \"mcpServers\" "
                   "object",
                   src);
    free(prefix);
  }
  cJSON_Delete(doc);
  free(src);
}

void config_add_command_line(config *c, const config_sources *o) {
  for (size_t i = 0; i < o->nserver_specs; i++)
    config_add_command(c, o->server_specs[i]);
  for (size_t i = 0; i < o->nurls; i++)
    config_add_url(c, o->urls[i], o->url_type);
}

/* How messages name the `i`th --mcp-config argument `arg` (new string). */
static char *mcp_config_name(const char *arg, size_t i) {
  return json_text(arg) ? xasprintf("--mcp-config argument %zu", i + 1)
                                : xstrdup(arg);
}

cJSON *config_read_mcp_config(config *c, const char *arg, size_t i,
                              char **src) {
  char *name = mcp_config_name(arg, i);
  cJSON *doc = json_text(arg)
                   ? config_parse_json(c, arg, strlen(arg), name)
                   : config_read_json(c, arg, true);
  if (src)
    *src = name;
  else
    free(name);
  return doc;
}

/* Servers given on the command line, through the classic parsers. */
static void stage_command_line(loader *L) {
  const config_sources *o = L->o;
  config tmp;
  config_init(&tmp);
  config_add_command_line(&tmp, o);
  for (size_t i = 0; i < tmp.nerrors; i++)
    config_error(L->c, "%s", tmp.errors[i]);
  for (size_t i = 0; i < tmp.nwarnings; i++)
    config_warn_server(L->c, tmp.warning_servers[i], "%s", tmp.warnings[i]);
  for (size_t i = 0; i < tmp.nservers; i++) {
    server_config *t = &tmp.servers[i];
    server_config *s =
        config_append(L->c, t->name, t->type, t->source, t->json);
    t->json = NULL;
    s->raw = cJSON_Duplicate(s->json, 1);
  }
  config_free(&tmp);
  for (size_t i = 0; i < o->nmcp_configs; i++) {
    char *src = NULL;
    /* Read by the check already: not read (nor parsed) again. */
    const cJSON *given = o->mcp_docs ? o->mcp_docs[i] : NULL;
    cJSON *doc =
        given ? NULL : config_read_mcp_config(L->c, o->mcp_configs[i], i, &src);
    if (given)
      src = mcp_config_name(o->mcp_configs[i], i);
    if (given || doc)
      stage_doc(L, given ? given : doc, SCOPE_DYNAMIC, src, "", true);
    cJSON_Delete(doc);
    free(src);
  }
}

/* ---- merging ---- */

static bool is_project_unapproved(const server_config *s) {
  return s->scope == SCOPE_PROJECT &&
         (s->state == SERVER_PENDING || s->state == SERVER_REJECTED);
}

/* The plugin that provided a plugin-scope server, as its name says
 * ("plugin:<id>:..."), or "" for a claude.ai connector; *len its length. */
static const char *provider_of(const server_config *s, size_t *len) {
  if (s->scope_label) {
    *len = 0;
    return "";
  }
  const char *id = s->name + strlen("plugin:");
  *len = (size_t)(strchrnul(id, ':') - id);
  return id;
}

/* The winner's name for the duplicate message. */
static char *dup_winner(const server_config *w) {
  if (w->scope == SCOPE_BUNDLE)
    return xasprintf("installed bundle \"%s\"", w->name);
  if (w->scope == SCOPE_PLUGIN && w->scope_label)
    return xasprintf("claude.ai connector \"%s\"", w->name);
  if (w->scope == SCOPE_PLUGIN) {
    size_t n;
    const char *id = provider_of(w, &n);
    return xasprintf("server provided by plugin \"%.*s\"", (int)n, id);
  }
  return xasprintf("already-configured \"%s\"", w->name);
}

/* Whether two plugin-provided servers come from the same source. */
static bool same_plugin(const server_config *a, const server_config *b) {
  if (a->scope == SCOPE_BUNDLE || b->scope == SCOPE_BUNDLE)
    return a->scope == b->scope;
  size_t na, nb;
  const char *ia = provider_of(a, &na), *ib = provider_of(b, &nb);
  return (a->scope_label != NULL) == (b->scope_label != NULL) && na == nb &&
         strncmp(ia, ib, na) == 0;
}

/* Claude Code's rule: a plugin's server with the command or URL of an
 * active server configured by hand, or of another plugin's earlier one,
 * would start the same thing twice; it is kept in the list as skipped,
 * naming the winner. Servers configured by hand are never dropped, and
 * two of one plugin are both its author's choice. */
static void skip_duplicates(config *c, server_config *all, const bool *keep,
                            size_t n) {
  char **sigs = xcalloc(n ? n : 1, sizeof *sigs);
  for (size_t i = 0; i < n; i++)
    if (keep[i] && all[i].state == SERVER_ACTIVE)
      sigs[i] = policy_signature(&all[i]);
  for (size_t i = 0; i < n; i++) {
    if (!sigs[i] || !SCOPE_IS_PROVIDED(all[i].scope))
      continue;
    long w = -1;
    for (size_t pass = 0; pass < 2 && w < 0; pass++) {
      for (size_t j = 0; j < n && w < 0; j++) {
        bool manual = !SCOPE_IS_PROVIDED(all[j].scope);
        bool candidate = pass == 0 ? manual
                                   : !manual && j < i &&
                                         !same_plugin(&all[j], &all[i]);
        if (candidate && sigs[j] && all[j].state == SERVER_ACTIVE &&
            strcmp(sigs[i], sigs[j]) == 0)
          w = (long)j;
      }
    }
    if (w < 0)
      continue;
    char *who = dup_winner(&all[w]);
    config_warn_server(
        c, all[i].name,
        "MCP server \"%s\" skipped \xe2\x80\x94 same command/URL "
        "as %s",
        all[i].name, who);
    all[i].state = SERVER_SKIPPED;
    free(all[i].reason);
    all[i].reason = xasprintf(
        "same %s as %s", str_starts(sigs[i], "url:") ? "URL" : "command", who);
    free(all[i].winner);
    all[i].winner = xstrdup(all[w].name);
    free(who);
  }
  for (size_t i = 0; i < n; i++)
    free(sigs[i]);
  free(sigs);
}

/* An in-process server in a program that has none: listed, never
 * started (a program that embeds mcphost serves it). */
static void mark_inproc(const loader *L, server_config *s) {
  if (L->o->no_inproc && s->state == SERVER_ACTIVE &&
      strcmp(s->type, "sdk") == 0) {
    s->state = SERVER_INPROC;
    s->reason = xstrdup("served by the program that embeds mcphost "
                        "(\"type\": \"sdk\"); the mcphost executable "
                        "has no in-process servers");
  }
}

static void merge(loader *L) {
  config *c = L->c;
  size_t n = c->nservers;
  server_config *all = c->servers;
  bool *keep = xcalloc(n ? n : 1, sizeof *keep);
  for (size_t i = 0; i < n; i++) {
    policy_apply(&L->pol, c, &all[i]);
    mark_inproc(L, &all[i]);
  }
  /* Names: the first (highest) definition wins. */
  for (size_t i = 0; i < n; i++) {
    server_config *s = &all[i];
    long prev = -1;
    for (size_t j = 0; j < i && prev < 0; j++)
      if (keep[j] && strcmp(all[j].name, s->name) == 0)
        prev = (long)j;
    if (prev < 0) {
      keep[i] = true;
      continue;
    }
    server_config *p = &all[prev];
    if (is_project_unapproved(p) && s->scope != SCOPE_PROJECT) {
      config_note(c,
                  "%s: %s server \"%s\" is used: the project server of "
                  "that name in %s is %s",
                  s->source, config_scope_name(s->scope), s->name, p->source,
                  server_state_name(p));
      keep[prev] = false;
      keep[i] = true;
    } else if (s->scope == p->scope && s->scope != SCOPE_PROJECT) {
      config_warn_server(c, s->name,
                         "%s: server \"%s\" ignored: already defined in %s",
                         s->source, s->name, p->source);
    } else if (s->scope == SCOPE_DYNAMIC) {
      config_warn_server(
          c, s->name,
          "%s: server \"%s\" ignored: the %s-scope server of that "
          "name (%s) takes precedence; --strict-mcp-config uses "
          "only the servers given on the command line",
          s->source, s->name, config_scope_name(p->scope), p->source);
    } else {
      config_note(c,
                  "%s: %s server \"%s\" is shadowed by the %s-scope one in "
                  "%s",
                  s->source, config_scope_name(s->scope), s->name,
                  config_scope_name(p->scope), p->source);
    }
  }

  skip_duplicates(c, all, keep, n);

  c->servers = NULL;
  c->nservers = 0;
  for (size_t i = 0; i < n; i++) {
    if (!keep[i]) {
      config_server_free(&all[i]);
      continue;
    }
    c->servers = xrealloc(c->servers, (c->nservers + 1) * sizeof *c->servers);
    c->servers[c->nservers++] = all[i];
  }
  free(keep);
  free(all);
}

/* The project files of the walk that no other user could have written:
 * their permission rules, and their servers when `stage`. */
static void load_project_files(loader *L, bool stage) {
  config *c = L->c;
  const config_paths *P = &L->paths;
  for (size_t i = 0; i < P->nproject_files; i++) {
    const char *file = P->project_files[i];
    char *tree = config_project_tree(P, file);
    char why[2048];
    int fd;
    int t = trust_project_open(file, tree, &fd, why, sizeof why);
    free(tree);
    if (t == 0 &&
        config_project_file_foreign(P, file, fd, why, sizeof why) < 0) {
      if (fd >= 0)
        close(fd);
      t = -1;
    }
    if (t < 0)
      config_warn(c, "%s", why);
    if (t != 0)
      continue;
    /* fd < 0: a dangling link, which the reader by name reports. */
    cJSON *doc =
        fd >= 0 ? config_read_json_fd(c, fd, file) : read_doc(c, file, NULL);
    if (!doc)
      continue;
    /* --approve-project speaks for the working directory's repository,
     * or outside one for the working directory's own file. */
    if (P->repo_root || i == 0)
      policy_names_add(&L->pol.approve_cli_files, file, "--approve-project");
    const cJSON *perms = cJSON_GetObjectItemCaseSensitive(doc, "permissions");
    if (perms)
      perm_rules_load(c->perms, c, perms, SCOPE_PROJECT, file, "permissions");
    if (stage) {
      size_t before = c->nservers;
      stage_doc(L, doc, SCOPE_PROJECT, file, "", false);
      for (size_t k = before; k < c->nservers && perms; k++)
        c->servers[k].file_perms = cJSON_Duplicate(perms, 1);
    }
    cJSON_Delete(doc);
  }
}

static void load(config *c, const config_sources *o, bool project_only) {
  loader L = {.c = c, .o = o};
  policy_init(&L.pol);
  L.pol.approve_cli = o->approve_project;
  config_paths_init(&L.paths, o);
  const config_paths *P = &L.paths;
  L.pol.home = xstrdup(P->home);
  if (!c->perms)
    c->perms = perm_rules_new();

  /* Enterprise. A policy file that exists but cannot be used fails
   * closed: nothing starts until it is fixed. */
  bool broken = false;
  cJSON *msettings = read_doc(c, P->managed_settings, &broken);
  if (broken)
    L.pol.fail_closed = xasprintf(
        "the enterprise policy %s cannot be read (see the error about it); "
        "no server may start until it is fixed",
        P->managed_settings);
  if (msettings)
    read_settings(&L, msettings, SCOPE_ENTERPRISE, P->managed_settings, "",
                  true);
  cJSON *mmcp = read_doc(c, P->managed_mcp, &broken);
  bool exclusive = mmcp || broken;
  bool b;
  if (exclusive && msettings &&
      read_bool(c, msettings, "managedMcpServersExclusive", P->managed_settings,
                "", &b))
    exclusive = b;
  if (mmcp && !project_only)
    stage_doc(&L, mmcp, SCOPE_ENTERPRISE, P->managed_mcp, "", false);
  if (exclusive)
    config_note(c, "%s: enterprise exclusive mode: only its servers are used",
                P->managed_mcp);
  bool others = !exclusive && !o->strict;

  /* The user settings: user scope, and the local scope in the record of
   * this project. */
  cJSON *us = read_doc(c, P->user_settings, NULL);
  const cJSON *record = NULL;
  char *record_path = NULL;
  if (us) {
    const cJSON *projects = cJSON_GetObjectItemCaseSensitive(us, "projects");
    if (projects && !cJSON_IsObject(projects)) {
      config_error(c, "%s: \"projects\" must be an object (at projects)",
                   P->user_settings);
      projects = NULL;
    }
    record_path = config_path_join("projects", P->project_key);
    record = cJSON_GetObjectItemCaseSensitive(projects, P->project_key);
    if (record && !cJSON_IsObject(record)) {
      config_error(c, "%s: a project record must be an object (at %s)",
                   P->user_settings, record_path);
      record = NULL;
    }
    read_settings(&L, us, SCOPE_USER, P->user_settings, "", true);
    if (record)
      read_settings(&L, record, SCOPE_LOCAL, P->user_settings, record_path,
                    false);
  }
  if (others && record && !project_only)
    stage_doc(&L, record, SCOPE_LOCAL, P->user_settings, record_path, false);

  load_project_files(&L, others);
  if (others && us && !project_only)
    stage_doc(&L, us, SCOPE_USER, P->user_settings, "", false);

  /* project_only (config_load_project_server): the project files alone */
  if (!exclusive && !project_only)
    stage_command_line(&L);
  else if (exclusive && (o->nserver_specs || o->nurls || o->nmcp_configs))
    config_warn(c,
                "%s: enterprise exclusive mode: the servers given on the "
                "command line are not used",
                P->managed_mcp);
  if (others && o->plugin_sources && !project_only)
    o->plugin_sources(o->plugin_ud, on_plugin_servers, &L);

  merge(&L);
  free(record_path);
  cJSON_Delete(us);
  cJSON_Delete(mmcp);
  /* Kept for plugins that read policy keys of their own
   * (mcph.host.servers/1 policy()). */
  cJSON_Delete(c->managed);
  c->managed = msettings;
  policy_free(&L.pol);
  config_paths_free(&L.paths);
}

void config_load_scopes(config *c, const config_sources *o) {
  load(c, o, false);
}

const server_config *config_load_project_server(config *c,
                                                const config_sources *o,
                                                const char *name) {
  load(c, o, true);
  for (size_t i = 0; i < c->nservers; i++)
    if (c->servers[i].scope == SCOPE_PROJECT &&
        strcmp(c->servers[i].name, name) == 0)
      return &c->servers[i];
  return NULL;
}

void config_check_dynamic(config *c, const config_sources *o, cJSON ***docs) {
  config_add_command_line(c, o);
  if (docs)
    *docs = o->nmcp_configs ? xcalloc(o->nmcp_configs, sizeof **docs) : NULL;
  for (size_t i = 0; i < o->nmcp_configs; i++) {
    cJSON *doc = config_read_mcp_config(c, o->mcp_configs[i], i, NULL);
    if (docs)
      (*docs)[i] = doc;
    else
      cJSON_Delete(doc);
  }
}

void config_docs_free(cJSON **docs, size_t n) {
  for (size_t i = 0; docs && i < n; i++)
    cJSON_Delete(docs[i]);
  free(docs);
}
