#include "config/config.h"
#include "config/config_keys.h"
#include "config/era_policy.h"
#include "config/roots.h"
#include "split_words.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/permissions.h"
#include "util.h"
#include "json_parse.h"
#include "url_redact.h"

/* A config file larger than this is refused rather than read. */
#define CONFIG_MAX_BYTES (16u * 1024u * 1024u)

void config_init(config *c) { memset(c, 0, sizeof *c); }

static void free_list(char **list, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(list[i]);
  free(list);
}

void config_server_free(server_config *s) {
  free(s->name);
  free(s->type);
  free(s->source);
  free(s->reason);
  free(s->winner);
  free(s->changes);
  cJSON_Delete(s->json);
  cJSON_Delete(s->raw);
  cJSON_Delete(s->file_perms);
}

void config_free(config *c) {
  for (size_t i = 0; i < c->nservers; i++)
    config_server_free(&c->servers[i]);
  free(c->servers);
  free_list(c->errors, c->nerrors);
  for (size_t i = 0; i < c->nwarnings; i++)
    free(c->warning_servers[i]);
  free(c->warning_servers);
  free(c->warning_said);
  free_list(c->warnings, c->nwarnings);
  free_list(c->notes, c->nnotes);
  perm_rules_free(c->perms);
  cJSON_Delete(c->managed);
  config_init(c);
}

static void add_msg(char ***list, size_t *n, const char *fmt, va_list ap) {
  strbuf b;
  sb_init(&b);
  sb_vprintf(&b, fmt, ap);
  *list = xrealloc(*list, (*n + 1) * sizeof **list);
  (*list)[(*n)++] = sb_take(&b);
}

void config_error(config *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_msg(&c->errors, &c->nerrors, fmt, ap);
  va_end(ap);
}

static void add_warning(config *c, const char *server, const char *fmt,
                        va_list ap) {
  c->warning_servers =
      xrealloc(c->warning_servers, (c->nwarnings + 1) * sizeof(char *));
  c->warning_said =
      xrealloc(c->warning_said, (c->nwarnings + 1) * sizeof(bool));
  c->warning_servers[c->nwarnings] = server ? xstrdup(server) : NULL;
  c->warning_said[c->nwarnings] = false;
  add_msg(&c->warnings, &c->nwarnings, fmt, ap);
}

void config_warn(config *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_warning(c, NULL, fmt, ap);
  va_end(ap);
}

void config_warn_server(config *c, const char *server, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_warning(c, server, fmt, ap);
  va_end(ap);
}

void config_note(config *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_msg(&c->notes, &c->nnotes, fmt, ap);
  va_end(ap);
}

const server_config *config_find(const config *c, const char *name) {
  for (size_t i = 0; i < c->nservers; i++)
    if (strcmp(c->servers[i].name, name) == 0)
      return &c->servers[i];
  return NULL;
}

const char *config_scope_name(config_scope s) {
  switch (s) {
  case SCOPE_ENTERPRISE: return "enterprise";
  case SCOPE_LOCAL: return "local";
  case SCOPE_PROJECT: return "project";
  case SCOPE_USER: return "user";
  case SCOPE_DYNAMIC: return "dynamic";
  case SCOPE_PLUGIN: return "plugin";
  case SCOPE_BUNDLE: return "bundle";
  }
  return "?";
}

const char *config_server_scope(const server_config *s) {
  return s->scope_label ? s->scope_label : config_scope_name(s->scope);
}

const char *server_state_name(const server_config *s) {
  switch (s->state) {
  case SERVER_ACTIVE: return s->scope == SCOPE_PROJECT ? "approved" : "active";
  case SERVER_PENDING: return "pending";
  case SERVER_REJECTED: return "rejected";
  case SERVER_DENIED: return "denied";
  case SERVER_DISABLED: return "disabled";
  case SERVER_SKIPPED: return "skipped";
  case SERVER_INPROC: return "in-process";
  }
  return "?";
}

