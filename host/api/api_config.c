/* The client API's configuration files (client.h, "configuration
 * files"): the scopes' entries read, added, removed and imported, and a
 * project's choices, over config_edit.h. Files are read and written on
 * the caller's thread; what needs the plugins (an entry's transport, the
 * types served) runs on the client's loop. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "config/config_approval.h"
#include "config/config_edit.h"
#include "config/config_expand.h"
#include "config/import_clients.h"
#include "core/plugins.h"
#include "json_parse.h"
#include "json_write.h"
#include "url_redact.h"
#include "util.h"

/* The sources the client's files come from: the view's (the CLI's
 * command line), else what the client loaded its configuration from;
 * without a client (or before it loaded any) the defaults. */
static config_sources sources_of(const mcphost_client *c) {
  if (c && c->sources)
    return *c->sources;
  if (c && c->h->have_cfg_sources)
    return c->h->cfg_sources;
  return (config_sources){0};
}

/* A new tree's text for the caller (mcphost_free), and the tree freed. */
static int give_json(cJSON *v, char **out, mcphost_error *err) {
  char *text = json_print(v);
  cJSON_Delete(v);
  if (!text)
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "cannot write the result");
  if (out)
    *out = text;
  else
    free(text);
  return MCPHOST_OK;
}

/* `out` may be NULL: the check alone. */
/* The result of a function that ended with `rc`: given on success,
 * freed otherwise. */
static int finish(int rc, cJSON *v, char **out, mcphost_error *err) {
  if (rc == MCPHOST_OK)
    return give_json(v, out, err);
  cJSON_Delete(v);
  return rc;
}

/* `out` may be NULL: the check alone. */
static int parse_scope(const char *scope, config_scope *out,
                       mcphost_error *err) {
  config_scope sc;
  if (scope && edit_parse_scope(scope, out ? out : &sc))
    return MCPHOST_OK;
  return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                  "unknown configuration scope \"%s\": it is local, user or "
                  "project",
                  scope ? scope : "(null)");
}

/* Every function's start: no error, no result. */
static void begin(char **result_json, mcphost_error *err) {
  api_clear_error(err);
  if (result_json)
    *result_json = NULL;
}

/* The client's paths (sources_of), in *P (config_paths_free). */
static config_sources paths_of(const mcphost_client *c, config_paths *P) {
  config_sources src = sources_of(c);
  config_paths_init(P, &src);
  return src;
}

/* A writable scope's file, from its name. */
typedef struct scoped {
  config_paths P;
  edit_target t;
} scoped;

static int scoped_open(const mcphost_client *c, const char *scope, scoped *s,
                       mcphost_error *err) {
  config_scope sc;
  int rc = parse_scope(scope, &sc, err);
  if (rc != MCPHOST_OK)
    return rc;
  paths_of(c, &s->P);
  edit_target_init(&s->t, sc, &s->P);
  return MCPHOST_OK;
}

static void scoped_close(scoped *s) {
  edit_target_free(&s->t);
  config_paths_free(&s->P);
}

/* {"scope", "file", "where"} of a target. */
static cJSON *target_json(const edit_target *t) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "scope", config_scope_name(t->scope));
  cJSON_AddStringToObject(o, "file", t->file);
  char *where = edit_target_text(t);
  cJSON_AddStringToObject(o, "where", where);
  free(where);
  return o;
}

/* ---- checking an entry ---- */

/* A transport created only to validate its configuration is destroyed
 * before it could call back; these are never run. */
static void ignore_message(void *ud, const char *json, size_t len) {
  (void)ud;
  (void)json;
  (void)len;
}
static void ignore_event(void *ud, int code, const char *message) {
  (void)ud;
  (void)code;
  (void)message;
}

typedef struct transport_check {
  mcphost_client *c;
  const char *name, *type, *text;
  bool ok;
  char why[MCPHOST_ERROR_MAX];
} transport_check;

/* On the loop: the transport of the entry's type created (it validates
 * every field without any I/O) and destroyed. */
