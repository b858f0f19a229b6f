/* What other MCP clients write, read into the {"mcpServers": {...}}
 * shape of Claude Code, for an import (config_import.c does the rest,
 * the same for every client):
 *
 *   cursor    ~/.cursor/mcp.json (a project's .cursor/mcp.json with
 *             --from): mcpServers, "url" for a remote server
 *   windsurf  ~/.codeium/windsurf/mcp_config.json: mcpServers, "serverUrl"
 *             for a remote server, "disabled"
 *   vscode    .vscode/mcp.json here, else the user's
 *             $XDG_CONFIG_HOME/Code/User/mcp.json: "servers" and "inputs"
 *             (JSON with comments), or a settings.json's "mcp" object
 *   codex     $CODEX_HOME/config.toml (~/.codex/config.toml):
 *             [mcp_servers.NAME] tables (config/toml.h)
 *
 * Their variables become mcphost's: ${env:NAME} is ${NAME}, ${userHome}
 * ${HOME}, ${workspaceFolder} the folder that holds .vscode or .cursor;
 * a VS Code ${input:ID} (asked by VS Code at start) becomes ${ID} as an
 * environment variable name (api-key: ${API_KEY}), said in a note. A
 * server that needs what mcphost has not (an envFile, another variable)
 * is skipped with the reason; a setting mcphost has not is left out with
 * a note. What the client passes on as text (a plain ${NAME} here, any
 * "${" in Codex's values) is quoted (expand_quote) so that mcphost passes
 * it on too, with a note. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/import_clients.h"
#include "config/toml.h"
#include "config/config.h"
#include "config/config_expand.h"
#include "util.h"

typedef enum { CURSOR, WINDSURF, VSCODE, CODEX, NCLIENTS } client_kind;
static const char *const client_names[NCLIENTS] = {"cursor", "windsurf",
                                                   "vscode", "codex"};
/* As a person knows them, in notes. */
static const char *const client_labels[NCLIENTS] = {"Cursor", "Windsurf",
                                                    "VS Code", "Codex"};

static long client_of(const char *name) {
  for (size_t i = 0; i < NCLIENTS; i++) {
    if (strcmp(name, client_names[i]) == 0) {
      return (long)i;
    }
  }
  return -1;
}

bool import_client_known(const char *client) {
  return client_of(client) >= 0;
}

char *import_client_path(const char *client) {
  char *home = user_home();
  const char *h = home ? home : "";
  char *path = NULL;
  switch (client_of(client)) {
  case CURSOR: path = xasprintf("%s/.cursor/mcp.json", h); break;
  case WINDSURF:
    path = xasprintf("%s/.codeium/windsurf/mcp_config.json", h);
    break;
  case VSCODE: {
    if (access(".vscode/mcp.json", F_OK) == 0) {
      char cwd[PATH_MAX];
      path =
          xasprintf("%s/.vscode/mcp.json", getcwd(cwd, sizeof cwd) ? cwd : ".");
      break;
    }
    const char *xdg = getenv("XDG_CONFIG_HOME");
    path = xdg && xdg[0] == '/' ? xasprintf("%s/Code/User/mcp.json", xdg)
                                : xasprintf("%s/.config/Code/User/mcp.json", h);
    break;
  }
  case CODEX: {
    const char *dir = getenv("CODEX_HOME");
    path = dir && *dir ? xasprintf("%s/config.toml", dir)
                       : xasprintf("%s/.codex/config.toml", h);
    break;
  }
  default: break;
  }
  free(home);
  return path;
}

void import_source_free(import_source *s) {
  cJSON_Delete(s->servers);
  cJSON_Delete(s->skipped);
  cJSON_Delete(s->notes);
  memset(s, 0, sizeof *s);
}

static void skip(import_source *s, const char *name, const char *why) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  cJSON_AddStringToObject(o, "why", why);
  cJSON_AddItemToArray(s->skipped, o);
}

static void note(import_source *s, const char *fmt, const char *a,
                 const char *b) {
  char *n = xasprintf(fmt, a, b);
  cJSON_AddItemToArray(s->notes, cJSON_CreateString(n));
  free(n);
}

/* ---- text a client passes on as it is ---- */

/* The fields whose ${VAR} mcphost expands (config_expand.h). */
static const char *const expanded_fields[] = {"command", "url", "args", "env",
                                              "headers"};

static bool is_expanded_field(const char *key) {
  for (size_t i = 0; i < sizeof expanded_fields / sizeof expanded_fields[0];
       i++) {
    if (strcmp(key, expanded_fields[i]) == 0) {
      return true;
    }
  }
  return false;
}