char *config_path_join(const char *prefix, const char *key) {
  bool ident = key[0] != '\0' && !(key[0] >= '0' && key[0] <= '9');
  for (const char *p = key; *p && ident; p++)
    ident = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || *p == '_' || *p == '-';
  strbuf b;
  sb_init(&b);
  sb_adds(&b, prefix ? prefix : "");
  if (ident) {
    if (b.len)
      sb_addc(&b, '.');
    sb_adds(&b, key);
    return sb_take(&b);
  }
  sb_adds(&b, "[\"");
  for (const char *p = key; *p; p++) {
    if (*p == '"' || *p == '\\')
      sb_addc(&b, '\\');
    sb_addc(&b, *p);
  }
  sb_adds(&b, "\"]");
  return sb_take(&b);
}

/* Checks the fields every transport shares; a transport checks the rest
 * when it creates the connection. Returns the type or NULL. */
const char *config_check_entry(config *c, const char *src, const char *where,
                               const char *name, const cJSON *e) {
  if (!cJSON_IsObject(e)) {
    config_error(c, "%s: server \"%s\": must be an object (at %s)", src, name,
                 where);
    return NULL;
  }
  /* A name is shown in every list and message; a control character in
   * it could only be there to rewrite the terminal. */
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    if (*p < 0x20 || *p == 0x7f) {
      config_error(c,
                   "%s: server \"%s\": refused: its name has a control "
                   "character (at %s)",
                   src, name, where);
      return NULL;
    }
  }
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "type");
  const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(e, "command");
  const cJSON *url = cJSON_GetObjectItemCaseSensitive(e, "url");
  if (type && !cJSON_IsString(type)) {
    config_error(c, "%s: server \"%s\": \"type\" must be a string (at %s.type)",
                 src, name, where);
    return NULL;
  }
  if (type && type->valuestring[0] == '\0') {
    config_error(c, "%s: server \"%s\": \"type\" is empty (at %s.type)", src,
                 name, where);
    return NULL;
  }
  const char *t = type ? type->valuestring : NULL;
  if (!t && cmd)
    t = "stdio";
  if (!t && url)
    t = "http";
  if (!t) {
    config_error(c, "%s: server \"%s\": needs \"command\" (stdio) or \"url\" "
                    "(at %s)",
                 src, name, where);
    return NULL;
  }
  if (strcmp(t, "stdio") == 0 &&
      (!cJSON_IsString(cmd) || cmd->valuestring[0] == '\0')) {
    config_error(c, "%s: server \"%s\": \"command\" must be a non-empty "
                    "string (at %s.command)",
                 src, name, where);
    return NULL;
  }
  if (strcmp(t, "sdk") == 0) {
    /* The in-process server it names (mcp/inproc.h); Claude Code's SDK
     * entries carry it. */
    const cJSON *sdk_name = cJSON_GetObjectItemCaseSensitive(e, "name");
    if (sdk_name &&
        !(cJSON_IsString(sdk_name) && sdk_name->valuestring[0] != '\0')) {
      config_error(c,
                   "%s: server \"%s\": \"name\" must be a non-empty "
                   "string: the in-process server's name (at %s.name)",
                   src, name, where);
      return NULL;
    }
  }
  if (!roots_check_entry(c, src, where, name, e))
    return NULL;
  const cJSON *proto = cJSON_GetObjectItemCaseSensitive(e, "protocol");
  era_policy pol;
  if (proto && !(cJSON_IsString(proto) &&
                 era_policy_parse(proto->valuestring, &pol))) {
    config_error(c,
                 "%s: server \"%s\": \"protocol\" must be \"auto\", "
                 "\"modern\" or \"legacy\" (at %s.protocol)",
                 src, name, where);
    return NULL;
  }
  config_warn_entry_keys(c, src, where, name, t, e);
  return t;
}

server_config *config_append(config *c, const char *name, const char *type,
                             const char *src, cJSON *json) {
  c->servers = xrealloc(c->servers, (c->nservers + 1) * sizeof *c->servers);
  server_config *s = &c->servers[c->nservers++];
  memset(s, 0, sizeof *s);
  s->name = xstrdup(name);
  s->type = xstrdup(type);
  s->source = xstrdup(src);
  s->json = json;
  s->scope = SCOPE_DYNAMIC;
  s->state = SERVER_ACTIVE;
  return s;
}