static void check_transport(void *ud) {
  transport_check *k = ud;
  const type_binding *tb = registry_find_type(host_registry(k->c->h), k->type);
  if (!tb) {
    snprintf(k->why, sizeof k->why,
             "the new entry: server \"%s\": no loaded plugin serves "
             "transport type \"%s\" (see mcphost plugins; a plugin "
             "outside the built-in directory needs --plugin-dir here too)",
             k->name, k->type);
    return;
  }
  mcph_error perr;
  mcph_error_init(&perr);
  /* A deferred plugin (ABI 1.6 provides) is initialized here. */
  const mcph_transport_factory *tf = plugin_transport(tb->winner, &perr);
  if (!tf) {
    snprintf(k->why, sizeof k->why, "the new entry: server \"%s\": %s", k->name,
             perr.message);
    return;
  }
  mcph_transport_events ev = {.struct_size = sizeof ev,
                              .on_message = ignore_message,
                              .on_error = ignore_event,
                              .on_close = ignore_event};
  mcph_transport_params params = {.struct_size = sizeof params,
                                  .type = k->type,
                                  .server_name = k->name,
                                  .config_json = k->text,
                                  .events = &ev};
  mcph_transport *t = NULL;
  if (tf->create(tb->winner->ctx, &params, &t, &perr) != 0) {
    snprintf(k->why, sizeof k->why, "the new entry: server \"%s\": %s", k->name,
             perr.message[0] ? perr.message : "invalid configuration");
    return;
  }
  tf->destroy(t);
  k->ok = true;
}

/* Whether the entry would load and (with a client) its transport accept
 * it: the loader's checks, the expansion, then the transport's create().
 * Returns its type (new) or NULL with `why` filled. */
static char *entry_check(mcphost_client *c, const char *name,
                         const cJSON *entry, char *why, size_t why_len) {
  config tmp;
  config_init(&tmp);
  char *type = NULL;
  cJSON *json = NULL;
  const char *t = config_check_entry(&tmp, "the new entry", name, name, entry);
  if (!t) {
    snprintf(why, why_len, "%s", tmp.errors[0]);
    goto out;
  }
  json = cJSON_Duplicate(entry, 1);
  if (config_expand_entry(&tmp, "the new entry", name, name, json, NULL) < 0) {
    snprintf(why, why_len, "%s", tmp.errors[0]);
    goto out;
  }
  if (c) {
    transport_check k = {.c = c, .name = name, .type = t};
    char *text = cJSON_PrintUnformatted(json);
    k.text = text;
    if (api_run_on_loop(c, check_transport, &k) != 0)
      snprintf(k.why, sizeof k.why, "the client's loop has ended");
    cJSON_free(text);
    if (!k.ok) {
      snprintf(why, why_len, "%s", k.why);
      goto out;
    }
  }
  type = xstrdup(t);
out:
  cJSON_Delete(json);
  config_free(&tmp);
  return type;
}

/* The command line or URL as written (never expanded: an expanded value
 * may hold a secret from the environment); a URL without its password and
 * query, as every message shows it (url_redact.h). New string. */
static char *target_text(const cJSON *e) {
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "url"));
  const char *cmd =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "command"));
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  if (cmd) {
    approval_add_word(&b, cmd);
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(e, "args")) {
      approval_add_word(&b, cJSON_GetStringValue(a) ? a->valuestring : "");
    }
  } else if (url) {
    char *shown = url_redacted(url);
    sb_adds(&b, shown ? shown : "");
    free(shown);
  } else {
    sb_adds(&b, "-");
  }
  return sb_take(&b);
}

/* ---- adding, removing, reading ---- */