/* The note for text kept: the server, the field and the first "${...}"
 * of `text` (cut at 40 bytes), as the person wrote it. */
static void note_kept(cJSON *notes, const char *client, const char *server,
                      const char *field, const char *text) {
  const char *ref = strstr(text, "${");
  if (!ref) {
    return;
  }
  size_t n = strcspn(ref, "}");
  n = ref[n] == '}' ? n + 1 : n;
  char *shown = xstrndup(ref, n > 40 ? 40 : n);
  char *quoted = expand_quote(shown);
  char *line = xasprintf("server \"%s\": %s: %s is passed on as text, as "
                         "%s does (written %s, which mcphost does not "
                         "expand)",
                         server, field, shown, client, quoted);
  cJSON_AddItemToArray(notes, cJSON_CreateString(line));
  free(line);
  free(quoted);
  free(shown);
}

/* The string `it`, or each string in the array or object `it`, quoted
 * (expand_quote) where it holds "${"; a note for each one. */
static void keep_text(cJSON *notes, const char *client, const char *server,
                      const char *field, cJSON *it) {
  if (cJSON_IsString(it)) {
    if (strstr(it->valuestring, "${")) {
      note_kept(notes, client, server, field, it->valuestring);
      char *q = expand_quote(it->valuestring);
      cJSON_SetValuestring(it, q);
      free(q);
    }
    return;
  }
  cJSON *m;
  int i = 0;
  cJSON_ArrayForEach(m, it) {
    char *sub = cJSON_IsArray(it) ? xasprintf("%s[%d]", field, i)
                                  : xasprintf("%s.%s", field, m->string);
    keep_text(notes, client, server, sub, m);
    free(sub);
    i++;
  }
}

void import_keep_text(cJSON *notes, const char *client, const char *server,
                      cJSON *entry) {
  cJSON *f;
  cJSON_ArrayForEach(f, entry) {
    if (is_expanded_field(f->string)) {
      keep_text(notes, client, server, f->string, f);
    }
  }
}

/* ---- JSON with comments (VS Code): comments and trailing commas out */

static char *strip_jsonc(const char *in, size_t len) {
  strbuf b;
  sb_init(&b);
  for (size_t i = 0; i < len; i++) {
    char ch = in[i];
    if (ch == '"') { /* a string, as it is */
      size_t j = i + 1;
      while (j < len && in[j] != '"') {
        j += in[j] == '\\' ? 2 : 1;
      }
      j = j < len ? j : len - 1;
      sb_add(&b, in + i, j - i + 1);
      i = j;
    } else if (ch == '/' && i + 1 < len && in[i + 1] == '/') {
      while (i < len && in[i] != '\n') {
        i++;
      }
      sb_addc(&b, '\n');
    } else if (ch == '/' && i + 1 < len && in[i + 1] == '*') {
      for (i += 2; i + 1 < len && !(in[i] == '*' && in[i + 1] == '/'); i++) {
        if (in[i] == '\n') {
          sb_addc(&b, '\n'); /* lines keep their numbers */
        }
      }
      i++;
    } else if (ch == ',') {
      size_t j = i + 1;
      while (j < len && strchr(" \t\r\n", in[j])) {
        j++;
      }
      if (j >= len || (in[j] != '}' && in[j] != ']')) {
        sb_addc(&b, ch);
      }
    } else {
      sb_addc(&b, ch);
    }
  }
  return sb_take(&b);
}

/* ---- variables ---- */

/* The environment variable a VS Code input's id becomes: letters and
 * digits upper-cased, anything else '_'. A new string. */
static char *input_variable(const char *id) {
  char *v = xstrdup(id);
  for (char *p = v; *p; p++) {
    if (*p >= 'a' && *p <= 'z') {
      *p = (char)(*p - 'a' + 'A');
    } else if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) {
      *p = '_';
    }
  }
  return v;
}

typedef struct vars {
  const char *workspace; /* the folder of .vscode/.cursor, or NULL */
  const cJSON *inputs;   /* VS Code's inputs, or NULL */
  import_source *s;
  const char *client; /* as a person knows it; NULL: Codex (no variables) */
  const char *server;
  const char *field; /* an expanded field's path (args[1]), or NULL */
  char *bad;         /* the first variable that cannot be translated (owned) */
} vars;