/* Whether it was added: not when the name is taken. */
static bool add_server(config *c, const char *src, const char *name,
                       const char *type, cJSON *json) {
  const server_config *prev = config_find(c, name);
  if (prev) {
    config_warn_server(c, name,
                       "%s: server \"%s\" ignored: already defined in %s", src,
                       name, prev->source);
    cJSON_Delete(json);
    return false;
  }
  config_append(c, name, type, src, json);
  return true;
}

cJSON *config_parse_json(config *c, const char *text, size_t len,
                         const char *src) {
  char *why = NULL;
  cJSON *doc = json_parse_why(text, len, &why);
  if (!doc) {
    config_error(c, "%s: %s", src, why);
    free(why);
    return NULL;
  }
  if (!cJSON_IsObject(doc)) {
    config_error(c, "%s: the top level must be a JSON object, not %s", src,
                 json_kind(doc));
    cJSON_Delete(doc);
    return NULL;
  }
  return doc;
}

int config_load_text(config *c, const char *text, size_t len,
                     const char *src) {
  cJSON *doc = config_parse_json(c, text, len, src);
  if (!doc)
    return 0;
  int added = 0;
  const cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
  if (!servers) {
    config_warn(c, "%s: no \"mcpServers\" object; nothing to load", src);
    goto out;
  }
  if (!cJSON_IsObject(servers)) {
    config_error(c, "%s: \"mcpServers\" must be an object", src);
    goto out;
  }
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    const char *name = e->string;
    if (!name || name[0] == '\0') {
      config_error(c, "%s: a server has an empty name", src);
      continue;
    }
    char *where = config_path_join("mcpServers", name);
    const char *type = config_check_entry(c, src, where, name, e);
    free(where);
    if (!type)
      continue;
    added += add_server(c, src, name, type, cJSON_Duplicate(e, 1));
  }
out:
  cJSON_Delete(doc);
  return added;
}

/* Reads the whole regular file open on `fd` (closed here). Returns a new
 * buffer (NUL-terminated) or NULL with an error naming `path`. */
static char *read_fd(config *c, int fd, const char *path, size_t *out_len) {
  char *buf = NULL;
  struct stat st;
  if (fstat(fd, &st) < 0) {
    config_error(c, "%s: cannot stat: %s", path, strerror(errno));
    goto fail;
  }
  if (S_ISDIR(st.st_mode)) {
    config_error(c, "%s: is a directory, not a config file", path);
    goto fail;
  }
  if (!S_ISREG(st.st_mode)) {
    config_error(c, "%s: not a regular file (a FIFO, socket or device); "
                    "refusing to read it",
                 path);
    goto fail;
  }
  if (st.st_size > (off_t)CONFIG_MAX_BYTES) {
    config_error(c, "%s: too large (%lld bytes; the limit is %u)", path,
                 (long long)st.st_size, CONFIG_MAX_BYTES);
    goto fail;
  }
  size_t cap = (size_t)st.st_size + 1, len = 0;
  buf = xmalloc(cap);
  for (;;) {
    if (len + 1 >= cap) {
      if (cap > CONFIG_MAX_BYTES) {
        config_error(c, "%s: too large (the limit is %u bytes)", path,
                     CONFIG_MAX_BYTES);
        goto fail;
      }
      cap *= 2;
      buf = xrealloc(buf, cap);
    }
    ssize_t n = read(fd, buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      config_error(c, "%s: cannot read: %s", path, strerror(errno));
      goto fail;
    }
    if (n == 0)
      break;
    len += (size_t)n;
  }
  buf[len] = '\0';
  close(fd);
  *out_len = len;
  return buf;
fail:
  free(buf);
  close(fd);
  return NULL;
}

/* Reads a whole regular file. Returns a new buffer (NUL-terminated) or
 * NULL: *missing tells a file that does not exist from a bad one, for
 * which an error is recorded. */
static char *read_file(config *c, const char *path, size_t *out_len,
                       bool *missing) {
  *missing = false;
  /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    int e = errno;
    struct stat lst;
    if (e == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
      config_error(c,
                   "%s: cannot open: a symbolic link to a file that does "
                   "not exist",
                   path);
      return NULL;
    }
    if (e == ENOENT)
      *missing = true;
    else
      config_error(c, "%s: cannot open: %s", path, strerror(e));
    return NULL;
  }
  return read_fd(c, fd, path, out_len);
}