int mcphost_config_add(mcphost_client *c, const char *scope, const char *name,
                       const char *entry_json, unsigned flags,
                       char **result_json, mcphost_error *err) {
  begin(result_json, err);
  int rc = parse_scope(scope, NULL, err);
  if (rc != MCPHOST_OK)
    return rc;
  if (flags & ~(unsigned)MCPHOST_CONFIG_CHECK_ONLY)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "unknown flags 0x%x for mcphost_config_add", flags);
  char *why = NULL;
  cJSON *entry =
      entry_json ? json_parse_why(entry_json, strlen(entry_json), &why) : NULL;
  if (!cJSON_IsObject(entry)) {
    if (!why)
      why = entry_json
                ? xasprintf("a JSON object is needed, not %s", json_kind(entry))
                : xstrdup("no entry given");
    /* The CLI knows this error by its start (cli/mcp_cmd.c). */
    rc = api_fail(err, MCPHOST_EUSAGE, 0, name, "the server entry: %s", why);
    free(why);
    cJSON_Delete(entry);
    return rc;
  }
  if (!name || !edit_valid_name(name)) {
    cJSON_Delete(entry);
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "invalid server name \"%s\": use letters, digits, '-' "
                    "and '_'",
                    name ? name : "");
  }
  char reason[MCPHOST_ERROR_MAX];
  char *type = entry_check(c, name, entry, reason, sizeof reason);
  if (!type) {
    cJSON_Delete(entry);
    return api_fail(err, MCPHOST_EUSAGE, 0, name, "%s; nothing written",
                    reason);
  }
  scoped sp;
  scoped_open(c, scope, &sp, NULL);
  cJSON *result = target_json(&sp.t);
  cJSON_AddStringToObject(result, "name", name);
  cJSON_AddStringToObject(result, "type", type);
  char *line = target_text(entry);
  cJSON_AddStringToObject(cJSON_AddObjectToObject(result, "shown"), "target",
                          line);
  free(line);
  if (!(flags & MCPHOST_CONFIG_CHECK_ONLY)) {
    cJSON *servers = cJSON_CreateObject();
    cJSON_AddItemToObject(servers, name, entry);
    entry = NULL;
    int w = edit_add_servers(&sp.t, servers, false, NULL, NULL, reason,
                             sizeof reason);
    cJSON_Delete(servers);
    if (w < 0)
      rc = api_fail(err,
                    strstr(reason, "already exists") ? MCPHOST_EUSAGE
                                                     : MCPHOST_ESERVER,
                    0, name, "%s", reason);
  }
  cJSON_Delete(entry);
  free(type);
  scoped_close(&sp);
  return finish(rc, result, result_json, err);
}

int mcphost_config_remove(mcphost_client *c, const char *scope,
                          const char *name, char **result_json,
                          mcphost_error *err) {
  begin(result_json, err);
  int rc = parse_scope(scope, NULL, err);
  if (rc != MCPHOST_OK)
    return rc;
  if (!name || !*name)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "no server name given");
  scoped sp;
  scoped_open(c, scope, &sp, NULL);
  char why[MCPHOST_ERROR_MAX];
  int w = edit_remove_server(&sp.t, name, why, sizeof why);
  cJSON *result = NULL;
  if (w < 0) {
    rc = api_fail(err, MCPHOST_ESERVER, 0, name, "%s", why);
  } else if (w == 0) {
    rc = api_fail(err, MCPHOST_ENOTFOUND, 0, name,
                  "no MCP server named \"%s\" in %s", name, sp.t.file);
  } else {
    result = target_json(&sp.t);
    cJSON_AddStringToObject(result, "name", name);
  }
  scoped_close(&sp);
  return finish(rc, result, result_json, err);
}

int mcphost_config_entries(mcphost_client *c, const char *scope,
                           char **result_json, mcphost_error *err) {
  begin(result_json, err);
  config_scope only = SCOPE_LOCAL;
  if (scope) {
    int rc = parse_scope(scope, &only, err);
    if (rc != MCPHOST_OK)
      return rc;
  }
  config_paths P;
  paths_of(c, &P);
  static const config_scope order[] = {SCOPE_LOCAL, SCOPE_PROJECT, SCOPE_USER};
  cJSON *out = cJSON_CreateArray();
  for (size_t i = 0; i < 3; i++) {
    if (scope && only != order[i])
      continue;
    edit_target t;
    edit_target_init(&t, order[i], &P);
    cJSON *servers = edit_servers(&t);
    const cJSON *e;
    cJSON_ArrayForEach(e, servers) {
      cJSON *o = target_json(&t);
      cJSON_AddStringToObject(o, "name", e->string);
      cJSON_AddItemToObject(o, "entry", cJSON_Duplicate(e, 1));
      cJSON_AddItemToArray(out, o);
    }
    cJSON_Delete(servers);
    edit_target_free(&t);
  }
  config_paths_free(&P);
  return give_json(out, result_json, err);
}

