#include "config/config_edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/config_approval.h"
#include "config/config_scopes.h"
#include "config/config_trust.h"
#include "config/config_write.h"
#include "util.h"

bool edit_parse_scope(const char *s, config_scope *out) {
  static const config_scope writable[] = {SCOPE_LOCAL, SCOPE_USER,
                                          SCOPE_PROJECT};
  for (size_t i = 0; i < 3; i++)
    if (strcmp(s, config_scope_name(writable[i])) == 0) {
      *out = writable[i];
      return true;
    }
  return false;
}

void edit_target_init(edit_target *t, config_scope scope,
                      const config_paths *p) {
  memset(t, 0, sizeof *t);
  t->scope = scope;
  if (scope == SCOPE_PROJECT) {
    t->file = xasprintf("%s/%s", strcmp(p->cwd, "/") ? p->cwd : "",
                        CONFIG_PROJECT_FILE);
    t->tree = config_project_tree(p, p->project_files[0]);
    char why[2048];
    if (config_project_file_foreign(p, t->file, -1, why, sizeof why) < 0)
      t->foreign = xstrdup(why);
  } else {
    t->file = xstrdup(p->user_settings);
    if (scope == SCOPE_LOCAL)
      t->record = xstrdup(p->project_key);
  }
}

void edit_target_free(edit_target *t) {
  free(t->file);
  free(t->record);
  free(t->tree);
  free(t->foreign);
  memset(t, 0, sizeof *t);
}

char *edit_target_text(const edit_target *t) {
  if (t->scope == SCOPE_LOCAL)
    return xasprintf("local config (%s, private to %s)", t->file, t->record);
  return xasprintf("%s config (%s)", config_scope_name(t->scope), t->file);
}

bool edit_valid_name(const char *name) {
  if (!*name)
    return false;
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
      return false;
  return true;
}

/* An object member, created when missing. NULL with `why` filled when
 * something of another type is in the way: the edit must not destroy
 * it. */
static cJSON *member_object(cJSON *parent, const char *key, bool create,
                            const char *file, char *why, size_t why_len) {
  cJSON *o = cJSON_GetObjectItemCaseSensitive(parent, key);
  if (o && !cJSON_IsObject(o)) {
    snprintf(why, why_len,
             "%s: \"%s\" is not an object; not changing the "
             "file",
             file, key);
    return NULL;
  }
  if (!o && create)
    o = cJSON_AddObjectToObject(parent, key);
  return o;
}

/* The servers object of a target inside `doc`. */
static cJSON *servers_of(const edit_target *t, cJSON *doc, bool create,
                         char *why, size_t why_len) {
  cJSON *base = doc;
  if (t->record) {
    cJSON *projects =
        member_object(doc, "projects", create, t->file, why, why_len);
    if (!projects)
      return NULL;
    base = member_object(projects, t->record, create, t->file, why, why_len);
    if (!base)
      return NULL;
  }
  return member_object(base, "mcpServers", create, t->file, why, why_len);
}

typedef struct add_ctx {
  const edit_target *t;
  const cJSON *servers;
  bool rename;
  cJSON *added, *skipped;
} add_ctx;

static int do_add(cJSON *doc, void *ud, char *why, size_t why_len) {
  add_ctx *a = ud;
  why[0] = '\0';
  cJSON *obj = servers_of(a->t, doc, true, why, why_len);
  if (!obj)
    return -1;
  int changed = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, a->servers) {
    const cJSON *have = cJSON_GetObjectItemCaseSensitive(obj, e->string);
    if (have && cJSON_Compare(have, e, 1)) {
      if (a->skipped)
        cJSON_AddItemToArray(a->skipped, cJSON_CreateString(e->string));
      continue;
    }
    char *name = xstrdup(e->string);
    if (have && !a->rename) {
      snprintf(why, why_len,
               "server \"%s\" already exists in %s; remove it "
               "first (mcphost mcp remove %s -s %s)",
               name, a->t->file, name, config_scope_name(a->t->scope));
      free(name);
      return -1;
    }
    for (int n = 1; cJSON_GetObjectItemCaseSensitive(obj, name); n++) {
      free(name);
      name = xasprintf("%s_%d", e->string, n);
    }
    cJSON_AddItemToObject(obj, name, cJSON_Duplicate(e, 1));
    if (a->added)
      cJSON_AddItemToArray(a->added, cJSON_CreateString(name));
    free(name);
    changed = 1;
  }
  return changed;
}

static bool holds_secrets(const cJSON *servers) {
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(e, "env")) > 0 ||
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(e, "headers")) > 0)
      return true;
  }
  return false;
}

/* A project file is written only when it neither links out of its tree
 * nor is another scope's file. */