cJSON *config_read_json_fd(config *c, int fd, const char *path) {
  size_t len = 0;
  char *text = read_fd(c, fd, path, &len);
  if (!text)
    return NULL;
  cJSON *doc = config_parse_json(c, text, len, path);
  free(text);
  return doc;
}

cJSON *config_read_json(config *c, const char *path, bool required) {
  size_t len = 0;
  bool missing;
  char *text = read_file(c, path, &len, &missing);
  if (!text) {
    if (missing && required)
      config_error(c, "%s: cannot open: %s", path, strerror(ENOENT));
    return NULL;
  }
  cJSON *doc = config_parse_json(c, text, len, path);
  free(text);
  return doc;
}

int config_load_file(config *c, const char *path, bool required) {
  size_t len = 0;
  bool missing;
  char *text = read_file(c, path, &len, &missing);
  if (!text) {
    if (missing && required)
      config_error(c, "%s: cannot open: %s", path, strerror(ENOENT));
    return 0;
  }
  int added = config_load_text(c, text, len, path);
  free(text);
  return added;
}

int config_add_command(config *c, const char *spec) {
  const char *src = "command line";
  char *name = NULL;
  const char *eq = strchr(spec, '=');
  const char *sp = strpbrk(spec, " \t'\"");
  if (eq && (!sp || eq < sp)) {
    name = xstrndup(spec, (size_t)(eq - spec));
    spec = eq + 1;
  }
  char **words;
  size_t n;
  int rc = split_words(spec, &words, &n);
  if (rc < 0 || n == 0) {
    config_error(c, "%s: --server \"%s\": %s", src, spec,
              rc < 0 ? "unterminated quote" : "no command given");
    split_words_free(words);
    free(name);
    return -1;
  }
  if (!name || !*name) {
    free(name);
    const char *base = strrchr(words[0], '/');
    name = xstrdup(base ? base + 1 : words[0]);
  }
  cJSON *e = cJSON_CreateObject();
  cJSON_AddStringToObject(e, "command", words[0]);
  cJSON *args = cJSON_AddArrayToObject(e, "args");
  for (size_t i = 1; i < n; i++)
    cJSON_AddItemToArray(args, cJSON_CreateString(words[i]));
  for (size_t i = 0; i < n; i++)
    free(words[i]);
  free(words);
  add_server(c, src, name, "stdio", e);
  free(name);
  return 0;
}

int config_add_url(config *c, const char *spec, const char *type) {
  const char *src = "command line";
  const char *scheme = strstr(spec, "://");
  const char *eq = strchr(spec, '=');
  char *name = NULL;
  /* NAME=URL, unless the '=' belongs to the URL (after its scheme). */
  if (eq && (!scheme || eq < scheme)) {
    name = xstrndup(spec, (size_t)(eq - spec));
    spec = eq + 1;
    scheme = strstr(spec, "://");
  }
  if (!scheme || scheme == spec) {
    char *shown = url_redacted(spec); /* no password or query in messages */
    config_error(c, "%s: --url \"%s\": not a URL (scheme://host/...)", src,
                 shown ? shown : "?");
    free(shown);
    free(name);
    return -1;
  }
  if (!name || !*name) {
    /* The host part: after "://" and any userinfo, up to ':' '/' '?'. */
    free(name);
    const char *h = scheme + 3;
    const char *at = strchr(h, '@');
    const char *end = h + strcspn(h, "/?#");
    if (at && at < end)
      h = at + 1;
    size_t n = strcspn(h, ":/?#");
    if (*h == '[')
      n = strcspn(h, "]") + 1;
    name = n ? xstrndup(h, n) : xstrdup("remote");
  }
  /* A WebSocket URL can only be the ws transport's. */
  if (!type && (strncasecmp(spec, "ws://", 5) == 0 ||
                strncasecmp(spec, "wss://", 6) == 0))
    type = "ws";
  cJSON *e = cJSON_CreateObject();
  if (type)
    cJSON_AddStringToObject(e, "type", type);
  cJSON_AddStringToObject(e, "url", spec);
  add_server(c, src, name, type ? type : "http", e);
  free(name);
  return 0;
}

bool config_type_is_ide(const char *type) {
  return type && (strcmp(type, "ws-ide") == 0 || strcmp(type, "sse-ide") == 0);
}