/* ---- a project's choices ---- */

int mcphost_project_choice(mcphost_client *c, const char *choice,
                           const char *names_json, unsigned flags,
                           char **result_json, mcphost_error *err) {
  begin(result_json, err);
  choice_kind kind;
  if (choice && strcmp(choice, "approve") == 0)
    kind = CHOICE_APPROVE;
  else if (choice && strcmp(choice, "reject") == 0)
    kind = CHOICE_REJECT;
  else if (choice && strcmp(choice, "reset") == 0)
    kind = CHOICE_RESET;
  else
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "unknown project choice \"%s\": it is approve, reject or "
                    "reset",
                    choice ? choice : "(null)");
  if (flags & ~(unsigned)MCPHOST_CHOICE_BY_NAME)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "unknown flags 0x%x for mcphost_project_choice", flags);
  cJSON *names = NULL;
  if (kind != CHOICE_RESET) {
    char *why = NULL;
    names = names_json ? json_parse_why(names_json, strlen(names_json), &why)
                       : NULL;
    bool strings = cJSON_IsArray(names) && cJSON_GetArraySize(names) > 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, names) strings = strings && cJSON_IsString(it);
    if (!strings) {
      int rc = api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                        "the server names to %s: %s", choice,
                        why ? why
                            : "a non-empty JSON array of strings is "
                              "needed");
      free(why);
      cJSON_Delete(names);
      return rc;
    }
  }
  config_paths P;
  config_sources src = paths_of(c, &P);
  size_t n = (size_t)cJSON_GetArraySize(names);
  config *found = xcalloc(n ? n : 1, sizeof *found);
  edit_choice *items = xcalloc(n ? n : 1, sizeof *items);
  cJSON *result = cJSON_CreateObject();
  cJSON_AddStringToObject(result, "project", P.project_key);
  cJSON *searched = cJSON_AddArrayToObject(result, "searched");
  for (size_t k = 0; k < P.nproject_files; k++)
    cJSON_AddItemToArray(searched, cJSON_CreateString(P.project_files[k]));
  cJSON *report = cJSON_AddArrayToObject(result, "servers");
  const char *missing = NULL;
  bool by_name = (flags & MCPHOST_CHOICE_BY_NAME) || kind == CHOICE_RESET;
  for (size_t i = 0; i < n; i++) {
    const char *name = cJSON_GetArrayItem(names, (int)i)->valuestring;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToArray(report, o);
    cJSON_AddStringToObject(o, "name", name);
    config_init(&found[i]);
    if (by_name) {
      items[i] = (edit_choice){.name = name};
      continue;
    }
    const server_config *s = config_load_project_server(&found[i], &src, name);
    cJSON_AddBoolToObject(o, "found", s != NULL);
    cJSON *errs = cJSON_AddArrayToObject(o, "errors");
    for (size_t k = 0; k < found[i].nerrors; k++)
      cJSON_AddItemToArray(errs, cJSON_CreateString(found[i].errors[k]));
    cJSON *warns = cJSON_AddArrayToObject(o, "warnings");
    for (size_t k = 0; k < found[i].nwarnings; k++)
      cJSON_AddItemToArray(warns, cJSON_CreateString(found[i].warnings[k]));
    if (!s) {
      missing = missing ? missing : name;
      continue;
    }
    cJSON_AddStringToObject(o, "file", s->source);
    if (kind == CHOICE_APPROVE) {
      char *what = approval_summary(s->raw, s->file_perms, "\n");
      cJSON_AddStringToObject(o, "summary", what);
      free(what);
      if (s->changes)
        cJSON_AddStringToObject(o, "changes", s->changes);
    }
    items[i] = (edit_choice){.name = s->name,
                             .file = kind == CHOICE_APPROVE ? s->source : NULL,
                             .raw = kind == CHOICE_APPROVE ? s->raw : NULL,
                             .perms = s->file_perms};
  }
  int rc = MCPHOST_OK;
  char why[MCPHOST_ERROR_MAX];
  if (missing)
    rc = api_fail(err, MCPHOST_ENOTFOUND, 0, missing,
                  "no server named \"%s\" in this project's trusted .mcp.json "
                  "files; nothing written",
                  missing);
  else if (edit_project_choice(P.user_settings, P.project_key, kind, items, n,
                               why, sizeof why) < 0)
    rc = api_fail(err, MCPHOST_ESERVER, 0, NULL, "%s", why);
  for (size_t i = 0; i < n; i++)
    config_free(&found[i]);
  free(found);
  free(items);
  cJSON_Delete(names);
  config_paths_free(&P);
  /* The report comes with an error too: which names were not found. */
  int grc = give_json(result, result_json, err);
  return rc != MCPHOST_OK ? rc : grc;
}