static bool edit_target_writable(const edit_target *t, char *why,
                                 size_t why_len) {
  if (t->tree && trust_project_link(t->file, t->tree, why, why_len) < 0)
    return false;
  if (t->foreign) {
    snprintf(why, why_len, "%s; not writing", t->foreign);
    return false;
  }
  return true;
}

int edit_add_servers(const edit_target *t, const cJSON *servers, bool rename,
                     cJSON *added, cJSON *skipped, char *why, size_t why_len) {
  add_ctx a = {.t = t,
               .servers = servers,
               .rename = rename,
               .added = added,
               .skipped = skipped};
  /* The settings file holds private records of every project: always
   * private. A project file is shared, unless it carries secrets. */
  mode_t mode =
      t->scope != SCOPE_PROJECT || holds_secrets(servers) ? 0600 : 0644;
  if (!edit_target_writable(t, why, why_len))
    return -1;
  return config_edit_file(t->file, mode, do_add, &a, why, why_len);
}

typedef struct remove_ctx {
  const edit_target *t;
  const char *name;
} remove_ctx;

static int do_remove(cJSON *doc, void *ud, char *why, size_t why_len) {
  remove_ctx *r = ud;
  why[0] = '\0';
  cJSON *obj = servers_of(r->t, doc, false, why, why_len);
  if (!obj)
    return why[0] ? -1 : 0;
  if (!cJSON_GetObjectItemCaseSensitive(obj, r->name))
    return 0;
  cJSON_DeleteItemFromObjectCaseSensitive(obj, r->name);
  return 1;
}

int edit_remove_server(const edit_target *t, const char *name, char *why,
                       size_t why_len) {
  remove_ctx r = {.t = t, .name = name};
  if (!edit_target_writable(t, why, why_len))
    return -1;
  return config_edit_file(t->file, 0600, do_remove, &r, why, why_len);
}

cJSON *edit_servers(const edit_target *t) {
  char why[8];
  cJSON *out = NULL;
  if (!t->tree || trust_project_link(t->file, t->tree, why, sizeof why) >= 0) {
    config tmp;
    config_init(&tmp);
    cJSON *doc = config_read_json(&tmp, t->file, false);
    cJSON *obj = doc ? servers_of(t, doc, false, why, sizeof why) : NULL;
    out = cJSON_IsObject(obj) ? cJSON_Duplicate(obj, 1) : NULL;
    cJSON_Delete(doc);
    config_free(&tmp);
  }
  return out ? out : cJSON_CreateObject();
}

/* An entry without what only restates a default: "type": "stdio" beside
 * a command, empty "args" and "env". New item. */
static cJSON *entry_content(const cJSON *e) {
  cJSON *d = cJSON_Duplicate(e, 1);
  const char *type =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "type"));
  if (type && strcmp(type, "stdio") == 0 &&
      cJSON_GetObjectItemCaseSensitive(d, "command"))
    cJSON_DeleteItemFromObjectCaseSensitive(d, "type");
  static const char *const empty[] = {"args", "env"};
  for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(d, empty[i]);
    if (v && (cJSON_IsArray(v) || cJSON_IsObject(v)) &&
        cJSON_GetArraySize(v) == 0)
      cJSON_DeleteItemFromObjectCaseSensitive(d, empty[i]);
  }
  return d;
}

/* The name under which `have` already holds an entry with the content of
 * `e`: e->string, or a renamed copy of it (NAME_1, NAME_2, ...); NULL. */
static const char *already_there(const cJSON *have, const cJSON *e) {
  cJSON *want = entry_content(e);
  const char *found = NULL;
  char *name = xstrdup(e->string);
  for (int n = 1; !found; n++) {
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(have, name);
    if (!h)
      break;
    cJSON *hc = entry_content(h);
    if (cJSON_Compare(hc, want, 1))
      found = h->string;
    cJSON_Delete(hc);
    free(name);
    name = xasprintf("%s_%d", e->string, n);
  }
  free(name);
  cJSON_Delete(want);
  return found;
}

int edit_import_servers(const edit_target *t, const cJSON *servers,
                        cJSON *added, cJSON *skipped, char *why,
                        size_t why_len) {
  /* What is there already is left out before the locked edit, which only
   * knows entries equal as written under the same name. */
  cJSON *fresh = cJSON_CreateObject();
  cJSON *have = edit_servers(t);
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    const char *as = already_there(have, e);
    if (as)
      cJSON_AddItemToArray(skipped, cJSON_CreateString(as));
    else
      cJSON_AddItemToObject(fresh, e->string, cJSON_Duplicate(e, 1));
  }
  cJSON_Delete(have);
  int rc = edit_add_servers(t, fresh, true, added, skipped, why, why_len);
  cJSON_Delete(fresh);
  return rc;
}

/* ---- project choices ---- */

typedef struct choice_ctx {
  const char *settings, *key;
  choice_kind kind;
  const edit_choice *items;
  size_t n;
} choice_ctx;