/* `text` with the client's variables as mcphost's. A new string. */
static char *translate(vars *v, const char *text) {
  strbuf b;
  sb_init(&b);
  for (const char *p = text; *p;) {
    const char *open = strstr(p, "${");
    const char *close = open ? strchr(open, '}') : NULL;
    if (!open || !close) {
      char *rest = v->field && open ? expand_quote(p) : xstrdup(p);
      if (v->field && open) {
        note_kept(v->s->notes, v->client, v->server, v->field, open);
      }
      sb_adds(&b, rest);
      free(rest);
      break;
    }
    sb_add(&b, p, (size_t)(open - p));
    char *name = xstrndup(open + 2, (size_t)(close - open - 2));
    if (str_starts(name, "env:")) {
      sb_printf(&b, "${%s}", name + 4);
    } else if (strcmp(name, "userHome") == 0) {
      sb_adds(&b, "${HOME}");
    } else if (strcmp(name, "pathSeparator") == 0 || strcmp(name, "/") == 0) {
      sb_adds(&b, "/");
    } else if (strcmp(name, "workspaceFolder") == 0 && v->workspace) {
      sb_adds(&b, v->workspace);
    } else if (str_starts(name, "input:")) {
      char *env = input_variable(name + 6);
      const cJSON *in, *desc = NULL;
      cJSON_ArrayForEach(in, v->inputs) {
        const char *id =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(in, "id"));
        if (id && strcmp(id, name + 6) == 0) {
          desc = cJSON_GetObjectItemCaseSensitive(in, "description");
        }
      }
      sb_printf(&b, "${%s}", env);
      const char *d = cJSON_GetStringValue(desc);
      char *what = xasprintf("input \"%s\"%s%s%s", name + 6, d ? " (" : "",
                             d ? d : "", d ? ")" : "");
      char *n = xasprintf("server \"%s\": VS Code's %s is ${%s}: set %s in "
                          "the environment",
                          v->server, what, env, env);
      cJSON_AddItemToArray(v->s->notes, cJSON_CreateString(n));
      free(n);
      free(what);
      free(env);
    } else if (strchr(name, ':') || strcmp(name, "workspaceFolder") == 0 ||
               strcmp(name, "userHome") == 0) {
      if (!v->bad) {
        v->bad = xasprintf("${%s}", name);
      }
      sb_add(&b, open, (size_t)(close - open + 1));
    } else if (v->field) {
      /* ${NAME}: the client passes it on as text; so does mcphost. */
      char *ref = xstrndup(open, (size_t)(close - open + 1));
      char *q = expand_quote(ref);
      sb_adds(&b, q);
      note_kept(v->s->notes, v->client, v->server, v->field, ref);
      free(q);
      free(ref);
    } else {
      sb_add(&b, open, (size_t)(close - open + 1)); /* not expanded here */
    }
    free(name);
    p = close + 1;
  }
  return sb_take(&b);
}

/* Every string of `j` translated in place; `field` its path when it is
 * (in) a field mcphost expands, else NULL. */
static void translate_all(vars *v, cJSON *j, const char *field) {
  if (cJSON_IsString(j)) {
    v->field = field;
    char *t = translate(v, j->valuestring);
    cJSON_SetValuestring(j, t);
    free(t);
    v->field = NULL;
    return;
  }
  cJSON *it;
  int i = 0;
  cJSON_ArrayForEach(it, j) {
    char *sub = NULL;
    if (field) {
      sub = cJSON_IsArray(j) ? xasprintf("%s[%d]", field, i)
                             : xasprintf("%s.%s", field, it->string);
    }
    translate_all(v, it, sub);
    free(sub);
    i++;
  }
}

/* ---- entries ---- */

/* Settings an entry may carry into mcphost. */
static const char *const kept_keys[] = {"type", "command", "args",   "env",
                                        "cwd",  "url",     "headers"};

/* Copies `e` (a client's entry, renamed keys already) into an mcphost
 * entry: known settings kept, variables translated, the others said. */
static void add_entry(import_source *s, vars *v, const char *name,
                      const cJSON *e) {
  cJSON *out = cJSON_CreateObject();
  const cJSON *f;
  cJSON_ArrayForEach(f, e) {
    bool kept = false;
    for (size_t i = 0; i < sizeof kept_keys / sizeof kept_keys[0]; i++) {
      kept = kept || strcmp(f->string, kept_keys[i]) == 0;
    }
    if (kept) {
      cJSON_AddItemToObject(out, f->string, cJSON_Duplicate(f, 1));
    } else {
      note(s,
           "server \"%s\": \"%s\" not imported (mcphost has no such "
           "setting)",
           name, f->string);
    }
  }
  v->server = name;
  cJSON *field;
  cJSON_ArrayForEach(field, out) {
    if (v->client) { /* Codex has no variables: its copies are kept */
      translate_all(v, field,
                    is_expanded_field(field->string) ? field->string : NULL);
    }
  }
  if (v->bad) {
    char *why = xasprintf("it uses %s, which mcphost cannot expand", v->bad);
    skip(s, name, why);
    free(why);
    free(v->bad);
    v->bad = NULL;
    cJSON_Delete(out);
    return;
  }
  cJSON_AddItemToObject(s->servers, name, out);
}