/* ---- imports ---- */

int mcphost_import_read(mcphost_client *c, const char *client, const char *file,
                        char **result_json, mcphost_error *err) {
  begin(result_json, err);
  config_paths P;
  paths_of(c, &P);
  cJSON *r = NULL;
  char *why = NULL;
  int rc = import_read(client ? client : "", file, P.project_key, &r, &why);
  config_paths_free(&P);
  if (rc != 0) {
    rc = api_fail(err, rc == -1 ? MCPHOST_EUSAGE : MCPHOST_ENOTFOUND, 0, NULL,
                  "%s", why);
    free(why);
    return rc;
  }
  return give_json(r, result_json, err);
}

int mcphost_config_import(mcphost_client *c, const char *scope,
                          const char *servers_json, char **result_json,
                          mcphost_error *err) {
  begin(result_json, err);
  int rc = parse_scope(scope, NULL, err);
  if (rc != MCPHOST_OK)
    return rc;
  char *why = NULL;
  cJSON *servers =
      servers_json ? json_parse_why(servers_json, strlen(servers_json), &why)
                   : NULL;
  if (!cJSON_IsObject(servers)) {
    rc = api_fail(err, MCPHOST_EUSAGE, 0, NULL, "the servers to import: %s",
                  why ? why : "a JSON object {NAME: entry} is needed");
    free(why);
    cJSON_Delete(servers);
    return rc;
  }
  /* As an import reads them: the loader's checks, every entry. */
  config tmp;
  config_init(&tmp);
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    if (!edit_valid_name(e->string)) {
      rc = api_fail(err, MCPHOST_EUSAGE, 0, e->string,
                    "invalid server name \"%s\": use letters, digits, '-' "
                    "and '_'; nothing written",
                    e->string);
      break;
    }
    char *path = config_path_join("mcpServers", e->string);
    bool ok = config_check_entry(&tmp, "the servers to import", path, e->string,
                                 e) != NULL;
    free(path);
    if (!ok) {
      rc = api_fail(err, MCPHOST_EUSAGE, 0, e->string, "%s; nothing written",
                    tmp.errors[0]);
      break;
    }
  }
  config_free(&tmp);
  if (rc != MCPHOST_OK) {
    cJSON_Delete(servers);
    return rc;
  }
  scoped sp;
  scoped_open(c, scope, &sp, NULL);
  cJSON *result = target_json(&sp.t);
  cJSON *added = cJSON_AddArrayToObject(result, "added");
  cJSON *skipped = cJSON_AddArrayToObject(result, "skipped");
  char reason[MCPHOST_ERROR_MAX];
  if (cJSON_GetArraySize(servers) > 0 &&
      edit_import_servers(&sp.t, servers, added, skipped, reason,
                          sizeof reason) < 0)
    rc = api_fail(err, MCPHOST_ESERVER, 0, NULL, "%s", reason);
  scoped_close(&sp);
  cJSON_Delete(servers);
  return finish(rc, result, result_json, err);
}

/* ---- the types an entry may name ---- */

typedef struct types_ctx {
  mcphost_client *c;
  cJSON *out;
} types_ctx;

static void list_types(void *ud) {
  types_ctx *k = ud;
  const registry *reg = host_registry(k->c->h);
  for (size_t i = 0; i < reg->ntypes; i++)
    cJSON_AddItemToArray(k->out, cJSON_CreateString(reg->types[i].type));
}