/* The list `key` of `record` as an array, created when missing. */
static cJSON *name_array(cJSON *record, const char *key, const char *file,
                         char *why, size_t why_len) {
  cJSON *a = cJSON_GetObjectItemCaseSensitive(record, key);
  if (a && !cJSON_IsArray(a)) {
    snprintf(why, why_len,
             "%s: \"%s\" is not an array; not changing the "
             "file",
             file, key);
    return NULL;
  }
  return a ? a : cJSON_AddArrayToObject(record, key);
}

static bool array_remove(cJSON *a, const char *name) {
  bool removed = false;
  for (int i = cJSON_GetArraySize(a) - 1; i >= 0; i--) {
    const char *s = cJSON_GetStringValue(cJSON_GetArrayItem(a, i));
    if (s && strcmp(s, name) == 0) {
      cJSON_DeleteItemFromArray(a, i);
      removed = true;
    }
  }
  return removed;
}

static int do_choice(cJSON *doc, void *ud, char *why, size_t why_len) {
  choice_ctx *k = ud;
  cJSON *projects =
      member_object(doc, "projects", true, k->settings, why, why_len);
  if (!projects)
    return -1;
  cJSON *record =
      member_object(projects, k->key, true, k->settings, why, why_len);
  if (!record)
    return -1;
  if (k->kind == CHOICE_RESET) {
    int changed = 0;
    static const char *const keys[] = {
        "enabledMcpjsonServers", "disabledMcpjsonServers",
        "enableAllProjectMcpServers", APPROVAL_KEY};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
      if (cJSON_GetObjectItemCaseSensitive(record, keys[i])) {
        cJSON_DeleteItemFromObjectCaseSensitive(record, keys[i]);
        changed = 1;
      }
    return changed;
  }
  cJSON *yes =
      name_array(record, "enabledMcpjsonServers", k->settings, why, why_len);
  cJSON *no = yes ? name_array(record, "disabledMcpjsonServers", k->settings,
                               why, why_len)
                  : NULL;
  cJSON *bound =
      yes && no ? member_object(record, APPROVAL_KEY, k->kind == CHOICE_APPROVE,
                                k->settings, why, why_len)
                : NULL;
  if (!yes || !no || (!bound && k->kind == CHOICE_APPROVE))
    return -1;
  cJSON *to = k->kind == CHOICE_APPROVE ? yes : no;
  cJSON *from = k->kind == CHOICE_APPROVE ? no : yes;
  for (size_t i = 0; i < k->n; i++) {
    const edit_choice *it = &k->items[i];
    /* Once in one list, never in both. */
    array_remove(from, it->name);
    array_remove(to, it->name);
    cJSON_AddItemToArray(to, cJSON_CreateString(it->name));
    /* An approval by name alone (an import) keeps the record of what an
     * earlier approval bound; a new entry or a rejection replaces it. */
    if (k->kind != CHOICE_APPROVE || it->raw)
      cJSON_DeleteItemFromObjectCaseSensitive(bound, it->name);
    if (k->kind == CHOICE_APPROVE && it->file && it->raw) {
      cJSON *rec = approval_record(it->file, it->raw, it->perms);
      if (!rec) {
        snprintf(why, why_len, "cannot record what the approval binds: %s",
                 approval_unavailable());
        return -1;
      }
      cJSON_AddItemToObject(bound, it->name, rec);
    }
  }
  if (bound && !bound->child)
    cJSON_DeleteItemFromObjectCaseSensitive(record, APPROVAL_KEY);
  return 1;
}

int edit_project_choice(const char *settings, const char *key, choice_kind kind,
                        const edit_choice *items, size_t n, char *why,
                        size_t why_len) {
  choice_ctx k = {
      .settings = settings, .key = key, .kind = kind, .items = items, .n = n};
  /* Records of what was approved: the file stays private (0600), an
   * existing wider mode narrowed. */
  return config_edit_private_file(settings, do_choice, &k, why, why_len);
}

int config_bind_approvals(const config *cfg, const config_sources *o, char *why,
                          size_t why_len) {
  size_t n = 0;
  edit_choice *items = xcalloc(cfg->nservers + 1, sizeof *items);
  for (size_t i = 0; i < cfg->nservers; i++) {
    const server_config *s = &cfg->servers[i];
    if (s->bind_approval)
      items[n++] = (edit_choice){.name = s->name,
                                 .file = s->source,
                                 .raw = s->raw,
                                 .perms = s->file_perms};
  }
  int rc = 0;
  if (n) {
    config_paths P;
    config_paths_init(&P, o);
    rc = edit_project_choice(P.user_settings, P.project_key, CHOICE_APPROVE,
                             items, n, why, why_len);
    config_paths_free(&P);
  }
  free(items);
  return rc < 0 ? -1 : 0;
}