/* The folder a project file's directory (.vscode, .cursor) is in. */
static char *workspace_of(const char *path, const char *dir) {
  const char *slash = strrchr(path, '/');
  size_t dl = strlen(dir);
  if (!slash || (size_t)(slash - path) < dl + 1 ||
      strncmp(slash - dl, dir, dl) != 0 || slash[-(long)dl - 1] != '/') {
    return NULL;
  }
  return xstrndup(path, (size_t)(slash - path) - dl - 1);
}

/* Cursor, Windsurf and VS Code: JSON servers objects. */
static void read_json_servers(import_source *s, client_kind kind,
                              const cJSON *servers, vars *v) {
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    if (!cJSON_IsObject(e)) {
      skip(s, e->string, "its entry is not an object");
      continue;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "disabled"))) {
      skip(s, e->string, "it is disabled there");
      continue;
    }
    if (cJSON_GetObjectItemCaseSensitive(e, "envFile")) {
      skip(s, e->string,
           "it reads an envFile, which mcphost does not (put the variables "
           "in \"env\")");
      continue;
    }
    cJSON *d = cJSON_Duplicate(e, 1);
    cJSON_DeleteItemFromObjectCaseSensitive(d, "disabled");
    const cJSON *server_url = cJSON_GetObjectItemCaseSensitive(d, "serverUrl");
    if (kind == WINDSURF && server_url &&
        !cJSON_GetObjectItemCaseSensitive(d, "url")) {
      cJSON_AddItemToObject(d, "url", cJSON_Duplicate(server_url, 1));
      cJSON_DeleteItemFromObjectCaseSensitive(d, "serverUrl");
    }
    add_entry(s, v, e->string, d);
    cJSON_Delete(d);
  }
}

/* The "headers" object of `d`, made when missing. */
static cJSON *headers_of(cJSON *d) {
  cJSON *h = cJSON_GetObjectItemCaseSensitive(d, "headers");
  return h ? h : cJSON_AddObjectToObject(d, "headers");
}

/* A copy of Codex's value `f`, at `field` of server `server`: Codex
 * passes its values on as written, so a "${" in one stays text
 * (keep_text; never for cwd, which mcphost does not expand). */
static cJSON *codex_copy(import_source *s, const char *server,
                         const char *field, const cJSON *f) {
  cJSON *c = cJSON_Duplicate(f, 1);
  if (strcmp(field, "cwd") != 0) {
    keep_text(s->notes, client_labels[CODEX], server, field, c);
  }
  return c;
}