int mcphost_config_types(mcphost_client *c, char **result_json,
                         mcphost_error *err) {
  begin(result_json, err);
  if (!c)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_config_types needs a client: its plugins "
                    "serve the types");
  types_ctx k = {.c = c, .out = cJSON_CreateArray()};
  if (api_run_on_loop(c, list_types, &k) != 0) {
    cJSON_Delete(k.out);
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  }
  return give_json(k.out, result_json, err);
}

/* ---- the loaded configuration ---- */

static cJSON *names_of(const cJSON *obj) {
  cJSON *a = cJSON_CreateArray();
  const cJSON *it;
  cJSON_ArrayForEach(it, obj) {
    cJSON_AddItemToArray(a, cJSON_CreateString(it->string));
  }
  return a;
}

/* One loaded server: where it came from, what it runs (names only for
 * env and headers: the values are often tokens), its state. */
static cJSON *server_json(const server_config *s) {
  const cJSON *raw = s->raw ? s->raw : s->json;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", s->name);
  cJSON_AddStringToObject(o, "scope", config_server_scope(s));
  cJSON_AddStringToObject(o, "source", s->source);
  cJSON_AddStringToObject(o, "type", s->type);
  static const char *const keys[] = {"command", "args", "url"};
  for (size_t k = 0; k < 3; k++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(raw, keys[k]);
    if (v)
      cJSON_AddItemToObject(o, keys[k], cJSON_Duplicate(v, 1));
  }
  cJSON_AddItemToObject(o, "env",
                        names_of(cJSON_GetObjectItemCaseSensitive(raw, "env")));
  cJSON_AddItemToObject(
      o, "headers", names_of(cJSON_GetObjectItemCaseSensitive(raw, "headers")));
  cJSON_AddItemToObject(o, "variables", approval_vars(raw));
  cJSON *reads = approval_reads(raw);
  cJSON_AddItemToObject(o, "reads", reads);
  const cJSON *helper = cJSON_GetObjectItemCaseSensitive(raw, "headersHelper");
  if (cJSON_IsString(helper))
    cJSON_AddStringToObject(o, "headersHelper", helper->valuestring);
  cJSON_AddStringToObject(o, "state", server_state_name(s));
  if (s->reason)
    cJSON_AddStringToObject(o, "reason", s->reason);
  /* For a person: the command line or URL, the args alone, what it
   * reads, each as one line of text. */
  cJSON *shown = cJSON_AddObjectToObject(o, "shown");
  char *t = target_text(raw);
  cJSON_AddStringToObject(shown, "target", t);
  free(t);
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  const cJSON *a;
  cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(raw, "args")) {
    approval_add_word(&b, cJSON_GetStringValue(a) ? a->valuestring : "");
  }
  cJSON_AddStringToObject(shown, "args", sb_str(&b));
  sb_free(&b);
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(raw, "url"));
  if (url) {
    char *u = url_redacted(url);
    cJSON_AddStringToObject(shown, "url", u ? u : "");
    free(u);
  }
  cJSON *texts = cJSON_AddArrayToObject(shown, "reads");
  const cJSON *r;
  cJSON_ArrayForEach(r, reads) {
    char *text = approval_read_text(r);
    cJSON_AddItemToArray(texts, cJSON_CreateString(text));
    free(text);
  }
  return o;
}

typedef struct servers_ctx {
  mcphost_client *c;
  cJSON *out;
} servers_ctx;

static void list_servers(void *ud) {
  servers_ctx *k = ud;
  const config *cfg = host_cfg(k->c->h);
  for (size_t i = 0; i < cfg->nservers; i++)
    cJSON_AddItemToArray(k->out, server_json(&cfg->servers[i]));
}

int mcphost_config_servers(mcphost_client *c, char **result_json,
                           mcphost_error *err) {
  begin(result_json, err);
  if (!c)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_config_servers needs a client: its loaded "
                    "configuration");
  servers_ctx k = {.c = c, .out = cJSON_CreateArray()};
  if (api_run_on_loop(c, list_servers, &k) != 0) {
    cJSON_Delete(k.out);
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "the client's loop has ended");
  }
  return give_json(k.out, result_json, err);
}