/* Codex: [mcp_servers.NAME] tables. */
static void read_codex(import_source *s, const cJSON *doc, vars *v) {
  const cJSON *e;
  cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "mcp_servers")) {
    if (!cJSON_IsObject(e)) {
      skip(s, e->string, "its entry is not a table");
      continue;
    }
    const cJSON *enabled = cJSON_GetObjectItemCaseSensitive(e, "enabled");
    if (cJSON_IsFalse(enabled)) {
      skip(s, e->string, "it is disabled there (enabled = false)");
      continue;
    }
    cJSON *d = cJSON_CreateObject();
    const cJSON *f;
    cJSON_ArrayForEach(f, e) {
      const char *k = f->string;
      cJSON *env = cJSON_GetObjectItemCaseSensitive(d, "env");
      if (strcmp(k, "env") == 0 && cJSON_IsObject(f) && env) {
        const cJSON *m; /* beside env_vars' entries, which it overrides */
        cJSON_ArrayForEach(m, f) {
          char *field = xasprintf("env.%s", m->string);
          cJSON_DeleteItemFromObjectCaseSensitive(env, m->string);
          cJSON_AddItemToObject(env, m->string,
                                codex_copy(s, e->string, field, m));
          free(field);
        }
      } else if (strcmp(k, "command") == 0 || strcmp(k, "args") == 0 ||
                 strcmp(k, "env") == 0 || strcmp(k, "cwd") == 0 ||
                 strcmp(k, "url") == 0) {
        cJSON_AddItemToObject(d, k, codex_copy(s, e->string, k, f));
      } else if (strcmp(k, "enabled") == 0) {
        continue;
      } else if (strcmp(k, "http_headers") == 0 && cJSON_IsObject(f)) {
        cJSON *headers = headers_of(d);
        const cJSON *h;
        cJSON_ArrayForEach(h, f) {
          char *field = xasprintf("http_headers.%s", h->string);
          cJSON_AddItemToObject(headers, h->string,
                                codex_copy(s, e->string, field, h));
          free(field);
        }
      } else if (strcmp(k, "env_http_headers") == 0 && cJSON_IsObject(f)) {
        cJSON *headers = headers_of(d);
        const cJSON *h;
        cJSON_ArrayForEach(h, f) {
          if (cJSON_IsString(h)) {
            char *ref = xasprintf("${%s}", h->valuestring);
            cJSON_AddStringToObject(headers, h->string, ref);
            free(ref);
          }
        }
      } else if (strcmp(k, "bearer_token_env_var") == 0 && cJSON_IsString(f)) {
        cJSON *headers = headers_of(d);
        char *ref = xasprintf("Bearer ${%s}", f->valuestring);
        cJSON_AddStringToObject(headers, "Authorization", ref);
        free(ref);
      } else if (strcmp(k, "env_vars") == 0 && cJSON_IsArray(f)) {
        /* Passed from Codex's environment: the same through ${NAME}. */
        if (!env) {
          env = cJSON_AddObjectToObject(d, "env");
        }
        const cJSON *n;
        cJSON_ArrayForEach(n, f) {
          if (cJSON_IsString(n) &&
              !cJSON_GetObjectItemCaseSensitive(env, n->valuestring)) {
            char *ref = xasprintf("${%s}", n->valuestring);
            cJSON_AddStringToObject(env, n->valuestring, ref);
            free(ref);
          }
        }
      } else {
        cJSON_AddItemToObject(d, k, cJSON_Duplicate(f, 1)); /* said below */
      }
    }
    if (cJSON_GetObjectItemCaseSensitive(d, "url") &&
        !cJSON_GetObjectItemCaseSensitive(d, "command")) {
      cJSON_AddStringToObject(d, "type", "http");
    }
    add_entry(s, v, e->string, d);
    cJSON_Delete(d);
  }
}

int import_client_read(const char *client, const char *path, import_source *out,
                       char **why) {
  long kind = client_of(client);
  memset(out, 0, sizeof *out);
  *why = NULL;
  if (kind < 0) {
    *why = xasprintf("no import for \"%s\"", client);
    return -1;
  }
  config tmp;
  config_init(&tmp);
  int rc = -1;
  char *text = NULL;
  cJSON *doc = NULL;
  size_t len = 0;
  text = read_whole_file(path, &len);
  if (!text) {
    *why = xasprintf("%s: cannot be read: %s", path, strerror(errno));
    goto out;
  }
  if (kind == CODEX) {
    int line = 0;
    char *bad = NULL;
    doc = toml_parse(text, len, &line, &bad);
    if (!doc) {
      *why = xasprintf("%s:%d: %s", path, line, bad);
      free(bad);
      goto out;
    }
  } else {
    char *plain = kind == VSCODE ? strip_jsonc(text, len) : xstrdup(text);
    doc = config_parse_json(&tmp, plain, strlen(plain), path);
    free(plain);
    if (!doc) {
      *why = xstrdup(tmp.nerrors ? tmp.errors[0] : path);
      goto out;
    }
  }
  out->servers = cJSON_CreateObject();
  out->skipped = cJSON_CreateArray();
  out->notes = cJSON_CreateArray();
  vars v = {.s = out, .client = kind == CODEX ? NULL : client_labels[kind]};
  char *workspace = workspace_of(path, kind == VSCODE ? ".vscode" : ".cursor");
  v.workspace = workspace;
  if (kind == CODEX) {
    read_codex(out, doc, &v);
  } else {
    const cJSON *root = doc;
    /* A VS Code settings.json keeps them under "mcp". */
    if (kind == VSCODE && cJSON_GetObjectItemCaseSensitive(doc, "mcp")) {
      root = cJSON_GetObjectItemCaseSensitive(doc, "mcp");
    }
    const char *key = kind == VSCODE ? "servers" : "mcpServers";
    v.inputs = cJSON_GetObjectItemCaseSensitive(root, "inputs");
    read_json_servers(out, (client_kind)kind,
                      cJSON_GetObjectItemCaseSensitive(root, key), &v);
  }
  free(workspace);
  rc = 0;
out:
  cJSON_Delete(doc);
  free(text);
  config_free(&tmp);
  return rc;
}
